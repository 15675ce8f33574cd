"""Pots of a peer game (GAMES.md, "Pots and showdown"; rules text 003 art. 7).

- :func:`uncalled`: the bet nobody called goes back to the player who made it, before any pot is
  counted.
- :func:`layer`: main and side pots layered from each seat's total contribution; chips of folded
  players stay in the layers they reached, a layer only folded players reached joins the pot
  below it; each pot's eligible seats are the live seats that reached its top.
- :func:`split`: a pot shared equally among its best hands in whole chips; the odd chips one at a
  time, from the first winner after the button (rules text 003 art. 7), never two to one player.
- :func:`after_button`: seats in clockwise order from the first seat after the button.
- :func:`collected_pots`: the pots of the chips in the middle as the settlement layers them
  (dead chips above the common ante in the main pot).

Chips are conserved: the pots plus the returned bet equal every chip put in.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from dealer_assist.errors import ConfigError


@dataclass(frozen=True)
class Pot:
    """A pot: its ``amount`` and the live seats ``eligible`` for it (seat order)."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True)
class Share:
    """One winner's part of a pot: ``amount``, and ``odd_chip`` when it includes an odd chip."""

    seat: int
    amount: int
    odd_chip: bool


def uncalled(put_in: Mapping[int, int]) -> tuple[int, int] | None:
    """``(seat, amount)`` of the bet nobody called (the excess of the largest contribution over
    the second largest), or None (GAMES.md: "A bet that nobody called goes back")."""
    if not put_in:
        return None
    items = iter(put_in.items())
    top_seat, top = next(items)
    second: int | None = None
    for seat, chips in items:  # the largest (the first of equals) and the next largest
        if chips > top:
            second, top_seat, top = top, seat, chips
        elif second is None or chips > second:
            second = chips
    if second is None:
        second = 0
    return (top_seat, top - second) if top > second else None


def layer(put_in: Mapping[int, int], live: Collection[int]) -> list[Pot]:
    """Main pot first, then side pots in the order they were created (GAMES.md, "layered at
    each all-in level"): one layer per distinct contribution of a live seat; folded chips stay
    in the layers they reached, and any above the top live level join the top pot.

    ``put_in`` is every seat's total contribution after the uncalled bet went back.
    """
    return [Pot(amount, eligible) for amount, eligible in layers(put_in, live)]


def layers(put_in: Mapping[int, int], live: Collection[int]) -> list[tuple[int, tuple[int, ...]]]:
    """:func:`layer` as ``(amount, eligible)`` pairs (the settlement's hot path: no objects).

    Raises:
        ConfigError: chips in the pot but no live seat contributed.
    """
    ranked = sorted(live)
    reached = [(put_in.get(s, 0), s) for s in ranked]  # each live seat's chips, seat order
    levels = sorted({c for c, _ in reached if c > 0})
    if not levels:
        if any(put_in.values()):
            raise ConfigError("chips in the pot but no live seat contributed")
        return []
    chips = list(put_in.values())
    # list comprehensions, not generators: a generator is resumed once an item
    if len(levels) == 1:  # the common case: one pot, every live seat that put chips in
        level = levels[0]
        eligible = tuple([s for c, s in reached if c >= level])
        return [(sum([c for c in chips if c > 0]), eligible)]
    pots = []
    below = 0
    last = len(levels) - 1
    for i, level in enumerate(levels):
        if i == last:  # the top pot also takes folded chips above the top live level
            amount = sum([c - below for c in chips if c > below])
        else:
            amount = sum([(c if c < level else level) - below for c in chips if c > below])
        pots.append((amount, tuple([s for c, s in reached if c >= level])))
        below = level
    return pots


def after_button(seats: Collection[int], button: int) -> list[int]:
    """``seats`` clockwise from the first seat after ``button`` (rules text 003 art. 7: odd
    chips "partendo dalla prima posizione dopo il dealer")."""
    if len(seats) == 1:
        return list(seats)
    ordered = sorted(seats)
    return [s for s in ordered if s > button] + [s for s in ordered if s <= button]


def split(amount: int, winners: Sequence[int], chip: int = 1) -> list[Share]:
    """Split ``amount`` among ``winners`` (already in odd-chip order) in whole chips of ``chip``:
    equal shares, then the odd chips one at a time from the first winner, no winner getting more
    than one (rules text 003 art. 7, odd chips; GAMES.md, "Odd chips")."""
    return [Share(seat, part, odd) for seat, part, odd in shares(amount, winners, chip)]


def shares(amount: int, winners: Sequence[int], chip: int = 1) -> list[tuple[int, int, bool]]:
    """:func:`split` as ``(seat, amount, odd_chip)`` triples (the settlement's hot path).

    Raises:
        ConfigError: no winner.
    """
    if not winners:
        raise ConfigError("a pot needs at least one winner")
    n = len(winners)
    share = amount // (n * chip) * chip
    left = amount - share * n
    out = []
    for seat in winners:
        odd = min(chip, left)
        left -= odd
        out.append((seat, share + odd, odd > 0))
    return out


def collected_pots(
    contrib: Mapping[int, int], live: Sequence[int], dead: Mapping[int, int], ante: int
) -> list[Pot]:
    """The pots of the chips ``contrib`` in the middle (per seat), as the settlement layers
    them: dead chips above the common ``ante`` join the main pot; chips only folded players
    put in (a folded dead blind before any bet is collected) are one pot for the live seats."""
    extra = {s: max(0, dead.get(s, 0) - ante) for s in contrib}
    level = {s: c - extra[s] for s, c in contrib.items()}
    total = sum(contrib.values())
    if not any(level.get(s, 0) > 0 for s in live):
        return [Pot(total, tuple(sorted(live)))] if total else []
    pots = layer(level, live)
    if sum(extra.values()):
        pots[0] = Pot(pots[0].amount + sum(extra.values()), pots[0].eligible)
    return pots
