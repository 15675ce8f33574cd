"""The amount the dealer keys at the poker console: a bet or raise total during a hand, a
buy-in or top-up between hands. Qt-free; :class:`AmountKeys` is a collaborator of
:class:`ui.poker.presenter.PokerPresenter`.

The amount is keyed with chips, the numeric keypad (whole units: euros, chips at a
tournament), the rule's minimum, pot, half-pot or all-in. Under a fixed limit the one total
there is stays keyed whatever is tapped. Whether the total is legal is the rule's
(:func:`ui.poker.views.amount_issue`), said when it is sent.
"""

from __future__ import annotations

from dealer_assist.config import TableConfig
from ui.kit.format import CHIPS
from ui.poker.desk import Console
from ui.poker.snapshot import PokerSnapshot

DIGITS = 7
"""Digits the numeric keypad takes (whole units)."""


class AmountKeys:
    """The amount being keyed (minor units) and the digits typed for it (see the module
    docstring).

    Args:
        console: the presenter (:class:`~ui.poker.desk.Console`).
        config: the table (its ``currency``: chips are whole, euros have cents).
    """

    def __init__(self, console: Console, config: TableConfig) -> None:
        self.console = console
        self.unit = 1 if config.currency == CHIPS else 100
        self.amount = 0
        self.typed: str | None = None  # the digits typed on the numeric keypad, if typing

    def new_turn(self, snap: PokerSnapshot) -> None:
        """Another seat to act, street or hand: a new amount, the one total there is (fixed
        limit, a short stack's all-in) keyed already."""
        legal = snap.legal
        only = legal.only if legal is not None else None
        self.amount = only if only is not None and legal is not None and legal.bet_kind else 0
        self.typed = None

    def reset(self) -> None:
        """Nothing keyed (a seat selected, a change sent)."""
        self.amount, self.typed = 0, None

    def all_in(self) -> None:
        """Key the maximum (all of the actor's stack)."""
        legal = self.console.screen.snap.legal
        if legal is not None and legal.maximum is not None:
            self.set(legal.maximum)

    def minimum(self) -> None:
        """Key the minimum bet/raise total."""
        legal = self.console.screen.snap.legal
        if legal is not None and legal.minimum is not None:
            self.set(legal.minimum)

    def pot(self, half: bool = False) -> None:
        """Key the engine's pot-sized (``half``: half-pot) total; nothing when it offers
        none."""
        legal = self.console.screen.snap.legal
        to = None if legal is None else legal.half_pot if half else legal.pot
        if to is not None:
            self.set(to)

    def digit(self, key: str) -> None:
        """``0``-``9`` type the amount in whole units, a new number after any other key;
        ``back`` takes the last digit off."""
        typed = self.typed if self.typed is not None else ""
        typed = typed[:-1] if key == "back" else (typed + key)[:DIGITS] if key.isdigit() else typed
        self.set(int(typed or 0) * self.unit)
        self.typed = typed

    def chip(self, value: int) -> None:
        """Add a chip of ``value`` (minor units)."""
        self.set(self.amount + value)

    def set(self, amount: int) -> None:
        """Key ``amount`` (a digit then starts a new number); under a fixed limit the one
        total there is."""
        console = self.console
        screen = console.screen
        screen.disarm()
        self.typed = None
        legal = screen.snap.legal
        if legal is not None and legal.only is not None and legal.bet_kind is not None:
            amount = legal.only
        self.amount = max(0, amount)
        if screen.message is not None and screen.message.code != "refused":
            screen.message = None
        console.changed()
