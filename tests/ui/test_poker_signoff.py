"""Large pots signed off at the poker console (docs/console.md "Large-pot
sign-off"): a pot above a ``[signoff]`` tier stops its award until a pit boss of the tier's role
signs it off with badge and PIN; a wrong PIN or a lower role changes nothing; the sign-off (who,
when, amount, winners, cards) is kept durably at once and journaled as a ``pot_signoff`` table
record right after the hand, once, also across a restart.

Real PokerService and PeerRunner over a real SQLite journal, the cards typed on the keypad
source from a stacked deck (the side-pot hand of tests/ui/test_poker_console.py: a side pot of
5,000 to seat 1, the main pot of 24,100 to seat 7)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_assist.config import SignoffTier, TableConfig, load_table_config
from dealer_assist.pitboss.recompute import recompute
from dealer_assist.pitboss.roles import Role
from dealer_assist.pitboss.users import new_user
from dealer_assist.ports import TABLE_RECORD, StoredHand
from dealer_assist.storage.access import LocalUsers
from dealer_assist.storage.journal import Journal
from dealer_assist.table.pot_signoff import POT_SIGNOFF_KIND, SIGNOFF_SUFFIX, PotSignOff
from tests.fixtures.poker_table import PLAYERS, Table, play_side_pot
from ui.kit.pitboss import PitBossRoster

TIERS = (SignoffTier(3000, "pit_boss"), SignoffTier(20000, "shift_manager"))
PIT_BOSS, MANAGER = ("4711", "246813"), ("9001", "135724")
AFTER = {1: 40000 - 8000 - 2500 + 5000, 3: 9900, 5: 20000 - 10500, 7: 24100}
"""The stacks after the side-pot hand (as without any sign-off)."""


def signoff_config(path: str = "") -> TableConfig:
    """The shipped Hold'em table with low tiers: both pots of the hand wait."""
    config = load_table_config(path or None, game="holdem")
    return dataclasses.replace(config, signoff=TIERS)


class SignoffTable(Table):
    """tests/fixtures/poker_table.py's table with the tiers and the pit-boss users beside the
    journal (a pit boss and a shift manager)."""

    def __init__(self, tmp: Path, *, users: bool = True) -> None:
        super().__init__(tmp, signoff_config())
        self.tmp = tmp
        if users:
            store = LocalUsers(tmp)
            if store.get_user(PIT_BOSS[0]) is None:
                store.put_user(new_user(PIT_BOSS[0], Role.PIT_BOSS, PIT_BOSS[1]), "test")
                store.put_user(new_user(MANAGER[0], Role.SHIFT_MANAGER, MANAGER[1]), "test")
            self.service.link.signers = store

    def type_signoff(self, badge: str, pin: str) -> None:
        """Badge and PIN on the pad, each closed by OK (as the pit boss taps them)."""
        for key in (*badge, "next", *pin, "next"):
            self.p.signoff_key(key)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[SignoffTable]:
    t = SignoffTable(tmp_path)
    yield t
    t.close()


def signoff_records(db: Path) -> list[dict[str, object]]:
    with Journal(str(db), create=False, read_only=True) as j:
        entries = list(j.iter_hands())
    return [h.record for h in entries
            if h.status == TABLE_RECORD and h.record.get("kind") == POT_SIGNOFF_KIND]  # fmt: skip


def pending_signoffs(t: Table) -> int:
    journal = t.service.journal
    assert journal is not None
    return len(journal.pending_steps(t.config.table_id + SIGNOFF_SUFFIX))


