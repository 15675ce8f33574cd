"""``dealer-assist simulate --game stud`` over the pty emulator: eight players
who keep calling reach seventh street and run the deck short, so the dealer puts the burns back
into the emulator's shoe and a community card (or, with a player gone, the burns reshuffled with
the stub) comes from a new deck of only those cards; every hand journaled, the chain verifies,
every record settles again to its stored settlement, chips conserved hand by hand, no button
ever drawn, the same summary for the same seed; and the simulated seat's bring-in decision."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import FULL_DECK
from dealer_assist.engine.state import ActionSpace, AmountRange
from dealer_assist.games import get_pot_game
from dealer_assist.ports import StoredHand
from dealer_assist.storage.journal import Journal
from ui.cli import main
from ui.commands.simulate_poker import FORCED_FOLD_RATE, SimulatedSeat

GAME = "stud"


def simulate(capsys: pytest.CaptureFixture[str], db: Path, *more: str) -> tuple[int, str]:
    """The command in this process; its exit status and stdout."""
    status = main(["simulate", "--game", GAME, "--db", str(db), "--no-progress", *more])
    return status, capsys.readouterr().out


def entries(db: Path) -> list[StoredHand]:
    with Journal(str(db), create=False) as journal:
        assert journal.verify().ok
        return list(journal.iter_hands())


def stacks(session: dict[str, Any] | None) -> dict[int, int]:
    return {int(s): p["stack"] for s, p in (session or {}).get("seats", {}).items()}


def check_chips(all_entries: list[StoredHand]) -> int:
    """The test's own chip walk (not the command's ledger): every hand starts from the session
    the entry before it left, settles again to its stored settlement from its record, and the
    stacks before + buy-ins - cash-outs = the stacks after + rake. Returns the hands."""
    game = get_pot_game(GAME)
    before: dict[int, int] = {}
    last_total = brought = hands = 0
    for e in all_entries:
        after = stacks(e.extra["session"])
        if e.status == "table":
            kind, amount = e.record["kind"], e.record.get("amount", 0)
            brought += amount if kind in ("buy_in", "top_up") else -amount if kind == "leave" else 0
            before = after
            continue
        hands += 1
        settlement = e.settlement or {}
        rake = settlement["rake"] if e.status == "settled" else 0
        assert last_total + brought == sum(after.values()) + rake, e.hand_id
        for p in e.record["players"]:
            assert before[p["seat"]] == p["stack"], (e.hand_id, p)
        if e.status == "settled":
            assert game.settle(e.record) == e.settlement, e.hand_id
            for s in settlement["seats"]:
                assert after[s["seat"]] == s["stack"], (e.hand_id, s)
        else:
            assert after == before, e.hand_id  # a void hand moves no chip
        last_total, brought, before = sum(after.values()), 0, after
    return hands


def counted(line: str, out: str) -> int:
    found = re.search(line, out)
    assert found, f"{line!r} not in:\n{out}"
    return int(found.group(1))


def decks(entry: StoredHand) -> list[str]:
    """The deck ids the hand's cards came from, in the order they were first used."""
    return list(dict.fromkeys(c["deck_id"] for c in entry.extra["cards"]))


def check_new_deck(entry: StoredHand) -> None:
    """A street dealt from a second deck: that deck held only the first deck's burns and its
    stub (never a card a player was dealt, folded ones included), and its cards went to the
    seventh street only (one community card, or one down card to each player still in)."""
    first, second = decks(entry)
    cards = entry.extra["cards"]
    gone = {
        c["card"] for c in cards if c["deck_id"] == first and not c["position"].startswith("burn")
    }
    new = [c for c in cards if c["deck_id"] == second]
    allowed = {str(c) for c in FULL_DECK} - gone
    assert new and all(c["card"] in allowed for c in new), entry.hand_id
    community = entry.record.get("community")
    if community:
        assert [c["position"] for c in new] == ["board 1"] and new[0]["card"] == community
        holders = [p for p in entry.record["players"] if community in (p.get("cards") or [])]
        assert not holders, entry.hand_id  # the shared card is nobody's own
    else:
        assert all(
            c["position"].startswith("seat") and c["position"].endswith("card 7") for c in new
        ), entry.hand_id


def bring_in_folds(entry: StoredHand) -> int:
    """Folds before the bring-in is posted: the hand's first actions, all folds."""
    actions = entry.record["actions"]
    return len(list(itertools.takewhile(lambda a: a["action"] == "fold", actions)))


