"""Build a card source from a URL (ARCHITECTURE.md: ``open_source(url, ...) -> CardSource``).

URLs:
- a serial device path (``/dev/ttyUSB0``, ``/dev/pts/3``, ``COM3``), or ``serial:///dev/ttyUSB0``;
- pyserial URLs: ``socket://host:port`` (TCP, e.g. the emulator's ``--tcp`` mode), ``loop://``,
  ``rfc2217://host:port``;
- ``emulator://?seed=7&jam_at=5&...``: start the built-in emulator on a pseudo-terminal and speak
  TCRP/1 to it over that real serial device; query keys are the emulator's options with ``_`` or
  ``-`` (``seed``, ``card_interval``, ``corrupt``, ``drop``, ``jam_at`` ...);
- ``usb://VID:PID[?serial=S&interface=N]``: TCRP/1 over a USB reader's vendor interface
  (:class:`~drivers.transport.usb.UsbTransport`; needs the ``usb`` extra). Options ``serial``,
  ``interface`` (URL query or keyword; keywords win) and ``backend`` (a pyusb backend object,
  e.g. :class:`drivers.usbsim.SimUsbBackend`; default libusb from ``libusb-package``);
- ``camera://N?width=1280&height=720`` and ``file://PATH`` (a video or a folder of images):
  :class:`~drivers.camera.source.CameraSource` (needs the ``camera`` extra; options there);
- ``manual://``: :class:`~drivers.manual.ManualSource`, cards entered on the dealer's keypad.

A source option that writes every dealt card to a file (``spy://PORT?file=``,
``emulator://?dealt_log=``) needs the development switch ``DEALER_ASSIST_DEV=1`` and a path
inside the data folder (a relative one is taken from there): cards at rest are the table's
secret (:func:`dealer_assist.at_rest.check_card_logs`).

Options (``**opts``): any :class:`~drivers.tcrp.timings.TcrpTimings` field (``hello_timeout``,
``heartbeat_timeout``, ...) for TCRP/1 sources, and for the transport ``baudrate``,
``write_timeout``, ``exclusive`` (serial) or ``write_timeout`` (USB).
"""

from __future__ import annotations

import argparse
import importlib
import os
from collections.abc import Mapping
from dataclasses import fields, replace
from typing import NoReturn
from urllib.parse import parse_qsl, urlencode, urlsplit

from dealer_assist.at_rest import check_card_logs
from dealer_assist.config import TableConfig
from dealer_assist.errors import ConfigError, DeviceError
from dealer_assist.source import CardSource
from drivers.tcrp.device import TcrpDevice
from drivers.tcrp.timings import TcrpTimings
from drivers.transport.serial_port import SerialTransport

PYSERIAL_SCHEMES = frozenset({"socket", "loop", "rfc2217", "spy", "hwgrep", "alt"})
# schemes served by driver packages that may not be installed yet: module with open_source()
PLUGIN_SCHEMES = {"camera": "drivers.camera.source", "file": "drivers.camera.source"}
_TIMING_KEYS = frozenset(f.name for f in fields(TcrpTimings))
_TRANSPORT_KEYS = frozenset({"baudrate", "write_timeout", "exclusive"})
_USB_KEYS = frozenset({"serial", "interface", "backend", "write_timeout"})


