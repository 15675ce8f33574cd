"""The Qt binding does not leak references to True/None on signal emission.

PySide6 6.12.0 (CPython 3.11) dropped one reference to ``True`` per emission and the console
aborted after a few thousand signals ("deallocating True"); pyproject pins it out. This test fails
if a future upgrade brings such a binding back.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    anything = Signal(object)
    flag = Signal(bool)


def test_signal_emission_keeps_singleton_refcounts() -> None:
    emitter = _Emitter()
    got: list[object] = []
    emitter.anything.connect(got.append)
    emitter.flag.connect(got.append)
    before = (sys.getrefcount(True), sys.getrefcount(None))
    for i in range(200):
        emitter.anything.emit(i)
        emitter.flag.emit(True)
        emitter.property("no_such_property")
    got.clear()
    after = (sys.getrefcount(True), sys.getrefcount(None))
    assert abs(after[0] - before[0]) < 20 and abs(after[1] - before[1]) < 20, (before, after)
