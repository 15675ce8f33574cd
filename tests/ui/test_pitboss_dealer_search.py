"""The pit-boss hand search by dealer and shift: on a real journal dealt by
``simulate`` with two dealers in turn, :class:`JournalSearch` by dealer finds that dealer's
hands and only them; the search screen (pytest-qt offscreen) has the dealer field, the shift
picker setting the time range from the statistics' :class:`ShiftPlan`, and the dealer column.
Screenshots at 1280x800 in both languages go to /tmp/dealer_shots."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QDate
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from dealer_assist.audit.stats import ShiftPlan
from dealer_assist.pitboss.filters import HandFilter, Sort
from dealer_assist.pitboss.roles import Role
from dealer_assist.pitboss.users import new_user
from dealer_assist.ports import TABLE_RECORD
from dealer_assist.storage.journal import Journal
from dealer_assist.storage.search import JournalSearch
from ui.cli import main
from ui.kit.i18n import install_language
from ui.pitboss.app import PitBossWindow
from ui.pitboss.search_model import COLUMNS, HandsModel
from ui.pitboss.search_view import SearchView, shift_plan, shift_span
from ui.pitboss.service import Session, open_backend
from ui.pitboss.worker import Jobs

SHOTS = Path("/tmp/dealer_shots")


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A UTH journal: 3 hands by D-1, 2 by D-2, 2 by D-1 again (a dealer back from a break)."""
    db = tmp_path_factory.mktemp("dealers") / "uth.db"
    for dealer, hands in (("D-1", 3), ("D-2", 2), ("D-1", 2)):
        assert (
            main(
                [
                    "simulate",
                    "--hands",
                    str(hands),
                    "--db",
                    str(db),
                    "--no-progress",
                    "--dealer",
                    dealer,
                ]
            )
            == 0
        )
    return db


def dealt_by(db: Path) -> dict[int, str | None]:
    j = Journal(str(db))
    j.open()
    try:
        return {
            h.hand_id: h.extra.get("dealer") for h in j.iter_hands(1) if h.status != TABLE_RECORD
        }
    finally:
        j.close()


def recorded(db: Path) -> list[datetime]:
    j = Journal(str(db))
    j.open()
    try:
        return [h.recorded_at for h in j.iter_hands(1) if h.status != TABLE_RECORD]
    finally:
        j.close()


def test_the_journal_search_by_dealer_finds_only_that_dealers_hands(journal: Path) -> None:
    truth = dealt_by(journal)
    assert sorted(str(d) for d in truth.values()) == ["D-1"] * 5 + ["D-2"] * 2
    search = JournalSearch(journal)
    search.open()
    try:
        for dealer in ("D-1", "D-2"):
            page = search.search(HandFilter(dealer=dealer), Sort("position", False), 0, 100)
            assert [r.position for r in page.rows] == sorted(
                h for h, d in truth.items() if d == dealer
            )
            assert {r.dealer for r in page.rows} == {dealer}
        none = search.search(HandFilter(dealer="D-9"), Sort(), 0, 100)
        assert none.rows == () or list(none.rows) == []
        every = search.search(HandFilter(), Sort(), 0, 100)
        assert len(every.rows) == len(truth)
    finally:
        search.close()


def test_a_shift_is_its_start_to_the_next_shifts_start() -> None:
    plan = ShiftPlan()
    day = date(2026, 12, 1)
    assert shift_span(plan, day, 0) == (
        datetime(2026, 12, 1, 6, tzinfo=UTC),
        datetime(2026, 12, 1, 14, tzinfo=UTC),
    )
    assert shift_span(plan, day, 2) == (
        datetime(2026, 12, 1, 22, tzinfo=UTC),
        datetime(2026, 12, 2, 6, tzinfo=UTC),
    )
    # every moment of the span is in that shift by the statistics' own rule
    for plan in (ShiftPlan((0, 8, 16)), ShiftPlan((7, 19)), ShiftPlan((6, 14, 22))):
        for i in range(len(plan.starts)):
            begin, end = shift_span(plan, day, i)
            assert plan.start_of(begin) == begin
            assert plan.start_of(end - timedelta(minutes=1)) == begin
            assert plan.start_of(end) == end != begin


@pytest.fixture
def screen(journal: Path, qtbot: QtBot) -> Iterator[tuple[SearchView, Jobs]]:
    session = Session(*open_backend(None, journal))
    session.users.put_user(new_user("PB-1", Role.PIT_BOSS, "246813"), "test")
    session.login("PB-1", "246813")
    jobs = Jobs()
    view = SearchView(HandsModel(jobs, session.search), ShiftPlan((6, 14, 22)))
    qtbot.addWidget(view)
    yield view, jobs
    jobs.stop()
    session.close()


