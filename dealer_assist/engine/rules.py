"""What a casino-banked game plug-in provides, and the hand/settlement model they share.

A game is a :class:`GameRules` object: its boxes, its streets and their legal decisions, its deal
plan (which card the device deals goes where), bet validation and settlement. The table session,
the journal, the misdeal detector and the drivers know only this interface, so a new game is a new
module in :mod:`dealer_assist.games` plus its config table. The banked engine
(:mod:`dealer_assist.engine.banked`) drives this interface; the games implement it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Literal, Protocol

from dealer_assist.cards import Card, format_cards
from dealer_assist.engine.paytable import PayTable, PayTables
from dealer_assist.engine.state import Position
from dealer_assist.engine.strategy import PlayerStrategy
from dealer_assist.errors import BetError, IllegalActionError
from dealer_assist.evaluator import HandValue

Outcome = Literal["win", "lose", "push"]
SeatResult = Literal["win", "lose", "tie", "fold"]


@dataclass(frozen=True)
class Action:
    """One decision of a seat: ``street`` name, ``action`` (check/play/fold/bet), ``multiple``
    of the Ante for a UTH Play (3 or 4 preflop, 2 on the flop, 1 on the river)."""

    street: str
    action: str
    multiple: int | None = None

    def to_json(self) -> dict[str, Any]:
        """HAND_RECORD.md form, e.g. ``{"street": "preflop", "action": "play", "multiple": 4}``."""
        out: dict[str, Any] = {"street": self.street, "action": self.action}
        if self.multiple is not None:
            out["multiple"] = self.multiple
        return out

    def label(self) -> str:
        """Short text for screens and logs: ``play 4x``, ``check``, ``fold``."""
        return f"{self.action} {self.multiple}x" if self.multiple else self.action


@dataclass(frozen=True)
class PlayerHand:
    """A seat's part of a hand record: hole cards, initial bets (minor units), decisions."""

    seat: int
    hole: tuple[Card, ...]
    bets: Mapping[str, int]
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class HandRecord:
    """A complete hand as HAND_RECORD.md describes it (validated)."""

    game: str
    seats: int | None
    board: tuple[Card, ...]
    dealer: tuple[Card, ...]
    players: tuple[PlayerHand, ...]
    paytables: PayTables
    payout_unit: int = 1

    def to_json(self) -> dict[str, Any]:
        """The HAND_RECORD.md JSON object of this hand (pay tables included in full)."""
        out: dict[str, Any] = {"game": self.game}
        if self.seats is not None:
            out["seats"] = self.seats
        out["board"] = format_cards(self.board)
        out["dealer"] = format_cards(self.dealer)
        out["players"] = [
            {
                "seat": p.seat,
                "hole": format_cards(p.hole),
                "bets": dict(p.bets),
                "actions": [a.to_json() for a in p.actions],
            }
            for p in self.players
        ]
        out["paytables"] = self.paytables.to_json()
        return out


@dataclass(frozen=True)
class BoxResult:
    """One box settled: ``stake`` and ``net`` in minor units (net 0 on a push, -stake on a loss)."""

    box: str
    stake: int
    outcome: Outcome
    net: int


@dataclass(frozen=True)
class SeatSettlement:
    """A seat's result against the dealer, its hand (None when no board was dealt) and boxes in
    the order the dealer settles them."""

    seat: int
    result: SeatResult
    hand: HandValue | None
    bets: tuple[BoxResult, ...]

    @property
    def net(self) -> int:
        """Sum of the boxes' net, minor units."""
        return sum(b.net for b in self.bets)

    @property
    def staked(self) -> int:
        """Sum of the boxes' stakes, minor units."""
        return sum(b.stake for b in self.bets)


@dataclass(frozen=True)
class Settlement:
    """A settled hand: the dealer's hand (and qualification where the game has one), the seats in
    settlement order (dealer's right to left: highest seat first)."""

    game: str
    dealer_hand: HandValue | None
    qualifies: bool | None
    seats: tuple[SeatSettlement, ...]
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def settlement_order(self) -> list[int]:
        """Seat numbers in the order the dealer settles them."""
        return [s.seat for s in self.seats]

    @property
    def to_pay(self) -> int:
        """What the dealer pays out over the whole hand: the winnings of every box that wins
        (its stake stays with the player), minor units, >= 0."""
        return sum(b.net for s in self.seats for b in s.bets if b.net > 0)

    @property
    def to_collect(self) -> int:
        """What the dealer collects over the whole hand: every box lost, minor units, >= 0."""
        return -sum(b.net for s in self.seats for b in s.bets if b.net < 0)

    def to_json(self) -> dict[str, Any]:
        """HAND_RECORD.md settlement JSON."""
        dealer: dict[str, Any] = {"hand": hand_json(self.dealer_hand)}
        if self.qualifies is not None:
            dealer["qualifies"] = self.qualifies
        return {
            "game": self.game,
            "dealer": dealer,
            "settlement_order": self.settlement_order,
            "seats": [
                {
                    "seat": s.seat,
                    "result": s.result,
                    "hand": hand_json(s.hand),
                    "bets": [
                        {"box": b.box, "stake": b.stake, "outcome": b.outcome, "net": b.net}
                        for b in s.bets
                    ],
                    "net": s.net,
                }
                for s in self.seats
            ],
        }


