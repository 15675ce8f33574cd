"""What a table's service is made of, whatever its game: :class:`ServiceParts`, built once by
the console's start-up (or a test) and given to either console's service
(:class:`ui.console.service.TableService`, :class:`ui.poker.service.PokerService`) or console
(:class:`ui.console.app.Console`, :class:`ui.poker.app.PokerConsole`). Qt-free."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.config import TableConfig
from dealer_assist.storage.journal import Journal
from ui.kit.card_source import DEFAULT_TIMEOUTS, Timeouts
from ui.kit.pitboss import PitBossRoster
from ui.kit.sources import SourceFactory
from ui.kit.table_link import TableLink


@dataclass(frozen=True)
class ServiceParts:
    """One table's service parts.

    Attributes:
        config: the table.
        make_source: builds the (unopened) card source, e.g. ``lambda: open_source(url)``
            (:func:`ui.kit.boot.source_factory`).
        journal: an unopened journal, or None to keep no record (tests of the view only); its
            storage faults and notices reach the screen (:mod:`ui.kit.storage_faults`). The
            service opens and closes it on its worker thread.
        timeouts: what the runner waits for a card, by the source in use (seconds).
        roster: pit bosses with PINs who confirm an identified unreadable card; None (or empty):
            the badge alone confirms.
        dealer: who deals (recorded with the cards the dealer identifies and the changes
            between hands).
    """

    config: TableConfig
    make_source: SourceFactory
    journal: Journal | None
    timeouts: Timeouts = DEFAULT_TIMEOUTS
    roster: PitBossRoster | None = None
    dealer: str = "dealer"

    def link(self) -> TableLink:
        """A new :class:`~ui.kit.table_link.TableLink` over these parts' journal and source."""
        return TableLink(self.config.table_id, self.make_source, self.journal, self.timeouts)
