"""The action bar: Fold, Check or Call (with the amount) or the forced bet its seat decides
(Stud's Bring-in), Bet, Raise or Complete (to the keyed amount: in fixed limit the one total
there is), only the legal ones enabled; Undo (while the runner allows) and Void hand (tap
twice). The kinds are the view's: a game offers what it has."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QPushButton, QWidget

from ui.kit.format import money
from ui.kit.labels import restyle, set_text
from ui.kit.translate import tr, trf
from ui.poker.presenter import PokerPresenter, PokerView
from ui.poker.snapshot import FORCED_KIND
from ui.poker.texts import kind_name, void_label

MIDDLE = ("check", "call", FORCED_KIND)
"""The middle button's kinds (one at a time; Check when none is open)."""
RIGHT = ("bet", "raise", "complete")
"""The right button's kinds (one at a time; Bet when none is open)."""


class ActionBar(QWidget):
    """The seat to act's buttons; ``buttons`` by kind (``fold``, ``check``, ``call``,
    ``bring_in``, ``bet``, ``raise``, ``complete``), plus ``undo`` and ``void``.

    ``forced``: the amount of the forced bet a seat decides (the table's bring-in), for its
    button's second line; 0: none shown."""

    def __init__(self, presenter: PokerPresenter, currency: str, forced: int = 0) -> None:
        super().__init__()
        self.p = presenter
        self.currency = currency
        self.forced = forced
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(8)
        self.buttons: dict[str, QPushButton] = {}
        for kind in ("fold", *MIDDLE, *RIGHT):
            b = QPushButton(kind_name(kind))
            b.setObjectName("pAction")
            b.setProperty("kind", kind)
            b.clicked.connect(lambda _=False, k=kind: self.p.tap_action(k))
            self.buttons[kind] = b
        grid.addWidget(self.buttons["fold"], 0, 0)
        for kind in MIDDLE:
            grid.addWidget(self.buttons[kind], 0, 1)
        for kind in RIGHT:
            grid.addWidget(self.buttons[kind], 0, 2)
        self.undo = QPushButton(tr("Undo"))
        self.undo.setObjectName("pUndo")
        self.undo.clicked.connect(self.p.tap_undo)
        self.void = QPushButton(tr("Void hand"))
        self.void.setObjectName("voidButton")
        self.void.clicked.connect(self.p.tap_void)
        row = QHBoxLayout()  # "Confirm: void the hand" needs more room than "Undo"
        row.setSpacing(8)
        row.addWidget(self.undo, 2)
        row.addWidget(self.void, 3)
        grid.addLayout(row, 1, 0, 1, 3)

    def show_view(self, view: PokerView) -> None:
        """Enable what is legal for the seat to act; label call and bet/raise with amounts."""
        legal = view.legal if view.step == "betting" else None
        kinds = legal.kinds if legal is not None else ()
        cur = self.currency
        shut = legal.shut[0] if legal is not None and legal.shut is not None else None
        for group in (MIDDLE, RIGHT):
            # a raise that is not open stays "Raise" (greyed, the panel says why), never "Bet"
            shown = next((k for k in group if k in kinds or k == shut), group[0])
            for kind in group:
                self.buttons[kind].setVisible(kind == shown)
        for kind, b in self.buttons.items():
            # a bet or raise only with a legal amount keyed: an illegal one is never offered
            ok = kind not in RIGHT or view.amount_ok
            b.setEnabled(kind in kinds and ok and not view.busy)
        if legal is not None and legal.to_call:
            owed = "\n" + money(legal.to_call, cur)  # a variable: a literal would be a comment
            set_text(self.buttons["call"], trf("Call %1", owed))
        else:
            set_text(self.buttons["call"], kind_name("call"))
        forced = kind_name(FORCED_KIND)
        amount = view.snap.forced_amount or self.forced  # a tournament's: the hand's level's
        if amount:
            forced += "\n" + money(amount, cur)
        set_text(self.buttons[FORCED_KIND], forced)
        for kind in RIGHT:
            b = self.buttons[kind]
            text = kind_name(kind)
            if kind in kinds and view.amount_ok:
                text = trf("%1 to %2", text, "\n" + money(view.amount, cur))
            set_text(b, text)  # the amount only once it is legal (the hint says why not)
        self.undo.setEnabled(view.snap.can_undo and not view.busy)
        self.void.setEnabled(view.snap.in_hand)
        restyle(self.void, armed=view.void_armed)
        set_text(self.void, void_label(view.void_armed))
