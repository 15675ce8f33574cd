"""A PHH Seven Card Stud hand (``F7S``; ``P7S``, ``N7S``) as a ``stud`` hand record.

The inverse of :mod:`dealer_assist.interchange.phh_stud`, called by
:func:`~dealer_assist.interchange.phh_read.phh_to_record` (which settles the record and names
the PHH action a refusal came from). ``d dh pN CARDS`` deals three cards on third street (two
down, the door card), one on each later street; ``"??"`` is an unknown down card. The community
card of GAMES.md "Seven Card Stud" 5 is read from ``d db XX`` on seventh street (pokerkit's
form), or from one card dealt to every player still in on seventh street. ``pN pb`` is the
bring-in; ``pN cbr TO`` a completion (third street, to the first full bet over the bring-in),
bet or raise; ``pN cc`` a check or call; ``pN f`` a fold; ``pN sm`` a show or a muck.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from dealer_assist.engine.betting import BET, BRING_IN, CALL, CHECK, COMPLETE, FOLD, RAISE
from dealer_assist.errors import InvalidRecordError
from dealer_assist.games.stud import ANTE, CARDS_AFTER, CODE, SEVENTH, STREET_NAMES
from dealer_assist.interchange.phh_common import UNKNOWN_CARD, amount, money, numbers, whole
from dealer_assist.interchange.phh_stud import STUD_VARIANTS

STUD_BETTING = {code: betting for betting, code in STUD_VARIANTS.items()}
_SEVENTH = STREET_NAMES.index(SEVENTH)


def convert_stud(
    phh: Mapping[str, Any], unit: Decimal | None
) -> tuple[dict[str, Any], list[int], list[str]]:
    """The record of a PHH stud hand, the PHH action index of each record action, and the PHH
    action texts; amounts in ``unit`` as :func:`~dealer_assist.interchange.phh_read.phh_to_record`.

    Raises:
        InvalidRecordError: naming the PHH field: antes that differ between players (the record
            has one ``ante``), seats not in ascending order, a deal or action that is not stud.
    """
    betting = STUD_BETTING[phh["variant"]]
    stacks = numbers(phh, "starting_stacks", None, 1, unit)
    n = len(stacks)
    if n < 2:
        raise InvalidRecordError("starting_stacks", "at least 2 players")
    antes = numbers(phh, "antes", n, 0, unit)
    if len(set(antes)) != 1:
        raise InvalidRecordError("antes", f"every player antes the same (GAMES.md), got {antes}")
    seats = numbers(phh, "seats", n, 1) if "seats" in phh else list(range(1, n + 1))
    if seats != sorted(set(seats)):
        raise InvalidRecordError("seats", f"must be ascending from the dealer's left, got {seats}")
    record: dict[str, Any] = {"game": CODE, "betting": betting}
    record["seats"] = whole(phh.get("seat_count", max(seats)), "seat_count", 1)
    record[ANTE] = antes[0]
    record["bring_in"] = bring_in = money(phh.get("bring_in"), "bring_in", 1, unit)
    if betting == "fixed_limit":
        record["limits"] = [money(phh.get(k), k, 1, unit) for k in ("small_bet", "big_bet")]
    else:
        limits = phh.get("_limits", [None, phh.get("min_bet")])
        record["limits"] = [money(v, f"_limits[{i}]", 1, unit) for i, v in enumerate(limits)]
    for key, field in (("_chip", "chip"), ("_settings", "settings")):
        if key in phh:
            record[field] = phh[key]
    texts = phh.get("actions")
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise InvalidRecordError("actions", "must be a list of strings")
    hand = _Reader(stacks, antes, bring_in, unit)
    for k, text in enumerate(texts):
        hand.read(k, text)
    community = hand.community()
    record["players"] = [
        {"seat": seats[j], "stack": stacks[j], "cards": hand.cards[j]} for j in range(n)
    ]
    if community is not None:
        record["community"] = community
    record["actions"] = [a | {"seat": seats[a["seat"]]} for a in hand.actions]
    if hand.mucked:
        record["mucked"] = [seats[j] for j in hand.mucked]
    return record, hand.origin, [str(t) for t in texts]


class _Reader:
    """The deal and the betting as the PHH actions give them: enough of the chips to tell a
    check from a call, a completion from a raise (the rules are applied when it settles)."""

    def __init__(
        self, stacks: list[int], antes: list[int], bring_in: int, unit: Decimal | None
    ) -> None:
        n = len(stacks)
        self.cards: list[list[str]] = [[] for _ in range(n)]
        self.left = [max(0, s - a) for s, a in zip(stacks, antes, strict=True)]
        self.bets = [0] * n
        self.high = 0
        self.street = 0
        self.bring_in = bring_in
        self.unit = unit
        self.board: list[str] = []
        self.folded: set[int] = set()
        self.seventh: dict[int, str] = {}
        self.actions: list[dict[str, Any]] = []
        self.origin: list[int] = []
        self.mucked: list[int] = []

    def read(self, k: int, text: str) -> None:
        path = f"actions[{k}]"
        words = text.split("#", 1)[0].split()
        if not words:
            return  # a no-op or a commentary
        if words[0] == "d":
            self.deal(words, path, text)
            return
        j = _player(words[0], len(self.cards), path)
        op = words[1:]
        if op == ["f"]:
            kind, to = FOLD, None
            self.folded.add(j)
        elif op == ["cc"]:
            kind, to = (CHECK if self.high <= self.bets[j] else CALL), None
            self.put(j, self.high)
        elif op == ["pb"]:
            kind, to = BRING_IN, None
            self.put(j, self.bring_in)
        elif len(op) == 2 and op[0] == "cbr":
            to = money(amount(op[1], path, self.unit), path, 1, self.unit)
            if self.street == 0:
                kind = COMPLETE if self.high <= self.bring_in else RAISE
            else:
                kind = BET if self.high == 0 else RAISE
            self.put(j, to)
        elif op and op[0] == "sm":
            self.show(op[1:], j, path, text)
            return
        else:
            raise InvalidRecordError(path, f"{text!r}: not an action of stud (f, cc, pb, cbr, sm)")
        action: dict[str, Any] = {"street": STREET_NAMES[self.street], "seat": j, "action": kind}
        if to is not None:
            action["to"] = to
        self.actions.append(action)
        self.origin.append(k)

    def put(self, j: int, to: int) -> None:
        moved = max(0, min(to - self.bets[j], self.left[j]))
        self.left[j] -= moved
        self.bets[j] += moved
        self.high = max(self.high, to)

    def deal(self, words: list[str], path: str, text: str) -> None:
        if len(words) == 3 and words[1] == "db":
            if self.street != _SEVENTH - 1 or self.board:
                raise InvalidRecordError(path, f"{text!r}: stud has a board card only on seventh")
            self.board = _cards(words[2], 1, path)
            self.next_street(_SEVENTH)
            return
        if len(words) != 4 or words[1] != "dh":
            raise InvalidRecordError(path, f"{text!r}: not a dealing of stud")
        j = _player(words[2], len(self.cards), path)
        held = self.cards[j]
        cards = _cards(words[3], 1 if held else 3, path)
        street = len(held) + len(cards) - 3 + (1 if self.board else 0)
        if street > _SEVENTH:
            raise InvalidRecordError(path, f"{text!r}: no street is left to deal")
        if street < self.street:
            raise InvalidRecordError(path, f"{text!r}: a card of a street already dealt")
        if street == _SEVENTH:
            self.seventh[j] = cards[0]
        held += cards
        self.next_street(street)

    def next_street(self, street: int) -> None:
        if street > self.street:
            self.street = street
            self.bets = [0] * len(self.bets)
            self.high = 0

    def community(self) -> str | None:
        """The community card: the board card, or one card dealt to every player on seventh."""
        if self.board:
            return self.board[0]
        dealt = set(self.seventh.values())
        if len(self.seventh) < 2 or len(dealt) != 1:
            return None
        for j in self.seventh:
            self.cards[j].pop(CARDS_AFTER[SEVENTH] - 1)
        return dealt.pop()

    def show(self, args: list[str], j: int, path: str, text: str) -> None:
        """``sm`` mucks; ``sm CARDS`` shows (replacing unknown cards dealt); ``sm -`` shows the
        cards dealt. A hand shown only in part gives up the pot, as a muck. A hand shown before
        the last cards are dealt (an all-in: pokerkit's order) is shown again with them."""
        held = self.cards[j]
        if not args:
            if j not in self.mucked:
                self.mucked.append(j)
            return
        if args != ["-"]:
            shown = _cards(args[0], len(args[0]) // 2, path)
            if self.board and len(shown) == len(held) + 1 and shown[-1] == self.board[0]:
                shown = shown[:-1]
            if len(shown) != len(held) or any(
                h != UNKNOWN_CARD and h != s for h, s in zip(held, shown, strict=True)
            ):
                raise InvalidRecordError(path, f"{text!r}: shows other cards than dealt {held}")
            held[:] = shown
        if UNKNOWN_CARD in held and j not in self.mucked:
            self.mucked.append(j)


def _player(word: str, n: int, path: str) -> int:
    if len(word) < 2 or word[0] != "p" or not word[1:].isdigit() or not 1 <= int(word[1:]) <= n:
        raise InvalidRecordError(path, f"{word!r} is not a player p1..p{n}")
    return int(word[1:]) - 1


def _cards(word: str, count: int, path: str) -> list[str]:
    if len(word) != 2 * count or count < 1:
        raise InvalidRecordError(path, f"{word!r}: {count} cards expected")
    return [word[i : i + 2] for i in range(0, len(word), 2)]
