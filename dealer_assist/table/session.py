"""What lives at a table between hands: the seated players, their stacks, the button, sit-out.

Design/ENGINE.md "Around the hand": a banked table needs little of it (who sits where, how many
hands were dealt); the poker-room games carry stacks and the button from hand to hand, and a
tournament its level. The session is journaled: each hand's ``open`` step holds the session at
its start and each journaled hand the session after it (``extra["session"]``), so a restarted
table picks it up from the journal exactly as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from dealer_assist.errors import ConfigError
from dealer_assist.ports import JournalPort

SESSION_VERSION = 1


@dataclass(frozen=True)
class SeatedPlayer:
    """A player in a seat: a name or badge ("" when unknown), the chips in front of them (minor
    units; None at a banked table, where nobody brings a stack), sitting out or not."""

    name: str = ""
    stack: int | None = None
    sitting_out: bool = False


@dataclass(frozen=True)
class TableSession:
    """The table between hands.

    Attributes:
        table_id: the table.
        hands: hands journaled in this session's history (settled or void).
        seats: seat number -> the player there.
        button: the dealer button's seat (poker-room games), None where there is none.
        level: the tournament level in force, None outside a tournament.
    """

    table_id: str
    hands: int = 0
    seats: Mapping[int, SeatedPlayer] = field(default_factory=dict)
    button: int | None = None
    level: int | None = None

    def after_hand(self) -> TableSession:
        """The session once a hand is journaled (the peer games also move stacks and button)."""
        return replace(self, hands=self.hands + 1)

    def to_json(self) -> dict[str, Any]:
        """JSON object (``v`` = schema version) for the journal."""
        return {
            "v": SESSION_VERSION,
            "table_id": self.table_id,
            "hands": self.hands,
            "seats": {
                str(s): {"name": p.name, "stack": p.stack, "sitting_out": p.sitting_out}
                for s, p in sorted(self.seats.items())
            },
            "button": self.button,
            "level": self.level,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableSession:
        """The session of :meth:`to_json`'s object.

        Raises:
            ConfigError: a newer schema version or a malformed object (names the key).
        """
        if data.get("v", 1) != SESSION_VERSION:
            raise ConfigError(f"session: schema version {data.get('v')!r} is not known")
        try:
            seats = {
                int(s): SeatedPlayer(str(p.get("name", "")), p.get("stack"),
                                     bool(p.get("sitting_out", False)))
                for s, p in dict(data.get("seats", {})).items()
            }  # fmt: skip
            return cls(str(data["table_id"]), int(data.get("hands", 0)), seats,
                       data.get("button"), data.get("level"))  # fmt: skip
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ConfigError(f"session: malformed ({e})") from e

    @classmethod
    def of_journal(cls, table_id: str, journal: JournalPort | None) -> TableSession:
        """The session of table ``table_id`` as its journal left it (a fresh one without)."""
        if journal is None:
            return cls(table_id)
        last = journal.last_hand()
        return cls.restore(table_id, last.extra if last else None, journal.count())

    @classmethod
    def restore(
        cls, table_id: str, last_extra: Mapping[str, Any] | None, count: int
    ) -> TableSession:
        """The session a table starts with: the one its last journaled hand carried, else a
        fresh one counting the ``count`` hands already journaled (a journal written before
        sessions existed)."""
        saved = (last_extra or {}).get("session")
        if isinstance(saved, Mapping) and saved.get("table_id") == table_id:
            return cls.from_json(saved)
        return cls(table_id, hands=count)
