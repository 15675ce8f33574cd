"""Every text of the poker console, through Qt's translation system (as :mod:`ui.console.texts`:
English sources, Italian in ``ui/i18n/console_it.ts``, rebuilt by ``python ui/i18n/update.py``).

Codes from the view-model (steps, action kinds, forced bets, messages, streets, hand
categories) are mapped to texts here; the game's own words (a street's name, a forced bet's
kind) are turned into their English title at run time (``small_blind`` -> ``Small blind``) and
looked up in the catalogue, where :data:`_TITLES` keeps them (a word that is no title by itself
has its title in :data:`_LONG`: a Stud street's ordinal is ``3rd street``).

The core tells the dealer two things in English words (Stud's opening, "highest board: pair of
kings", and the deck shortage, "stub 1 card + 3 burns = 4, ..."): :func:`opening_text` and
:func:`shortage_text` read them back into their parts and say them in the console's language
(an unexpected wording is shown as the core wrote it).
"""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP

from dealer_assist.cards import parse_card
from dealer_assist.errors import CardError
from ui.console.format import money
from ui.console.texts import CARD_TAKEN, card_text, category_name, is_device_text, tr, trf, why_text
from ui.poker.presenter import Message

_TITLES = (
    QT_TRANSLATE_NOOP("", "Small blind"),
    QT_TRANSLATE_NOOP("", "Big blind"),
    QT_TRANSLATE_NOOP("", "Preflop"),
    QT_TRANSLATE_NOOP("", "Flop"),
    QT_TRANSLATE_NOOP("", "Turn"),
    QT_TRANSLATE_NOOP("", "River"),
)
_LONG = {  # the game's word titled by the capitalised code -> the title it needs
    "Third": QT_TRANSLATE_NOOP("", "3rd street"),
    "Fourth": QT_TRANSLATE_NOOP("", "4th street"),
    "Fifth": QT_TRANSLATE_NOOP("", "5th street"),
    "Sixth": QT_TRANSLATE_NOOP("", "6th street"),
    "Seventh": QT_TRANSLATE_NOOP("", "7th street"),
    "Holdem": QT_TRANSLATE_NOOP("", "Texas Hold'em"),
    "Stud": QT_TRANSLATE_NOOP("", "Seven Card Stud"),
}
_STEPS = {
    "connecting": QT_TRANSLATE_NOOP("", "Connecting"),
    "between": QT_TRANSLATE_NOOP("", "Between hands"),
    "dealing": QT_TRANSLATE_NOOP("", "Dealing"),
    "betting": QT_TRANSLATE_NOOP("", "Betting"),
    "showdown": QT_TRANSLATE_NOOP("", "Showdown"),
    "settled": QT_TRANSLATE_NOOP("", "Pots awarded"),
    "void": QT_TRANSLATE_NOOP("", "Hand void"),
    "manual": QT_TRANSLATE_NOOP("", "Manual entry"),
    "new_deck": QT_TRANSLATE_NOOP("", "Deck short"),
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
    "bring_in": QT_TRANSLATE_NOOP("", "Bring-in"),
    "complete": QT_TRANSLATE_NOOP("", "Complete"),
}


def title(code: str) -> str:
    """A game word (``small_blind``, a street name, a game code) as its translated title."""
    word = code.replace("_", " ").capitalize()
    return tr(_LONG.get(word, word))


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
    if m.code == "above_limit":
        return trf("Above the limit: at most %1", v[0])
    if m.code == "off_limit":
        return trf("Amounts go in steps of %1 up to %2", v[0], v[1])
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
        if is_device_text(m.text):  # the card source refused the step: what to do about it
            return why_text(m.text)
        return trf("Refused: %1", m.text)
    if m.code == "card_taken":
        return tr(CARD_TAKEN)  # as the keypad's own refusal: never which card or where
    if m.code == "pit_boss":
        return tr("Unknown badge or wrong PIN: the pit boss enters them again")
    if m.code == "pit_boss_missing":
        return tr("The pit boss's badge (and PIN) first, then the card")
    if m.code == "ident_mismatch":
        return tr("The pit boss saw another card: the dealer enters the card again")
    if m.code == "device":
        return why_text(m.text)  # the driver's words go to the log
    return m.text or m.code


# -- the core's English words, said again in the console's language ---------------------------

