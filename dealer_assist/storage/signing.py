"""Ed25519 signatures: each table signs its journal's chain, and exports are signed the same way
(docs/AUDIT.md).

A table's key pair lives in a *key folder* (``0700``; by default ``keys/`` beside a SQLite
journal): ``<table>.key`` is the private key (PKCS#8 PEM, ``0600``, never in the journal),
``<table>.pub`` the public key (SubjectPublicKeyInfo PEM). Each stored entry's ``hash`` is signed
(:meth:`Signer.sign_hash`); the signature and the key id (the first 16 hex digits of the public
key's fingerprint) are stored with the entry, outside the hashed content, so journals written
before signing still verify as they are.

The local key folder is only as trustworthy as the file system the journal is on: whoever can
rewrite the journal may replace the key files too. A verify is conclusive against a key kept
where that attacker cannot reach it unseen: a *pinned* public key file (config
``journal.public_key``, ``audit verify --public-key``), the floor database's copy, or the
fingerprint the pit boss wrote down at ``audit keygen`` (:func:`format_fingerprint`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from sqlalchemy.engine import Connection

from dealer_assist.at_rest import FILE_MODE, FOLDER_MODE
from dealer_assist.errors import JournalError
from dealer_assist.storage.schema import hands

_log = logging.getLogger(__name__)

#: Prefixes of what is signed: a journal entry's hash and an export's description never sign
#: for each other.
RECORD_CONTEXT = b"dealer-assist journal entry/1\n"
EXPORT_CONTEXT = b"dealer-assist export/1\n"
KEYS_FOLDER = "keys"
KEY_SUFFIX = ".key"
PUB_SUFFIX = ".pub"
KEY_ID_DIGITS = 16


def fingerprint(public: Ed25519PublicKey) -> str:
    """SHA-256 of the raw 32-byte public key, 64 lowercase hex digits."""
    return hashlib.sha256(_raw(public)).hexdigest()


def format_fingerprint(digest: str) -> str:
    """A fingerprint as the pit boss writes it down: 16 groups of 4 hex digits."""
    return " ".join(digest[i : i + 4] for i in range(0, len(digest), 4))


def _raw(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


@dataclass(frozen=True)
class PublicKey:
    """A table's public key and where it came from.

    Attributes:
        key: the Ed25519 public key.
        source: where it was read, for messages (``"pinned key /etc/…/UTH-3.pub"``, ``"floor"``).
        pinned: kept where an attacker of the journal's files cannot rewrite it unseen (a
            pinned file, the floor); a key read from the journal's own key folder is not.
    """

    key: Ed25519PublicKey
    source: str
    pinned: bool = False
    fingerprint: str = field(init=False, repr=False, compare=False)
    """:func:`fingerprint` of the key."""
    key_id: str = field(init=False, repr=False, compare=False)
    """The id stored with each signed entry: the fingerprint's first 16 hex digits."""
    hex: str = field(init=False, repr=False, compare=False)
    """The raw public key as 64 hex digits (what the floor and ``.sig`` files store)."""

    def __post_init__(self) -> None:
        # derived once here, not as lazy properties a library descriptor calls back into
        digest = fingerprint(self.key)
        object.__setattr__(self, "fingerprint", digest)
        object.__setattr__(self, "key_id", digest[:KEY_ID_DIGITS])
        object.__setattr__(self, "hex", _raw(self.key).hex())

    def verify_hash(self, hash_hex: str, signature_hex: str) -> bool:
        """Whether ``signature_hex`` (128 hex digits) signs the entry hash ``hash_hex``."""
        return self.verify(RECORD_CONTEXT + hash_hex.encode("ascii"), signature_hex)

    def verify(self, message: bytes, signature_hex: str) -> bool:
        """Whether ``signature_hex`` signs ``message`` (a malformed signature does not)."""
        try:
            self.key.verify(bytes.fromhex(signature_hex), message)
        except (InvalidSignature, ValueError, TypeError):
            return False
        return True


class Signer:
    """A table's private key: signs entry hashes and exports.

    Args:
        private: the Ed25519 private key.
        path: the file it was read from (messages), if any.
    """

    def __init__(self, private: Ed25519PrivateKey, path: Path | None = None) -> None:
        self._private = private
        self.path = path
        self.public = PublicKey(private.public_key(), f"key file {path}" if path else "key")
        self.key_id = self.public.key_id

    def sign_hash(self, hash_hex: str) -> str:
        """The signature of an entry hash (64 hex digits) as 128 hex digits."""
        return self.sign(RECORD_CONTEXT + hash_hex.encode("ascii"))

    def sign(self, message: bytes) -> str:
        """The Ed25519 signature of ``message`` as 128 hex digits."""
        return self._private.sign(message).hex()


