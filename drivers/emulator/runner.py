"""Serve an :class:`EmulatedShuffler` on a pseudo-terminal or on TCP 127.0.0.1.

The pty is switched to raw mode before anything is written; output the host does not read is
dropped (like a serial line nobody listens to) rather than blocking the device. TCP serves one
client at a time; a new connection replaces the old one. An optional control channel (the
dealer's hands, :mod:`drivers.emulator.control`) is read before the device's line in every
round, so a LOAD answered before a SHUFFLE is sent always comes first.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import threading
import time
import tty
from collections.abc import Callable, Sequence

from drivers.emulator.control import ControlChannel
from drivers.emulator.shuffler import EmulatedShuffler

POLL_MAX = 0.05  # longest sleep of the loop, bounds the reaction to a stop request


def _timeout(shuffler: EmulatedShuffler) -> float:
    return max(0.0, min(POLL_MAX, shuffler.next_deadline() - time.monotonic()))


def _control_round(
    control: ControlChannel | None, ready: Sequence[object]
) -> ControlChannel | None:
    """Handle the control channel if it is readable; None once its input ended."""
    if control is not None and control in ready and not control.on_readable():
        return None
    return control


def serve_pty(
    shuffler: EmulatedShuffler,
    announce: Callable[[str], None],
    stop: threading.Event,
    control: ControlChannel | None = None,
) -> None:
    """Create a pty, announce the slave path, serve until ``stop`` is set (and read
    ``control`` when given)."""
    master, slave = os.openpty()
    try:
        tty.setraw(slave)  # no echo, no line editing: a byte pipe like a serial line
        os.set_blocking(master, False)
        announce(os.ttyname(slave))
        _write_fd(master, shuffler.start(time.monotonic()))
        while not stop.is_set():
            watch: list[int | ControlChannel] = [master] if control is None else [control, master]
            ready, _, _ = select.select(watch, [], [], _timeout(shuffler))
            control = _control_round(control, ready)
            if master in ready:
                try:
                    data = os.read(master, 4096)
                except (BlockingIOError, InterruptedError):
                    data = b""
                if data:
                    _write_fd(master, shuffler.receive(data, time.monotonic()))
            _write_fd(master, shuffler.tick(time.monotonic()))
    finally:
        os.close(master)
        os.close(slave)  # kept open until now so the master never sees EIO


def _write_fd(fd: int, frames: list[bytes]) -> None:
    for raw in frames:
        with contextlib.suppress(BlockingIOError):  # host not reading: the bytes are lost
            os.write(fd, raw)


def serve_tcp(
    shuffler: EmulatedShuffler,
    port: int,
    announce: Callable[[str], None],
    stop: threading.Event,
    control: ControlChannel | None = None,
) -> None:
    """Listen on 127.0.0.1:``port`` (0 = any free port), announce ``socket://127.0.0.1:P``,
    serve until ``stop`` is set (and read ``control`` when given)."""
    server = socket.create_server(("127.0.0.1", port))
    client: socket.socket | None = None
    try:
        server.setblocking(False)
        announce(f"socket://127.0.0.1:{server.getsockname()[1]}")
        client = _send(client, shuffler.start(time.monotonic()))
        while not stop.is_set():
            watch: list[socket.socket | ControlChannel] = [server]
            if client is not None:
                watch.append(client)
            if control is not None:
                watch.insert(0, control)
            ready, _, _ = select.select(watch, [], [], _timeout(shuffler))
            control = _control_round(control, ready)
            if server in ready:
                with contextlib.suppress(BlockingIOError):
                    new, _ = server.accept()
                    new.setblocking(False)
                    new.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    if client is not None:
                        client.close()
                    client = new
            if client is not None and client in ready:
                data: bytes | None
                try:
                    data = client.recv(4096)
                except (BlockingIOError, InterruptedError):
                    data = None  # spurious wake-up
                except OSError:
                    data = b""
                if data == b"":  # the host hung up
                    client.close()
                    client = None
                elif data:
                    client = _send(client, shuffler.receive(data, time.monotonic()))
            client = _send(client, shuffler.tick(time.monotonic()))
    finally:
        if client is not None:
            client.close()
        server.close()


def _send(client: socket.socket | None, frames: list[bytes]) -> socket.socket | None:
    """Send frames to the client (or lose them without one); None once it went away."""
    for raw in frames:
        if client is None:
            return None
        try:
            client.send(raw)
        except BlockingIOError:
            pass  # client not reading: lost, as on a serial line
        except OSError:
            client.close()
            return None
    return client