def test_a_large_pot_waits_until_signed_off_and_is_journaled_with_its_cards(
    table: SignoffTable,
) -> None:
    t = table
    t.seat_all()
    play_side_pot(t)
    s = t.p.snap
    # the side pot (5,000 > 3,000) waits for a pit boss: nothing awarded, nothing journaled
    assert t.p.step() == "signoff" and s.phase == "awarding" and not s.journaled
    assert s.signoff is not None and (s.signoff.pot, s.signoff.amount) == (1, 5000)
    assert s.signoff.winners == ((1, 5000),) and s.signoff.role == "pit_boss"
    t.p.tap_new_hand()  # no next hand while a pot waits
    assert t.p.snap.in_hand and t.p.snap.signoff == s.signoff
    # a wrong PIN changes nothing: the same pot waits, nothing is written
    t.type_signoff(PIT_BOSS[0], "0000")
    assert t.p.snap.error is not None and t.p.snap.error.code == "pit_boss"
    assert t.p.snap.signoff == s.signoff and pending_signoffs(t) == 0
    assert t.p.signoff_pad.badge == "" and t.p.signoff_pad.pin_len == 0  # typed again
    t.type_signoff(PIT_BOSS[0], PIT_BOSS[1])
    s = t.p.snap
    assert s.error is None and pending_signoffs(t) == 1  # durable before the screen moves on
    # the main pot (24,100 > 20,000) needs a shift manager: the pit boss is refused
    assert s.signoff is not None and (s.signoff.pot, s.signoff.role) == (0, "shift_manager")
    t.type_signoff(PIT_BOSS[0], PIT_BOSS[1])
    assert t.p.snap.error is not None and t.p.snap.error.code == "signoff_role"
    assert t.p.message is not None and t.p.message.code == "signoff_role"
    assert t.p.snap.signoff == s.signoff and pending_signoffs(t) == 1
    t.type_signoff(MANAGER[0], MANAGER[1])
    s = t.p.snap
    assert s.error is None and s.signoff is None and s.phase == "settled" and s.journaled
    assert dict(s.after) == AFTER and t.p.step() == "settled"
    assert pending_signoffs(t) == 0  # journaled: the steps went
    records = signoff_records(t.tmp / "j.db")
    assert [(r["pot"], r["amount"], r["by"], r["role"]) for r in records] == [
        (1, 5000, PIT_BOSS[0], "pit_boss"), (0, 24100, MANAGER[0], "shift_manager")]  # fmt: skip
    side, main = (PotSignOff.from_json(r) for r in records)
    assert side.winners == ((1, 5000),) and side.cards == {1: ("Ks", "Kd")}
    assert main.winners == ((7, 24100),) and main.cards == {7: ("As", "Ad")}
    assert main.board == ("Ah", "9c", "5d", "3s", "Jh") and main.via == "console"
    assert main.hand_uid == s.hand_uid
    with Journal(str(t.tmp / "j.db"), create=False, read_only=True) as j:
        entries = list(j.iter_hands())
        assert j.verify().ok
    hand_at = next(i for i, e in enumerate(entries) if e.hand_uid == s.hand_uid)
    assert [e.record.get("kind") for e in entries[hand_at + 1 :]] == [POT_SIGNOFF_KIND] * 2
    settlement = entries[hand_at].settlement
    assert settlement is not None
    assert {x["seat"]: x["stack"] for x in settlement["seats"]} == AFTER
    assert_signed_off_in_the_hand(entries[hand_at])


def assert_signed_off_in_the_hand(entry: StoredHand) -> None:
    """Each sign-off is an operation of the journaled hand, just before its pot's award, and
    the hand folds again to what was recorded."""
    ops = entry.extra["operations"]
    signed = [(o["pot"], o["by"], o["role"]) for o in ops if o["kind"] == "pot_signed_off"]
    assert signed == [(1, PIT_BOSS[0], "pit_boss"), (0, MANAGER[0], "shift_manager")]
    for i, o in enumerate(ops):
        if o["kind"] == "pot_signed_off":
            assert ops[i + 1]["kind"] == "pot" and ops[i + 1]["pot"] == o["pot"]
    assert recompute(entry).agrees


def test_without_a_pin_store_a_large_pot_cannot_be_signed(tmp_path: Path) -> None:
    t = SignoffTable(tmp_path, users=False)
    try:
        t.seat_all()
        play_side_pot(t)
        t.type_signoff(PIT_BOSS[0], PIT_BOSS[1])
        assert t.p.snap.error is not None and t.p.snap.error.code == "signoff_no_store"
        assert t.p.snap.signoff is not None and pending_signoffs(t) == 0
        # the console's roster of pit bosses signs a pit boss's tier, not a shift manager's
        roster = PitBossRoster(tmp_path / "pit_bosses.json").load()
        roster.add(PIT_BOSS[0], PIT_BOSS[1])
        t.service.roster = roster
        t.type_signoff(PIT_BOSS[0], PIT_BOSS[1])
        assert t.p.snap.error is None and t.p.snap.signoff is not None
        assert t.p.snap.signoff.role == "shift_manager"
        t.type_signoff(PIT_BOSS[0], PIT_BOSS[1])
        assert t.p.snap.error is not None and t.p.snap.error.code == "signoff_role"
    finally:
        t.close()


