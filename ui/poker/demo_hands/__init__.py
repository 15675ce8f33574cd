"""The scripted demo hands of each pot game, one module per game named by its code (loaded by
:func:`ui.poker.demo.hands_for`): ``PLAYERS`` ``(seat, name, stack)`` and ``HANDS`` (each a
:class:`ui.poker.demo.Script`)."""
