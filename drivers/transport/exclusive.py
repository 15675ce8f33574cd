"""A terminal's exclusive mode (POSIX ``TIOCEXCL``): while it is set, every further ``open()`` of
the device fails with EBUSY, except by a process with CAP_SYS_ADMIN (root). Linux keeps the mode
until the last descriptor of the terminal is closed, so :func:`release` clears it (``TIOCNXCL``)
before the holder closes a pseudo-terminal whose other end stays open.

On a system without ``fcntl``/``termios`` (Windows, where a COM port is exclusive by itself)
:data:`SUPPORTED` is False and the functions are not to be called.
"""

from __future__ import annotations

import contextlib
import struct
import sys

try:
    import fcntl
    import termios
except ImportError:  # Windows: COM ports are opened exclusively by the OS
    SUPPORTED = False
else:
    SUPPORTED = True

# Linux ioctl numbers the termios module does not name (asm-generic/ioctls.h)
TIOCNXCL = 0x540D
TIOCGEXCL = 0x80045440  # _IOR('T', 0x40, int), Linux 3.8+


def hold(fd: int) -> None:
    """Put the terminal ``fd`` in exclusive mode. Raises OSError (ENOTTY: not a terminal)."""
    fcntl.ioctl(fd, termios.TIOCEXCL)


def release(fd: int) -> None:
    """Leave exclusive mode on ``fd``; never raises (the device may be gone already)."""
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, getattr(termios, "TIOCNXCL", TIOCNXCL))


def is_held(fd: int) -> bool | None:
    """Whether the terminal ``fd`` is in exclusive mode, or None where the system cannot say
    (not Linux, or a kernel before 3.8)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        out = fcntl.ioctl(fd, TIOCGEXCL, b"\0\0\0\0")
    except OSError:
        return None
    return bool(struct.unpack("i", out)[0])
