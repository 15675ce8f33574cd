"""A seat's cards drawn large on the poker felt (:mod:`ui.poker.widgets.felt`): its face-up
cards (Stud's door and up cards, a hand shown at the showdown) in deal order, the down cards as
narrow backs."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from ui.kit.card_view import CardView
from ui.kit.cards import CardFace


class HandRow(QWidget):
    """A seat's cards on the felt in deal order, overlapping: a back shows a narrow edge, a
    face-up card its whole face (or, short of room, its corner index: rank and suit)."""

    def __init__(self, size: int, parent: QWidget) -> None:
        super().__init__(parent)
        self.cards = [CardView(44, self) for _ in range(size)]
        self.room = 10**6  # the widest the row may be (pixels)
        self._faces: tuple[CardFace, ...] = ()

    def set_card_width(self, width: int, room: int) -> None:
        """Every card ``width`` pixels wide, the row at most ``room`` pixels if it can."""
        for c in self.cards:
            c.set_card_width(width)
        self.room = room
        self._layout()

    def set_hand(self, faces: tuple[CardFace, ...]) -> None:
        """Show ``faces`` (cards or ``back``), the rest of the slots hidden."""
        self._faces = faces[: len(self.cards)]
        self._layout()

    def _layout(self) -> None:
        faces = self._faces
        w = self.cards[0].width() if self.cards else 0
        up = sum(1 for f in faces if f != "back")
        wide = (len(faces) - up) * 0.45 * w + up * (w + 3)
        full = 1.0 if wide <= self.room else 0.62  # the index stays clear of the next card
        x = 0.0
        for i, c in enumerate(self.cards):
            if i >= len(faces):
                c.set_face("empty")
                c.hide()
                continue
            c.set_face(faces[i])
            c.move(int(x), 0)
            c.show()
            c.raise_()
            last = i == len(faces) - 1
            x += w if last else (0.45 * w if faces[i] == "back" else full * w + 3)
        height = self.cards[0].height() if self.cards else 0
        self.setFixedSize(max(1, int(x)), height)
