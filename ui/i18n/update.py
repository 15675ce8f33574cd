"""Regenerate the console's Italian translation: ``python ui/i18n/update.py``.

Maintenance tool, not used at run time. It runs ``pyside6-lupdate`` over ``ui/console`` and the
game modules ``dealer_assist/games`` (their box, street and decision titles, marked with
``english()``, which lupdate takes for ``QT_TR_NOOP``; new texts are added to ``console_it.ts``,
removed ones dropped), writes the Italian texts below into
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
    "Seat %1: %2": "Posto %1: %2",
    "Settle": "Pagamenti",
    "Settlement": "Pagamenti",
    "Show the dealer's hand, then settle seat by seat.": (
        "Mostra la mano del Banco, poi paga posto per posto."
    ),
    "Shuffler": "Miscelatrice",
    "Shuffler error: %1": "Errore della miscelatrice: %1",
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
    # issues 4 and 5: card sources, manual entry, unreadable cards, exposed cards, readiness
    "Manual entry": "Inserimento manuale",
    "Unreadable card": "Carta illeggibile",
    "That card is already in this deck: look again and enter the right card": (
        "Questa carta è già uscita da questo mazzo: guarda di nuovo e inserisci quella giusta"
    ),
    "Pit boss not recognised: check the badge number and the PIN": (
        "Capo tavolo non riconosciuto: controlla numero di badge e PIN"
    ),
    "Pit boss: enter your badge number (and PIN) first": (
        "Capo tavolo: inserisci prima il numero di badge (e il PIN)"
    ),
    "The pit boss entered a different card: the dealer enters the card again": (
        "Il capo tavolo ha inserito una carta diversa: il dealer inserisce di nuovo la carta"
    ),
    "Exposed card recorded (%1). Play goes on.": (
        "Carta esposta registrata (%1). Il gioco continua."
    ),
    "Seat %1 — card %2": "Posto %1 — carta %2",
    "Dealer — card %1": "Banco — carta %1",
    "Board — card %1": "Carte comuni — carta %1",
    "Burn card %1": "Carta bruciata %1",
    "Dealer": "Banco",
    "Board": "Carte comuni",
    "Card source changed: %1 → %2.": "Sorgente delle carte cambiata: %1 → %2.",
    "Reason: %1": "Motivo: %1",
    "From now on the dealer types every card on the keypad.": (
        "Da ora il dealer inserisce ogni carta con la tastiera."
    ),
    "Link to the card source lost": "Collegamento con la sorgente delle carte perso",
    "next try in %1 s": "prossimo tentativo tra %1 s",
    "Another device answered: check the card source and restart the console": (
        "Ha risposto un altro dispositivo: controlla la sorgente delle carte e riavvia la console"
    ),
    "Fault %1: clear it on the device": "Guasto %1: risolvilo sul dispositivo",
    "Device state %1": "Stato del dispositivo %1",
    "Exposed cards recorded: %1": "Carte esposte registrate: %1",
    "Badge: %1": "Badge: %1",
    "PIN: %1": "PIN: %1",
    "Card %1 of %2": "Carta %1 di %2",
    "Enter each card as you deal it. Entered cards are not shown.": (
        "Inserisci ogni carta mentre la distribuisci. Le carte inserite non vengono mostrate."
    ),
    "The reader could not read this card: look at it and enter it.": (
        "Il lettore non ha potuto leggere questa carta: guardala e inseriscila."
    ),
    "Pit boss confirmation": "Conferma del capo tavolo",
    "Pit boss: enter the card you see (the dealer's is not shown).": (
        "Capo tavolo: inserisci la carta che vedi (quella del dealer non è mostrata)."
    ),
    "Pit boss: badge number and PIN, then Next.": "Capo tavolo: badge e PIN, poi Avanti.",
    "Pit boss: badge number, then Next.": "Capo tavolo: badge, poi Avanti.",
    "Card exposed by mistake": "Carta esposta per errore",
    "Exposed card": "Carta esposta",
    "Which card? (optional)": "Quale carta? (facoltativo)",
    "Cancel": "Annulla",
    "Record": "Registra",
    "Not a misdeal: the card stays valid and play goes on. Where is it?": (
        "Non è un errore di distribuzione: la carta resta valida e il gioco continua. Dov'è?"
    ),
    "Source: %1 · cards typed on the keypad": "Sorgente: %1 · carte inserite con la tastiera",
    "no card reader in use": "nessun lettore in uso",
    "Connected · %1 · %2 · faults: %3": "Collegata · %1 · %2 · guasti: %3",
    "Card source not connected": "Sorgente delle carte non collegata",
    "Clear": "Cancella",
    "Confirm": "Conferma",
    "This card is already on the table": "Questa carta è già sul tavolo",
    "DEVICE NOT READY": "DISPOSITIVO NON PRONTO",
    "the next hand waits until it clears": "la prossima mano attende che si risolva",
    "OK": "OK",
}


# trf() translates like tr(); the games mark their English titles with english() (no Qt there).
ALIASES = "tr+=trf,QT_TR_NOOP+=english"


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
    sources += sorted(str(p) for p in (here.parent.parent / "dealer_assist" / "games").glob("*.py"))
    bindir = Path(sys.executable).parent
    lupdate = shutil.which("pyside6-lupdate", path=str(bindir)) or "pyside6-lupdate"
    lrelease = shutil.which("pyside6-lrelease", path=str(bindir)) or "pyside6-lrelease"
    subprocess.run(
        [lupdate, *sources, "-tr-function-alias", ALIASES, "-no-obsolete", "-ts", str(ts)],
        check=True,
    )
    left = fill(ts)
    subprocess.run([lrelease, str(ts), "-qm", str(qm)], check=True)
    for text in left:
        print(f"untranslated: {text}")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
