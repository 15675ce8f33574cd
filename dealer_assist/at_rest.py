"""Cards at rest are the table's secret: private files, the private data folder and the
card-logging source options.

The journal (with its pending-step log), its SQLite ``-wal``/``-shm`` and the ``--records`` file
hold the cards of the hand in progress, so they are created ``0600`` (``0640`` with a named
group, for an audit account) before anything is written to them, and the data folder
(platformdirs ``user_data_dir``) is ``0700``. A card source option that writes every dealt card
to a file (``spy://PORT?file=``, ``emulator://?dealt_log=``) is a development tool: it is
refused unless ``DEALER_ASSIST_DEV=1`` is set in the environment, and even then it may only
write inside the data folder (a relative path is taken from there).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TextIO
from urllib.parse import parse_qsl, urlencode, urlsplit

from platformdirs import user_data_dir

from dealer_assist.errors import ConfigError

DEV_ENV = "DEALER_ASSIST_DEV"
"""The development switch: ``DEALER_ASSIST_DEV=1`` allows card-logging source options."""
APP_NAME = "dealer-assist"
FILE_MODE = 0o600
GROUP_FILE_MODE = 0o640
FOLDER_MODE = 0o700
SQLITE_SIDE_FILES = ("-wal", "-shm")
# source URL scheme -> option keys (normalized: lower case, "-" for "_") that log dealt cards
CARD_LOG_OPTIONS = {"spy": ("file",), "emulator": ("dealt-log",)}


def development_enabled() -> bool:
    """Whether the development switch ``DEALER_ASSIST_DEV=1`` is set."""
    return os.environ.get(DEV_ENV, "").strip() == "1"


def data_folder() -> Path:
    """The data folder (``user_data_dir("dealer-assist")``, e.g. ``~/.local/share/dealer-assist``
    or ``$XDG_DATA_HOME/dealer-assist``), created ``0700``; an existing one of ours is set to
    ``0700`` (an older version, or the camera calibration, created it ``0755``).

    Raises:
        ConfigError: the folder cannot be created (names it and why).
    """
    folder = Path(user_data_dir(APP_NAME, appauthor=False))
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
        _tighten(folder, FOLDER_MODE)
    except OSError as e:
        raise ConfigError(f"cannot create the data folder {folder}: {e.strerror}") from e
    return folder


def group_id(group: str | None) -> int | None:
    """The id of the named group (None for None).

    Raises:
        ConfigError: no such group, or groups are not supported here (not POSIX).
    """
    if group is None:
        return None
    try:
        import grp
    except ImportError as e:  # Windows: no POSIX groups
        raise ConfigError(f"journal.group {group!r}: groups need a POSIX system") from e
    try:
        return grp.getgrnam(group).gr_gid
    except KeyError as e:
        raise ConfigError(f"journal.group: no group named {group!r} on this system") from e


def private_file(path: Path, *, group: str | None = None) -> None:
    """Create ``path`` empty if missing (never truncated) with mode ``0600``, or ``0640`` and
    owned by ``group``; an existing file of ours gets that mode and group too. Used before
    SQLite opens a journal, so the database and its ``-wal``/``-shm`` (SQLite copies the
    database's mode, not its group) are never readable by another user.

    Raises:
        ConfigError: an unknown group. OSError: the file cannot be created or changed.
    """
    gid = group_id(group)
    try:
        fd = os.open(
            path, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), FILE_MODE
        )
    except FileExistsError:
        # An existing file is changed by its path, never opened: closing any descriptor of a
        # file drops every POSIX lock this process holds on it, and SQLite's locks on a live
        # journal, -wal and -shm are exactly such locks (a reader then saw a torn WAL: SIGBUS).
        _set_path_owner_mode(path, gid)
        return
    try:
        _set_owner_mode(fd, gid)
    finally:
        os.close(fd)


def private_sqlite_files(database: Path, *, group: str | None = None) -> None:
    """:func:`private_file` for a SQLite database and the ``-wal``/``-shm`` files SQLite will
    open beside it (an empty WAL or shared-memory file is one SQLite starts afresh)."""
    private_file(database, group=group)
    for suffix in SQLITE_SIDE_FILES:
        private_file(database.with_name(database.name + suffix), group=group)


def open_private(path: str | Path, *, append: bool = False, group: str | None = None) -> TextIO:
    """A UTF-8 text file opened for writing (truncated, or appended to with ``append``),
    created ``0600`` (``0640`` with ``group``); an existing file of ours gets that mode.

    Raises:
        ConfigError: the file cannot be opened (names it and why), or an unknown group.
    """
    gid = group_id(group)
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    except OSError as e:
        raise ConfigError(f"cannot write {path}: {e.strerror}") from e
    try:
        _set_owner_mode(fd, gid)
        return os.fdopen(fd, "a" if append else "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


def card_log_options(url: str) -> list[tuple[str, str]]:
    """The card-logging options of a card source URL: (option as written, path) pairs."""
    scheme, sep, _ = url.strip().partition("://")
    keys = CARD_LOG_OPTIONS.get(scheme.lower()) if sep else None
    if not keys:
        return []
    query = urlsplit(url.strip()).query
    return [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if _norm(k) in keys]


def check_card_logs(url: str) -> str:
    """``url`` when it logs no dealt card; else, with the development switch on, ``url`` with
    every card-log path made absolute inside the data folder (a relative one is taken from it).

    Raises:
        ConfigError: a card-logging option without ``DEALER_ASSIST_DEV=1``, or its path is
            outside the data folder (names the option and the path).
    """
    logs = card_log_options(url)
    if not logs:
        return url
    if not development_enabled():
        names = ", ".join(sorted({k for k, _ in logs}))
        raise ConfigError(
            f"card source {url}: option {names} writes every dealt card to a file; refused "
            f"at a table (development only: set {DEV_ENV}=1)"
        )
    folder = data_folder().resolve()
    paths = {}
    for key, value in logs:
        target = (folder / Path(value).expanduser()).resolve()
        if not value.strip() or target == folder or not target.is_relative_to(folder):
            raise ConfigError(
                f"card source {url}: option {key}={value!r} writes outside the data folder "
                f"{folder}; a card log must be inside it"
            )
        paths[key] = str(target)
    # rebuilt by hand: urlunsplit drops the "//" of a URL without a host (emulator://?seed=1)
    base, _, query_text = url.strip().partition("?")
    query = [(k, paths.get(k, v)) for k, v in parse_qsl(query_text, keep_blank_values=True)]
    return f"{base}?{urlencode(query, safe='/')}"


def _norm(key: str) -> str:
    return key.strip().lower().replace("_", "-")


def _set_owner_mode(fd: int, gid: int | None) -> None:
    """Mode 0600 (0640 and group ``gid``) on an open file of ours; another user's file (a
    journal shared on purpose) is left as it is."""
    if os.name != "posix" or os.fstat(fd).st_uid != os.geteuid():
        return
    if gid is not None:
        os.fchown(fd, -1, gid)
    os.fchmod(fd, FILE_MODE if gid is None else GROUP_FILE_MODE)


def _set_path_owner_mode(path: Path, gid: int | None) -> None:
    """:func:`_set_owner_mode` by path, for a file that may be open (and locked) already."""
    if os.name != "posix" or os.stat(path).st_uid != os.geteuid():
        return
    if gid is not None:
        os.chown(path, -1, gid)
    os.chmod(path, FILE_MODE if gid is None else GROUP_FILE_MODE)


def _tighten(path: Path, mode: int) -> None:
    if os.name == "posix" and path.stat().st_uid == os.geteuid():
        path.chmod(mode)