def test_a_restart_keeps_the_signed_pot_and_journals_its_record_once(tmp_path: Path) -> None:
    t = SignoffTable(tmp_path)
    t.seat_all()
    play_side_pot(t)
    t.type_signoff(PIT_BOSS[0], PIT_BOSS[1])
    uid = t.p.snap.hand_uid
    assert t.p.snap.signoff is not None and t.p.snap.signoff.pot == 0
    t.close()  # as after a crash: the hand and the sign-off only in the step log
    again = SignoffTable(tmp_path)
    try:
        s = again.p.snap
        assert s.resumed and s.hand_uid == uid
        assert s.signoff is not None and s.signoff.pot == 0  # the side pot stays signed
        again.type_signoff(MANAGER[0], MANAGER[1])
        assert again.p.snap.journaled and dict(again.p.snap.after) == AFTER
    finally:
        again.close()
    assert [r["pot"] for r in signoff_records(tmp_path / "j.db")] == [1, 0]
    with Journal(str(tmp_path / "j.db"), create=False, read_only=True) as j:
        assert_signed_off_in_the_hand(next(e for e in j.iter_hands() if e.hand_uid == uid))
    # a crash after the hand, before its records: the step is journaled at the next start
    journal = Journal(str(tmp_path / "j.db"))
    journal.open()
    so = PotSignOff.from_json(signoff_records(tmp_path / "j.db")[0])
    journal.write_step(again.config.table_id + SIGNOFF_SUFFIX, uid, 0, POT_SIGNOFF_KIND,
                       so.to_json())  # fmt: skip
    journal.close()
    third = SignoffTable(tmp_path)
    try:
        assert not third.p.snap.in_hand and pending_signoffs(third) == 0
    finally:
        third.close()
    assert [r["pot"] for r in signoff_records(tmp_path / "j.db")] == [1, 0]  # not twice


def test_the_shipped_poker_tables_have_signoff_tiers() -> None:
    for game in ("holdem", "stud"):
        tiers = load_table_config(game=game).signoff
        assert [t.role for t in tiers] == ["pit_boss", "shift_manager"]
        assert tiers[0].above < tiers[1].above
    assert sum(p[2] for p in PLAYERS) < load_table_config(game="holdem").signoff[0].above


