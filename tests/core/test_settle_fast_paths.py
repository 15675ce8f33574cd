"""The settle path's shortcuts (speed) agree with the general code they stand in for:
the two-card hole read inline against ``take_cards``, remembered settings against
``HoldemSettings.from_json``, the whole-number rake against the Fraction formula, card texts and
the evaluator's per-card lookups against cards made elsewhere, a round's stacks copied as given
against any mapping, the turn order looked up against the seats counted round, the board
counted once against the whole hand evaluated, a round's action checked by its kind alone
against ``verify``, a pot hand made by one update against its fields. Seeded random inputs;
each side is computed, never written down."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer_assist.cards import FULL_DECK, Card, format_cards
from dealer_assist.engine.betting import Limits, RoundState, _rotations
from dealer_assist.engine.peer import BettingStructure
from dealer_assist.engine.peer_hand import PeerBetting
from dealer_assist.engine.pot_settle import NO_RAKE, PotHand, _rake, _texts
from dealer_assist.errors import CardError, ConfigError, IllegalActionError, InvalidRecordError
from dealer_assist.evaluator import board_parts, evaluate, evaluate_hole, evaluate_parts
from dealer_assist.games.holdem import HoldemSettings, forced_bets
from dealer_assist.games.holdem_players import random_record
from dealer_assist.games.holdem_plugin import POT_RULES
from dealer_assist.games.holdem_record import _settings
from dealer_assist.record import settle_record

_SPELLINGS = (str.lower, lambda t: t[0] + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[t[1]])


def _respelled(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The record with every known hole card in another spelling (the general card reader)."""
    out = copy.deepcopy(record)
    for p in out["players"]:
        if p.get("hole") and "??" not in p["hole"]:
            p["hole"] = [rng.choice(_SPELLINGS)(t) for t in p["hole"]]
    return out


@pytest.mark.parametrize("betting", ["no_limit", "pot_limit", "fixed_limit"])
def test_inline_hole_cards_settle_as_the_general_reader(betting: str) -> None:
    rng = random.Random(f"holes-{betting}")
    for _ in range(150):
        record = random_record(rng, betting=betting)  # type: ignore[arg-type]
        assert settle_record(record) == settle_record(_respelled(record, rng))


def test_inline_hole_cards_refuse_as_the_general_reader() -> None:
    rng = random.Random("hole-errors")
    for _ in range(150):
        record = random_record(rng, betting="no_limit")
        shown = [p for p in record["players"] if p.get("hole") and "??" not in p["hole"]]
        if len(shown) < 2:
            continue
        a, b = rng.sample(shown, 2)
        b["hole"] = [a["hole"][rng.randrange(2)], b["hole"][1]]  # a card dealt twice
        with pytest.raises(InvalidRecordError) as fast:
            settle_record(record)
        with pytest.raises(InvalidRecordError) as general:
            settle_record(_respelled(record, rng))
        assert (fast.value.field, fast.value.reason) == (general.value.field, general.value.reason)


_SETTING_VALUES = st.one_of(st.booleans(), st.integers(-2, 6), st.sampled_from(["moving", "x"]))
_SETTING_KEYS = st.sampled_from(
    ["no_cap_heads_up", "max_raises", "reopen_by_sum", "no_flop_no_drop", "button", "nope"]
)


@given(st.dictionaries(_SETTING_KEYS, _SETTING_VALUES, max_size=4))
def test_remembered_settings_are_from_json(raw: dict[str, Any]) -> None:
    for _ in range(2):  # the second read comes from the memory when the first was good
        try:
            expected: HoldemSettings | str = HoldemSettings.from_json(raw)
        except ConfigError as e:
            expected = str(e)
        try:
            got: HoldemSettings | str = _settings(raw)
        except ConfigError as e:
            got = str(e)
        assert got == expected


@given(
    total=st.integers(0, 10**7),
    percent=st.decimals(0, 100, places=3, allow_nan=False),
    chip=st.sampled_from([1, 5, 25]),
    cap=st.one_of(st.none(), st.integers(0, 10**5)),
)
def test_whole_number_rake_is_the_fraction_formula(
    total: int, percent: Any, chip: int, cap: int | None
) -> None:
    p = Fraction(str(percent))
    hand = PotHand(
        "holdem",
        (1, 2),
        {1: 1, 2: 1},
        1,
        {},
        frozenset(),
        {},
        {},
        (),
        chip=chip,
        rake_percent=p,
        rake_cap=cap,
        flop_seen=True,
    )
    expected = 0 if p <= 0 or total <= 0 else int(total * p / 100) // chip * chip
    if cap is not None:
        expected = min(expected, cap)
    assert _rake(hand, total) == expected


