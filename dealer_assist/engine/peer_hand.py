"""The betting of a whole peer hand, street by street (GAMES.md, "Pot games: common rules").

:class:`PeerBetting` posts the forced bets (dead antes, live blinds; a stack too small posts what
it has and is all-in), then runs one :class:`~dealer_assist.engine.betting.RoundState` per street
of the game's :class:`~dealer_assist.engine.peer.StreetSpec` list: the round's opener (first
after the big blind, first after the button), its limits, the fixed-limit cap (none heads-up when
the table says so). A round where no more than one player can still bet is skipped: the
remaining cards are dealt with no further betting. The hand's betting is over when one player
is left or the last street's round closes.

Rounds whose opener depends on the street's cards (:data:`CARD_OPENERS`: Stud's bring-in and
best exposed hand) wait: the round is there but nobody is to act (:attr:`PeerBetting.waiting`)
until the caller, once it knows the street's cards, calls :meth:`PeerBetting.open_round` with the
seats in the order the game ranks them. With a forced bet (the bring-in) the first of them
decides before the round: post it (``bring_in``) or fold, and on a fold the obligation passes to
the next of them still in (rules text 002).

It knows no game: street names, openers and limits come from the game module.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from dealer_assist.engine.betting import BRING_IN, FOLD, Limits, RoundState
from dealer_assist.engine.peer import (
    BettingRound,
    BettingStructure,
    Opener,
    StreetSpec,
    Structure,
)
from dealer_assist.engine.state import ActionSpace
from dealer_assist.errors import ConfigError, HandStateError, IllegalActionError

CARD_OPENERS: tuple[Opener, ...] = ("bring_in", "best_exposed")
"""Openers the street's cards decide: their rounds wait for :meth:`PeerBetting.open_round`."""


_STREETS: dict[int, tuple[Sequence[StreetSpec], tuple[StreetSpec, ...]]] = {}


