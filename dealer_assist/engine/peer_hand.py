"""The betting of a whole peer hand, street by street (GAMES.md, "Pot games: common rules").

:class:`PeerBetting` posts the forced bets (dead antes, live blinds; a stack too small posts what
it has and is all-in), then runs one :class:`~dealer_assist.engine.betting.RoundState` per street
of the game's :class:`~dealer_assist.engine.peer.StreetSpec` list: the round's opener (first
after the big blind, first after the button), its limits, the fixed-limit cap (none heads-up when
the table says so). A round where no more than one player can still bet is skipped: the
remaining cards are dealt with no further betting. The hand's betting is over when one player
is left or the last street's round closes.

It knows no game: street names, openers and limits come from the game module.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from dealer_assist.engine.betting import FOLD, Limits, RoundState
from dealer_assist.engine.peer import BettingRound, BettingStructure, StreetSpec, Structure
from dealer_assist.engine.state import ActionSpace
from dealer_assist.errors import ConfigError, IllegalActionError


@functools.lru_cache(maxsize=256)
def _limits(kind: Structure, bet: int, chip: int, cap: int | None, by_sum: bool) -> Limits:
    """The round's :class:`Limits`, made once per setting (they are frozen)."""
    return Limits(kind, bet, chip, cap, by_sum)


