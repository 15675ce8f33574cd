"""Ultimate Texas Hold'em (rules text 000_8110e7272a772c17; GAMES.md "Ultimate Texas Hold'em").

Boxes Ante, Blind (= Ante), Trips (optional), Play (3x/4x preflop, 2x on the flop, 1x on the
river). The dealer qualifies with a pair or better. Settlement per GAMES.md table 7 and the Trips
table 8.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from dealer_assist.cards import Card
from dealer_assist.engine.paytable import Odds, PayTables
from dealer_assist.engine.rules import (
    Action,
    BoxResult,
    GameRules,
    HandRecord,
    SeatResult,
    SeatSettlement,
    Settlement,
    Street,
)
from dealer_assist.engine.state import Position
from dealer_assist.engine.strategy import Choice, PlayerStrategy, uses_hole_card
from dealer_assist.errors import BetError, InvalidRecordError
from dealer_assist.evaluator import Category, HandValue, evaluate
from dealer_assist.games.common import compare, english, lose, odds_box, push, win_even

_PLAY_MULTIPLES = {"preflop": (4, 3), "flop": (2,), "river": (1,)}

# rules text 000, "Tabella pagamenti Blind": below a straight the Blind pushes.
BLIND_TABLE: dict[str, Odds | None] = {
    "royal_flush": (500, 1),
    "straight_flush": (50, 1),
    "four_of_a_kind": (10, 1),
    "full_house": (3, 1),
    "flush": (3, 2),
    "straight": (1, 1),
}
# rules text 000, "Tabella pagamenti Trips": below three of a kind the Trips box loses.
TRIPS_TABLE: dict[str, Odds | None] = {
    "royal_flush": (50, 1),
    "straight_flush": (40, 1),
    "four_of_a_kind": (30, 1),
    "full_house": (8, 1),
    "flush": (7, 1),
    "straight": (4, 1),
    "three_of_a_kind": (3, 1),
}


class UthStrategy(PlayerStrategy):
    """A simplified UTH basic strategy: raise 4x preflop with good hands, 2x on the flop with a
    hand a hole card makes, and on the river play a made hand or a high kicker, else fold."""

    money_in_rates = MappingProxyType({"preflop": 0.4, "flop": 0.35, "river": 0.8})

    def choice(self, street: str, hole: Sequence[Card], board: Sequence[Card]) -> Choice:
        """Play 4x / check preflop, play 2x / check on the flop, play 1x / fold on the river."""
        hi, lo = sorted((c.rank for c in hole), reverse=True)
        suited = hole[0].suit == hole[1].suit
        if street == "preflop":
            # Raise 4x with pairs 33+, any ace, good kings/queens/jacks.
            strong = (
                (hi == lo and hi >= 3)
                or hi == 14
                or (hi == 13 and (suited or lo >= 5))
                or (hi == 12 and (lo >= 8 or (suited and lo >= 6)))
                or (hi == 11 and (lo >= 10 or (suited and lo >= 8)))
            )
            return ("play", 4) if strong else ("check", None)
        if street == "flop":
            return ("play", 2) if uses_hole_card(hole, board) else ("check", None)
        # River: play a made hand using a hole card, or a high kicker against a weak board.
        if uses_hole_card(hole, board) or hi >= 13:
            return ("play", 1)
        return ("fold", None)


class UltimateTexasHoldem(GameRules):
    """UTH rules plug-in (rules text 000)."""

    code = "uth"
    title = "Ultimate Texas Hold'em"
    max_seats = 7
    required_boxes = ("ante", "blind")
    optional_boxes = ("trips",)
    streets = (Street("preflop", 0), Street("flop", 3), Street("river", 5))
    has_qualification = True

    box_rows = (("ante", "blind"), ("trips", "play"))
    # rules text 000: Ante and Blind are equal, so the dealer enters the Ante and the Blind follows.
    followed_boxes = MappingProxyType({"blind": "ante"})
    box_titles = MappingProxyType(
        {
            "ante": english("Ante"),
            "blind": english("Blind"),
            "trips": english("Trips"),
            "play": english("Play"),
        }
    )
    street_titles = MappingProxyType(
        {"preflop": english("Preflop"), "flop": english("Flop"), "river": english("River")}
    )
    showdown_title = english("River")
    # rules text 000: the last two cards together are the "River".
    step_titles = MappingProxyType(
        {"flop": english("Turn the flop"), "river": english("Turn the river")}
    )
    action_titles = MappingProxyType(
        {"play": english("Play %1x"), "check": english("Check"), "fold": english("Fold")}
    )
    stake_actions = frozenset({"play"})
    default_paytables = MappingProxyType({"blind": BLIND_TABLE, "trips": TRIPS_TABLE})
    # A config may make the Blind pay below a straight too.
    extra_paytable_lines = MappingProxyType(
        {"blind": ("three_of_a_kind", "two_pair", "pair", "high_card")}
    )
    strategy = UthStrategy()

    def _check_bet_rules(self, bets: Mapping[str, int]) -> None:
        # rules text 000: "puntate obbligatorie Ante e Blind, di pari importo".
        if bets["blind"] != bets["ante"]:
            raise BetError("blind", f"must equal the ante ({bets['ante']}), got {bets['blind']}")

    def legal_actions(self, street: str, previous: Sequence[Action]) -> list[Action]:
        """Preflop check | play 4x/3x; flop check | play 2x; river play 1x | fold. Nothing after a
        Play or a fold, and streets must be taken in order (rules text 000, PLAY)."""
        names = [s.name for s in self.streets]
        if street not in names or any(a.action in ("play", "fold") for a in previous):
            return []
        if [a.street for a in previous] != names[: names.index(street)]:
            return []
        plays = [Action(street, "play", m) for m in _PLAY_MULTIPLES[street]]
        last = Action(street, "fold") if street == "river" else Action(street, "check")
        return [*plays, last]

    def stake_of(self, action: Action, bets: Mapping[str, int]) -> tuple[str, int] | None:
        """A Play of ``multiple`` x Ante goes in the Play box."""
        if action.action == "play" and action.multiple:
            return ("play", action.multiple * bets["ante"])
        return None

    def initial_deal(self, seats: Sequence[int]) -> list[Position]:
        """GAMES.md UTH 2: board 1-5, then 2 cards per seat in ascending seat order, then the
        dealer's 2."""
        plan = [Position("board", n) for n in range(1, 6)]
        for seat in sorted(seats):
            plan += [Position("seat", 1, seat), Position("seat", 2, seat)]
        return [*plan, Position("dealer", 1), Position("dealer", 2)]

    def validate_record(self, record: HandRecord) -> None:
        """UTH needs 5 board cards and complete decisions for every seat."""
        if len(record.board) != 5:
            raise InvalidRecordError("board", f"UTH needs exactly 5 cards, got {len(record.board)}")
        for i, p in enumerate(record.players):
            done = any(a.action in ("play", "fold") for a in p.actions)
            if not done:
                raise InvalidRecordError(
                    f"players[{i}].actions", "incomplete: no play or fold by the river"
                )

    def settle(self, record: HandRecord) -> Settlement:
        """GAMES.md UTH 6-8: dealer qualifies with a pair or better; Ante/Play/Blind against the
        dealer, Trips on its own table; seats from the highest number down."""
        dealer = evaluate(record.board + record.dealer)
        qualifies = dealer.category >= Category.PAIR
        seats = [
            self._settle_seat(
                p.seat,
                p.bets,
                p.actions,
                evaluate(record.board + p.hole),
                dealer,
                qualifies,
                record.paytables,
                record.payout_unit,
            )
            for p in sorted(record.players, key=lambda p: -p.seat)
        ]
        return Settlement(self.code, dealer, qualifies, tuple(seats))

    def _settle_seat(
        self,
        seat: int,
        bets: Mapping[str, int],
        actions: Sequence[Action],
        hand: HandValue,
        dealer: HandValue,
        qualifies: bool,
        tables: PayTables,
        unit: int,
    ) -> SeatSettlement:
        ante, blind = bets["ante"], bets["blind"]
        play = next((ante * a.multiple for a in actions if a.action == "play" and a.multiple), 0)
        boxes: list[BoxResult] = []
        result: SeatResult
        if self.folded(actions):
            result = "fold"
            boxes += [lose("ante", ante), lose("blind", blind)]
        else:
            result = compare(hand, dealer)
            if result == "win":
                boxes.append(win_even("ante", ante) if qualifies else push("ante", ante))
                line = tables.odds("blind", hand.category.code)
                boxes.append(odds_box("blind", blind, line, unit, else_push=True))
                boxes.append(win_even("play", play))
            elif result == "lose":
                boxes.append(lose("ante", ante) if qualifies else push("ante", ante))
                boxes += [lose("blind", blind), lose("play", play)]
            else:
                boxes += [push("ante", ante), push("blind", blind), push("play", play)]
        trips = bets.get("trips", 0)
        if trips:
            line = tables.odds("trips", hand.category.code)
            boxes.append(odds_box("trips", trips, line, unit, else_push=False))
        return SeatSettlement(seat, result, hand, tuple(boxes))


RULES = UltimateTexasHoldem()