# The console process: the real PokerConsole (worker thread, window offscreen, journal on disk)
# with the tiers and the users file beside the journal, tapped through its presenter; it plays
# the side-pot hand to its award, the pit boss signs the side pot, and it prints the table, then
# waits to be killed.
CHILD = r"""
import dataclasses, itertools, json, sys, time
from pathlib import Path
from dealer_assist.cards import FULL_DECK
from dealer_assist.storage.access import LocalUsers
from dealer_assist.storage.journal import Journal
from drivers.manual import ManualSource
from tests.fixtures.poker_table import PLAYERS, SIDE, deck_for
from tests.ui.test_poker_signoff import PIT_BOSS, signoff_config
from ui.kit.boot import qt_app
from ui.kit.service_parts import ServiceParts
from ui.poker.app import PokerConsole

app = qt_app()
db = Path(sys.argv[1])
console = PokerConsole(ServiceParts(signoff_config(), ManualSource, Journal(str(db))), lang="en")
console.service.link.signers = LocalUsers(db.parent)
console.window.resize(1280, 800)
console.window.show()
console.start()
p = console.presenter
p.clock = itertools.count(0.0, 1.0).__next__

def wait(pred, what):
    deadline = time.monotonic() + 30
    while not pred():
        if time.monotonic() > deadline:
            raise SystemExit("timed out: " + what)
        app.processEvents()
        time.sleep(0.005)

def answered():
    wait(lambda: not p.view().busy, "the answer")

wait(lambda: p.snap.device.connected, "the source")
for seat, name, stack in PLAYERS:
    p.tap_seat(seat)
    p.set_name(name)
    p.amount = stack
    p.tap_seat_player()
    answered()
p.tap_seat(1)
p.tap_seat_change("button")
answered()
cards = deck_for(*SIDE)
rest = iter([c for c in FULL_DECK if c not in cards.values()])
entered = set()

def deal():
    while True:
        wait(lambda: p.snap.legal is not None or p.snap.pending or p.snap.signoff, "the table")
        if p.snap.legal is not None or p.snap.signoff is not None:
            return
        for pos in p.snap.pending:
            if pos not in entered:
                entered.add(pos)
                console.service.enter_card(cards.get(pos) or next(rest))
        before = p.snap.pending
        wait(lambda: p.snap.pending != before or p.snap.legal is not None, "the cards")

def act(kind, to=None):
    if to is not None:
        p.amount = to
    seat = p.snap.actor
    p.tap_action(kind)
    answered()
    wait(lambda: p.snap.actor != seat, "the next seat")
    deal()

p.tap_new_hand()
wait(lambda: p.snap.in_hand, "the hand")
deal()
act("raise", p.snap.legal.maximum)
act("call")
act("fold")
act("call")
act("bet", 2500)
act("call")
while p.snap.legal is not None:
    act("check")
wait(lambda: p.snap.signoff is not None, "the large pot")
for key in (*PIT_BOSS[0], "next", *PIT_BOSS[1], "next"):
    p.signoff_key(key)
answered()
wait(lambda: p.snap.signoff is not None and p.snap.signoff.pot == 0, "the main pot")
print(json.dumps({"uid": p.snap.hand_uid, "waits": p.snap.signoff.pot}), flush=True)
while True:
    app.processEvents()
    time.sleep(0.05)
"""


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL")
def test_a_console_killed_after_a_signoff_keeps_it(tmp_path: Path) -> None:
    import json
    import signal
    import subprocess
    import sys

    root = Path(__file__).parent.resolve().parents[1]
    store = LocalUsers(tmp_path)
    store.put_user(new_user(PIT_BOSS[0], Role.PIT_BOSS, PIT_BOSS[1]), "test")
    store.put_user(new_user(MANAGER[0], Role.SHIFT_MANAGER, MANAGER[1]), "test")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(root))
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path / "j.db")], cwd=root, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line, f"the console process ended early (exit {child.poll()})"
        before = json.loads(line)
    finally:
        child.send_signal(signal.SIGKILL)
        _, err = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL, err[-2000:]
    assert before["waits"] == 0  # the side pot was signed off when the process died
    again = SignoffTable(tmp_path)
    try:
        s = again.p.snap
        assert s.resumed and s.hand_uid == before["uid"]
        assert s.signoff is not None and s.signoff.pot == 0 and s.signoff.amount == 24100
        again.type_signoff(MANAGER[0], MANAGER[1])
        assert again.p.snap.journaled and dict(again.p.snap.after) == AFTER
    finally:
        again.close()
    records = signoff_records(tmp_path / "j.db")
    assert [(r["pot"], r["by"]) for r in records] == [(1, PIT_BOSS[0]), (0, MANAGER[0])]


