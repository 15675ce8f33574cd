"""The award page's text: each pot (side pots first, the main pot last), the winning hand named
as the dealer says it ("pair of kings", "kings full of fives"), each winner by name and seat
with the amount and any odd chip, the bets returned, the rake and the stacks after. The hand's
name is read off the evaluator's best five (combination cards first, then the kickers), in the
console's language."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from dealer_assist.cards import Card
from ui.kit.format import money
from ui.kit.translate import tr, trf
from ui.poker.snapshot import Award, PokerSnapshot
from ui.poker.texts import hand_category, pot_name, rank_word

_NAMES = {  # category -> (sentence, the best five's cards it names, plural each)
    "high_card": (QT_TRANSLATE_NOOP("", "%1 high"), ((0, False),)),
    "pair": (QT_TRANSLATE_NOOP("", "pair of %1"), ((0, True),)),
    "two_pair": (QT_TRANSLATE_NOOP("", "two pair, %1 and %2"), ((0, True), (2, True))),
    "three_of_a_kind": (QT_TRANSLATE_NOOP("", "three %1"), ((0, True),)),
    "straight": (QT_TRANSLATE_NOOP("", "straight, %1 high"), ((0, False),)),
    "flush": (QT_TRANSLATE_NOOP("", "flush, %1 high"), ((0, False),)),
    "full_house": (QT_TRANSLATE_NOOP("", "%1 full of %2"), ((0, True), (3, True))),
    "four_of_a_kind": (QT_TRANSLATE_NOOP("", "four %1"), ((0, True),)),
    "straight_flush": (QT_TRANSLATE_NOOP("", "straight flush, %1 high"), ((0, False),)),
}


def hand_name(category: str | None, best: tuple[Card, ...]) -> str:
    """The winning hand as the dealer calls it: ``pair of kings``, ``kings full of fives``,
    ``straight, nine high``; the category alone without its five cards (``Uncontested`` for
    None)."""
    named = _NAMES.get(category or "")
    if named is None or len(best) < 5:
        return hand_category(category)
    text, parts = named
    return trf(str(text), *(rank_word(best[i].rank, plural) for i, plural in parts))


def award_text(snap: PokerSnapshot, currency: str) -> str:
    """The award page's rich text for the settled ``snap``."""
    parts = [_pot(a, snap, currency) for a in snap.awards]
    for seat, amount in snap.returned:
        parts.append(trf("Returned to %1: %2", _who(snap, seat), money(amount, currency)))
    if snap.rake:
        parts.append(trf("Rake: %1", money(snap.rake, currency)))
    # by seat, run on as one paragraph: nine players' names would not fit 1280x800
    nowrap = "<span style='white-space: nowrap;'>"
    stacks = " · ".join(
        f"{nowrap}{trf('Seat %1', seat)}: {money(stack, currency)}</span>"
        for seat, stack in snap.after
    )
    stacks = "<br>" + stacks  # a variable: lupdate takes a literal 2nd argument as a comment
    parts.append("<br>" + trf("Stacks after: %1", stacks))
    return "<br>".join(parts)


def _pot(a: Award, snap: PokerSnapshot, currency: str) -> str:
    winners = []
    for w in a.winners:
        odd = " " + tr("(odd chip)") if w.odd_chip else ""
        winners.append(f"{_who(snap, w.seat)}: {money(w.amount, currency)}{odd}")
    seats = ", ".join(str(x) for x in a.eligible)  # a variable, as for lupdate
    return (
        f"<b>{pot_name(a.index)} {money(a.amount, currency)}</b> · "
        f"{hand_name(a.category, a.best)}<br>&nbsp;&nbsp;{trf('seats %1', seats)}"
        + "".join(f"<br>&nbsp;&nbsp;→ {w}" for w in winners)
    )


def _who(snap: PokerSnapshot, seat: int) -> str:
    """``Anna (seat 1)``; ``Seat 1`` for a player with no name."""
    player = snap.seat(seat)
    name = player.name if player is not None else ""
    return trf("%1 (seat %2)", name, seat) if name else trf("Seat %1", seat)
