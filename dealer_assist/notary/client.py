"""What a table's journal uses to reach its notary: one request per connection over the local
Unix socket, bounded by a timeout."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

from dealer_assist.errors import JournalError, StorageFaultError
from dealer_assist.notary.protocol import MAX_LINE, Head, decode, encode


class NotaryUnavailableError(StorageFaultError):
    """The notary cannot be reached or did not answer: nothing new can be signed until it is
    back (the table deals no new hand)."""


class NotaryRefusedError(JournalError):
    """The notary refused to sign: ``code`` (``rewind``, ``not_extension``...) and its
    ``head``."""

    def __init__(self, message: str, code: str, head: Head | None) -> None:
        super().__init__(message)
        self.code, self.head = code, head


class NotaryClient:
    """The notary at ``socket_path`` signing for ``table_id``.

    Args:
        socket_path: the notary's Unix socket.
        table_id: the chain it signs (the table's id).
        timeout: seconds for connect, send and answer together (finite: the table never hangs
            on its notary).
    """

    def __init__(self, socket_path: str | Path, table_id: str, timeout: float = 5.0) -> None:
        self.socket_path = Path(socket_path)
        self.table_id = table_id
        self.timeout = timeout

    def __repr__(self) -> str:
        return f"NotaryClient({str(self.socket_path)!r}, {self.table_id!r})"

    def head(self) -> Head:
        """The table's durable head at the notary.

        Raises:
            NotaryUnavailableError: not reachable, no answer.
        """
        return Head.from_json(self._call({"op": "head"}))

    def sign(
        self,
        position: int,
        prev_hash: str,
        hash_hex: str,
        hand: str | None = None,
        dealt: bool = False,
    ) -> tuple[str, str]:
        """The signature and key id of entry ``position`` (which must extend the head);
        ``hand``: the hand's step-log name when the entry is a hand's, ``dealt``: the hand must
        have signed steps (an entry found in the journal, not journaled by this run).

        Raises:
            NotaryUnavailableError: not reachable, no answer.
            NotaryRefusedError: not an extension of the head (a rewind, a gap), the hand
                journaled already, or never dealt (``not_dealt``).
        """
        request: dict[str, Any] = {
            "op": "sign",
            "position": position,
            "prev_hash": prev_hash,
            "hash": hash_hex,
        }
        if hand is not None:
            request.update(hand=hand, dealt=dealt)
        answer = self._call(request)
        return str(answer["signature"]), str(answer["key_id"])

    def adopt(self, position: int, hash_hex: str) -> Head:
        """Start the table's chain at an existing journal's head (see the protocol).

        Raises:
            NotaryUnavailableError, NotaryRefusedError: as :meth:`sign`.
        """
        return Head.from_json(self._call({"op": "adopt", "position": position, "hash": hash_hex}))

    def sign_step(self, hand_uid: str, step_no: int, digest: str) -> str:
        """The signature of one pending step's digest.

        Raises:
            NotaryUnavailableError, NotaryRefusedError: as :meth:`sign`.
        """
        answer = self._call(
            {"op": "sign_step", "hand_uid": hand_uid, "step_no": step_no, "digest": digest}
        )
        return str(answer["signature"])

    def _call(self, request: dict[str, Any]) -> dict[str, Any]:
        request = {**request, "table": self.table_id}
        where = f"the signer (notary) at {self.socket_path}"
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(self.timeout)
                s.connect(str(self.socket_path))
                s.sendall(encode(request))
                data = b""
                while not data.endswith(b"\n") and len(data) <= MAX_LINE:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
        except (OSError, TimeoutError) as e:
            raise NotaryUnavailableError(
                f"{where} is unreachable ({e.strerror or e}): no entry can be signed",
                advice="start the notary (systemctl start dealer-assist-notary)",
            ) from e
        try:
            answer = decode(data)
        except ValueError as e:
            raise NotaryUnavailableError(f"{where} gave no answer ({e})") from e
        if not answer.get("ok"):
            head_data = answer.get("head")
            head = None
            if isinstance(head_data, dict):
                try:
                    head = Head.from_json(head_data)
                except ValueError:
                    head = None
            raise NotaryRefusedError(
                f"{where} refused: {answer.get('error', 'no reason given')}",
                str(answer.get("code", "")),
                head,
            )
        return answer
