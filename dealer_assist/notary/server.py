"""The notary service: signs each table's journal entries only as extensions of its own head.

Run as its own OS user (docs/AUDIT.md "Installing the notary"): ``python -m dealer_assist.notary
serve --state /var/lib/dealer-assist-notary --socket /run/dealer-assist-notary/notary.sock``.
The socket is the only way in; whoever may connect (the table's user, by the socket's group) can
ask for the next entry to be signed, never for a position already signed to be signed again with
another hash, nor for anything behind the head.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import socketserver
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dealer_assist.errors import JournalError
from dealer_assist.notary.keystore import FileKeyStore, KeyStore, TableKey
from dealer_assist.notary.protocol import (
    BAD_REQUEST,
    MAX_LINE,
    NOT_DEALT,
    NOT_EXTENSION,
    REWIND,
    Head,
    decode,
    encode,
    is_hash,
    record_message,
    step_message,
)
from dealer_assist.notary.state import NotaryState, SignedStep

#: Journal entries after which a hand's signed steps are forgotten (it is journaled by then).
STEP_MEMORY = 64
#: Hands with signed steps a table may have at once (markers of voids included).
MAX_OPEN_HANDS = 4096

_log = logging.getLogger(__name__)


class Refused(Exception):
    """A request the notary will not sign: ``code`` and the sentence."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


