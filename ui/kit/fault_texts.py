"""The card source's faults in the dealer's words, through Qt's translation.

Every alarm, banner and refusal about the card source is one of these sentences, saying what to
do: a fault kind's sentence, a TCRP/1 fault code's sentence and short name, a void's reason with
its advice, why the device blocks the next hand. The driver's own words (``transport: read from
/dev/pts/3 failed: ...``, pyserial's, ``HELLO seq 0``) go to the log (:func:`detail_text`) and,
for a void, to the journal. Texts in the empty context like the rest of :mod:`ui.console.texts`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

from PySide6.QtCore import QT_TRANSLATE_NOOP

from dealer_assist.engine.voids import VoidReason
from dealer_assist.table.device_status import fault_kind
from ui.kit.format import seconds
from ui.kit.status import DeviceStatus, SourceNotice
from ui.kit.translate import tr, trf

log = logging.getLogger("ui.console.texts")  # the console's texts log under one name

_KIND_TEXTS = {
    "port_busy": QT_TRANSLATE_NOOP(
        "",
        "The shuffler's port is in use by another program: close that program, then "
        "connect the shuffler again",
    ),
    "permission": QT_TRANSLATE_NOOP(
        "", "This computer may not open the shuffler's port: call the technician"
    ),
    "port_missing": QT_TRANSLATE_NOOP(
        "", "Shuffler not found: check that its cable is plugged in and it is switched on"
    ),
    "identity": QT_TRANSLATE_NOOP(
        "", "Another shuffler answered: check which one is connected, then restart the console"
    ),
    "restart": QT_TRANSLATE_NOOP("", "The shuffler restarted by itself: wait until it is ready"),
    "no_answer": QT_TRANSLATE_NOOP("", "The shuffler does not answer: switch it off and on again"),
    "frames_missing": QT_TRANSLATE_NOOP(
        "",
        "Cards keep going missing on the way from the shuffler: another program may be "
        "reading the shuffler's port. Close it, or call the technician",
    ),
    "link_lost": QT_TRANSLATE_NOOP(
        "",
        "Shuffler cable disconnected or shuffler switched off: plug the cable back in and "
        "switch it on",
    ),
    "link_lost_or_shared": QT_TRANSLATE_NOOP(
        "",
        "Shuffler cable disconnected or shuffler switched off: plug the cable back in and "
        "switch it on. If it keeps happening, another program may be reading the shuffler's "
        "port: close it",
    ),
    "other": QT_TRANSLATE_NOOP(
        "", "Card source fault: call the technician (the details are in the log)"
    ),
}
_FAULT_CODES = {  # TCRP/1 FAULT codes (DEVICE_PROTOCOL.md) and the table's late-card alarm
    "JAM": QT_TRANSLATE_NOOP("", "Cards jammed in the shuffler: clear the jam on the shuffler"),
    "DOOR_OPEN": QT_TRANSLATE_NOOP("", "Shuffler door open: close it"),
    "MISSING_CARD": QT_TRANSLATE_NOOP(
        "", "A card is missing from the shuffler: find it and put it back"
    ),
    "EXTRA_CARD": QT_TRANSLATE_NOOP("", "An extra card in the shuffler: take it out"),
    "DUPLICATE_CARD": QT_TRANSLATE_NOOP("", "The same card twice in the shuffler: check the deck"),
    "MISREAD": QT_TRANSLATE_NOOP(
        "", "The shuffler misread a card: check the deck, then clear the fault on the shuffler"
    ),
    "ELEVATOR": QT_TRANSLATE_NOOP("", "Shuffler elevator failure: call the technician"),
    "POWER": QT_TRANSLATE_NOOP("", "Shuffler power failure: check its power cable"),
    "INTERNAL": QT_TRANSLATE_NOOP(
        "", "Shuffler internal error: switch it off and on again; if it stays, call the technician"
    ),
    "LATE_CARD": QT_TRANSLATE_NOOP(
        "", "A card left the shuffler after the hand was settled: take it off the table"
    ),
    "IDENTITY": _KIND_TEXTS["identity"],
}
_FAULT_NAMES = {  # the top bar's short names of the same codes (one line at 1280x800)
    "JAM": QT_TRANSLATE_NOOP("", "jam"),
    "DOOR_OPEN": QT_TRANSLATE_NOOP("", "door open"),
    "MISSING_CARD": QT_TRANSLATE_NOOP("", "missing card"),
    "EXTRA_CARD": QT_TRANSLATE_NOOP("", "extra card"),
    "DUPLICATE_CARD": QT_TRANSLATE_NOOP("", "duplicate card"),
    "MISREAD": QT_TRANSLATE_NOOP("", "misread"),
    "ELEVATOR": QT_TRANSLATE_NOOP("", "elevator"),
    "POWER": QT_TRANSLATE_NOOP("", "power"),
    "INTERNAL": QT_TRANSLATE_NOOP("", "internal"),
    "LATE_CARD": QT_TRANSLATE_NOOP("", "late card"),
    "IDENTITY": QT_TRANSLATE_NOOP("", "other shuffler"),
}
#: what the dealer does after a void, by its reason (the reason's own words come from the core)
_VOID_ADVICE = {
    "missing_cards": _KIND_TEXTS["frames_missing"],
    "index_gap": _KIND_TEXTS["frames_missing"],
    "restart": QT_TRANSLATE_NOOP("", "Wait until the shuffler is ready, then start a new hand"),
    "identity_changed": _KIND_TEXTS["identity"],
    "frame_conflict": QT_TRANSLATE_NOOP(
        "",
        "Another device or a forged message is on the shuffler's line: check that only the "
        "shuffler is connected to its cable, and call the technician",
    ),
}
_CODE = re.compile(r"[A-Z][A-Z0-9_]*")  # a device's fault code, e.g. JAM
_LOGGED: set[str] = set()  # technical details already logged (a view is drawn many times)


def fault_sentence(kind: str) -> str:
    """The dealer's sentence for a :data:`~dealer_assist.table.device_status.FAULT_KINDS` kind,
    with what to do (an unknown kind: the ``other`` sentence)."""
    return tr(_KIND_TEXTS.get(kind, _KIND_TEXTS["other"]))


def detail_text(detail: str) -> str:
    """A driver's or the core's technical text (an open error, a link's reason) as the dealer's
    sentence; the text itself goes to the log, once. "" for ""."""
    if not detail:
        return ""
    if detail not in _LOGGED:
        if len(_LOGGED) > 500:
            _LOGGED.clear()
        _LOGGED.add(detail)
        log.warning("card source: %s", detail)
    return fault_sentence(fault_kind(detail))


def fault_code_text(code: str) -> str:
    """A TCRP/1 fault code as the dealer's sentence; an unknown code says to read the
    shuffler's display (the code is the device's own word, shown as it is)."""
    text = _FAULT_CODES.get(code)
    return tr(text) if text is not None else trf("Shuffler fault %1: see its display", code)


def fault_names(codes: Iterable[str]) -> str:
    """Short names of fault codes for the top bar (``cards jammed, door open``)."""
    return ", ".join(tr(_FAULT_NAMES[c]) if c in _FAULT_NAMES else c for c in codes)


def source_error_text(device: DeviceStatus) -> str:
    """Why the card source could not be opened, in the dealer's words ("" when it was)."""
    return detail_text(device.error)