def load_public_key(path: str | Path, *, pinned: bool = True) -> PublicKey:
    """A public key file: SubjectPublicKeyInfo PEM (``<table>.pub``) or the raw key as 64 hex
    digits on one line.

    Raises:
        JournalError: the file cannot be read or holds no Ed25519 public key (names it).
    """
    p = Path(path).expanduser()
    try:
        data = p.read_bytes()
    except OSError as e:
        raise JournalError(f"cannot read the public key {p}: {e.strerror}") from e
    return PublicKey(_parse_public(data, p), f"{'pinned key' if pinned else 'key'} {p}", pinned)


def public_key_from_hex(text: str, source: str, *, pinned: bool = True) -> PublicKey:
    """A public key given as 64 hex digits (the floor's copy, a ``.sig`` file).

    Raises:
        JournalError: not 32 bytes of hex (names ``source``).
    """
    try:
        raw = bytes.fromhex(text.strip())
        return PublicKey(Ed25519PublicKey.from_public_bytes(raw), source, pinned)
    except (ValueError, TypeError) as e:
        raise JournalError(f"{source}: not an Ed25519 public key ({e})") from e


def public_key_from_text(text: str, source: str, *, pinned: bool = True) -> PublicKey:
    """A public key as text: SubjectPublicKeyInfo PEM or 64 hex digits (the floor's
    ``public_key`` column holds :attr:`PublicKey.hex`; PEM is accepted too).

    Raises:
        JournalError: neither (names ``source``).
    """
    return PublicKey(_parse_public(text.encode("utf-8"), source), source, pinned)


def _parse_public(data: bytes, where: Path | str) -> Ed25519PublicKey:
    text = data.strip()
    if text.startswith(b"-----BEGIN"):
        try:
            key = serialization.load_pem_public_key(text)
        except ValueError as e:
            raise JournalError(f"{where}: not a PEM public key ({e})") from e
        if not isinstance(key, Ed25519PublicKey):
            raise JournalError(f"{where}: not an Ed25519 public key")
        return key
    return public_key_from_hex(text.decode("ascii", "replace"), str(where)).key


class KeyStore:
    """The key folder of a journal's tables.

    Args:
        folder: where ``<table>.key`` / ``<table>.pub`` live (created ``0700`` on generation).
        key_file: one private key file to use for every table instead (config
            ``journal.key``); its public key is written beside it as ``<name>.pub``.
    """

    def __init__(self, folder: str | Path, key_file: str | Path | None = None) -> None:
        self.folder = Path(folder).expanduser()
        self.key_file = None if key_file is None else Path(key_file).expanduser()

    def key_path(self, table_id: str) -> Path:
        """The private key file of ``table_id`` (the table id quoted to a safe file name)."""
        if self.key_file is not None:
            return self.key_file
        return self.folder / (urllib.parse.quote(table_id, safe="") + KEY_SUFFIX)

    def pub_path(self, table_id: str) -> Path:
        """The public key file written beside the private one."""
        return self.key_path(table_id).with_suffix(PUB_SUFFIX)

    def has_key(self, table_id: str) -> bool:
        """Whether the private key file of ``table_id`` exists."""
        return self.key_path(table_id).exists()

    def load(self, table_id: str) -> Signer:
        """The private key of ``table_id``. A file of ours readable by others is set ``0600``;
        another user's is refused.

        Raises:
            JournalError: missing, unreadable, too open (another user's), not an Ed25519 key.
        """
        path = self.key_path(table_id)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError as e:
            raise JournalError(f"cannot read the signing key {path}: {e.strerror}") from e
        try:
            st = os.fstat(fd)
            if os.name == "posix" and st.st_mode & 0o077:
                if st.st_uid != os.geteuid():
                    raise JournalError(f"the signing key {path} is readable by others: refused")
                os.fchmod(fd, FILE_MODE)
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = f.read()
        finally:
            os.close(fd)
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as e:
            raise JournalError(f"{path}: not an unencrypted PEM private key ({e})") from e
        if not isinstance(key, Ed25519PrivateKey):
            raise JournalError(f"{path}: not an Ed25519 private key")
        return Signer(key, path)

    def generate(self, table_id: str) -> Signer:
        """A new key pair for ``table_id``: the private key ``0600`` (created exclusively,
        never over an existing one, fsynced), the public key beside it; the folder ``0700``.

        Raises:
            JournalError: a key already exists (names it and its fingerprint), or the files
                cannot be written.
        """
        path = self.key_path(table_id)
        if path.exists():
            raise JournalError(f"the signing key {path} exists already: {self._describe(table_id)}")
        private = Ed25519PrivateKey.generate()
        pem = private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        public_pem = private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        try:
            _private_folder(path.parent)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            _write_new(tmp, pem, FILE_MODE)
            try:
                os.link(tmp, path)  # atomic, and never replaces a key another process made
            except FileExistsError:
                raise JournalError(f"the signing key {path} was created meanwhile") from None
            finally:
                tmp.unlink(missing_ok=True)
            pub = self.pub_path(table_id)
            pub.unlink(missing_ok=True)
            _write_new(pub, public_pem, 0o644)
            _fsync_folder(path.parent)
        except OSError as e:
            raise JournalError(f"cannot write the signing key {path}: {e.strerror}") from e
        return Signer(private, path)

    def public_key(self, table_id: str) -> PublicKey | None:
        """The public key of ``table_id`` from this folder (``.pub``, else derived from the
        private key), *not pinned*; ``None`` when there is neither.

        Raises:
            JournalError: a file exists but holds no key.
        """
        pub = self.pub_path(table_id)
        if pub.is_file():
            return load_public_key(pub, pinned=False)
        if self.key_path(table_id).is_file():
            signer = self.load(table_id)
            return PublicKey(signer.public.key, f"key file {signer.path}", False)
        return None

    def _describe(self, table_id: str) -> str:
        try:
            key = self.public_key(table_id)
        except JournalError as e:
            return str(e)
        return "no public key" if key is None else f"fingerprint {key.fingerprint}"


