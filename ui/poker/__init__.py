"""The poker-room dealer console (pot games: Hold'em, Stud): the table service and its snapshots,
the presenter (Qt-free), and the window (felt, action bar, amount keypad, between-hands panel).

Shared with the banked console through the kit (:mod:`ui.kit`): the worker thread, the theme, the
translations, money formatting, the card, keypad, PIN pad and chip widgets, the banners and the
top bar. Nothing here imports the banked console (an import-linter contract).
"""
