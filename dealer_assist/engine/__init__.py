"""The table engine: typed operations, the GameState protocol and the two game families.

- :mod:`~dealer_assist.engine.operations`: every change to a hand as a frozen operation.
- :mod:`~dealer_assist.engine.state`: the :class:`GameState` protocol, action spaces, views.
- :mod:`~dealer_assist.engine.banked`: the casino-banked family (UTH, THB).
- :mod:`~dealer_assist.engine.peer`: the player-against-player family's building blocks
  (streets, betting rounds, openers, deal plans) for poker-room Hold'em and Seven Card Stud.
- :mod:`~dealer_assist.engine.betting`, :mod:`~dealer_assist.engine.peer_hand`: a betting round
  and a hand's rounds street by street (no limit, pot limit, fixed limit);
  :mod:`~dealer_assist.engine.pots` and :mod:`~dealer_assist.engine.pot_settle`: pots, side pots,
  odd chips and the settlement of a pot-game hand.
- :mod:`~dealer_assist.engine.voids`: why a hand is void.
- :mod:`~dealer_assist.engine.fold`: the one fold of a hand's operations into its state (resume,
  replay, dispute recompute, ``audit recompute``).
"""
