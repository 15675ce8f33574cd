"""The ``dealer-assist`` command: one sub-command per module in :mod:`ui.commands`.

:data:`COMMANDS` names every top-level command with its module and one-line help. Building the
parser imports none of those modules: each command's parser is a :class:`LazyCommandParser`
that imports its module and calls ``register(subparsers)`` only when the command line names
it, so ``settle``, ``--help`` and a bad argument load neither SQLAlchemy nor Qt nor the
simulators. A command module's ``register`` adds its parser (same name) and sets
``func(args) -> int`` (the exit status); heavy imports belong in ``func`` or in the modules it
calls. A new command is one more :class:`Command` line below.

A missing optional dependency (Qt, OpenCV, PostgreSQL driver, USB) breaks only the commands
that need it, and the error names the extra to install (:data:`EXTRAS`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NamedTuple, NoReturn

from dealer_assist import __version__
from dealer_assist.errors import DealerAssistError


class Command(NamedTuple):
    """One top-level command: its name, the module whose ``register`` builds its parser, and
    the help line ``dealer-assist --help`` shows without importing that module."""

    name: str
    module: str
    help: str


COMMANDS = (
    Command(
        "settle",
        "ui.commands.settle",
        "settle hand records (JSON object or JSON Lines) per HAND_RECORD.md",
    ),
    Command(
        "simulate",
        "ui.commands.simulate",
        "deal and settle N hands through a TCRP/1 card source (emulator by default)",
    ),
    Command(
        "emulator",
        "ui.commands.emulator",
        "run the TCRP/1 shuffler emulator on a pseudo-terminal or TCP 127.0.0.1",
    ),
    Command(
        "audit", "ui.commands.audit", "verify the hand journal's hash chain, show stored hands"
    ),
    Command(
        "floor",
        "ui.commands.floor",
        "the floor database: migrate, sync a table's journal, status, verify, alerts",
    ),
    Command(
        "phh", "ui.commands.phh", "export journaled Hold'em hands as PHH, import PHH hand histories"
    ),
    Command(
        "camera",
        "ui.commands.camera",
        "camera card recognition: calibrate the house deck, evaluate on photos",
    ),
    Command(
        "soak",
        "ui.commands.soak",
        "run hands against the emulator with a noisy line, faults and kill -9 restarts",
    ),
    Command(
        "console",
        "ui.commands.console",
        "the dealer's touchscreen console (UTH/THB hands from the card reader)",
    ),
    Command(
        "tournament", "ui.commands.tournament", "tournaments (rules text 002): headless simulation"
    ),
    Command(
        "pitboss",
        "ui.commands.pitboss",
        "the pit boss's application: floor, alerts, hand search, replay, recompute",
    ),
)

#: The command modules, in :data:`COMMANDS` order.
COMMAND_MODULES = tuple(c.module for c in COMMANDS)

#: Top-level package of an optional dependency -> the extra of pyproject.toml that installs it.
EXTRAS = {
    "PySide6": "gui",
    "shiboken6": "gui",
    "pyqtgraph": "gui",
    "cv2": "camera",
    "usb": "usb",
    "libusb_package": "usb",
    "psycopg": "postgres",
}


class MissingExtraError(DealerAssistError):
    """A command needs an optional dependency that is not installed; names the extra."""


def missing_extra(e: ModuleNotFoundError) -> MissingExtraError | None:
    """The error naming the extra that installs the module ``e`` did not find, or None when
    that module belongs to no extra (a bug, not an installation choice)."""
    top = (e.name or "").split(".")[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return None
    return MissingExtraError(
        f"needs the {extra!r} extra, not installed (no module named {top!r}): "
        f"pip install 'dealer-assist[{extra}]'"
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


class LazyCommandParser(CommandParser):
    """The parser of one :class:`Command` that builds the real one (its module's
    ``register``) the first time it parses, and parses with it."""

    command: Command
    _real: argparse.ArgumentParser | None = None

    def real(self) -> argparse.ArgumentParser:
        """The command's own parser, its module imported on the first call.

        Raises:
            MissingExtraError: the module needs an optional extra that is not installed.
        """
        if self._real is None:
            try:
                module = importlib.import_module(self.command.module)
            except ModuleNotFoundError as e:
                error = missing_extra(e)
                if error is None:
                    raise
                raise error from e
            top = Parser(prog=self.prog.rsplit(" ", 1)[0])
            sub = top.add_subparsers(parser_class=CommandParser)
            module.register(sub)
            self._real = sub.choices[self.command.name]
        return self._real

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        try:
            real = self.real()
        except MissingExtraError as e:
            self.exit(2, f"dealer-assist {self.command.name}: {e}\n")
        return real.parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        """Report with the real parser's usage (its options), once it is built."""
        if self._real is not None:
            self._real.error(message)
        super().error(message)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, one :class:`LazyCommandParser` per :data:`COMMANDS` entry;
    imports no command module (see :class:`Parser`, :class:`CommandParser`)."""
    parser = Parser(
        prog="dealer-assist",
        description="Live-table dealer assistant: card readers, rules, settlement, audit journal.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=LazyCommandParser
    )
    for command in COMMANDS:
        lazy = sub.add_parser(command.name, help=command.help)
        lazy.command = command
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``dealer-assist`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except ModuleNotFoundError as e:  # an extra the command needs only once it runs
        error = missing_extra(e)
        if error is None:
            raise
        print(f"dealer-assist {args.command}: {error}", file=sys.stderr)
        return 2
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
