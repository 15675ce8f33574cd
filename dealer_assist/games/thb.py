"""Texas Hold'em Bonus (rules text 004_708a602f1ca21f42; GAMES.md "Texas Hold'em Bonus").

Six seats, one box each: Ante (mandatory), Bonus (optional, on the two hole cards alone), then
Flop (2x Ante, or fold), Turn (1x or check), River (1x or check). Cards one at a time from the
dealer's left, two rounds, the dealer last; a burn before flop, turn and river. No qualification;
the Ante pays only when the player wins with a flush or better, otherwise it pushes.
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
from dealer_assist.errors import InvalidRecordError
from dealer_assist.evaluator import Category, HandValue, evaluate
from dealer_assist.games.common import compare, english, lose, odds_box, push, win_even

# The box each street's bet fills, and its size in Antes (rules text 004).
_BET_BOX = {"preflop": ("flop", 2), "flop": ("turn", 1), "turn": ("river", 1)}
_ACES, _KINGS = 14, 13

# rules text 004, Bonus table on the two hole cards.
BONUS_TABLE: dict[str, Odds | None] = {
    "aa": (30, 1),
    "ak_suited": (25, 1),
    "aq_aj_suited": (20, 1),
    "ak_offsuit": (15, 1),
    "kk_qq_jj": (10, 1),
    "aq_aj_offsuit": (5, 1),
    "pair_2_to_10": (3, 1),
}


def bonus_line(hole: Sequence[Card]) -> str | None:
    """The Bonus pay-table line of two hole cards, or None when they do not pay (rules text 004)."""
    hi, lo = sorted((c.rank for c in hole), reverse=True)
    suited = hole[0].suit == hole[1].suit
    if hi == lo:
        if hi == _ACES:
            return "aa"
        return "kk_qq_jj" if hi >= 11 else "pair_2_to_10"
    if hi == _ACES and lo == _KINGS:
        return "ak_suited" if suited else "ak_offsuit"
    if hi == _ACES and lo in (11, 12):
        return "aq_aj_suited" if suited else "aq_aj_offsuit"
    return None


class ThbStrategy(PlayerStrategy):
    """A simplified THB strategy: see the flop with pairs, high cards, suited connectors and
    two cards of 8 or more; afterwards bet a hand a hole card makes, else check."""

    money_in_rates = MappingProxyType({"preflop": 0.85, "flop": 0.35, "turn": 0.35})

    def choice(self, street: str, hole: Sequence[Card], board: Sequence[Card]) -> Choice:
        """Bet / fold preflop, then bet / check."""
        hi, lo = sorted((c.rank for c in hole), reverse=True)
        if street == "preflop":
            playable = hi == lo or hi >= 11 or (hole[0].suit == hole[1].suit and hi - lo <= 2)
            return ("bet", None) if playable or lo >= 8 else ("fold", None)
        return ("bet", None) if uses_hole_card(hole, board) else ("check", None)


class TexasHoldemBonus(GameRules):
    """THB rules plug-in (rules text 004)."""

    code = "thb"
    title = "Texas Hold'em Bonus"
    max_seats = 6
    required_boxes = ("ante",)
    optional_boxes = ("bonus",)
    streets = (Street("preflop", 0), Street("flop", 3), Street("turn", 4))
    has_qualification = False

    box_rows = (("ante", "bonus"), ("flop", "turn", "river"))
    box_titles = MappingProxyType(
        {
            "ante": english("Ante"),
            "bonus": english("Bonus"),
            "flop": english("Flop"),
            "turn": english("Turn"),
            "river": english("River"),
        }
    )
    street_titles = MappingProxyType(
        {"preflop": english("Preflop"), "flop": english("Flop"), "turn": english("Turn")}
    )
    showdown_title = english("River")
    showdown_step = "river"  # the river card is turned after the turn's decisions
    step_titles = MappingProxyType(
        {
            "flop": english("Turn the flop"),
            "turn": english("Turn the turn card"),
            "river": english("Turn the river"),
        }
    )
    action_titles = MappingProxyType(
        {"bet": english("Bet"), "check": english("Check"), "fold": english("Fold")}
    )
    stake_actions = frozenset({"bet"})
    default_paytables = MappingProxyType({"bonus": BONUS_TABLE})
    strategy = ThbStrategy()

    def legal_actions(self, street: str, previous: Sequence[Action]) -> list[Action]:
        """Preflop bet (Flop box, 2x) | fold; flop bet (Turn box) | check; turn bet (River box) |
        check. Nothing after a fold; streets in order."""
        names = [s.name for s in self.streets]
        if street not in names or self.folded(previous):
            return []
        if [a.street for a in previous] != names[: names.index(street)]:
            return []
        other = "fold" if street == "preflop" else "check"
        return [Action(street, "bet"), Action(street, other)]

    def stake_of(self, action: Action, bets: Mapping[str, int]) -> tuple[str, int] | None:
        """A bet fills the street's box: preflop -> Flop 2x, flop -> Turn 1x, turn -> River 1x."""
        if action.action != "bet":
            return None
        box, times = _BET_BOX[action.street]
        return (box, times * bets["ante"])

    def initial_deal(self, seats: Sequence[int]) -> list[Position]:
        """Rules text 004: one card at a time from the dealer's left, two rounds, dealer last."""
        plan: list[Position] = []
        for n in (1, 2):
            plan += [Position("seat", n, seat) for seat in sorted(seats)]
            plan.append(Position("dealer", n))
        return plan

    def deal_before(self, street: str, seats: Sequence[int]) -> list[Position]:
        """Burn then the flop before the flop decisions; burn then the turn before the turn's."""
        if street == "flop":
            return [Position("burn", 1), *(Position("board", n) for n in (1, 2, 3))]
        if street == "turn":
            return [Position("burn", 2), Position("board", 4)]
        return []

    def deal_before_showdown(self, seats: Sequence[int]) -> list[Position]:
        """Burn then the river card."""
        return [Position("burn", 3), Position("board", 5)]

    def validate_record(self, record: HandRecord) -> None:
        """Board of 5 cards, or none when every seat folded before the flop; decisions complete."""
        all_folded = all(self.folded(p.actions) for p in record.players)
        if len(record.board) not in (0, 5) or (not record.board and not all_folded):
            need = "0 (everyone folded before the flop) or 5" if all_folded else "5"
            raise InvalidRecordError("board", f"needs {need} cards, got {len(record.board)}")
        for i, p in enumerate(record.players):
            if not self.folded(p.actions) and len(p.actions) < len(self.streets):
                raise InvalidRecordError(
                    f"players[{i}].actions", "incomplete: a decision for every street is needed"
                )

    def settle(self, record: HandRecord) -> Settlement:
        """Bonus first (even after a fold), then Ante, Flop, Turn, River against the dealer."""
        dealt = len(record.board) == 5
        dealer = evaluate(record.board + record.dealer) if dealt else None
        seats: list[SeatSettlement] = []
        for p in sorted(record.players, key=lambda p: -p.seat):
            hand = evaluate(record.board + p.hole) if dealt else None
            seats.append(
                self._settle_seat(
                    p.hole,
                    p.seat,
                    p.bets,
                    p.actions,
                    hand,
                    dealer,
                    record.paytables,
                    record.payout_unit,
                )
            )
        return Settlement(self.code, dealer, None, tuple(seats))

    def _settle_seat(
        self,
        hole: Sequence[Card],
        seat: int,
        bets: Mapping[str, int],
        actions: Sequence[Action],
        hand: HandValue | None,
        dealer: HandValue | None,
        tables: PayTables,
        unit: int,
    ) -> SeatSettlement:
        boxes: list[BoxResult] = []
        if bets.get("bonus"):
            line = bonus_line(hole)
            odds = tables.odds("bonus", line) if line else None
            boxes.append(odds_box("bonus", bets["bonus"], odds, unit, else_push=False))
        ante = bets["ante"]
        result: SeatResult
        if self.folded(actions) or hand is None or dealer is None:
            return SeatSettlement(seat, "fold", hand, (*boxes, lose("ante", ante)))
        result = compare(hand, dealer)
        extra = [self.stake_of(a, bets) for a in actions]
        stakes = [("ante", ante), *(s for s in extra if s)]
        for box, stake in stakes:
            if result == "tie":
                boxes.append(push(box, stake))
            elif result == "lose":
                boxes.append(lose(box, stake))
            elif box == "ante" and hand.category < Category.FLUSH:
                boxes.append(push(box, stake))
            else:
                boxes.append(win_even(box, stake))
        return SeatSettlement(seat, result, hand, tuple(boxes))


RULES = TexasHoldemBonus()
