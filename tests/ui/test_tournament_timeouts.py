"""Time-outs enforced by the table (rules text 002, "Tempo per la giocata", "Sit-out"): when a
player's time is up the table itself checks their hand if it can, else folds it, and puts them
in sit-out (a journaled ``sat_out`` record); in sit-out they stay dealt in (antes posted) and the
table checks or folds for them as soon as the action reaches them, until the dealer taps that
they are back. The real poker service and presenter over the director's journal."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.storage.journal import Journal
from dealer_assist.tournament import records as ev
from tests.e2e.test_tournament_live_table import driver_for
from tests.ui.test_tournament_screens import Clock, desk_for, stud_break
from ui.tournament.timeouts import TimeOuts


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(str(tmp_path / "tournament.db"))
    j.open()
    yield j
    j.close()


def test_a_timed_out_player_is_checked_or_folded_and_sits_out_until_back(
    journal: Journal,
) -> None:
    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    d = driver_for(journal, desk, clock)
    records: list[tuple[str, dict[str, Any]]] = []
    t = TimeOuts(d.p, lambda event, fields: records.append((event, fields)), "ROOM-T1")
    rng = random.Random(1)
    try:
        d.new_hand()
        d.deal()
        d.decide(rng)  # the bring-in
        d.deal()
        legal = d.p.snap.legal
        assert legal is not None
        name = t.actor_name()
        assert name is not None
        can_check = "check" in legal.kinds
        t.timed_out(name)  # the strip found the action clock and the bank run out
        assert t.enforced == [(name, "check" if can_check else "fold")]
        assert records == [
            (ev.SAT_OUT, {"player": name, "back_at": 0, "why": "timed_out", "table": "ROOM-T1"})
        ]
        assert d.p.snap.legal is None or t.actor_name() != name  # the action moved on
        d.deal()
        while d.p.snap.in_hand:  # every later turn of theirs is the table's
            if t.tick() == "":
                assert t.actor_name() != name
                d.decide(rng)
            d.deal()
        # dealt in the next hand, their ante posted, folded when the action reaches them
        before = len(t.enforced)
        d.new_hand()
        d.deal()
        seat = next(s for s in d.p.snap.seats if s.name == name)
        assert seat.in_hand and seat.put_in >= 25
        while d.p.snap.in_hand:
            if t.tick() == "":
                d.decide(rng)
            d.deal()
        assert len(t.enforced) > before and all(p == name for p, _ in t.enforced)
        t.back(name)
        assert records[-1] == (ev.SAT_IN, {"player": name, "table": "ROOM-T1"})
        assert name not in t.out
    finally:
        d.close()
