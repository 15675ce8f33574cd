"""Table configuration: the TOML files a casino edits (see ``config/uth.toml``).

``load_table_config(path)`` reads one table definition; ``default_table_path(game)`` is the
shipped one. Amounts are integer minor units; any other type is a ConfigError naming the key.

A file is read as UTF-8 with or without a byte-order mark (Windows editors write one). Every
error of a file names the file, the line and the key (``uth.toml, line 12: limits.ante: need
0 < min <= max, got 10..5``): tomllib gives lines only for syntax errors, so the line of a key
is found again in the text (:func:`key_lines`).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from dealer_assist.at_rest import check_card_logs
from dealer_assist.engine.paytable import PayTables
from dealer_assist.engine.rules import Limits
from dealer_assist.errors import ConfigError, clip
from dealer_assist.games import DEFAULT_GAME, POT_GAME_CODES, get_game, get_pot_game
from dealer_assist.paytables import build_paytables


@dataclass(frozen=True)
class SourceConfig:
    """One card source: URL (``/dev/ttyUSB0``, ``socket://host:port``, ``emulator://?seed=1``,
    ``usb://VID:PID``...), the pinned device identity and transport options."""

    url: str
    pin_model: str | None = None
    pin_serial: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


SIGNOFF_ROLES = ("pit_boss", "shift_manager")
"""Who may sign off a large payout, lowest first (``[signoff]`` tiers name one)."""


@dataclass(frozen=True)
class SignoffTier:
    """``[signoff]``: a seat's payout (its net win, minor units) strictly ``above`` this amount
    waits for a sign-off by ``role`` (one of :data:`SIGNOFF_ROLES`) before the dealer pays it
    (a house rule: the rules texts leave payout controls to the house)."""

    above: int
    role: str


def signoff_role(tiers: tuple[SignoffTier, ...], amount: int) -> str | None:
    """The role that must sign off a payout of ``amount`` minor units: the highest tier it is
    above, None when it is above none (or there are no tiers)."""
    role = None
    for tier in tiers:  # sorted by ``above`` (the loader checks it)
        if amount > tier.above:
            role = tier.role
    return role


@dataclass(frozen=True)
class TableConfig:
    """A table: id, game code, seat count, limits per box, pay tables, sources, journal URL."""

    table_id: str
    game: str
    seats: int
    limits: Mapping[str, Limits]
    paytables: PayTables
    sources: tuple[SourceConfig, ...]
    journal_url: str = ""
    currency: str = "EUR"
    payout_unit: int = 1
    language: str = "it"
    chips: tuple[int, ...] = (100, 500, 1000, 2500, 10000)
    unreadable_card: str = "void"
    journal_group: str | None = None
    """``journal.group``: the journal is ``0640`` owned by this group, else ``0600``."""
    signoff: tuple[SignoffTier, ...] = ()
    """``[signoff] tiers``: large payouts that wait for a pit boss's badge and PIN (none: no
    payout waits), ascending by amount."""
    dealer: str | None = None
    """``[table] dealer``: the badge id of the dealer put on the box when the table's journal
    has none yet (:func:`dealer_assist.table.dealers.ensure_dealer`); None: nobody until a
    dealer badges in."""
    dealer_known_only: bool = False
    """``[table] dealer_known_only``: a console takes an incoming dealer's badge only when the
    pit-boss users store knows it as a ``dealer`` (:mod:`ui.kit.dealer_change`)."""
    poker: Any = None
    """A pot game's table settings (``[poker]``, read by the game's plug-in: for Hold'em a
    :class:`~dealer_assist.games.holdem_hand.HoldemGame`); None at a banked table."""


def default_table_path(game: str = DEFAULT_GAME) -> Path:
    """Path of the shipped table definition of ``game`` (``config/<game>.toml``)."""
    return Path(str(resources.files("config").joinpath(f"{game}.toml")))


def load_table_config(path: str | Path | None = None, *, game: str = DEFAULT_GAME) -> TableConfig:
    """Read a table TOML file (the shipped one of ``game`` when ``path`` is None).

    A UTF-8 byte-order mark at the start is accepted.

    Raises:
        ConfigError: unreadable file, not UTF-8, bad TOML, or a bad value; the message names
            the file, the line and the key (``FILE, line N: KEY: reason``).
    """
    p = Path(path) if path is not None else default_table_path(game)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise ConfigError(f"{p}: cannot read: {e.strerror}") from e
    try:
        text = raw.decode("utf-8-sig")  # a BOM some editors write is no part of the TOML
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise ConfigError(f"{p}, line {line}: not UTF-8 text (byte {e.start})") from e
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(_syntax_error(p, text, e)) from e
    try:
        return table_config_from_dict(data)
    except ConfigError as e:
        raise ConfigError(_value_error(p, text, str(e))) from e


_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_BARE = r"(?:[\w-]+|\"[^\"]*\"|'[^']*')"  # a bare or quoted key
_KEY = re.compile(rf"^\s*({_BARE}(?:\s*\.\s*{_BARE})*)\s*=")
_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_PATH = re.compile(r"^([\w-]+(?:\[\d+\])?(?:\.[\w-]+(?:\[\d+\])?)*)(?=:)")


def _syntax_error(p: Path, text: str, e: tomllib.TOMLDecodeError) -> str:
    """tomllib's error with the file, its line and the key written on that line."""
    msg = str(e)
    m = _AT.search(msg)
    if m is None:
        return f"{p}: not valid TOML: {msg}"
    line, column = int(m[1]), int(m[2])
    lines = text.splitlines()
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    key = _KEY.match(src)
    header = _HEADER.match(src)
    if key:
        named = f" ({_dotted(key[1])})"
    elif header:
        named = f" ([{header[2]}])"
    else:  # no key on the line (a stray word, a byte-order mark inside the file): the text
        named = f" ({clip(src.strip(), 40)!r})" if src.strip() else ""
    return f"{p}, line {line}{named}: not valid TOML: {msg[: m.start()]} at column {column}"


def _value_error(p: Path, text: str, msg: str) -> str:
    """A bad value's error (``KEY: reason``, or ``poker: KEY: reason`` from a game's loader)
    with the file and the key's line in it (the nearest enclosing key or section written in
    the file: a missing key is on its section's line; none when the section is missing)."""
    m = _PATH.match(msg)
    path = m[1] if m else ""
    rest = msg[m.end() + 1 :].lstrip() if m else msg
    inner = _PATH.match(rest)
    if path and inner:  # "poker: blinds: ..." -> poker.blinds; "poker: poker.ante: ..."
        path = inner[1] if inner[1].startswith(f"{path}.") else f"{path}.{inner[1]}"
    if not path:
        return f"{p}: {msg}"
    lines = key_lines(text)
    parts = path.split(".")
    for n in range(len(parts), 0, -1):
        line = lines.get(".".join(parts[:n]))
        if line is not None:
            return f"{p}, line {line}: {msg}"
    return f"{p}: {msg} (not in the file)"


def _dotted(key: str) -> str:
    """A TOML key as written (``a . "b"``) as a dotted path (``a.b``)."""
    return ".".join(k.strip("\"'") for k in re.findall(_BARE, key))


def key_lines(text: str) -> dict[str, int]:
    """Where each key and section of a TOML text is written: dotted path -> 1-based line
    (``table.seats``, ``limits.ante.min`` under ``[limits.ante]``, ``sources[1].url`` in the
    second ``[[sources]]``; an inline table's keys are on its key's line). The text is known to
    be valid TOML; a value spanning lines (an array, a multi-line string) is skipped whole."""
    out: dict[str, int] = {}
    counts: dict[str, int] = {}
    section = ""
    depth = 0  # open brackets of a value spanning lines
    in_string = ""  # the quotes of a multi-line string still open
    for n, line in enumerate(text.splitlines(), 1):
        if in_string:
            if in_string in line:
                in_string = ""
            continue
        if depth:
            depth = max(0, depth + _balance(line))
            continue
        header = _HEADER.match(line)
        if header and not _KEY.match(line):
            name = _dotted(header[2])
            if header[1] == "[[":
                index = counts.get(name, 0)
                counts[name] = index + 1
                out.setdefault(name, n)
                name = f"{name}[{index}]"
            section = name
            parts = section.split(".")
            for i in range(1, len(parts) + 1):  # [limits.ante] also opens limits
                out.setdefault(".".join(parts[:i]), n)
            continue
        key = _KEY.match(line)
        if key is None:
            continue
        full = f"{section}.{_dotted(key[1])}" if section else _dotted(key[1])
        out.setdefault(full, n)
        parts = full.split(".")
        for i in range(1, len(parts)):  # a dotted key also writes its parents
            out.setdefault(".".join(parts[:i]), n)
        value = line[key.end() :]
        for quotes in ('"""', "'''"):
            if value.count(quotes) % 2 == 1:
                in_string = quotes
        if not in_string:
            depth = max(0, _balance(value))
    return out


def _balance(value: str) -> int:
    """Brackets opened minus closed in a line of a value, strings and comments left out."""
    text = re.sub(r"\"(?:\\.|[^\"\\])*\"|'[^']*'", "", value).split("#", 1)[0]
    return text.count("[") + text.count("{") - text.count("]") - text.count("}")


def table_config_from_dict(data: Mapping[str, Any]) -> TableConfig:
    """Build a TableConfig from decoded TOML. Raises ConfigError naming the key."""
    table = _section(data, "table")
    code = _get(table, "game", str, "table")
    if code in POT_GAME_CODES:
        return _pot_table(data, table, code)
    game = get_game(code)
    seats = _get(table, "seats", int, "table", default=game.max_seats)
    if not 1 <= seats <= game.max_seats:
        raise ConfigError(f"table.seats: must be 1..{game.max_seats} for {game.title}")
    limits = {}
    for box, lim in _section(data, "limits").items():
        if box not in game.required_boxes + game.optional_boxes:
            raise ConfigError(f"limits.{box}: not a box of {game.title}")
        lo = _get(lim, "min", int, f"limits.{box}")
        hi = _get(lim, "max", int, f"limits.{box}")
        if not 0 < lo <= hi:
            raise ConfigError(f"limits.{box}: need 0 < min <= max, got {lo}..{hi}")
        limits[box] = Limits(lo, hi)
    return TableConfig(
        game=game.code,
        seats=seats,
        limits=limits,
        paytables=build_paytables(game.code, data.get("paytables")),
        signoff=_signoff(data),
        **_common(data, table),
    )


def _signoff(data: Mapping[str, Any]) -> tuple[SignoffTier, ...]:
    """``[signoff] tiers = [{above = 500000, role = "pit_boss"}, ...]`` (minor units, ascending
    amounts, roles of :data:`SIGNOFF_ROLES` never lower for a larger amount). Raises
    ConfigError naming the tier."""
    tiers = _get(_section(data, "signoff"), "tiers", list, "signoff", default=[])
    out: list[SignoffTier] = []
    for i, t in enumerate(tiers):
        where = f"signoff.tiers[{i}]"
        if not isinstance(t, Mapping):
            raise ConfigError(f"{where}: must be a table {{above = ..., role = ...}}")
        above = _get(t, "above", int, where)
        role = _get(t, "role", str, where)
        if above < 0:
            raise ConfigError(f"{where}.above: must be >= 0 (minor units), got {above}")
        if role not in SIGNOFF_ROLES:
            raise ConfigError(f"{where}.role: must be one of {', '.join(SIGNOFF_ROLES)}")
        if out and (
            above <= out[-1].above or SIGNOFF_ROLES.index(role) < SIGNOFF_ROLES.index(out[-1].role)
        ):
            raise ConfigError(f"{where}: amounts must ascend and roles never go down")
        out.append(SignoffTier(above, role))
    return tuple(out)


def _common(data: Mapping[str, Any], table: Mapping[str, Any]) -> dict[str, Any]:
    """The keys every table has: sources, journal, misdeal, chips, currency, language."""
    sources = []
    for i, s in enumerate(data.get("sources", [])):
        where = f"sources[{i}]"
        url = _get(s, "url", str, where)
        _refuse_card_logs(url, where)
        rest = {k: v for k, v in s.items() if k not in ("url", "pin_model", "pin_serial")}
        sources.append(SourceConfig(url, s.get("pin_model"), s.get("pin_serial"), rest))
    journal = _section(data, "journal")
    misdeal = _section(data, "misdeal")
    unreadable = _get(misdeal, "unreadable_card", str, "misdeal", default="void")
    if unreadable not in ("void", "dealer_identifies"):
        raise ConfigError("misdeal.unreadable_card: must be 'void' or 'dealer_identifies'")
    chips = tuple(_get(table, "chips", list, "table", default=[100, 500, 1000, 2500, 10000]))
    if not chips or not all(isinstance(c, int) and c > 0 for c in chips):
        raise ConfigError("table.chips: must be a list of positive integers (minor units)")
    unit = _get(table, "payout_unit", int, "table", default=1)
    if unit < 1:
        raise ConfigError("table.payout_unit: must be a positive integer")
    return {
        "table_id": _get(table, "id", str, "table"),
        "sources": tuple(sources),
        "journal_url": _get(journal, "url", str, "journal", default=""),
        "journal_group": _get(journal, "group", str, "journal", default=None),
        "currency": _get(table, "currency", str, "table", default="EUR"),
        "payout_unit": unit,
        "language": _get(table, "language", str, "table", default="it"),
        "dealer": _dealer(table),
        "dealer_known_only": _get(table, "dealer_known_only", bool, "table", default=False),
        "chips": chips,
        "unreadable_card": unreadable,
    }


def _dealer(table: Mapping[str, Any]) -> str | None:
    """``[table] dealer``: a badge id of 1..64 printable characters, or None."""
    badge: str | None = _get(table, "dealer", str, "table", default=None)
    if badge is None:
        return None
    text = badge.strip()
    if not text or len(text) > 64 or not text.isprintable():
        raise ConfigError(f"table.dealer: a badge id of 1..64 printable characters, got {badge!r}")
    return text


def _refuse_card_logs(url: str, where: str) -> None:
    """A source option that writes every dealt card to a file (``spy://…?file=``,
    ``emulator://?dealt_log=``) is refused at a table unless ``DEALER_ASSIST_DEV=1``, and
    then only inside the data folder (:mod:`dealer_assist.at_rest`)."""
    try:
        check_card_logs(url)
    except ConfigError as e:
        raise ConfigError(f"{where}.url: {e}") from e


def _pot_table(data: Mapping[str, Any], table: Mapping[str, Any], code: str) -> TableConfig:
    """A pot game's table: the common keys and the game's ``[poker]`` section."""
    game = get_pot_game(code)
    seats = _get(table, "seats", int, "table", default=game.max_seats)
    if not 2 <= seats <= game.max_seats:
        raise ConfigError(f"table.seats: must be 2..{game.max_seats} for {code}")
    common = _common(data, table)
    poker = game.table_game(_section(data, "poker"))
    return TableConfig(
        game=code,
        seats=seats,
        limits={},
        paytables=PayTables({}),
        poker=poker,
        signoff=_signoff(data),
        **common,
    )


def _section(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise ConfigError(f"{key}: must be a table")
    return value


def _get(obj: Mapping[str, Any], key: str, kind: type, where: str, default: Any = ...) -> Any:
    if key not in obj:
        if default is ...:
            raise ConfigError(f"{where}.{key}: missing")
        return default
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigError(f"{where}.{key}: must be {kind.__name__}, got {value!r}")
    return value
