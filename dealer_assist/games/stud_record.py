"""A ``stud`` hand record read, validated and replayed (HAND_RECORD.md "Pot games").

:func:`parse_stud` checks every field, posts the antes, and replays the actions through
:class:`~dealer_assist.engine.peer_hand.PeerBetting`: each street's round is opened from the
cards of that street as the record gives them (:func:`dealer_assist.games.stud.opening`: the
bring-in by the lowest door card, then the best exposed hand), so the first action the rules of
GAMES.md do not allow is refused, naming ``actions[i]`` and the rule (a wrong bring-in seat, a
completion off size, out of turn, the cap passed). Seventh street follows the shortage rule
(:func:`~dealer_assist.games.stud.seventh_street`): ``community`` must be there exactly when the
deck ran short of a card for every player. It returns the
:class:`~dealer_assist.engine.pot_settle.PotHand` to settle, odd chips by suit.

Cards: each player's ``cards`` in deal order. A player still in at the end holds exactly the
cards dealt to them (six with a community card); one who folded holds at least the cards dealt
up to their fold (more are accepted and play no part: the shared cases list seven cards for
players who folded early), and may show ``"??"`` for a down card. Every refusal is an
:class:`~dealer_assist.errors.InvalidRecordError` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dealer_assist.cards import Card, take_cards
from dealer_assist.engine.betting import BET, BRING_IN, COMPLETE, KINDS, RAISE
from dealer_assist.engine.peer import STRUCTURES, BettingStructure
from dealer_assist.engine.peer_hand import PeerBetting
from dealer_assist.engine.pot_settle import PotHand
from dealer_assist.errors import ConfigError, IllegalActionError, InvalidRecordError
from dealer_assist.games.pot_common import check_whole_chips
from dealer_assist.games.stud import (
    CARDS_AFTER,
    CODE,
    DEFAULT_SETTINGS,
    FACE_UP,
    SEVENTH,
    STREET_NAMES,
    Opening,
    StudSettings,
    odd_chip_order,
    opening,
    seventh_street,
)

if TYPE_CHECKING:  # annotations only, for start-up (games/pot_types.py)
    from dealer_assist.games.pot_types import RecordRules

UNKNOWN = "??"
ACTIONS = (*KINDS, BRING_IN, COMPLETE)
"""The record's stud action words (HAND_RECORD.md)."""
_SEVENTH = STREET_NAMES.index(SEVENTH)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(
    obj: Mapping[str, Any], key: str, path: str, *, low: int, default: int | None = None
) -> int:
    if key not in obj:
        if default is None:
            raise InvalidRecordError(path, "missing")
        return default
    v = obj[key]
    if not _is_int(v) or v < low:
        what = "a positive integer" if low == 1 else f"an integer >= {low}"
        raise InvalidRecordError(path, f"must be {what}, got {v!r}")
    return int(v)


