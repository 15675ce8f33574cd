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
from ui.kit.card_texts import CARD_TAKEN, card_text, category_name
from ui.kit.fault_texts import is_device_text, why_text
from ui.kit.format import money
from ui.kit.translate import tr, trf
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
    "signoff": QT_TRANSLATE_NOOP("", "Pot sign-off"),
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
    if m.code in ("signoff_role", "signoff_no_store"):  # a large pot's sign-off refused
        return signoff_message(m)
    if m.code == "pit_boss_missing":
        return tr("The pit boss's badge (and PIN) first, then the card")
    if m.code == "ident_mismatch":
        return tr("The pit boss saw another card: the dealer enters the card again")
    if m.code == "device":
        return why_text(m.text)  # the driver's words go to the log
    if m.code == "rule":
        return refusal_text(m.rule, dict(m.named), m.text, currency)
    if m.code == "storage":
        return trf(m.text, *m.args)  # ui/kit/storage_notice.py's sentence, never the library's
    return m.text or m.code


# -- the rules' refusals (dealer_assist.engine.betting.RULES, peer_checks.RULES) ---------------

_REFUSALS: dict[str, tuple[object, tuple[str, ...]]] = {
    # the betting round
    "not_in_hand": (QT_TRANSLATE_NOOP("", "Seat %1 is not in the hand"), ("seat",)),
    "folded": (QT_TRANSLATE_NOOP("", "Seat %1 has folded and cannot act"), ("seat",)),
    "all_in": (QT_TRANSLATE_NOOP("", "Seat %1 is all-in and cannot act"), ("seat",)),
    "round_closed": (QT_TRANSLATE_NOOP("", "The betting round is closed: nobody is to act"), ()),
    "out_of_turn": (
        QT_TRANSLATE_NOOP("", "Seat %1 acted out of turn: seat %2 is to act"),
        ("seat", "actor"),
    ),
    "nothing_to_call": (QT_TRANSLATE_NOOP("", "Seat %1 has nothing to call: check"), ("seat",)),
    "cannot_check": (
        QT_TRANSLATE_NOOP("", "Seat %1 cannot check: %2 to call"),
        ("seat", "to_call"),
    ),
    "unknown_action": (QT_TRANSLATE_NOOP("", "Unknown action: %1"), ("kind",)),
    "nothing_to_complete": (
        QT_TRANSLATE_NOOP("", "There is no forced bet to complete: %1"),
        ("kind",),
    ),
    "complete_not_bet": (
        QT_TRANSLATE_NOOP("", "There is a forced bet of %1: complete, not bet"),
        ("high",),
    ),
    "raise_not_bet": (
        QT_TRANSLATE_NOOP("", "There is a bet of %1 already: raise, not bet"),
        ("high",),
    ),
    "bet_not_raise": (QT_TRANSLATE_NOOP("", "There is no bet to raise: bet, not raise"), ()),
    "no_amount": (QT_TRANSLATE_NOOP("", "%1: key the amount first"), ("kind",)),
    "above_stack": (
        QT_TRANSLATE_NOOP("", "%1 to %2: more than seat %3's stack of %4"),
        ("kind", "to", "seat", "top"),
    ),
    "not_above_bet": (
        QT_TRANSLATE_NOOP("", "%1 to %2: it does not raise the bet of %3"),
        ("kind", "to", "high"),
    ),
    "no_chips_to_raise": (
        QT_TRANSLATE_NOOP("", "Seat %1 has no chips left to bet or raise after calling"),
        ("seat",),
    ),
    "nobody_to_answer": (
        QT_TRANSLATE_NOOP("", "Nobody can answer a bet or raise: every other player is all-in"),
        (),
    ),
    "short_all_in": (
        QT_TRANSLATE_NOOP(
            "", "A short all-in does not reopen the betting for seat %1: call or fold"
        ),
        ("seat",),
    ),
    "capped": (
        QT_TRANSLATE_NOOP("", "The betting is capped: a bet and %1 raises (fixed limit)"),
        ("raises",),
    ),
    "fixed_exact": (
        QT_TRANSLATE_NOOP("", "%1 to %2: at fixed limit only to %3"),
        ("kind", "to", "low"),
    ),
    "fixed_either": (
        QT_TRANSLATE_NOOP("", "%1 to %2: at fixed limit only to %3 or %4"),
        ("kind", "to", "low", "high"),
    ),
    "below_minimum": (
        QT_TRANSLATE_NOOP("", "%1 to %2: below the minimum, at least %3"),
        ("kind", "to", "low"),
    ),
    "above_pot": (
        QT_TRANSLATE_NOOP("", "%1 to %2: above the pot, at most %3 (pot limit)"),
        ("kind", "to", "high"),
    ),
    "off_chip": (
        QT_TRANSLATE_NOOP("", "%1 to %2: not a multiple of the chip %3"),
        ("kind", "to", "chip"),
    ),
    # the hand's other checks
    "wrong_operation": (QT_TRANSLATE_NOOP("", "This hand takes no such step"), ()),
    "hand_over": (QT_TRANSLATE_NOOP("", "The hand is over: no more steps"), ()),
    "already_open": (QT_TRANSLATE_NOOP("", "The hand is already open"), ()),
    "no_forced_bet": (QT_TRANSLATE_NOOP("", "No forced bet is due now"), ()),
    "forced_bet_due": (
        QT_TRANSLATE_NOOP("", "Seat %1 posts the %2 of %3 now"),
        ("due_seat", "due_bet", "due_amount"),
    ),
    "no_card_expected": (QT_TRANSLATE_NOOP("", "No card is expected now"), ()),
    "unidentified_card": (
        QT_TRANSLATE_NOOP("", "An unreadable card must be identified before it is placed"),
        (),
    ),
    "new_deck_unshuffled": (
        QT_TRANSLATE_NOOP("", "The new deck of the burns and the stub has not been shuffled yet"),
        (),
    ),
    "no_new_deck": (QT_TRANSLATE_NOOP("", "No new deck is due: the hand deals from its deck"), ()),
    "no_exposed_card": (QT_TRANSLATE_NOOP("", "No exposed card can be recorded now"), ()),
    "no_betting": (QT_TRANSLATE_NOOP("", "No betting now"), ()),
    "betting_over": (QT_TRANSLATE_NOOP("", "The hand's betting is over: no more actions"), ()),
    "street_dealing": (
        QT_TRANSLATE_NOOP("", "%1 is being dealt: no action before its cards"),
        ("street",),
    ),
    "forced_bet_turn": (
        QT_TRANSLATE_NOOP(
            "", "Seat %1 acted out of turn: seat %2 posts the forced bet of %3 or folds"
        ),
        ("seat", "due_seat", "amount"),
    ),
    "post_or_fold": (
        QT_TRANSLATE_NOOP("", "Seat %1 posts the forced bet of %2 or folds"),
        ("seat", "amount"),
    ),
    "nothing_to_undo": (QT_TRANSLATE_NOOP("", "There is no action to undo"), ()),
    "undo_other_seat": (
        QT_TRANSLATE_NOOP("", "The last action is seat %1's, not seat %2's"),
        ("last", "seat"),
    ),
    "undo_after_card": (
        QT_TRANSLATE_NOOP("", "A card was dealt after that action: it cannot be undone"),
        (),
    ),
    "no_showdown": (QT_TRANSLATE_NOOP("", "There is no showdown now"), ()),
    "show_out_of_turn": (
        QT_TRANSLATE_NOOP("", "Seat %1 shows out of turn: seat %2 shows now"),
        ("seat", "next"),
    ),
    "muck_all_in": (
        QT_TRANSLATE_NOOP("", "Seat %1 cannot muck: a player is all-in, every hand is turned up"),
        ("seat",),
    ),
    "muck_last_hand": (
        QT_TRANSLATE_NOOP("", "Seat %1 cannot muck: its hand is the last one left for a pot"),
        ("seat",),
    ),
    "no_pot": (QT_TRANSLATE_NOOP("", "No pot to award now"), ()),
    "award_mismatch": (
        QT_TRANSLATE_NOOP("", "The award of pot %1 does not match the showdown"),
        ("pot",),
    ),
    "pots_left": (QT_TRANSLATE_NOOP("", "The pots are not all awarded yet"), ()),
    "cannot_void": (QT_TRANSLATE_NOOP("", "The hand cannot be voided now"), ()),
    # the console's own (ui.poker.hand_steps.RULES; no_new_deck: as the hand's)
    "void_unacknowledged": (QT_TRANSLATE_NOOP("", "Acknowledge the void first"), ()),
    "hand_in_progress": (QT_TRANSLATE_NOOP("", "A hand is in progress: finish it first"), ()),
    "no_hand_to_void": (QT_TRANSLATE_NOOP("", "No hand in progress to void"), ()),
}
"""Each rule's sentence and the values it names, in ``%1``, ``%2``... order."""
_AMOUNTS = frozenset({"to", "low", "high", "top", "to_call", "chip", "amount", "due_amount"})
_KINDS_OF = frozenset({"kind"})
_WORDS_OF = frozenset({"due_bet", "street"})


