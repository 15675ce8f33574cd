"""The digit pad a pit boss types a badge and PIN on (sign-off, corrections, the hand history)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QGridLayout, QPushButton, QWidget

KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "back", "0", "next")
"""The pad's keys, three a row; ``back`` deletes a digit, ``next`` is OK."""


def pin_pad(
    on_key: Callable[[str], None] | None,
    *,
    next_text: str = "OK",
    spacing: int = 6,
    key_size: tuple[int, int] | None = None,
) -> tuple[QWidget, dict[str, QPushButton]]:
    """A pad of :data:`KEYS` telling ``on_key`` (None: not wired) which key was tapped; the
    widget and its buttons by key. ``next_text`` titles the ``next`` key, ``key_size`` (px) is
    each key's minimum size."""
    pad = QWidget()
    grid = QGridLayout(pad)
    grid.setContentsMargins(0, 0, 0, 0)
    grid.setSpacing(spacing)
    keys: dict[str, QPushButton] = {}
    for i, key in enumerate(KEYS):
        b = QPushButton("⌫" if key == "back" else (next_text if key == "next" else key))
        b.setObjectName("pinKey")
        if key_size is not None:
            b.setMinimumSize(*key_size)
        if on_key is not None:
            b.clicked.connect(lambda _=False, k=key: on_key(k))
        grid.addWidget(b, i // 3, i % 3)
        keys[key] = b
    return pad, keys
