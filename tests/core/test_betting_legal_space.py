"""What the betting round offers the seat to act, for the poker console to draw without computing
any rule: a short stack's all-in is not a fixed-limit total, a raise not open says why, and the
pot and half-pot totals come with the range, inside it and on the chip."""

from __future__ import annotations

from dealer_assist.engine.betting import Limits, RoundState


def test_a_short_stacks_only_raise_at_no_limit_is_an_all_in_not_a_fixed_total() -> None:
    # blinds 1/2 in; seat 3 has 3 chips: its only raise is all-in to 3 (below a full raise to 4)
    r = RoundState(
        (1, 2, 3), {1: 99, 2: 98, 3: 3}, Limits("no_limit", 2), 3, committed={1: 1, 2: 2}
    )
    space = r.legal(3)
    assert space.amount is not None
    assert (space.amount.minimum, space.amount.maximum) == (3, 3)
    assert space.amount.fixed is False
    assert space.amount.pot is None and space.amount.half_pot is None  # nothing to choose


def test_a_fixed_limit_total_is_marked_fixed() -> None:
    r = RoundState(
        (1, 2, 3), {1: 99, 2: 98, 3: 100}, Limits("fixed_limit", 2), 3, committed={1: 1, 2: 2}
    )
    space = r.legal(3)
    assert space.amount is not None
    assert space.amount.minimum == space.amount.maximum == 4
    assert space.amount.fixed is True


def test_a_raise_not_reopened_by_a_short_all_in_says_why() -> None:
    # seat 1 bets 10, seat 2 goes all-in to 14 (less than a full raise), seat 3 calls 14:
    # seat 1 faces only the short all-in and may call or fold, not raise
    r = RoundState((1, 2, 3), {1: 100, 2: 14, 3: 100}, Limits("no_limit", 10), 1)
    r.act(1, "bet", 10)
    r.act(2, "raise", 14)
    r.act(3, "call")
    space = r.legal(1)
    assert r.actor == 1
    assert "raise" not in space.kinds and "call" in space.kinds
    assert space.closed == (("raise", "short_all_in"),)
    assert space.amount is None


def test_the_pot_and_half_pot_totals_are_inside_the_range_on_the_chip() -> None:
    # 30 in the middle, seat 1 bets 10: seat 2 calls 10 into 30 + 10 + 10 = 50 -> pot raise to 60
    r = RoundState((1, 2), {1: 200, 2: 200}, Limits("no_limit", 10, chip=5), 1, pot=30)
    r.act(1, "bet", 10)
    space = r.legal(2)
    assert space.amount is not None
    assert space.amount.pot == 60
    assert space.amount.half_pot == 35  # 10 + 25
    assert space.amount.allows(space.amount.pot) and space.amount.allows(space.amount.half_pot)
    # pot limit: the pot preset is the maximum
    p = RoundState((1, 2), {1: 200, 2: 200}, Limits("pot_limit", 10, chip=5), 1, pot=30)
    p.act(1, "bet", 10)
    pot = p.legal(2).amount
    assert pot is not None and pot.pot == pot.maximum == 60
    # a short stack: the pot preset is clamped to its all-in
    s = RoundState((1, 2), {1: 200, 2: 40}, Limits("no_limit", 10, chip=5), 1, pot=30)
    s.act(1, "bet", 10)
    short = s.legal(2).amount
    assert short is not None and short.pot == short.maximum == 40
