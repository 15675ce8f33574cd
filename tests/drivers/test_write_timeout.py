"""A far end that stops taking bytes for a while (a starved or busy device): the host's writes
time out over a real pseudo-terminal, and the link stays up instead of being torn down.

The peer is a minimal TCRP/1 device on the master side of a pty. To stall it, the test stops
its reads and fills the pty's host-to-device buffer through the slave descriptor, so the host's
next write blocks until ``write_timeout``; then the peer drains the junk (dropped by the CRC)
and carries on.
"""

from __future__ import annotations

import errno
import os
import select
import threading
import time
import tty
from collections.abc import Callable, Iterator
from functools import partial

import pytest

from dealer_assist.errors import TransportError, WriteTimeoutError
from dealer_assist.events import DeviceEvent, LinkLost
from drivers.tcrp.device import TcrpDevice
from drivers.tcrp.frame import FrameParser, encode_frame
from drivers.tcrp.receive import WRITE_TIMEOUTS_DEAD
from drivers.transport.serial_port import SerialTransport


class StallingPeer:
    """A TCRP/1 device on a pty's master, in a thread: answers HELLO (ACK, HELLO) and STATUS
    (ACK, STATE IDLE), and can stop reading (:meth:`stall`) and start again (:meth:`resume`)."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.seq = 0
        self.acked: set[int] = set()
        self.statuses = 0
        self._reading = threading.Event()
        self._reading.set()
        self._lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def send(self, type_: str, *fields: str) -> int:
        """Write one device frame; returns its seq."""
        with self._lock:
            seq = self.seq
            os.write(self.master, encode_frame(seq, type_, fields))
            self.seq += 1
        return seq

    def resend(self, seq: int, type_: str, *fields: str) -> None:
        """Write device frame ``seq`` again, as a device does for want of its ACK."""
        with self._lock:
            os.write(self.master, encode_frame(seq, type_, fields))

    def stall(self) -> int:
        """Stop reading and fill the host-to-device buffer; returns the junk bytes written."""
        self._reading.clear()
        time.sleep(0.1)  # let a read in progress finish
        os.set_blocking(self.slave, False)
        filled, before = 0, -1
        # the kernel moves written bytes on to the master's buffer in the background, which
        # frees room again: fill until a round a moment later finds none
        while filled != before:
            before = filled
            for chunk in (4096, 256, 16, 1):
                try:
                    while True:
                        filled += os.write(self.slave, b"\x00" * chunk)
                except OSError as e:
                    if e.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                        raise
            time.sleep(0.05)
        return filled

    def resume(self) -> None:
        """Read again (the junk is dropped by the frame parser)."""
        self._reading.set()

    def _run(self) -> None:
        parser = FrameParser()
        while not self.stop.is_set():
            if not self._reading.wait(0.05):
                continue
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready or not self._reading.is_set():
                continue
            for frame in parser.feed(os.read(self.master, 65536)):
                if frame.type == "HELLO":
                    self.send("ACK", str(frame.seq))
                    self.send("HELLO", "TCRP1", "PEER", "1.0", "P-1")
                elif frame.type == "STATUS":
                    self.statuses += 1
                    self.send("ACK", str(frame.seq))
                    self.send("STATE", "IDLE")
                elif frame.type == "ACK" and frame.fields:
                    self.acked.add(int(frame.fields[0]))

    def close(self) -> None:
        self.stop.set()
        self._reading.set()
        self.thread.join(2)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def peer() -> Iterator[StallingPeer]:
    p = StallingPeer()
    yield p
    p.close()


def wait_for(cond: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def timed_out(device: TcrpDevice, n: int) -> bool:
    return device.stats.write_timeouts >= n


def drain(device: TcrpDevice) -> list[DeviceEvent]:
    events = []
    while (event := device.next_event(0)) is not None:
        events.append(event)
    return events


def test_serial_write_timeout_is_its_own_error_and_the_port_stays_open(
    peer: StallingPeer,
) -> None:
    transport = SerialTransport(peer.path, write_timeout=0.2, exclusive=False)
    transport.open()
    try:
        assert peer.stall() > 0
        with pytest.raises(WriteTimeoutError, match=r"timed out after 0\.2 s"):
            transport.write(b"$" * 64)
        assert transport.is_open
        assert isinstance(WriteTimeoutError("x"), TransportError)
    finally:
        transport.close()


def test_an_ack_that_times_out_leaves_the_link_up_and_the_frame_comes_again(
    peer: StallingPeer,
) -> None:
    device = TcrpDevice(SerialTransport(peer.path, write_timeout=0.2, exclusive=False), name="peer")
    device.open()
    try:
        drain(device)
        peer.stall()
        state_seq = peer.send("STATE", "READY")  # the host's ACK of it cannot go out
        wait_for(lambda: device.stats.write_timeouts >= 1)
        assert device.link_status.state == "connected"
        assert device.is_open
        peer.resume()
        peer.resend(state_seq, "STATE", "READY")  # as a device does for want of an ACK
        wait_for(lambda: state_seq in peer.acked)
        device.request_status()  # the link still works, without a reconnection
        assert peer.statuses == 1
        lost = [e for e in drain(device) if isinstance(e, LinkLost)]
        assert lost == []
    finally:
        device.close()


def test_a_command_whose_write_times_out_is_tried_again(peer: StallingPeer) -> None:
    device = TcrpDevice(SerialTransport(peer.path, write_timeout=0.1, exclusive=False), name="peer")
    device.open()
    try:
        peer.stall()

        def resume_after_a_timeout() -> None:  # within the command's retries
            wait_for(lambda: device.stats.write_timeouts >= 1)
            peer.resume()

        resumer = threading.Thread(target=resume_after_a_timeout, daemon=True)
        resumer.start()
        device.request_status()
        resumer.join(5)
        assert peer.statuses >= 1
        assert device.stats.write_timeouts >= 1
        assert device.link_status.state == "connected"
    finally:
        device.close()


def test_writes_that_keep_timing_out_mean_a_dead_link(peer: StallingPeer) -> None:
    device = TcrpDevice(SerialTransport(peer.path, write_timeout=0.1, exclusive=False), name="peer")
    device.open()
    try:
        drain(device)
        peer.stall()
        for n in range(1, WRITE_TIMEOUTS_DEAD + 1):
            peer.send("STATE", "READY")  # each one's ACK times out
            wait_for(partial(timed_out, device, n))
        wait_for(lambda: device.link_status.state != "connected")
        events = drain(device)
        assert any(isinstance(e, LinkLost) and "timed out" in e.reason for e in events)
    finally:
        device.close()
