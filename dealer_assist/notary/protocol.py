"""The notary's wire format and what it signs.

One request per connection: the client writes one JSON object on one line, the service answers
one JSON object on one line and closes. Requests (``op``):

- ``head`` ``{table}``: the table's durable head, :class:`Head` fields.
- ``sign`` ``{table, position, prev_hash, hash}``: sign entry ``position`` of the table's chain.
  Accepted only when ``position`` is the head's + 1 and ``prev_hash`` the head's hash (the
  extension rule), or when it is exactly the head again (the same signature, nothing new is
  signed). Anything else is refused with ``code`` ``rewind`` (behind the head, or another hash at
  the head's position) or ``not_extension`` (a gap, or another previous hash). With ``hand``
  (the hand's step-log name, ``TABLE/UID``) the entry is the journal entry of that hand: refused
  (``rewind``) when that hand is journaled at another position already; with ``dealt`` true as
  well (an entry the table did not journal in its current run: found in the journal at start)
  refused (``not_dealt``) when no step of that hand was ever signed: a hand never dealt.
- ``adopt`` ``{table, position, hash}``: a table the notary has never signed for starts its
  chain at an existing journal's head (the upgrade of a journal written before the notary; the
  next signed entry is the legacy checkpoint). Refused once anything is signed.
- ``sign_step`` ``{table, hand_uid, step_no, digest}``: sign one pending step of a hand in
  progress; the step numbers of a hand only go forward, and a step number once signed is never
  signed again with another digest (``rewind``), whatever other hands were signed meanwhile (the
  notary remembers each hand's last step until the journal is well past it).

Answers carry ``ok``; a refusal has ``code`` and ``error`` (a sentence) and the ``head``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, TypeGuard

#: What a journal entry's signature covers, before the entry's hash (hex): the same bytes as a
#: key kept beside the journal signed (docs/AUDIT.md), so a verify checks both alike.
RECORD_CONTEXT = b"dealer-assist journal entry/1\n"
#: What a pending step's signature covers, before ``table\nhand_uid\nstep_no\ndigest``.
STEP_CONTEXT = b"dealer-assist pending step/1\n"
GENESIS_HASH = "0" * 64
MAX_LINE = 64 * 1024

REWIND = "rewind"
NOT_EXTENSION = "not_extension"
NOT_DEALT = "not_dealt"
BAD_REQUEST = "bad_request"
NO_KEY = "no_key"


@dataclass(frozen=True)
class Head:
    """A table's durable head at the notary.

    Attributes:
        table: the table id (the chain's name).
        position: the last signed entry's position (``hand_id``), 0 before the first.
        hash: that entry's hash (the genesis hash, 64 zeros, at 0; the adopted head's hash
            after ``adopt``).
        signature: that entry's signature (128 hex digits), ``None`` at 0 or just adopted.
        key_id: the key id (16 hex digits) of the table's key, ``None`` before it exists.
        public_key: the raw public key as 64 hex digits, ``None`` before it exists.
        signed_at: when the head was signed (ISO UTC), ``None`` at 0.
        adopted_at: the position the chain was adopted at (0: it began at the genesis).
    """

    table: str
    position: int = 0
    hash: str = GENESIS_HASH
    signature: str | None = None
    key_id: str | None = None
    public_key: str | None = None
    signed_at: str | None = None
    adopted_at: int = 0

    def to_json(self) -> dict[str, Any]:
        """The head as a JSON object."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Head:
        """A head read back from :meth:`to_json`.

        Raises:
            ValueError: a field missing or of the wrong type.
        """
        try:
            head = cls(
                table=str(data["table"]),
                position=int(data["position"]),
                hash=str(data["hash"]),
                signature=_opt_str(data.get("signature")),
                key_id=_opt_str(data.get("key_id")),
                public_key=_opt_str(data.get("public_key")),
                signed_at=_opt_str(data.get("signed_at")),
                adopted_at=int(data.get("adopted_at", 0)),
            )
        except (KeyError, TypeError) as e:
            raise ValueError(f"not a notary head ({e})") from e
        if head.position < 0 or not is_hash(head.hash):
            raise ValueError("not a notary head (position or hash)")
        return head


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def is_hash(text: object) -> TypeGuard[str]:
    """Whether ``text`` is 64 lowercase hex digits (a SHA-256 hex digest)."""
    return isinstance(text, str) and len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def record_message(hash_hex: str) -> bytes:
    """The bytes a journal entry's signature covers."""
    return RECORD_CONTEXT + hash_hex.encode("ascii")


def step_message(table: str, hand_uid: str, step_no: int, digest: str) -> bytes:
    """The bytes a pending step's signature covers."""
    return STEP_CONTEXT + f"{table}\n{hand_uid}\n{step_no}\n{digest}".encode()


def encode(message: dict[str, Any]) -> bytes:
    """One message as its line (UTF-8 JSON and a newline)."""
    return json.dumps(message, separators=(",", ":"), sort_keys=True).encode() + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """One line as a message.

    Raises:
        ValueError: not one JSON object.
    """
    value = json.loads(line.decode("utf-8"))
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value