def notice_reason_text(notice: SourceNotice) -> str:
    """The line under a card-source switch: why the previous source was left."""
    return trf("Reason: %1", detail_text(notice.reason))


def void_text(reason: VoidReason, lang: str) -> str:
    """A void's reason on the alarm: the core's words for its code in ``lang`` (without the
    technical detail, which the journal keeps) and what to do: for a shuffler fault its fault
    spelled out, for a lost link the link's fault, for missing cards the hint that another
    program may be reading the port. Two lines: what happened, then what to do."""
    head = VoidReason(reason.code).text(lang)
    detail = reason.detail
    if reason.code == "device_fault":  # a TCRP/1 code or state, else the table's own words
        if detail == "FAULT":
            advice = state_text(detail)
        elif _CODE.fullmatch(detail):
            advice = fault_code_text(detail)
        else:
            advice = detail_text(detail) if detail else ""
    elif reason.code == "link_lost":
        advice = detail_text(reason.detail or "link lost")
    elif reason.code in _VOID_ADVICE:
        advice = tr(_VOID_ADVICE[reason.code])
    else:
        advice = ""
    return f"{head}\n{advice}" if advice else head  # a line each: what, then what to do


def not_ready_text(device: DeviceStatus) -> str:
    """Why the device blocks the next hand, what to do, and how its reconnection goes."""
    if device.link in ("lost", "reconnecting"):
        # after frames went missing the core's reason names a possible second reader
        shared = fault_kind(device.why_not_ready) == "link_lost_or_shared"
        text = fault_sentence("link_lost_or_shared" if shared else "link_lost")
        if device.last_error and fault_kind(device.last_error) == "port_busy":
            text = fault_sentence("port_busy")  # the port is back, someone else holds it
        attempts = device.reconnect_attempts
        if attempts:
            text += " — " + trf("reconnecting… attempt %1", attempts)
        if device.next_attempt_in is not None:
            wait = seconds(device.next_attempt_in)
            text += " — " + trf("next try in %1 s", wait)
        return text
    if "IDENTITY" in device.faults:
        return fault_sentence("identity")
    faults = [f for f in device.faults if f not in ("IDENTITY", "LATE_CARD")]
    if faults:
        return "; ".join(fault_code_text(f) for f in faults)
    return state_text(device.state) or why_text(device.why_not_ready)


def state_text(state: str) -> str:
    """A TCRP/1 STATE that keeps the next hand waiting, in the dealer's words ("" for "")."""
    if state == "DOOR_OPEN":
        return fault_code_text("DOOR_OPEN")
    if state == "FAULT":
        return tr("The shuffler is in fault: clear it on the shuffler")
    if state:
        return trf("The shuffler is not ready (%1): wait until it is", state)
    return ""


def why_text(why: str) -> str:
    """The core's short reason why no hand may start
    (:meth:`~dealer_assist.source.Readiness.why_not_ready`: ``fault JAM, DOOR_OPEN``,
    ``device state FAULT``, ``link lost``...) in the dealer's words."""
    if why.startswith("fault "):
        return "; ".join(fault_code_text(c.strip()) for c in why[6:].split(","))
    if why.startswith("device state "):
        return state_text(why[13:].strip())
    if why == "device not ready":
        return tr("The shuffler is not ready: clear the fault, then start a new hand")
    return detail_text(why)


def is_device_text(text: str) -> bool:
    """Whether a refusal's English text is about the card source (a reason of
    :func:`why_text`, or a driver's fault text), not a rule of the game."""
    return (
        text.startswith(("fault ", "device state ", "device not ready"))
        or fault_kind(text) != "other"
    )
