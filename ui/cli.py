"""The ``dealer-assist`` command: one sub-command per module in :mod:`ui.commands`.

Each command module exposes ``register(subparsers)``, which adds its parser and sets
``func(args) -> int`` (the exit status). Modules are imported only when the command line is
built, so a missing optional dependency (Qt, OpenCV) breaks only its own command.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from dealer_assist import __version__
from dealer_assist.errors import DealerAssistError

COMMAND_MODULES = (
    "ui.commands.settle",
    "ui.commands.simulate",
    "ui.commands.emulator",
    "ui.commands.audit",
    "ui.commands.floor",
    "ui.commands.phh",
    "ui.commands.camera",
    "ui.commands.soak",
    "ui.commands.console",
    "ui.commands.tournament",
    "ui.commands.pitboss",
)


class Parser(argparse.ArgumentParser):
    """An argument parser that takes no abbreviated options: ``--hand 3`` is an error, not
    ``--hands 3``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)


class CommandParser(Parser):
    """A sub-command's parser (and its own sub-commands'): an argument it does not know is
    reported with its usage. Plain argparse leaves it for the top parser, whose usage does not
    show the sub-command's options."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every available sub-command (see :class:`Parser`,
    :class:`CommandParser`)."""
    parser = Parser(
        prog="dealer-assist",
        description="Live-table dealer assistant: card readers, rules, settlement, audit journal.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=CommandParser
    )
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:  # optional extra not installed: hide that command only
            if e.name and e.name.split(".")[0] in {"ui", "dealer_assist", "drivers"}:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``dealer-assist`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except DealerAssistError as e:
        print(f"dealer-assist {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and the like: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
