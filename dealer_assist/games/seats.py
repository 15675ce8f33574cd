"""The seats of a table between hands: who sits where with how many chips, who sits out, who is
dealt in; every change a new :class:`~dealer_assist.games.session.TableSession` carrying its
:class:`~dealer_assist.games.session.TableChange` (the journal record,
:mod:`dealer_assist.table.records`). Pure: nothing is mutated, nothing is written.

What a game adds (what a new or returning player owes, its rotation) comes in as plain values
(``owes``, ``waiting``); the game's module decides them (Hold'em:
:mod:`dealer_assist.games.holdem_table`). Amounts are integers (minor units or tournament chips).

Every refusal is a :class:`~dealer_assist.errors.TableError` naming the seat and the rule, or a
:class:`~dealer_assist.errors.HandStateError` for a change asked for during a hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from dealer_assist.errors import HandStateError, TableError
from dealer_assist.events import iso_utc, utc_now
from dealer_assist.games.session import SeatedPlayer, TableChange, TableSession


@dataclass(frozen=True)
class BuyIn:
    """A cash table's buy-in rule: a player sits down with ``low..high`` chips, tops up to at
    most ``high``, and every amount is a whole number of ``chip`` (the smallest chip)."""

    low: int
    high: int
    chip: int = 1

    def check(self, seat: int, amount: Any, what: str) -> int:
        """``amount`` as an integer of whole chips above 0. Raises TableError naming it."""
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise TableError(seat, f"{what} must be a positive integer, got {amount!r}")
        if amount % self.chip:
            raise TableError(seat, f"{what} {amount} is not a whole number of {self.chip} chips")
        return amount


def eligible(session: TableSession) -> list[int]:
    """Seats that can be dealt in (ascending): a player with chips (stack > 0) not sitting
    out. A busted player (stack 0) is not dealt in until a top-up."""
    return sorted(
        s
        for s, p in session.seats.items()
        if not p.sitting_out and p.stack is not None and p.stack > 0
    )


def next_clockwise(seat: int, candidates: Iterable[int]) -> int:
    """The first of ``candidates`` clockwise after ``seat`` (ascending, wrapping; ``seat``
    itself only when it is the only candidate). Raises TableError when there is none."""
    order = sorted(set(candidates))
    if not order:
        raise TableError(None, "no seat to move to")
    return next((s for s in order if s > seat), order[0])


def between_clockwise(seat: int, start: int, end: int) -> bool:
    """``seat`` lies clockwise after ``start`` up to and including ``end`` (wrapping past the
    highest seat); nothing lies between a seat and itself."""
    if start < end:
        return start < seat <= end
    if start > end:
        return seat > start or seat <= end
    return False


def stamp(at: datetime | None, by: str) -> dict[str, Any]:
    """A record's ``by`` and ``at`` (ISO-8601 UTC; default now)."""
    return {"by": by, "at": iso_utc(at or utc_now())}


def _between_hands(in_hand: bool, what: str) -> None:
    if in_hand:
        raise HandStateError(f"{what} only between hands: finish the hand first")


def _player(session: TableSession, seat: int) -> SeatedPlayer:
    player = session.seats.get(seat)
    if player is None:
        raise TableError(seat, "nobody sits there")
    return player


def _with(
    session: TableSession, seat: int, player: SeatedPlayer | None, change: TableChange
) -> TableSession:
    seats = dict(session.seats)
    if player is None:
        seats.pop(seat, None)
    else:
        seats[seat] = player
    return replace(session, seats=seats, change=change)


def seat_player(
    session: TableSession,
    seat: int,
    name: str,
    buy_in: int,
    *,
    seats: int,
    rule: BuyIn,
    at: datetime | None = None,
    by: str = "",
    owes: Sequence[str] = (),
    waiting: bool = False,
    in_hand: bool = False,
) -> TableSession:
    """A player sits down in ``seat`` (1..``seats``) with ``buy_in`` chips (kind ``buy_in``).

    Raises:
        TableError: the seat is not a seat of the table or is taken; the buy-in is not whole
            chips or lies outside ``rule.low..rule.high`` (names the bound).
        HandStateError: asked during a hand (``in_hand``).
    """
    _between_hands(in_hand, "a buy-in")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= seats:
        raise TableError(seat, f"not a seat of this table (1..{seats})")
    if seat in session.seats:
        taken = session.seats[seat].name or "a player"
        raise TableError(seat, f"taken by {taken}: a player leaves before another sits down")
    amount = rule.check(seat, buy_in, "the buy-in")
    if amount < rule.low:
        raise TableError(seat, f"buy-in {amount} is below the table's minimum {rule.low}")
    if amount > rule.high:
        raise TableError(seat, f"buy-in {amount} is above the table's maximum {rule.high}")
    player = SeatedPlayer(name, amount, owes=tuple(owes), waiting=waiting)
    payload = {"seat": seat, "name": name, "amount": amount, "stack": amount, **stamp(at, by)}
    if owes:
        payload.update(owes=list(owes), waiting=waiting)
    return _with(session, seat, player, TableChange("buy_in", payload))


