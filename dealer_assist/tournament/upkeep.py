"""Each player's business between a tournament's hands (rules text 002; GAMES.md
"Tournaments"): a player with no chips left gets Double Chance's second half, rebuys if they
may and want to, or is eliminated (several in the same hand ranked by their stacks at its
start); second halves due by the level; rebuys and add-ons the players ask for (the EUR 250
cap enforced by the purchase, :mod:`~dealer_assist.tournament.money`); sit-outs and their end.

:class:`PlayerUpkeep` is a collaborator held by
:class:`~dealer_assist.tournament.director.Director`, journaling each change as a record of the
player's table through its recorder.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from dealer_assist.errors import HandStateError
from dealer_assist.tournament import money
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.draws import draw_number
from dealer_assist.tournament.errors import PurchaseRefused
from dealer_assist.tournament.ranking import EliminationRecord
from dealer_assist.tournament.recorder import TournamentRecorder
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import TournamentStructure


class Players(Protocol):
    """What the players decide between hands (a simulation's seeded players, a director's
    console). ``hand`` is the tournament's settled-hand count: a question asked again after a
    restart is the same question."""

    def rebuys(self, player: str, hand: int, *, busted: bool) -> bool:
        """``player`` buys the starting stack again (busted: their chips are gone)."""
        ...

    def takes_addon(self, player: str, hand: int) -> bool:
        """``player`` takes the add-on now."""
        ...

    def sits_out(self, player: str, hand: int) -> int:
        """Hands ``player`` sits out from the next one (0: plays on)."""
        ...


class PlayerUpkeep:
    """The players' stacks, purchases and sit-outs between hands of tournament ``state``.

    Args:
        state: the tournament's fold (read; written only through ``recorder``).
        recorder: journals each change as a record of the player's table (``by``: its).
        level: the level a hand starting now is played at (the director's clock decides).
    """

    def __init__(
        self, state: TournamentState, recorder: TournamentRecorder, *, level: Callable[[], int]
    ) -> None:
        self.state = state
        self._recorder = recorder
        self._level = level

    @property
    def _structure(self) -> TournamentStructure:
        if self.state.structure is None:
            raise HandStateError("the tournament is not open yet")
        return self.state.structure

    def _top_up(self, name: str, purchase: money.Purchase, event: str) -> None:
        """``name``'s purchase onto their stack, journaled as their table's ``event``."""
        e = self.state.entrants[name]
        if e.table is None:
            raise HandStateError(f"{name} is not seated: no stack to top up")
        self._recorder.table_change(
            e.table,
            "top_up",
            e.seat,
            purchase.chips,
            event=event,
            player=name,
            purchase=purchase.to_json(),
        )

    def busts(self, players: Players) -> None:
        """Each seated player with no chips left: Double Chance's second half if pending, a
        rebuy if they may and want to, else eliminated (the leave record with the stack they
        started the hand with, which ranks same-hand busts)."""
        s, st = self._structure, self.state
        out: list[tuple[str, int]] = []
        for name in st.alive():
            e = st.entrants[name]
            if e.table is None or st.stack(name) > 0:
                continue
            level = self._level()
            if st.ledger.half_pending(s, name):
                p = money.second_half(s, st.ledger, name, level=level, stack=0)
                self._top_up(name, p, ev.SECOND_HALF)
                continue
            if money.can_rebuy(s, st.ledger, name, stack=0, level=level) and players.rebuys(
                name, st.hands, busted=True
            ):
                p = money.rebuy(
                    s, st.ledger, name, stack=0, level=level, authorised_by=self._recorder.by
                )
                self._top_up(name, p, ev.REBUY)
                continue
            out.append((name, self._stack_at_start(name)))
        for name, start in out:
            e = st.entrants[name]
            if e.table is None:
                continue
            last = st.last_hand.get(e.table)
            rec = EliminationRecord(
                "bust", name, last.hand_uid or "" if last else "?", start, self._recorder.by
            )
            self._recorder.table_change(
                e.table,
                "leave",
                e.seat,
                event=ev.ELIMINATED,
                player=name,
                elimination=rec.to_json(),
            )

    def _stack_at_start(self, name: str) -> int:
        """``name``'s stack at the start of the last hand of their table (where they went
        out)."""
        e = self.state.entrants[name]
        last = self.state.last_hand.get(e.table or "")
        if last is None:
            return 0
        return next(
            (int(p["stack"]) for p in last.record.get("players", []) if p.get("seat") == e.seat), 0
        )

    def second_halves(self) -> None:
        """Double Chance's second halves the level made due, onto the players' stacks."""
        s, st = self._structure, self.state
        if not s.double_chance:
            return
        for p in money.due_second_halves(s, st.ledger, st.stacks(), self._level()):
            e = st.entrants[p.player]
            if e.out or e.table is None:
                continue
            self._top_up(p.player, p, ev.SECOND_HALF)

    def purchases(self, players: Players) -> None:
        """The rebuys and add-ons the players ask for, where the structure allows them (an
        add-on over the EUR 250 cap is not taken)."""
        s, st = self._structure, self.state
        level = self._level()
        for name in st.alive():
            e = st.entrants[name]
            if e.table is None:
                continue
            stack = st.stack(name)
            if (
                s.rebuy is not None
                and money.can_rebuy(s, st.ledger, name, stack=stack, level=level)
                and players.rebuys(name, st.hands, busted=False)
            ):
                p = money.rebuy(
                    s, st.ledger, name, stack=stack, level=level, authorised_by=self._recorder.by
                )
                self._top_up(name, p, ev.REBUY)
            a = s.addon
            acc = st.ledger.account(name)
            if a is None or acc.addon or not a.from_level <= level <= a.until_level:
                continue
            if not players.takes_addon(name, st.hands):
                continue
            try:
                p = money.addon(s, st.ledger, name, level=level, authorised_by=self._recorder.by)
            except PurchaseRefused:
                continue  # the EUR 250 cap: the player cannot take it (refused, said by money)
            self._top_up(name, p, ev.ADDON)

    def sit_outs(self, players: Players) -> None:
        """Players back from a sit-out when due; a player whose action clock ran out sits out
        (rules text 002, back after a drawn 1-3 hands); the sit-outs the players ask for."""
        st = self.state
        for name in st.alive():
            e = st.entrants[name]
            if e.table is None:
                continue
            if e.sitting_out:
                if st.hands >= e.back_at:
                    self._recorder.table_record(e.table, ev.SAT_IN, player=name)
                continue
            if name in st.timed_out:  # the action clock ran out: sit-out (rules text 002)
                back = st.hands + 1 + int(draw_number(st.seed, "back", st.hands, name) * 3)
                self._recorder.table_record(
                    e.table, ev.SAT_OUT, player=name, back_at=back, why="timed_out"
                )
                continue
            hands = players.sits_out(name, st.hands)
            if hands > 0:
                self._recorder.table_record(
                    e.table, ev.SAT_OUT, player=name, back_at=st.hands + hands
                )
