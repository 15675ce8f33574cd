"""``dealer-assist settle`` never traces back.

Hostile inputs through the real command (subprocess): deep nesting, over-long integers, invalid
UTF-8, duplicate keys, U+2028 inside a string, over-long lines, memory exhaustion, empty input,
long values in messages. Then a Hypothesis property over mutated records (banked cases from
/work/shared/cases, random Hold'em and Stud records): the command either settles a record exactly
as ``json.loads`` + ``settle_record`` would, or refuses it with status 2 - never a traceback,
never a settlement for an invalid record.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import io
import json
import random
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from dealer_assist.errors import DealerAssistError, clip, quote, shorten_quoted
from dealer_assist.games import holdem_players, stud_players
from dealer_assist.record import settle_record
from tests.conftest import CASES
from ui.cli import main
from ui.commands.settle import MAX_RECORD_BYTES, MAX_SKIP_BYTES, settle_stream
from ui.commands.settle_json import MAX_DEPTH


def _banked() -> list[dict[str, Any]]:
    """The banked golden records (none when ../shared is absent: the pot records still run)."""
    return [json.loads(p.read_text())["record"] for p in sorted((CASES / "valid").glob("*.json"))]


def _pot() -> list[dict[str, Any]]:
    rng = random.Random(18)
    out = []
    for betting in ("no_limit", "pot_limit", "fixed_limit"):
        out.append(holdem_players.random_record(rng, betting=betting))
        out.append(stud_players.random_record(rng, betting=betting))
    return out


BANKED: dict[str, Any] = {  # /work/shared/cases/valid/thb-tie-pushes.json
    "game": "thb",
    "seats": 6,
    "board": ["Ts", "Jh", "Qd", "Kc", "Ac"],
    "dealer": ["2h", "3d"],
    "players": [
        {
            "seat": 5,
            "hole": ["4s", "4c"],
            "bets": {"ante": 1000, "bonus": 100},
            "actions": [
                {"street": "preflop", "action": "bet"},
                {"street": "flop", "action": "check"},
                {"street": "turn", "action": "check"},
            ],
        }
    ],
}
BASES = _pot() + (_banked() or [BANKED])
GOOD = BASES[0]  # a Hold'em record


def _line(record: Any) -> str:
    return json.dumps(record, ensure_ascii=False)


def _cli(
    tmp_path: Path, data: bytes, *, memory_mib: int | None = None
) -> subprocess.CompletedProcess[str]:
    """``dealer-assist settle FILE`` in a fresh interpreter; with ``memory_mib``, its address
    space limited to what it uses once loaded plus that much."""
    path = tmp_path / "records.jsonl"
    path.write_bytes(data)
    limit = (
        ""
        if memory_mib is None
        else textwrap.dedent(f"""
        import re, resource
        import ui.commands.settle, dealer_assist.games.holdem_record, dealer_assist.games.stud
        # the command's modules loaded before the limit
        status = Path("/proc/self/status").read_text()
        size = int(re.search(r"VmSize:\\s+(\\d+)", status).group(1)) * 1024
        limit = size + ({memory_mib} << 20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))
        """)
    )
    code = f"import sys\nfrom pathlib import Path\n{limit}\nfrom ui.cli import main\n"
    code += f"sys.exit(main(['settle', {str(path)!r}]))\n"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def _no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]


# -- the command, hostile inputs ---------------------------------------------------------------


def test_each_hostile_line_fails_alone_naming_line_and_field(tmp_path: Path) -> None:
    good = GOOD
    with_2028 = copy.deepcopy(good)
    with_2028["why"] = "a\u2028b\u2029c\x85d"  # Unicode line separators inside a string
    big_int = _line({**good, "ante": 0}).replace('"ante": 0', '"ante": ' + "7" * 5000)
    dup = _line(good)[:-1] + ', "game": "uth"}'
    lines = [
        _line(good).encode(),  # 1
        b"[" * 5000 + b"]" * 5000,  # 2: deeper than the decoder's recursion
        ('{"game": "thb", "x": ' + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "}").encode(),
        big_int.encode(),  # 4
        _line(good).encode().replace(b'"holdem"', b'"hold\xff\xfeem"'),  # 5: invalid UTF-8
        dup.encode(),  # 6
        _line(with_2028).encode(),  # 7: one record, not three
        _line({**good, "ante": float("nan")}).encode(),  # 8
        b'{"game": "' + b"x" * (MAX_RECORD_BYTES + 10) + b'"}',  # 9
        _line(good).encode(),  # 10
    ]
    proc = _cli(tmp_path, b"\n".join(lines) + b"\n")
    _no_traceback(proc)
    assert proc.returncode == 2
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(out) == len(lines)
    settled = settle_record(good)
    assert out[0] == out[9] == settled
    assert out[6] == settle_record(with_2028)
    errors = {n: out[n - 1]["error"] for n in (2, 3, 4, 5, 6, 8, 9)}
    assert all("error" not in out[n - 1] for n in (1, 7, 10))
    assert re.match(r"line 2: \[0\]\[0\].*nested deeper than 100 levels", errors[2])
    assert errors[3].startswith("line 3: x[0][0]") and "nested deeper than 100" in errors[3]
    assert errors[4] == "line 4: ante: an integer of 5000 digits (at most 4300)"
    assert errors[5].startswith("line 5, column ") and "not UTF-8" in errors[5]
    assert errors[6] == 'line 6: record: key "game" given twice'
    assert errors[8] == "line 8: ante: NaN is not a JSON number"
    assert errors[9] == f"line 9: record: longer than {MAX_RECORD_BYTES} bytes"
    assert all(len(e) < 300 for e in errors.values()), errors
    assert proc.stderr.count("dealer-assist settle: line ") == len(errors)


def test_an_endless_line_stops_the_input_with_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``settle /dev/zero``: no line end ever comes. The records before it are settled, the
    endless line is refused once its limit is passed, and nothing after it is read."""
    endless = b"x" * (MAX_RECORD_BYTES + MAX_SKIP_BYTES + (1 << 17)) + b"\n" + _line(GOOD).encode()
    stream = io.BytesIO(_line(GOOD).encode() + b"\n" + endless + b"\n")
    assert settle_stream(stream) == 2
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0] == settle_record(GOOD)
    limit = MAX_RECORD_BYTES + MAX_SKIP_BYTES
    why = f"no line end within {limit} bytes: the rest of the input is not read"
    assert out[1:] == [{"error": f"line 2: record: {why}"}]
    assert stream.tell() < len(stream.getvalue())  # the rest was never read


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_settle_dev_zero_ends(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ui.cli", "settle", "/dev/zero"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    _no_traceback(proc)
    assert proc.returncode == 2 and "no line end within" in proc.stderr


def test_settle_leaves_the_collector_as_it_found_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """settle collects the young generation less often while it runs; after it the thresholds
    are Python's again and nothing is frozen yet: a process that goes on keeps collecting."""
    record = holdem_players.random_record(random.Random(3), betting="no_limit")
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(record) + "\n" + json.dumps({"game": "holdem"}) + "\n")
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    try:
        assert main(["settle", str(path)]) == 2
    finally:
        thresholds = gc.get_threshold()
        gc.set_threshold(*before)
    assert thresholds == before
    assert gc.get_freeze_count() == frozen
    out = capsys.readouterr().out.splitlines()
    assert json.loads(out[0]) == settle_record(record) and "error" in json.loads(out[1])