class _Replay:
    """The record's cards and the betting, street by street."""

    def __init__(
        self,
        hand: PeerBetting,
        cards: Mapping[int, Sequence[Card | None]],
        where: Mapping[int, int],
        bring_in: int,
        fixed: bool,
        settings: StudSettings,
        community: Card | None,
    ) -> None:
        self.hand, self.cards, self.where = hand, cards, where
        self.bring_in, self.fixed, self.settings = bring_in, fixed, settings
        self.community = community
        self.live_at: list[tuple[int, ...]] = []
        """The seats dealt each street's cards (those still in when it was dealt)."""
        self.opened: Opening | None = None
        self.note()

    def note(self) -> None:
        """Record who was dealt the streets the betting has reached."""
        live = tuple(self.hand.live())
        while len(self.live_at) <= self.hand.index and not self.hand.is_over:
            self.live_at.append(live)

    def need(self, seat: int, street: int) -> int:
        """Cards ``seat`` holds once street ``street`` is dealt (six with a community card)."""
        n = CARDS_AFTER[STREET_NAMES[street]]
        return n - 1 if street == _SEVENTH and self.community is not None else n

    def check_cards(self, seat: int, n: int, street: str) -> None:
        held = self.cards[seat]
        path = f"players[{self.where[seat]}].cards"
        if len(held) < n:
            raise InvalidRecordError(
                path, f"seat {seat} is in on {street} street: {n} cards needed, got {len(held)}"
            )
        for j in range(n):
            if FACE_UP[j] and held[j] is None:
                raise InvalidRecordError(f"{path}[{j}]", f"seat {seat}'s up card must be known")

    def open_waiting(self) -> None:
        """Open the round that waits for its cards (the bring-in, the best exposed hand)."""
        hand = self.hand
        while hand.waiting and hand.street is not None:
            street, index = hand.street, hand.index
            live = hand.live()
            if index == _SEVENTH:
                self.check_shortage()
            for s in live:
                self.check_cards(s, self.need(s, index), street)
            up = {
                s: [
                    c
                    for j, c in enumerate(self.cards[s][: self.need(s, index)])
                    if FACE_UP[j] and c is not None
                ]
                for s in live
            }
            try:
                self.opened = opening(
                    street,
                    up,
                    bring_in=self.bring_in,
                    fixed_limit=self.fixed,
                    settings=self.settings,
                )
            except ConfigError as e:
                raise InvalidRecordError("players", str(e)) from e
            op = self.opened
            hand.open_round(op.order, forced=op.forced, big_open=op.big_open)
            self.note()

    def check_shortage(self) -> None:
        """``community`` as the shortage rule says (GAMES.md "Seven Card Stud" 5)."""
        dealt = sum(len(seats) for seats in self.live_at[:_SEVENTH])
        dealt += 2 * len(self.live_at[0])  # third street: three cards each
        players = len(self.hand.live())
        plan = seventh_street(dealt, _SEVENTH - 1, players)
        if plan.plan == "community" and self.community is None:
            raise InvalidRecordError("community", f"missing: {plan.message()}")
        if plan.plan != "community" and self.community is not None:
            raise InvalidRecordError(
                "community", f"the deck did not run short of a community card: {plan.message()}"
            )

    def act(self, a: Any, i: int) -> None:
        if not isinstance(a, Mapping):
            raise InvalidRecordError(f"actions[{i}]", "must be an object")
        street, kind = a.get("street"), a.get("action")
        if street not in STREET_NAMES:
            raise InvalidRecordError(
                f"actions[{i}].street", f"must be one of {', '.join(STREET_NAMES)}, got {street!r}"
            )
        if kind not in ACTIONS:
            raise InvalidRecordError(f"actions[{i}].action", f"must be one of {', '.join(ACTIONS)}")
        seat = _int(a, "seat", f"actions[{i}].seat", low=1)
        to: int | None = None
        if kind in (BET, RAISE, COMPLETE):
            to = _int(a, "to", f"actions[{i}].to", low=1)
        hand = self.hand
        self.open_waiting()
        forced = hand.forced
        if forced is not None and street == hand.street and seat != forced[0]:
            why = f" ({self.opened.why})" if self.opened is not None else ""
            raise InvalidRecordError(
                f"actions[{i}]",
                f"seat {seat} acted out of turn: the bring-in is seat {forced[0]}'s{why}",
            )
        try:
            hand.act(street, seat, kind, to)
        except IllegalActionError as e:
            raise InvalidRecordError(f"actions[{i}]", str(e)) from e
        self.note()


