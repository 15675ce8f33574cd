"""One betting round of a peer game (GAMES.md, "Pot games: A betting round").

:class:`RoundState` holds a round: chips each seat has put in during it, stacks behind, folds,
all-ins, the highest bet, the largest full bet or raise, who has acted since the betting was last
reopened, and the seat to act. It knows no game: the game gives the seats in order, who opens,
the limits (:class:`Limits`) and the blinds already in.

Rules it applies (GAMES.md):

- action moves clockwise among the seats that have not folded and are not all-in;
- fold, check (nothing to call), call (for less = all-in), bet (the round's first chips), raise
  (``to`` = the seat's total in the round after the action);
- no limit: the smallest bet is ``Limits.bet``, a raise increases the highest bet by at least the
  largest earlier full bet or raise of the round; pot limit: the same minimums, the largest raise
  to highest bet + (pot before the round + every bet of the round + the amount to call); fixed
  limit: bets and raises of exactly ``Limits.bet``, at most ``Limits.max_raises`` raises after the
  opening bet (None: no cap, heads-up by the table's setting); an all-in of at least half a bet
  counts as a full raise there;
- an incomplete all-in raise does not reopen the betting for a seat that has already acted, unless
  the raises since it acted add up to a full raise (convention, TDA);
- the round ends when every seat still able to act has acted and matched the highest bet, or when
  one seat is left; a seat able to act acts even when nobody can answer (the big blind's option);
- a forced bet below a full bet (``brought_in``: Stud's bring-in, GAMES.md "Seven Card Stud" 2) is
  not the opening bet: the first full bet over it is a ``complete`` (fixed limit: to exactly the
  round's bet; no limit and pot limit: to at least it), which counts as the opening bet for the
  cap; the seat that posted it has no option when it is only called;
- ``big_open``: seats that may open the round with the big bet instead (fixed limit; Stud's open
  pair on fourth street, rules text 002); after a big-bet opening every raise is a big bet.

Every refused action raises :class:`~dealer_assist.errors.ActionRefused` (an
:class:`~dealer_assist.errors.IllegalActionError` with the rule's code, :data:`RULES`) naming
the rule, e.g. ``raise to 250 is below the minimum raise to 400``. Chips are integers (minor units).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from dealer_assist.engine.peer import STRUCTURES, Structure
from dealer_assist.engine.state import ActionSpace, AmountRange
from dealer_assist.errors import ActionRefused, ConfigError

FOLD, CHECK, CALL, BET, RAISE = "fold", "check", "call", "bet", "raise"
KINDS = (FOLD, CHECK, CALL, BET, RAISE)
"""The action kinds of a betting round (GAMES.md, "Legal actions")."""
BRING_IN, COMPLETE = "bring_in", "complete"
RULES = (
    "not_in_hand", "folded", "all_in", "round_closed", "out_of_turn", "nothing_to_call",
    "cannot_check", "unknown_action", "nothing_to_complete", "complete_not_bet",
    "raise_not_bet", "bet_not_raise", "no_amount", "above_stack", "not_above_bet",
    "no_chips_to_raise", "nobody_to_answer", "short_all_in", "capped", "fixed_exact",
    "fixed_either", "below_minimum", "above_pot", "off_chip",
)  # fmt: skip
"""The codes of the betting round's refusals (:class:`~dealer_assist.errors.ActionRefused`
``rule``; its ``values``: ``seat``, ``actor``, ``kind``, ``to``, ``low``, ``high``, ``top``,
``to_call``, ``chip``, ``raises`` as the message names them)."""
"""Forced-bet kinds (GAMES.md "Seven Card Stud" 2, HAND_RECORD.md): posting a forced bet that is
a decision of its seat (:class:`~dealer_assist.engine.peer_hand.PeerBetting`), and the first full
bet over a forced bet below a full bet (:class:`RoundState`, ``brought_in``)."""


@dataclass(frozen=True)
class Limits:
    """The limits of one round.

    Attributes:
        kind: ``no_limit``, ``pot_limit`` or ``fixed_limit``.
        bet: no limit / pot limit: the smallest opening bet and first minimum raise (the big
            blind); fixed limit: the exact size of every bet and raise of this round.
        chip: the smallest chip; bets and raises are multiples of it, an all-in aside.
        max_raises: fixed limit, raises allowed after the opening bet (3: GAMES.md), None for
            no cap (heads-up, table setting).
        reopen_by_sum: incomplete all-in raises that together make a full raise reopen the
            betting for a seat that has acted (convention, TDA; a table setting).
    """

    kind: Structure
    bet: int
    chip: int = 1
    max_raises: int | None = 3
    reopen_by_sum: bool = True

    def __post_init__(self) -> None:
        if self.kind not in STRUCTURES:
            raise ConfigError(f"betting structure {self.kind!r} is not one of {STRUCTURES}")
        if self.bet <= 0 or self.chip <= 0:
            raise ConfigError("bet size and chip must be positive integers")


_NOBODY: frozenset[int] = frozenset()


@functools.lru_cache(maxsize=1024)
def _rotations(order: tuple[int, ...]) -> Mapping[int, tuple[int, ...]]:
    """seat number ``n`` -> the seats of ``order`` in turn from the first one at or after
    ``n``, for every ``n`` from 1 to the last seat of ``order`` (any other ``n``: ``order``
    itself, from its first seat). Made once per seat order, shared between rounds, never
    changed; a seat's turn after it is the entry of the next number."""
    out: dict[int, tuple[int, ...]] = {}
    low = 1
    for i, s in enumerate(order):
        turn = order[i:] + order[:i]
        for n in range(low, s + 1):
            out[n] = turn
        low = max(low, s + 1)
    return out


