"""Time-outs enforced by the tournament table itself (rules text 002, "Tempo per la giocata" and
"Sit-out"; GAMES.md "Action clock", "Sit-out"): when a player's action clock and time bank have
run out, the table checks their hand if it can, else folds it, and puts the player in sit-out
(a ``sat_out`` record of the tournament, ``why = "timed_out"``); a player in sit-out stays dealt
in, their forced bets posted, and their hand is checked or folded by the table as soon as the
action reaches them, until the dealer taps that they are back (``sat_in``: they play from the
next hand).

Qt-free: :class:`TimeOuts` taps the console's presenter as the dealer would (the action goes
through the same checks and the same journal as a tap), and journals through ``record`` (the
strip's journal thread in a console). The level strip calls :meth:`TimeOuts.timed_out` when the
seat to act is out of time and :meth:`TimeOuts.tick` every refresh.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from dealer_assist.tournament import records as ev
from dealer_assist.tournament.action_clock import timeout_action

Record = Callable[[str, dict[str, Any]], None]
"""Journal a tournament record: its event and fields (``player``, ``why``, ...)."""

RETRY_TAPS = 3  # refreshes before the same turn is tapped again (a tap the console dropped)


class TimeOuts:
    """The sit-outs of one table's players and the taps that enforce them.

    Args:
        presenter: the console's :class:`~ui.poker.presenter.PokerPresenter`.
        record: where the ``sat_out`` / ``sat_in`` records go (:data:`Record`).
        table_id: the table (in the records).
    """

    def __init__(self, presenter: Any, record: Record, table_id: str = "") -> None:
        self.p = presenter
        self.record = record
        self.table_id = table_id
        self.journaled: frozenset[str] = frozenset()  # in sit-out as the journal says
        self.timed: set[str] = set()  # put in sit-out here, not read back yet
        self.returned: set[str] = set()  # back, not read back yet
        self.enforced: list[tuple[str, str]] = []  # (player, kind) tapped by the table
        self._tapped: tuple[Any, ...] | None = None
        self._waited = 0

    # -- who sits out -----------------------------------------------------------------------------
    def set_journaled(self, names: Iterable[str]) -> None:
        """The players in sit-out as the journal now says (the feed's snapshot)."""
        self.journaled = frozenset(names)
        self.timed -= self.journaled
        self.returned &= self.journaled

    @property
    def out(self) -> frozenset[str]:
        """Who sits out now."""
        return frozenset((self.journaled | self.timed) - self.returned)

    def timed_out(self, player: str) -> None:
        """``player``'s time is up: in sit-out (journaled) and their hand checked or folded."""
        if player not in self.out:
            self.timed.add(player)
            self.record(
                ev.SAT_OUT,
                {"player": player, "back_at": 0, "why": "timed_out", "table": self.table_id},
            )
        self.tick()

    def back(self, player: str) -> None:
        """The dealer taps that ``player`` is back ("SONO TORNATO"): in from the next hand."""
        if player in self.out:
            self.returned.add(player)
            self.timed.discard(player)
            self.record(ev.SAT_IN, {"player": player, "table": self.table_id})

    # -- the table's taps -------------------------------------------------------------------------
    def actor_name(self) -> str | None:
        """The name of the seat to act (None: nobody)."""
        snap = self.p.snap
        legal = snap.legal
        if legal is None:
            return None
        seat = next((s for s in snap.seats if s.seat == legal.seat), None)
        return seat.name if seat is not None and seat.name else None

    def tick(self) -> str:
        """If the seat to act sits out, tap what the rules do for them (check if it can, else
        fold; a bring-in the only action: posted). Returns the kind tapped, '' for none."""
        snap = self.p.snap
        legal = snap.legal
        name = self.actor_name()
        if legal is None or name is None or name not in self.out:
            return ""
        turn = (snap.hand_uid, legal.seat, snap.street, len(snap.seats), snap.seq)
        if turn == self._tapped and self._waited < RETRY_TAPS:
            self._waited += 1  # tapped already: the answer is on its way
            return ""
        self._tapped, self._waited = turn, 0
        kinds = legal.kinds
        if "show" in kinds or "muck" in kinds:  # the showdown: shown (a folded hand is gone)
            self.p.tap_show("muck" not in kinds)
            kind = "show" if "muck" not in kinds else "muck"
        else:
            kind = timeout_action("check" in kinds)
            if kind not in kinds:  # Stud's bring-in is the one action the seat has
                kind = "bring_in" if "bring_in" in kinds else kinds[0]
            self.p.tap_action(kind)
        self.enforced.append((name, kind))
        return kind
