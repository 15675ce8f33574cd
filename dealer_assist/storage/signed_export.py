"""Signed exports: a detached signature ``FILE.sig`` beside any exported file (a hand, a shift
report, a tournament's results), made with a table's or the site's key (docs/AUDIT.md).

``FILE.sig`` is one JSON object: ``format``, ``algorithm`` (``ed25519``), ``file`` (the name
signed, informative), ``size`` (bytes), ``sha256`` (of the file's bytes), ``signer`` (the table
id or ``site``), ``key_id``, ``public_key`` (64 hex digits), ``signed_at`` (ISO-8601 UTC) and
``signature``: the Ed25519 signature of ``EXPORT_CONTEXT`` + the canonical JSON of every other
field. The ``public_key`` in the file says which key signed, not that the key is the table's:
:func:`verify_export` trusts only a key given to it (pinned, the floor's, the key folder's).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_assist.errors import JournalError
from dealer_assist.events import iso_utc, utc_now
from dealer_assist.storage.chain import canonical_json
from dealer_assist.storage.signing import EXPORT_CONTEXT, PublicKey, Signer, public_key_from_hex

SIG_SUFFIX = ".sig"
FORMAT = "dealer-assist-signature/1"
_FIELDS = (
    "format",
    "algorithm",
    "file",
    "size",
    "sha256",
    "signer",
    "key_id",
    "public_key",
    "signed_at",
)


def sig_path(path: str | Path) -> Path:
    """The detached signature of ``path``: ``path`` + ``.sig``."""
    p = Path(path)
    return p.with_name(p.name + SIG_SUFFIX)


def sign_export(path: str | Path, signer: Signer, signer_name: str) -> Path:
    """Write ``FILE.sig`` for the finished file ``path``, signed by ``signer`` (the key of the
    table or site named ``signer_name``); returns the signature's path. Call it after the
    export is complete and closed: any later byte changed fails :func:`verify_export`.

    Raises:
        JournalError: the file cannot be read or the signature written.
    """
    p = Path(path)
    digest, size = _digest(p)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "algorithm": "ed25519",
        "file": p.name,
        "size": size,
        "sha256": digest,
        "signer": signer_name,
        "key_id": signer.key_id,
        "public_key": signer.public.hex,
        "signed_at": iso_utc(utc_now()),
    }
    doc["signature"] = signer.sign(_message(doc))
    out = sig_path(p)
    try:
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(out)
    except OSError as e:
        raise JournalError(f"cannot write the signature {out}: {e.strerror}") from e
    return out


@dataclass(frozen=True)
class ExportCheck:
    """What :func:`verify_export` found.

    Attributes:
        ok: the file is unchanged and signed by the trusted key.
        reason: one sentence (what differs, or ``"signature verifies"``).
        signer: the table id or ``site`` the signature names (``None`` if unreadable).
        key_id: the id of the key that signed, as the ``.sig`` says.
        trusted: the key the signature was checked against (its ``source``), ``None`` when no
            trusted key was available (then ``ok`` is false).
        signed_at: when it was signed, as the ``.sig`` says.
    """

    ok: bool
    reason: str
    signer: str | None = None
    key_id: str | None = None
    trusted: str | None = None
    signed_at: str | None = None


def read_signature(path: str | Path, signature: str | Path | None = None) -> dict[str, Any]:
    """The ``.sig`` document of ``path`` (or the file ``signature``).

    Raises:
        JournalError: missing, unreadable or not a dealer-assist signature.
    """
    s = sig_path(path) if signature is None else Path(signature)
    try:
        doc = json.loads(s.read_text(encoding="utf-8"))
    except OSError as e:
        raise JournalError(f"cannot read the signature {s}: {e.strerror}") from e
    except ValueError as e:
        raise JournalError(f"{s}: not a signature file ({e})") from e
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise JournalError(f"{s}: not a {FORMAT} signature")
    missing = [k for k in (*_FIELDS, "signature") if k not in doc]
    if missing:
        raise JournalError(f"{s}: missing {', '.join(missing)}")
    return doc


def verify_export(
    path: str | Path, trusted: PublicKey | None, signature: str | Path | None = None
) -> ExportCheck:
    """Check ``path`` against its detached signature and the ``trusted`` key: the bytes'
    SHA-256 and size, the key (the one that signed must be ``trusted``), the signature.
    Without a trusted key the signature is checked against the key in the ``.sig`` file, but
    the result is not ok (anyone can sign with a key of their own).

    Raises:
        JournalError: the file or its signature cannot be read.
    """
    doc = read_signature(path, signature)
    named = {
        "signer": str(doc["signer"]),
        "key_id": str(doc["key_id"]),
        "signed_at": str(doc["signed_at"]),
    }
    digest, size = _digest(Path(path))
    if digest != doc["sha256"] or size != doc["size"]:
        what = f"{size} bytes, signed {doc['size']}" if size != doc["size"] else "its SHA-256"
        return ExportCheck(False, f"the file was changed after it was signed ({what})", **named)
    embedded = public_key_from_hex(str(doc["public_key"]), "the signature's public key")
    key = trusted or embedded
    if embedded.key_id != doc["key_id"]:
        return ExportCheck(False, "the signature's key id is not its public key's", **named)
    if trusted is not None and trusted.hex != embedded.hex:
        return ExportCheck(
            False,
            f"signed with key {embedded.key_id}, not {trusted.key_id} ({trusted.source})",
            trusted=trusted.source,
            **named,
        )
    if not key.verify(_message(doc), str(doc["signature"])):
        return ExportCheck(False, "the signature does not match", trusted=key.source, **named)
    if trusted is None:
        return ExportCheck(
            False,
            f"signature valid for key {embedded.key_id}, which nothing pins: give the table's "
            f"public key (fingerprint {embedded.fingerprint})",
            **named,
        )
    return ExportCheck(True, "signature verifies", trusted=trusted.source, **named)


def _message(doc: dict[str, Any]) -> bytes:
    return EXPORT_CONTEXT + canonical_json({k: doc[k] for k in _FIELDS}).encode("utf-8")


def _digest(path: Path) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    try:
        with path.open("rb") as f:
            while chunk := f.read(1 << 20):
                digest.update(chunk)
                size += len(chunk)
    except OSError as e:
        raise JournalError(f"cannot read {path}: {e.strerror}") from e
    return digest.hexdigest(), size
