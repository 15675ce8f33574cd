"""Why a hand is void: the reason codes, their Italian and English texts, and :class:`VoidReason`.

Rules text 000 (and 004, 002): a dealing error or a shuffler malfunction voids the whole hand,
every wager returned. The misdeal detector (:mod:`dealer_assist.table.misdeal`) decides when; the
hand (:class:`~dealer_assist.engine.operations.HandVoided`) and the journal record why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dealer_assist.events import DeviceEvent

# code -> (Italian, English) text shown on the void alarm and in the journal.
REASON_TEXTS: dict[str, tuple[str, str]] = {
    "device_fault": ("Guasto della miscelatrice", "Shuffler fault"),
    "missing_cards": ("Carte mancanti nella distribuzione", "Cards missing from the deal"),
    "extra_card": ("Carta in più nella distribuzione", "Extra card in the deal"),
    "index_gap": ("Carta saltata dal lettore", "The reader skipped a card"),
    "index_repeat": ("Carta ripetuta dal lettore", "The reader repeated a card"),
    "duplicate_card": ("Carta doppia nel mazzo", "The same card twice in one deck"),
    "unreadable_card": ("Carta illeggibile", "Unreadable card"),
    "link_lost": ("Collegamento con la miscelatrice perso", "Link to the shuffler lost"),
    "identity_changed": ("La miscelatrice è cambiata", "The shuffler's identity changed"),
    "frame_conflict": (
        "Due messaggi diversi con lo stesso numero: forse una seconda miscelatrice o messaggi"
        " contraffatti",
        "Two different frames with the same number: possibly a second device or forged frames",
    ),
    "shuffle_count": ("Mazzo incompleto o eccedente", "Deck count is not 52"),
    "wrong_deck": ("Carta da un altro mazzo", "Card from another deck"),
    "deck_reshuffled": (
        "Mazzo rimescolato durante la mano",
        "The deck was reshuffled during the hand",
    ),
    "restart": ("Riavvio durante la mano", "Restart during the hand"),
    "reshuffle_card": (
        "Carta non tra gli scarti e il resto del mazzo",
        "A card not among the burns and the stub",
    ),
    # the console's one Italian word for the dealer (its texts say "croupier"; "Dealer" alone
    # reads as the house's hand, "Banco")
    "dealer_void": ("Mano annullata dal croupier", "Hand voided by the dealer"),
    "history_mismatch": (
        "Le carte registrate non corrispondono a quelle della miscelatrice",
        "The recorded cards disagree with the shuffler's",
    ),
    "step_forged": (
        "Registro dei passi alterato: un passo non porta la firma del notaio",
        "The step log was altered: a step does not carry the signer's signature",
    ),
}

# TCRP/1 FAULT code -> (Italian, English), appended to the "device_fault" text.
FAULT_TEXTS: dict[str, tuple[str, str]] = {
    "JAM": ("carte inceppate", "cards jammed"),
    "DOOR_OPEN": ("sportello aperto", "door open"),
    "MISSING_CARD": ("carta mancante", "missing card"),
    "EXTRA_CARD": ("carta in più", "extra card"),
    "DUPLICATE_CARD": ("carta doppia", "duplicate card"),
    "MISREAD": ("lettura errata", "misread"),
    "ELEVATOR": ("guasto dell'elevatore", "elevator failure"),
    "POWER": ("alimentazione", "power failure"),
    "INTERNAL": ("errore interno", "internal error"),
}


@dataclass(frozen=True)
class VoidReason:
    """Why a hand is void: a ``code`` from :data:`REASON_TEXTS` and a free ``detail``
    (e.g. the TCRP/1 fault code ``JAM``). ``causes`` holds the device events that caused it
    (not compared: two reasons with the same code and detail are equal)."""

    code: str
    detail: str = ""
    causes: tuple[DeviceEvent, ...] = field(default=(), compare=False, repr=False)

    def text(self, lang: str = "en") -> str:
        """Human text in ``it`` or ``en``, with the detail in parentheses."""
        it, en = REASON_TEXTS.get(self.code, (self.code, self.code))
        base = it if lang == "it" else en
        return f"{base} ({self.detail})" if self.detail else base

    def long_text(self, lang: str = "en") -> str:
        """:meth:`text` with a TCRP/1 fault code spelled out for the void alarm
        (``Shuffler fault: cards jammed (JAM)``)."""
        fault = FAULT_TEXTS.get(self.detail.split(" ", 1)[0])
        if fault is None or self.code != "device_fault":
            return self.text(lang)
        it, en = REASON_TEXTS["device_fault"]
        base = f"{it}: {fault[0]}" if lang == "it" else f"{en}: {fault[1]}"
        return f"{base} ({self.detail})"

    def to_json(self) -> dict[str, Any]:
        """``{"code", "detail", "text_it", "text_en"}`` for the journal and the step log."""
        return {
            "code": self.code,
            "detail": self.detail,
            "text_it": self.long_text("it"),
            "text_en": self.long_text("en"),
        }
