"""``phh export`` of a journal of the previous release (no operations kept: each hand's are
derived from its record, tests/fixtures/data/release_5768190/): the fold gives what is stored and
the file is what the stored records give; a record changed after its hand folds to another
settlement than the one paid and is refused, naming the hand. The journals of this release:
tests/cli/test_phh_journal.py (Hold'em), test_phh_stud.py (Stud)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_assist.ports import OPERATIONS_KEY
from tests.fixtures.phh_export import copy_journal, settled, stored_export, tamper_record
from ui.cli import main

RELEASE = Path(__file__).parent.parent / "fixtures" / "data" / "release_5768190" / "journal.db"


def test_a_journal_of_the_previous_release_exports_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hands = settled(RELEASE, "holdem") + settled(RELEASE, "stud")
    assert hands and all(OPERATIONS_KEY not in h.extra for h in hands)
    out = tmp_path / "release.phhs"
    assert main(["phh", "export", "--db", str(RELEASE), "-o", str(out)]) == 0
    text, count = stored_export(RELEASE)
    assert count == len(hands) and f"{count} hands exported" in capsys.readouterr().err
    assert out.read_bytes() == text.encode("utf-8")


@pytest.mark.parametrize("game", ["holdem", "stud"])
def test_a_changed_record_of_the_previous_release_is_refused(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = copy_journal(RELEASE, tmp_path)
    victim = settled(db, game)[1]

    def more_chips(record: dict[str, Any]) -> None:
        for player in record["players"]:
            player["stack"] += 1000

    tamper_record(db, victim.hand_id, more_chips)
    capsys.readouterr()
    out = tmp_path / "release.phhs"
    assert main(["phh", "export", "--db", str(db), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    # the record's own operations fold to other stacks than the settlement stored
    assert err.startswith(f"dealer-assist phh: hand {victim.hand_id}: seats[seat="), err
    assert "the fold of its operations gives" in err and err.count("\n") == 1
    assert not out.exists()
