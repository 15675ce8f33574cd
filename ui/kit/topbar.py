"""The top bar of both consoles: the phase banner, the table and hand, and the card source's
status (the consoles say what the banner and the table line read)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from dealer_assist.events import utc_now
from ui.kit.fault_texts import fault_names, source_error_text
from ui.kit.format import seconds
from ui.kit.labels import FitLabel, restyle, set_text
from ui.kit.status import DeviceStatus
from ui.kit.translate import tr, trf


def heartbeat_text(last: datetime | None, now: datetime) -> tuple[str, bool]:
    """``(text, late)``: how long ago the device was last heard; late after 3 s (TCRP/1 declares
    the link lost after 3000 ms without a frame)."""
    if last is None:
        return tr("no heartbeat yet"), True
    age = max(0.0, (now - last).total_seconds())
    shown = seconds(age)  # a variable: a literal 2nd argument would be a lupdate comment
    return trf("last heartbeat %1 s ago", shown), age > 3.0


def local_now() -> datetime:
    """The time now in the table's own time zone (the machine's)."""
    return datetime.now().astimezone()


class TopBar(QFrame):
    """Phase banner (left), table and hand (middle), device status (right); with ``clock``
    (the local time now, aware) the time of day at the far right, ``14:05``, redrawn with the
    heartbeat (the dealer's shift runs by it; the journal keeps UTC)."""

    def __init__(
        self, parent: QWidget | None = None, *, clock: Callable[[], datetime] | None = None
    ) -> None:
        super().__init__(parent)
        self._clock = clock
        self.setObjectName("topBar")
        self.setFixedHeight(88)
        self._compact = False
        lay = QHBoxLayout(self)
        lay.setContentsMargins(18, 10, 18, 10)
        lay.setSpacing(24)
        self.phase = QLabel("")
        self.phase.setObjectName("phase")
        lay.addWidget(self.phase)
        info = QVBoxLayout()
        info.setSpacing(0)
        # long texts shrink, then end in "…", rather than widening the window or being cut
        self.table = FitLabel("")
        self.table.setObjectName("tableInfo")
        self.table.setProperty("strong", True)
        self.hand = FitLabel("")
        self.hand.setObjectName("tableInfo")
        info.addWidget(self.table)
        info.addWidget(self.hand)
        lay.addLayout(info, 1)
        self.dot = QLabel("●")
        self.dot.setObjectName("deviceDot")
        lay.addWidget(self.dot)
        dev = QVBoxLayout()
        dev.setSpacing(0)
        self.device = FitLabel("", min_px=13)
        self.device.setObjectName("device")
        self.beat = FitLabel("", min_px=13)
        self.beat.setObjectName("device")
        dev.addWidget(self.device)
        dev.addWidget(self.beat)
        lay.addLayout(dev, 1)
        self.time = QLabel("")
        self.time.setObjectName("wallClock")
        self.time.setVisible(clock is not None)
        lay.addWidget(self.time)
        self._device = DeviceStatus()
        for label in (self.table, self.hand, self.device, self.beat):
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            label.setMinimumWidth(120)

    def set_compact(self, compact: bool) -> None:
        """Lower bar and smaller banner for small screens."""
        self.setFixedHeight(72 if compact else 88)
        restyle(self.phase, compact=compact)
        restyle(self.time, compact=compact)
        layout = self.layout()
        tight = compact and self._clock is not None
        if isinstance(layout, QHBoxLayout):  # the time of day takes room on a small screen:
            layout.setSpacing(12 if tight else 24)  # tighter gaps, and the device's line (the
            layout.setContentsMargins(10 if tight else 18, 10, 10 if tight else 18, 10)
            layout.setStretch(1, 2 if tight else 1)  # longest) more of the width than the
            layout.setStretch(3, 4 if tight else 1)  # table's
        for label in (self.device, self.beat):
            label.min_px = 11 if tight else 13

    def show_status(
        self,
        banner: str,
        colors: tuple[str, str],
        table: str,
        hand_no: int,
        device: DeviceStatus,
    ) -> None:
        """Draw the phase ``banner`` in ``colors`` (background, text), the ``table`` line, the
        hand number (0: none) and the card source's ``device`` status."""
        self.phase.setStyleSheet(f"#phase {{ background: {colors[0]}; color: {colors[1]}; }}")
        set_text(self.phase, banner.upper())
        self.phase.setMinimumWidth(0)  # a label's size hint is at least its minimum width:
        self.phase.setMinimumWidth(self.phase.sizeHint().width())  # the banner is never cut
        set_text(self.table, table)
        set_text(self.hand, trf("Hand %1", hand_no) if hand_no else "")
        self._device = device
        self.refresh_device()

    def refresh_device(self) -> None:
        """Redraw the device status and the time of day (called every second for the
        heartbeat age)."""
        if self._clock is not None:
            set_text(self.time, self._clock().strftime("%H:%M"))
        d = self._device
        if d.connected and d.source_kind == "manual":
            # the keypad: no device, no heartbeat; the dealer types the cards
            set_text(self.device, trf("Source: %1 · cards typed on the keypad", d.source))
            text, late = tr("no card reader in use"), False
        elif d.connected:
            who = f"{d.model} / {d.serial}" if d.model else tr("unknown device")
            faults = fault_names(d.faults) if d.faults else tr("none")
            source = d.source or "—"
            set_text(self.device, trf("Connected · %1 · %2 · faults: %3", source, who, faults))
            text, late = heartbeat_text(d.last_heard, utc_now())
        else:
            set_text(self.device, tr("Card source not connected"))
            text, late = (source_error_text(d) or tr("no link")), True
            if d.link in ("lost", "reconnecting"):
                attempts = d.reconnect_attempts
                text = trf("reconnecting… attempt %1", attempts) if attempts else tr("no link")
                if d.next_attempt_in is not None:
                    wait = seconds(d.next_attempt_in)
                    text += " · " + trf("next try in %1 s", wait)
        set_text(self.beat, text)
        ok = d.connected and not d.faults and not late
        color = "#4caf50" if ok else ("#ffb300" if d.connected and not d.faults else "#f44336")
        self.dot.setStyleSheet(f"color: {color};")
        restyle(self.dot, ok=ok)