def hand_json(hand: HandValue | None) -> dict[str, Any] | None:
    """``{"category": "pair", "best_five": [...]}`` or None."""
    if hand is None:
        return None
    return {"category": hand.category.code, "best_five": format_cards(hand.best_five)}


@dataclass(frozen=True)
class Limits:
    """Table limits in minor units for one box: ``minimum`` .. ``maximum`` inclusive."""

    minimum: int
    maximum: int

    def broken(self, amount: int) -> tuple[str, int] | None:
        """The limit a stake of ``amount`` (minor units, > 0) breaks, as ``(code, limit)``
        (``below_min``/``above_max``, the limit in minor units), or None within the limits."""
        if amount < self.minimum:
            return "below_min", self.minimum
        if amount > self.maximum:
            return "above_max", self.maximum
        return None


class BankedTable(Protocol):
    """What a banked hand needs of its table (a :class:`~dealer_assist.config.TableConfig`)."""

    @property
    def game(self) -> str:
        """The game code."""
        ...

    @property
    def seats(self) -> int:
        """Seats at the table, 1..seats."""
        ...

    @property
    def limits(self) -> Mapping[str, Limits]:
        """Box -> its table limits (minor units)."""
        ...

    @property
    def paytables(self) -> PayTables:
        """The table's pay tables."""
        ...

    @property
    def payout_unit(self) -> int:
        """Payouts are rounded down to this many minor units."""
        ...


@dataclass(frozen=True)
class Street:
    """A decision round: its ``name``, the cards the device deals just before it (built per hand
    by :meth:`GameRules.deal_before`) and how many board cards are face up during it."""

    name: str
    board_visible: int


