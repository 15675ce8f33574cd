"""``python -m dealer_assist.notary serve --state DIR --socket PATH``: the notary service (the
systemd unit's command; it needs nothing of the table's program but this package).

``python -m dealer_assist.notary key --state DIR --table ID``: the table's public key (made when
it has none), printed as 64 hex digits with its fingerprint: the installation's step before
``dealer-assist floor enrol`` (run as the notary's user; the private key never leaves DIR)."""

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
    k = sub.add_parser("key", help="print a table's public key (made when it has none)")
    k.add_argument("--state", required=True, help="the keys and heads folder (0700)")
    k.add_argument("--table", required=True, help="the table id")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(message)s")
    try:
        if args.command == "key":
            return _print_key(args.state, args.table)
        serve(args.state, args.socket, int(args.socket_mode, 8))
    except (DealerAssistError, OSError, ValueError) as e:
        print(f"notary: {e}", file=sys.stderr)
        return 2
    return 0


def _print_key(state: str, table: str) -> int:
    import hashlib

    from cryptography.hazmat.primitives import serialization

    from dealer_assist.notary.state import NotaryState

    store = NotaryState(state)
    key = store.load_key(table) or store.new_key(table)
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    print(raw.hex())
    print(f"fingerprint {hashlib.sha256(raw).hexdigest()} (table {table})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