def test_card_lookups_agree_with_cards_made_elsewhere() -> None:
    rng = random.Random("cards")
    for _ in range(3000):
        cards = rng.sample(FULL_DECK, rng.choice((5, 6, 7)))
        fresh = [Card(c.rank, c.suit) for c in cards]  # equal cards, not the deck's objects
        value = evaluate(cards)
        assert evaluate_parts(fresh) == (value.category, value.value, value.best_five)
        assert _texts(value.best_five) == format_cards(value.best_five)
        assert _texts(fresh) == format_cards(fresh)


def test_round_stacks_copied_as_any_mapping() -> None:
    rng = random.Random("stacks")
    limits = Limits("no_limit", 20)
    for _ in range(500):
        order = tuple(sorted(rng.sample(range(1, 10), rng.randint(2, 9))))
        stacks = {s: rng.choice((0, 5, 100, 1000)) for s in order}
        shuffled = dict(rng.sample(list(stacks.items()), len(stacks)))
        extra = {**stacks, 10: 7}  # a seat outside the round is left out
        first = rng.randint(1, 10)
        states = [RoundState(order, s, limits, first) for s in (stacks, shuffled, extra)]
        for rs in states:
            assert list(rs.stacks.items()) == [(s, stacks[s]) for s in order]
            assert rs.actor == states[0].actor


def _suited_deal(rng: random.Random, board_size: int) -> tuple[list[Card], list[Card]]:
    """Two hole cards and a board, drawn now and then from two suits (flushes are common)."""
    deck = list(FULL_DECK)
    if rng.random() < 0.4:
        deck = [c for c in deck if c.suit in rng.sample("shdc", 2)]
    cards = rng.sample(deck, 2 + board_size)
    return cards[:2], cards[2:]


def test_board_counted_once_evaluates_as_the_whole_hand() -> None:
    rng = random.Random("board once")
    for _ in range(6000):
        hole, board = _suited_deal(rng, rng.choice((3, 4, 5, 5)))
        shared = board_parts(board)
        assert evaluate_hole(hole, board, shared) == evaluate_parts((*hole, *board))
        fresh = [Card(c.rank, c.suit) for c in hole]  # equal cards, not the deck's objects
        assert evaluate_hole(fresh, board, shared) == evaluate_parts((*fresh, *board))


@pytest.mark.parametrize("where", ["hole", "board", "across"])
def test_board_counted_once_refuses_as_the_whole_hand(where: str) -> None:
    rng = random.Random(where)
    for _ in range(200):
        hole, board = _suited_deal(rng, 5)
        if where == "hole":
            hole = [hole[0], hole[0]]
        elif where == "board":
            board = [*board[:4], board[0]]
        else:
            hole = [hole[0], board[rng.randrange(5)]]
        with pytest.raises(CardError) as general:
            evaluate_parts((*hole, *board))
        with pytest.raises(CardError) as shortcut:
            evaluate_hole(hole, board, board_parts(board))
        assert str(shortcut.value) == str(general.value)
    assert board_parts([*board[:4], board[0]]) is None


def _candidates(rnd: RoundState) -> list[tuple[int, str, int | None]]:
    """Every kind by every seat of the round (and one outside it), amounts around the edges."""
    tops = {rnd.committed[s] + rnd.stacks[s] for s in rnd.order}
    amounts = {a + d for a in (*tops, rnd.high, rnd.high + rnd.increment) for d in (-1, 0, 1)}
    out: list[tuple[int, str, int | None]] = []
    for seat in (*rnd.order, 99):
        for kind in ("fold", "check", "call", "bring_in", "x"):
            out.append((seat, kind, None))
        for kind in ("bet", "raise", "complete"):
            out += [(seat, kind, to) for to in (None, *sorted(amounts))]
    return out


def test_round_act_refuses_exactly_as_verify() -> None:
    """act skips verify for the seat to act and checks only the kind's rule: every action that
    verify refuses, act refuses with the same message and leaves the round unchanged; every
    other action it applies."""
    rng = random.Random("act")
    checked = 0
    for n in range(60):
        record = random_record(rng, betting=("no_limit", "pot_limit", "fixed_limit")[n % 3])
        hand = _replayed(record, stop=rng.randint(0, len(record["actions"])))
        rnd = hand.round
        if rnd is None:
            continue
        for seat, kind, to in _candidates(rnd):
            try:
                rnd.verify(seat, kind, to)
                why = None
            except IllegalActionError as e:
                why = str(e)
            trial = _copied(rnd)
            before = _copied(trial).__dict__
            try:
                trial.act(seat, kind, to)
                assert why is None, (seat, kind, to, why)
            except IllegalActionError as e:
                assert str(e) == why
                assert vars(trial) == before
            checked += 1
    assert checked > 4_000


def _copied(rnd: RoundState) -> RoundState:
    """A copy of ``rnd`` whose dicts and sets are its own (the rest is never changed)."""
    out = copy.copy(rnd)
    for name, value in vars(rnd).items():
        if isinstance(value, dict | set):
            setattr(out, name, copy.copy(value))
    return out


