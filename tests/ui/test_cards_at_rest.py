"""Cards at rest are the table's secret: the journal, its -wal/-shm (the
pending-step log holds the cards of the hand in progress) and --records are 0600 (0640 with a
named group), the data folder 0700; card-logging source options are refused at a table without
the development switch and never write outside the data folder."""

from __future__ import annotations

import grp
import json
import os
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_assist.at_rest import DEV_ENV, data_folder, open_private
from dealer_assist.config import default_table_path, table_config_from_dict
from dealer_assist.errors import ConfigError
from dealer_assist.storage.journal import Journal
from drivers.factory import emulator_args, open_source
from ui.cli import main

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")

DEALT_CARDS = {"cards": ["Ah", "Kd", "Qs", "Jc", "Tc"], "dealer": ["2h", "3h"]}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def loose_umask() -> Iterator[None]:
    """The usual umask (022), under which files are world-readable unless made private."""
    old = os.umask(0o022)
    yield
    os.umask(old)


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private XDG_DATA_HOME; the data folder is ``<it>/dealer-assist``; no dev switch."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(DEV_ENV, raising=False)
    return tmp_path / "xdg" / "dealer-assist"


def table_with_source(url: str) -> dict[str, object]:
    data = tomllib.loads(default_table_path("uth").read_text(encoding="utf-8"))
    data["sources"] = [{"url": url, "pin_model": "TCRP-EMU"}]
    return data


# -- the journal -------------------------------------------------------------------------------


def test_a_new_journal_its_wal_and_shm_are_0600(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    with Journal(str(db)) as journal:
        journal.write_step("T1", "hand-1", 1, "deal", DEALT_CARDS)
        assert journal.pending_steps("T1")[0].payload == DEALT_CARDS
        files = [db, db.with_name("journal.db-wal"), db.with_name("journal.db-shm")]
        assert all(f.exists() for f in files)
        assert b"Qs" in files[1].read_bytes() + files[0].read_bytes()  # the cards are there
        assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}


