"""The core's refusals as the errors a snapshot carries (the screen shows them to the dealer)."""

from __future__ import annotations

from dealer_assist.errors import (
    BetError,
    CardError,
    DealerAssistError,
    DeviceError,
    ExposedCardMismatch,
    HandStateError,
    IllegalActionError,
    JournalError,
)
from ui.kit.status import CommandError
from ui.kit.storage_notice import storage_text


def command_error(e: DealerAssistError) -> CommandError:
    """The refusal ``e`` of the core as the error a snapshot carries (``code`` for the screen,
    the core's English message); a card is never named (it may be a hidden one). A journal's
    error (a storage fault) carries the dealer's sentence instead (:func:`storage_text`: the
    English source and its arguments, said with ``trf``), never the library's words."""
    if isinstance(e, ExposedCardMismatch):  # names the place, never the reader's card
        return CommandError("exposed_mismatch", str(e))
    if isinstance(e, CardError):
        # the core names the card ("As was already dealt"): it may be a hidden card, never shown
        return CommandError("card_taken", "that card is already in this deck")
    if isinstance(e, DeviceError):
        code = "device"
    elif isinstance(e, BetError):
        code = "bet"
    elif isinstance(e, IllegalActionError):
        code = "illegal"
    elif isinstance(e, HandStateError):
        code = "state"
    elif isinstance(e, JournalError):
        text, args = storage_text(e)
        return CommandError("journal", text, args)
    else:
        code = "other"
    return CommandError(code, str(e))
