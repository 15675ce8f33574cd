"""Hold'em between hands (rules text 003 art. 6.1; GAMES.md "Poker-room Texas Hold'em" 1, 2, 5
and "Misdeals"): who is dealt in, where the button and the blinds go, what a new or returning
player posts. Pure: every function returns new values.

:func:`next_hand` lays out the next hand (:class:`HandSetup`: seats, stacks, button, every
forced bet as a :class:`Post`); :func:`after_hand` carries a journaled hand into the session
(stacks, the button, missed blinds). The table operations (:func:`seat_player`, :func:`top_up`,
:func:`sit_out`, :func:`sit_in`, :func:`leave`, :func:`set_button`, :func:`draw_button`) return
the session carrying its change, to journal with
:func:`~dealer_assist.table.records.journal_change`.

The conventions (GAMES.md is silent; Robert's Rules of Poker and TDA), each a named setting:

- **Button** (``settings.button``). ``moving`` (GAMES.md 5): the button moves to the next seat
  dealt in; the small blind is the next seat dealt in after it, the big blind the one after
  (heads-up: the button posts the small blind). ``dead`` (the dead-button rule): the big blind
  moves to the next player due for it (waiting players included), the small blind to the seat
  of the last big blind (none when that seat is not dealt in: "in assenza del piccolo buio
  presenza del grande buio", art. 6.1), the button to the seat of the last small blind, dealt in
  or not (a dead button). Heads-up the button is always the small blind, never dead.
- **New player** (:attr:`PokerTable.new_player`): a player who sits down once the table has
  played a hand owes a big blind: ``post_big_blind`` (default; Robert's: "posting an amount
  equal to the big blind and immediately being dealt in") or ``wait_for_big_blind``.
- **Missed blinds** (``settings.missed_blinds``): a player sitting out (or busted) when a blind
  passes their seat owes it. Back, they ``post_both`` (the big blind live, the small blind
  dead: type ``ante``, Robert's "the remainder ... is not part of the poster's bet") or
  ``wait_for_big_blind``. A player in the big blind's seat posts just that blind and owes
  nothing more.
- **Where an owing player may come in**: ``dead``: not between the small blind and the button
  (Robert's); they wait until the big blind reaches them. ``moving``: anywhere (the moving rule
  has no empty positions to protect): on the small blind's seat they post the big blind live
  and the small blind dead. A player waiting for the big blind comes in, ``moving``, on the
  first hand whose big blind passes their seat, posting a big blind.
- When fewer than two players without obligations are left, the table starts afresh: everyone
  with chips is dealt in as at a first hand and what they owed lapses.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from dealer_assist.errors import ConfigError, HandStateError, InvalidRecordError, TableError
from dealer_assist.games import seats as generic
from dealer_assist.games.holdem import (
    ANTE,
    BIG_BLIND,
    DEFAULT_SETTINGS,
    MAX_SEATS,
    NEW_PLAYER,
    SMALL_BLIND,
    HoldemSettings,
    NewPlayer,
    forced_bets,
)
from dealer_assist.games.seats import BuyIn, between_clockwise, eligible, next_clockwise
from dealer_assist.games.session import SeatedPlayer, TableChange, TableSession

NOT_ENOUGH = "fewer than 2 players with chips are dealt in"


@dataclass(frozen=True)
class PokerTable:
    """The table's fixed Hold'em settings (from config; chips in minor units).

    Attributes:
        blinds: ``(small, big)``. ante: per player (0: none); ``ante_kind`` ``big_blind``: one
            ante by the big blind. chip: the smallest chip in play (buy-ins are whole chips).
        buy_in_min, buy_in_max: a cash player's stack when sitting down; top-ups up to the max.
        settings: the conventions in force (``button``, ``missed_blinds``...).
        seats: seats at the table (1..seats; at most 10, GAMES.md).
        new_player: ``post_big_blind`` or ``wait_for_big_blind`` (module docstring).

    Raises:
        ConfigError: a value out of range, naming it.
    """

    blinds: tuple[int, int] = (100, 200)
    ante: int = 0
    ante_kind: str | None = None
    chip: int = 1
    buy_in_min: int = 4000
    buy_in_max: int = 20000
    settings: HoldemSettings = DEFAULT_SETTINGS
    seats: int = MAX_SEATS
    new_player: NewPlayer = "post_big_blind"

    def __post_init__(self) -> None:
        small, big = self.blinds
        if not 0 <= small <= big or big <= 0:
            raise ConfigError(f"blinds: need 0 <= small <= big, big > 0, got {self.blinds}")
        if self.ante < 0 or self.chip <= 0:
            raise ConfigError(f"ante must be >= 0 and chip > 0, got {self.ante}, {self.chip}")
        if self.ante_kind not in (None, BIG_BLIND):
            raise ConfigError(f"ante_kind: must be {BIG_BLIND!r} or absent")
        if not 0 < self.buy_in_min <= self.buy_in_max:
            raise ConfigError(f"buy_in: need 0 < min <= max, got {self.buy_in_min}, "
                              f"{self.buy_in_max}")  # fmt: skip
        if not 2 <= self.seats <= MAX_SEATS:
            raise ConfigError(f"seats: must be 2..{MAX_SEATS}, got {self.seats}")
        if self.new_player not in NEW_PLAYER:
            raise ConfigError(f"new_player: must be one of {', '.join(NEW_PLAYER)}")

    @classmethod
    def of_game(cls, game: Any, seats: int, **more: Any) -> PokerTable:
        """From a table's Hold'em game (``blinds``, ``ante``, ``ante_kind``, ``chip``,
        ``buy_in`` ``(min, max)``, ``settings``) and its seat count."""
        low, high = game.buy_in
        more.setdefault("new_player", game.settings.new_player)
        return cls(tuple(game.blinds), game.ante, game.ante_kind, game.chip, low, high,
                   game.settings, seats, **more)  # fmt: skip

    @property
    def buy_in(self) -> BuyIn:
        """The cash buy-in rule."""
        return BuyIn(self.buy_in_min, self.buy_in_max, self.chip)


@dataclass(frozen=True)
class Post:
    """One forced bet (HAND_RECORD.md ``posts``): ``type`` ``small_blind`` | ``big_blind`` |
    ``ante`` (a dead missed small blind is an ``ante``: dead money); the nominal ``amount``
    (a shorter stack posts what it has and is all-in)."""

    seat: int
    type: str
    amount: int

    def to_json(self) -> dict[str, Any]:
        """The record's ``posts`` item."""
        return {"seat": self.seat, "type": self.type, "amount": self.amount}


