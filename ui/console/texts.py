"""Every text the console shows, through Qt's translation system.

Source texts are English; ``ui/i18n/console_it.ts`` holds the Italian. Update and compile with::

    python ui/i18n/update.py     # pyside6-lupdate, the Italian texts, pyside6-lrelease

``tr("...")``/``trf("...", args)`` with a literal, or ``QT_TRANSLATE_NOOP("", "...")`` for texts
looked up by code, are what lupdate collects (all in the default, empty context). The first
argument after the text must never be a string literal (lupdate would take it for a
disambiguation comment and the lookup would fail): pass a variable. Codes coming
from the view-model (phases, boxes, hand categories, results, messages) are mapped here, so the
view-model stays language-free. Italian terms follow the rule texts (``Banco``, ``Tris``...).

What belongs to a game (its boxes', streets', decisions' and dealing steps' titles) comes from
the game (``GameRules.box_titles``... in English, marked with ``english()``, which lupdate
collects from ``dealer_assist/games`` too) and is translated here like the console's own texts.
The card source's faults in the dealer's words are in :mod:`ui.kit.fault_texts`, ``tr`` and
``trf`` in :mod:`ui.kit.translate` (both re-exported here for the widgets).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from functools import cache

from PySide6.QtCore import QT_TRANSLATE_NOOP

from dealer_assist.engine.rules import Action
from dealer_assist.games import GAME_CODES, get_game
from dealer_assist.table.device_status import SECOND_READER_KINDS, fault_kind
from ui.console.bets import BetIssue
from ui.console.view import DealerAction, Message, Step
from ui.kit.card_texts import CARD_TAKEN, place_text
from ui.kit.fault_texts import why_text
from ui.kit.format import money
from ui.kit.translate import tr, trf

log = logging.getLogger(__name__)

_RESULTS = {
    "win": QT_TRANSLATE_NOOP("", "Wins"),
    "lose": QT_TRANSLATE_NOOP("", "Loses"),
    "tie": QT_TRANSLATE_NOOP("", "Tie"),
    "fold": QT_TRANSLATE_NOOP("", "Folded"),
}
_PHASES = {
    Step.CONNECTING: QT_TRANSLATE_NOOP("", "Connecting"),
    Step.BETS: QT_TRANSLATE_NOOP("", "Bets open"),
    Step.DEALING: QT_TRANSLATE_NOOP("", "Rien ne va plus"),
    Step.MANUAL: QT_TRANSLATE_NOOP("", "Manual entry"),
    Step.IDENTIFY: QT_TRANSLATE_NOOP("", "Unreadable card"),
    Step.REVEAL: QT_TRANSLATE_NOOP("", "Reveal"),
    Step.SETTLEMENT: QT_TRANSLATE_NOOP("", "Settlement"),
    Step.VOID: QT_TRANSLATE_NOOP("", "Hand void"),
    Step.IDLE: QT_TRANSLATE_NOOP("", "Hand over"),
}


@cache
def _box_titles() -> Mapping[str, str]:
    """Every game's box titles by box (a box is titled alike in every game that has it:
    ``tests/core/test_game_knowledge.py``), for the texts that show a box without its game."""
    return {box: t for code in GAME_CODES for box, t in get_game(code).box_titles.items()}


@cache
def _street_titles() -> Mapping[str, str]:
    """Every game's street titles by street (alike in every game, as the boxes')."""
    return {st: t for code in GAME_CODES for st, t in get_game(code).street_titles.items()}


def box_name(box: str) -> str:
    """A box's title, translated (``ante`` -> ``Ante``); an unknown box as it is."""
    titles = _box_titles()
    return tr(titles[box]) if box in titles else box


def street_name(street: str | None) -> str:
    """A street's title, translated (``preflop`` -> ``Preflop``)."""
    title = _street_titles().get(street or "")
    return tr(title) if title is not None else (street or "")


def result_name(result: str | None) -> str:
    """Seat result against the dealer: ``win`` -> ``Wins``."""
    return tr(_RESULTS[result]) if result in _RESULTS else (result or "")


def phase_name(step: Step, street: str | None, game: str) -> str:
    """The phase banner: the street name during decisions, the game's showdown title after the
    last street, else the step's name."""
    if step is Step.DECISIONS:
        return street_name(street)
    if step is Step.SHOWDOWN:
        return tr(get_game(game).showdown_title)
    return tr(_PHASES[step])


def action_label(action: Action, game: str) -> str:
    """A decision button / the seat's last decision, titled by the game: ``Play 4x``,
    ``Check``, ``Fold``, ``Bet``; an unknown kind as it is."""
    titles = get_game(game).action_titles
    if action.action in titles:
        return trf(titles[action.action], action.multiple or 1)
    return action.action


def action_detail(action: Action, bets: Mapping[str, int], currency: str, game: str) -> str:
    """Second line of a decision button: the stake it puts on the table, as the game works it
    out from the seat's ``bets`` (box -> minor units); empty for a decision without one."""
    stake = get_game(game).stake_of(action, bets)
    return money(stake[1], currency) if stake is not None else ""


