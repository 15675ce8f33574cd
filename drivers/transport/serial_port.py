"""Serial transport on pyserial URLs: device paths (``/dev/ttyUSB0``, ``/dev/pts/3``, ``COM3``),
``socket://host:port``, ``loop://`` and the other pyserial URL handlers.

Line settings follow DEVICE_PROTOCOL.md "Transports": 8N1, no flow control, 115200 baud by
default (9600-115200). pyserial and OS errors become
:class:`~dealer_assist.errors.TransportError`.

The port is the table's alone (6): with ``exclusive`` a device path is locked
(pyserial's ``flock``, which only other lockers respect) and put in the terminal's exclusive mode
(``TIOCEXCL``), so a plain ``open()`` by another program fails with EBUSY while the table holds
it (a process with CAP_SYS_ADMIN, e.g. root, passes anyway: the kernel's rule). The mode is
cleared again before the port is closed, because on a pseudo-terminal it outlives this process's
descriptor while the other end keeps the slave open (the emulator does), and the table's own
reconnection would then be refused.
"""

from __future__ import annotations

import contextlib
import errno
import threading

import serial

from dealer_assist.errors import TransportError, WriteTimeoutError
from drivers.transport import exclusive as excl

#: the words a refused open says when another program holds the port (the console's fault
#: texts look for them: :func:`dealer_assist.table.device_status.fault_kind`)
PORT_BUSY = "in use by another program"
_BUSY_ERRNOS = frozenset({errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK})

BAUD_RATES = (9600, 19200, 38400, 57600, 115200)


class SerialTransport:
    """A pyserial port as a :class:`~drivers.transport.base.Transport`.

    Args:
        url: device path or pyserial URL.
        baudrate: one of 9600, 19200, 38400, 57600, 115200 (ignored by ``socket://``).
        write_timeout: seconds a write may block (finite).
        exclusive: the port is this process's alone: POSIX ``flock`` and the terminal's
            exclusive mode (``TIOCEXCL``, see the module doc); None = neither (pyserial default).

    Raises:
        TransportError: from the constructor for a bad baud rate or timeout; from open/read/write
            when the port cannot be used.
    """

    def __init__(
        self,
        url: str,
        baudrate: int = 115200,
        *,
        write_timeout: float = 1.0,
        exclusive: bool | None = None,
    ) -> None:
        if baudrate not in BAUD_RATES:
            raise TransportError(f"baud rate {baudrate} not supported (use one of {BAUD_RATES})")
        if not 0 < write_timeout < 60:
            raise TransportError(f"write timeout must be finite and positive: {write_timeout}")
        self._url = url
        self._baudrate = baudrate
        self._write_timeout = write_timeout
        self._exclusive = exclusive
        self._port: serial.Serial | None = None
        self._read_timeout: float | None = None
        self._lock = threading.Lock()  # open/close against write

    @property
    def url(self) -> str:
        """The URL or path given to the constructor."""
        return self._url

    @property
    def is_open(self) -> bool:
        """True between a successful open() and close()."""
        return self._port is not None

    def open(self) -> None:
        """Open and configure the port (8N1, no flow control). Raises TransportError."""
        with self._lock:
            if self._port is not None:
                return
            try:
                port = serial.serial_for_url(
                    self._url,
                    do_not_open=True,
                    baudrate=self._baudrate,
                    bytesize=serial.EIGHTBITS,
                    parity=serial.PARITY_NONE,
                    stopbits=serial.STOPBITS_ONE,
                    xonxoff=False,
                    rtscts=False,
                    dsrdtr=False,
                    timeout=0.05,
                    write_timeout=self._write_timeout,
                    exclusive=self._exclusive,
                )
                port.open()
            except (serial.SerialException, OSError, ValueError) as e:
                raise TransportError(f"cannot open {self._url}: {_busy(e)}{e}") from e
            if self._exclusive and excl.SUPPORTED and isinstance(port, serial.Serial):
                try:
                    excl.hold(port.fileno())
                except OSError as e:
                    with contextlib.suppress(serial.SerialException, OSError):
                        port.close()
                    raise TransportError(f"cannot hold {self._url} exclusively: {e}") from e
            self._port = port
            self._read_timeout = 0.05

    def close(self) -> None:
        """Close the port; safe to call twice, never raises."""
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            if self._exclusive and excl.SUPPORTED and isinstance(port, serial.Serial):
                with contextlib.suppress(serial.SerialException, OSError):
                    excl.release(port.fileno())  # else the next open of a pty is refused
            # closing a vanished device: nothing left to release
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    @property
    def held_exclusively(self) -> bool | None:
        """Whether the open port is in the terminal's exclusive mode (Linux), None where the
        system cannot say or the port is no terminal (a ``socket://`` URL) or is closed."""
        port = self._port
        if port is None or not excl.SUPPORTED or not isinstance(port, serial.Serial):
            return None
        try:
            return excl.is_held(port.fileno())
        except (serial.SerialException, OSError):
            return None

    def _require(self) -> serial.Serial:
        port = self._port
        if port is None:
            raise TransportError(f"{self._url} is not open")
        return port

    def read(self, max_bytes: int, timeout: float) -> bytes:
        """Up to ``max_bytes`` bytes, returning as soon as some arrived, or b"" after
        ``timeout`` seconds. Raises TransportError."""
        if not 0 <= timeout < 3600:
            raise TransportError(f"read timeout must be finite: {timeout}")
        port = self._require()
        try:
            if timeout != self._read_timeout:  # pyserial reconfigures the port on every set
                port.timeout = timeout
                self._read_timeout = timeout
            data = bytearray(port.read(1))
            while data and len(data) < max_bytes:
                waiting = port.in_waiting
                if waiting <= 0:
                    break
                data += port.read(min(waiting, max_bytes - len(data)))
        except (serial.SerialException, OSError, TypeError, AttributeError) as e:
            # TypeError/AttributeError: pyserial touching a port closed under it
            raise TransportError(f"read from {self._url} failed: {e}") from e
        return bytes(data)

    def write(self, data: bytes) -> None:
        """Send all of ``data`` within the write timeout. Raises WriteTimeoutError when the
        timeout passed, TransportError for any other failure."""
        port = self._require()
        try:
            written = port.write(data)
        except serial.SerialTimeoutException as e:
            raise WriteTimeoutError(
                f"write to {self._url} timed out after {self._write_timeout:g} s"
            ) from e
        except (serial.SerialException, OSError, TypeError, AttributeError) as e:
            raise TransportError(f"write to {self._url} failed: {e}") from e
        if written is not None and written != len(data):
            raise TransportError(f"write to {self._url} sent {written} of {len(data)} bytes")


def _busy(e: BaseException) -> str:
    """``"in use by another program: "`` when ``e`` is the OS refusing a port someone holds
    (EBUSY from the terminal's exclusive mode, EAGAIN from the lock), else ""."""
    code = getattr(e, "errno", None)
    cause = e.__context__
    if code is None and cause is not None:
        code = getattr(cause, "errno", None)
    text = str(e)
    if code in _BUSY_ERRNOS or "exclusively lock" in text or "[Errno 16]" in text:
        return f"{PORT_BUSY}: "
    return ""