def _replayed(record: dict[str, Any], stop: int) -> PeerBetting:
    """The record's hand after its first ``stop`` actions (through the record reader's own
    set-up: the whole record is read, then replayed again up to ``stop``)."""
    stacks = {p["seat"]: p["stack"] for p in record["players"]}
    blinds = tuple(record["blinds"])
    by_big = record.get("ante_kind") == "big_blind"
    dead, live, big = forced_bets(
        list(stacks), record["button"], blinds, record["ante"], ante_by_big=by_big
    )
    settings = HoldemSettings.from_json(record.get("settings", {}))
    kind = record["betting"]
    limits = record.get("limits", [blinds[1], 2 * blinds[1]])
    bets = (limits[0], limits[1]) if kind == "fixed_limit" else (blinds[1], blinds[1])
    cap = settings.max_raises if kind == "fixed_limit" else None
    hand = PeerBetting(
        list(stacks),
        stacks,
        record["button"],
        POT_RULES.streets,
        BettingStructure(kind, bets[0], bets[1], cap, record["chip"]),
        dead=dead,
        live=live,
        big_blind=big,
        blind=blinds[1],
        uncapped_heads_up=settings.no_cap_heads_up,
        blinds_first=by_big,
        reopen_by_sum=settings.reopen_by_sum,
    )
    for a in record["actions"][:stop]:
        hand.act(a["street"], a["seat"], a["action"], a.get("to"))
    return hand


def test_next_street_in_place_is_a_new_round() -> None:
    """A round made the next street's in place (next_street) is, field for field, the round
    made new from its seats, stacks and folds, and acts alike."""
    rng = random.Random("next-street")
    checked = 0
    for n in range(60):
        record = random_record(rng, betting=("no_limit", "pot_limit", "fixed_limit")[n % 3])
        hand = _replayed(record, stop=rng.randint(0, len(record["actions"])))
        if hand.round is None:
            continue
        old = _copied(hand.round)
        limits = Limits(
            old.limits.kind,
            rng.choice((2, 20, 50)),
            old.limits.chip,
            rng.choice((None, 3)),
            rng.random() < 0.5,
        )
        first, pot = rng.randint(1, 10), rng.randrange(0, 5000)
        new = RoundState(
            old.order,
            dict(old.stacks),
            limits,
            first,
            folded=sorted(old.folded),
            pot=pot,
            big_bet=old.big_bet,
        )
        old.next_street(limits, first, pot)
        assert vars(old) == vars(new)
        while new.actor is not None:
            seat, kind, to = rng.choice([c for c in _candidates(new) if c[0] == new.actor])
            try:
                new.verify(seat, kind, to)
            except IllegalActionError:
                continue
            assert old.act(seat, kind, to) == new.act(seat, kind, to)
            assert vars(old) == vars(new)
        checked += 1
    assert checked > 20


def _turn_from(order: tuple[int, ...], seat: int, include: bool) -> tuple[int, ...]:
    """The seats of ``order`` in turn from the first at (or after, not ``include``) ``seat``,
    wrapping: counted round the table, seat by seat."""
    n = len(order)
    for step in range(n):
        s = order[step]
        if s > seat or (include and s == seat):
            return order[step:] + order[:step]
    return order


def test_turn_order_looked_up_is_the_order_counted_round() -> None:
    rng = random.Random("turns")
    for _ in range(2000):
        order = tuple(sorted(rng.sample(range(1, 11), rng.randint(1, 10))))
        turns = _rotations(order)
        for seat in range(-1, 13):
            assert turns.get(seat, order) == _turn_from(order, seat, True), (order, seat)
            assert turns.get(seat + 1, order) == _turn_from(order, seat, False), (order, seat)


def test_pot_hand_is_made_field_for_field() -> None:
    """PotHand's own __init__ (one update of its dict) takes every field, in order, with the
    field's default, sets each, and the hand stays frozen."""
    fields = dataclasses.fields(PotHand)
    params = list(inspect.signature(PotHand).parameters.values())
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default and type(p.default) is type(f.default), f.name
        elif f.default_factory is not dataclasses.MISSING:
            assert p.default is None, f.name  # made per hand, as the factory would
        else:
            assert p.default is inspect.Parameter.empty, f.name
    values = {f.name: object() for f in fields}
    hand = PotHand(**values)  # type: ignore[arg-type]
    assert {f.name: getattr(hand, f.name) for f in fields} == values
    assert vars(hand).keys() == values.keys()
    plain = PotHand("holdem", (1, 2), {}, 1, {}, frozenset(), {}, {}, ())
    assert (
        plain.extra == {}
        and plain.extra is not PotHand("x", (), {}, 1, {}, frozenset(), {}, {}, ()).extra
    )
    assert plain.rake_percent is NO_RAKE and not plain.rake_percent
    assert dataclasses.replace(plain, chip=5) == PotHand(
        "holdem", (1, 2), {}, 1, {}, frozenset(), {}, {}, (), chip=5
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        plain.chip = 2  # type: ignore[misc]
