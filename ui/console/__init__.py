"""The dealer's touchscreen console (PySide6).

Layers, each importable on its own:

- :mod:`ui.console.snapshot`, :mod:`ui.console.service`: Qt-free. The service owns the
  event-driven :class:`~dealer_assist.table.banked_runner.BankedRunner` and answers every step
  at once with an immutable,
  privacy-filtered :class:`~ui.console.snapshot.TableSnapshot` (no hole card, no hidden board or
  dealer card, no qualification before its step: the screen cannot show what it never receives).
- :mod:`ui.console.bets`, :mod:`ui.console.presenter`: Qt-free view-model. The presenter turns
  snapshots and the dealer's taps into a :class:`~ui.console.presenter.ConsoleView` and commands.
- :mod:`ui.kit.worker`: the QThread bridge; device I/O never runs on the GUI thread.
- :mod:`ui.console.widgets`, :mod:`ui.console.window`: the widgets observe the view only.
"""