def top_up(
    session: TableSession,
    seat: int,
    amount: int,
    *,
    rule: BuyIn,
    at: datetime | None = None,
    by: str = "",
    waiting: bool | None = None,
    in_hand: bool = False,
) -> TableSession:
    """More chips for the player in ``seat`` (kind ``top_up``): the stack after it at most
    ``rule.high``; a busted player's (stack 0) top-up is a new buy-in, at least ``rule.low``.
    ``waiting`` (None: unchanged) is what the game says of the player once back in.

    Raises:
        TableError: nobody there; not whole chips; the stack would pass the maximum, or a
            rebuy after busting below the minimum (names the bound).
        HandStateError: asked during a hand (cash: only between hands).
    """
    _between_hands(in_hand, "a top-up")
    player = _player(session, seat)
    add = rule.check(seat, amount, "the top-up")
    stack = player.stack or 0
    total = stack + add
    if total > rule.high:
        raise TableError(
            seat,
            f"top-up {add} would make the stack {total}, above the table's maximum "
            f"buy-in {rule.high} (at most {max(rule.high - stack, 0)} more)",
        )
    if stack == 0 and total < rule.low:
        raise TableError(
            seat, f"a rebuy after busting is a buy-in: {add} is below the minimum {rule.low}"
        )
    new = replace(player, stack=total, waiting=player.waiting if waiting is None else waiting)
    payload = {"seat": seat, "amount": add, "stack": total, **stamp(at, by)}
    return _with(session, seat, new, TableChange("top_up", payload))


def sit_out(
    session: TableSession,
    seat: int,
    *,
    at: datetime | None = None,
    by: str = "",
    in_hand: bool = False,
) -> TableSession:
    """The player in ``seat`` sits out from the next hand (kind ``sit_out``); their
    ``out_since`` is the session's hand count now.

    Raises:
        TableError: nobody there, or already sitting out. HandStateError: during a hand.
    """
    _between_hands(in_hand, "sitting out")
    player = _player(session, seat)
    if player.sitting_out:
        raise TableError(seat, "already sitting out")
    new = replace(player, sitting_out=True, out_since=session.hands)
    payload = {"seat": seat, "stack": player.stack, "hand": session.hands, **stamp(at, by)}
    return _with(session, seat, new, TableChange("sit_out", payload))


def sit_in(
    session: TableSession,
    seat: int,
    *,
    waiting: bool = False,
    at: datetime | None = None,
    by: str = "",
    in_hand: bool = False,
) -> TableSession:
    """The player in ``seat`` is back from the next hand (kind ``sit_in``); what they owe
    stays, ``waiting`` is what the game says of them now.

    Raises:
        TableError: nobody there, or not sitting out. HandStateError: during a hand.
    """
    _between_hands(in_hand, "coming back")
    player = _player(session, seat)
    if not player.sitting_out:
        raise TableError(seat, "is not sitting out")
    new = replace(player, sitting_out=False, out_since=None, waiting=waiting)
    payload: dict[str, Any] = {
        "seat": seat,
        "stack": player.stack,
        "hand": session.hands,
        "missed_since": player.out_since,
        **stamp(at, by),
    }
    if player.owes:
        payload.update(owes=list(player.owes), waiting=waiting)
    return _with(session, seat, new, TableChange("sit_in", payload))


def leave(
    session: TableSession,
    seat: int,
    *,
    at: datetime | None = None,
    by: str = "",
    in_hand: bool = False,
) -> TableSession:
    """The player in ``seat`` leaves with their stack (kind ``leave``: the cash-out amount).

    Raises:
        TableError: nobody there. HandStateError: during a hand.
    """
    _between_hands(in_hand, "leaving")
    player = _player(session, seat)
    payload = {"seat": seat, "name": player.name, "amount": player.stack or 0, **stamp(at, by)}
    return _with(session, seat, None, TableChange("leave", payload))
