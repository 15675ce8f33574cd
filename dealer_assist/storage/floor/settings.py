"""The floor's settings in a table's TOML (``[floor]``), read here rather than in
:mod:`dealer_assist.config` so the table's own settings stay as they are::

    [floor]
    url = "postgresql+psycopg://dealer@floor-db:5432/floor"   # empty or absent: no floor
    pit = "A"                                                 # optional
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from dealer_assist.errors import ConfigError


@dataclass(frozen=True)
class FloorSettings:
    """``url``: the floor database (``None``: this table forwards to no floor); ``pit``."""

    url: str | None = None
    pit: str | None = None


def floor_settings(path: str | Path) -> FloorSettings:
    """The ``[floor]`` section of the table TOML at ``path``.

    Raises:
        ConfigError: unreadable file, bad TOML, ``floor`` not a table, or ``floor.url`` /
            ``floor.pit`` not a string (the message names file and key).
    """
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"{p}: cannot read: {e.strerror}") from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: not valid TOML: {e}") from e
    section = data.get("floor", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{p}: floor: must be a table")
    values: dict[str, str | None] = {}
    for key in ("url", "pit"):
        value = section.get(key)
        if value is not None and not isinstance(value, str):
            raise ConfigError(f"{p}: floor.{key}: must be a string, got {value!r}")
        values[key] = value or None
    return FloorSettings(**values)
