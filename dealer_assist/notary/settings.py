"""The signer's settings in a table's TOML (``[notary]``), read here rather than in
:mod:`dealer_assist.config` so the table's own settings stay as they are::

    [notary]
    socket = "/run/dealer-assist-notary/notary.sock"   # the notary signs this table's journal
    timeout = 5.0                                      # seconds per request (optional)
    # mode = "local"   # development only (DEALER_ASSIST_DEV=1): a key beside the journal

With a ``socket`` the table's journal is signed by the notary and no key is ever read or made
beside it; ``mode = "local"`` (the key in ``keys/`` beside the journal, as before the notary)
is refused unless the development switch is set. Without a ``[notary]`` section the key beside
the journal is used (a development table, or one not yet upgraded: docs/AUDIT.md).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from dealer_assist.at_rest import development_enabled
from dealer_assist.errors import ConfigError
from dealer_assist.notary.client import NotaryClient

NOTARY = "notary"
LOCAL = "local"


@dataclass(frozen=True)
class NotarySettings:
    """``socket``: the notary's Unix socket (``None``: no notary); ``mode`` ``"notary"`` or
    ``"local"``; ``timeout`` seconds per request."""

    socket: Path | None = None
    mode: str = LOCAL
    timeout: float = 5.0

    def client(self, table_id: str) -> NotaryClient | None:
        """The notary client of ``table_id``, ``None`` in local mode."""
        if self.mode != NOTARY or self.socket is None:
            return None
        return NotaryClient(self.socket, table_id, self.timeout)


def notary_settings(path: str | Path | None) -> NotarySettings:
    """The ``[notary]`` section of the table TOML at ``path`` (``None``: no file, local mode).

    Raises:
        ConfigError: unreadable file, bad TOML, a key of the wrong type, an unknown mode, or
            ``mode = "local"`` beside a socket without the development switch (names the key).
    """
    if path is None:
        return NotarySettings()
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"{p}: cannot read: {e.strerror}") from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: not valid TOML: {e}") from e
    section = data.get("notary", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{p}: notary: must be a table")
    socket = section.get("socket")
    if socket is not None and (not isinstance(socket, str) or not socket):
        raise ConfigError(f"{p}: notary.socket: must be a path, got {socket!r}")
    mode = section.get("mode", NOTARY if socket else LOCAL)
    if mode not in (NOTARY, LOCAL):
        raise ConfigError(f"{p}: notary.mode: must be 'notary' or 'local', got {mode!r}")
    if mode == NOTARY and not socket:
        raise ConfigError(f"{p}: notary.socket: the notary's socket is needed for mode 'notary'")
    if mode == LOCAL and socket and not development_enabled():
        raise ConfigError(
            f"{p}: notary.mode: 'local' (a key beside the journal) beside a notary socket is for "
            "development only (set DEALER_ASSIST_DEV=1)"
        )
    timeout = section.get("timeout", 5.0)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 60:
        raise ConfigError(f"{p}: notary.timeout: seconds between 0 and 60, got {timeout!r}")
    where = None if not socket else (p.parent / Path(socket).expanduser())
    return NotarySettings(where, mode, float(timeout))
