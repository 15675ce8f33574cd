"""Hold'em demo hands: a side pot, a split pot with an odd chip and a muck, a refused amount and
an undo, a void."""

from __future__ import annotations

from ui.poker.demo import Script

PLAYERS = ((1, "Anna", 40000), (3, "Bruno", 10000), (5, "Carla", 20000), (7, "Dario", 8000))

HANDS = (
    Script(
        "side_pot",
        {1: "KsKd", 3: "7c2d", 5: "QsQd", 7: "AsAd"},
        "Ah9c5d3sJh",
        {
            (0, 7): "raise:max",
            (0, 1): "call",
            (0, 3): "fold",
            (0, 5): "call",
            (1, 5): "bet:2500",
            (1, 1): "call",
        },
    ),
    Script(
        "split_pot",
        {1: "AcKd", 3: "AdKh", 5: "QcJd", 7: "2h3d"},
        "5c6d7h8s9c",
        {(0, 5): "fold"},
        {7: False},
    ),
    Script(
        "refused_undo",
        {1: "2c3c", 3: "4d5d", 5: "6h7h", 7: "8s9s"},
        "TcJcQdKdAh",
        {(0, 3): "undo_call", (0, 5): "small_raise"},
    ),
    Script("void", {1: "2d3h", 3: "4c5h", 5: "6c7d", 7: "8h9h"}, "TdJdQhKhAs", {}),
)
