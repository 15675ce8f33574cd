"""``python -m dealer_assist.notary serve --state DIR --socket PATH``: the notary service (the
systemd unit's command; it needs nothing of the table's program but this package)."""

from __future__ import annotations

import argparse
import logging
import sys

from dealer_assist.errors import DealerAssistError
from dealer_assist.notary.server import serve


def main(argv: list[str] | None = None) -> int:
    """Run the notary; exit 2 with a sentence when it cannot start."""
    p = argparse.ArgumentParser(prog="python -m dealer_assist.notary")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="sign the tables' journal entries on a Unix socket")
    s.add_argument("--state", required=True, help="the keys and heads folder (0700)")
    s.add_argument("--socket", required=True, help="the Unix socket to listen on")
    s.add_argument("--socket-mode", default="0660", help="the socket's mode (default 0660)")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(message)s")
    try:
        serve(args.state, args.socket, int(args.socket_mode, 8))
    except (DealerAssistError, OSError, ValueError) as e:
        print(f"notary: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
