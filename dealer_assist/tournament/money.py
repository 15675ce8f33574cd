"""Entries and money: registration, rebuys, the add-on, Double Chance halves, the EUR 250 cap.

Every purchase is an immutable :class:`Purchase` record (``to_json``/``from_json``) that the
director journals; the :class:`Ledger` is the fold of those records (``Ledger.fold``). The
functions :func:`register`, :func:`rebuy`, :func:`addon` and :func:`second_half` check the rules
of the moment and return the record to journal; they change nothing (a refusal is a
:class:`PurchaseRefused` naming the rule or the limit). ``ledger.apply(record)`` then gives the
ledger after it.

Rules (rules text 002; GAMES.md "Tournaments"):

- Entry: the entry fee for the starting stack (with Double Chance: its first half).
- Rebuy: only a player whose chips are below the starting stack (with Double Chance, the half
  not yet released counts as theirs), the entry fee for the starting stack again, at most the
  announced number of times, while the level is at most ``rebuy.until_level``; between hands.
- Add-on: at most one, for its fee and chips, while the level is in its window; between hands.
- Double Chance: the second half at the announced level, or at once when the first half is lost,
  whichever comes first (fee 0). A player is out only when both halves are gone.
- What a player pays for one tournament in all (entry + rebuys + add-on) never passes
  EUR 250.00: the purchase that would pass it is refused, naming the limit.

During a break the level is the one the break follows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from dealer_assist.tournament.errors import PurchaseRefused
from dealer_assist.tournament.structure import PLAYER_CAP_CENTS, TournamentStructure, euros

KINDS = ("entry", "rebuy", "addon", "second_half")


@dataclass(frozen=True)
class Purchase:
    """One money or chip record of a player (journaled by the director, in order).

    Attributes:
        kind: ``entry`` | ``rebuy`` | ``addon`` | ``second_half`` (Double Chance, 0 cents).
        player: the player's name or id as registered.
        amount_cents: what was paid (cents).
        chips: the chips it gives.
        level: the level in force when it was bought.
        authorised_by: who authorised it (the director's or cashier's name; ``clock`` for a
            second half released by the rules).
    """

    kind: str
    player: str
    amount_cents: int
    chips: int
    level: int
    authorised_by: str

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "kind": self.kind,
            "player": self.player,
            "amount_cents": self.amount_cents,
            "chips": self.chips,
            "level": self.level,
            "authorised_by": self.authorised_by,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Purchase:
        """What ``to_json`` wrote.

        Raises:
            PurchaseRefused: a missing or mistyped field, or an unknown kind (named).
        """
        kind = data.get("kind")
        player = data.get("player")
        if kind not in KINDS or not isinstance(player, str) or not player:
            raise PurchaseRefused(str(player), str(kind), f"not a purchase record: {dict(data)!r}")
        values: list[int] = []
        for key in ("amount_cents", "chips", "level"):
            v = data.get(key)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise PurchaseRefused(player, kind, f"{key}: a whole number expected, got {v!r}")
            values.append(v)
        by = data.get("authorised_by")
        if not isinstance(by, str) or not by.strip():
            raise PurchaseRefused(player, kind, "authorised_by: who authorised it is missing")
        return cls(kind, player, values[0], values[1], values[2], by)


@dataclass(frozen=True)
class Account:
    """One player's money so far: what they paid, their rebuys, add-on, second half."""

    player: str
    paid_cents: int = 0
    chips_bought: int = 0
    rebuys: int = 0
    addon: bool = False
    second_half_released: bool = False


