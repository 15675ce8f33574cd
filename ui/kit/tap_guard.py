"""Taps that cannot misfire: a tap counts only on a control that has been visible, enabled, titled
alike and in the same place in its window for at least :data:`HOLD` seconds.

A dealer's second or third tap lands where the first one was; when the first tap changed the
screen (a seat's *Change* drawn where *Play 4x* was, the payout walk's *Next* on the next seat),
that later tap must not act on what appeared under the finger. The guard watches each control it
is given: every show, hide, enable, disable, move or resize restarts the control's clock; a
look every :data:`LOOK_MS` and one at the press compare the control with the last one seen (a
parent's layout may have moved it without telling it). A refused press, its release and a
double click are swallowed, so the control never sees them; ``refused`` says which control was
refused.

The clock is injected (seconds, monotonic), so a test moves time instead of waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QTimer, Signal
from PySide6.QtWidgets import QAbstractButton, QWidget

HOLD = 0.3
"""Seconds a control must have stood still, visible and enabled before a tap on it counts."""
LOOK_MS = 50
"""How often the guard looks at its controls (ms): a parent's layout moves a control without an
event of its own, so the move is seen within this, not only at the next tap."""

_RESTARTS = frozenset(
    {
        QEvent.Type.Show,
        QEvent.Type.Hide,
        QEvent.Type.EnabledChange,
        QEvent.Type.Move,
        QEvent.Type.Resize,
    }
)
_PRESSES = frozenset(
    {
        QEvent.Type.MouseButtonPress,
        QEvent.Type.MouseButtonDblClick,
        QEvent.Type.TouchBegin,
    }
)
_RELEASES = frozenset({QEvent.Type.MouseButtonRelease, QEvent.Type.TouchEnd})


@dataclass(frozen=True)
class _Look:
    """What a control looked like: shown, enabled, where in its window, its title."""

    visible: bool
    enabled: bool
    rect: QRect
    text: str


def _look(widget: QWidget) -> _Look:
    at = widget.mapTo(widget.window(), QPoint(0, 0))  # in its window: a kiosk's never moves
    text = widget.text() if isinstance(widget, QAbstractButton) else ""
    return _Look(widget.isVisible(), widget.isEnabled(), QRect(at, widget.size()), text)


class TapGuard(QObject):
    """Refuses taps on controls that changed less than ``hold`` seconds ago.

    Args:
        hold: seconds a control must stand still (default :data:`HOLD`).
        clock: monotonic seconds (default :func:`time.monotonic`).

    Signals:
        refused(QWidget): a tap on this control was swallowed.

    :meth:`watch` each control (a control deleted later is forgotten with it).
    """

    refused = Signal(QWidget)

    def __init__(
        self,
        hold: float = HOLD,
        clock: Callable[[], float] = time.monotonic,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.hold = hold
        self.clock = clock
        self._seen: dict[int, tuple[_Look, float]] = {}  # id(widget) -> last look, since when
        self._widgets: dict[int, QWidget] = {}
        self._swallow: set[int] = set()  # widgets whose press was refused: swallow the release
        self._timer = QTimer(self)
        self._timer.setInterval(LOOK_MS)
        self._timer.timeout.connect(self._look_again)

    def watch(self, widget: QWidget) -> None:
        """Guard ``widget`` from now on (its clock starts now)."""
        key = id(widget)
        if key in self._seen:
            return
        self._seen[key] = (_look(widget), self.clock())
        self._widgets[key] = widget
        widget.installEventFilter(self)
        if self.hold > 0 and not self._timer.isActive():
            self._timer.start()
        widget.destroyed.connect(lambda _=None, k=key: self._forget(k))

    def allows(self, widget: QWidget) -> bool:
        """True when a tap on ``widget`` would count now (False for an unwatched one)."""
        seen = self._seen.get(id(widget))
        if seen is None:
            return False
        look, since = seen
        now = self.clock()
        current = _look(widget)
        if self.hold <= 0:  # the guard is off (a named setting of 0)
            return current.visible and current.enabled
        if current != look:  # moved or changed without an event of its own (a parent's layout)
            self._seen[id(widget)] = (current, now)
            return False
        return current.visible and current.enabled and now - since >= self.hold

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Restart a control's clock when it changes; swallow a tap that comes too soon."""
        if not isinstance(watched, QWidget):
            return False
        key = id(watched)
        kind = event.type()
        if kind in _RESTARTS:
            if key in self._seen:
                self._seen[key] = (_look(watched), self.clock())
            return False
        if kind in _PRESSES:
            if self.allows(watched):
                self._swallow.discard(key)
                return False
            self._swallow.add(key)
            self.refused.emit(watched)
            return True
        if kind in _RELEASES and key in self._swallow:
            self._swallow.discard(key)
            return True
        return False

    def _look_again(self) -> None:
        """Restart the clock of each control that changed since it was last seen."""
        now = self.clock()
        for key, widget in self._widgets.items():
            current = _look(widget)
            if current != self._seen[key][0]:
                self._seen[key] = (current, now)

    def _forget(self, key: int) -> None:
        self._seen.pop(key, None)
        self._widgets.pop(key, None)
        self._swallow.discard(key)