class Notary:
    """The signing rules over a :class:`NotaryState` (no sockets: the server calls it).

    Args:
        state: the heads (and the keys, with the default store).
        clock: UTC-aware time of each signature (tests give their own).
        keys: where the tables' keys are (default: files in ``state``; a PKCS#11 token:
            :class:`~dealer_assist.notary.keystore.Pkcs11KeyStore`).

    Every method is serialized by one lock: a head is read, checked, extended and written
    durably before the next request is looked at.
    """

    def __init__(
        self,
        state: NotaryState,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        keys: KeyStore | None = None,
    ) -> None:
        self.state = state
        self.store: KeyStore = keys if keys is not None else FileKeyStore(state)
        self._clock = clock
        self._lock = threading.Lock()
        self._keys: dict[str, TableKey] = {}
        self._steps: dict[str, dict[str, SignedStep]] = {}  # table: hand: its last step

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to one request (see :mod:`dealer_assist.notary.protocol`); refusals are
        answers too (``ok`` false)."""
        op = request.get("op")
        table = request.get("table")
        with self._lock:
            try:
                if not isinstance(table, str) or not 0 < len(table) <= 64:
                    raise Refused(BAD_REQUEST, "no table id (1 to 64 characters)")
                if op == "head":
                    return {"ok": True, **self._head(table).to_json()}
                if op == "sign":
                    return self._sign(table, request)
                if op == "adopt":
                    return self._adopt(table, request)
                if op == "sign_step":
                    return self._sign_step(table, request)
                raise Refused(BAD_REQUEST, f"unknown request {op!r}")
            except Refused as e:
                head = self._head(table).to_json() if isinstance(table, str) and table else None
                return {"ok": False, "code": e.code, "error": str(e), "head": head}

    def _head(self, table: str) -> Head:
        head = self.state.load_head(table)
        if head is not None:
            return head
        key = self._key(table, create=False)
        return Head(table) if key is None else self._with_key(Head(table), key)

    def _key(self, table: str, *, create: bool) -> TableKey | None:
        key = self._keys.get(table) or self.store.load(table)
        if key is None and create:
            key = self.store.new(table)
            _log.warning("notary: new key for table %s, fingerprint %s", table, _fingerprint(key))
        if key is not None:
            self._keys[table] = key
        return key

    def _signing_key(self, table: str) -> TableKey:
        key = self._key(table, create=True)
        if key is None:  # pragma: no cover - create=True makes one
            raise Refused("failed", f"table {table}: no key")
        return key

    def _with_key(self, head: Head, key: TableKey) -> Head:
        raw = key.public_raw()
        return Head(
            head.table,
            head.position,
            head.hash,
            head.signature,
            _fingerprint(key)[:16],
            raw.hex(),
            head.signed_at,
            head.adopted_at,
        )

    def _sign(self, table: str, request: dict[str, Any]) -> dict[str, Any]:
        position, prev, digest = (
            request.get("position"),
            request.get("prev_hash"),
            request.get("hash"),
        )
        if (
            not isinstance(position, int)
            or position < 1
            or not is_hash(prev)
            or not is_hash(digest)
        ):
            raise Refused(BAD_REQUEST, "sign needs position >= 1, prev_hash and hash (64 hex)")
        head = self._head(table)
        if position == head.position and digest == head.hash and head.signature is not None:
            return {
                "ok": True,
                "signature": head.signature,
                "key_id": head.key_id,
                "position": position,
                "again": True,
            }
        if position <= head.position:
            raise Refused(
                REWIND,
                f"table {table}: position {position} is at or behind the signer's head "
                f"{head.position}: the signer never signs a position twice nor goes back",
            )
        if position != head.position + 1 or prev != head.hash:
            raise Refused(
                NOT_EXTENSION,
                f"table {table}: position {position} does not extend the signer's head "
                f"(position {head.position}, hash {head.hash[:16]}…)",
            )
        hand = request.get("hand")
        hands = self._hands(table) if isinstance(hand, str) and hand else None
        if hands is not None:
            self._check_hand(table, hands, str(hand), position, request.get("dealt") is True)
        key = self._signing_key(table)
        signature = key.sign(record_message(digest)).hex()
        if hands is not None:  # remembered before the head moves: durable first
            known = hands.get(str(hand)) or SignedStep(-1, "", "", head.position)
            hands[str(hand)] = replace(known, journaled=position)
            self.state.save_steps(table, hands)
        new = self._with_key(
            Head(
                table, position, digest, signature, None, None, _iso(self._clock()), head.adopted_at
            ),
            key,
        )
        self.state.save_head(new)  # durable before the signature leaves
        return {"ok": True, "signature": signature, "key_id": new.key_id, "position": position}

    def _adopt(self, table: str, request: dict[str, Any]) -> dict[str, Any]:
        position, digest = request.get("position"), request.get("hash")
        if not isinstance(position, int) or position < 1 or not is_hash(digest):
            raise Refused(BAD_REQUEST, "adopt needs position >= 1 and hash (64 hex)")
        head = self._head(table)
        if head.position != 0:
            raise Refused(
                REWIND,
                f"table {table}: the signer has signed up to position {head.position} already: "
                "a chain is adopted only before the first signature",
            )
        key = self._signing_key(table)
        new = self._with_key(Head(table, position, digest, None, None, None, None, position), key)
        self.state.save_head(new)
        _log.warning("notary: table %s adopted at position %d", table, position)
        return {"ok": True, **new.to_json()}

    def _hands(self, table: str) -> dict[str, SignedStep]:
        hands = self._steps.get(table)
        if hands is None:
            hands = self._steps[table] = self.state.load_steps(table)
        return hands

    def _check_hand(
        self, table: str, hands: dict[str, SignedStep], hand: str, position: int, dealt: bool
    ) -> None:
        """An entry of ``hand`` at ``position``: refused when that hand is journaled at another
        position already, or (``dealt``: an entry its table did not journal in this run) when
        none of its steps was ever signed (a hand the table never dealt)."""
        known = hands.get(hand)
        if known is not None and known.journaled and known.journaled != position:
            raise Refused(
                REWIND,
                f"table {table}: hand {hand} is journaled at position "
                f"{known.journaled} already: not again at {position}",
            )
        if dealt and (known is None or known.step_no < 0):
            raise Refused(
                NOT_DEALT,
                f"table {table}: no step of hand {hand} was ever signed: "
                f"entry {position} is not a hand this table dealt",
            )

    def _sign_step(self, table: str, request: dict[str, Any]) -> dict[str, Any]:
        uid, no, digest = request.get("hand_uid"), request.get("step_no"), request.get("digest")
        if (
            not isinstance(uid, str)
            or not uid
            or len(uid) > 256
            or not isinstance(no, int)
            or no < 0
            or not is_hash(digest)
        ):
            raise Refused(BAD_REQUEST, "sign_step needs hand_uid, step_no >= 0 and digest")
        hands = self._hands(table)
        position = self._head(table).position
        last = hands.get(uid)
        if last is not None:
            if no == last.step_no and digest == last.digest:
                return {"ok": True, "signature": last.signature, "again": True}
            if no <= last.step_no:
                raise Refused(
                    REWIND,
                    f"table {table}: step {no} of hand {uid} is already signed "
                    f"(the signer is at its step {last.step_no})",
                )
        elif len(hands) >= MAX_OPEN_HANDS:
            raise Refused(BAD_REQUEST, f"table {table}: {len(hands)} hands in progress: refused")
        key = self._signing_key(table)
        signature = key.sign(step_message(table, uid, no, digest)).hex()
        hands[uid] = SignedStep(no, digest, signature, position)
        # a hand is remembered until the journal is STEP_MEMORY entries past it: by then it
        # is journaled, and none of its steps is signed again with another content
        for old in [
            u for u, h in hands.items() if max(h.position, h.journaled) < position - STEP_MEMORY
        ]:
            del hands[old]
        self.state.save_steps(table, hands)  # durable before the signature leaves
        return {"ok": True, "signature": signature}


def _fingerprint(key: TableKey) -> str:
    return hashlib.sha256(key.public_raw()).hexdigest()


def _iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat().replace("+00:00", "Z")


class _Handler(socketserver.StreamRequestHandler):
    server: NotaryServer

    def handle(self) -> None:
        self.request.settimeout(10.0)
        try:
            line = self.rfile.readline(MAX_LINE + 1)
        except OSError:
            return
        try:
            if len(line) > MAX_LINE or not line.endswith(b"\n"):
                raise ValueError("a request is one line of at most 64 KiB")
            answer = self.server.notary.handle(decode(line))
        except ValueError as e:
            answer = {"ok": False, "code": BAD_REQUEST, "error": f"unreadable request: {e}"}
        except JournalError as e:
            _log.error("%s", e)
            answer = {"ok": False, "code": "failed", "error": str(e)}
        with contextlib.suppress(OSError):
            self.wfile.write(encode(answer))


class NotaryServer(socketserver.ThreadingUnixStreamServer):
    """The notary on a Unix socket at ``path`` (an old socket file there is replaced), mode
    ``socket_mode`` (default ``0660``: the notary's user and its group, the tables' users)."""

    daemon_threads = True

    def __init__(self, notary: Notary, path: str | Path, socket_mode: int = 0o660) -> None:
        self.notary = notary
        self.path = Path(path)
        if self.path.is_socket():
            self.path.unlink()
        old = os.umask(0o177)  # no moment at which others may connect
        try:
            super().__init__(str(self.path), _Handler)
        finally:
            os.umask(old)
        os.chmod(self.path, socket_mode)

    def server_close(self) -> None:
        """Close and remove the socket file."""
        super().server_close()
        try:
            if self.path.is_socket():
                self.path.unlink()
        except OSError:
            pass


def serve(
    state: str | Path, path: str | Path, socket_mode: int = 0o660, keys: KeyStore | None = None
) -> None:
    """Run the notary until SIGTERM or SIGINT (the socket removed on the way out); ``keys``
    the key store (default: the key files in ``state``)."""
    import signal

    server = NotaryServer(Notary(NotaryState(state), keys=keys), path, socket_mode)

    def stop(signum: int, frame: object) -> None:
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    _log.warning("notary: serving %s (state %s)", path, state)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
