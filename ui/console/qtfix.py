"""Workaround for a reference-counting bug of PySide6 6.12 on CPython 3.11.

Measured here: every signal emission drops one reference to ``True`` and ``QObject.property()``
of an unset name drops one to ``None`` (both are immortal from CPython 3.12 on, where the bug is
harmless). On 3.11, after a few thousand emissions the interpreter aborts with "deallocating True
or False" / "deallocating None". :func:`protect_singletons` gives those objects a huge reference
count, which is what CPython 3.12 does for them; it changes nothing else.
"""

from __future__ import annotations

import ctypes
import sys

_EXTRA = 1 << 40
_done = False


def protect_singletons() -> bool:
    """Make ``None``, ``True`` and ``False`` effectively immortal (CPython < 3.12 only; once).

    Returns True when the counts were raised (False on CPython 3.12+ or another Python).
    """
    global _done
    if _done or sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False
    for obj in (None, True, False):
        ctypes.c_ssize_t.from_address(id(obj)).value += _EXTRA  # ob_refcnt is the first field
    _done = True
    return True
