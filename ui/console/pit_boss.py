"""The pit boss's forms on the banked console: a decision corrected after the next cards, and
the hand history with its hole cards. Qt-free; :class:`PitBossForms` is a collaborator of
:class:`ui.console.presenter.ConsolePresenter`.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from dealer_assist.engine.rules import Action
from ui.console.commands import CloseHistory, Correct, OpenHistory, Undo
from ui.console.desk import Console
from ui.console.snapshot import TableSnapshot
from ui.console.view import CorrectForm, HistoryPad, Message, Step
from ui.kit.pin_entry import PitBossEntry


class PitBossForms:
    """*Change* on a seat (undo this street's decision, or the pit boss's correction of one on a
    street past) and the history's pad.

    ``correcting`` is the correction form open (None: none); ``history_pad`` the pit boss's pad
    in the history (None: closed). The badge and PIN are typed into ``pins``.
    """

    def __init__(self, console: Console, pins: PitBossEntry) -> None:
        self.console, self.pins = console, pins
        self.correcting: CorrectForm | None = None
        self.history_pad: HistoryPad | None = None

    @property
    def _snap(self) -> TableSnapshot:
        return self.console.screen.snap

    def on_snapshot(self, old: TableSnapshot, snap: TableSnapshot) -> None:
        """The hand moved on: a correction of a seat no longer correctable closes."""
        form = self.correcting
        if form is not None and (
            snap.hand_uid != old.hand_uid or form.seat not in dict(snap.correctable)
        ):
            self.correcting = None

    # -- corrections ------------------------------------------------------------------------------
    def undo_decision(self, seat: int) -> None:
        """Take back ``seat``'s decision on this street (until the next card is turned)."""
        console = self.console
        if console.busy or console.step() is not Step.DECISIONS or seat not in self._snap.undoable:
            return
        console.screen.disarm()
        console.screen.message = None
        console.command(partial(Undo, seat=seat))

    def undo_or_correct(self, seat: int) -> None:
        """*Change* on a seat: its decision on this street is taken back; one on a street
        already past opens the pit boss's correction (refused without a roster)."""
        if seat in self._snap.undoable:
            self.undo_decision(seat)
            return
        choices = dict(self._snap.correctable).get(seat)
        console = self.console
        if choices and not console.busy and console.step() is Step.DECISIONS:
            console.screen.disarm()
            if not self._snap.pin_required:  # no roster: a badge alone authorises nothing
                console.screen.message = Message("no_roster")
                console.changed()
                return
            self.pins.clear()
            self.correcting = CorrectForm(seat, choices)
            console.screen.message = None
            console.changed()

    def choose_correction(self, action: Action) -> None:
        """The decision the player really took (one of the form's choices)."""
        form = self.correcting
        if form is not None and action in form.choices:
            self.correcting = replace(form, choice=action, field="badge")
            self.console.changed()

    def correction_key(self, key: str) -> None:
        """The pit boss's pad of the correction: digits, ``back``, ``next`` (badge -> PIN ->
        send), ``cancel``."""
        form = self.correcting
        if form is None:
            return
        pins = self.pins
        if key == "cancel":
            self.correcting = None
            pins.clear()
        elif (choice := form.choice) is None:
            return
        elif key == "next":
            need_pin = self._snap.pin_required
            if form.field == "badge" and pins.badge and need_pin:
                form = replace(form, field="pin")
            elif pins.badge and (pins.pin or not need_pin):
                fix = Correct(0, form.seat, choice, *pins.take())
                self.correcting = None
                self.console.command(lambda seq: replace(fix, seq=seq))
                return
        else:
            pins.key(form.field, key)
        if self.correcting is not None:
            self.correcting = replace(form, badge=pins.badge, pin_len=len(pins.pin))
        self.console.changed()

    # -- the hand history -------------------------------------------------------------------------
    def can_history(self) -> bool:
        """The dealer may open the history now (between hands)."""
        return not self.console.busy and self.console.step() in (Step.BETS, Step.IDLE)

    def open_history(self) -> None:
        """Open the last hands (without hole cards)."""
        if not self.can_history():
            return
        self.console.screen.disarm()
        self.history_pad = None
        self.console.command(OpenHistory)

    def close_history(self) -> None:
        """Close the history (and forget the pit boss's entry)."""
        self.history_pad = None
        self.pins.clear()
        if self._snap.history is not None:
            self.console.command(CloseHistory)
        else:
            self.console.changed()

    def history_key(self, key: str) -> None:
        """The pit boss's pad in the history: ``cards`` opens it, digits, ``back``, ``next``
        (badge -> PIN -> send), ``cancel``."""
        if self._snap.history is None:
            return
        pad, pins = self.history_pad, self.pins
        if key == "cards":
            pins.clear()
            self.history_pad = HistoryPad("", 0, "badge")
        elif pad is None:
            return
        elif key == "cancel":
            self.history_pad = None
            pins.clear()
        elif key == "next":
            if pad.field == "badge" and pins.badge:
                if not self._snap.pin_required:
                    self._send_pit_boss()
                    return
                self.history_pad = HistoryPad(pins.badge, 0, "pin")
            elif pad.field == "pin" and pins.pin:
                self._send_pit_boss()
                return
        else:
            pins.key(pad.field, key)
        if self.history_pad is not None:
            field = self.history_pad.field
            self.history_pad = HistoryPad(pins.badge, len(pins.pin), field)
        self.console.changed()

    def _send_pit_boss(self) -> None:
        badge, pin = self.pins.take()
        self.history_pad = None
        self.console.command(partial(OpenHistory, badge=badge, pin=pin))
