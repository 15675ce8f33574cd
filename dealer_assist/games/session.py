"""What lives at a table between hands: the seated players, their stacks, the button, sit-out.

Design/ENGINE.md "Around the hand": a banked table needs little of it (who sits where, how many
hands were dealt); the poker-room games carry stacks and the button from hand to hand, and a
tournament its level. The session is journaled: each hand's ``open`` step holds the session at
its start, each journaled hand the session after it (``extra["session"]``) and each table record
(a buy-in, a sit-out, the button placed, a new dealer on the box:
:mod:`dealer_assist.table.records`) the session after that change, so a restarted table picks it
up from the journal's last entry exactly as it was. The dealer on the box
(:attr:`TableSession.dealer`, changed between hands by :mod:`dealer_assist.table.dealers`) is
recorded with every hand as ``extra["dealer"]``.

What a game keeps between hands beyond the button (its :attr:`TableSession.marks`) and what a
player owes before being dealt in again (:attr:`SeatedPlayer.owes`) are the game's own words,
opaque here (Hold'em: :mod:`dealer_assist.games.holdem_table`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Protocol, runtime_checkable

from dealer_assist.errors import ConfigError
from dealer_assist.ports import JournalPort, StoredHand

SESSION_VERSION = 1
"""Schema version of :meth:`TableSession.to_json`; keys added later are optional (a session
written before them reads with their defaults), so the version stays 1."""


@dataclass(frozen=True)
class SeatedPlayer:
    """A player in a seat.

    Attributes:
        name: a name or badge ("" when unknown).
        stack: the chips in front of them (minor units or tournament chips; None at a banked
            table, where nobody brings a stack; 0: busted, not dealt in until a top-up).
        sitting_out: not dealt in until they come back.
        owes: what the game asks of them before they are dealt in again, in the game's words
            (Hold'em: the blinds a new or returning player owes), empty when nothing.
        waiting: they wait for their turn in the game's rotation to be dealt in instead of
            posting what they owe (Hold'em: waiting for the big blind).
        out_since: the session's hand count when they sat out (None when playing), so the
            table can tell how many hands they missed.
    """

    name: str = ""
    stack: int | None = None
    sitting_out: bool = False
    owes: tuple[str, ...] = ()
    waiting: bool = False
    out_since: int | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON object; the keys added after version 1's first release only when set."""
        out: dict[str, Any] = {
            "name": self.name,
            "stack": self.stack,
            "sitting_out": self.sitting_out,
        }
        if self.owes:
            out["owes"] = list(self.owes)
        if self.waiting:
            out["waiting"] = True
        if self.out_since is not None:
            out["out_since"] = self.out_since
        return out

    @classmethod
    def from_json(cls, p: Mapping[str, Any]) -> SeatedPlayer:
        """The player of :meth:`to_json`'s object (absent keys: the defaults). Raises
        TypeError/ValueError/AttributeError on a malformed object (the session names it)."""
        stack = p.get("stack")
        out_since = p.get("out_since")
        owes = p.get("owes", [])
        # a tuple: the session as a frozen operation carries it (HandOpened.session)
        if not isinstance(owes, list | tuple) or not all(isinstance(o, str) for o in owes):
            raise ValueError(f"owes must be a list of strings, got {owes!r}")
        return cls(
            str(p.get("name", "")),
            None if stack is None else _int(stack, "stack"),
            bool(p.get("sitting_out", False)),
            tuple(owes),
            bool(p.get("waiting", False)),
            None if out_since is None else _int(out_since, "out_since"),
        )


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an integer, got {value!r}")
    return value


@dataclass(frozen=True)
class TableChange:
    """One change made to the table between hands, as its journal record says it.

    Attributes:
        kind: what happened (``buy_in``, ``top_up``, ``sit_out``, ``sit_in``, ``leave``,
            ``button``...).
        payload: JSON object: the seat, the amount (minor units), the name, who did it
            (``by``), when (``at``, ISO-8601 UTC) and what else the change needs to be audited.
    """

    kind: str
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class TableSession:
    """The table between hands.

    Attributes:
        table_id: the table.
        hands: hands journaled in this session's history (settled or void).
        seats: seat number -> the player there.
        button: the dealer button's seat (poker-room games), None where there is none.
        level: the tournament level in force, None outside a tournament.
        marks: seats the game remembers from its last hand besides the button, by the game's
            names (Hold'em: where the blinds were), empty before its first hand.
        dealer: the badge id of the dealer on the box (at most 64 characters), None before the
            table's first dealer change.
        change: the change between hands that made this session (set by the table operations,
            read by :func:`~dealer_assist.table.records.journal_change`); never journaled as
            part of the session and not compared.
    """

    table_id: str
    hands: int = 0
    seats: Mapping[int, SeatedPlayer] = field(default_factory=dict)
    button: int | None = None
    level: int | None = None
    marks: Mapping[str, int] = field(default_factory=dict)
    dealer: str | None = None
    change: TableChange | None = field(default=None, compare=False)

    def after_hand(self) -> TableSession:
        """The session once a hand is journaled (the peer games also move stacks and button)."""
        # every field carried, built here: dataclasses.replace would call back into this module
        carried: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        return type(self)(**{**carried, "hands": self.hands + 1, "change": None})

    def to_json(self) -> dict[str, Any]:
        """JSON object (``v`` = schema version) for the journal; ``marks`` and ``dealer`` only
        when set."""
        out: dict[str, Any] = {
            "v": SESSION_VERSION,
            "table_id": self.table_id,
            "hands": self.hands,
            "seats": {str(s): p.to_json() for s, p in sorted(self.seats.items())},
            "button": self.button,
            "level": self.level,
        }
        if self.marks:
            out["marks"] = dict(sorted(self.marks.items()))
        if self.dealer is not None:
            out["dealer"] = self.dealer
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableSession:
        """The session of :meth:`to_json`'s object (a session written before a key existed
        reads with that key's default).

        Raises:
            ConfigError: a newer schema version or a malformed object (names the key).
        """
        if data.get("v", 1) != SESSION_VERSION:
            raise ConfigError(f"session: schema version {data.get('v')!r} is not known")
        try:
            seats = {
                int(s): SeatedPlayer.from_json(p) for s, p in dict(data.get("seats", {})).items()
            }
            marks = {str(k): _int(v, f"marks.{k}") for k, v in dict(data.get("marks", {})).items()}
            dealer = data.get("dealer")
            if dealer is not None and not isinstance(dealer, str):
                raise ValueError(f"dealer must be a badge id (a string), got {dealer!r}")
            return cls(
                str(data["table_id"]),
                int(data.get("hands", 0)),
                seats,
                data.get("button"),
                data.get("level"),
                marks,
                dealer,
            )
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ConfigError(f"session: malformed ({e})") from e

    @classmethod
    def of_journal(cls, table_id: str, journal: JournalPort | None) -> TableSession:
        """The session of table ``table_id`` as its journal left it (a fresh one without): the
        one this table's last entry carries, a hand or a table record.

        A journal several tables share (a tournament's: its tables and the director's desk in
        one chain) ends with another table's entry as often as not: the entries are then read
        back from the chain's head (:func:`last_entry_of`) for this table's own. A table with
        no entry in it yet starts fresh (no hand counted); a journal written before sessions
        existed counts its entries, as before (a table's own entries without a session).
        Raises JournalError when it cannot be read.
        """
        if journal is None:
            return cls(table_id)
        last = journal.last_hand()
        if last is not None and last.table_id != table_id:
            last = last_entry_of(journal, table_id, last.hand_id)
        if last is None:  # no entry of this table (a table's view of a shared chain: none yet)
            return cls(table_id)
        return cls.restore(table_id, last.extra, journal.count())

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


BACKWARD_READS = 64
"""Entries read one by one back from a shared journal's head looking for a table's last one,
before the whole chain is read forward in pages instead (a table with no entry near the head)."""


@runtime_checkable
class _ByNumber(Protocol):
    def get_hand(self, hand_id: int) -> StoredHand: ...


@runtime_checkable
class _InOrder(Protocol):
    def iter_hands(self, start: int | None = None) -> Iterator[StoredHand]: ...


def last_entry_of(journal: JournalPort, table_id: str, head: int) -> StoredHand | None:
    """Table ``table_id``'s last entry among entries ``1..head`` of ``journal`` (None: none).

    Read back from ``head`` one entry at a time (at most :data:`BACKWARD_READS`: the tables of
    a tournament take turns, so a table's last entry is near the head), then, when the journal
    can give its entries in order, every entry forward. A journal that can do neither (a
    table's own view, whose last entry is already its own) has none of another table's.
    Raises JournalError when it cannot be read.
    """
    if isinstance(journal, _ByNumber):
        for hand_id in range(head, max(0, head - BACKWARD_READS), -1):
            entry = journal.get_hand(hand_id)
            if entry.table_id == table_id:
                return entry
        head -= BACKWARD_READS
        if head <= 0:
            return None
    if not isinstance(journal, _InOrder):
        return None
    found = None
    for entry in journal.iter_hands(1):
        if entry.hand_id > head:
            break
        if entry.table_id == table_id:
            found = entry
    return found