def test_settle_freezes_what_is_alive_at_the_process_exit(tmp_path: Path) -> None:
    """At the exit of the command's process what is alive is frozen, so the collections of the
    interpreter's shutdown skip it (a handler registered before runs after settle's)."""
    path = tmp_path / "one.jsonl"
    record = holdem_players.random_record(random.Random(4), betting="no_limit")
    path.write_text(json.dumps(record) + "\n")
    script = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count(), file=sys.stderr))\n"
        "from ui.cli import main\n"
        "print('before', gc.get_freeze_count(), file=sys.stderr)\n"
        f"main(['settle', {str(path)!r}])\n"
    )
    repo = Path(__file__).parents[2]
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=repo, check=False
    )
    lines = dict(
        line.split() for line in proc.stderr.splitlines() if line.startswith(("before ", "frozen "))
    )
    assert lines["before"] == "0" and int(lines["frozen"]) > 0, proc.stderr


def test_a_single_document_too_deep_is_refused(tmp_path: Path) -> None:
    proc = _cli(tmp_path, b"[\n" * 3000 + b"]\n" * 3000)
    _no_traceback(proc)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "invalid hand record: [0][0]" in proc.stderr and "nested deeper" in proc.stderr


@pytest.mark.parametrize("data", [b"", b"\n  \n\t\n"])
def test_empty_input_says_so(tmp_path: Path, data: bytes) -> None:
    proc = _cli(tmp_path, data)
    _no_traceback(proc)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == "dealer-assist settle: empty input: no hand record\n"