@dataclass(frozen=True)
class KeyRing:
    """The public keys a verify trusts, per table.

    Attributes:
        tables: pinned or floor keys by table id.
        any_table: a pinned key for every table without its own (``--public-key FILE``).
        local: the journal's key folder, used for a table with no other key (not pinned).
    """

    tables: Mapping[str, PublicKey] = field(default_factory=dict)
    any_table: PublicKey | None = None
    local: KeyStore | None = None

    def for_table(self, table_id: str) -> PublicKey | None:
        """The key to check ``table_id``'s signatures with, ``None`` when there is none.

        Raises:
            JournalError: a local key file that holds no key.
        """
        key = self.tables.get(table_id, self.any_table)
        if key is None and self.local is not None:
            key = self.local.public_key(table_id)
        return key


def default_keys_folder(journal_file: Path) -> Path:
    """``keys/`` beside a SQLite journal file."""
    return journal_file.parent / KEYS_FOLDER


def _private_folder(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
    if os.name == "posix" and folder.stat().st_uid == os.geteuid():
        folder.chmod(FOLDER_MODE)


def _write_new(path: Path, data: bytes, mode: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), mode)
    try:
        if os.name == "posix":
            os.fchmod(fd, mode)  # whatever the umask
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def table_signer(conn: Connection, store: KeyStore, table_id: str) -> Signer | None:
    """The key ``table_id`` signs with: its key file; a new one at its first entry; ``None``
    for a table whose entries are all unsigned and which has no key (before signing).

    Raises:
        JournalError: the table has signed entries and its key is missing, or is another key
            than the one they were signed with; a key file that cannot be read or written.
    """
    last_key = last_key_id(conn, table_id)
    path = store.key_path(table_id)
    if store.has_key(table_id):
        signer = store.load(table_id)
        if last_key is not None and last_key != signer.key_id:
            raise JournalError(
                f"the signing key {path} (key {signer.key_id}) is not the key table {table_id}'s "
                f"journal is signed with (key {last_key}): restore the table's key file"
            )
        return signer
    if last_key is not None:
        raise JournalError(
            f"the signing key of table {table_id} is missing ({path}); its journal is signed "
            f"with key {last_key}: restore the key file (a new key would not match the pinned one)"
        )
    first = conn.execute(
        sa.select(hands.c.hand_id).where(hands.c.table_id == table_id).limit(1)
    ).first()
    if first is not None:
        _log.warning(
            "table %s: no signing key at %s, its entries stay unsigned (written before "
            "signing): create one with `dealer-assist audit keygen --table %s`",
            table_id,
            path,
            table_id,
        )
        return None
    try:
        signer = store.generate(table_id)
    except JournalError:
        if not store.has_key(table_id):
            raise
        return store.load(table_id)  # another journal of the same key folder made it meanwhile
    _log.warning(
        "table %s: new signing key %s, fingerprint %s: record it (dealer-assist audit keygen "
        "--show) and pin the public key %s",
        table_id,
        path,
        signer.public.fingerprint,
        store.pub_path(table_id),
    )
    return signer


def last_key_id(conn: Connection, table_id: str) -> str | None:
    """The key id of ``table_id``'s last signed entry in the journal, ``None`` if none."""
    found = conn.execute(
        sa.select(hands.c.key_id)
        .where(hands.c.table_id == table_id, hands.c.signature.is_not(None))
        .order_by(hands.c.hand_id.desc())
        .limit(1)
    ).scalar_one_or_none()
    return None if found is None else str(found)
