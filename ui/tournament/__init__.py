"""The tournament's screens (rules text 002): the room's big clock
(:mod:`~ui.tournament.clock_window`), the director's console (:mod:`~ui.tournament.director_window`
over :mod:`~ui.tournament.desk`) and the strip a dealer's table console shows
(:mod:`~ui.tournament.level_strip`). What they show is computed Qt-free in
:mod:`~ui.tournament.board` from the tournament's state, the fold of its journal
(:class:`dealer_assist.tournament.state.TournamentState`); the journal is read off the GUI thread
(:mod:`~ui.tournament.feed`). No screen shows a card.
"""
