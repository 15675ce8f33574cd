"""``dealer-assist emulator``: run the built-in TCRP/1 shuffler emulator.

``--pty`` (default) creates a pseudo-terminal and prints its path as the first stdout line;
``--tcp PORT`` listens on 127.0.0.1 and prints ``socket://127.0.0.1:PORT``. It serves until
SIGTERM or Ctrl-C. Options are those of ``python -m drivers.emulator``.
"""

from __future__ import annotations

import argparse
from typing import Any

from drivers.emulator.cli import add_arguments, run


def register(sub: Any) -> None:
    """Add the ``emulator`` sub-command (sets ``func(args) -> int``)."""
    p: argparse.ArgumentParser = sub.add_parser(
        "emulator",
        help="run the TCRP/1 shuffler emulator on a pseudo-terminal or TCP 127.0.0.1",
        description="Emulated TCRP/1 card shuffler for tests and demos. Prints where to "
        "connect (pty path or socket:// URL) as the first line, then serves until stopped.",
    )
    add_arguments(p)
    p.set_defaults(func=run)