def refusal_text(rule: str, values: dict[str, int | str], english: str, currency: str) -> str:
    """The refusal of ``rule`` (:class:`~dealer_assist.errors.Refusal`) with its ``values`` in
    the console's language: ``Refused: Raise to € 2.50: below the minimum, at least € 4.00``;
    chips with the console's money formatter, action kinds and the game's words translated.
    A rule without a sentence here says the core's ``english``."""
    known = _REFUSALS.get(rule)
    if known is None:
        return trf("Refused: %1", english)
    text, keys = known
    args: list[str] = []
    for key in keys:
        v = values.get(key, "")
        if key in _AMOUNTS and isinstance(v, int):
            args.append(money(v, currency))
        elif key in _KINDS_OF:
            args.append(kind_name(str(v)))
        elif key in _WORDS_OF:
            args.append(title(str(v)))
        else:
            args.append(str(v))
    return trf("Refused: %1", trf(str(text), *args))


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
        "",
        "Stub %1 + burns %2 = %3 cards, %4 players need %5: shuffle the burns and turn "
        "one community card",
    ),
    "shuffle the burns with the stub, deal one card to each player": QT_TRANSLATE_NOOP(
        "",
        "Stub %1 + burns %2 = %3 cards, %4 players need %5: shuffle the burns with the "
        "stub and deal one card to each player",
    ),
}


def _rank(word: str) -> str:
    """A rank word of the core in the console's language (unknown: as it is)."""
    rank = _WORDS.get(word)
    if rank is None:
        return word
    singular, plural = _RANK_WORDS[rank]
    return tr(plural if word == plural else singular)


def rank_word(rank: int, plural: bool = False) -> str:
    """A rank (2..14) as a word in the console's language: ``king``, plural ``kings``."""
    singular, many = _RANK_WORDS[rank]
    return tr(many if plural else singular)


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


def role_name(role: str) -> str:
    """The role that signs, in the console's language."""
    if role == "shift_manager":
        return tr("shift manager")
    if role == "pit_boss":
        return tr("pit boss")
    return role


def signoff_message(m: Message) -> str:
    """The message line for a refused sign-off (``signoff_role``, ``signoff_no_store``)."""
    if m.code == "signoff_role":
        return trf(
            "This badge may not sign off this pot: a %1 must",
            role_name(m.args[0]) if m.args else "",
        )
    return tr("No PIN list at this table: a large pot cannot be signed off here")