def test_an_old_world_readable_journal_is_made_private_when_opened(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    with Journal(str(db)):
        pass
    db.chmod(0o644)
    with Journal(str(db)) as journal:
        journal.write_step("T1", "hand-1", 1, "deal", DEALT_CARDS)
        assert mode(db) == 0o600
        assert mode(db.with_name("journal.db-wal")) == 0o600


def test_a_named_group_gives_0640_owned_by_that_group(tmp_path: Path) -> None:
    gid = os.getgroups()[-1] if os.getgroups() else os.getgid()
    name = grp.getgrgid(gid).gr_name
    db = tmp_path / "journal.db"
    with Journal(str(db), group=name) as journal:
        journal.write_step("T1", "hand-1", 1, "deal", DEALT_CARDS)
        for f in (db, db.with_name("journal.db-wal"), db.with_name("journal.db-shm")):
            assert (mode(f), f.stat().st_gid) == (0o640, gid), f.name


def test_an_unknown_group_is_refused_by_name(tmp_path: Path) -> None:
    from dealer_assist.errors import JournalError

    with pytest.raises(JournalError, match="no group named 'no-such-group-da18'"):
        Journal(str(tmp_path / "j.db"), group="no-such-group-da18").open()
    toml = table_with_source("emulator://?seed=1")
    toml["journal"] = {"url": "", "group": "pit"}
    assert table_config_from_dict(toml).journal_group == "pit"


# -- the data folder and --records ---------------------------------------------------------------


def test_the_data_folder_is_created_0700_and_an_old_one_tightened(data_home: Path) -> None:
    assert data_folder() == data_home
    assert mode(data_home) == 0o700
    data_home.chmod(0o755)  # as an older version (or the camera calibration) left it
    data_folder()
    assert mode(data_home) == 0o700


def test_records_are_0600_truncated_or_appended(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text("old\n")
    path.chmod(0o644)
    with open_private(path, append=True) as out:
        out.write("new\n")
    assert (mode(path), path.read_text()) == (0o600, "old\nnew\n")
    with open_private(tmp_path / "fresh.jsonl") as out:
        out.write("x\n")
    assert mode(tmp_path / "fresh.jsonl") == 0o600
    with pytest.raises(ConfigError, match=r"cannot write .*nowhere"):
        open_private(tmp_path / "nowhere" / "r.jsonl")


def test_simulate_writes_journal_data_folder_and_records_privately(
    data_home: Path, tmp_path: Path
) -> None:
    records = tmp_path / "records.jsonl"
    status = main(
        [
            "simulate",
            "--game",
            "holdem",
            "--hands",
            "3",
            "--players",
            "2",
            "--no-progress",
            "--records",
            str(records),
        ]
    )
    assert status == 0
    assert mode(data_home) == 0o700
    db = data_home / "simulate-holdem.db"
    assert mode(db) == 0o600
    assert mode(records) == 0o600
    lines = records.read_text().splitlines()
    assert lines and all("hand_uid" in json.loads(line) for line in lines)


# -- card-logging source options -----------------------------------------------------------------

LOGGING_URLS = [
    ("emulator://?seed=1&dealt_log=dealt.jsonl", "dealt_log"),
    ("emulator://?seed=1&dealt-log=dealt.jsonl", "dealt-log"),
    ("spy:///dev/ttyUSB0?file=spy.txt", "file"),
]


@pytest.mark.parametrize(("url", "option"), LOGGING_URLS)
def test_card_logging_options_are_refused_in_a_table_without_the_switch(
    data_home: Path, url: str, option: str
) -> None:
    with pytest.raises(ConfigError) as e:
        table_config_from_dict(table_with_source(url))
    text = str(e.value)
    assert "sources[0].url" in text and url in text and f"option {option} " in text
    assert DEV_ENV in text
    with pytest.raises(ConfigError, match=DEV_ENV):
        open_source(url)  # nor through --source
    assert not data_home.exists() or not any(data_home.iterdir())


@pytest.mark.parametrize(("url", "option"), LOGGING_URLS)
def test_card_logging_options_are_accepted_with_the_switch(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, url: str, option: str
) -> None:
    monkeypatch.setenv(DEV_ENV, "1")
    config = table_config_from_dict(table_with_source(url))
    assert config.sources[0].url == url


@pytest.mark.parametrize(
    "where", ["/tmp/dealt.jsonl", "../dealt.jsonl", "sub/../../dealt.jsonl", "", "."]
)
def test_a_card_log_outside_the_data_folder_is_refused_even_with_the_switch(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.setenv(DEV_ENV, "1")
    for url in (f"emulator://?seed=1&dealt_log={where}", f"spy:///dev/ttyUSB0?file={where}"):
        with pytest.raises(ConfigError, match="outside the data folder"):
            table_config_from_dict(table_with_source(url))
        with pytest.raises(ConfigError, match="outside the data folder"):
            open_source(url)


def test_a_symlink_out_of_the_data_folder_is_refused(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(DEV_ENV, "1")
    data_folder()
    (data_home / "out").symlink_to(tmp_path)
    with pytest.raises(ConfigError, match="outside the data folder"):
        emulator_args("emulator://?seed=1&dealt_log=out/dealt.jsonl")


def test_a_relative_card_log_is_written_in_the_data_folder(
    data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DEV_ENV, "1")
    args = emulator_args("emulator://?seed=1&dealt_log=logs/dealt.jsonl")
    assert args == ["--seed", "1", "--dealt-log", str(data_home.resolve() / "logs/dealt.jsonl")]
    inside = data_home.resolve() / "d.jsonl"
    assert emulator_args(f"emulator://?dealt_log={inside}") == ["--dealt-log", str(inside)]
    source = open_source("emulator://?seed=2&dealt_log=d.jsonl")  # still the emulator's URL
    assert type(source).__name__ == "EmulatorSource"
    assert source.emulator.args[-2:] == ["--dealt-log", str(inside)]


def test_the_console_journal_is_in_the_0700_data_folder(data_home: Path) -> None:
    pytest.importorskip("PySide6")
    from ui.kit.boot import default_journal_path

    assert default_journal_path() == data_home / "journal.db"
    assert mode(data_home) == 0o700
