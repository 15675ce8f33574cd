"""The signing side of ``dealer-assist audit`` (docs/AUDIT.md): keys, trusted keys, exports.

``audit keygen --table ID [--db PATH | --keys DIR | --key FILE] [--show]``: make the table's
Ed25519 key (private ``0600`` in a ``0700`` folder, public beside it) and print its fingerprint
for the pit boss to record; ``--show`` prints an existing key's. Never replaces a key.
``audit verify-export FILE [--sig SIG] [--public-key FILE | --floor URL | --keys DIR | --db PATH]``:
exit 0 when the file is unchanged and signed by the table's trusted key, 1 when not, 2 when it
or its signature cannot be read.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_assist.errors import DealerAssistError, JournalError

if TYPE_CHECKING:
    from dealer_assist.storage import Journal
    from dealer_assist.storage.signing import KeyRing, KeyStore, PublicKey


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``keygen`` and ``verify-export`` to ``audit``."""
    keygen = actions.add_parser("keygen", help="make a table's signing key, print its fingerprint")
    keygen.add_argument("--table", required=True, metavar="ID", help="the table id (config)")
    _key_folder_options(keygen)
    keygen.add_argument(
        "--key",
        metavar="FILE",
        help="one private key file (Journal(key_file=...)) instead of the folder's",
    )
    keygen.add_argument(
        "--show", action="store_true", help="print the existing key's fingerprint, make none"
    )
    keygen.set_defaults(func=run_keygen)
    up = actions.add_parser(
        "upgrade",
        help="sign a legacy checkpoint at the end of a journal written before signing",
    )
    up.add_argument("--db", required=True, metavar="PATH_OR_URL", help="the table's journal")
    up.add_argument("--table-id", required=True, metavar="ID", help="the table id")
    up.add_argument("--by", required=True, metavar="NAME", help="who upgrades (recorded)")
    up.add_argument(
        "--config",
        metavar="TABLE.toml",
        help="the table config: its [notary] signs (else the key folder)",
    )
    up.add_argument("--keys", metavar="DIR", help="the key folder (default keys/ beside it)")
    up.set_defaults(func=run_upgrade)
    check = actions.add_parser("verify-export", help="check a signed export against FILE.sig")
    check.add_argument("file", metavar="FILE", help="the exported file")
    check.add_argument("--sig", metavar="SIG", help="its signature (default FILE.sig)")
    add_trust_options(check)
    _key_folder_options(check)
    check.set_defaults(func=run_verify_export)


def _key_folder_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", metavar="PATH", dest="key_db", help="a SQLite journal: its keys/ folder beside it"
    )
    parser.add_argument("--keys", metavar="DIR", help="the key folder")


def add_trust_options(parser: argparse.ArgumentParser) -> None:
    """``--public-key``, ``--config``, ``--floor``: where the trusted public keys come from."""
    parser.add_argument(
        "--public-key",
        action="append",
        default=[],
        metavar="[TABLE=]FILE",
        help="a pinned public key (PEM or 64 hex digits), for TABLE or for every table; repeatable",
    )
    parser.add_argument(
        "--config",
        metavar="TABLE.toml",
        help="a table config: its journal.public_key (a path relative to "
        "it) is pinned, its [floor] url is the floor",
    )
    parser.add_argument(
        "--floor",
        metavar="URL",
        help="the floor database: its copy of each table's public key and chain",
    )


def run_keygen(args: argparse.Namespace) -> int:
    """``audit keygen``: 0 made (or shown), 2 on errors (a key exists, no folder given...)."""
    from dealer_assist.storage.signing import KeyStore, format_fingerprint

    try:
        folder = _folder(args.keys, args.key_db)
        if folder is None and args.key is None:
            raise JournalError("name where the key goes: --db JOURNAL, --keys DIR or --key FILE")
        store = KeyStore(folder or Path(args.key).parent, args.key)
        if args.show:
            key = store.public_key(args.table)
            if key is None:
                raise JournalError(
                    f"no signing key of table {args.table} at {store.key_path(args.table)}"
                )
        else:
            if not store.has_key(args.table):
                _refuse_foreign_chain(args.key_db, args.table)
            key = store.generate(args.table).public
    except DealerAssistError as e:
        print(f"dealer-assist audit: {e}", file=sys.stderr)
        return 2
    verb = "signing key" if args.show else "new signing key"
    print(f"{verb} of table {args.table}: {store.key_path(args.table)} (private, 0600)")
    print(f"public key: {store.pub_path(args.table)}  ({key.hex})")
    print(f"fingerprint: {format_fingerprint(key.fingerprint)}")
    print(f"key id: {key.key_id}")
    if not args.show:
        print(
            "record the fingerprint in the pit register and pin the public key where the "
            "journal's writers cannot change it (journal.public_key, the floor)"
        )
    return 0


