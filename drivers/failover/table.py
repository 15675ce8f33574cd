"""A table's configured card sources as one failover chain (:func:`open_table_sources`).

Each source of the table's configuration is built with :func:`drivers.factory.open_source` and
named after its kind (:func:`source_kind`) unless its options name it; the keypad is added as
the last resort.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from dealer_assist.config import TableConfig
from dealer_assist.errors import ConfigError, DealerAssistError
from dealer_assist.source import CardSource
from drivers.failover.chain import FailoverSource
from drivers.manual import ManualSource


def source_kind(url: str) -> str:
    """The kind of a source URL, used as its default name: ``serial``, ``usb``, ``camera``,
    ``file``, ``manual`` or ``emulator``."""
    scheme = urlsplit(url.strip()).scheme.lower() if "://" in url else ""
    if scheme in ("usb", "camera", "file", "manual", "emulator"):
        return scheme
    return "serial"


def open_table_sources(
    config: TableConfig,
    *,
    manual_last: bool = True,
    switch_after: float = 5.0,
    retry_interval: float = 5.0,
    failback_interval: float | None = 5.0,
) -> FailoverSource:
    """The table's card sources (``config.sources``, in order) as one FailoverSource, built with
    :func:`drivers.factory.open_source` and not yet opened (call ``open()``).

    Each source is named after its kind (``serial``, ``usb``, ``camera``, ``file``, ``manual``,
    ``emulator``; ``-2``, ``-3`` ... when repeated) unless its options give a ``name``; the
    journal records that name for every card. With ``manual_last`` a ``manual`` source is added
    at the end when the configuration has none: the dealer's hand is the last resort.
    ``switch_after``, ``retry_interval`` and ``failback_interval`` are as for FailoverSource.

    Raises:
        ConfigError: no source, or a source that cannot be built (names ``sources[i]``).
    """
    from drivers.factory import open_source

    if not config.sources and not manual_last:
        raise ConfigError("sources: the table lists no card source")
    built: list[CardSource] = []
    names: set[str] = set()
    for i, sc in enumerate(config.sources):
        options = dict(sc.options)
        given = options.pop("name", None)
        if given is not None and (not isinstance(given, str) or not given.strip()):
            raise ConfigError(f"sources[{i}].name: must be a non-empty text, got {given!r}")
        name = _unique(given or source_kind(sc.url), names)
        try:
            source = open_source(
                sc.url, pin_model=sc.pin_model, pin_serial=sc.pin_serial, name=name, **options
            )
        except DealerAssistError as e:
            raise ConfigError(f"sources[{i}] ({sc.url}): {e}") from e
        built.append(source)
    if manual_last and not any(isinstance(s, ManualSource) for s in built):
        built.append(ManualSource(name=_unique("manual", names)))
    return FailoverSource(
        built,
        switch_after=switch_after,
        retry_interval=retry_interval,
        failback_interval=failback_interval,
    )


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}-{n}"
    taken.add(candidate)
    return candidate