def test_eight_players_to_seventh_street_share_community_cards_and_conserve_chips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "j.db"
    status, out = simulate(
        capsys, db, "--hands", "30", "--players", "8", "--stay-in", "0.9", "--seed", "3"
    )
    assert status == 0, out
    journal = entries(db)
    hands = [e for e in journal if e.status != "table"]
    assert len(hands) == 30 and len({h.hand_uid for h in hands}) == 30
    assert check_chips(journal) == 30
    assert "chips conserved: yes, every hand (30 checked)" in out
    changes = Counter(e.record["kind"] for e in journal if e.status == "table")
    assert changes["buy_in"] >= 8 and "button" not in changes  # a stud table has no button
    # eight dealt in and everyone still there on seventh street: one community card
    short = [h for h in hands if len(decks(h)) > 1]
    community = [h for h in short if h.record.get("community")]
    assert len(community) >= 3
    for h in community:
        assert len(h.record["players"]) == 8 and h.status == "settled"
    for h in short:
        check_new_deck(h)
    # a hand that never ran short was dealt from one deck with no community card
    assert all("community" not in h.record for h in hands if len(decks(h)) == 1)
    assert counted(r"shortage: (\d+) community card", out) == len(community)
    assert counted(r"community card, (\d+) reshuffle", out) == len(short) - len(community)
    assert counted(r"bring-in folds: (\d+)", out) == sum(bring_in_folds(h) for h in hands)
    # the bring-in seat posted (or folded) first on every hand
    for h in hands:
        rest = h.record["actions"][bring_in_folds(h) :]
        assert not rest or rest[0]["action"] == "bring_in", h.hand_id
    # every hand dealt through the device: its cards and their device events are journaled
    for h in hands:
        assert h.events and h.extra["cards"], h.hand_id


def test_the_same_seed_gives_the_same_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def summary(name: str, seed: str) -> list[str]:
        status, out = simulate(
            capsys,
            tmp_path / name,
            "--hands",
            "10",
            "--players",
            "8",
            "--stay-in",
            "0.9",
            "--seed",
            seed,
        )
        assert status == 0, out
        # the journal's path and the link's frame counters are not the table's results
        return [
            x for x in out.splitlines() if not x.startswith(("table ", "verify with", "frames:"))
        ]

    first = summary("a.db", "7")
    assert first == summary("b.db", "7")
    assert first != summary("c.db", "8")
    assert any(x.startswith("shortage: ") for x in first)


@pytest.mark.parametrize("bad", ["1.5", "-0.1"])
def test_a_stay_in_that_is_no_probability_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    status = main(
        [
            "simulate",
            "--game",
            GAME,
            "--db",
            str(tmp_path / "j.db"),
            "--no-progress",
            "--hands",
            "1",
            f"--stay-in={bad}",
        ]
    )
    assert status == 2
    assert "--stay-in must be a probability 0..1" in capsys.readouterr().err
    assert not (tmp_path / "j.db").exists()


def _seat(seed: int, stay_in: float) -> SimulatedSeat:
    rng = random.Random(seed)
    return SimulatedSeat(get_pot_game(GAME).simulated_player("tight", rng), rng, stay_in)


def test_the_simulated_seat_posts_or_folds_the_bring_in() -> None:
    space = ActionSpace(3, ("bring_in", "fold"))
    cards = {"hole": [], "board": [], "pot": 200, "to_call": 0}
    seat = _seat(1, 0.0)
    choices = Counter(seat.choose(space, **cards) for _ in range(4000))  # type: ignore[arg-type]
    assert set(choices) == {("bring_in", None), ("fold", None)}
    share = choices[("fold", None)] / 4000
    assert abs(share - FORCED_FOLD_RATE) < 0.03
    stayer = _seat(1, 1.0)
    assert {stayer.choose(space, **cards) for _ in range(500)} == {("bring_in", None)}  # type: ignore[arg-type]


def test_the_simulated_seat_chooses_a_legal_action_with_every_card_of_its_own() -> None:
    # third street after the bring-in: call it, fold, or complete to the small limit
    space = ActionSpace(2, ("fold", "call", "complete"), amount=AmountRange(200, 200, 25))
    deck = list(FULL_DECK)
    seen: Counter[str] = Counter()
    for seed in range(300):
        rng = random.Random(seed)
        rng.shuffle(deck)
        seat = _seat(seed, 0.0)
        kind, to = seat.choose(space, hole=deck[:3], board=[], pot=250, to_call=25)
        assert kind in space.kinds
        assert (to == 200) if kind == "complete" else to is None
        seen[kind] += 1
    # a rough strength from the two down cards and the door card: a spread of decisions,
    # not the fold every time that a hand of three "hole" cards would get
    assert seen["complete"] and seen["call"] and seen["fold"]
    stayer = _seat(5, 1.0)
    for _ in range(200):
        kind, _to = stayer.choose(space, hole=deck[:6], board=deck[6:7], pot=900, to_call=400)
        assert kind != "fold"