@dataclass(frozen=True)
class HandSetup:
    """The next hand as the table lays it out.

    Attributes:
        seats: seats dealt in, ascending. stacks: their stacks at the start of the hand.
        button: the button's seat (dead-button rule: possibly a seat not dealt in).
        posts: every forced bet, in posting order: antes and dead blinds first, then the small
            blind, the big blind, the other big blinds posted to come in (a big-blind ante:
            the blinds first, then the ante and the dead blinds).
        big_blind: the seat whose big blind the preflop opener follows.
        plain: the posts are the plain button/blinds case (:func:`forced_bets`): the record
            needs no ``posts``.
        small_blind: the seat in the small blind's place (None: no small blind this hand).
        marks: the places the next hand's layout starts from (``small_blind``, ``big_blind``).
    """

    seats: tuple[int, ...]
    stacks: Mapping[int, int]
    button: int
    posts: tuple[Post, ...]
    big_blind: int | None
    plain: bool
    small_blind: int | None = None
    marks: Mapping[str, int] = field(default_factory=dict)

    def posts_json(self) -> list[dict[str, Any]]:
        """The record's ``posts`` list."""
        return [p.to_json() for p in self.posts]


# -- the layout of the next hand ----------------------------------------------------------------


@dataclass
class _Layout:
    dealt: list[int]
    button: int
    small: int | None  # the small blind's place: its seat posts it unless it owes
    big: int
    marks: dict[str, int]
    fresh: bool = False  # a first hand or a fresh start: nobody posts what they owed


def _plain(dealt: list[int], button: int, *, fresh: bool = False) -> _Layout:
    """The plain case: small blind first after the button, big blind next; heads-up the
    button posts the small blind (GAMES.md Hold'em 2)."""
    if len(dealt) == 2 and button in dealt:
        small = button
        big = next(s for s in dealt if s != button)
    else:
        small = next_clockwise(button, dealt)
        big = next_clockwise(small, dealt)
    marks = {SMALL_BLIND: small, BIG_BLIND: big}
    return _Layout(sorted(dealt), button, small, big, marks, fresh)