def dealer_action_label(action: DealerAction, game: str) -> str:
    """The dealer's big button."""
    kind = action.kind
    steps = get_game(game).step_titles
    if kind in steps:  # the game's dealing steps: "Turn the flop"...
        return tr(steps[kind])
    if kind == "retry":
        return tr("Connect the shuffler")
    if kind == "rnvp":
        return tr("Rien ne va plus")
    if kind == "dealer":
        return tr("Turn the dealer's cards")
    if kind == "settle":
        return tr("Settle")
    if kind == "next":
        return tr("Next")
    if kind == "new_hand":
        return tr("New hand")
    if kind == "ack":
        return tr("Acknowledged")
    return kind


def outcome_text(outcome: str, net: int, currency: str) -> str:
    """A settled box: ``Pay EUR 10.00``, ``Collect EUR 10.00`` or ``Push``."""
    if outcome == "win":
        return trf("Pay %1", money(net, currency))
    if outcome == "lose":
        return trf("Collect %1", money(-net, currency))
    return tr("Push")


def total_text(net: int, currency: str) -> str:
    """A seat total: what the dealer pays (positive) or collects (negative)."""
    if net > 0:
        return trf("Pay %1", money(net, currency))
    if net < 0:
        return trf("Collect %1", money(-net, currency))
    return tr("Net zero")


def qualification_text(qualifies: bool) -> str:
    """The reveal line of a game with a qualification (UTH, rules text 000: "Per qualificarsi,
    il Banco deve realizzare almeno una Coppia")."""
    if qualifies:
        return tr("Dealer qualifies")
    return tr("Dealer does not qualify — Ante pushes")


def issue_text(issue: BetIssue, currency: str) -> str:
    """Why a seat's bets are refused."""
    box = box_name(issue.box)
    if issue.code == "below_min":
        return trf("%1: minimum %2", box, money(issue.limit, currency))
    if issue.code == "above_max":
        return trf("%1: maximum %2", box, money(issue.limit, currency))
    if issue.code == "missing":
        return trf("%1 is required", box)
    return issue.message


def message_text(message: Message, currency: str) -> str:
    """A message line for the dealer."""
    code = message.code
    if code == "bet_issue" and message.issue is not None:
        return trf("Seat %1 — %2", message.seat, issue_text(message.issue, currency))
    if code == "no_bets":
        return tr("No bets on the table")
    if code == "select_seat":
        return tr("Tap a seat first")
    if code == "chip_undone":
        return trf("Seat %1: last chip taken back from %2", message.seat, box_name(message.text))
    if code == "device_not_ready":
        if fault_kind(message.text) in SECOND_READER_KINDS:  # frames went missing before
            return why_text(message.text)
        return tr("The shuffler is not ready: clear the fault, then start a new hand")
    if code == "device":
        return why_text(message.text)  # what to do; the driver's words go to the log
    if code == "confirm_void":
        return tr("Tap “Void hand” again to void the hand")
    if code == "card_taken":
        return tr(CARD_TAKEN)
    if code == "pit_boss":
        return tr("Pit boss not recognised: check the badge number and the PIN")
    if code == "no_roster":
        return tr("No pit boss list at this table: a correction needs a badge and PIN")
    if code == "pit_boss_missing":
        return tr("Pit boss: enter your badge number (and PIN) first")
    if code == "ident_mismatch":
        return tr("The pit boss entered a different card: the dealer enters the card again")
    if code == "signoff_required":
        return trf(
            "Seat %1: a large payout — a pit boss signs it off with badge and PIN first",
            message.seat or (message.args[0] if message.args else ""),
        )
    if code == "signoff_role":
        return tr("This badge may not sign off this payout: it needs a higher role")
    if code == "signoff_no_store":
        return tr("No PIN list at this table: a large payout cannot be signed off here")
    if code == "journal":  # a storage fault: ui.kit.storage_notice's sentence, never the library's
        return trf(message.text, *message.args)
    if code == "exposed_recorded":
        return trf("Exposed card recorded (%1). Play goes on.", place_text(message.text))
    if code in _REFUSED or code == "error":
        # the core's English (a race with the buttons, say) goes to the log, not the screen
        log.info("refused (%s): %s", code, message.text)
        return tr(_REFUSED.get(code, _REFUSED["other"]))
    return message.text


_REFUSED = {
    "illegal": QT_TRANSLATE_NOOP(
        "", "That decision is not possible now: check the seat, then tap again"
    ),
    "state": QT_TRANSLATE_NOOP(
        "", "Not possible at this point of the hand: follow the next step shown"
    ),
    "bet": QT_TRANSLATE_NOOP("", "That bet is refused: check it against the table limits"),
    "other": QT_TRANSLATE_NOOP(
        "", "Refused: the table cannot do that now; call the pit boss if it happens again"
    ),
}
"""The core's refusals the console's own checks did not catch first: a sentence per kind."""
