"""pokerkit replays what ``dealer-assist phh export`` writes from a simulated 9-handed journal
(docs/PHH.md): every hand to its ``finishing_stacks``, odd chips aside (pokerkit gives a pot's
whole remainder to one winner). The journal's hands include new players' and missed big blinds
(live posts outside the blind positions) and dead small blinds, which PHH has no field for."""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.interchange import dumps_phh, loads_phh_text, phh_to_record, record_to_phh
from dealer_assist.interchange.phh import showdown_order
from dealer_assist.ports import OPERATIONS_KEY
from dealer_assist.record import settle_record
from dealer_assist.storage import Journal
from tests.cli.test_phh import DATA, _classify
from tests.fixtures.phh_export import copy_journal, settled, stored_export, tamper_record
from ui.cli import main

REPO = Path(__file__).parent.resolve().parents[1]
HANDS = 80

pytestmark = pytest.mark.integration  # a simulate subprocess on the emulator


@pytest.fixture(scope="module")
def holdem_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real journal: 80 hands of the shipped 9-handed Hold'em table played by seeded players
    through the emulator (``dealer-assist simulate``)."""
    db = tmp_path_factory.mktemp("he9") / "journal.db"
    cmd = [
        sys.executable,
        "-m",
        "ui.cli",
        "simulate",
        "--game",
        "holdem",
        "--players",
        "9",
        "--hands",
        str(HANDS),
        "--seed",
        "1",
        "--db",
        str(db),
        "--no-progress",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return db


def test_pokerkit_replays_every_exported_hand_of_a_9_handed_journal(
    holdem_journal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pk = pytest.importorskip("pokerkit")
    out = tmp_path / "he9.phhs"
    assert main(["phh", "export", "--db", str(holdem_journal), "-o", str(out)]) == 0
    assert f"{HANDS} hands exported" in capsys.readouterr().err
    hands = loads_phh_text(out.read_text(), "he9")
    with Journal(str(holdem_journal), create=False) as journal:
        stored = {h.hand_id: h for h in journal.iter_hands()}
    outcomes: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for name, phh in hands.items():
        hand = stored[phh["hand"]]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            outcomes[_classify(pk, phh, hand.settlement)] += 1
        # and the file reads back as the journaled record, settling the same
        assert settle_record(phh_to_record(phh)) == hand.settlement, name
        for post in hand.record.get("posts", []):
            kinds[post["type"]] += 1
        kinds["live post outside the blinds"] += _extra_live_posts(hand.record)
    print(dict(outcomes), dict(kinds))
    assert set(outcomes) <= {"same", "odd chips"}, outcomes
    assert outcomes["same"] >= HANDS * 0.9
    # the hands that made PHH readers fail before: live and dead posts beside the blinds
    assert kinds["live post outside the blinds"] >= 2 and kinds["ante"] >= 2, kinds


def test_export_is_the_fold_and_the_file_is_what_the_stored_hands_give(
    holdem_journal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each hand is folded from the operations the journal keeps; where the fold is what is
    stored, the file is byte for byte what the stored records and settlements give."""
    assert all(
        isinstance(h.extra.get(OPERATIONS_KEY), list) for h in settled(holdem_journal, "holdem")
    )
    out = tmp_path / "he9.phhs"
    assert main(["phh", "export", "--db", str(holdem_journal), "-o", str(out)]) == 0
    text, count = stored_export(holdem_journal)
    assert count == HANDS
    assert out.read_bytes() == text.encode("utf-8")


def test_export_refuses_a_record_changed_after_its_hand(
    holdem_journal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = copy_journal(holdem_journal, tmp_path)
    victim = settled(db, "holdem")[3]
    seat, hole = victim.record["players"][0]["seat"], victim.record["players"][0]["hole"]

    def swap_hole(record: dict[str, Any]) -> None:
        cards = record["players"][0]["hole"]
        cards[0], cards[1] = cards[1], cards[0]  # the same two cards, the other order

    tamper_record(db, victim.hand_id, swap_hole)
    capsys.readouterr()
    out = tmp_path / "he9.phhs"
    assert main(["phh", "export", "--db", str(db), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"dealer-assist phh: hand {victim.hand_id}: record.players[seat={seat}].hole[0]: "
        f"stored {hole[1]!r}, the fold of its operations gives {hole[0]!r} (and 1 more)\n"
    )
    assert not out.exists()


def _extra_live_posts(record: dict[str, Any]) -> int:
    phh = record_to_phh(record)
    seats = phh["seats"]
    return sum(
        1
        for p in record.get("posts", [])
        if p["type"] != "ante" and seats.index(p["seat"]) >= 2 and len(seats) > 2
    )


def test_big_blind_ante_is_dead_money_for_pokerkit_too() -> None:
    """The WSOP hand (big-blind ante): our export is replayed by pokerkit to the file's own
    ``finishing_stacks``; ``ante_trimming_status`` is PHH's default (false): dead money."""
    pk = pytest.importorskip("pokerkit")
    phh = loads_phh_text((DATA / "wsop-2019-42-3-00-01-07.phh").read_text(), "w")["w"]
    actions = list(phh["actions"])
    actions.insert(13, "p8 f")  # the fold the dataset's file omits
    record = phh_to_record({**phh, "actions": actions})
    settlement = settle_record(record)
    ours = loads_phh_text(dumps_phh(record_to_phh(record, settlement)))["<text>"]
    assert "ante_trimming_status" not in ours
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert _classify(pk, ours, settlement) == "same"
    assert ours["finishing_stacks"] == [phh["finishing_stacks"][s - 1] for s in ours["seats"]]


@pytest.mark.parametrize(
    ("actions", "live", "first"),
    [
        # the river's last raiser shows first, then clockwise
        (
            [("flop", 2, "bet"), ("river", 4, "bet"), ("river", 1, "raise"), ("river", 4, "call")],
            [4, 1, 2],
            1,
        ),
        # nobody bet on the river: the first after the button
        (
            [("flop", 2, "bet"), ("flop", 4, "call"), ("river", 4, "check"), ("river", 2, "check")],
            [4, 2],
            4,
        ),
        # all-in on the flop, called: that round's bettor first
        ([("preflop", 4, "raise"), ("flop", 2, "bet"), ("flop", 4, "call")], [4, 2], 2),
    ],
)
def test_showdown_order_last_bettor_first(
    actions: list[tuple[str, int, str]], live: list[int], first: int
) -> None:
    got = showdown_order([{"street": st, "seat": s, "action": a} for st, s, a in actions], live)
    k = live.index(first)
    assert got == [*live[k:], *live[:k]]