def parse_stud(obj: Mapping[str, Any], rules: RecordRules) -> PotHand:
    """Validate and replay a ``stud`` record; returns the finished hand to settle.

    Raises:
        InvalidRecordError: a missing or mistyped field, a card given twice, a player with the
            wrong number of cards, a missing or needless ``community``, an action the rules do
            not allow (``actions[0]: seat 2 acted out of turn: the bring-in is seat 1's``), a
            hand that stops before it is over (``actions: the hand is not finished``).
    """
    betting = obj.get("betting")
    if betting not in STRUCTURES:
        raise InvalidRecordError("betting", f"must be one of {', '.join(STRUCTURES)}")
    n_seats = _int(obj, "seats", "seats", low=2)
    if n_seats > rules.max_seats:
        raise InvalidRecordError("seats", f"at most {rules.max_seats}, got {n_seats}")
    ante = _int(obj, "ante", "ante", low=0, default=0)
    chip = _int(obj, "chip", "chip", low=1, default=1)
    limits = obj.get("limits")
    if not (isinstance(limits, list) and len(limits) == 2 and all(_is_int(x) for x in limits)):
        raise InvalidRecordError("limits", f"must be [small_limit, big_limit], got {limits!r}")
    small, big = int(limits[0]), int(limits[1])
    if not 0 < small <= big:
        raise InvalidRecordError("limits", f"need 0 < small_limit <= big_limit, got {limits}")
    bring_in = _int(obj, "bring_in", "bring_in", low=1)
    if 2 * bring_in > small:
        raise InvalidRecordError(
            "bring_in", f"at most half the small limit {small} (rules text 002), got {bring_in}"
        )
    try:
        raw = obj.get("settings", {})
        settings = DEFAULT_SETTINGS if raw == {} else StudSettings.from_json(raw)
    except ConfigError as e:
        field, _, why = str(e).partition(": ")
        raise InvalidRecordError(field, why) from e
    fixed = betting == "fixed_limit"
    try:
        # no limit and pot limit: the smallest bet is the big limit (text 002)
        structure = BettingStructure(
            betting, small if fixed else big, big, settings.max_raises if fixed else None, chip
        )
    except ConfigError as e:
        raise InvalidRecordError("limits", str(e)) from e

    used: set[Card] = set()
    players = obj.get("players")
    if not isinstance(players, list) or len(players) < 2:
        raise InvalidRecordError("players", "must be a list of at least 2 players")
    stacks: dict[int, int] = {}
    cards: dict[int, tuple[Card | None, ...]] = {}
    where: dict[int, int] = {}
    for i, p in enumerate(players):
        if not isinstance(p, Mapping):
            raise InvalidRecordError(f"players[{i}]", "must be an object")
        seat = _int(p, "seat", f"players[{i}].seat", low=1)
        if seat > n_seats:
            raise InvalidRecordError(f"players[{i}].seat", f"must be 1..{n_seats}, got {seat}")
        if seat in stacks:
            raise InvalidRecordError(f"players[{i}].seat", f"seat {seat} appears twice")
        stacks[seat] = _int(p, "stack", f"players[{i}].stack", low=1)
        cards[seat] = _cards(p.get("cards"), f"players[{i}].cards", used)
        where[seat] = i
    community = _community(obj.get("community"), used)

    check_whole_chips(
        chip,
        {"ante": ante, "bring_in": bring_in}
        | {f"players[{i}].stack": stacks[s] for i, s in enumerate(stacks)},
    )
    antes = {s: ante for s in stacks} if ante else {}
    hand = PeerBetting(
        list(stacks),
        stacks,
        0,
        rules.streets,
        structure,
        dead=antes,
        live={},
        big_blind=None,
        blind=0,
        uncapped_heads_up=settings.no_cap_heads_up,
        reopen_by_sum=settings.reopen_by_sum,
    )
    replay = _Replay(hand, cards, where, bring_in, fixed, settings, community)
    actions = obj.get("actions")
    if not isinstance(actions, list):
        raise InvalidRecordError("actions", "must be a list")
    for i, a in enumerate(actions):
        replay.act(a, i)
    replay.open_waiting()
    if not hand.is_over:
        raise InvalidRecordError(
            "actions",
            f"the hand is not finished: seat {hand.actor} is to act on {hand.street} street",
        )
    live = hand.live()
    reached = hand.reached
    while len(replay.live_at) <= reached:  # streets dealt with no betting (all-in)
        if len(replay.live_at) == _SEVENTH:
            replay.check_shortage()
        replay.live_at.append(tuple(live))
    if reached < _SEVENTH and community is not None:
        raise InvalidRecordError("community", f"the hand ended on {STREET_NAMES[reached]} street")
    mucked = _mucked(obj.get("mucked", []), live)
    holes: dict[int, tuple[Card, ...] | None] = {}
    for s in stacks:
        n = 3 + sum(1 for k in range(1, reached + 1) if s in replay.live_at[k])
        if community is not None and s in replay.live_at[_SEVENTH]:
            n -= 1
        held = cards[s]
        path = f"players[{where[s]}].cards"
        if s in live:
            if len(held) != n:
                raise InvalidRecordError(path, f"seat {s} was dealt {n} cards, got {len(held)}")
            for j in range(n):
                if FACE_UP[j] and held[j] is None:
                    raise InvalidRecordError(f"{path}[{j}]", f"seat {s}'s up card must be known")
            if len(live) > 1 and s not in mucked and None in held:
                raise InvalidRecordError(path, f"seat {s} is in the showdown: every card needed")
        elif len(held) < n:
            raise InvalidRecordError(path, f"seat {s} was dealt {n} cards, got {len(held)}")
        dealt = held[:n]
        holes[s] = None if None in dealt else tuple(c for c in dealt if c is not None)
    board = () if community is None else (community,)
    known = {s: h for s, h in holes.items() if h is not None}
    return PotHand(
        CODE,
        tuple(sorted(stacks)),
        stacks,
        0,
        dict(hand.total),
        frozenset(s for s in stacks if s not in live),
        dict(hand.dead),
        holes,
        board,
        mucked,
        chip,
        ante=ante,
        odd_chips=odd_chip_order(known, board),
    )


def _cards(texts: Any, path: str, used: set[Card]) -> tuple[Card | None, ...]:
    if not isinstance(texts, list) or not 3 <= len(texts) <= 7:
        raise InvalidRecordError(path, f"must be a list of 3 to 7 cards, got {texts!r}")
    out: list[Card | None] = []
    for j, text in enumerate(texts):
        if text == UNKNOWN:
            if FACE_UP[j]:
                raise InvalidRecordError(f"{path}[{j}]", "an up card cannot be unknown")
            out.append(None)
        else:
            out.extend(take_cards([text], used, _at(f"{path}[{j}]")))
    return tuple(out)


def _at(field: str) -> Callable[[int], str]:
    """The field name ``take_cards`` gives its refusals (one card at a time)."""
    return lambda _j: field


def _community(value: Any, used: set[Card]) -> Card | None:
    if value is None:
        return None
    texts = value if isinstance(value, list) else [value]
    if len(texts) != 1:
        raise InvalidRecordError("community", f"must be one card, got {value!r}")
    return take_cards(texts, used, lambda _j: "community")[0]


def _mucked(seats: Any, live: list[int]) -> frozenset[int]:
    if not isinstance(seats, list) or not all(_is_int(s) for s in seats):
        raise InvalidRecordError("mucked", "must be a list of seats")
    for s in seats:
        if s not in live or len(live) < 2:
            raise InvalidRecordError("mucked", f"seat {s} was not in a showdown")
    return frozenset(seats)
