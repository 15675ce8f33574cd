"""One table of a tournament rehearsal (``dealer-assist tournament rehearse``): the dealer's real
console services and presenters, tapped as a dealer would.

A :class:`TableRig` is the table's :class:`~ui.tournament.table_driver.TableDriver` (the real
:class:`~ui.poker.service.PokerService` and :class:`~ui.poker.presenter.PokerPresenter`, cards
typed on the keypad source, the level in force set by
:class:`~dealer_assist.tournament.live_table.LiveTable` on each hand) with the console's level
strip (:class:`~ui.tournament.level_strip.LevelStrip`: the level, the action clock, the time
bank) and its time-outs (:class:`~ui.tournament.timeouts.TimeOuts`: the table checks or folds
for a player whose time is up, and for a player in sit-out). The strip's clock is the
rehearsal's fast clock: a decision takes the seconds the rehearsal moves it on by.

The strip is told of each view as the console's window would tell it (after each tap, never
from inside one: the console's service answers on its worker thread). A window is put over the
presenter only when a screenshot is asked for (:meth:`TableRig.window`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from PySide6.QtWidgets import QMainWindow

from dealer_assist.config import TableConfig
from dealer_assist.errors import DealerAssistError
from dealer_assist.ports import StoredHand
from ui.tournament.board import Snapshot
from ui.tournament.level_strip import LevelStrip, place_strip
from ui.tournament.table_driver import TableDriver
from ui.tournament.timeouts import Record, TimeOuts

TAPS_PER_HAND = 2000  # taps a hand may take before the rehearsal calls it stuck (a bug)


class RehearsalError(DealerAssistError):
    """The rehearsal could not go on (a hand that does not finish, a tap refused that the rules
    allow): a bug the rehearsal found, said with the table and the hand."""


@dataclass
class HandPlayed:
    """A hand a rig played: its record as journaled, the level in force when it ended (None:
    a break), the time-out the table enforced in it ``(player, kind)`` (the player whose
    time ran out), and how many times it checked or folded for a player in sit-out."""

    stored: StoredHand
    level_at_end: int | None
    timed_out: tuple[tuple[str, str], ...]
    sat_out_taps: int


Moment = Callable[[], None]
"""Called at a moment of a hand (a screenshot, the clock moved on)."""


class TableRig:
    """Table ``config.table_id``'s console in the rehearsal.

    Args:
        config: the table the tournament assigns (:func:`ui.tournament.table_config.
            assigned_table`). url: the tournament's journal. tournament_id: its id.
        now: the fast clock; advance: moves it on by seconds (a decision's thinking time).
        record: where the table's sit-out records go (:data:`~ui.tournament.timeouts.Record`).
        seed: the decks' and the decisions' seed.
    """

    def __init__(
        self,
        config: TableConfig,
        url: str,
        tournament_id: str,
        *,
        now: Callable[[], datetime],
        advance: Callable[[float], None],
        record: Record,
        seed: int,
    ) -> None:
        self.config = config
        self.table_id = config.table_id
        self.seed = seed
        self.advance = advance
        self.driver = TableDriver(config, url, tournament_id, now=now, seed=seed)
        self.strip = LevelStrip(now=now)
        self.strip.table_id = config.table_id
        self.timeouts = TimeOuts(self.driver.p, record, config.table_id)
        self.strip.timeouts = self.timeouts
        self._window: Any = None
        self.opened = False

    # -- lifecycle ------------------------------------------------------------------------------
    def open(self) -> None:
        """Connect the console (a hand a crash left is resumed by the service)."""
        self.driver.open()
        self.opened = True

    def close(self) -> None:
        """Close the console and its strip (idempotent)."""
        self.strip.stop()
        if self._window is not None:
            self._window.close()
        if self.opened:
            self.driver.close()
            self.opened = False

    def window(self, lang: str = "en") -> QMainWindow:
        """The console's window over the same presenter, the strip over its felt (made on
        first use: the screenshots)."""
        if self._window is None:
            from ui.poker.window import PokerWindow

            self._window = PokerWindow(self.driver.p, self.config, lang)
            place_strip(self._window, self.strip)
            self.strip.show()
        return self._window  # type: ignore[no-any-return]

    # -- what the console's screens are told ----------------------------------------------------
    def show(self, snap: Snapshot) -> None:
        """The tournament as its journal says now (the strip's feed)."""
        self.strip.set_snapshot(snap)
        self._view()

    def _view(self) -> None:
        """The strip told of the presenter's view (the seat to act), then redrawn: its
        action clock runs, the table taps for a player in sit-out."""
        self.strip.on_view(self.driver.p.view())
        self.strip.refresh()
        self.strip.on_view(self.driver.p.view())

    @property
    def level_shown(self) -> int | None:
        """The level the strip shows in force (None: a break or nothing shown yet)."""
        b = self.strip.board
        if b is None or b.on_break:
            return None
        return b.level.number

    # -- a hand ---------------------------------------------------------------------------------
    def new_hand(self) -> str:
        """Tap *New hand*; '' when it started, else the console's refusal (a break, the
        director's pause)."""
        snap = self.driver.new_hand()
        if snap.error is not None:
            return snap.error.message
        if not snap.in_hand:
            return "no hand started"
        return ""

    def play(
        self,
        rng: random.Random,
        *,
        think: float,
        time_out: bool = False,
        moment: Moment | None = None,
    ) -> HandPlayed:
        """Deal and decide until the hand in progress is over (started by :meth:`new_hand`,
        or resumed after a restart). Each decision takes ``think`` seconds of the fast clock;
        with ``time_out`` the first player to act who may check or fold lets their action clock
        and time bank run out (the table checks or folds for them, then sits them out).
        ``moment`` is called after each decision (a screenshot, the level change).

        Raises:
            RehearsalError: the hand does not finish, or a tap is refused.
        """
        d = self.driver
        uid = d.p.snap.hand_uid
        before = len(self.timeouts.enforced)
        pending_timeout = time_out
        timed: tuple[tuple[str, str], ...] = ()
        d.deal()
        self._view()
        for _ in range(TAPS_PER_HAND):
            snap = d.p.snap
            if not snap.in_hand:
                break
            if snap.error is not None:
                raise RehearsalError(f"{self.table_id} hand {uid}: {snap.error.message}")
            legal = snap.legal
            if legal is None:
                d.deal()
                self._view()
                continue
            name = self.timeouts.actor_name()
            # a time-out shown on a decision that checks or folds (not a Stud bring-in)
            kinds = set(legal.kinds)
            may_time_out = bool({"check", "fold"} & kinds) and "bring_in" not in kinds
            if name is not None and name in self.timeouts.out:
                self._view()  # the table taps for a player in sit-out
            elif pending_timeout and may_time_out:
                pending_timeout = False
                at = len(self.timeouts.enforced)
                s = self.strip.snap
                level = self.strip.board.level if self.strip.board else None
                action = level.action_seconds if level is not None else 30
                bank = s.structure.time_bank_seconds if s is not None else 0
                self.advance(action + bank + 1)  # nobody taps: the action clock, then the bank
                self._view()
                timed = tuple(self.timeouts.enforced[at : at + 1])
            else:
                self.advance(think)
                d.decide(rng)
                self._view()
            if moment is not None:
                moment()
            d.deal()
            self._view()
        else:
            raise RehearsalError(
                f"{self.table_id}: hand {uid} did not finish in {TAPS_PER_HAND} taps"
            )
        d.p.tap_done()  # the dealer has paid the pots: Next, on to between hands
        self._view()
        journal = d.service.journal
        stored = journal.last_hand() if journal is not None else None
        if stored is None or stored.hand_uid != uid or stored.table_id != self.table_id:
            stored = _find(journal, self.table_id, uid)
        taps = len(self.timeouts.enforced) - before - len(timed)
        return HandPlayed(stored, self.level_shown, timed, taps)


def _find(journal: Any, table_id: str, uid: str) -> StoredHand:
    """Hand ``uid`` of ``table_id`` in the journal (from the end). Raises RehearsalError."""
    for stored in reversed(list(journal.iter_hands(1))):
        if stored.table_id == table_id and stored.hand_uid == uid:
            return stored  # type: ignore[no-any-return]
    raise RehearsalError(f"{table_id}: hand {uid} is not in the journal")