def open_source(
    url: str,
    *,
    pin_model: str | None = None,
    pin_serial: str | None = None,
    name: str | None = None,
    **opts: object,
) -> CardSource:
    """A card source for ``url``, not yet opened (call ``open()``; ``close()`` when done).

    Args:
        url: see the module docstring.
        pin_model, pin_serial: the identity the device must report (None = not pinned).
        name: the source name on events (default: ``emulator`` or the URL).
        opts: timings and transport options, see the module docstring.

    Raises:
        DeviceError: unknown or unavailable URL scheme, or a bad emulator query.
        ConfigError: an unknown option or a bad option value (names the key); a card-logging
            option without the development switch or outside the data folder.
    """
    if not isinstance(url, str) or not url.strip():
        raise DeviceError(f"card source URL must be a non-empty text, got {url!r}")
    url = check_card_logs(url.strip())
    scheme, sep, rest = url.partition("://")
    scheme = scheme.lower() if sep else ""
    if scheme in PLUGIN_SCHEMES:
        return _plugin(scheme, url, pin_model, pin_serial, name, opts)
    if scheme == "usb":
        return _usb_source(url, rest, pin_model, pin_serial, name, opts)
    if scheme == "manual":
        return _manual_source(url, rest, pin_model, pin_serial, name, opts)
    unknown = set(opts) - _TIMING_KEYS - _TRANSPORT_KEYS
    if unknown:
        raise ConfigError(f"unknown card source option(s) for {url}: {', '.join(sorted(unknown))}")
    timings = _timings(opts)
    baudrate = _int_opt(opts, "baudrate", 115200)
    if scheme == "emulator":
        from drivers.emulator.source import EmulatorSource  # the emulator only when asked for

        return EmulatorSource(
            emulator_args(url),
            name=name or "emulator",
            pin_model=pin_model,
            pin_serial=pin_serial,
            timings=timings,
            baudrate=baudrate,
        )
    if scheme == "serial":
        target = rest
    elif scheme == "" or scheme in PYSERIAL_SCHEMES:
        target = url
    else:
        raise DeviceError(
            f"unknown card source URL scheme {scheme!r} in {url!r}: use a serial device path, "
            "socket://host:port, loop://, emulator://?seed=N, usb://VID:PID, camera://N, "
            "file://PATH or manual://"
        )
    write_timeout = opts.get("write_timeout", 1.0)
    exclusive = opts.get("exclusive")
    if not isinstance(write_timeout, int | float) or isinstance(write_timeout, bool):
        raise ConfigError(f"write_timeout must be seconds, got {write_timeout!r}")
    if exclusive is not None and not isinstance(exclusive, bool):
        raise ConfigError(f"exclusive must be true or false, got {exclusive!r}")
    if exclusive is None and "://" not in target and os.name == "posix":
        exclusive = True  # one table process per serial port: a second opener fails clearly
    try:
        transport = SerialTransport(
            target, baudrate, write_timeout=float(write_timeout), exclusive=exclusive
        )
    except DeviceError as e:
        raise ConfigError(f"card source {url}: {e}") from e
    return TcrpDevice(
        transport, name=name or url, pin_model=pin_model, pin_serial=pin_serial, timings=timings
    )


def emulator_args(url: str) -> list[str]:
    """Emulator command-line options from an ``emulator://?key=value&...`` URL, checked by the
    emulator's own option parser.

    Raises:
        DeviceError: a key that is not an emulator option, a bad value, or a path in the URL.
        ConfigError: ``dealt_log`` without the development switch or outside the data folder.
    """
    from drivers.emulator.cli import add_arguments, config_from_args

    url = check_card_logs(url)
    parts = urlsplit(url)
    if parts.netloc or parts.path not in ("", "/"):
        raise DeviceError(f"emulator URL takes options only, as emulator://?seed=7: {url!r}")
    args: list[str] = []
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        args += ["--" + key.strip().lower().replace("_", "-"), value]
    parser = _RaisingParser(prog=url, add_help=False)
    add_arguments(parser)
    try:
        config_from_args(parser.parse_args(["--pty", *args]), seed=0)
    except ConfigError as e:
        raise DeviceError(f"{url}: {e}") from e
    return args


def seeded_url(url: str, seed: int) -> str:
    """``url`` with the emulator's shuffle seed ``seed`` (replacing one it had); any other URL
    unchanged. Without a seed the emulator draws one from the OS at every start, so a restart
    never deals the decks of the last run again."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "emulator":
        return url
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "seed"]
    return "emulator://?" + urlencode([("seed", str(seed)), *query])


def with_seed(config: TableConfig, seed: int | None) -> TableConfig:
    """``config`` whose built-in emulator sources shuffle with ``seed`` (``--seed``: the same
    decks at every start, for a rehearsal); ``None`` leaves them as configured (the shipped
    ``emulator://`` draws its seed from the OS at every start)."""
    if seed is None:
        return config
    sources = tuple(replace(s, url=seeded_url(s.url, seed)) for s in config.sources)
    return replace(config, sources=sources)


class _RaisingParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise DeviceError(f"bad emulator option in {self.prog!r}: {message}")


def _timings(opts: Mapping[str, object]) -> TcrpTimings | None:
    given = {k: v for k, v in opts.items() if k in _TIMING_KEYS}
    if not given:
        return None
    for key, value in given.items():
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise ConfigError(f"card source option {key} must be a number, got {value!r}")
    return TcrpTimings(**given)  # type: ignore[arg-type]  # numbers checked just above


def _int_opt(opts: Mapping[str, object], key: str, default: int) -> int:
    value = opts.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"card source option {key} must be an integer, got {value!r}")
    return value