class PeerBetting:
    """Every betting round of one hand.

    Args:
        seats: the seats dealt in (any order; kept in seat order).
        stacks: each seat's stack at the start of the hand.
        button: the button's seat (it need not be dealt in: dead button).
        streets: the game's streets in order, each with its betting round.
        structure: the betting structure (kind, bet sizes, fixed-limit cap, chip).
        dead: dead forced bets per seat (antes), posted first.
        live: live forced bets per seat (blinds), posted after the antes.
        big_blind: the seat of the big blind (preflop opener: the seat after it), if any.
        blind: the bet to match before the first action (the big blind, also when posted short).
        uncapped_heads_up: no fixed-limit cap when two players are left at the start of a round
            (GAMES.md: convention, table setting, default on).
        blinds_first: post the blinds before the antes (a big-blind ante: a short big blind's
            chips go to the blind first; convention, TDA).
        reopen_by_sum: incomplete all-ins that add up to a full raise reopen the betting
            (convention, TDA; table setting, default on).
    """

    def __init__(
        self,
        seats: Sequence[int],
        stacks: Mapping[int, int],
        button: int,
        streets: Sequence[StreetSpec],
        structure: BettingStructure,
        *,
        dead: Mapping[int, int],
        live: Mapping[int, int],
        big_blind: int | None,
        blind: int,
        uncapped_heads_up: bool = True,
        blinds_first: bool = False,
        reopen_by_sum: bool = True,
    ) -> None:
        self.seats = tuple(sorted(seats))
        self.start = {s: stacks[s] for s in self.seats}
        self.stacks = dict(self.start)
        self.button = button
        self.streets = tuple(s for s in streets if isinstance(s.round, BettingRound))
        if not self.streets:
            raise ConfigError("a peer game needs at least one betting round")
        self.structure = structure
        self.big_blind = big_blind
        self.uncapped_heads_up = uncapped_heads_up
        self.reopen_by_sum = reopen_by_sum
        self.total = dict.fromkeys(self.seats, 0)
        self.folded: set[int] = set()
        self.dead: dict[int, int] = {}
        """Dead chips each seat posted (antes): never part of an uncalled bet."""
        if not blinds_first:
            self.dead = {s: self._post(s, amount) for s, amount in dead.items()}
        committed = {s: self._post(s, amount) for s, amount in live.items()}
        if blinds_first:
            self.dead = {s: self._post(s, amount) for s, amount in dead.items()}
        # pot limit: before the flop a short blind counts as a full blind (convention, TDA 54-B)
        self._short_blinds = sum(live[s] - committed[s] for s in live)
        self.index = 0
        self.round: RoundState | None = self._open(0, committed, blind)
        self._advance()

    def _post(self, seat: int, amount: int) -> int:
        paid = min(amount, self.stacks[seat])
        self.stacks[seat] -= paid
        self.total[seat] += paid
        return paid

    def _open(self, index: int, committed: Mapping[int, int], high: int) -> RoundState:
        spec = self.streets[index]
        betting = spec.round
        if not isinstance(betting, BettingRound):
            raise ConfigError(f"street {spec.name!r} has no betting round")
        st = self.structure
        size = st.big_bet if betting.limit == "big" else st.small_bet
        live = [s for s in self.seats if s not in self.folded]
        cap = st.max_raises
        if st.kind == "fixed_limit" and len(live) == 2 and self.uncapped_heads_up:
            cap = None
        bet = size if st.kind == "fixed_limit" else st.small_bet
        limits = _limits(st.kind, bet, st.chip_unit, cap, self.reopen_by_sum)
        if betting.opener == "left_of_big_blind" and self.big_blind is not None:
            first = self.big_blind + 1
        else:
            first = self.button + 1
        pot = sum(self.total.values()) - sum(committed.values())
        if index == 0:
            pot += self._short_blinds
        return RoundState(
            self.seats, self.stacks, limits, first,
            committed=committed, high=high, folded=sorted(self.folded), pot=pot,
        )  # fmt: skip

    def _advance(self) -> None:
        """Close finished rounds and open the next ones (skipping rounds nobody can bet in)."""
        while self.round is not None and self.round.closed:
            self.stacks = dict(self.round.stacks)
            self.folded = set(self.round.folded)
            live = [s for s in self.seats if s not in self.folded]
            if len(live) <= 1 or self.index + 1 >= len(self.streets):
                self.round = None
                return
            self.index += 1
            nxt = self._open(self.index, {}, 0)
            if len(nxt.able()) <= 1:
                nxt.actor = None  # no more than one player can bet: the cards run out
            self.round = nxt

    # -- queries ----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once no more betting can happen in the hand."""
        return self.round is None

    @property
    def street(self) -> str | None:
        """The name of the street being bet, None once the betting is over."""
        return None if self.round is None else self.streets[self.index].name

    @property
    def reached(self) -> int:
        """Index of the last street whose cards the hand needs (all of them after a run-out
        to a showdown; the street where the last fold happened otherwise)."""
        if self.round is None and len(self.live()) > 1:
            return len(self.streets) - 1
        return self.index

    @property
    def actor(self) -> int | None:
        """The seat to act, None when the betting is over."""
        return None if self.round is None else self.round.actor

    def live(self) -> list[int]:
        """Seats that have not folded."""
        folded = self.round.folded if self.round is not None else self.folded
        return [s for s in self.seats if s not in folded]

    def legal(self, seat: int) -> ActionSpace:
        """What ``seat`` may do now."""
        return ActionSpace(seat) if self.round is None else self.round.legal(seat)

    def stack(self, seat: int) -> int:
        """Chips ``seat`` has behind now."""
        return self.round.stacks[seat] if self.round is not None else self.stacks[seat]

    # -- changes ----------------------------------------------------------------------------

    def act(self, street: str, seat: int, kind: str, to: int | None = None) -> None:
        """Apply one action on ``street``; raises IllegalActionError naming the rule broken
        (wrong street, out of turn, all-in or folded seat, amounts)."""
        if self.round is None:
            raise IllegalActionError("the hand's betting is over: no more actions")
        current = self.streets[self.index].name
        if street != current:
            who = self.round.actor
            if seat in self.round.folded:
                raise IllegalActionError(f"seat {seat} has folded and cannot act")
            if seat in self.round.stacks and self.round.stacks[seat] == 0:
                raise IllegalActionError(f"seat {seat} is all-in and cannot act")
            waiting = f"seat {who} is to act on the {current}" if who else "no betting"
            raise IllegalActionError(
                f"an action on the {street}, but the {current} is being bet ({waiting})"
            )
        moved = self.round.act(seat, kind, to)
        self.total[seat] += moved
        if kind == FOLD:
            self.folded.add(seat)
        if self.round.actor is None:  # the round closed (the common case needs no call)
            self._advance()
