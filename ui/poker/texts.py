"""Every text of the poker console, through Qt's translation system (as :mod:`ui.console.texts`:
English sources, Italian in ``ui/i18n/console_it.ts``, rebuilt by ``python ui/i18n/update.py``).

Codes from the view-model (steps, action kinds, forced bets, messages, streets, hand
categories) are mapped to texts here; the game's own words (a street's name, a forced bet's
kind) are turned into their English title at run time (``small_blind`` -> ``Small blind``) and
looked up in the catalogue, where :data:`_TITLES` keeps them.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from ui.console.format import money
from ui.console.texts import category_name, tr, trf
from ui.poker.presenter import Message

_TITLES = (
    QT_TRANSLATE_NOOP("", "Small blind"),
    QT_TRANSLATE_NOOP("", "Big blind"),
    QT_TRANSLATE_NOOP("", "Preflop"),
    QT_TRANSLATE_NOOP("", "Flop"),
    QT_TRANSLATE_NOOP("", "Turn"),
    QT_TRANSLATE_NOOP("", "River"),
)
_STEPS = {
    "connecting": QT_TRANSLATE_NOOP("", "Connecting"),
    "between": QT_TRANSLATE_NOOP("", "Between hands"),
    "dealing": QT_TRANSLATE_NOOP("", "Dealing"),
    "betting": QT_TRANSLATE_NOOP("", "Betting"),
    "showdown": QT_TRANSLATE_NOOP("", "Showdown"),
    "settled": QT_TRANSLATE_NOOP("", "Pots awarded"),
    "void": QT_TRANSLATE_NOOP("", "Hand void"),
    "manual": QT_TRANSLATE_NOOP("", "Manual entry"),
    "identify": QT_TRANSLATE_NOOP("", "Unreadable card"),
}
_KINDS = {
    "fold": QT_TRANSLATE_NOOP("", "Fold"),
    "check": QT_TRANSLATE_NOOP("", "Check"),
    "call": QT_TRANSLATE_NOOP("", "Call"),
    "bet": QT_TRANSLATE_NOOP("", "Bet"),
    "raise": QT_TRANSLATE_NOOP("", "Raise"),
    "show": QT_TRANSLATE_NOOP("", "Show"),
    "muck": QT_TRANSLATE_NOOP("", "Muck"),
}


def title(code: str) -> str:
    """A game word (``small_blind``, a street name) as its translated title."""
    return tr(code.replace("_", " ").capitalize())


def badge(code: str) -> str:
    """A forced bet's short mark on the felt: the initials (``small_blind`` -> ``SB``)."""
    return "".join(w[0] for w in code.split("_")).upper()


def step_name(step: str, street: str | None) -> str:
    """The banner: the step, with the street while betting or dealing."""
    text = tr(_STEPS.get(step, step))
    if street and step in ("betting", "dealing"):
        return f"{text} · {title(street)}"
    return text


def kind_name(kind: str) -> str:
    """An action kind's button text (``Fold``, ``Raise``...)."""
    return tr(_KINDS.get(kind, kind))


def action_label(label: str, currency: str) -> str:
    """A seat's last action from the view (``raise 600``) for the felt: ``Raise € 6.00``."""
    kind, _, amount = label.partition(" ")
    text = kind_name(kind)
    return f"{text} {money(int(amount), currency)}" if amount.isdigit() else text


def void_label(armed: bool) -> str:
    """The void button: ``Void hand``, armed ``Confirm:`` / ``void the hand`` on two lines (a
    half-width button at 1280x800)."""
    return tr("Confirm: void the hand").replace(": ", ":\n", 1) if armed else tr("Void hand")


def pot_name(index: int) -> str:
    """``Main pot`` (0) or ``Side pot N``."""
    return tr("Main pot") if index == 0 else trf("Side pot %1", index)


def hand_category(code: str | None) -> str:
    """A winning hand's category (None: uncontested, everybody else folded)."""
    return category_name(code) if code else tr("Uncontested")


def message_text(m: Message, currency: str) -> str:
    """The dealer's message line."""
    v = [money(x, currency) for x in m.values]
    if m.code == "below_min":
        return trf("Below the minimum: at least %1", v[0])
    if m.code == "above_max":
        return trf("Above the maximum: at most %1 (all-in)", v[0])
    if m.code == "off_step":
        return trf("Amounts go in steps of %1 (or all-in %2)", v[0], v[1])
    if m.code == "no_amount":
        return trf("Key the amount first (at least %1)", v[0])
    if m.code == "no_bet_open":
        return tr("No bet or raise is open now")
    if m.code == "not_legal":
        return tr("That action is not open to this seat now")
    if m.code == "buy_in_bounds":
        return trf("The buy-in must be between %1 and %2", v[0], v[1])
    if m.code == "top_up_max":
        return trf("Top-up: at most %1 more (stack at most %2)", v[0], v[1])
    if m.code == "select_seat":
        return tr("Tap a seat first")
    if m.code == "confirm_void":
        return tr("Tap “Void hand” again to void the hand")
    if m.code == "refused":
        return trf("Refused: %1", m.text)
    if m.code == "card_taken":
        return tr("That card was already entered in this deal: check the card and enter it again")
    if m.code == "pit_boss":
        return tr("Unknown badge or wrong PIN: the pit boss enters them again")
    if m.code == "pit_boss_missing":
        return tr("The pit boss's badge (and PIN) first, then the card")
    if m.code == "ident_mismatch":
        return tr("The pit boss saw another card: the dealer enters the card again")
    if m.code == "device":
        return trf("Card source: %1", m.text)
    return m.text or m.code