class GameRules(ABC):
    """A game plug-in. Subclasses are stateless; one instance serves every table.

    Besides the rules, a game says everything the console and the simulations need to know of
    it, so that no code outside :mod:`dealer_assist.games` names a game, a box or a street
    (``tests/core/test_game_knowledge.py``). Texts are English, marked with :func:`english`; the
    console translates them.

    Attributes:
        box_rows: every box of a seat, row by row, as the console draws them on the felt.
        followed_boxes: a box the dealer never enters -> the box it always equals (UTH: the
            Blind is the Ante); the console fills it in.
        box_titles: box -> its title (``Ante``).
        street_titles: street -> its title, the phase banner during its decisions.
        showdown_title: the phase banner after the last street, the dealer's cards still down.
        showdown_step: the dealer's step that deals :meth:`deal_before_showdown` (its big
            button), None when the game deals nothing then.
        step_titles: the dealer's dealing steps (the streets after the first, ``showdown_step``)
            -> the big button's text (``Turn the flop``).
        action_titles: decision kind -> its button text; ``%1`` stands for the multiple.
        stake_actions: decision kinds that put a new stake on the table (a Play, a bet).
        default_paytables: box -> its default pay table (GAMES.md; a config overrides lines).
        extra_paytable_lines: box -> lines a config or a record may add to its default table.
        strategy: how the seeded simulated players decide (:mod:`dealer_assist.players`).
    """

    code: str  # machine name, e.g. "uth"
    title: str  # human name
    max_seats: int
    required_boxes: tuple[str, ...]  # placed before the deal, mandatory
    optional_boxes: tuple[str, ...]  # placed before the deal, optional side bets
    streets: tuple[Street, ...]
    has_qualification: bool
    # Cards the board shows after the last decision street and before the dealer reveals.
    showdown_board_visible: int = 5

    # -- what the console and the simulations know of the game (see the class docstring) --------
    box_rows: tuple[tuple[str, ...], ...]
    followed_boxes: Mapping[str, str] = MappingProxyType({})
    box_titles: Mapping[str, str]
    street_titles: Mapping[str, str]
    showdown_title: str
    showdown_step: str | None = None
    step_titles: Mapping[str, str]
    action_titles: Mapping[str, str]
    stake_actions: frozenset[str]
    default_paytables: Mapping[str, PayTable]
    extra_paytable_lines: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    strategy: PlayerStrategy

    @cached_property
    def most_choices(self) -> int:
        """The most decisions a seat chooses among at once (buttons the console makes room for),
        over every street reachable by legal decisions."""

        def most(previous: list[Action], index: int) -> int:
            if index >= len(self.streets):
                return 0
            legal = self.legal_actions(self.streets[index].name, previous)
            deeper = (most([*previous, a], index + 1) for a in legal)
            return max(len(legal), *deeper, 0)

        return most([], 0)

    # -- bets ---------------------------------------------------------------------------------
    def validate_bets(
        self, bets: Mapping[str, int], limits: Mapping[str, Limits]
    ) -> dict[str, int]:
        """Check a seat's initial bets against the game and the table limits.

        Args:
            bets: box name -> stake (minor units); zero or missing optional boxes mean "not placed".
            limits: box name -> Limits; a box without limits is only checked to be positive.

        Returns:
            The bets as placed (zero optional boxes dropped).

        Raises:
            BetError: unknown box, non-integer, negative or (a mandatory box) zero amount, in
                the order of ``bets``; then, box by box in the game's order (entered boxes
                before those that follow them), a missing mandatory box or an amount outside
                the limits (these with ``code`` and ``limit``); then a game-specific rule (UTH:
                Blind must equal Ante). The message starts with the box name.
        """
        known = self.required_boxes + self.optional_boxes
        placed: dict[str, int] = {}
        for box, amount in bets.items():
            if box not in known:
                raise BetError(box, f"not a box of {self.title} (boxes: {', '.join(known)})")
            if not isinstance(amount, int) or isinstance(amount, bool):
                raise BetError(box, f"amount must be an integer of minor units, got {amount!r}")
            if amount < 0:
                raise BetError(box, f"amount must not be negative, got {amount}")
            if amount == 0 and box in self.required_boxes:
                lim = limits.get(box)
                raise BetError(
                    box,
                    "a mandatory bet must be positive",
                    code="missing",
                    limit=lim.minimum if lim is not None else 0,
                )
            if amount > 0:
                placed[box] = amount
        # then box by box in the game's order, the boxes the dealer enters before those that
        # follow them: the first refusal is the one the dealer sees on the box they entered
        entered = [b for b in known if b not in self.followed_boxes]
        for box in entered + [b for b in known if b in self.followed_boxes]:
            lim = limits.get(box)
            if box not in placed:
                if box in self.required_boxes:
                    raise BetError(
                        box,
                        "mandatory bet missing",
                        code="missing",
                        limit=lim.minimum if lim is not None else 0,
                    )
                continue
            amount = placed[box]
            broken = lim.broken(amount) if lim is not None else None
            if lim is not None and broken is not None:
                code, limit = broken
                raise BetError(
                    box,
                    f"{amount} is outside the table limits {lim.minimum}..{lim.maximum}",
                    code=code,
                    limit=limit,
                )
        self._check_bet_rules(placed)
        return placed

    def _check_bet_rules(self, bets: Mapping[str, int]) -> None:
        """Game-specific checks on already range-checked bets; raise BetError."""
        return None

    # -- decisions ------------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, street: str, previous: Sequence[Action]) -> list[Action]:
        """Decisions a seat may take on ``street`` after its ``previous`` actions; empty when the
        seat has nothing to decide (folded, already played, or the street is not one of the
        game's)."""

    def check_action(self, street: str, previous: Sequence[Action], action: Action) -> None:
        """Raise IllegalActionError unless ``action`` is legal on ``street`` after ``previous``."""
        legal = self.legal_actions(street, previous)
        if action not in legal:
            options = ", ".join(a.label() for a in legal) or "nothing"
            raise IllegalActionError(
                f"{action.label()} is not legal on the {street} (legal: {options})"
            )

    @staticmethod
    def folded(actions: Sequence[Action]) -> bool:
        """True when the seat's decisions include a fold."""
        return any(a.action == "fold" for a in actions)

    def stake_of(self, action: Action, bets: Mapping[str, int]) -> tuple[str, int] | None:
        """The box and stake an action adds (e.g. UTH play 4x -> ("play", 4*ante)), or None."""
        return None

    # -- deal plan ------------------------------------------------------------------------------
    @abstractmethod
    def initial_deal(self, seats: Sequence[int]) -> list[Position]:
        """Positions of the cards dealt after "rien ne va plus", in the order the device deals
        them, for the seats in the hand (ascending)."""

    def deal_before(self, street: str, seats: Sequence[int]) -> list[Position]:
        """Positions dealt just before the decisions of ``street`` (none by default)."""
        return []

    def deal_before_showdown(self, seats: Sequence[int]) -> list[Position]:
        """Positions dealt after the last decision street and before the reveal."""
        return []

    # -- settlement -----------------------------------------------------------------------------
    @abstractmethod
    def settle(self, record: HandRecord) -> Settlement:
        """Settle a validated hand record; seats in settlement order (highest seat first)."""

    @abstractmethod
    def validate_record(self, record: HandRecord) -> None:
        """Game-specific checks of a parsed record; raise InvalidRecordError naming the field."""