_RANK_WORDS = {
    2: (QT_TRANSLATE_NOOP("", "two"), QT_TRANSLATE_NOOP("", "twos")),
    3: (QT_TRANSLATE_NOOP("", "three"), QT_TRANSLATE_NOOP("", "threes")),
    4: (QT_TRANSLATE_NOOP("", "four"), QT_TRANSLATE_NOOP("", "fours")),
    5: (QT_TRANSLATE_NOOP("", "five"), QT_TRANSLATE_NOOP("", "fives")),
    6: (QT_TRANSLATE_NOOP("", "six"), QT_TRANSLATE_NOOP("", "sixes")),
    7: (QT_TRANSLATE_NOOP("", "seven"), QT_TRANSLATE_NOOP("", "sevens")),
    8: (QT_TRANSLATE_NOOP("", "eight"), QT_TRANSLATE_NOOP("", "eights")),
    9: (QT_TRANSLATE_NOOP("", "nine"), QT_TRANSLATE_NOOP("", "nines")),
    10: (QT_TRANSLATE_NOOP("", "ten"), QT_TRANSLATE_NOOP("", "tens")),
    11: (QT_TRANSLATE_NOOP("", "jack"), QT_TRANSLATE_NOOP("", "jacks")),
    12: (QT_TRANSLATE_NOOP("", "queen"), QT_TRANSLATE_NOOP("", "queens")),
    13: (QT_TRANSLATE_NOOP("", "king"), QT_TRANSLATE_NOOP("", "kings")),
    14: (QT_TRANSLATE_NOOP("", "ace"), QT_TRANSLATE_NOOP("", "aces")),
}
"""The core's rank words (``dealer_assist.cards.RANK_NAMES``, singular and plural)."""
_WORDS = {w: r for r, pair in _RANK_WORDS.items() for w in pair}
_DOOR = re.compile(r"lowest door card: (\w{2})")
_BOARD = re.compile(r"highest board: (.+)")
_SHORT = re.compile(r"stub (\d+) cards? \+ (\d+) burns? = (\d+), (\d+) players need (\d+): (.+)")
_SHORT_PLANS = {
    "shuffle the burns, turn one community card": QT_TRANSLATE_NOOP(
        "", "Stub %1 + burns %2 = %3 cards, %4 players need %5: shuffle the burns and turn "
        "one community card"),
    "shuffle the burns with the stub, deal one card to each player": QT_TRANSLATE_NOOP(
        "", "Stub %1 + burns %2 = %3 cards, %4 players need %5: shuffle the burns with the "
        "stub and deal one card to each player"),
}  # fmt: skip


def _rank(word: str) -> str:
    """A rank word of the core in the console's language (unknown: as it is)."""
    rank = _WORDS.get(word)
    if rank is None:
        return word
    singular, plural = _RANK_WORDS[rank]
    return tr(plural if word == plural else singular)


def exposed_text(words: str) -> str:
    """An exposed hand as the core words it (``pair of kings``, ``two pair, aces and sevens``,
    ``three nines``, ``four queens``, ``ace-king high``) in the console's language."""
    if m := re.fullmatch(r"pair of (\w+)", words):
        return trf("pair of %1", _rank(m[1]))
    if m := re.fullmatch(r"two pair, (\w+) and (\w+)", words):
        return trf("two pair, %1 and %2", _rank(m[1]), _rank(m[2]))
    if m := re.fullmatch(r"three (\w+)", words):
        return trf("three %1", _rank(m[1]))
    if m := re.fullmatch(r"four (\w+)", words):
        return trf("four %1", _rank(m[1]))
    if m := re.fullmatch(r"([\w-]+) high", words):
        ranks = "-".join(_rank(w) for w in m[1].split("-"))  # a variable, as for lupdate
        return trf("%1 high", ranks)
    return words


def opening_text(why: str) -> str:
    """Why the first seat acts first (the view's ``opening``): ``Lowest door card: 2♣``,
    ``Highest board: pair of kings``; "" for ""."""
    if m := _DOOR.fullmatch(why):
        try:
            return trf("Lowest door card: %1", card_text(parse_card(m[1])))
        except CardError:
            return why
    if m := _BOARD.fullmatch(why):
        return trf("Highest board: %1", exposed_text(m[1]))
    return why


def shortage_text(text: str) -> str:
    """The dealer's instruction when the deck runs short (the view's ``shortage``), e.g.
    ``Stub 1 + burns 3 = 4 cards, 8 players need 8: shuffle the burns and turn one community
    card``."""
    m = _SHORT.fullmatch(text)
    plan = _SHORT_PLANS.get(m[6]) if m is not None else None
    if m is None or plan is None:
        return text
    return trf(str(plan), m[1], m[2], m[3], m[4], m[5])