def run_upgrade(args: argparse.Namespace) -> int:
    """``audit upgrade``: 0 the checkpoint is signed, 2 on errors (sentences)."""
    from dealer_assist.notary.settings import notary_settings
    from dealer_assist.storage import Journal
    from dealer_assist.storage.legacy import upgrade

    try:
        notary = notary_settings(args.config).client(args.table_id)
        with Journal(
            args.db, create=False, supervise=False, keys=args.keys, notary=notary
        ) as journal:
            stored = upgrade(journal, args.table_id, args.by)
    except DealerAssistError as e:
        print(f"dealer-assist audit: {e}", file=sys.stderr)
        return 2
    signer = "its notary" if notary is not None else "the key folder's key"
    print(
        f"table {args.table_id}: legacy checkpoint {stored.hand_id} signed by {signer} (key "
        f"{stored.key_id}); entries 1-{stored.hand_id - 1} were written before signing, every "
        "entry from here on must be signed"
    )
    return 0


def _refuse_foreign_chain(db: str | None, table_id: str) -> None:
    """A new key for a table whose journal is signed already would never match it."""
    if db is None or not Path(db).is_file():
        return
    from dealer_assist.storage import Journal

    with Journal(db, create=False, read_only=True) as journal:
        signed = journal.signing_key_id(table_id)
    if signed is not None:
        raise JournalError(
            f"the journal {db} is signed with key {signed} for table {table_id}: restore that "
            f"key file instead of making a new one"
        )


def _folder(keys: str | None, db: str | None) -> Path | None:
    from dealer_assist.storage.signing import default_keys_folder

    if keys is not None:
        return Path(keys)
    if db is not None and "://" not in db:
        return default_keys_folder(Path(db).expanduser().absolute())
    return None


def trusted_keys(args: argparse.Namespace, journal: Journal | None) -> KeyRing:
    """The key ring of a verify: pinned keys (``--public-key``, ``journal.public_key`` of
    ``--config``), else the floor's copies (``--floor``), else the key folder (``--keys``,
    ``--db``'s, or the journal's own: not pinned).

    Raises:
        JournalError: a key file that cannot be read; ConfigError: a bad ``--config``.
        FloorError: the floor cannot be read.
    """
    from dealer_assist.storage.signing import KeyRing, KeyStore, load_public_key

    tables: dict[str, PublicKey] = {}
    any_table = None
    config_pub = _config_public_key(args.config)
    for spec in [*args.public_key, *([config_pub] if config_pub else [])]:
        table, sep, path = spec.partition("=")
        if sep and not Path(spec).exists():
            tables[table] = load_public_key(path)
        else:
            any_table = load_public_key(spec)
    if args.floor and journal is not None:
        from dealer_assist.storage.crosscheck import floor_public_keys
        from dealer_assist.storage.floor.floor import Floor

        with Floor(args.floor) as floor:
            floor_keys = floor_public_keys(floor, journal.table_ids())
        tables = {**floor_keys, **tables}
    if args.config and journal is not None and any_table is None:  # a pinned key goes first
        tables = {**_notary_keys(args.config, journal.table_ids()), **tables}
    local: KeyStore | None = journal.key_store if journal is not None else None
    folder = _folder(getattr(args, "keys", None), getattr(args, "key_db", None))
    if folder is not None:
        local = KeyStore(folder)
    return KeyRing(tables, any_table, local)


def _notary_keys(config: str, table_ids: list[str]) -> dict[str, PublicKey]:
    """The notary's key of each table (``[notary]`` of the config), when it answers: not
    pinned (a floor's or a pinned file's key goes first), but not beside the journal either."""
    from dealer_assist.notary.client import NotaryUnavailableError
    from dealer_assist.notary.settings import notary_settings
    from dealer_assist.storage.notarize import notary_key

    settings = notary_settings(config)
    found: dict[str, PublicKey] = {}
    for table in table_ids:
        client = settings.client(table)
        if client is None:
            return found
        try:
            key = notary_key(client.head())
        except NotaryUnavailableError as e:
            print(f"note: {e}", file=sys.stderr)
            return found
        if key is not None:
            found[table] = key
    return found