def test_a_single_document_with_bad_utf8_names_line_and_column(tmp_path: Path) -> None:
    text = json.dumps(GOOD, indent=1).encode()
    bad = text.replace(b'"board"', b'"bo\xc3ard"')
    line = bad[: bad.index(b"\xc3")].count(b"\n") + 1
    proc = _cli(tmp_path, bad)
    _no_traceback(proc)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.startswith(f"dealer-assist settle: line {line}, column ")
    assert "not UTF-8 (byte 0xc3)" in proc.stderr


def test_messages_quote_at_most_100_characters_of_a_value(tmp_path: Path) -> None:
    card = copy.deepcopy(GOOD)
    card["players"][0]["hole"][0] = "Z" * 5000  # cards.py quotes the text whole
    seat = copy.deepcopy(GOOD)
    seat["players"][0]["seat"] = "Y" * 5000  # holdem_record.py quotes the value whole
    street = copy.deepcopy(GOOD)
    street["actions"][0]["street"] = {"K" * 5000: ["Q" * 5000]}
    bets_key = copy.deepcopy(BANKED)  # record.py: the key in the field, the value in the reason
    bets_key["players"][0]["bets"] = {"W" * 5000: "V" * 5000}
    records = [card, seat, street, bets_key]
    proc = _cli(tmp_path, "\n".join(map(_line, records)).encode())
    _no_traceback(proc)
    assert proc.returncode == 2
    errors = [json.loads(x)["error"] for x in proc.stdout.splitlines()]
    assert len(errors) == 4
    for error in errors:
        assert len(error) < 300, error
        runs = [len(m.group()) for m in re.finditer(r"([ZYKQWV])\1*", error)]
        assert 90 <= max(runs) <= 100, error
    assert errors[0].startswith("line 1: players[0].hole: not a card: 'ZZZ")
    assert errors[3].startswith("line 4: players[0].bets.WWW") and "got 'VVV" in errors[3]


def test_memory_exhaustion_fails_that_line_only(tmp_path: Path) -> None:
    pytest.importorskip("resource")
    hungry = ('{"x": [' + ",".join(["{}"] * 340_000) + "]}").encode()  # ~1 MB, ~50 MB decoded
    assert len(hungry) < MAX_RECORD_BYTES
    proc = _cli(tmp_path, hungry + b"\n" + _line(GOOD).encode() + b"\n", memory_mib=8)
    _no_traceback(proc)
    assert proc.returncode == 2
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert out[0] == {"error": "line 1: record: too big to decode in the memory available"}
    assert out[1] == settle_record(GOOD)


# -- the message helpers -----------------------------------------------------------------------


def test_quote_and_clip() -> None:
    assert quote("As") == "'As'"
    assert quote("x" * 500) == "'" + "x" * 99 + "… [502 chars]"
    assert clip("y" * 101) == "y" * 100 + "… [101 chars]"
    assert quote(7**10_000).startswith("<integer of about 845")  # 8,451 digits


def test_shorten_quoted_clips_each_long_literal_and_keeps_text() -> None:
    message = f"players[0].seat: got {['As'] * 200!r} and {'z' * 300!r}, the dealer's hand"
    short = shorten_quoted(message)
    assert short.startswith("players[0].seat: got ['As', 'As'")
    assert "… [1200 chars] and 'zzz" in short and "… [302 chars], the dealer's hand" in short
    assert len(short) < 300
    assert shorten_quoted("check on the flop, dealer's hand") == "check on the flop, dealer's hand"


# -- property: mutated records -----------------------------------------------------------------


