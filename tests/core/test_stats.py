"""Statistics: the pure aggregation, a real SQLite journal dealt by ``simulate`` against a
hand-by-hand sum of its records, the floor's SQL on real PostgreSQL against the journal's, and
the variance alert (returned, and in the floor's alerts)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest

from dealer_assist.audit.stats import (
    HOLD_VARIANCE,
    HandFact,
    ShiftPlan,
    aggregate,
    check_groups,
    variance_alerts,
)
from dealer_assist.errors import ConfigError
from dealer_assist.games.hold import Estimate
from dealer_assist.storage import Journal
from dealer_assist.storage.stats import JournalStats
from tests.fixtures.floor_fixtures import FloorDb, make_floor_db

EVER = (datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC))
T0 = datetime(2026, 12, 1, 5, 30, tzinfo=UTC)


def fact(
    minutes: int,
    drop: int,
    win: int,
    table: str = "UTH-1",
    dealer: str | None = "ann",
    game: str = "uth",
) -> HandFact:
    start = T0 + timedelta(minutes=minutes)
    return HandFact(table, "A", dealer, game, start, start + timedelta(minutes=1), drop, win)


def test_aggregate_sums_by_group_with_exact_hold_and_hands_per_hour() -> None:
    facts = [fact(0, 1000, 100), fact(29, 3000, -700), fact(59, 500, 500, table="UTH-2")]
    by_table = aggregate(facts, ["table"])
    assert [(r.key, r.hands, r.drop, r.win) for r in by_table] == [
        (("UTH-1",), 2, 4000, -600),
        (("UTH-2",), 1, 500, 500),
    ]
    assert by_table[0].hold == Fraction(-600, 4000)
    # 2 hands from 05:30 to 06:00 (29 min start + 1 min): 4 an hour, exactly
    assert by_table[0].hands_per_hour == 4
    # over the real span, however short: 2 hands in 3 seconds are 2,400 an hour (a one-minute
    # floor made it 120), one hand of no duration is no rate
    quick = [
        HandFact("Q", None, None, "uth", T0, T0 + timedelta(seconds=1), 1, 0),
        HandFact(
            "Q", None, None, "uth", T0 + timedelta(seconds=2), T0 + timedelta(seconds=3), 1, 0
        ),
    ]
    assert aggregate(quick, ["table"])[0].hands_per_hour == 2400
    zero = HandFact("Z", None, None, "uth", T0, T0, 1, 0)
    assert aggregate([zero], ["table"])[0].hands_per_hour is None
    assert aggregate([zero], ["table"])[0].hands_per_hour_text() == "—"
    # 05:30 and 05:59 are the night shift that began at 22:00 the day before; 06:29 the day's
    shifts = aggregate(facts, ["shift"], ShiftPlan())
    assert [r.key[0] for r in shifts] == ["2026-11-30 22:00", "2026-12-01 06:00"]
    assert [r.hands for r in shifts] == [2, 1]
    assert aggregate([fact(0, 1, 0, dealer=None)], ["dealer"])[0].key == ("-",)


def test_bad_groups_and_shift_plans_are_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="unknown croupier"):
        check_groups(["table", "croupier"])
    with pytest.raises(ConfigError, match="ascending"):
        ShiftPlan((14, 6))


def theory(hold: Fraction, sd: float = 1.0) -> Estimate:
    return Estimate(1_000_000, 1_000_000 * 100, int(hold * 1_000_000 * 100), sd)


def test_a_hold_far_outside_its_band_raises_an_alert_and_one_inside_does_not() -> None:
    est = theory(Fraction(3, 100))
    normal = [fact(i, 1000, 30) for i in range(400)]
    crooked = [fact(i, 1000, -500, table="UTH-9") for i in range(400)]
    rows = aggregate(normal + crooked, ["table"])
    alerts = variance_alerts(rows, lambda g: est)
    assert [a.row.key for a in alerts] == [("UTH-9",)]
    a = alerts[0]
    # band for 400 hands: 3% ± 1.96 · 1.0 / 20 (and the simulation's own, negligible, error)
    assert a.band[0] == pytest.approx(0.03 - 1.959964 / 20, abs=1e-4)
    assert a.z < -5 and "outside the 95% band" in a.sentence()
    # no theoretical hold (a pot game) or too few hands: not judged
    assert variance_alerts(rows, lambda g: None) == []
    assert variance_alerts(aggregate(crooked[:10], ["table"]), lambda g: est) == []


# -- a real journal dealt by simulate ------------------------------------------------------


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A UTH journal of 24 hands dealt by ``dealer-assist simulate`` (real pty emulator)."""
    from ui.cli import main

    folder = tmp_path_factory.mktemp("stats")
    db = folder / "uth.db"
    capture = folder / "out.txt"
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(
            [
                "simulate",
                "--game",
                "uth",
                "--hands",
                "24",
                "--seed",
                "11",
                "--db",
                str(db),
                "--no-progress",
            ]
        )
    capture.write_text(out.getvalue())
    assert status == 0
    return db, out.getvalue()


