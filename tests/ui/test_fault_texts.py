"""Fault texts a dealer understands (5): every alarm, banner and refusal about the
card source is a translated sentence saying what to do; the driver's words (``transport:``,
pyserial's, ``HELLO seq 0``) stay in the log and the journal. Real ptys, real emulator
processes killed with SIGKILL, the real console at 1280x800 in English and Italian (Qt
offscreen), the labels checked for clipping as tests/ui/test_console_text_fit.py does."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import re
import select
import signal
import subprocess
import threading
import time
import tty
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QApplication

from dealer_assist.config import SourceConfig, load_table_config
from dealer_assist.engine.views import Phase
from dealer_assist.engine.voids import FAULT_TEXTS, VoidReason
from dealer_assist.errors import (
    CommandRefusedError,
    DealerAssistError,
    DeviceError,
    ProtocolError,
)
from dealer_assist.events import DeviceEvent, LinkLost, LinkRestored, SourceSwitched
from dealer_assist.players import PlayerModel
from dealer_assist.source import LinkStats
from dealer_assist.storage.journal import Journal
from dealer_assist.table.banked_runner import BankedRunner
from dealer_assist.table.device_status import (
    FAULT_KINDS,
    SECOND_READER_KINDS,
    ReadinessTracker,
    fault_kind,
)
from dealer_assist.table.driving import HeadlessTable, play_hand
from drivers.emulator.process import EmulatorProcess
from drivers.emulator.source import EmulatorSource
from drivers.factory import open_source
from drivers.failover.table import open_table_sources
from drivers.transport.serial_port import PORT_BUSY, SerialTransport
from tests.conftest import close_at_teardown
from tests.fixtures.console_conftest import (
    Shots,
    console_app,  # noqa: F401 (fixture)
    console_factory,  # noqa: F401 (fixture)
    emulator_url,
    table,
    tap,
    wait_step,
)
from tests.ui.test_console_text_fit import cut_texts
from ui.console import texts
from ui.console.presenter import ConsolePresenter
from ui.console.snapshot import TableSnapshot
from ui.console.view import Message, Step
from ui.kit import fault_texts
from ui.kit.i18n import qm_path
from ui.kit.status import CommandError, DeviceStatus, SourceNotice
from ui.kit.translate import tr
from ui.poker import texts as poker_texts
from ui.poker.presenter import Message as PokerMessage

pytestmark = pytest.mark.gui

#: what must never reach the dealer's screen
TECHNICAL = re.compile(
    r"transport:|errno|/dev/|pts|pyserial|HELLO|seq \d|returned no data|could not open|"
    r"socket://|Traceback|exclusively lock|\(JAM\)",
    re.IGNORECASE,
)


@pytest.fixture(params=["en", "it"])
def lang(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    """The language of the texts: the shipped Italian catalogue installed for ``it``."""
    translator = QTranslator()
    if request.param == "it":
        assert translator.load(str(qm_path("it")))
        QCoreApplication.installTranslator(translator)
    try:
        yield str(request.param)
    finally:
        QCoreApplication.removeTranslator(translator)


def dealer_sentence(text: str) -> None:
    """A sentence for the dealer: no technical words, and what to do (after a colon, or on the
    line under what happened)."""
    assert text and not TECHNICAL.search(text), text
    assert ":" in text or "\n" in text, f"no instruction in {text!r}"


def test_every_fault_sentence_is_translated_and_says_what_to_do(lang: str) -> None:
    english = QCoreApplication.translate("", "Shuffler door open: close it")
    assert (english == "Shuffler door open: close it") == (lang == "en")
    for kind in FAULT_KINDS:
        text = fault_texts.fault_sentence(kind)
        dealer_sentence(text)
        if lang == "it":
            assert text != str(fault_texts._KIND_TEXTS[kind]), f"{kind} not in Italian"
    for code in [*FAULT_TEXTS, "LATE_CARD"]:
        text = fault_texts.fault_code_text(code)
        dealer_sentence(text)
        if lang == "it":
            assert text != str(fault_texts._FAULT_CODES[code]), f"{code} not in Italian"
    assert fault_texts.fault_sentence("link_lost").startswith(
        "Cavo della miscelatrice scollegato" if lang == "it" else "Shuffler cable disconnected"
    )


def killed_emulator() -> tuple[str, str]:
    """A real emulator on a pty killed with SIGKILL: (the LinkLost reason, the link's
    last_error after a failed reconnection), as the driver reports them."""
    source = EmulatorSource(["--seed", "1"])
    try:
        source.open()
        pid = source.emulator.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        reason, deadline = "", time.monotonic() + 10
        while not reason and time.monotonic() < deadline:
            event = source.next_event(0.2)
            if isinstance(event, LinkLost):
                reason = event.reason
        while not source.link_status.last_error and time.monotonic() < deadline:
            time.sleep(0.1)
        return reason, source.link_status.last_error
    finally:
        source.close()


def test_a_killed_emulator_reaches_the_dealer_as_a_sentence(
    lang: str, caplog: pytest.LogCaptureFixture
) -> None:
    reason, last_error = killed_emulator()
    assert reason.startswith("transport:"), reason  # the driver's words, as they come
    assert last_error, "no reconnection attempt failed"
    cable = fault_texts.fault_sentence("link_lost")
    device = DeviceStatus(link="reconnecting", reconnect_attempts=2, next_attempt_in=1.5,
                          last_error=last_error, why_not_ready="link reconnecting")  # fmt: skip
    banner = fault_texts.not_ready_text(device)
    assert banner.startswith(cable) and "2" in banner
    # pyserial cannot tell a vanished port from a second reader: both are said; a write that
    # failed first (the worker's probe, as it happens at times) is a broken link: the cable
    either = fault_texts.fault_sentence("link_lost_or_shared")
    assert either.startswith(cable[:-1]) and either != cable
    said = either if "returned no data" in reason else cable
    assert said == either or "write to" in reason, reason
    void = fault_texts.void_text(VoidReason("link_lost", reason), lang)
    assert void == VoidReason("link_lost").text(lang) + "\n" + said
    notice = SourceNotice(1, "emulator", "manual", reason, manual=True)
    with caplog.at_level(logging.WARNING, logger="ui.console.texts"):
        line = fault_texts.notice_reason_text(notice)
    assert line.endswith(said)
    for text in (banner, void, line):
        dealer_sentence(text)
    # the technical detail is in the log (once), not on the screen
    assert [r.getMessage() for r in caplog.records].count(f"card source: {reason}") <= 1
    assert reason in caplog.text or reason in fault_texts._LOGGED
    # the poker console's refusal of a new hand with the link down says the same
    refused = poker_texts.message_text(PokerMessage("refused", text="link reconnecting"), "EUR")
    assert refused == cable


def refused_open(url: str, **opts: Any) -> str:
    source = open_source(url, **opts)
    try:
        source.open()
    except DealerAssistError as e:
        return str(e)
    finally:
        source.close()
    raise AssertionError(f"{url} opened")


@pytest.fixture
def pty_path() -> Iterator[str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        yield os.ttyname(slave)
    finally:
        os.close(master)
        os.close(slave)


def test_a_refused_open_says_what_to_do(lang: str, pty_path: str) -> None:
    missing = refused_open("/dev/ttyNOSUCHPORT")
    silent = refused_open(pty_path, hello_timeout=0.3)  # nobody answers on this pty
    holder = SerialTransport(pty_path, exclusive=True)
    holder.open()  # another table holds the port
    try:
        busy = refused_open(pty_path, hello_timeout=0.3)
    finally:
        holder.close()
    assert PORT_BUSY in busy
    expected = {missing: "port_missing", silent: "no_answer", busy: "port_busy"}
    for detail, kind in expected.items():
        assert fault_kind(detail) == kind, detail
        text = fault_texts.source_error_text(DeviceStatus(error=detail))
        assert text == fault_texts.fault_sentence(kind)
        dealer_sentence(text)
    assert "altro programma" in fault_texts.fault_sentence("port_busy") or lang == "en"


def test_void_alarms_and_refusals_say_what_to_do(lang: str) -> None:
    jam = fault_texts.void_text(VoidReason("device_fault", "JAM"), lang)
    assert jam == VoidReason("device_fault").text(lang) + "\n" + fault_texts.fault_code_text("JAM")
    restart = fault_texts.void_text(
        VoidReason("restart", "the shuffler restarted (HELLO seq 0)"), lang
    )
    assert restart.startswith(VoidReason("restart").text(lang) + "\n")
    gap = fault_texts.void_text(VoidReason("index_gap", "index 7 after 5"), lang)
    assert gap.endswith(fault_texts.fault_sentence("frames_missing"))  # maybe a second reader
    for text in (jam, restart, gap):
        dealer_sentence(text)
    for why in ("fault JAM, DOOR_OPEN", "device state FAULT", "link lost",
                "another device answered (identity changed)"):  # fmt: skip
        banked = texts.message_text(Message("device", text=why), "EUR")
        poker = poker_texts.message_text(PokerMessage("refused", text=why), "EUR")
        assert banked == poker and banked == fault_texts.why_text(why)
        dealer_sentence(banked)
    faults = DeviceStatus(connected=True, faults=("JAM", "LATE_CARD"), why_not_ready="fault JAM")
    assert fault_texts.not_ready_text(faults) == fault_texts.fault_code_text("JAM")
    assert fault_texts.fault_names(("JAM", "DOOR_OPEN")) == (
        "inceppo, sportello aperto" if lang == "it" else "jam, door open"
    )


@pytest.mark.parametrize("lang_code", ["en", "it"])
def test_the_console_at_1280x800_when_the_shuffler_dies(
    qtbot: Any,
    console_factory: Any,  # noqa: F811
    lang_code: str,
) -> None:
    base = table("uth")
    src = base.sources[0]
    config = dataclasses.replace(
        base, sources=(SourceConfig(emulator_url(12), src.pin_model, src.pin_serial),)
    )
    console = console_factory(
        config=config, lang=lang_code, size=(1280, 800),
        make_source=lambda: open_table_sources(config, switch_after=0.3),
    )  # fmt: skip
    win = console.window
    wait_step(qtbot, console, Step.BETS)
    emulator = console.service.active_source
    assert isinstance(emulator, EmulatorSource) and emulator.emulator.pid is not None
    os.kill(emulator.emulator.pid, signal.SIGKILL)
    qtbot.waitUntil(lambda: win.notice.isVisible() or win.alarm.isVisible(), timeout=10000)
    shown: list[str] = []
    if win.alarm.isVisible():
        shown.append(win.alarm.reason.text())
        assert cut_texts(win) == []
        tap(qtbot, win.alarm.ack)
    qtbot.waitUntil(lambda: win.notice.isVisible(), timeout=10000)
    QApplication.processEvents()
    shown += [win.notice.text.text(), win.notice.reason.text(), win.top.beat.text()]
    Shots("fault_texts").take(win, f"shuffler_died_{lang_code}")
    assert cut_texts(win) == []
    either = fault_texts.fault_sentence("link_lost_or_shared")  # pyserial's words: cable or thief
    assert win.notice.reason.text() == tr("Reason: %1").replace("%1", either)
    if lang_code == "it":
        assert "Cavo della miscelatrice scollegato" in win.notice.reason.text()
    for text in shown:
        assert not TECHNICAL.search(text), text


def test_a_not_ready_line_goes_once_the_device_is_ready() -> None:
    """The refusal of a new hand while the shuffler is not ready stays only while it is not:
    the dealer never reads "not ready" beside a green, ready source (5)."""
    config = table("uth")
    p = ConsolePresenter(config, lambda _command: None)
    ok = DeviceStatus(connected=True, ready=True, link="connected", source="manual")
    sick = dataclasses.replace(ok, ready=False, faults=("JAM",), why_not_ready="fault JAM")
    p.on_snapshot(TableSnapshot(phase=Phase.VOID, hand_uid="h1", device=sick))
    refusal = CommandError("device_not_ready", "fault JAM")
    p.on_snapshot(TableSnapshot(seq=1, phase=Phase.VOID, hand_uid="h1", device=sick,
                                error=refusal))  # fmt: skip
    view = p.view()
    assert view.message is not None and view.message.code == "device_not_ready"
    p.on_snapshot(TableSnapshot(seq=1, phase=Phase.VOID, hand_uid="h1", device=sick))
    assert p.view().message is not None  # still not ready: the line stays
    p.on_snapshot(TableSnapshot(seq=1, phase=Phase.VOID, hand_uid="h1", device=ok))
    assert p.view().message is None


def test_a_second_reader_on_a_shared_port_is_named_on_the_void_alarm(tmp_path: Path) -> None:
    """As reported: another program reading the port steals the table's frames and hands
    keep voiding. The port is opened shared here on purpose (``exclusive=False``, and the tests
    may run as root, whom TIOCEXCL lets through: test_serial_exclusive.py shows the refusal): a
    thief reads the same real pty as the table; once the table has seen frames go missing (a
    void or refusal in pyserial's "multiple access" words, skipped or missing cards), every void
    and refusal says that another program may be reading the port. One before that (an answer
    that did not come, the first thing the thief took) may only say what it saw."""
    emulator = close_at_teardown(EmulatorProcess(
        ["--seed", "3", "--shuffle-time", "0.01", "--card-interval", "0.02"],
        stderr=subprocess.DEVNULL,
    ))  # fmt: skip
    path = emulator.start()
    journal = close_at_teardown(Journal(str(tmp_path / "j.db")))
    journal.open()
    source = close_at_teardown(open_source(path, exclusive=False))
    source.open()
    stop = threading.Event()
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)

    def thief() -> None:  # reads whatever it can, as a terminal program left open would
        while not stop.is_set():
            select.select([fd], [], [], 0.05)
            with contextlib.suppress(BlockingIOError, OSError):
                os.read(fd, 4096)

    thread = threading.Thread(target=thief)
    thread.start()
    said: list[tuple[str, str]] = []  # (the core's English, what the dealer reads), in order
    try:
        runner = HeadlessTable(load_table_config(game="uth"), source, journal, card_timeout=2.0)
        model = PlayerModel(runner.config, 5)
        after = None  # hands played since the first evidence
        for _ in range(10):  # the thief takes more or less: play on until it has shown
            try:
                hand = play_hand(runner, model, [1, 2])
            except DealerAssistError as e:  # the link was down when a step needed it
                said.append((str(e), texts.message_text(Message("device", text=str(e)), "EUR")))
                runner.wait_device_ready(5.0)
            else:
                if hand.void_reason is not None:
                    r = hand.void_reason
                    said.append((f"{r.code}: {r.detail}", fault_texts.void_text(r, "en")))
            if after is None and any(evidence(core) for core, _ in said):
                after = 0
            elif after is not None:
                after += 1
            if after == 2:
                break
    finally:
        stop.set()
        thread.join(5)
        os.close(fd)
    first = next((i for i, (core, _) in enumerate(said) if evidence(core)), None)
    assert first is not None, f"the thief took no frame the table noticed: {said}"
    shared = "another program may be reading the shuffler's port"
    for core, text in said[first:]:
        assert shared in text, (said, core)
    for _core, text in said:
        dealer_sentence(text)


def evidence(core: str) -> bool:
    """Whether a void (``code: detail``) or a refusal of the core says frames went missing."""
    return core.startswith(("index_gap:", "missing_cards:")) or (
        fault_kind(core) in SECOND_READER_KINDS
    )


SHARED = "another program may be reading the shuffler's port"
PYSERIAL = (
    "transport: read from /dev/pts/0 failed: device reports readiness to read but returned no "
    "data (device disconnected or multiple access on port?)"
)


class ScriptedLink:
    """A bare card source whose link events are scripted (the sequence a thief on the port
    made: pyserial's "multiple access" loss, the link back, then a loss in plain words)."""

    name = "scripted"
    identity = None
    stats = LinkStats()

    def __init__(self, events: list[DeviceEvent]) -> None:
        self.events = list(events)

    def open(self) -> None:
        """Nothing to open."""

    def close(self) -> None:
        """Nothing to close."""

    def shuffle(self) -> None:
        """Never reached: the link is down."""
        raise AssertionError("shuffle with the link down")

    def deal(self, n: int) -> None:
        """Never reached: the link is down."""
        raise AssertionError("deal with the link down")

    def next_event(self, timeout: float) -> DeviceEvent | None:
        """The next scripted event, None after the last."""
        return self.events.pop(0) if self.events else None


def test_after_frames_went_missing_the_link_lost_refusal_names_a_second_reader(
    lang: str,
) -> None:
    """The CI failure, deterministic: a link lost in pyserial's "multiple access" words, the
    link back, then lost again in plain words; the next hand's refusal "device not ready (link
    lost)" (and the console's not-ready line, banner and the poker console's refusal) said a
    plain cable fault. Now each names the second reader; without the first loss they do not."""
    config = load_table_config(game="uth")
    shared = fault_texts.fault_sentence("link_lost_or_shared")
    cable = fault_texts.fault_sentence("link_lost")
    cases: list[tuple[list[DeviceEvent], str]] = [
        ([LinkLost(reason=PYSERIAL), LinkRestored(), LinkLost(reason="nothing received for 3 s")],
         shared),
        ([LinkLost(reason="nothing received for 3 s")], cable),
    ]  # fmt: skip
    for events, expected in cases:
        runner = BankedRunner(config, ScriptedLink(events), None)
        runner.poll(0)
        with pytest.raises(DeviceError) as refused:
            runner.new_hand()
        assert str(refused.value).startswith("device not ready (link lost")
        said = [
            texts.message_text(Message("device", text=str(refused.value)), "EUR"),
            poker_texts.message_text(PokerMessage("refused", text=str(refused.value)), "EUR"),
        ]
        why = runner.device_status.why_not_ready
        lost = DeviceStatus(link="lost", why_not_ready=why)
        said.append(fault_texts.not_ready_text(lost))
        p = ConsolePresenter(config, lambda _command: None)
        p.on_snapshot(TableSnapshot(phase=Phase.VOID, hand_uid="h1", device=lost,
                                    error=CommandError("device_not_ready", why)))  # fmt: skip
        view = p.view()
        assert view.message is not None
        line = texts.message_text(view.message, "EUR")  # the console's not-ready line
        assert (line == shared) == (expected == shared), line
        for text in said:
            assert text == expected or text.startswith(expected + " — "), (events, text)
        for text in (*said, line):
            dealer_sentence(text)
        if lang == "en":
            assert (SHARED in said[0]) == (expected == shared)


def test_after_frames_went_missing_every_link_void_names_a_second_reader(lang: str) -> None:
    """The void alarms that follow the evidence (ReadinessTracker.noted_void): a link lost in
    plain words, a DEAL that failed, an awaited SHUFFLED say the second reader; a JAM the
    device reported, a restart do not; skipped or missing cards are evidence themselves; a
    switch to another source starts afresh."""
    eio = "transport: read from /dev/pts/0 failed: [Errno 5] Input/output error"
    link_void = VoidReason("link_lost", eio)
    shuffled = VoidReason("device_fault", "no SHUFFLED from the device")
    deal = VoidReason(
        "device_fault", "DEAL 3 failed: /dev/pts/0: no answer to DEAL after 4 attempts"
    )
    plain = ReadinessTracker()
    assert plain.noted_void(link_void) == link_void
    assert fault_texts.void_text(link_void, lang).endswith(fault_texts.fault_sentence("link_lost"))
    for first in (LinkLost(reason=PYSERIAL), VoidReason("index_gap", "index 7, expected 6"),
                  VoidReason("missing_cards", "2 of 4 not received")):  # fmt: skip
        tracker = ReadinessTracker()
        if isinstance(first, LinkLost):
            tracker.update(first)
        else:
            assert tracker.noted_void(first) == first  # its own text says it already
            assert fault_texts.void_text(first, lang).endswith(
                fault_texts.fault_sentence("frames_missing")
            )
        assert tracker.second_reader
        for void, kind in ((link_void, "link_lost_or_shared"), (shuffled, "frames_missing"),
                           (deal, "frames_missing")):  # fmt: skip
            noted = tracker.noted_void(void)
            assert noted.code == void.code and noted.detail.startswith(void.detail)
            assert fault_texts.void_text(noted, lang) == (
                VoidReason(void.code).text(lang) + "\n" + fault_texts.fault_sentence(kind)
            )
            assert tracker.noted_void(noted) == noted  # said once
        for kept in (VoidReason("device_fault", "JAM"), VoidReason("restart", "HELLO seq 0")):
            assert tracker.noted_void(kept) == kept
        refused = tracker.noted_error(ProtocolError("/dev/pts/0: no answer to SHUFFLE after 4 "
                                                    "attempts"))  # fmt: skip
        assert isinstance(refused, ProtocolError)
        assert fault_texts.why_text(str(refused)) == fault_texts.fault_sentence("frames_missing")
        nak = CommandRefusedError("SHUFFLE", "BUSY")
        assert tracker.noted_error(nak) is nak  # the device answered: the link works
        tracker.update(SourceSwitched(from_source="serial", to_source="manual", reason="x"))
        assert not tracker.second_reader and tracker.noted_void(link_void) == link_void
