"""The pit-boss users and access log beside one table's journal (no floor): a users file
(``pitboss_users.json``, 0600, replaced atomically) and an append-only access log
(``pitboss_access.jsonl``, 0600, one JSON object a line, flushed and fsynced per entry), plus the
alert acknowledgements (``pitboss_acks.jsonl``) the journal itself cannot hold (it is opened
read-only). docs/PITBOSS.md.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from dealer_assist.at_rest import open_private
from dealer_assist.errors import ConfigError, JournalError
from dealer_assist.pitboss.roles import parse_role
from dealer_assist.pitboss.users import AccessEntry, User

USERS_FILE = "pitboss_users.json"
ACCESS_FILE = "pitboss_access.jsonl"
ACKS_FILE = "pitboss_acks.jsonl"


class LocalUsers:
    """The users file in ``folder`` (created on the first user)."""

    def __init__(self, folder: str | Path) -> None:
        self.path = Path(folder) / USERS_FILE

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as e:
            raise JournalError(f"cannot read the users file {self.path}: {e}") from e
        if not isinstance(data, dict):
            raise JournalError(f"the users file {self.path} is not a JSON object")
        return data

    def get_user(self, badge: str) -> User | None:
        """The user of ``badge``, ``None`` if none. Raises JournalError for an unreadable file."""
        u = self._read().get(badge)
        if not isinstance(u, dict):
            return None
        return User(badge, parse_role(str(u["role"])), str(u["pin_hash"]))

    def has_users(self) -> bool:
        """Whether any user is stored (none: the first ``user add`` is the bootstrap).
        Raises JournalError for an unreadable file."""
        return bool(self._read())

    def put_user(self, user: User, by: str | None) -> None:
        """Add or replace ``user``: the whole file written to a temporary 0600 file, fsynced and
        renamed over (never half-written). Raises ConfigError when it cannot be written."""
        data = self._read()
        data[user.badge] = {"role": user.role.value, "pin_hash": user.pin_hash, "by": by}
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open_private(tmp) as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.replace(tmp, self.path)
        except OSError as e:
            raise ConfigError(f"cannot write {self.path}: {e.strerror}") from e


def _append(path: Path, obj: dict[str, Any]) -> None:
    with open_private(path, append=True) as f:
        f.write(json.dumps(obj, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


def _lines(path: Path) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as e:
        raise JournalError(f"cannot read {path}: {e.strerror}") from e
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        try:
            out.append(json.loads(line))
        except ValueError as e:
            raise JournalError(f"{path} line {n}: not JSON ({e})") from e
    return out


class LocalAccessLog:
    """The access log file in ``folder``, appended to, never rewritten."""

    def __init__(self, folder: str | Path) -> None:
        self.path = Path(folder) / ACCESS_FILE

    def record(self, entry: AccessEntry) -> None:
        """Append ``entry`` (fsynced). Raises ConfigError when the file cannot be written."""
        _append(
            self.path,
            {
                "at": entry.at.isoformat(),
                "badge": entry.badge,
                "role": entry.role,
                "action": entry.action,
                "table_id": entry.table_id,
                "position": entry.position,
                "detail": entry.detail,
            },
        )

    def entries(self) -> list[AccessEntry]:
        """Every entry, oldest first. Raises JournalError for a damaged line."""
        return [AccessEntry(datetime.fromisoformat(d.pop("at")), **d) for d in _lines(self.path)]


class LocalAcks:
    """The acknowledgements of alerts over one journal: ``{key, by, at}`` lines."""

    def __init__(self, folder: str | Path) -> None:
        self.path = Path(folder) / ACKS_FILE

    def add(self, key: str, by: str, at: datetime) -> None:
        """Append an acknowledgement (the first one of a key is the one that counts)."""
        _append(self.path, {"key": key, "by": by, "at": at.isoformat()})

    def all(self) -> dict[str, tuple[str, datetime]]:
        """Key -> (who, when) of the first acknowledgement of each key."""
        out: dict[str, tuple[str, datetime]] = {}
        for d in _lines(self.path):
            out.setdefault(str(d["key"]), (str(d["by"]), datetime.fromisoformat(d["at"])))
        return out
