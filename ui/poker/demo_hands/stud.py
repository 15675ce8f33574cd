"""Seven Card Stud demo hands at the 8-seat table of ``config/stud.toml`` (fixed limit 2/4, ante
0.25, bring-in 0.50), cards in deal order (two down, the door card, 4th-6th up, 7th down; ``??``
for a card left to the deck):

- ``bring_in``: the lowest door card (2♣, seat 4) folds the bring-in, the obligation passes to
  2♦ (seat 7), who posts it; seat 8 completes, seat 3 and seat 7 call; three straights to the
  nine split the pot of 8.00 three ways: 2.50 each and two odd chips of 0.25, to the highest
  cards by suit: the K♦ (seat 8), then the Q♥ (seat 3);
- ``community``: eight players to seventh street: stub 1 card + 3 burns = 4 cards for 8
  players, the dealer shuffles the burns and turns one community card (Q♣) for everyone;
- ``side_pot``: seat 5 (the smallest stack) calls every raise of seats 1 and 8 until all-in;
  the two go on into a side pot; trip aces win the main pot, kings and queens the side pot.
"""

from __future__ import annotations

from ui.poker.demo import Script

PLAYERS = (
    (1, "Anna", 40000),
    (2, "Bruno", 20000),
    (3, "Carla", 20000),
    (4, "Dario", 20000),
    (5, "Elena", 4000),
    (6, "Franco", 20000),
    (7, "Giulia", 20000),
    (8, "Hugo", 20000),
)

_RAISES = "aggr,aggr,aggr,aggr"  # bet or raise while open, then call (the cap)

HANDS = (
    Script(
        "bring_in",
        {
            1: "????Ts",
            2: "????Jc",
            3: "5s6hQh7d8c9d4c",
            4: "????2c",
            5: "????4h",
            6: "????Th",
            7: "5h6s2d7c8d9h3s",
            8: "5d6cKd7s8h9s3c",
        },
        "",
        {
            (0, 4): "fold",
            (0, 7): "bring_in",
            (0, 8): "complete",
            (0, 1): "fold",
            (0, 2): "fold",
            (0, 3): "call",
            (0, 5): "fold",
            (0, 6): "fold",
        },
        shots=((0, 4), (0, 7), (0, 3), (1, 8)),
    ),
    Script("community", {}, "Qc", {}, shots=((0, 0), (4, 0))),
    Script(
        "side_pot",
        {
            1: "7s7dJs5c6h2h3h",
            2: "????2c",
            3: "????9s",
            4: "????8s",
            5: "AsAdAh3d9cJdKh",
            6: "????Tc",
            7: "????5s",
            8: "KsKdQs4s8cTdQd",
        },
        "",
        {
            (0, 2): "bring_in,fold",
            (0, 3): "fold",
            (0, 4): "fold",
            (0, 6): "fold",
            (0, 7): "fold",
            (0, 8): "complete,aggr,aggr",
            (0, 1): "aggr,aggr",
            **{(st, seat): _RAISES for st in (1, 2, 3, 4) for seat in (1, 8)},
        },
        shots=((0, 8), (3, 0), (4, 0)),
    ),
)