SHOTS = Path(__file__).parent.resolve().parents[1] / "artifacts" / "screenshots" / "poker_signoff"


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_signoff_page_at_1280x800_in_both_languages(
    tmp_path: Path, qtbot: object, lang: str
) -> None:
    from PySide6.QtWidgets import QWidget

    from tests.fixtures.layout_checks import cut_buttons, english_leftovers, visible_texts
    from ui.kit.boot import qt_app
    from ui.kit.i18n import install_language
    from ui.poker.window import PokerWindow

    app = qt_app()
    translators = install_language(app, lang)
    t = SignoffTable(tmp_path)
    try:
        t.seat_all()
        play_side_pot(t)
        win = PokerWindow(t.p, t.config, lang)
        qtbot.addWidget(win)  # type: ignore[attr-defined]
        win.resize(1280, 800)
        win.show()
        page = win.side.signoff
        assert win.side.pages.currentWidget() is page and page.pad.isVisible()
        title = {"en": "Large pot: sign-off", "it": "Piatto elevato: convalida"}[lang]
        assert win.side.title.text() == title
        pot = {"en": "Side pot 1", "it": "Piatto laterale 1"}[lang]
        assert page.pot.text().startswith(pot) and "5" in page.pot.text()
        keys = page.keys
        for key in (*PIT_BOSS[0], "next", *PIT_BOSS[1][:2]):  # tapped on the pad
            keys[key].click()
        assert page.field.text().endswith("••")
        hint = {"en": "A pit boss signs it off", "it": "Un capo tavolo lo convalida"}[lang]
        assert win.side.hint.isVisible() and win.side.hint.text().startswith(hint)
        app.processEvents()
        texts = visible_texts(win.side)  # the panel's page (the top bar is not this feature's)
        if lang == "it":
            assert english_leftovers(texts) == []
        assert cut_buttons(win) == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        shot = SHOTS / f"poker_signoff_{lang}.png"
        assert win.grab().save(str(shot)) and shot.stat().st_size > 10_000
        for key in ("back", "back", *"0000", "next"):  # a wrong PIN
            keys[key].click()
        wrong = {"en": "Unknown badge or wrong PIN", "it": "Badge sconosciuto o PIN errato"}
        assert win.side.message.isVisible() and wrong[lang] in win.side.message.text()
        assert t.p.snap.signoff is not None and t.p.snap.signoff.pot == 1
        assert pending_signoffs(t) == 0
        for key in (*PIT_BOSS[0], "next", *PIT_BOSS[1][:2]):
            keys[key].click()
        for key in (*PIT_BOSS[1][2:], "next"):
            keys[key].click()
        assert t.p.snap.signoff is not None and t.p.snap.signoff.pot == 0  # the next pot
        for key in (*MANAGER[0], "next", *MANAGER[1], "next"):
            keys[key].click()
        assert t.p.snap.journaled and t.p.step() == "settled"
        shown: QWidget | None = win.side.pages.currentWidget()
        assert shown is not page
    finally:
        t.close()
        for tr in translators:
            app.removeTranslator(tr)


def test_a_large_stud_pot_split_three_ways_is_signed_with_every_winners_cards(
    tmp_path: Path,
) -> None:
    from tests.ui.test_poker_console_stud import BRING_IN_HAND, StudTable, stacked
    from tests.ui.test_poker_console_stud import cfg as stud_table

    class SignoffStud(StudTable):
        def __init__(self, tmp: Path) -> None:
            tier = SignoffTier(500, "pit_boss")
            super().__init__(tmp, dataclasses.replace(stud_table(), signoff=(tier,)))
            store = LocalUsers(tmp)
            store.put_user(new_user(PIT_BOSS[0], Role.PIT_BOSS, PIT_BOSS[1]), "test")
            self.service.link.signers = store

    t = SignoffStud(tmp_path)
    try:
        cards = stacked(BRING_IN_HAND)
        t.seat_all()
        t.p.tap_new_hand()
        t.deal(cards)
        script = {4: "fold", 7: "bring_in", 8: "complete", 1: "fold", 2: "fold", 3: "call",
                  5: "fold", 6: "fold"}  # fmt: skip
        while t.p.snap.signoff is None:
            legal = t.p.snap.legal
            assert legal is not None and t.p.snap.in_hand
            if "show" in legal.kinds:
                t.p.tap_show(True)
                continue
            kind = script.pop(legal.seat, "") if t.p.snap.street == "third" else ""
            t.act(kind or next(k for k in ("check", "call") if k in legal.kinds), cards)
        wait = t.p.snap.signoff
        assert (wait.pot, wait.amount, wait.role) == (0, 800, "pit_boss")
        assert wait.winners == ((3, 275), (7, 250), (8, 275)) and not t.p.snap.journaled
        for key in (*PIT_BOSS[0], "next", *PIT_BOSS[1], "next"):
            t.p.signoff_key(key)
        assert t.p.snap.journaled and t.p.snap.signoff is None
        (award,) = t.p.snap.awards
        assert [(w.seat, w.amount, w.odd_chip) for w in award.winners] == [
            (8, 275, True), (3, 275, True), (7, 250, False)]  # fmt: skip
        (record,) = signoff_records(tmp_path / "j.db")
        so = PotSignOff.from_json(record)
        assert sorted(so.cards) == [3, 7, 8] and all(len(c) == 7 for c in so.cards.values())
        assert so.cards[8] == tuple(str(cards[f"seat 8 card {n}"]) for n in range(1, 8))
        assert so.board == ()
    finally:
        t.close()