def _plugin(
    scheme: str,
    url: str,
    pin_model: str | None,
    pin_serial: str | None,
    name: str | None,
    opts: Mapping[str, object],
) -> CardSource:
    module_name = PLUGIN_SCHEMES[scheme]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        raise DeviceError(
            f"{scheme}:// card sources are not available ({module_name} is missing: {e.name})"
        ) from e
    builder = getattr(module, "open_source", None)
    if builder is None:
        raise DeviceError(f"{scheme}:// card sources are not available ({module_name} has none)")
    source: CardSource = builder(url, pin_model=pin_model, pin_serial=pin_serial, name=name, **opts)
    return source


def _usb_source(
    url: str,
    rest: str,
    pin_model: str | None,
    pin_serial: str | None,
    name: str | None,
    opts: Mapping[str, object],
) -> CardSource:
    """``usb://VID:PID[?serial=S&interface=N]`` -> TcrpDevice over a UsbTransport."""
    try:
        from drivers.transport.usb import UsbTransport, parse_vid_pid
    except ModuleNotFoundError as e:
        raise DeviceError(
            f"usb:// card sources need pyusb and libusb-package ({e.name} is missing): "
            "pip install 'dealer-assist[usb]'"
        ) from e
    unknown = set(opts) - _TIMING_KEYS - _USB_KEYS
    if unknown:
        raise ConfigError(f"unknown card source option(s) for {url}: {', '.join(sorted(unknown))}")
    ids, _, query_text = rest.partition("?")
    query = dict(parse_qsl(query_text, keep_blank_values=True))
    bad_keys = set(query) - {"serial", "interface"}
    if bad_keys:
        raise DeviceError(f"unknown USB URL key(s) in {url!r}: {', '.join(sorted(bad_keys))}")
    settings: dict[str, object] = {**query, **{k: v for k, v in opts.items() if k in _USB_KEYS}}
    try:
        vid, pid = parse_vid_pid(ids.rstrip("/"))
    except DeviceError as e:
        raise DeviceError(f"{url}: {e}") from e
    serial = settings.get("serial")
    interface = settings.get("interface")
    write_timeout = settings.get("write_timeout", 1.0)
    if serial is not None and (not isinstance(serial, str) or not serial):
        raise ConfigError(f"USB serial must be a non-empty text, got {serial!r}")
    if interface is not None:
        try:
            interface = int(str(interface))
        except ValueError as e:
            raise ConfigError(f"USB interface must be a number, got {interface!r}") from e
    if not isinstance(write_timeout, int | float) or isinstance(write_timeout, bool):
        raise ConfigError(f"write_timeout must be seconds, got {write_timeout!r}")
    try:
        transport = UsbTransport(
            vid,
            pid,
            serial=serial,
            interface=interface,
            backend=settings.get("backend"),
            write_timeout=float(write_timeout),
        )
    except DeviceError as e:
        raise ConfigError(f"card source {url}: {e}") from e
    return TcrpDevice(
        transport,
        name=name or url,
        pin_model=pin_model,
        pin_serial=pin_serial,
        timings=_timings(opts),
    )


def _manual_source(
    url: str,
    rest: str,
    pin_model: str | None,
    pin_serial: str | None,
    name: str | None,
    opts: Mapping[str, object],
) -> CardSource:
    """``manual://`` -> ManualSource (no options, no identity to pin)."""
    from drivers.manual import ManualSource

    if rest.strip("/"):
        raise DeviceError(f"manual card source takes no path or options: {url!r}")
    if opts:
        raise ConfigError(f"unknown card source option(s) for {url}: {', '.join(sorted(opts))}")
    if pin_model is not None or pin_serial is not None:
        raise ConfigError(f"{url}: manual entry has no device identity to pin")
    return ManualSource(name=name or "manual")