def _owing(session: TableSession, seats: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
    """(ready, posting, waiting) among ``seats``."""
    ready: list[int] = []
    posting: list[int] = []
    waiting: list[int] = []
    for s in seats:
        p = session.seats[s]
        (waiting if p.waiting else posting if p.owes else ready).append(s)
    return ready, posting, waiting


def _moving(session: TableSession, ready: list[int], posting: list[int],
            waiting: list[int]) -> _Layout:  # fmt: skip
    last_button = session.button if session.button is not None else 0
    last_big = session.marks[BIG_BLIND]
    base = sorted(ready + posting)
    without = _plain(base, next_clockwise(last_button, base))
    # waiting for the big blind: in on the first hand whose big blind passes their seat
    due = [w for w in waiting if between_clockwise(w, last_big, without.big)]
    if not due:
        return without
    dealt = sorted(base + due)
    return _plain(dealt, next_clockwise(last_button, dealt))


def _dead(session: TableSession, everyone: list[int], ready: list[int],
          posting: list[int]) -> _Layout:  # fmt: skip
    marks = session.marks
    last_small, last_big = marks.get(SMALL_BLIND, marks[BIG_BLIND]), marks[BIG_BLIND]
    big = next_clockwise(last_big, everyone)  # the player due for it, waiting or not
    small, button = last_big, last_small
    dealt = set(ready) | {big}
    for p in posting:  # not between the small blind and the button (Robert's)
        if p != button and not between_clockwise(p, button, small):
            dealt.add(p)
    if len(dealt) == 2:  # heads-up: the button posts the small blind, never dead
        other = next(s for s in dealt if s != big)
        return _Layout(sorted(dealt), other, other, big, {SMALL_BLIND: other, BIG_BLIND: big})
    marks_next = {SMALL_BLIND: small, BIG_BLIND: big}
    return _Layout(sorted(dealt), button, small if small in dealt else None, big, marks_next)


def _layout(session: TableSession, table: PokerTable) -> _Layout:
    everyone = eligible(session)
    if len(everyone) < 2:
        raise HandStateError(f"no hand can start: {NOT_ENOUGH} ({_who(session)})")
    if session.button is None:
        raise HandStateError("no hand can start: the button is not placed (set_button or "
                             "draw_button before the first hand)")  # fmt: skip
    ready, posting, waiting = _owing(session, everyone)
    if not session.marks:  # the first hand from this button: as the dealer placed it
        b = session.button
        return _plain(everyone, b if b in everyone else next_clockwise(b, everyone), fresh=True)
    if len(ready) < 2:  # a fresh start: what was owed lapses
        return _plain(everyone, next_clockwise(session.button, everyone), fresh=True)
    if table.settings.button == "dead":
        return _dead(session, everyone, ready, posting)
    return _moving(session, ready, posting, waiting)


def _who(session: TableSession) -> str:
    def state(p: SeatedPlayer) -> str:
        if p.sitting_out:
            return "sitting out"
        return "no chips" if not p.stack else f"{p.stack}"

    return ", ".join(f"seat {s}: {state(p)}" for s, p in sorted(session.seats.items())) or "empty"


def next_hand(session: TableSession, table: PokerTable) -> HandSetup:
    """The next hand's setup: seats dealt in, stacks, button, every forced bet (module doc).

    Raises:
        HandStateError: no hand can start, naming why ("fewer than 2 players with chips are
            dealt in", "the button is not placed").
    """
    lay = _layout(session, table)
    small_amt, big_amt = table.blinds
    owing = [] if lay.fresh else [
        s for s in lay.dealt if session.seats[s].owes and s != lay.big
    ]  # fmt: skip
    live: list[Post] = []
    dead_blinds: list[Post] = []
    if lay.small is not None and lay.small not in owing and small_amt:
        live.append(Post(lay.small, SMALL_BLIND, small_amt))
    live.append(Post(lay.big, BIG_BLIND, big_amt))
    for s in _clockwise_from(lay.big, owing):
        live.append(Post(s, BIG_BLIND, big_amt))
        owes_small = SMALL_BLIND in session.seats[s].owes and not session.seats[s].waiting
        if (owes_small or s == lay.small) and small_amt:
            dead_blinds.append(Post(s, ANTE, small_amt))
    antes: list[Post] = []
    by_big = table.ante_kind == BIG_BLIND
    if table.ante:
        antes = [Post(lay.big, ANTE, table.ante)] if by_big else [
            Post(s, ANTE, table.ante) for s in lay.dealt
        ]  # fmt: skip
    posts = (*live, *antes, *dead_blinds) if by_big else (*antes, *dead_blinds, *live)
    stacks = {s: int(session.seats[s].stack or 0) for s in lay.dealt}
    plain = _as_dicts(posts) == forced_bets(lay.dealt, lay.button, table.blinds, table.ante,
                                            ante_by_big=by_big)  # fmt: skip
    return HandSetup(tuple(lay.dealt), stacks, lay.button, posts, lay.big, plain, lay.small,
                     lay.marks)  # fmt: skip


def _clockwise_from(start: int, seats: Sequence[int]) -> list[int]:
    return sorted(seats, key=lambda s: (s <= start, s))


def _as_dicts(posts: Sequence[Post]) -> tuple[dict[int, int], dict[int, int], int | None]:
    dead: dict[int, int] = {}
    live: dict[int, int] = {}
    big = None
    for p in posts:
        side = dead if p.type == ANTE else live
        side[p.seat] = side.get(p.seat, 0) + p.amount
        if p.type == BIG_BLIND and big is None:
            big = p.seat
    return dead, live, big


# -- after a hand --------------------------------------------------------------------------------


def after_hand(
    session: TableSession, table: PokerTable, setup: HandSetup,
    settlement: Mapping[str, Any] | None, *, void: bool,
) -> TableSession:  # fmt: skip
    """The session once the hand laid out by ``setup`` (from ``session``) is journaled; it
    replaces :meth:`TableSession.after_hand` (the hand count goes up here too).

    Settled: each dealt-in seat's stack becomes its ``settlement["seats"][i]["stack"]``, what
    it owed is paid, the button and the blinds' places move on, and a player sitting out (or
    busted) whose seat a blind passed owes that blind. Void (GAMES.md "Misdeals"): every chip
    goes back, the button does not move: only the hand count changes.

    Raises:
        InvalidRecordError: the settlement lacks a dealt-in seat's integer stack
            (``settlement.seats[i].stack``), or its stacks and rake do not add up to the stacks
            the hand started with (chips are conserved, GAMES.md "Chips and stacks").
    """
    if void:
        return session.after_hand()
    stacks = _settled_stacks(setup, settlement)
    seats = dict(session.seats)
    for s, stack in stacks.items():
        player = seats.get(s)
        if player is not None:
            seats[s] = replace(player, stack=stack, owes=(), waiting=False)
    previous = session.marks or {SMALL_BLIND: setup.button, BIG_BLIND: setup.button}
    passed = {
        BIG_BLIND: (previous[BIG_BLIND], setup.marks.get(BIG_BLIND, setup.big_blind)),
        SMALL_BLIND: (previous.get(SMALL_BLIND, previous[BIG_BLIND]),
                      setup.marks.get(SMALL_BLIND)),
    }  # fmt: skip
    for s, player in list(seats.items()):
        if s in stacks or not (player.sitting_out or not player.stack):
            continue
        owes = list(player.owes)
        for blind in (BIG_BLIND, SMALL_BLIND):
            start, end = passed[blind]
            passed_here = end is not None and between_clockwise(s, start, end)
            if passed_here and blind not in owes:
                owes.append(blind)
        seats[s] = replace(player, owes=tuple(owes))
    marks = {k: v for k, v in setup.marks.items() if v is not None}
    return replace(session, seats=seats, button=setup.button, marks=marks).after_hand()


def _settled_stacks(setup: HandSetup, settlement: Mapping[str, Any] | None) -> dict[int, int]:
    if not isinstance(settlement, Mapping) or not isinstance(settlement.get("seats"), list):
        raise InvalidRecordError("settlement.seats", "a settled hand needs its seats' stacks")
    found: dict[int, int] = {}
    for i, row in enumerate(settlement["seats"]):
        seat = row.get("seat") if isinstance(row, Mapping) else None
        stack = row.get("stack") if isinstance(row, Mapping) else None
        if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
            raise InvalidRecordError(f"settlement.seats[{i}].stack",
                                     f"must be an integer >= 0, got {stack!r}")  # fmt: skip
        if isinstance(seat, int) and seat in setup.stacks:
            found[seat] = stack
    missing = [s for s in setup.seats if s not in found]
    if missing:
        raise InvalidRecordError("settlement.seats", f"no stack for seat(s) {missing}")
    rake = settlement.get("rake", 0) or 0
    before, after = sum(setup.stacks.values()), sum(found.values())
    if not isinstance(rake, int) or after + rake != before:
        raise InvalidRecordError(
            "settlement.seats", f"stacks {after} + rake {rake!r} != {before} at the start"
        )
    return found


# -- table operations ----------------------------------------------------------------------------


def seat_player(
    session: TableSession, table: PokerTable, seat: int, name: str, buy_in: int, *,
    at: datetime | None = None, by: str = "", in_hand: bool = False,
) -> TableSession:  # fmt: skip
    """A player sits down with ``buy_in`` (``buy_in_min..buy_in_max``, whole chips). Once the
    table has played a hand they owe a big blind (:attr:`PokerTable.new_player`).

    Raises:
        TableError: not a seat, taken, or the buy-in out of bounds (naming the bound).
        HandStateError: during a hand.
    """
    new = bool(session.marks)
    return generic.seat_player(
        session, seat, name, buy_in, seats=table.seats, rule=table.buy_in, at=at, by=by,
        owes=(BIG_BLIND,) if new else (),
        waiting=new and table.new_player == "wait_for_big_blind", in_hand=in_hand,
    )  # fmt: skip


def top_up(
    session: TableSession, table: PokerTable, seat: int, amount: int, *,
    at: datetime | None = None, by: str = "", in_hand: bool = False,
) -> TableSession:  # fmt: skip
    """More chips (cash: only between hands; the stack at most ``buy_in_max``; after busting at
    least ``buy_in_min``). A busted player who owes blinds follows the missed-blind rule.

    Raises:
        TableError: naming the rule. HandStateError: during a hand.
    """
    player = session.seats.get(seat)
    waiting = None
    if player is not None and not player.stack and player.owes:
        waiting = table.settings.missed_blinds == "wait_for_big_blind"
    return generic.top_up(session, seat, amount, rule=table.buy_in, at=at, by=by,
                          waiting=waiting, in_hand=in_hand)  # fmt: skip


def sit_out(
    session: TableSession, seat: int, *, at: datetime | None = None, by: str = "",
    in_hand: bool = False,
) -> TableSession:  # fmt: skip
    """The player sits out from the next hand (cash: not dealt in; the blinds that pass their
    seat meanwhile are owed). Raises TableError, HandStateError."""
    return generic.sit_out(session, seat, at=at, by=by, in_hand=in_hand)


def sit_in(
    session: TableSession, seat: int, *, table: PokerTable, at: datetime | None = None,
    by: str = "", in_hand: bool = False,
) -> TableSession:  # fmt: skip
    """The player is back from the next hand: with missed blinds they post them
    (``post_both``) or wait for the big blind (``wait_for_big_blind``). Raises TableError,
    HandStateError."""
    player = session.seats.get(seat)
    owes = bool(player and player.owes)
    wait = owes and (table.settings.missed_blinds == "wait_for_big_blind" or (
        bool(player and player.waiting)))  # fmt: skip
    return generic.sit_in(session, seat, waiting=wait, at=at, by=by, in_hand=in_hand)


def leave(
    session: TableSession, seat: int, *, at: datetime | None = None, by: str = "",
    in_hand: bool = False,
) -> TableSession:  # fmt: skip
    """The player cashes out: their stack leaves with them. Raises TableError, HandStateError."""
    return generic.leave(session, seat, at=at, by=by, in_hand=in_hand)


def set_button(
    session: TableSession, seat: int, *, at: datetime | None = None, by: str = "dealer",
    in_hand: bool = False,
) -> TableSession:  # fmt: skip
    """The dealer places the button in front of ``seat`` (rules text 003 art. 6.1: "bottone
    dealer regolarmente posizionato"); the next hand is laid out from it as a first hand.

    Raises:
        TableError: nobody sits there. HandStateError: during a hand.
    """
    if in_hand:
        raise HandStateError("the button is placed only between hands")
    if seat not in session.seats:
        raise TableError(seat, "nobody sits there: the button goes in front of a player")
    payload = {"seat": seat, "how": "dealer", **generic.stamp(at, by)}
    return replace(session, button=seat, marks={}, change=TableChange("button", payload))


def draw_button(
    session: TableSession, seed: int, *, at: datetime | None = None, by: str = "dealer",
    in_hand: bool = False,
) -> TableSession:  # fmt: skip
    """The first button drawn among the players who can be dealt in, with ``random.Random(
    seed)`` (seeded and recorded, as rules text 002 draws the seats): the same seed and
    seating always draw the same seat.

    Raises:
        TableError: nobody can be dealt in. HandStateError: during a hand.
    """
    among = eligible(session)
    if not among:
        raise TableError(None, f"no player with chips to draw the button among ({_who(session)})")
    seat = random.Random(seed).choice(among)
    drawn = set_button(session, seat, at=at, by=by, in_hand=in_hand)
    payload = {**(drawn.change.payload if drawn.change else {}), "how": "draw", "seed": seed,
               "among": among}  # fmt: skip
    return replace(drawn, change=TableChange("button", payload))