class RoundState:
    """One betting round, changed only by :meth:`act` (which verifies first).

    Args:
        order: the seats in the hand (folded ones included), in seat order.
        stacks: chips behind for each seat of ``order`` (after what is already in).
        limits: the round's :class:`Limits`.
        first: the seat whose turn comes first (or the first able seat after it).
        committed: chips already in this round per seat (live blinds).
        high: the bet to match (preflop: the big blind, even when posted short).
        folded: seats already out of the hand.
        pot: chips in the pots before this round (dead antes, earlier rounds): pot limit.
        brought_in: the seat whose forced bet (in ``committed``, ``high`` its full amount) is
            below a full bet (Stud's bring-in): not the opening bet, completed by ``complete``;
            that seat has no option when it is only called, and may raise once the bet rises.
        big_open: seats that may open the round with ``big_bet`` instead of ``limits.bet``
            (fixed limit only; Stud's open pair on fourth street).
        big_bet: the big bet of ``big_open``.
    """

    def __init__(
        self,
        order: Sequence[int],
        stacks: Mapping[int, int],
        limits: Limits,
        first: int,
        *,
        committed: Mapping[int, int] | None = None,
        high: int = 0,
        folded: Sequence[int] = (),
        pot: int = 0,
        brought_in: int | None = None,
        big_open: Collection[int] = (),
        big_bet: int = 0,
    ) -> None:
        self.order = order = tuple(order)
        # a copy in seat order; the peer hand's own stacks already are (one C-level copy)
        if type(stacks) is dict and len(stacks) == len(order) and tuple(stacks) == order:
            self.stacks = dict(stacks)
        else:
            self.stacks = {s: stacks[s] for s in order}
        self.limits = limits
        if committed:
            self.committed = dict.fromkeys(order, 0)
            if self.committed.keys() >= committed.keys():  # the blinds' seats: all in order
                self.committed.update(committed)
            else:  # a seat outside the round is left out
                self.committed = {s: committed.get(s, 0) for s in order}
            self.high = max(high, max(self.committed.values())) if order else high
        else:  # nothing in yet (every round after the first)
            self.committed = dict.fromkeys(order, 0)
            self.high = max(high, 0) if order else high
        self.increment = limits.bet
        """The largest full bet or raise of the round (the next minimum raise's step)."""
        self.full_level = 0 if brought_in is not None else self.high
        """The highest bet after the last full bet or raise (reopening)."""
        self.raises = 0
        self.folded = set(folded)
        self.pot = pot
        self.faced: dict[int, int] = {}
        """seat -> the highest bet it matched or made when it last acted (-1: a forced bet that
        needs no option when called, but does not stop the seat from raising)."""
        self.brought_in = brought_in
        if brought_in is not None:
            self.faced[brought_in] = -1
        self.bet_size = limits.bet
        """Fixed limit: the size of this round's bets and raises (the big bet after a big-bet
        opening by a ``big_open`` seat)."""
        self.big_open = (
            frozenset(big_open) if big_open and limits.kind == "fixed_limit" else _NOBODY
        )
        self.big_bet = big_bet
        self._turns = _rotations(order)  # shared between rounds: never changed
        self.actor: int | None = self._next_from(first, True)

    def next_street(self, limits: Limits, first: int, pot: int) -> None:
        """Make this closed round the next street's, in place: the same seats, stacks behind
        and folds, nothing bet yet, ``limits``, the ``pot`` before it, ``first`` to act (or the
        first able seat after it); as a new round with nothing committed, no forced bet and no
        big-bet opening, without copying the seats, stacks and folds again."""
        self.limits = limits
        self.committed = dict.fromkeys(self.order, 0)
        self.high = self.full_level = self.raises = 0
        self.increment = self.bet_size = limits.bet
        self.pot = pot
        self.faced = {}
        self.brought_in = None
        self.big_open = _NOBODY
        self.actor = self._next_from(first, True)

    # -- queries ----------------------------------------------------------------------------

    def live(self) -> list[int]:
        """Seats that have not folded, in seat order."""
        return [s for s in self.order if s not in self.folded]

    def able(self) -> list[int]:
        """Seats that have not folded and are not all-in (they may still bet)."""
        return [s for s in self.live() if self.stacks[s] > 0]

    def is_all_in(self, seat: int) -> bool:
        """True for a seat still in the hand with no chips behind."""
        return seat not in self.folded and self.stacks[seat] == 0

    @property
    def short_open(self) -> bool:
        """Only a forced bet below a full bet is in (the bring-in): the next bet completes it."""
        return self.brought_in is not None and self.full_level == 0

    @property
    def closed(self) -> bool:
        """The round is over: one seat left, or nobody still has to act (GAMES.md)."""
        return self.actor is None

    def _needs_action(self, seat: int) -> bool:
        return (
            seat not in self.folded
            and self.stacks[seat] > 0
            and (seat not in self.faced or self.committed[seat] < self.high)
        )

    def _next_from(self, seat: int, include: bool) -> int | None:
        # hot path of every replay: one pass, no helper calls (same rule as _needs_action)
        order, folded = self.order, self.folded
        if len(order) - len(folded) < 2:  # else two seats are live for sure: no count needed
            live = 0
            for s in order:
                if s not in folded:
                    live += 1
                    if live > 1:
                        break
            else:
                return None
        turn = self._turns.get(seat if include else seat + 1, order)  # wrapping round
        stacks, faced, committed, high = self.stacks, self.faced, self.committed, self.high
        for s in turn:
            if s not in folded and stacks[s] > 0 and (s not in faced or committed[s] < high):
                return s
        return None

    def reopened(self, seat: int) -> bool:
        """May ``seat`` raise? Yes unless it has acted and faces only incomplete raises that do
        not add up to a full one (GAMES.md, "Incomplete all-in"; convention, TDA)."""
        if seat not in self.faced:
            return True
        faced = self.faced[seat]
        if self.full_level > faced:
            return True
        return self.limits.reopen_by_sum and self.high - faced >= self.increment

    def raise_range(self, seat: int) -> AmountRange | None:
        """The totals ``seat`` may bet or raise to, or None when it may not (GAMES.md: minimum
        raise, pot-limit maximum, fixed-limit size and cap, all-in for less)."""
        return self._raise_range(seat)[0]

    def _raise_range(self, seat: int) -> tuple[AmountRange | None, str]:
        low, high, why = self._bounds(seat)
        if why:
            return None, why
        lim = self.limits
        if lim.kind == "fixed_limit" and low < self.committed[seat] + self.stacks[seat]:
            if self.big_open and high > low:
                return AmountRange(low, high, high - low, fixed=True), ""  # small or big bet
            return AmountRange(low, high, lim.chip, fixed=True), ""
        if high <= low:  # a short stack: all-in is the one total
            return AmountRange(low, high, lim.chip), ""
        # the pot after calling, on top of the bet faced (pot limit's maximum)
        pot = self.high + self.pot + sum(self.committed.values()) + self.high - self.committed[seat]
        half = self.high + (pot - self.high) // 2
        presets = [min(high, max(low, x // lim.chip * lim.chip)) for x in (pot, half)]
        return AmountRange(low, high, lim.chip, pot=presets[0], half_pot=presets[1]), ""

    def _bounds(self, seat: int) -> tuple[int, int, str]:
        """``(low, high, "")`` of :meth:`raise_range`, or ``(0, 0, why)`` when ``seat`` may not
        bet or raise (the replay's hot path: no range object, no seat lists)."""
        high_bet, committed, stacks = self.high, self.committed, self.stacks
        short_open = self.brought_in is not None and self.full_level == 0  # self.short_open
        word = BET if high_bet == 0 else COMPLETE if short_open else RAISE
        top = committed[seat] + stacks[seat]
        lim = self.limits
        if top <= high_bet:
            return 0, 0, f"seat {seat} has no chips to {word} with after calling"
        folded = self.folded
        # another seat still in with chips: it answers, if only by calling for less (GAMES.md:
        # a raise nobody can match in full is legal, the part nobody called goes back)
        for s in self.order:
            if s != seat and s not in folded and stacks[s] > 0:
                break
        else:
            return 0, 0, f"nobody can answer a {word}: every other player is all-in"
        if not self.reopened(seat):
            return 0, 0, f"a short all-in does not reopen the betting for seat {seat}: call or fold"
        if lim.kind == "fixed_limit":
            if self.full_level > 0 and lim.max_raises is not None and self.raises >= lim.max_raises:
                return (
                    0,
                    0,
                    (f"the betting is capped: a bet and {lim.max_raises} raises (fixed limit)"),
                )
            low = high = self.full_level + self.bet_size
            if high_bet == 0 and seat in self.big_open:
                high = self.big_bet  # open pair: the small or the big bet
        else:
            # amounts are whole chips: the minimum rounds up, the pot-limit maximum down;
            # over a bring-in alone the first full bet is the minimum bet itself
            base = 0 if short_open else high_bet
            low = -(-(base + self.increment) // lim.chip) * lim.chip
            high = top
            if lim.kind == "pot_limit":
                to_call = high_bet - committed[seat]
                pot_size = high_bet + self.pot + sum(committed.values()) + to_call
                high = max(low, pot_size // lim.chip * lim.chip)  # the minimum is always open
        if top < low:
            return top, top, ""
        return low, min(high, top), ""

    def legal(self, seat: int) -> ActionSpace:
        """What ``seat`` may do now, as an :class:`ActionSpace` (empty when not its turn)."""
        if seat != self.actor:
            return ActionSpace(seat)
        kinds = [FOLD, CHECK if self.committed[seat] >= self.high else CALL]
        amounts, why = self._raise_range(seat)
        word = BET if self.high == 0 else COMPLETE if self.short_open else RAISE
        if amounts is not None:
            kinds.append(word)
            return ActionSpace(seat, tuple(kinds), amount=amounts)
        rule = _bounds_refusal(why, seat, word, self.limits.max_raises).rule
        return ActionSpace(seat, tuple(kinds), closed=((word, rule),))

    # -- changes ----------------------------------------------------------------------------

    def verify(self, seat: int, kind: str, to: int | None = None) -> None:
        """Raise IllegalActionError naming the rule ``kind`` (to ``to``) by ``seat`` breaks."""
        committed = self.committed
        if seat not in committed:
            raise ActionRefused("not_in_hand", f"seat {seat} is not in the hand", seat=seat)
        if seat in self.folded:
            raise ActionRefused("folded", f"seat {seat} has folded and cannot act", seat=seat)
        if self.stacks[seat] == 0:
            raise ActionRefused("all_in", f"seat {seat} is all-in and cannot act", seat=seat)
        actor = self.actor
        if actor is None:
            raise ActionRefused("round_closed", "the betting round is closed: nobody is to act")
        if seat != actor:
            raise ActionRefused("out_of_turn",
                                f"seat {seat} acted out of turn (seat {actor} is to act)",
                                seat=seat, actor=actor)  # fmt: skip
        if kind == FOLD:
            return
        to_call = self.high - committed[seat]
        if kind == CALL:
            if to_call <= 0:
                raise ActionRefused("nothing_to_call", f"seat {seat} has nothing to call: check",
                                    seat=seat)  # fmt: skip
        elif kind == CHECK:
            if to_call > 0:
                raise ActionRefused("cannot_check", f"seat {seat} cannot check: {to_call} to call",
                                    seat=seat, to_call=to_call)  # fmt: skip
        elif kind in (BET, RAISE, COMPLETE):
            self._verify_amount(seat, kind, to)
        else:
            raise ActionRefused("unknown_action",
                                f"unknown action {kind!r} (actions: {', '.join(KINDS)})",
                                kind=str(kind))  # fmt: skip

    def _verify_amount(self, seat: int, kind: str, to: int | None) -> None:
        short_open = self.brought_in is not None and self.full_level == 0  # self.short_open
        if kind == COMPLETE and not short_open:
            what = "raise" if self.high > 0 else "bet"
            raise ActionRefused("nothing_to_complete",
                                f"there is no forced bet to complete: {what}, not complete",
                                kind=what)  # fmt: skip
        if kind == BET and short_open:
            raise ActionRefused("complete_not_bet",
                                f"there is a forced bet of {self.high}: complete, not bet",
                                high=self.high)  # fmt: skip
        if kind == BET and self.high > 0:
            raise ActionRefused("raise_not_bet",
                                f"there is a bet of {self.high} already: raise, not bet",
                                high=self.high)  # fmt: skip
        if kind == RAISE and self.high == 0:
            raise ActionRefused("bet_not_raise", "there is no bet to raise: bet, not raise")
        if type(to) is not int and (to is None or isinstance(to, bool) or not isinstance(to, int)):
            raise ActionRefused("no_amount", f"{kind} needs a whole amount 'to', got {to!r}",
                                kind=kind)  # fmt: skip
        top = self.committed[seat] + self.stacks[seat]
        if to > top:
            raise ActionRefused("above_stack",
                                f"{kind} to {to} is more than seat {seat}'s stack of {top}",
                                kind=kind, to=to, seat=seat, top=top)  # fmt: skip
        if to <= self.high:
            raise ActionRefused("not_above_bet",
                                f"{kind} to {to} does not raise the bet of {self.high}",
                                kind=kind, to=to, high=self.high)  # fmt: skip
        low, high, why = self._bounds(seat)
        if why:
            raise _bounds_refusal(why, seat, kind, self.limits.max_raises)
        if to == top and to <= high:
            return  # all-in: any amount up to the maximum (for less than a full raise too)
        if self.limits.kind == "fixed_limit" and to != low:
            if to == high:
                return  # the big bet of an open pair
            exact = f"{low} or {high}" if high > low else f"{low}"
            rule = "fixed_either" if high > low else "fixed_exact"
            raise ActionRefused(rule, f"a fixed-limit {kind} must be to exactly {exact}",
                                kind=kind, to=to, low=low, high=high)  # fmt: skip
        if to < low:
            raise ActionRefused("below_minimum",
                                f"{kind} to {to} is below the minimum {kind} to {low}",
                                kind=kind, to=to, low=low)  # fmt: skip
        if to > high:
            raise ActionRefused("above_pot", f"pot-limit {kind} to {to} is above the pot ({high})",
                                kind=kind, to=to, high=high)  # fmt: skip
        if to % self.limits.chip:
            raise ActionRefused(
                "off_chip", f"{kind} to {to} is not a multiple of the chip {self.limits.chip}",
                kind=kind, to=to, chip=self.limits.chip,
            )  # fmt: skip

    def act(self, seat: int, kind: str, to: int | None = None) -> int:
        """Verify and apply one action; returns the chips it moved from the stack."""
        # The seat to act is in the hand, has not folded and has chips (``_next_from`` chose
        # it), so only the kind's own rule is left to test here; whatever breaks a rule goes
        # through :meth:`verify`, which raises with its message.
        if seat != self.actor:
            self.verify(seat, kind, to)
        moved = 0
        if kind == CALL:
            moved = self.high - self.committed[seat]
            if moved <= 0:
                self.verify(seat, kind, to)
            stack = self.stacks[seat]
            if stack < moved:
                moved = stack
        elif kind == FOLD:
            self.folded.add(seat)
        elif kind == CHECK:
            if self.committed[seat] < self.high:
                self.verify(seat, kind, to)
        elif kind in (BET, RAISE, COMPLETE):
            self._verify_amount(seat, kind, to)
            if to is None:  # _verify_amount refuses it; this tells the type checker
                raise ActionRefused("no_amount", f"{kind} needs a whole amount 'to', got None",
                                    kind=kind)  # fmt: skip
            moved = to - self.committed[seat]
            by = to - self.high
            full = by >= self.increment
            short_open = self.brought_in is not None and self.full_level == 0  # self.short_open
            if self.limits.kind == "fixed_limit":
                if self.high == 0 and seat in self.big_open and to == self.big_bet:
                    self.bet_size = self.big_bet  # open pair: raises are big bets now
                full = 2 * by >= self.bet_size
                if short_open:  # the completion is the opening bet, never a raise
                    full = to >= self.bet_size
                elif self.full_level > 0 and full:  # completing an all-in opener is the bet
                    self.raises += 1
            elif short_open:
                full = to >= self.increment
            if full:
                self.increment = max(self.increment, by)
                self.full_level = to
            self.high = to
        else:
            self.verify(seat, kind, to)  # an unknown kind: raises
        if moved:
            self.stacks[seat] -= moved
            self.committed[seat] += moved
        self.faced[seat] = self.high
        self.actor = self._next_from(seat, False)
        return moved


def _bounds_refusal(why: str, seat: int, kind: str, max_raises: int | None) -> ActionRefused:
    """The refusal of :meth:`RoundState._bounds`'s ``why`` (its wording kept, its code found
    from it: the hot path returns the sentence alone)."""
    if why.startswith("nobody can answer"):
        return ActionRefused("nobody_to_answer", why, kind=kind)
    if why.startswith("a short all-in"):
        return ActionRefused("short_all_in", why, seat=seat)
    if why.startswith("the betting is capped"):
        return ActionRefused("capped", why, raises=max_raises or 0)
    return ActionRefused("no_chips_to_raise", why, seat=seat, kind=kind)
