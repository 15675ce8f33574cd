"""The deal in progress at a table: what the runner knows of the deck and of the cards it asked
the device for, one hand at a time.

The runner asks the device for the positions a step opened (:attr:`GameState.pending_deal`):
at once when the deck is known (its SHUFFLED came), else once it comes; while cards are on their
way a :class:`~dealer_assist.table.misdeal.DealWatch` times them. After a restart a deal waits
for the device's STATE before anything else deals (``restarting``), and a deck or index error
means the device lost the deck (``resuming``). A new hand starts from a new :class:`DealState`.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.engine.voids import VoidReason
from dealer_assist.table.misdeal import DealWatch
from dealer_assist.table.recovery import RESTART_CODES


@dataclass
class DealState:
    """The deal's state of one hand.

    Attributes:
        shuffled: the deck's SHUFFLED came (cards can be asked for at once).
        arranged: a deal waits for that SHUFFLED (one such wait at a time).
        restarting: a restarted hand's deck or the device's STATE is on its way: no deal before.
        resuming: a resumed hand's first card has not come yet (a deck or index error then
            means the device lost the deck while the table was down).
        asked: the device was asked for cards since the last player's action (no undo then).
        watch: the time rule of the cards asked for, None when none are on their way.
    """

    shuffled: bool = False
    arranged: bool = False
    restarting: bool = False
    resuming: bool = False
    asked: bool = False
    watch: DealWatch | None = None

    def may_deal(self) -> bool:
        """No deal is on its way, waited for or held back by a restart."""
        return self.watch is None and not self.arranged and not self.restarting

    def watch_cards(self, n: int, card_timeout: float, now: float) -> None:
        """``n`` cards were asked for at monotonic ``now``: each has ``card_timeout`` seconds."""
        self.watch = DealWatch(n, card_timeout, now)

    def card_came(self, now: float, *, held: bool) -> None:
        """A card of the deal came (the deck goes on where it was); its clock restarts unless
        the card is ``held`` for the dealer's identification."""
        self.resuming = False
        if self.watch is not None and not held:
            self.watch.on_card(now)

    def pause(self) -> None:
        """An unreadable card stops the deal's clock until it is identified."""
        if self.watch is not None:
            self.watch.pause()

    def lost_deck(self, why: VoidReason) -> VoidReason:
        """The void a card's deck or index error means: while resuming, the device lost the
        deck while the table was down (``restart``, the cause by its code: the alarm shows the
        reason in the dealer's language); else ``why`` itself."""
        if not self.resuming or why.code not in RESTART_CODES:
            return why
        detail = f"the device lost the deck while the table was down ({why.code}"
        detail += f": {why.detail})" if why.detail else ")"
        return VoidReason("restart", detail, why.causes)
