"""Regenerate the console's Italian translation: ``python ui/i18n/update.py``.

Maintenance tool, not used at run time. It runs ``pyside6-lupdate`` over ``ui/console`` (new
texts are added to ``console_it.ts``, removed ones dropped), writes the Italian texts below into
the .ts, compiles ``console_it.qm`` with ``pyside6-lrelease`` and lists texts still untranslated
(exit status 1 then). Terms follow the Italian rule texts (Banco, Tris, Full, Colore, Scala,
"da destra verso sinistra").
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

IT = {
    "%1 is required": "%1 obbligatoria",
    "%1 of %2": "%1 di %2",
    "%1: %2 – %3": "%1: %2 – %3",
    "%1: maximum %2": "%1: massimo %2",
    "%1: minimum %2": "%1: minimo %2",
    "Acknowledged": "Confermato",
    "Acknowledged — wagers returned": "Confermo — puntate restituite",
    "All seats have decided": "Tutti i posti hanno deciso",
    "Ante": "Ante",
    "BOARD": "CARTE COMUNI",
    "Bet": "Punta",
    "Bets": "Puntate",
    "Bets open": "Puntate aperte",
    "Blind": "Blind",
    "Bonus": "Bonus",
    "Check": "Check",
    "Chip %1": "Fiche %1",
    "Clear box": "Azzera casella",
    "Clear seat": "Azzera posto",
    "Collect %1": "Ritira %1",
    "Confirm: void the hand": "Conferma: annulla la mano",
    "Connect the shuffler": "Collega la miscelatrice",
    "Connected · %1 · faults: %2": "Collegata · %1 · guasti: %2",
    "Connecting": "Collegamento",
    "Connecting…": "Collegamento in corso…",
    "DEALER": "BANCO",
    "Dealer console": "Console del dealer",
    "Dealer does not qualify — Ante pushes": "Banco non qualificato — Ante restituita",
    "Dealer qualifies": "Banco qualificato",
    "Dealer: %1": "Banco: %1",
    "Dealing": "Distribuzione",
    "Every wager is returned to the players. Nothing is paid or collected.": (
        "Tutte le puntate vengono restituite ai giocatori. Nulla viene pagato o ritirato."
    ),
    "Face-down card": "Carta coperta",
    "Flop": "Flop",
    "Flush": "Colore",
    "Fold": "Passa",
    "Folded": "Ha passato",
    "Four of a kind": "Poker",
    "From your right to your left. Pay or collect, then Next.": (
        "Da destra verso sinistra. Paga o ritira, poi Avanti."
    ),
    "Full house": "Full",
    "HAND VOID": "MANO ANNULLATA",
    "Hand %1": "Mano %1",
    "Hand over": "Mano conclusa",
    "Hand void": "Mano annullata",
    "High card": "Carta alta",
    "Loses": "Perde",
    "Net zero": "Saldo zero",
    "New hand": "Nuova mano",
    "Next": "Avanti",
    "No bet": "Nessuna puntata",
    "No bets on the table": "Nessuna puntata sul tavolo",
    "No card": "Nessuna carta",
    "No wagers.": "Nessuna puntata.",
    "Not connected: %1": "Non collegata: %1",
    "On the table: %1": "Sul tavolo: %1",
    "Pair": "Coppia",
    "Pay %1": "Paga %1",
    "Play": "Play",
    "Play %1x": "Play %1x",
    "Preflop": "Preflop",
    "Push": "Resta",
    "Repeat last bets": "Ripeti ultime puntate",
    "Reveal": "Scopertura",
    "Rien ne va plus": "Rien ne va plus",
    "River": "River",
    "Royal flush": "Scala reale",
    "Seat %1": "Posto %1",
    "Seat %1 — %2": "Posto %1 — %2",
    "Return %1": "Restituire %1",
    "Seats in order: %1": "Ordine dei posti: %1",
    "This hand was voided before the console restarted: its wagers are in the journal.": (
        "Questa mano è stata annullata prima del riavvio della console: le sue puntate sono "
        "nel registro."
    ),
    "Unreadable card: it must be identified by the dealer and a pit boss, which this console "
    "cannot do yet. Void the hand.": (
        "Carta illeggibile: va identificata dal dealer e da un capo tavolo, cosa che questa "
        "console non fa ancora. Annulla la mano."
    ),
    "Seat %1: %2": "Posto %1: %2",
    "Settle": "Pagamenti",
    "Settlement": "Pagamenti",
    "Show the dealer's hand, then settle seat by seat.": (
        "Mostra la mano del Banco, poi paga posto per posto."
    ),
    "Shuffler": "Miscelatrice",
    "Shuffler error: %1": "Errore della miscelatrice: %1",
    "Shuffler not connected": "Miscelatrice non collegata",
    "Start a new hand when the shuffler is ready.": (
        "Inizia una nuova mano quando la miscelatrice è pronta."
    ),
    "Straight": "Scala",
    "Straight flush": "Scala colore",
    "Tap a seat first": "Tocca prima un posto",
    "Tap a seat to enter its bets.": "Tocca un posto per inserire le sue puntate.",
    "Tap each seat's decision on the table.": "Tocca la decisione di ogni posto sul tavolo.",
    "Tap “Void hand” again to void the hand": "Tocca di nuovo “Annulla mano” per annullarla",
    "The shuffler is dealing. Bets are locked.": (
        "La miscelatrice sta distribuendo. Puntate bloccate."
    ),
    "The shuffler is not ready: clear the fault, then start a new hand": (
        "La miscelatrice non è pronta: risolvi il guasto, poi inizia una nuova mano"
    ),
    "Three of a kind": "Tris",
    "Tie": "Parità",
    "To act": "Da decidere",
    "Total returned: %1": "Totale restituito: %1",
    "Trips": "Trips",
    "Turn": "Turn",
    "Turn the dealer's cards": "Scopri le carte del Banco",
    "Turn the flop": "Scopri il Flop",
    "Turn the last two cards": "Scopri le ultime due carte",
    "Turn the river": "Scopri il River",
    "Turn the turn card": "Scopri il Turn",
    "Two pair": "Doppia coppia",
    "Void hand": "Annulla mano",
    "Wins": "Vince",
    "clubs": "fiori",
    "diamonds": "quadri",
    "hearts": "cuori",
    "spades": "picche",
    "last heartbeat %1 s ago": "ultimo battito %1 s fa",
    "no heartbeat yet": "nessun battito",
    "no link": "nessun collegamento",
    "reconnecting… attempt %1": "ricollegamento… tentativo %1",
    "none": "nessuno",
    "unknown device": "dispositivo sconosciuto",
}


def fill(ts: Path) -> list[str]:
    """Write the known translations into ``ts``; returns the source texts still missing."""
    tree = ET.parse(ts)
    missing = []
    for msg in tree.getroot().iter("message"):
        source = msg.findtext("source") or ""
        tr = msg.find("translation")
        if tr is None:
            continue
        if source in IT:
            tr.text = IT[source]
            tr.attrib.pop("type", None)
        elif tr.attrib.get("type") != "vanished" and not tr.text:
            missing.append(source)
    ET.indent(tree, "    ")
    body = ET.tostring(tree.getroot(), encoding="unicode")
    ts.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", "utf-8")
    return missing


def main() -> int:
    """lupdate, fill, lrelease; 1 when some text has no Italian yet."""
    here = Path(__file__).resolve().parent
    ts, qm = here / "console_it.ts", here / "console_it.qm"
    sources = sorted(str(p) for p in (here.parent / "console").rglob("*.py"))
    bindir = Path(sys.executable).parent
    lupdate = shutil.which("pyside6-lupdate", path=str(bindir)) or "pyside6-lupdate"
    lrelease = shutil.which("pyside6-lrelease", path=str(bindir)) or "pyside6-lrelease"
    subprocess.run(
        [lupdate, *sources, "-tr-function-alias", "tr+=trf", "-no-obsolete", "-ts", str(ts)],
        check=True,
    )
    left = fill(ts)
    subprocess.run([lrelease, str(ts), "-qm", str(qm)], check=True)
    for text in left:
        print(f"untranslated: {text}")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
