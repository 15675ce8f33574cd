"""Assembling and running the poker console: the service on the shared worker thread, the
presenter, the window (``dealer-assist console --game holdem``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from dealer_assist.errors import ConfigError
from dealer_assist.events import utc_now
from dealer_assist.tournament.live_table import LiveTable
from ui.kit.i18n import ConsoleLanguage
from ui.kit.service_parts import ServiceParts
from ui.kit.worker import WorkerBridge
from ui.poker.presenter import PokerPresenter
from ui.poker.service import PokerService, execute
from ui.poker.window import PokerWindow
from ui.tournament.level_strip import LevelStrip, attach_level_strip


class PokerConsole:
    """One poker console: the service on its worker thread, the presenter and the window.

    Args:
        parts: the table (``config.poker`` its game), its card source, the journal (opened and
            closed by the service on the worker thread), the seconds per card, the pit bosses
            who confirm an identified unreadable card and the dealer who makes the changes
            between hands (:class:`~ui.kit.service_parts.ServiceParts`).
        lang: ``it`` or ``en``.
        tournament: a tournament table: the id of the tournament in the table's journal ("":
            the last one playing at this table): each hand at the level in force when it
            starts (:mod:`dealer_assist.tournament.live_table`), the level and the action
            clock on the strip (:mod:`ui.tournament.level_strip`); None: not a tournament table.
        now: the wall clock the tournament's clock runs on (a test or a rehearsal passes its
            own).

    ``start()`` starts the worker and connects; ``close()`` closes everything (idempotent).
    Raises ConfigError when Qt's application does not exist yet or the table is not a pot game.
    """

    def __init__(
        self,
        parts: ServiceParts,
        *,
        lang: str = "it",
        tournament: str | None = None,
        now: Callable[[], datetime] = utc_now,
    ) -> None:
        config = parts.config
        if config.poker is None:
            raise ConfigError(f"table {config.table_id}: not a poker-room game ({config.game})")
        self.language = ConsoleLanguage(lang)
        self.config = config
        self.service = PokerService(parts)
        self.bridge = WorkerBridge(self.service, execute)
        self.presenter = PokerPresenter(config, self.bridge.send, enter=self.service.enter_card)
        self.bridge.snapshot.connect(self.presenter.on_snapshot)
        self.window = PokerWindow(self.presenter, config, lang)
        self.level_strip: LevelStrip | None = None  # a tournament table: level, action clock
        if tournament is not None:  # its hands at the level in force (on the worker thread)
            self.service.tournament = LiveTable(config, tournament or None, now=now)
            self.level_strip = attach_level_strip(
                self.window, self.presenter, config, tournament_id=tournament or None, now=now
            )

    def start(self) -> None:
        """Start the worker thread and connect the source."""
        self.bridge.start()
        self.presenter.start()

    def close(self) -> None:
        """Stop the worker (closing source and journal), close the window, remove this console's
        translators."""
        self.bridge.shutdown()
        if self.level_strip is not None:
            self.level_strip.stop()
        self.window.close()
        self.language.remove()
