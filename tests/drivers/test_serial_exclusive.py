"""The serial port is the table's alone (6): while a SerialTransport holds a real pty
another program's plain ``open()`` fails with EBUSY; after close it succeeds again.

Root passes TIOCEXCL (CAP_SYS_ADMIN), and these tests may run as root: the other program is then
run as ``nobody`` (subprocess ``user=``), on a port made world-readable so that only the
exclusive mode can refuse it. Each refusal is checked against a control where the same program
opens the same port successfully, and the terminal's own state is read back with TIOCGEXCL.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import subprocess
import tty
from collections.abc import Iterator

import pytest

from dealer_assist.errors import TransportError
from drivers.emulator.source import EmulatorSource
from drivers.transport import exclusive as excl
from drivers.transport.serial_port import PORT_BUSY, SerialTransport

pytestmark = [
    pytest.mark.integration,  # real ptys, subprocesses, an emulator process
    pytest.mark.skipif(not excl.SUPPORTED, reason="POSIX terminals only"),
]


def _other_user() -> int | None:
    """The uid the other program runs as: ``nobody`` when the tests run as root (root would
    pass TIOCEXCL), else None (the test's own user, which TIOCEXCL refuses)."""
    if os.geteuid() != 0:
        return None
    return pwd.getpwnam("nobody").pw_uid


def other_program_opens(path: str) -> tuple[bool, str]:
    """Another program (``sh``) opens ``path`` read-write as a frame thief would: (opened, its
    error message)."""
    run = subprocess.run(
        ["/bin/sh", "-c", 'exec 3<>"$1"', "sh", path],
        user=_other_user(),
        capture_output=True,
        text=True,
        timeout=10,
    )
    return run.returncode == 0, run.stderr.strip()


def open_to_all(path: str) -> None:
    """Only the exclusive mode may refuse the other program, not the pty's permissions."""
    os.chmod(path, 0o666)


@pytest.fixture
def pty_path() -> Iterator[str]:
    """The slave path of a raw pty whose slave end stays open here (as the emulator keeps it)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    open_to_all(path)
    try:
        yield path
    finally:
        for fd in (master, slave):
            with contextlib.suppress(OSError):
                os.close(fd)


def tiocgexcl(path: str) -> bool | None:
    """The terminal's exclusive flag as the kernel reports it (read through a new descriptor:
    root may open it; a non-root test user cannot while it is held, then None)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        return excl.is_held(fd)
    finally:
        os.close(fd)


def test_other_program_refused_while_the_table_holds_the_port(pty_path: str) -> None:
    assert other_program_opens(pty_path) == (True, "")  # control: nothing holds it yet
    t = SerialTransport(pty_path, exclusive=True)
    t.open()
    try:
        assert t.held_exclusively is True
        opened, error = other_program_opens(pty_path)
        assert not opened
        assert "busy" in error.lower(), error  # EBUSY: "Device or resource busy"
        if os.geteuid() == 0:
            assert tiocgexcl(pty_path) is True
    finally:
        t.close()
    # released on close: the other end still holds the pty, yet it opens again
    assert other_program_opens(pty_path) == (True, "")
    if os.geteuid() == 0:
        assert tiocgexcl(pty_path) is False


def test_reopen_after_close_and_a_second_transport_is_refused(pty_path: str) -> None:
    first = SerialTransport(pty_path, exclusive=True)
    first.open()
    try:
        second = SerialTransport(pty_path, exclusive=True)
        with pytest.raises(TransportError, match=PORT_BUSY):
            second.open()  # the lock (and, for a non-root table, EBUSY) says who is refused
        assert not second.is_open
    finally:
        first.close()
    first.open()  # the table's own reconnection is not refused by a mode left behind
    try:
        assert first.held_exclusively is True
    finally:
        first.close()


def test_without_exclusive_the_port_is_shared(pty_path: str) -> None:
    t = SerialTransport(pty_path)  # exclusive=None: pyserial's default, neither lock nor mode
    t.open()
    try:
        assert t.held_exclusively is False
        assert other_program_opens(pty_path) == (True, "")
    finally:
        t.close()


def test_the_builtin_emulators_pty_is_the_tables_alone() -> None:
    source = EmulatorSource(["--seed", "3"])
    try:
        source.open()
        path = source.emulator.where
        assert path is not None and path.startswith("/dev/")
        open_to_all(path)
        opened, error = other_program_opens(path)
        assert not opened and "busy" in error.lower(), error
    finally:
        source.close()
