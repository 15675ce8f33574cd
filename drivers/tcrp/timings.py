"""The timeouts and retry counts of a TCRP/1 link (DEVICE_PROTOCOL.md, "Reliability"), as
:class:`TcrpTimings`: what :class:`~drivers.tcrp.device.TcrpDevice` waits for and how often it
tries again. :func:`drivers.factory.open_source` takes any of its fields as an option."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from dealer_assist.errors import ConfigError


@dataclass(frozen=True)
class TcrpTimings:
    """Timeouts and retry counts of a TCRP/1 link, in seconds (all finite).

    Attributes:
        hello_timeout: how long open() waits for the device HELLO.
        command_interval: wait for ACK/NAK before a command is sent again (spec: 0.3).
        command_retries: times a command is sent again for want of an answer (spec: 3).
        heartbeat_timeout: nothing received this long means the link is lost (spec: 3.0).
        read_timeout: the worker's read timeout; bounds event latency and close() time.
        resend_interval: seconds between RESEND requests while a gap lasts.
        gap_timeout: a gap RESEND did not fill after this long is put to the device (STATUS);
            after twice this the frames the device did not confirm are set aside.
        reopen_interval: first delay before reconnecting a lost link; doubles per attempt.
        reconnect_max: the cap of that delay.
        join_timeout: how long close() waits for the worker thread.
        history_quiet: :meth:`TcrpDevice.recover_history` stops once no history frame came
            for this long.
    """

    hello_timeout: float = 3.0
    command_interval: float = 0.3
    command_retries: int = 3
    heartbeat_timeout: float = 3.0
    read_timeout: float = 0.01
    resend_interval: float = 0.3
    gap_timeout: float = 3.0
    reopen_interval: float = 1.0
    reconnect_max: float = 10.0
    join_timeout: float = 2.0
    history_quiet: float = 0.3

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "command_retries":
                if not isinstance(value, int) or not 0 <= value <= 20:
                    raise ConfigError(f"command_retries must be 0..20, got {value!r}")
            elif not isinstance(value, int | float) or not (0 < value < 3600):
                raise ConfigError(f"{f.name} must be finite and > 0 seconds, got {value!r}")
            elif math.isnan(value):
                raise ConfigError(f"{f.name} is NaN")