def _betting_streets(streets: Sequence[StreetSpec]) -> tuple[StreetSpec, ...]:
    """The streets with a betting round; a game's streets tuple is read once (by identity: the
    cache holds the tuple, so its id is never reused)."""
    known = _STREETS.get(id(streets))
    if known is not None and known[0] is streets:
        return known[1]
    out = tuple(s for s in streets if isinstance(s.round, BettingRound))
    if isinstance(streets, tuple) and len(_STREETS) < 64:
        _STREETS[id(streets)] = (streets, out)
    return out


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
        self.seats = order = tuple(sorted(seats))
        self.start = {s: stacks[s] for s in order}
        self.stacks = dict(self.start)
        self.button = button
        self.streets = _betting_streets(streets)
        if not self.streets:
            raise ConfigError("a peer game needs at least one betting round")
        self.structure = structure
        self.big_blind = big_blind
        self.uncapped_heads_up = uncapped_heads_up
        self.reopen_by_sum = reopen_by_sum
        self.total = dict.fromkeys(order, 0)
        self.folded: set[int] = set()
        self.dead: dict[int, int] = {}
        """Dead chips each seat posted (antes): never part of an uncalled bet."""
        if not blinds_first:
            self.dead = self._post_all(dead)
        committed = self._post_all(live)
        if blinds_first:
            self.dead = self._post_all(dead)
        # pot limit: before the flop a short blind counts as a full blind (convention, TDA 54-B)
        self._short_blinds = sum(live.values()) - sum(committed.values())
        self.index = 0
        self._street = self.streets[0].name
        """The name of street :attr:`index` (the one :meth:`act` takes actions for)."""
        self.waiting = False
        """The current round waits for :meth:`open_round` (its opener depends on its cards)."""
        self._forced: list[int] = []
        """Seats a pending forced bet passes through, the one to decide first."""
        self._forced_amount = 0
        self.round: RoundState | None = self._open(0, committed, blind)
        self._advance()

    def _post_all(self, amounts: Mapping[int, int]) -> dict[int, int]:
        """Post each seat's forced bet of ``amounts`` (all it has when short); seat -> paid."""
        stacks, total = self.stacks, self.total
        paid: dict[int, int] = {}
        for seat, amount in amounts.items():
            stack = stacks[seat]
            chips = amount if amount < stack else stack
            stacks[seat] = stack - chips
            total[seat] += chips
            paid[seat] = chips
        return paid

    def _open(
        self,
        index: int,
        committed: Mapping[int, int],
        high: int,
        closed: RoundState | None = None,
    ) -> RoundState:
        """Street ``index``'s round, ``committed`` already in and ``high`` to match; the
        ``closed`` round before it, when given, made this one in place (nothing committed)."""
        spec = self.streets[index]
        betting = spec.round
        if not isinstance(betting, BettingRound):
            raise ConfigError(f"street {spec.name!r} has no betting round")
        st = self.structure
        cap = st.max_raises
        if st.kind == "fixed_limit":
            bet = st.big_bet if betting.limit == "big" else st.small_bet
            if self.uncapped_heads_up and sum(1 for s in self.seats if s not in self.folded) == 2:
                cap = None
        else:
            bet = st.small_bet
        limits = closed.limits if closed is not None else None
        if limits is None or limits.bet != bet or limits.max_raises != cap:  # else the same
            limits = _limits(st.kind, bet, st.chip_unit, cap, self.reopen_by_sum)
        if betting.opener == "left_of_big_blind" and self.big_blind is not None:
            first = self.big_blind + 1
        else:
            first = self.button + 1
        pot = sum(self.total.values()) - sum(committed.values())
        if index == 0:
            pot += self._short_blinds
        if betting.opener in CARD_OPENERS:  # nobody acts until open_round
            wait = RoundState(
                self.seats, self.stacks, limits, self.seats[0], folded=sorted(self.folded), pot=pot
            )
            wait.actor = None
            self.waiting = len(wait.able()) > 1
            return wait
        if closed is not None and not committed:
            closed.next_street(limits, first, pot)
            return closed
        return RoundState(
            self.seats,
            self.stacks,
            limits,
            first,
            committed=committed,
            high=high,
            folded=tuple(self.folded),
            pot=pot,
        )

    def _advance(self) -> None:
        """Close finished rounds and open the next ones (skipping rounds nobody can bet in)."""
        while self.round is not None and self.round.actor is None and not self.waiting:  # closed
            closed = self.round
            self.stacks = stacks = dict(closed.stacks)
            self.folded = folded = set(closed.folded)
            live = able = 0  # counted up to two: that is all the rules ask
            for s in self.seats:
                if s not in folded:
                    live += 1
                    if stacks[s] > 0:
                        able += 1
                        if able > 1:
                            break
            if live <= 1 or self.index + 1 >= len(self.streets):
                self.round = None
                return
            self.index += 1
            self._street = self.streets[self.index].name
            nxt = self._open(self.index, {}, 0, closed)
            if able <= 1:
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
        """The seat to act (a forced bet's seat while it decides), None when the betting is
        over or the round waits for :meth:`open_round`."""
        if self._forced:
            return self._forced[0]
        return None if self.round is None else self.round.actor

    @property
    def opener(self) -> Opener | None:
        """The opener of the round being bet (or waiting), None once the betting is over."""
        if self.round is None:
            return None
        betting = self.streets[self.index].round
        return betting.opener if isinstance(betting, BettingRound) else None

    @property
    def forced(self) -> tuple[int, int] | None:
        """``(seat, amount)`` of the forced bet waiting for its seat's decision, or None."""
        return (self._forced[0], self._forced_amount) if self._forced else None

    def live(self) -> list[int]:
        """Seats that have not folded."""
        folded = self.round.folded if self.round is not None else self.folded
        return [s for s in self.seats if s not in folded]

    def legal(self, seat: int) -> ActionSpace:
        """What ``seat`` may do now (a forced bet's seat: ``bring_in`` or ``fold``)."""
        if self._forced:
            return ActionSpace(seat, (BRING_IN, FOLD) if seat == self._forced[0] else ())
        return ActionSpace(seat) if self.round is None else self.round.legal(seat)

    def stack(self, seat: int) -> int:
        """Chips ``seat`` has behind now."""
        return self.round.stacks[seat] if self.round is not None else self.stacks[seat]

    # -- changes ----------------------------------------------------------------------------

    def open_round(
        self, order: Sequence[int], *, forced: int = 0, big_open: Sequence[int] = ()
    ) -> None:
        """Open the waiting round once its cards are known (:attr:`waiting`).

        Args:
            order: seats still in, in the order the game ranks them for this street (Stud:
                the bring-in order, lowest door card first; or the best exposed hand first).
                Without a forced bet the first of them acts first (an all-in one: the next
                seat clockwise able to act).
            forced: a forced bet the first of ``order`` able to bet decides on (the bring-in):
                it posts it (``bring_in``, for less when short: all-in) or folds, and then the
                obligation passes to the next of ``order`` (rules text 002). Live: it counts
                toward calling; the seat that posts it has no option when only called.
            big_open: fixed limit, seats that may open with the big bet (Stud's open pair).

        Raises:
            HandStateError: no round is waiting, or ``order`` holds no seat still in.
        """
        if not self.waiting or self.round is None:
            raise HandStateError("no betting round is waiting for its first seat")
        live = [s for s in order if s in self.round.order and s not in self.round.folded]
        able = [s for s in live if self.round.stacks[s] > 0]
        if not live:
            raise HandStateError(f"no seat of {list(order)} is still in the hand")
        if forced > 0:  # the round starts once the forced bet is posted
            self.waiting = False
            self._forced, self._forced_amount = able, forced
            return
        self._start(live[0], {}, 0, None, big_open)

    def _start(
        self,
        first: int,
        committed: Mapping[int, int],
        high: int,
        brought_in: int | None,
        big_open: Sequence[int] = (),
    ) -> None:
        """Replace the waiting round by the real one, ``first`` to act."""
        wait = self.round
        if wait is None:
            raise HandStateError("no betting round is waiting for its first seat")
        self.waiting = False
        self.round = RoundState(
            self.seats,
            self.stacks,
            wait.limits,
            first,
            committed=committed,
            high=high,
            folded=sorted(self.folded),
            pot=wait.pot,
            brought_in=brought_in,
            big_open=big_open,
            big_bet=self.structure.big_bet,
        )
        if self.round.actor is None:
            self._advance()

    def _decide_forced(self, seat: int, kind: str) -> None:
        """The forced bet's seat posts it or folds (rules text 002: the next one decides)."""
        who, amount = self._forced[0], self._forced_amount
        if seat != who:
            raise IllegalActionError(
                f"seat {seat} acted out of turn (seat {who} is to post the forced bet of "
                f"{amount} or fold)"
            )
        if kind == BRING_IN:
            self._forced = []
            paid = min(amount, self.stacks[seat])
            self.stacks[seat] -= paid
            self.total[seat] += paid
            nxt = next((s for s in self.seats if s > seat), self.seats[0])
            self._start(nxt, {seat: paid}, amount, seat)
            return
        if kind != FOLD:
            raise IllegalActionError(
                f"seat {seat} must post the forced bet of {amount} or fold, not {kind}"
            )
        self.folded.add(seat)
        if self.round is not None:
            self.round.folded.add(seat)
        self._forced.pop(0)
        able = [s for s in self.live() if self.stacks[s] > 0]
        if len(self.live()) <= 1 or not self._forced or len(able) <= 1:
            self._forced = []
            self.waiting = False  # one player left, or nobody able to post: no betting
            self._advance()

    def act(self, street: str, seat: int, kind: str, to: int | None = None) -> None:
        """Apply one action on ``street``; raises IllegalActionError naming the rule broken
        (wrong street, out of turn, all-in or folded seat, amounts)."""
        rnd = self.round
        if rnd is None:
            raise IllegalActionError("the hand's betting is over: no more actions")
        current = self._street
        if street == current:
            if self._forced:
                self._decide_forced(seat, kind)
                return
            if kind == BRING_IN:
                raise IllegalActionError(f"there is no forced bet to post now (seat {seat})")
            if self.waiting:
                raise IllegalActionError(
                    f"the {current} has no first seat yet: its cards decide it (open_round)"
                )
        else:
            who = rnd.actor
            if seat in rnd.folded:
                raise IllegalActionError(f"seat {seat} has folded and cannot act")
            if seat in rnd.stacks and rnd.stacks[seat] == 0:
                raise IllegalActionError(f"seat {seat} is all-in and cannot act")
            waiting = f"seat {who} is to act on the {current}" if who else "no betting"
            raise IllegalActionError(
                f"an action on the {street}, but the {current} is being bet ({waiting})"
            )
        moved = rnd.act(seat, kind, to)
        if moved:
            self.total[seat] += moved
        elif kind == FOLD:
            self.folded.add(seat)
        if rnd.actor is None:  # the round closed (the common case needs no call)
            self._advance()
