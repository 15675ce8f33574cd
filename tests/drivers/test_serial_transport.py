"""SerialTransport on real pseudo-terminals, real TCP sockets and pyserial's loop://."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from dealer_assist.errors import TransportError
from drivers.transport.serial_port import SerialTransport


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, str]]:
    """(master fd, slave path) of a raw pseudo-terminal."""
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        yield master, os.ttyname(slave)
    finally:
        for fd in (master, slave):
            with contextlib.suppress(OSError):  # the test may have closed it already
                os.close(fd)


def read_all(t: SerialTransport, n: int, timeout: float = 2.0) -> bytes:
    data = b""
    deadline = time.monotonic() + timeout
    while len(data) < n and time.monotonic() < deadline:
        data += t.read(n - len(data), 0.05)
    return data


def test_loop_round_trip_and_timeout() -> None:
    t = SerialTransport("loop://")
    t.open()
    t.open()  # idempotent
    try:
        t.write(b"$1,BEAT*0000\r\n")
        assert read_all(t, 14) == b"$1,BEAT*0000\r\n"
        t0 = time.monotonic()
        assert t.read(10, 0.1) == b""
        assert 0.08 <= time.monotonic() - t0 < 1.0
    finally:
        t.close()
        t.close()
    assert not t.is_open


def test_pty_both_directions(pty_pair: tuple[int, str]) -> None:
    master, path = pty_pair
    t = SerialTransport(path, 9600)
    t.open()
    try:
        payload = bytes(range(256)) * 8  # raw mode: every byte value passes unchanged
        os.write(master, payload)
        got = read_all(t, len(payload))
        assert got == payload
        os.write(master, b"abcdef")
        assert t.read(4, 1.0) == b"abcd"  # never more than asked
        assert t.read(10, 1.0) == b"ef"
        t.write(b"hello\r\n")
        assert os.read(master, 100) == b"hello\r\n"
    finally:
        t.close()


def test_pty_hangup_is_transport_error(pty_pair: tuple[int, str]) -> None:
    master, path = pty_pair
    t = SerialTransport(path)
    t.open()
    try:
        os.close(master)
        with pytest.raises(TransportError) as info:
            for _ in range(20):
                t.read(10, 0.05)
        assert isinstance(info.value.__cause__, serial.SerialException | OSError)
    finally:
        t.close()


def test_tcp_socket_url() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    received: list[bytes] = []

    def serve() -> None:
        conn, _ = server.accept()
        with conn:  # pyserial flushes input on open: speak only after the host did
            received.append(conn.recv(100))
            conn.sendall(b"from-server")

    thread = threading.Thread(target=serve)
    thread.start()
    t = SerialTransport(f"socket://127.0.0.1:{port}")
    try:
        t.open()
        t.write(b"from-host")
        assert read_all(t, 11) == b"from-server"
        thread.join(5)
        assert received == [b"from-host"]
    finally:
        t.close()
        server.close()


def test_errors_are_translated(tmp_path: Path) -> None:
    missing = SerialTransport(str(tmp_path / "ttyNONE"))
    with pytest.raises(TransportError, match="cannot open") as info:
        missing.open()
    assert info.value.__cause__ is not None
    with pytest.raises(TransportError, match="not open"):
        missing.read(1, 0.01)
    with pytest.raises(TransportError, match="not open"):
        missing.write(b"x")
    free = socket.create_server(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()  # nothing listens there now
    with pytest.raises(TransportError):
        SerialTransport(f"socket://127.0.0.1:{port}").open()
    with pytest.raises(TransportError, match="baud"):
        SerialTransport("loop://", 12345)
    t = SerialTransport("loop://")
    t.open()
    try:
        with pytest.raises(TransportError, match="finite"):
            t.read(1, float("inf"))
    finally:
        t.close()