def _paths(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*path, i))
    return out


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.integers(-(10**40), 10**40),
    st.sampled_from([0, -1, 2**63, 10**30, 1.5, -0.0, 1e300]),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.sampled_from(["As", "Td", "10h", "AS", "2c", "Xx", "preflop", "river", "raise", "fold"]),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


_OPS = ["replace", "replace", "delete", "insert", "borrow", "wrap"]


def _mutate(data: st.DataObject, record: dict[str, Any]) -> dict[str, Any] | list[Any]:
    root: dict[str, Any] | list[Any] = copy.deepcopy(record)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = _paths(root)
        path = data.draw(st.sampled_from(paths))
        op = data.draw(
            st.sampled_from(["replace", "replace", "delete", "insert", "borrow", "wrap"])
        )
        if not path:
            root = [root] if op == "wrap" else root
            continue
        parent: Any = root
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        if op == "replace":
            parent[key] = data.draw(_VALUES)
        elif op == "delete":
            del parent[key]
        elif op == "insert" and isinstance(parent, list):
            parent.insert(key, data.draw(_VALUES))
        elif op == "insert":
            parent[data.draw(st.text(max_size=6))] = data.draw(_VALUES)
        elif op == "borrow":  # a value from elsewhere in the record: plausible, often invalid
            other: Any = root
            for k in data.draw(st.sampled_from(paths)):
                other = other[k]
            parent[key] = copy.deepcopy(other)
        else:
            parent[key] = [parent[key]]
    return root


def _byte_mutation(data: st.DataObject, line: bytes) -> bytes:
    if data.draw(st.integers(0, 4)) != 0:  # one line in five
        return line
    at = data.draw(st.integers(0, len(line)))
    junk = data.draw(st.binary(min_size=0, max_size=3).filter(lambda b: b"\n" not in b))
    cut = data.draw(st.integers(0, 2))
    return line[:at] + junk + line[at + cut :]


class _Dup(Exception):
    pass


def _reject_dups(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({k for k, _ in pairs}) != len(pairs):
        raise _Dup
    return dict(pairs)


def _refuse(name: str) -> None:
    raise _Dup  # NaN and Infinity are not JSON


def _depth(obj: Any) -> int:
    if isinstance(obj, dict):
        return 1 + max(map(_depth, obj.values()), default=0)
    if isinstance(obj, list):
        return 1 + max(map(_depth, obj), default=0)
    return 0


def _expected(line: bytes) -> dict[str, Any] | None:
    """The settlement a fresh, strict parse gives, or None for a record that must be refused."""
    try:
        text = line.decode("utf-8")
        obj = json.loads(text, object_pairs_hook=_reject_dups, parse_constant=_refuse)
    except (UnicodeDecodeError, ValueError, RecursionError, _Dup):
        return None
    if _depth(obj) > MAX_DEPTH:
        return None
    try:
        return settle_record(obj)
    except DealerAssistError:
        return None


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_records_settle_as_a_fresh_parse_or_exit_2(data: st.DataObject) -> None:
    count = data.draw(st.integers(1, 3))
    lines = []
    for _ in range(count):
        record = _mutate(data, data.draw(st.sampled_from(BASES)))
        lines.append(_byte_mutation(data, _line(record).encode()))
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = settle_stream(io.BytesIO(b"\n".join(lines) + b"\n"))
    expected = [_expected(line) for line in lines]
    filled = [e for e, line in zip(expected, lines, strict=True) if line.strip()]
    if len(filled) == 1:
        got: list[Any] = [json.loads(stdout.getvalue())] if status == 0 else [None]
        assert stdout.getvalue() == "" or status == 0
    elif stdout.getvalue() == "":  # no line looks like a JSON object: refused as one document
        assert status == 2 and all(e is None for e in filled)
        return
    else:
        got = [json.loads(x) for x in stdout.getvalue().split("\n") if x]  # NEL is not a line end
        got = [None if "error" in g and len(g) == 1 else g for g in got]
    event(f"{sum(e is not None for e in filled)} of {len(filled)} still valid")
    assert got == filled
    assert status == (0 if all(e is not None for e in filled) and filled else 2)
    for message in stderr.getvalue().split("\n"):
        assert len(message) < 600, message
