"""What the core tells the banked console, so the console works out no rule: the step after a
street's decisions (the big button shown while seats still decide) and the table limit a
seat's bets break, by code and limit."""

from __future__ import annotations

import pytest

from dealer_assist.cards import parse_cards
from dealer_assist.config import load_table_config
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.rules import Limits
from dealer_assist.errors import BetError
from dealer_assist.games import get_game
from ui.console.bets import BetBook, BetIssue

CARDS = parse_cards(
    ["Ah", "Kd", "7c", "7s", "2h", "As", "Ac", "3c", "9d", "Qs", "Jd", "5c", "6c", "8h", "8d"]
)


def hand_of(game: str) -> BankedHand:
    return BankedHand(get_game(game), load_table_config(game=game), "t-1")


def dealt(game: str, bets: dict[str, int]) -> BankedHand:
    hand = hand_of(game)
    hand.place_bets(1, bets)
    hand.place_bets(2, bets)
    hand.close_bets()
    while hand.pending_deal:  # the deal asks card by card: only as many as it plans now
        i = len(hand.cards)
        hand.place_card(CARDS[i], source="test", deck_id="d1", index=i + 1)
    return hand


def decide_all(hand: BankedHand) -> None:
    """Every seat to act checks where it may, else takes its first legal decision."""
    for seat in list(hand.seats_to_act):
        legal = hand.legal_actions(seat)
        hand.act(seat, next((a for a in legal if a.action == "check"), legal[0]))


def coming_steps(game: str, bets: dict[str, int]) -> list[str]:
    """The view's step after each street's decisions, read while the seats still decide."""
    hand, seen = dealt(game, bets), []
    while True:
        view = hand.view("dealer")
        assert view.next_step is None and view.to_act  # the button is shown, not yet enabled
        seen.append(view.coming_step)
        decide_all(hand)
        if hand.view("dealer").next_step in (None, "dealer") or hand.street == "turn":
            return seen
        hand.advance()
        while hand.pending_deal:
            i = len(hand.cards)
            hand.place_card(CARDS[i], source="test", deck_id="d1", index=i + 1)


def test_uth_the_button_while_seats_decide_names_the_next_street() -> None:
    assert coming_steps("uth", {"ante": 1000, "blind": 1000}) == ["flop", "river", "dealer"]


def test_thb_the_river_after_the_turn_is_the_showdown_step() -> None:
    assert coming_steps("thb", {"ante": 1000}) == ["flop", "turn", "river"]


def test_limits_name_the_limit_broken() -> None:
    limits = Limits(500, 10_000)
    assert limits.broken(499) == ("below_min", 500)
    assert limits.broken(10_001) == ("above_max", 10_000)
    assert limits.broken(500) is None and limits.broken(10_000) is None


@pytest.mark.parametrize(
    ("bets", "code", "box", "limit"),
    [
        ({"trips": 500}, "missing", "ante", 500),  # the mandatory box first, in the game's order
        ({"ante": 100, "blind": 100}, "below_min", "ante", 500),
        ({"ante": 1000, "blind": 1000, "trips": 10**9}, "above_max", "trips", None),
        ({"ante": 1000, "blind": 500}, "", "blind", 0),  # a rule of the game, no limit
    ],
)
def test_the_core_names_the_limit_and_the_console_only_reads_it(
    bets: dict[str, int], code: str, box: str, limit: int | None
) -> None:
    config = load_table_config(game="uth")
    with pytest.raises(BetError) as err:
        get_game("uth").validate_bets(bets, config.limits)
    if limit is None:
        limit = config.limits[box].maximum
    assert (err.value.code, err.value.box, err.value.limit) == (code, box, limit)
    book = BetBook(config)
    book.drafts[1] = {b: a for b, a in bets.items() if b not in book.follows}
    issue = book.issue(1)
    if code:
        assert issue == BetIssue(code, box, limit)
    else:  # the console fills the Blind in: the game's own rule never comes up from it
        assert issue is None
