"""The facts the poker console's panel lists for the seat to act: who opened the street and
why, the forced bet its seat decided, what to call, the stack, the bet or raise range (a
fixed-limit total, a short stack's only all-in, or a minimum and a maximum), and why a bet or
raise is not open when the rule shuts it (the engine's code, said in the console's language).
Nothing here decides a rule: every amount and reason comes from the engine's ``legal()``."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from ui.kit.format import money
from ui.kit.translate import tr, trf
from ui.poker.snapshot import FORCED_KIND
from ui.poker.texts import kind_name, opening_text
from ui.poker.views import PokerView

CLOSED = {
    "short_all_in": QT_TRANSLATE_NOOP(
        "", "No raise: the short all-in did not reopen the betting (call or fold)"
    ),
    "capped": QT_TRANSLATE_NOOP("", "No raise: the betting is capped (fixed limit)"),
    "nobody_to_answer": QT_TRANSLATE_NOOP("", "No bet or raise: every other player is all-in"),
    "no_chips_to_raise": QT_TRANSLATE_NOOP("", "No bet or raise: calling takes the whole stack"),
}
"""Why a bet or raise is not open (the engine's rule codes, ``Legal.closed``)."""


def closed_text(rule: str) -> str:
    """Why the bet or raise is not offered, for the engine's ``rule`` code."""
    text = CLOSED.get(rule)
    return tr(text) if text is not None else trf("No bet or raise: %1", rule)


def stack_line(view: PokerView, currency: str) -> str:
    """``To call: € 2.00 · Stack: € 80.00`` for the seat to act ("" with nobody)."""
    legal = view.legal
    if legal is None:
        return ""
    seat = view.snap.seat(legal.seat)
    line = trf("To call: %1", money(legal.to_call, currency))
    if seat is not None:
        line += " · " + trf("Stack: %1", money(seat.stack, currency))
    return line


def limit_lines(view: PokerView, currency: str) -> list[str]:
    """The range of the bet or raise open to the seat to act, or why none is."""
    legal, cur = view.legal, currency
    if legal is None:
        return []
    lines = []
    lo, hi = legal.minimum, legal.maximum
    if lo is not None and hi is not None:
        kind = kind_name(legal.bet_kind or "bet")
        if legal.only is not None and legal.fixed_limit:
            lines.append(trf("%1: %2 (fixed limit)", kind, money(lo, cur)))
        elif legal.only is not None:  # a short stack: all-in is the one total
            lines.append(trf("%1: all-in %2 only", kind, money(lo, cur)))
        else:
            lines.append(trf("%1: minimum %2", kind, money(lo, cur)))
            if legal.all_in:
                lines.append(trf("%1: maximum %2 (all-in)", kind, money(hi, cur)))
            else:
                lines.append(trf("%1: maximum %2", kind, money(hi, cur)))
    elif legal.shut is not None:
        lines.append(closed_text(legal.shut[1]))
    return lines


def street_lines(view: PokerView) -> list[str]:
    """Who acts first on this street and why, and the forced bet its seat decided (each seat
    that passed it on, who posted it), when the game has them."""
    s = view.snap
    lines = []
    if s.opening and s.opener is not None:
        lines.append(trf("First: seat %1 · %2", s.opener, opening_text(s.opening)))
    folded = [str(seat) for seat, choice in s.forced if choice == "fold"]
    posted = next((seat for seat, choice in s.forced if choice == FORCED_KIND), None)
    forced = kind_name(FORCED_KIND)
    line = trf("%1: seat %2", forced, posted) if posted is not None else ""
    if folded:
        seats = ", ".join(folded)  # a variable: a literal 2nd argument is a comment
        passed = trf("folded: seat %1", seats)
        line = f"{line} · {passed}" if line else f"{forced} {passed}"
    if line:
        lines.append(line)
    return lines
