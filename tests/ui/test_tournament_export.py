"""The results table exported (ui/tournament_export.py): CSV read back with the csv module, a PDF
made by reportlab holding the names and amounts, both written whole or not at all."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from dealer_assist.tournament.money import Ledger, register
from dealer_assist.tournament.prizes import payouts, prize_pool, special_prizes_won
from dealer_assist.tournament.ranking import Bust, Eliminations
from dealer_assist.tournament.results import ResultsTable, results_table
from dealer_assist.tournament.structure import shipped_structures
from dealer_assist.tournament.structure_reader import load_structure
from ui.export_files import ExportError
from ui.tournament_export import write_csv, write_pdf

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]


def table() -> ResultsTable:
    s = load_structure(shipped_structures()["stud_freezeout"])
    ledger = Ledger.empty()
    for n in NAMES:
        ledger = ledger.apply(register(s, ledger, n, authorised_by="dir"), s)
    e = Eliminations().bust(Bust("Franco", "h1", 100))
    e = e.bust(Bust("Dario", "h2", 800)).bust(Bust("Elena", "h2", 800))  # share 4th
    e = e.bust(Bust("Carla", "h3", 1)).bust(Bust("Bruno", "h4", 1))
    ranking = e.ranking(NAMES)
    pool = prize_pool(s, ledger.fees_cents)
    specials = special_prizes_won(s, "T1-42", {"Carla": "royal_flush"})
    return results_table(s, ledger, ranking, payouts(s, ranking, pool), pool, specials)


def test_csv(tmp_path: Path) -> None:
    path = write_csv(table(), tmp_path / "results.csv")
    with path.open(encoding="utf-8", newline="") as f:
        got = list(csv.reader(f))
    assert got[0] == ["Place", "Player", "Prize", "Special prizes", "Paid", "Rebuys", "Add-on"]
    assert got[1] == ["1", "Anna", "150.00", "0.00", "50.00", "0", ""]
    assert got[3] == ["3", "Carla", "60.00", "100.00", "50.00", "0", ""]
    assert [r[0] for r in got[4:6]] == ["=4", "=4"]
    assert sum(int(r[2].replace(".", "")) for r in got[1:]) == 30_000
    it = write_csv(table(), tmp_path / "risultati.csv", language="it")
    assert it.read_text(encoding="utf-8").startswith("Posizione,Giocatore,Premio")
    assert not list(tmp_path.glob(".*part"))


def test_pdf(tmp_path: Path) -> None:
    path = write_pdf(table(), tmp_path / "results.pdf", compress=False)
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    for text in (
        b"Seven Card Stud Freezeout",
        b"Anna",
        b"150.00",
        b"Prize pool: EUR 300.00",
        b"Carla: royal flush \\(T1-42\\), EUR 100.00",
    ):
        assert text in data, text
    it = write_pdf(table(), tmp_path / "risultati.pdf", language="it", compress=False).read_bytes()
    assert b"Montepremi: EUR 300.00" in it and b"Carla: scala reale \\(T1-42\\)" in it
    small = write_pdf(table(), tmp_path / "small.pdf")
    assert small.stat().st_size < len(data)
    assert small.read_bytes().startswith(b"%PDF-")


def test_nothing_half_written(tmp_path: Path) -> None:
    target = tmp_path / "results.csv"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(ExportError, match="language"):
        write_csv(table(), target, language="fr")
    assert target.read_text(encoding="utf-8") == "old"
    with pytest.raises(ExportError, match="cannot write"):
        write_pdf(table(), tmp_path / "missing" / "results.pdf")
    assert list(tmp_path.iterdir()) == [target]
