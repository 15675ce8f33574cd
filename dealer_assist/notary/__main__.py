"""``python -m dealer_assist.notary serve --state DIR --socket PATH``: the notary service (the
systemd unit's command; it needs nothing of the table's program but this package).

``python -m dealer_assist.notary key --state DIR --table ID``: the table's public key (made when
it has none), printed as 64 hex digits with its fingerprint: the installation's step before
``dealer-assist floor enrol`` (run as the notary's user; the private key never leaves DIR).

Both take ``--key-store pkcs11`` with ``--pkcs11-module``, ``--pkcs11-token``,
``--pkcs11-key-label`` and ``--pkcs11-pin-file`` or ``--pkcs11-pin-env``: the keys are then in
a PKCS#11 token (SoftHSM2, an HSM) that signs and never gives the private key out."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from dealer_assist.errors import DealerAssistError
from dealer_assist.notary.keystore import (
    DEFAULT_LABEL,
    FileKeyStore,
    KeyStore,
    Pkcs11KeyStore,
    Pkcs11Settings,
)
from dealer_assist.notary.server import serve
from dealer_assist.notary.state import NotaryState


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
    for q in (s, k):
        q.add_argument(
            "--key-store",
            choices=("file", "pkcs11"),
            default="file",
            help="where the keys are: files in --state (default) or a PKCS#11 token",
        )
        q.add_argument(
            "--pkcs11-module", help="the PKCS#11 library, e.g. /usr/lib/softhsm/libsofthsm2.so"
        )
        q.add_argument("--pkcs11-token", help="the token's label")
        q.add_argument(
            "--pkcs11-key-label",
            default=DEFAULT_LABEL,
            help="each table's key label, {table} the table id (default %(default)s)",
        )
        q.add_argument("--pkcs11-pin-file", help="a file whose first line is the user PIN")
        q.add_argument("--pkcs11-pin-env", help="an environment variable holding the user PIN")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(message)s")
    try:
        keys = _key_store(args)
        if args.command == "key":
            return _print_key(args.state, args.table, keys)
        serve(args.state, args.socket, int(args.socket_mode, 8), keys)
    except (DealerAssistError, OSError, ValueError) as e:
        print(f"notary: {e}", file=sys.stderr)
        return 2
    return 0


def _key_store(args: argparse.Namespace) -> KeyStore | None:
    """The token's store for ``--key-store pkcs11`` (None: the default key files)."""
    if args.key_store != "pkcs11":
        return None
    if not args.pkcs11_module or not args.pkcs11_token:
        raise ValueError("--key-store pkcs11 needs --pkcs11-module and --pkcs11-token")
    return Pkcs11KeyStore(
        Pkcs11Settings(
            Path(args.pkcs11_module),
            args.pkcs11_token,
            args.pkcs11_key_label,
            Path(args.pkcs11_pin_file) if args.pkcs11_pin_file else None,
            args.pkcs11_pin_env or None,
        )
    )


def _print_key(state: str, table: str, keys: KeyStore | None) -> int:
    import hashlib

    store = keys if keys is not None else FileKeyStore(NotaryState(state))
    key = store.load(table) or store.new(table)
    raw = key.public_raw()
    print(raw.hex())
    print(f"fingerprint {hashlib.sha256(raw).hexdigest()} (table {table})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