def _idle(qtbot: QtBot, jobs: Jobs) -> None:
    qtbot.waitUntil(lambda: jobs.pending == 0, timeout=20_000)


def test_the_search_screen_finds_a_dealers_hands_and_picks_a_shift(
    qtbot: QtBot, screen: tuple[SearchView, Jobs], journal: Path
) -> None:
    view, jobs = screen
    truth = dealt_by(journal)
    view.dealer.setText(" D-2 ")
    view.run()
    _idle(qtbot, jobs)
    column = [c[0] for c in COLUMNS].index("Dealer badge")
    model = view.model
    assert model.rowCount() == 2
    assert {model.data(model.index(i, column)) for i in range(2)} == {"D-2"}
    assert sorted(model.row(i).position for i in range(2)) == sorted(
        h for h, d in truth.items() if d == "D-2"
    )
    # the shift picker: the night shift of a day sets the range 22:00 -> 06:00 next day; the
    # day is a week before the hands were dealt (whenever the test runs): none in it
    plan = ShiftPlan((6, 14, 22))
    times = recorded(journal)
    start = plan.start_of(times[0])
    night = start.date() - timedelta(days=7)
    view.use_shift.setChecked(True)
    view.shift_day.setDate(QDate(night.year, night.month, night.day))
    view.shift.setCurrentIndex(2)
    where = view.current_filter()
    assert view.use_range.isChecked()
    since = datetime(night.year, night.month, night.day, 22, tzinfo=UTC)
    assert (where.since, where.until) == (since, since + timedelta(hours=8))
    assert where.dealer == "D-2"
    view.run()
    _idle(qtbot, jobs)
    assert model.rowCount() == 0
    view.shift_day.setDate(QDate(start.year, start.month, start.day))
    view.shift.setCurrentIndex(plan.starts.index(start.hour))
    view.dealer.setText("")
    view.run()  # the shift the first hand was dealt in: its hands (all 7, dealt minutes ago)
    _idle(qtbot, jobs)
    assert model.rowCount() == sum(plan.start_of(t) == start for t in times) >= 1


@pytest.mark.parametrize("lang", ["en", "it"])
def test_screenshots_of_the_search_by_dealer(
    qtbot: QtBot, journal: Path, lang: str, qapp: QApplication
) -> None:
    SHOTS.mkdir(exist_ok=True)
    translators = install_language(qapp, lang)
    session = Session(*open_backend(None, journal))
    session.users.put_user(new_user("PB-1", Role.PIT_BOSS, "246813"), "test")
    session.login("PB-1", "246813")
    jobs = Jobs()
    try:
        view = SearchView(HandsModel(jobs, session.search))
        qtbot.addWidget(view)
        view.resize(1280, 800)
        view.show()
        view.dealer.setText("D-1")
        start = view.shifts.start_of(recorded(journal)[0])
        view.shift_day.setDate(QDate(start.year, start.month, start.day))
        view.shift.setCurrentIndex(view.shifts.starts.index(start.hour))
        view.use_shift.setChecked(True)
        view.run()
        _idle(qtbot, jobs)
        assert view.model.rowCount() >= 1  # D-1's hands in the shift of the first hand
        qtbot.wait(50)
        shot = view.grab()
        assert (shot.width(), shot.height()) == (1280, 800)
        assert shot.save(str(SHOTS / f"pitboss_search_dealer_{lang}.png"))
    finally:
        jobs.stop()
        session.close()
        for tr in translators:
            qapp.removeTranslator(tr)
        install_language(qapp, "en")


def test_the_shift_plan_is_a_named_setting_of_the_command(
    qtbot: QtBot, journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert shift_plan(None) == ShiftPlan() and shift_plan("7,19") == ShiftPlan((7, 19))
    for bad in ("6,14,25", "22,6", "day"):
        assert main(["pitboss", "--db", str(journal), "--shifts", bad]) == 2
        assert "shifts" in capsys.readouterr().err
    session = Session(*open_backend(None, journal))
    session.users.put_user(new_user("PB-1", Role.PIT_BOSS, "246813"), "test")
    session.login("PB-1", "246813")
    jobs = Jobs()
    try:
        win = PitBossWindow(session, jobs, shift_plan("7,19"))
        qtbot.addWidget(win)
        items = [win.search.shift.itemText(i) for i in range(win.search.shift.count())]
        assert items == ["07:00–19:00 UTC", "19:00–07:00 UTC"]
        _idle(qtbot, jobs)  # a page the view asked for, answered before the window goes
    finally:
        jobs.stop()
        session.close()
