"""Seven Card Stud in PHH (variant ``F7S``, docs/PHH.md "Seven Card Stud"): pokerkit replays
what ``dealer-assist phh export`` writes of a simulated 8-handed Stud journal (the community card
of a short deck among its hands) to the journal's stacks, except the hands that use a rule of
rules text 002 pokerkit does not have; and each file reads back as the journaled record."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.games.stud_players import random_record
from dealer_assist.interchange import dumps_phh, loads_phh_text, phh_to_record, record_to_phh
from dealer_assist.ports import OPERATIONS_KEY
from dealer_assist.record import settle_record
from dealer_assist.storage import Journal
from tests.fixtures.phh_export import copy_journal, settled, stored_export, tamper_record
from tests.fixtures.phh_oracle import AGREES, RULE_DIFFERENCES, classify
from ui.cli import main

REPO = Path(__file__).parent.resolve().parents[1]
CASES = REPO.parent / "shared" / "cases" / "pot" / "valid"
HANDS = 40

pytestmark = pytest.mark.integration  # a simulate subprocess on the emulator


@pytest.fixture(scope="module")
def stud_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real journal: 40 hands of the shipped Stud table, 8 players who mostly stay in (so
    the deck runs short on seventh street), through the emulator (``dealer-assist simulate``)."""
    db = tmp_path_factory.mktemp("stud8") / "journal.db"
    cmd = [
        sys.executable,
        "-m",
        "ui.cli",
        "simulate",
        "--game",
        "stud",
        "--players",
        "8",
        "--stay-in",
        "0.9",
        "--hands",
        str(HANDS),
        "--seed",
        "1",
        "--db",
        str(db),
        "--no-progress",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return db


def test_pokerkit_replays_the_exported_stud_hands(
    stud_journal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pk = pytest.importorskip("pokerkit")
    out = tmp_path / "stud8.phhs"
    assert main(["phh", "export", "--db", str(stud_journal), "-o", str(out)]) == 0
    assert f"{HANDS} hands exported" in capsys.readouterr().err
    hands = loads_phh_text(out.read_text(), "stud8")
    with Journal(str(stud_journal), create=False) as journal:
        stored = {h.hand_id: h for h in journal.iter_hands() if h.game == "stud"}
    outcomes: Counter[str] = Counter()
    community = 0
    for name, phh in hands.items():
        hand = stored[phh["hand"]]
        assert phh["variant"] == "F7S", name
        outcomes[classify(pk, phh, hand.settlement)] += 1
        community += "community" in hand.record
        # the file reads back as the journaled record, settling the same
        assert settle_record(phh_to_record(phh)) == hand.settlement, name
    print(dict(outcomes), "community cards:", community)
    assert set(outcomes) <= {*AGREES, *RULE_DIFFERENCES}, outcomes
    assert outcomes["same"] + outcomes["odd chips"] >= HANDS * 0.8, outcomes
    assert community >= 3  # the short deck's community card, replayed too


def test_export_is_the_fold_of_each_stud_hand(
    stud_journal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Folded from the journal's operations, the file is byte for byte what the stored records
    and settlements give; a hand whose stored record was changed (a door card) is refused,
    naming the hand, and nothing is written."""
    hands = settled(stud_journal, "stud")
    assert all(isinstance(h.extra.get(OPERATIONS_KEY), list) for h in hands)
    out = tmp_path / "stud8.phhs"
    assert main(["phh", "export", "--db", str(stud_journal), "-o", str(out)]) == 0
    text, count = stored_export(stud_journal)
    assert count == HANDS
    assert out.read_bytes() == text.encode("utf-8")

    db = copy_journal(stud_journal, tmp_path)
    victim = hands[5]

    def swap_cards(record: dict[str, Any]) -> None:
        cards = record["players"][0]["cards"]
        cards[0], cards[1] = cards[1], cards[0]  # the same two down cards, the other order

    tamper_record(db, victim.hand_id, swap_cards)
    capsys.readouterr()
    again = tmp_path / "tampered.phhs"
    assert main(["phh", "export", "--db", str(db), "-o", str(again)]) == 2
    err = capsys.readouterr().err
    seat = victim.record["players"][0]["seat"]
    assert err.startswith(
        f"dealer-assist phh: hand {victim.hand_id}: record.players[seat={seat}].cards[0]: stored "
    ), err
    assert not again.exists()


@pytest.mark.parametrize("path", sorted(CASES.glob("stud-*.json")), ids=lambda p: p.stem)
def test_stud_cases_round_trip_and_replay(path: Path) -> None:
    pk = pytest.importorskip("pokerkit")
    record = json.loads(path.read_text())["record"]
    settlement = settle_record(record)
    text = dumps_phh(record_to_phh(record, settlement))
    phh = loads_phh_text(text)["<text>"]
    again = phh_to_record(phh)
    assert settle_record(again) == settlement
    assert dumps_phh(record_to_phh(again, settlement)) == text
    # pokerkit replays them, but the bring-in that folds and the big bet of an open pair
    expected = {
        "stud-bring-in-fold-passes-on": RULE_DIFFERENCES[1],
        "stud-open-pair-on-fourth-allows-big-bet": RULE_DIFFERENCES[0],
    }
    assert classify(pk, phh, settlement) in (expected.get(path.stem, "same"), "odd chips")


@pytest.mark.parametrize(("seed", "form"), [(901, "d dh"), (1579, "d db")])
def test_community_card_as_pokerkit_deals_it(seed: int, form: str) -> None:
    """The deck runs short on seventh street (GAMES.md "Seven Card Stud" 5). With 8 players
    still in pokerkit turns a board card (``d db XX``); with fewer it would deal them hole cards
    (it counts the folded hands' cards as dealable), so the card goes to each player still in
    (``d dh pN XX # community card``). Both read back as the record's ``community``."""
    pk = pytest.importorskip("pokerkit")
    record = random_record(random.Random(seed), betting="fixed_limit", seats=8)
    settlement = settle_record(record)
    phh = loads_phh_text(dumps_phh(record_to_phh(record, settlement)))["<text>"]
    dealt = [a for a in phh["actions"] if record["community"] in a.split("#")[0].split()]
    assert dealt and all(a.startswith(form) for a in dealt)
    if form == "d dh":
        assert len(dealt) >= 2 and all(a.endswith("# community card") for a in dealt)
    again = phh_to_record(phh)
    assert again["community"] == record["community"]
    assert settle_record(again) == settlement
    assert classify(pk, phh, settlement) in AGREES


def test_all_in_before_seventh_street_shows_the_hands_before_the_run_out() -> None:
    """Seat 5 is all-in on third street and the others fold or stop betting on fourth: the
    remaining cards are dealt with no betting. pokerkit deals none of them until the hands are
    shown, and then wants the seventh (down) card shown too: ``sm`` with the cards so far,
    the run-out, ``sm`` with all seven; both read back as one showdown."""
    pk = pytest.importorskip("pokerkit")
    record = random_record(random.Random(39), betting="fixed_limit")
    settlement = settle_record(record)
    phh = loads_phh_text(dumps_phh(record_to_phh(record, settlement)))["<text>"]
    shows = [a for a in phh["actions"] if " sm " in a]
    assert [len(a.split()[2]) for a in shows] == [8, 8, 14, 14]  # 4 cards, then 7
    assert classify(pk, phh, settlement) == "same"
    again = phh_to_record(phh)
    assert settle_record(again) == settlement and "mucked" not in again
