"""``--demo N``: the console plays N hands by itself, tapping like a dealer, and saves a screenshot
of every phase (a headless way to see it work).

Bets come from the seeded player model; decisions are seeded random choices among the legal
buttons shown, putting money in as often as the game's strategy says a player who never sees
the cards does (``PlayerStrategy.money_in_rates``: the console never knows the hole cards, so
nobody here plays "well"). When the table falls back to the dealer's keypad the demo types cards
from its own shuffled deck; it cannot read an unreadable card, so it voids that hand.

The demo drives a :class:`DemoConsole` (what :class:`ui.console.app.Console` is) and imports
nothing of the app, which starts it.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QWidget

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.config import TableConfig
from dealer_assist.engine.rules import Action
from dealer_assist.players import PlayerModel
from ui.console.presenter import ConsolePresenter
from ui.console.view import ConsoleView, Step
from ui.money import fmt_money

DELAY_MS = 60
STALL_MS = 30000  # no progress for this long ends the demo with an error


class DemoConsole(Protocol):
    """What the demo drives: a started console (:class:`ui.console.app.Console`)."""

    @property
    def presenter(self) -> ConsolePresenter:
        """The view-model the demo taps."""

    @property
    def config(self) -> TableConfig:
        """The table."""

    @property
    def window(self) -> QWidget:
        """The window the screenshots are taken of."""


class DemoDriver(QObject):
    """Drives a console through ``hands`` hands; emits ``finished`` at the end.

    Args:
        console: a started console (:class:`DemoConsole`).
        hands: hands to play.
        shots: folder for the screenshots (created), or None for none.
        seed: seeds bets and decisions.
    """

    finished = Signal()

    def __init__(self, console: DemoConsole, hands: int, shots: Path | None, *, seed: int = 1):
        super().__init__()
        self.console = console
        self.p = console.presenter
        self.hands = hands
        self.shots = shots
        self.rng = random.Random(seed)
        self.model = PlayerModel(console.config, seed)
        self.hand = 0
        self.saved: list[Path] = []
        self.ok = True
        self.summary: list[str] = []
        self._summed = 0  # the last hand whose settlement is in the summary
        self._taken: set[str] = set()
        self._pending = False
        self._done = False
        self._bets_placed = False
        self._deck: list[Card] = []
        self._deck_hand = ""
        self._watchdog = QTimer(self)
        self._watchdog.setSingleShot(True)
        self._watchdog.timeout.connect(self._stalled)

    def start(self) -> None:
        """Begin (the console must be started)."""
        if self.shots is not None:
            self.shots.mkdir(parents=True, exist_ok=True)
        self.p.subscribe(self._on_view)
        self._watchdog.start(STALL_MS)
        self._schedule()

    def report(self) -> None:
        """Print what was played and saved."""
        for line in self.summary:
            print(line)
        if self.shots is not None:
            print(f"{len(self.saved)} screenshots in {self.shots}")

    # -- internals --------------------------------------------------------------------------------
    def _on_view(self, view: ConsoleView) -> None:
        self._watchdog.start(STALL_MS)
        if view.step is Step.DEALING and not view.busy:  # the deal may be in before _step
            self._shot_busy(view)
        self._schedule()

    def _schedule(self) -> None:
        if not self._pending and not self._done:
            self._pending = True
            QTimer.singleShot(DELAY_MS, self._step)

    def _shot(self, name: str) -> None:
        key = f"{self.hand}:{name}"
        if key in self._taken:
            return
        self._taken.add(key)
        if self.shots is None:
            return
        n = sum(1 for k in self._taken if k.startswith(f"{self.hand}:"))
        path = self.shots / f"hand{self.hand:02d}_{n:02d}_{name}.png"
        QApplication.sendPostedEvents()  # pending relayouts first, as a screen would show
        QApplication.processEvents()
        self.console.window.grab().save(str(path))
        self.saved.append(path)

    def _finish(self, ok: bool = True) -> None:
        self._done = True
        self.ok = self.ok and ok
        self._watchdog.stop()
        self.finished.emit()

    def _stalled(self) -> None:
        print(f"demo: no progress for {STALL_MS / 1000:g} s, stopping", file=sys.stderr)
        self._finish(ok=False)

    def _step(self) -> None:
        self._pending = False
        if self._done:
            return
        view = self.p.view()
        if view.notice is not None:
            self._shot("source_switched")
            self.p.dismiss_notice()
        if view.step is Step.MANUAL:
            self._type(view)
            return
        if view.busy or view.step is Step.DEALING:
            self._shot_busy(view)
            return
        step = view.step
        if step is Step.CONNECTING:
            if view.device.error:
                print(f"demo: {view.device.error}", file=sys.stderr)
                self._finish(ok=False)
            return
        if step is Step.BETS:
            self._bets(view)
        elif step in (Step.DECISIONS, Step.SHOWDOWN):
            self._decisions(view)
        elif step is Step.REVEAL:
            self._shot("reveal")
            self.p.dealer_button()
        elif step is Step.SETTLEMENT:
            self._settle(view)
        elif step is Step.VOID:
            self._shot("void")
            self.summary.append(f"hand {self.hand}: void ({view.void_reason})")
            if not self._end_hand():
                self.p.acknowledge_void()
        elif step is Step.IDENTIFY:
            self._shot("unreadable_card")
            self.p.void_hand()  # arm
            self.p.void_hand()  # confirm
        elif step is Step.IDLE:
            QTimer.singleShot(1000, self.p.dealer_button)

    def _type(self, view: ConsoleView) -> None:
        """The keypad is the card source: type the next card of a deck shuffled per hand."""
        entry = view.entry
        if entry is None or entry.waiting:
            return
        uid = self.p.snap.hand_uid
        if uid != self._deck_hand:
            self._deck_hand, self._deck = uid, self.rng.sample(FULL_DECK, len(FULL_DECK))
        self._shot("manual_entry")
        if self._deck:
            self.p.card_entered(self._deck.pop())

    def _shot_busy(self, view: ConsoleView) -> None:
        if view.step is Step.DEALING:
            self._shot("rien_ne_va_plus")

    def _bets(self, view: ConsoleView) -> None:
        if self._bets_placed:
            self._shot("bets_open")
            self.p.dealer_button()  # rien ne va plus
            return
        if self.hand >= self.hands:
            self._finish()
            return
        self.hand += 1
        seats = self.console.config.seats
        chosen = sorted(self.rng.sample(range(1, seats + 1), self.rng.randint(2, seats)))
        if view.can_repeat and self.rng.random() < 0.3:
            self.p.repeat_last()
        else:
            for seat in chosen:
                self.p.tap_seat(seat)
                for box, amount in self.model.bets().items():
                    if box in self.p.book.follows:
                        continue
                    self.p.select_box(box)
                    for c in _chips(amount, self.console.config.chips):
                        self.p.tap_chip(c)
        self.p.tap_seat(chosen[0])
        self._bets_placed = True
        self._schedule()

    def _decisions(self, view: ConsoleView) -> None:
        name = view.street or "showdown"
        self._shot(f"{name}")
        to_act = [s for s in view.seats if s.legal]
        if to_act:
            seat = to_act[0]
            self.p.decide(seat.seat, self._choose(view.street or "", seat.legal))
            return
        self.p.dealer_button()

    def _choose(self, street: str, legal: tuple[Action, ...]) -> Action:
        game = self.p.book.game
        money_in = [a for a in legal if a.action in game.stake_actions]
        if money_in and self.rng.random() < game.strategy.money_in_rate(street):
            return self.rng.choice(money_in)
        return legal[-1]

    def _settle(self, view: ConsoleView) -> None:
        current = next((r for r in view.settlement if r.state == "current"), None)
        if current is not None:
            if current is view.settlement[0]:
                self._shot("settlement")
            self.p.dealer_button()  # next
            return
        if self._summed != self.hand:  # a view drawn again before the new hand is not a second hand
            self._summed = self.hand
            self._shot("settlement_done")
            cur = self.console.config.currency
            nets = ", ".join(f"seat {r.seat} {_signed(r.net, cur)}" for r in view.settlement)
            self.summary.append(f"hand {self.hand}: settled ({nets})")
        if not self._end_hand():
            self.p.dealer_button()  # new hand

    def _end_hand(self) -> bool:
        """True when that was the last hand (the demo is finished)."""
        self._bets_placed = False
        if self.hand >= self.hands:
            self._finish()
            return True
        return False


def _signed(net: int, currency: str) -> str:
    """A seat's net for the summary: ``+EUR 165.00``, ``-EUR 4.00``, ``EUR 0.00``."""
    return ("+" if net > 0 else "") + fmt_money(net, currency)


def _chips(amount: int, chips: tuple[int, ...]) -> list[int]:
    """Greedy split of ``amount`` (minor units) into the table's chips."""
    out = []
    for c in sorted(chips, reverse=True):
        while amount >= c:
            out.append(c)
            amount -= c
    return out
