"""``dealer-assist pitboss report`` and ``pitboss stats`` (docs/STATISTICS.md).

``pitboss report (--floor URL | --db PATH) --from T --to T --out FILE.pdf|.csv [--pit P]
[--lang en|it] [--keys DIR] [--signer NAME]``: the shift report of every table over the range,
written and signed (``FILE.sig``; verify with ``dealer-assist audit verify-export FILE --keys
DIR``). A journal's report is signed with its table's key (``keys/`` beside it); a floor's with
the ``site`` key of ``--keys`` (make it once with ``audit keygen --table site --keys DIR``).
On the floor, each table's hold outside its band is stored as a ``hold_variance`` alert.

``pitboss stats`` prints the same figures grouped ``--by table,pit,shift,dealer,game,hour,day``
(the headless twin of the pit-boss window's Statistics tab; ``--window`` opens that tab alone).

Exit status: 0 done, 1 a hold outside its band (the report is still written), 2 errors.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_assist.errors import ConfigError, DealerAssistError, JournalError
from dealer_assist.events import iso_utc
from ui.commands.pitboss_login import add_login_options, command_login, record

if TYPE_CHECKING:
    from dealer_assist.audit.stats import StatsSource
    from dealer_assist.games.hold import Estimate
    from dealer_assist.pitboss.filters import AlertRow
    from dealer_assist.pitboss.users import User
    from dealer_assist.storage.floor import Floor
    from dealer_assist.storage.signing import Signer
    from ui.pitboss.service import AccessStores


def add_actions(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``report`` and ``stats`` to a ``pitboss`` command's actions."""
    report = actions.add_parser("report", help="a signed shift report (CSV or PDF)")
    _source_options(report)
    report.add_argument("--out", required=True, metavar="FILE", help="FILE.pdf or FILE.csv")
    report.add_argument("--lang", choices=("en", "it"), default="en")
    report.add_argument("--keys", metavar="DIR", help="the key folder of the signing key")
    report.add_argument(
        "--signer", metavar="NAME", help="the key's name (default: the journal's table, or site)"
    )
    add_login_options(report)
    report.set_defaults(func=run_report)
    stats = actions.add_parser("stats", help="hands/h, drop, win, hold by group")
    _source_options(stats)
    stats.add_argument("--by", default="table", help="groups, comma separated (default table)")
    stats.add_argument("--window", action="store_true", help="open the Statistics tab alone")
    add_login_options(stats)
    stats.set_defaults(func=run_stats)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``dealer-assist pitboss`` with ``report`` and ``stats`` alone (when the pit-boss
    application's own command is not installed)."""
    parser = subparsers.add_parser("pitboss", help="the pit boss's reports and statistics")
    add_actions(parser.add_subparsers(dest="action", required=True, metavar="ACTION"))


def _source_options(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--floor", metavar="URL", help="the floor database")
    where.add_argument("--db", metavar="PATH", help="one table's SQLite journal")
    p.add_argument(
        "--from",
        dest="start",
        required=True,
        metavar="T",
        help="start, ISO-8601 (UTC when no offset; a date is its midnight)",
    )
    p.add_argument("--to", dest="end", required=True, metavar="T", help="end (excluded)")
    p.add_argument("--pit", metavar="PIT", help="only this pit's tables")
    p.add_argument("--table-pit", metavar="PIT", help="--db: the pit the table stands in")
    p.add_argument(
        "--sim-hands",
        type=int,
        default=20_000,
        metavar="N",
        help="hands simulated for the theoretical hold (default 20000)",
    )
    p.add_argument("--sim-seed", type=int, default=1, metavar="S")


def parse_time(text: str, what: str) -> datetime:
    """An ISO-8601 time or date as an aware UTC datetime. Raises ConfigError naming ``what``."""
    try:
        value = datetime.fromisoformat(text)
    except ValueError as e:
        raise ConfigError(f"{what}: not an ISO-8601 time or date: {text!r}") from e
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _range(args: argparse.Namespace) -> tuple[datetime, datetime]:
    start, end = parse_time(args.start, "--from"), parse_time(args.end, "--to")
    if end <= start:
        raise ConfigError(f"--to ({args.end}) must be after --from ({args.start})")
    if args.sim_hands < 2:
        raise ConfigError(f"--sim-hands: at least 2, got {args.sim_hands}")
    return start, end


def _open(args: argparse.Namespace) -> tuple[StatsSource, Floor | None, str]:
    if args.floor:
        from dealer_assist.storage.floor import Floor
        from dealer_assist.storage.floor.stats import FloorStats

        floor = Floor(args.floor)
        floor.open()
        return FloorStats(floor), floor, "floor"
    from dealer_assist.storage.stats import JournalStats

    if not Path(args.db).is_file():
        raise JournalError(f"no journal at {args.db}")
    return JournalStats(args.db, pit=args.table_pit), None, str(args.db)


def _signer(args: argparse.Namespace) -> tuple[Signer, str]:
    from dealer_assist.storage import Journal
    from dealer_assist.storage.signing import KeyStore, default_keys_folder

    name = args.signer
    if args.db and name is None:
        with Journal(args.db, create=False, read_only=True) as journal:
            ids = journal.table_ids()
        if not ids:
            raise JournalError(f"{args.db}: an empty journal has no table key to sign with")
        name = ids[0]
    name = name or "site"
    folder = (
        Path(args.keys) if args.keys else (default_keys_folder(Path(args.db)) if args.db else None)
    )
    if folder is None:
        raise JournalError("a floor's report is signed with the site key: give --keys DIR")
    store = KeyStore(folder)
    if not store.has_key(name):
        raise JournalError(
            f"no signing key {name!r} in {folder}: dealer-assist audit keygen --table {name} "
            f"--keys {folder}"
        )
    return store.load(name), name


def run_report(args: argparse.Namespace) -> int:
    """``pitboss report``: 0 written and signed, 1 written with a hold alert, 2 errors."""
    from ui.pitboss.export import build_report, export_report
    from ui.pitboss.service import floor_witness

    floor = None
    stores = None
    try:
        start, end = _range(args)
        stores, user = _login(args)
        signer, name = _signer(args)
        source, floor, label = _open(args)
        report = build_report(
            source,
            start,
            end,
            label,
            pit=args.pit,
            sim_hands=args.sim_hands,
            sim_seed=args.sim_seed,
            integrity=integrity_alerts(floor, args.db),
            witness=floor_witness(floor, start, end),
        )
        out, sig = export_report(report, args.out, signer, name, language=args.lang)
        record(stores.log, user, "report", f"{iso_utc(start)} to {iso_utc(end)}: {out}")
        alerts = [a for r in report.rows for a in r.alerts]
        from dealer_assist.storage.floor.stats import FloorStats

        if isinstance(source, FloorStats) and alerts:
            source.raise_variance_alerts(
                [r.stats for r in report.rows if r.alerts], lambda g: _theory(g, args)
            )
    except DealerAssistError as e:
        print(f"dealer-assist pitboss: {e}", file=sys.stderr)
        return 2
    finally:
        if floor is not None:
            floor.close()
        if stores is not None:
            stores.close()
    print(f"wrote {out} ({len(report.rows)} tables), signed by {name}: {sig}")
    for a in report.alert_sentences:
        print(f"ALERT: {a}")
    return 1 if report.alert_sentences else 0


def integrity_alerts(floor: Floor | None, db: str | None) -> list[AlertRow]:
    """The open integrity alerts a shift report carries: the floor's open alerts of the
    :data:`~dealer_assist.pitboss.filters.INTEGRITY_ALERTS` kinds, or, for one journal, its
    verify failure (the default policy: signatures required). Raises JournalError when the
    journal cannot be read."""
    from dealer_assist.events import utc_now
    from dealer_assist.pitboss.filters import INTEGRITY_ALERTS, AlertRow

    if floor is not None:
        return [
            AlertRow(str(a.id), a.kind, a.table_id, a.position, a.detail, a.raised_at)
            for a in floor.alerts(open_only=True)
            if a.kind in INTEGRITY_ALERTS
        ]
    from dealer_assist.storage import Journal

    with Journal(str(db), create=False, read_only=True) as journal:
        result = journal.verify(checkpoint=True)
    if result.ok:
        return []
    detail = f"the journal does not verify: hand {result.first_bad_hand}: {result.reason}"
    return [AlertRow("verify", "tampered", None, result.first_bad_hand, detail, utc_now())]


def _login(args: argparse.Namespace) -> tuple[AccessStores, User]:
    """The access stores and the user ``--user`` logged in, whose role may make reports."""
    from dealer_assist.pitboss.roles import Action
    from ui.pitboss.service import open_access

    stores = open_access(args.floor, args.db)
    try:
        return stores, command_login(stores.users, stores.log, args, Action.REPORT)
    except BaseException:
        stores.close()
        raise


def _theory(game: str, args: argparse.Namespace) -> Estimate | None:
    from dealer_assist.games.hold import main_game_hold

    return main_game_hold(game, args.sim_hands, args.sim_seed)


def run_stats(args: argparse.Namespace) -> int:
    """``pitboss stats``: the rows as a text table (0), or the tab alone (``--window``)."""
    from dealer_assist.audit.stats import check_groups

    floor = None
    stores = None
    try:
        start, end = _range(args)
        by = check_groups([g.strip() for g in args.by.split(",") if g.strip()])
        stores, user = _login(args)
        record(
            stores.log,
            user,
            "report",
            f"stats by {','.join(by)} {iso_utc(start)} to {iso_utc(end)}",
        )
        if args.window:
            from ui.pitboss.stats_tab import run_window

            return run_window(args.floor, args.db, start, end, by, pit=args.pit)
        source, floor, _label = _open(args)
        rows = source.stats(start, end, by, pit=args.pit)
    except DealerAssistError as e:
        print(f"dealer-assist pitboss: {e}", file=sys.stderr)
        return 2
    finally:
        if floor is not None:
            floor.close()
        if stores is not None:
            stores.close()
    print("\t".join([*by, "games", "hands", "hands/h", "drop", "win", "hold"]))
    for r in rows:
        print(
            "\t".join(
                [
                    *r.key,
                    ",".join(r.games),
                    str(r.hands),
                    r.hands_per_hour_text(),
                    str(r.drop),
                    str(r.win),
                    f"{float(r.hold):.4%}",
                ]
            )
        )
    return 0
