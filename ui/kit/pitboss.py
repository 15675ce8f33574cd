"""Pit bosses who may confirm a card the dealer identified (``misdeal.unreadable_card =
"dealer_identifies"``): badge numbers with a PIN each, kept as scrypt hashes in a JSON file.

No PIN is ever stored or logged in clear: each entry holds a random 16-byte salt and
``hashlib.scrypt(pin, salt, n=2**14, r=8, p=1, dklen=32)``; :meth:`PitBossRoster.verify`
compares in constant time (:func:`hmac.compare_digest`). Without a roster file the console asks
only for the badge number (recorded, not verified).

File format (``pit_bosses.json``)::

    {"version": 1, "pit_bosses": {"1234": {"salt": "<hex>", "hash": "<hex>", "n": 16384,
                                           "r": 8, "p": 1}}}
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Any

from dealer_assist.errors import ConfigError

SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
MIN_PIN = 4


def _hash(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=32)


def check_badge(badge: str) -> str:
    """A badge number: 1 to 12 digits. Raises ConfigError."""
    if not (badge.isdigit() and 1 <= len(badge) <= 12):
        raise ConfigError(f"a pit boss badge is 1 to 12 digits, got {badge!r}")
    return badge


class PitBossRoster:
    """The pit bosses of a casino: badge -> scrypt hash of the PIN.

    Args:
        path: the JSON file (read by :meth:`load`, written by :meth:`save`).

    Errors: ConfigError for an unreadable or malformed file, a bad badge or a short PIN.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._entries: dict[str, dict[str, Any]] = {}

    @property
    def badges(self) -> tuple[str, ...]:
        """Known badge numbers, sorted."""
        return tuple(sorted(self._entries))

    def load(self) -> PitBossRoster:
        """Read the file (a missing file is an empty roster); returns self."""
        try:
            text = self.path.read_text("utf-8")
        except FileNotFoundError:
            self._entries = {}
            return self
        except OSError as e:
            raise ConfigError(f"pit boss roster {self.path}: {e}") from e
        try:
            data = json.loads(text)
            entries = data["pit_bosses"]
            for badge, entry in entries.items():
                check_badge(badge)
                bytes.fromhex(entry["salt"]), bytes.fromhex(entry["hash"])
                int(entry["n"]), int(entry["r"]), int(entry["p"])
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise ConfigError(f"pit boss roster {self.path} is malformed: {e}") from e
        self._entries = dict(entries)
        return self

    def save(self) -> None:
        """Write the file (owner read/write only), replacing it atomically."""
        data = {"version": 1, "pit_bosses": self._entries}
        tmp = self.path.with_suffix(".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=2, sort_keys=True)
            os.replace(tmp, self.path)
        except OSError as e:
            raise ConfigError(f"pit boss roster {self.path}: {e}") from e

    def add(self, badge: str, pin: str) -> None:
        """Add or replace ``badge`` with a new salt and the hash of ``pin`` (at least
        :data:`MIN_PIN` digits). Call :meth:`save` to keep it."""
        check_badge(badge)
        if not (pin.isdigit() and len(pin) >= MIN_PIN):
            raise ConfigError(f"a PIN is at least {MIN_PIN} digits")
        salt = secrets.token_bytes(16)
        digest = _hash(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
        self._entries[badge] = {
            "salt": salt.hex(),
            "hash": digest.hex(),
            "n": SCRYPT_N,
            "r": SCRYPT_R,
            "p": SCRYPT_P,
        }

    def remove(self, badge: str) -> bool:
        """Forget ``badge``; whether it was there."""
        return self._entries.pop(badge, None) is not None

    def verify(self, badge: str, pin: str) -> bool:
        """Whether ``pin`` is ``badge``'s PIN (False for an unknown badge, in about the same
        time, so a wrong badge cannot be told from a wrong PIN)."""
        entry = self._entries.get(badge)
        if entry is None:
            _hash(pin, b"\0" * 16, SCRYPT_N, SCRYPT_R, SCRYPT_P)
            return False
        digest = _hash(
            pin, bytes.fromhex(entry["salt"]), int(entry["n"]), int(entry["r"]), int(entry["p"])
        )
        return hmac.compare_digest(digest, bytes.fromhex(entry["hash"]))