def notary_lines(journal: Journal, config: str) -> list[str]:
    """The journal compared with its notary's head (``[notary]`` of the table config), when the
    notary answers: a journal that ends before the head (cut, deleted, restarted) or differs at
    the head's position is a ``FAIL`` naming the position."""
    from dealer_assist.notary.client import NotaryUnavailableError
    from dealer_assist.notary.settings import notary_settings

    settings = notary_settings(config)
    tables = journal.table_ids() or [config_table_id(config)]
    lines: list[str] = []
    for table in tables:
        client = settings.client(table)
        if client is None:
            return lines
        try:
            head = client.head()
        except NotaryUnavailableError as e:
            return [f"notary not compared: {e}"]
        last = journal.last_hand()
        ends = 0 if last is None else last.hand_id
        if head.position > ends:
            lines.append(
                f"FAIL: table {table}: the notary signed up to position {head.position} "
                f"but the journal ends at {ends}: cut, deleted or replaced"
            )
            lines.append(f"first changed hand: {ends + 1}")
        elif head.position and journal.get_hand(head.position).hash != head.hash:
            lines.append(
                f"FAIL: table {table}: entry {head.position} is not the one the notary signed"
            )
            lines.append(f"first changed hand: {head.position}")
        elif ends > head.position:
            lines.append(
                f"FAIL: table {table}: entries {head.position + 1}-{ends} are not "
                f"covered by the signer (its head is at {head.position}): appended "
                "without it"
            )
            lines.append(f"first changed hand: {head.position + 1}")
        else:
            lines.append(f"table {table}: the notary's head {head.position} is in the journal")
    return lines


def config_table_id(config: str) -> str:
    """``[table] id`` of a table config, ``""`` when it has none or cannot be read."""
    try:
        data = tomllib.loads(Path(config).read_text(encoding="utf-8-sig"))
    except (OSError, tomllib.TOMLDecodeError):
        return ""
    table = data.get("table", {})
    return str(table.get("id", "")) if isinstance(table, dict) else ""


def _config_public_key(config: str | None) -> str | None:
    """``journal.public_key`` of a table config (a path relative to the config file): the
    table's pinned public key. The tables themselves keep their key in ``keys/`` beside their
    journal (docs/AUDIT.md)."""
    if config is None:
        return None
    from dealer_assist.errors import ConfigError

    path = Path(config)
    try:
        journal = tomllib.loads(path.read_text(encoding="utf-8-sig")).get("journal", {})
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from e
    value = journal.get("public_key") if isinstance(journal, dict) else None
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"{path}: journal.public_key: must be a file path, got {value!r}")
    return None if value is None else str(path.parent / Path(value).expanduser())


def floor_from_config(args: argparse.Namespace) -> None:
    """``--floor`` defaults to the ``[floor] url`` of ``--config`` (when it names one).

    Raises:
        ConfigError: a bad config file.
    """
    if args.config and not args.floor:
        from dealer_assist.storage.floor.settings import floor_settings

        args.floor = floor_settings(args.config).url


def run_verify_export(args: argparse.Namespace) -> int:
    """``audit verify-export``: 0 verified against a trusted key, 1 not, 2 unreadable."""
    from dealer_assist.storage.signed_export import read_signature, verify_export

    try:
        floor_from_config(args)
        signer = str(read_signature(args.file, args.sig)["signer"])
        ring = trusted_keys(args, None)
        if args.floor:
            from dealer_assist.storage.crosscheck import floor_public_keys
            from dealer_assist.storage.floor.floor import Floor

            with Floor(args.floor) as floor:
                ring = type(ring)(
                    {**floor_public_keys(floor, [signer]), **ring.tables},
                    ring.any_table,
                    ring.local,
                )
        trusted = ring.for_table(signer)
        check = verify_export(args.file, trusted, args.sig)
    except DealerAssistError as e:
        print(f"dealer-assist audit: {e}", file=sys.stderr)
        return 2
    if not check.ok:
        print(f"FAIL: {args.file}: {check.reason}")
        return 1
    pinned = "" if trusted is not None and trusted.pinned else " (a key folder's key, not pinned)"
    print(f"OK: {args.file} signed by {check.signer} at {check.signed_at}, key {check.key_id}")
    print(f"checked against {check.trusted}{pinned}")
    return 0


def sign_export_file(path: Path, table_id: str, store: KeyStore | None) -> Path:
    """Sign a finished export with ``table_id``'s key from ``store``; the ``.sig`` path.

    Raises:
        JournalError: no key folder, or the key cannot be read (the export stays unsigned).
    """
    from dealer_assist.storage.signed_export import sign_export

    if store is None:
        raise JournalError("no key folder to sign the export with (give --keys DIR)")
    return sign_export(path, store.load(table_id), table_id)
