"""Widgets of the console. Each one draws a part of :class:`~ui.console.presenter.ConsoleView`
and reports taps through signals or the presenter's methods; none of them talks to the device."""