@dataclass(frozen=True)
class Ledger:
    """The fold of the purchase records: accounts by player in registration order."""

    accounts: Mapping[str, Account]
    purchases: tuple[Purchase, ...] = ()

    @classmethod
    def empty(cls) -> Ledger:
        """No one registered."""
        return cls({}, ())

    @classmethod
    def fold(cls, structure: TournamentStructure, records: Iterable[Purchase]) -> Ledger:
        """The ledger after ``records`` in order (a restart). Raises PurchaseRefused for a record
        that breaks a rule that does not depend on the moment (twice registered, one rebuy too
        many, a second add-on, past the cap)."""
        ledger = cls.empty()
        for p in records:
            ledger = ledger.apply(p, structure)
        return ledger

    def apply(self, p: Purchase, structure: TournamentStructure | None = None) -> Ledger:
        """The ledger after record ``p``; with ``structure``, its counts and the cap rechecked."""
        acc = self.accounts.get(p.player)
        if (acc is None) != (p.kind == "entry"):
            reason = "not registered" if acc is None else "already registered"
            raise PurchaseRefused(p.player, p.kind, reason)
        acc = acc or Account(p.player)
        if structure is not None:
            _check_counts(structure, acc, p)
        new = Account(
            p.player,
            acc.paid_cents + p.amount_cents,
            acc.chips_bought + p.chips,
            acc.rebuys + (p.kind == "rebuy"),
            acc.addon or p.kind == "addon",
            acc.second_half_released or p.kind == "second_half",
        )
        return Ledger({**self.accounts, p.player: new}, (*self.purchases, p))

    def without(self, p: Purchase) -> Ledger:
        """The ledger without purchase ``p`` (its last record equal to it: a rebuy or add-on
        the director took back, its fee refunded and its chips off). Raises PurchaseRefused
        when there is no such purchase, or for an entry."""
        if p.kind == "entry" or p not in self.purchases:
            raise PurchaseRefused(p.player, p.kind, "no such purchase to take back")
        at = len(self.purchases) - 1 - self.purchases[::-1].index(p)
        return Ledger.fold_unchecked((*self.purchases[:at], *self.purchases[at + 1 :]))

    @classmethod
    def fold_unchecked(cls, records: Iterable[Purchase]) -> Ledger:
        """The ledger after ``records`` in order, their counts not checked again (they were
        when each was bought)."""
        ledger = cls.empty()
        for p in records:
            ledger = ledger.apply(p)
        return ledger

    # -- questions ----------------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """Registered players in registration order."""
        return tuple(self.accounts)

    def account(self, player: str) -> Account:
        """``player``'s account. Raises PurchaseRefused if not registered."""
        acc = self.accounts.get(player)
        if acc is None:
            raise PurchaseRefused(player, "entry", "not registered")
        return acc

    @property
    def fees_cents(self) -> int:
        """All fees paid (entries, rebuys, add-ons): the prize pool before any guarantee."""
        return sum(a.paid_cents for a in self.accounts.values())

    @property
    def chips_issued(self) -> int:
        """Every chip given out (starting stacks or halves, rebuys, add-ons, second halves):
        what the stacks in play must add up to (chip conservation)."""
        return sum(a.chips_bought for a in self.accounts.values())

    def count(self, kind: str) -> int:
        """How many records of ``kind`` (``entry``, ``rebuy``...)."""
        return sum(p.kind == kind for p in self.purchases)

    def half_pending(self, structure: TournamentStructure, player: str) -> int:
        """Chips of ``player``'s Double Chance second half not yet released (0 without)."""
        if not structure.double_chance or self.account(player).second_half_released:
            return 0
        return structure.starting_stack // 2


def _check_counts(s: TournamentStructure, acc: Account, p: Purchase) -> None:
    if p.kind == "rebuy" and (s.rebuy is None or acc.rebuys >= s.rebuy.max_count):
        limit = s.rebuy.max_count if s.rebuy else 0
        raise PurchaseRefused(p.player, p.kind, f"at most {limit} rebuys (announced)")
    if p.kind == "addon" and (s.addon is None or acc.addon):
        raise PurchaseRefused(p.player, p.kind, "at most one add-on (rules text 002)")
    if p.kind == "second_half" and (not s.double_chance or acc.second_half_released):
        raise PurchaseRefused(p.player, p.kind, "no second half to release")
    _check_cap(acc, p.kind, p.amount_cents)


def _check_cap(acc: Account, kind: str, amount: int) -> None:
    if acc.paid_cents + amount > PLAYER_CAP_CENTS:
        raise PurchaseRefused(
            acc.player,
            kind,
            f"{euros(amount)} would bring what {acc.player} paid for this tournament from "
            f"{euros(acc.paid_cents)} to {euros(acc.paid_cents + amount)}, above the "
            f"{euros(PLAYER_CAP_CENTS)} limit a player may pay for one tournament (entry + "
            "rebuys + add-on, rules text 002)",
        )


def _by(player: str, kind: str, authorised_by: str) -> str:
    if not authorised_by.strip():
        raise PurchaseRefused(player, kind, "who authorises it must be named")
    return authorised_by.strip()


def register(
    structure: TournamentStructure,
    ledger: Ledger,
    player: str,
    *,
    authorised_by: str,
    level: int = 1,
) -> Purchase:
    """The entry of ``player``: the entry fee for the starting stack (Double Chance: its first
    half). Raises PurchaseRefused: already registered, an empty name, or no one authorising."""
    if not player.strip():
        raise PurchaseRefused(player, "entry", "a player needs a name")
    if player in ledger.accounts:
        raise PurchaseRefused(player, "entry", "already registered")
    chips = structure.starting_stack // (2 if structure.double_chance else 1)
    return Purchase(
        "entry",
        player,
        structure.entry_fee_cents,
        chips,
        level,
        _by(player, "entry", authorised_by),
    )


