"""Table TOML as people really save it (7): a UTF-8 byte-order mark at the start is
accepted, and every error of a file names the file, the line and the key. Real files in
tmp_path, made from the shipped tables with one change each."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dealer_assist.config import default_table_path, key_lines, load_table_config
from dealer_assist.errors import ConfigError

BOM = "\ufeff"


def shipped(game: str) -> str:
    return default_table_path(game).read_text(encoding="utf-8")


def write(tmp_path: Path, text: str, name: str = "table.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def line_of(text: str, needle: str) -> int:
    """1-based line of the first line containing ``needle``."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("game", ["uth", "thb", "holdem", "stud"])
def test_a_byte_order_mark_at_the_start_is_accepted(tmp_path: Path, game: str) -> None:
    text = shipped(game)
    p = tmp_path / "bom.toml"
    p.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))  # what Notepad saves
    assert load_table_config(p) == load_table_config(write(tmp_path, text))


@pytest.mark.parametrize(
    ("game", "old", "new", "key", "needle"),
    [
        ("uth", "seats = 7", 'seats = "7"', "table.seats", "seats ="),
        ("uth", "min = 500", "min = 70000", "limits.ante", "[limits.ante]"),
        ("uth", 'id = "UTH-01"\n', "", "table.id", "[table]"),  # missing: its section's line
        ("uth", "flush = [3, 2]", "flush = [3, 0]", "paytables.blind.flush", "flush = [3, 0]"),
        ("uth", 'url = "emulator://"', "url = 5", "sources[0].url", "url = 5"),
        (
            "uth",
            'unreadable_card = "void"',
            'unreadable_card = "x"',
            "misdeal.unreadable_card",
            'unreadable_card = "x"',
        ),
        ("holdem", "blinds = [100, 200]", "blinds = [300, 200]", "blinds", "blinds = [300"),
        (
            "holdem",
            "buy_in = { min = 8000, max = 40000 }",
            "buy_in = { min = 8000 }",
            "poker.buy_in",
            "buy_in = {",
        ),
        (
            "holdem",
            "max_raises = 3",
            "max_raises = -3",
            "poker.settings.max_raises",
            "max_raises = -3",
        ),
        ("holdem", "ante = 0", "antes = 0", "poker.antes", "antes = 0"),
        ("stud", "bring_in = 50", "bring_in = 500", "bring_in", "bring_in = 500"),
        ("stud", "ante = 25 ", "ante = -1 ", "poker.ante", "ante = -1"),
    ],
)
def test_a_bad_value_names_file_line_and_key(
    tmp_path: Path, game: str, old: str, new: str, key: str, needle: str
) -> None:
    text = shipped(game)
    assert old in text
    bad = text.replace(old, new, 1)
    p = write(tmp_path, BOM + bad)  # the line numbers are the same with a BOM
    with pytest.raises(ConfigError) as info:
        load_table_config(p)
    msg = str(info.value)
    assert msg.startswith(f"{p}, line {line_of(bad, needle)}: "), msg
    assert key in msg


@pytest.mark.parametrize(
    ("old", "new", "key", "needle"),
    [
        ("seats = 7", "seats = seven", "(seats)", "seats = seven"),
        ("[journal]", "[journal", "", "[journal\n"),
        ("[misdeal]", "misdeal", "('misdeal')", "misdeal\n"),  # a stray word: its text
    ],
)
def test_a_syntax_error_names_file_line_and_key(
    tmp_path: Path, old: str, new: str, key: str, needle: str
) -> None:
    bad = shipped("uth").replace(old, new, 1)
    p = write(tmp_path, bad)
    with pytest.raises(ConfigError) as info:
        load_table_config(p)
    msg = str(info.value)
    line = next(n for n, s in enumerate(bad.splitlines(keepends=True), 1) if s.startswith(needle))
    assert msg.startswith(f"{p}, line {line}"), msg
    assert key in msg
    assert "not valid TOML" in msg
    assert not re.search(r"\(at line \d+", msg)  # said once, in the file's terms


def test_a_byte_order_mark_elsewhere_is_named_by_its_line(tmp_path: Path) -> None:
    bad = shipped("uth").replace("[journal]", BOM + "[journal]")
    p = write(tmp_path, bad)
    with pytest.raises(ConfigError, match=rf"line {line_of(bad, '[journal]')} "):
        load_table_config(p)


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    p = tmp_path / "latin1.toml"
    p.write_bytes(shipped("uth").replace('id = "UTH-01"', 'id = "Tavolo è"').encode("latin-1"))
    with pytest.raises(ConfigError, match=r", line 3: not UTF-8"):
        load_table_config(p)


def test_key_lines_of_sections_arrays_and_multiline_values() -> None:
    text = (
        "[table]\n"
        "id = 'T'\n"
        "chips = [\n"
        "  [1, 2],\n"  # inside a value: no section header
        "]\n"
        'note = """\n'
        "[not.a.section]\n"
        '"""\n'
        "[[sources]]\n"
        "url = 'a'\n"
        "[[sources]]\n"
        "url = 'b'\n"
        "[limits.ante]\n"
        "min = 1\n"
        'paytables."trips".flush = [1, 1]\n'
    )
    lines = key_lines(text)
    assert lines["table.chips"] == 3
    assert "not.a.section" not in lines and "1, 2" not in "".join(lines)
    assert lines["sources[0].url"] == 10
    assert lines["sources[1].url"] == 12
    assert lines["limits"] == lines["limits.ante"] == 13
    assert lines["limits.ante.paytables.trips.flush"] == 15
