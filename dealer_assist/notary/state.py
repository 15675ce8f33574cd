"""The notary's state folder: each table's private key and durable head.

``STATE/keys/<table>.key`` (PKCS#8 PEM, ``0600``), ``STATE/heads/<table>.json`` (the
:class:`~dealer_assist.notary.protocol.Head`) and ``STATE/steps/<table>.json`` (the last
pending step signed of each hand in progress), the table id percent-encoded into the file
name; the folders ``0700``, all owned by the notary's own OS user. A head is written to a
temporary file, fsynced, renamed over the old one and the folder fsynced, before the signature
it records is given out: after a crash the head is never behind a signature that left.
"""

from __future__ import annotations

import json
import os
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dealer_assist.errors import JournalError
from dealer_assist.notary.protocol import Head

FOLDER_MODE = 0o700
FILE_MODE = 0o600


@dataclass(frozen=True)
class SignedStep:
    """The last pending step the notary signed of one hand: its number, digest, signature and
    the table's journal head position when it was signed; ``journaled``: the position of the
    hand's journal entry once the notary signed it (0 before); ``step_no`` -1: no step signed
    (an entry of a hand this process journaled without steps)."""

    step_no: int
    digest: str
    signature: str
    position: int
    journaled: int = 0


class NotaryState:
    """The keys and heads under ``folder`` (created ``0700``).

    Raises (every method): :class:`~dealer_assist.errors.JournalError` naming the file when a
    key or head cannot be read or written.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder).expanduser()
        self.keys = self.folder / "keys"
        self.heads = self.folder / "heads"
        self.steps = self.folder / "steps"
        for f in (self.folder, self.keys, self.heads, self.steps):
            try:
                f.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
                if f.stat().st_uid == os.geteuid():
                    f.chmod(FOLDER_MODE)
            except OSError as e:
                raise JournalError(f"notary: cannot use the folder {f}: {e.strerror}") from e

    def _name(self, table: str) -> str:
        return urllib.parse.quote(table, safe="")

    def key_path(self, table: str) -> Path:
        """The private key file of ``table``."""
        return self.keys / (self._name(table) + ".key")

    def head_path(self, table: str) -> Path:
        """The head file of ``table``."""
        return self.heads / (self._name(table) + ".json")

    def load_key(self, table: str) -> Ed25519PrivateKey | None:
        """The table's private key, ``None`` when it has none yet."""
        path = self.key_path(table)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise JournalError(f"notary: cannot read the key {path}: {e.strerror}") from e
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as e:
            raise JournalError(f"notary: {path} is not a PEM private key ({e})") from e
        if not isinstance(key, Ed25519PrivateKey):
            raise JournalError(f"notary: {path} is not an Ed25519 private key")
        return key

    def new_key(self, table: str) -> Ed25519PrivateKey:
        """A new key for ``table``, written exclusively (never over an existing key)."""
        path = self.key_path(table)
        key = Ed25519PrivateKey.generate()
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
            try:
                os.write(fd, pem)
                os.fsync(fd)
            finally:
                os.close(fd)
            _fsync_folder(self.keys)
        except OSError as e:
            raise JournalError(f"notary: cannot write the key {path}: {e.strerror}") from e
        return key

    def load_head(self, table: str) -> Head | None:
        """The table's durable head, ``None`` when the notary never signed for it."""
        path = self.head_path(table)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as e:
            raise JournalError(f"notary: cannot read the head {path}: {e.strerror}") from e
        try:
            return Head.from_json(json.loads(text))
        except ValueError as e:
            raise JournalError(f"notary: the head {path} is damaged ({e})") from e

    def save_head(self, head: Head) -> None:
        """Write ``head`` durably (temporary file, fsync, rename, fsync of the folder)."""
        data = json.dumps(head.to_json(), sort_keys=True).encode() + b"\n"
        _replace(self.head_path(head.table), data)

    def load_steps(self, table: str) -> dict[str, SignedStep]:
        """The last step signed of each hand of ``table`` the notary remembers (by hand uid);
        empty when there is none.

        Raises:
            JournalError: the step state is unreadable (names the file).
        """
        path = self.steps / (self._name(table) + ".json")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, list):  # one step of one hand (before hands were kept): gone
                return {}
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            return {
                str(uid): SignedStep(
                    int(v[0]), str(v[1]), str(v[2]), int(v[3]), int(v[4]) if len(v) > 4 else 0
                )
                for uid, v in data.items()
            }
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
            raise JournalError(f"notary: the step state {path} is unreadable ({e})") from e

    def save_steps(self, table: str, hands: dict[str, SignedStep]) -> None:
        """Write the last step signed of each hand of ``table`` durably."""
        data = {
            uid: [h.step_no, h.digest, h.signature, h.position, h.journaled]
            for uid, h in hands.items()
        }
        _replace(self.steps / (self._name(table) + ".json"), json.dumps(data).encode())


def _replace(path: Path, data: bytes) -> None:
    """``data`` durably at ``path``: temporary file, fsync, rename, fsync of the folder."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        _fsync_folder(path.parent)
    except OSError as e:
        raise JournalError(f"notary: cannot write {path}: {e.strerror}") from e


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