def rebuy(
    structure: TournamentStructure,
    ledger: Ledger,
    player: str,
    *,
    stack: int,
    level: int,
    authorised_by: str,
    in_hand: bool = False,
) -> Purchase:
    """A rebuy for ``player`` whose chips now are ``stack``, at ``level``.

    Raises:
        PurchaseRefused: no rebuys in this tournament; not registered; during a hand; past
            ``rebuy.until_level``; as many rebuys as announced already; chips (with a pending
            Double Chance half) not below the starting stack; past EUR 250.00 in all.
    """
    acc = ledger.account(player)
    r = structure.rebuy
    if r is None:
        raise PurchaseRefused(player, "rebuy", "this tournament has no rebuys")
    if in_hand:
        raise PurchaseRefused(player, "rebuy", "only between hands")
    if level > r.until_level:
        raise PurchaseRefused(
            player, "rebuy", f"rebuys end with level {r.until_level} (now level {level})"
        )
    if acc.rebuys >= r.max_count:
        raise PurchaseRefused(
            player,
            "rebuy",
            f"at most {r.max_count} rebuys (announced); {player} has had {acc.rebuys}",
        )
    held = stack + ledger.half_pending(structure, player)
    if held >= structure.starting_stack:
        raise PurchaseRefused(
            player,
            "rebuy",
            f"only below the starting stack {structure.starting_stack} (has {held}; text 002)",
        )
    _check_cap(acc, "rebuy", r.fee_cents)
    return Purchase(
        "rebuy", player, r.fee_cents, r.chips, level, _by(player, "rebuy", authorised_by)
    )


def addon(
    structure: TournamentStructure,
    ledger: Ledger,
    player: str,
    *,
    level: int,
    authorised_by: str,
    in_hand: bool = False,
) -> Purchase:
    """The add-on of ``player`` at ``level``.

    Raises:
        PurchaseRefused: no add-on in this tournament; not registered; during a hand; outside
            ``addon.from_level..until_level``; already taken; past EUR 250.00 in all.
    """
    acc = ledger.account(player)
    a = structure.addon
    if a is None:
        raise PurchaseRefused(player, "addon", "this tournament has no add-on")
    if in_hand:
        raise PurchaseRefused(player, "addon", "only between hands")
    if not a.from_level <= level <= a.until_level:
        window = (
            f"level {a.from_level}"
            if a.from_level == a.until_level
            else f"levels {a.from_level} to {a.until_level}"
        )
        raise PurchaseRefused(
            player, "addon", f"the add-on is open at {window} (now level {level})"
        )
    if acc.addon:
        raise PurchaseRefused(player, "addon", "at most one add-on (rules text 002)")
    _check_cap(acc, "addon", a.fee_cents)
    return Purchase(
        "addon", player, a.fee_cents, a.chips, level, _by(player, "addon", authorised_by)
    )


def second_half_due(
    structure: TournamentStructure, ledger: Ledger, player: str, *, level: int, stack: int
) -> bool:
    """True when ``player``'s Double Chance second half is due now: not yet released, and the
    level has reached ``double_chance.second_half_level`` or the first half is lost
    (``stack == 0``)."""
    if ledger.half_pending(structure, player) == 0:
        return False
    due_level = structure.double_chance_level or 0
    return level >= due_level or stack == 0


def second_half(
    structure: TournamentStructure,
    ledger: Ledger,
    player: str,
    *,
    level: int,
    stack: int,
    authorised_by: str = "clock",
) -> Purchase:
    """The release of ``player``'s second half (0 cents, half the starting stack).

    Raises:
        PurchaseRefused: no Double Chance, already released, or not due yet
            (:func:`second_half_due`).
    """
    if not structure.double_chance:
        raise PurchaseRefused(player, "second_half", "this tournament has no Double Chance")
    if ledger.half_pending(structure, player) == 0:
        raise PurchaseRefused(player, "second_half", "the second half was already released")
    if not second_half_due(structure, ledger, player, level=level, stack=stack):
        raise PurchaseRefused(
            player,
            "second_half",
            f"due at level {structure.double_chance_level} or when the first half is lost",
        )
    return Purchase(
        "second_half",
        player,
        0,
        structure.starting_stack // 2,
        level,
        _by(player, "second_half", authorised_by),
    )


def due_second_halves(
    structure: TournamentStructure, ledger: Ledger, stacks: Mapping[str, int], level: int
) -> list[Purchase]:
    """The second halves due between hands, for ``stacks`` (player -> chips), in registration
    order: the records to journal before the next hand (at ``level``)."""
    return [
        second_half(structure, ledger, p, level=level, stack=stacks.get(p, 0))
        for p in ledger.players
        if second_half_due(structure, ledger, p, level=level, stack=stacks.get(p, 0))
    ]


def is_out(structure: TournamentStructure, ledger: Ledger, player: str, stack: int) -> bool:
    """True when ``player`` with ``stack`` chips is out: no chips and no Double Chance half
    left (a rebuy the player may still buy is the director's question, :func:`can_rebuy`)."""
    return stack == 0 and ledger.half_pending(structure, player) == 0


def can_rebuy(
    structure: TournamentStructure, ledger: Ledger, player: str, *, stack: int, level: int
) -> bool:
    """True when :func:`rebuy` would accept a rebuy of ``player`` between hands now."""
    try:
        rebuy(structure, ledger, player, stack=stack, level=level, authorised_by="?")
    except PurchaseRefused:
        return False
    return True