def by_hand(db: Path) -> tuple[int, int, int]:
    """Hands, drop and house win summed hand by hand from the journal's settlements."""
    hands = drop = win = 0
    with Journal(str(db), create=False, read_only=True) as journal:
        for h in journal.iter_hands():
            if h.status == "table_record":
                continue
            hands += 1
            for seat in (h.settlement or {}).get("seats", []):
                drop += sum(b["stake"] for b in seat["bets"])
                win -= seat["net"]
    return hands, drop, win


def test_journal_stats_equal_a_hand_by_hand_sum_and_simulates_summary(
    dealt: tuple[Path, str],
) -> None:
    db, printed = dealt
    rows = JournalStats(str(db), pit="A").stats(*EVER, ["table", "game", "pit"])
    assert len(rows) == 1
    r = rows[0]
    assert (r.hands, r.drop, r.win) == by_hand(db)
    assert r.key[1:] == ("uth", "A") and r.hands == 24
    wagered = re.search(r"total wagered: EUR ([\d,]+)\.(\d\d)", printed)
    assert wagered is not None
    assert r.drop == int(wagered.group(1).replace(",", "")) * 100 + int(wagered.group(2))
    # a range that ends before the first hand holds nothing
    assert JournalStats(str(db)).stats(EVER[0], r.first - timedelta(days=1), ["table"]) == []


# -- the floor ------------------------------------------------------------------------------


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


@pytest.mark.postgres
def test_floor_stats_equal_the_journals_and_store_the_variance_alert(
    dealt: tuple[Path, str], floor_db: FloorDb
) -> None:
    from dealer_assist.storage.floor import Floor
    from dealer_assist.storage.floor.stats import FloorStats

    db, _ = dealt
    with Journal(str(db), create=False, read_only=True) as journal:
        hands = list(journal.iter_hands())
    table = hands[0].table_id
    with Floor(floor_db.url) as floor:
        floor.register(table, "uth", pit="A")
        assert floor.ingest(table, hands).refused is None
        fs, js = FloorStats(floor), JournalStats(str(db), pit="A")
        for by in (["table"], ["pit", "game"], ["shift"], ["hour"], ["day", "game"], ["dealer"]):
            assert fs.stats(*EVER, by) == js.stats(*EVER, by), by
        assert fs.stats(*EVER, ["table"], pit="B") == []
        rows = fs.stats(*EVER, ["table"])
        # a theoretical hold the dealt hold is far from: an alert stored on the floor, once
        far = theory(rows[0].hold + Fraction(1, 2), sd=0.5)
        first = fs.raise_variance_alerts(rows, lambda g: far, min_hands=20)
        again = fs.raise_variance_alerts(rows, lambda g: far, min_hands=20)
        assert len(first) == 1 and [i for i, _ in again] == [i for i, _ in first]
        stored = [a for a in floor.alerts() if a.kind == HOLD_VARIANCE]
        assert len(stored) == 1 and stored[0].table_id == table
        assert "outside the 95% band" in stored[0].detail
        assert not math.isnan(first[0][1].z)
