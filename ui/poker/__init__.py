"""The poker-room dealer console (pot games: Hold'em): the table service and its snapshots, the
presenter (Qt-free), and the window (felt, action bar, amount keypad, between-hands panel).

Shared with the banked console (:mod:`ui.console`): the worker thread, the theme, the
translations, money formatting, the card and chip widgets and the top bar.
"""
