"""Regenerate the console's Italian translation: ``python ui/i18n/update.py``.

Maintenance tool, not used at run time. It runs ``pyside6-lupdate`` over every window in ``ui/``
and the game modules ``dealer_assist/games`` (their box, street and decision titles, marked with
``english()``, which lupdate takes for ``QT_TR_NOOP``; new texts are added to ``console_it.ts``,
removed ones dropped), writes the Italian texts below and those of ``ui/i18n/it_*.py`` (one file
per area: ``IT = {english: italian}``) into the .ts, compiles ``console_it.qm`` with
``pyside6-lrelease`` and lists texts still untranslated (exit status 1 then). Terms follow the
Italian rule texts (Banco, Tris, Full, Colore, Scala, "da destra verso sinistra").
"""

from __future__ import annotations

import runpy
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
    "Dealer console": "Console del croupier",
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
        "Il capo tavolo ha inserito una carta diversa: il croupier inserisce di nuovo la carta"
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
        "Da ora il croupier inserisce ogni carta con la tastiera."
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
        "Capo tavolo: inserisci la carta che vedi (quella del croupier non è mostrata)."
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
    # the poker-room console (Hold'em)
    "Resumed after a restart: the hand goes on": "Ripresa dopo un riavvio: la mano continua",
    "That card was already entered in this deal: check the card and enter it again": (
        "Questa carta è già stata inserita in questa mano: controlla la carta e inseriscila "
        "di nuovo"
    ),
    "Unknown badge or wrong PIN: the pit boss enters them again": (
        "Badge sconosciuto o PIN errato: il capo tavolo li inserisce di nuovo"
    ),
    "The pit boss's badge (and PIN) first, then the card": (
        "Prima il badge (e il PIN) del capo tavolo, poi la carta"
    ),
    "The pit boss saw another card: the dealer enters the card again": (
        "Il capo tavolo ha visto un'altra carta: il croupier inserisce di nuovo la carta"
    ),
    "Card source: %1": "Sorgente delle carte: %1",
    "Seat %1: %2 back": "Posto %1: %2 restituiti",
    "This hand was voided before the console restarted: its chips are in the journal.": (
        "Questa mano è stata annullata prima del riavvio della console: le sue fiche sono nel "
        "registro."
    ),
    "Small blind": "Small blind",
    "Big blind": "Big blind",
    "Between hands": "Tra una mano e l'altra",
    "Betting": "Puntate",
    "Showdown": "Showdown",
    "Pots awarded": "Piatti assegnati",
    "Call": "Chiama",
    "Raise": "Rilancia",
    "Show": "Mostra",
    "Muck": "Scarta",
    "Main pot": "Piatto principale",
    "Side pot %1": "Piatto laterale %1",
    "Uncontested": "Senza showdown",
    "Below the minimum: at least %1": "Sotto il minimo: almeno %1",
    "Above the maximum: at most %1 (all-in)": "Sopra il massimo: al più %1 (all-in)",
    "Amounts go in steps of %1 (or all-in %2)": "Importi a multipli di %1 (o all-in %2)",
    "Key the amount first (at least %1)": "Inserisci prima l'importo (almeno %1)",
    "No bet or raise is open now": "Ora non si può puntare né rilanciare",
    "That action is not open to this seat now": "Questa azione ora non è consentita a questo posto",
    "The buy-in must be between %1 and %2": "L'acquisto deve essere tra %1 e %2",
    "Top-up: at most %1 more (stack at most %2)": (
        "Ricarica: al più %1 in più (stack al massimo %2)"
    ),
    "Refused: %1": "Rifiutato: %1",
    "Empty": "Libero",
    "Sitting out": "Fuori gioco",
    "Mucked": "Scartata",
    "All-in": "All-in",
    "seats %1": "posti %1",
    "Minimum": "Minimo",
    "Undo": "Indietro",
    "Call %1": "Chiama %1",
    "%1 to %2": "%1 a %2",
    "Player name (optional)": "Nome del giocatore (facoltativo)",
    "Seat player": "Fai sedere",
    "Top up": "Ricarica",
    "Sit out": "Fuori gioco",
    "Sit in": "Rientra",
    "Leave": "Lascia il tavolo",
    "Button here": "Bottone qui",
    "Every chip each player put in goes back to them. Nothing is awarded.": (
        "Ogni fiche puntata torna al suo giocatore. Nessun piatto viene assegnato."
    ),
    "Acknowledged — chips returned": "Confermo — fiches restituite",
    "The cards are being dealt: no action before they are out.": (
        "Le carte sono in distribuzione: nessuna azione prima che siano uscite."
    ),
    "Cards to come: %1": "Carte da distribuire: %1",
    "Seat %1 to act": "Tocca al posto %1",
    "Tap the player's action. Bet and raise go to the keyed total.": (
        "Tocca l'azione del giocatore. Punta e rilancia arrivano al totale inserito."
    ),
    "To call: %1": "Per chiamare: %1",
    "%1: maximum %2 (all-in)": "%1: massimo %2 (all-in)",
    "Stack: %1": "Stack: %1",
    "Seat %1: Show or Muck": "Posto %1: mostra o scarta",
    "Order: %1": "Ordine: %1",
    "Seat %1: Show": "Posto %1: mostra",
    "Seat %1: Muck": "Posto %1: scarta",
    "Award the pots": "Assegna i piatti",
    "Side pots first, the main pot last.": "Prima i piatti laterali, per ultimo il principale.",
    "(odd chip)": "(fiche dispari)",
    "seat %1: %2": "posto %1: %2",
    "Returned to seat %1: %2": "Restituito al posto %1: %2",
    "Rake: %1": "Rake: %1",
    "Stacks after: %1": "Stack dopo la mano: %1",
    "Tap a seat to seat a player, top up, sit out or in, leave, or place the button.": (
        "Tocca un posto per far sedere un giocatore, ricaricare, uscire o rientrare, lasciare "
        "il tavolo o mettere il bottone."
    ),
    "Buy-in %1 – %2": "Acquisto %1 – %2",
    "Seat %1: empty": "Posto %1: libero",
    "Hand voided by the dealer": "Mano annullata dal croupier",  # one word for the dealer
    "Hand void: %1": "Mano annullata: %1",
    # the poker console (its own words: a poker room's dealer is no "Banco")
    "New hand needs two players with chips who are not sitting out": (
        "Per una nuova mano servono due giocatori con fiche e non fuori gioco"
    ),
    "Place the button first: tap a player's seat, then “Button here”": (
        "Prima il bottone: tocca il posto di un giocatore, poi “Bottone qui”"
    ),
    # the Seven Card Stud console (streets, bring-in, opening, the deck short)
    "3rd street": "Terza strada",
    "4th street": "Quarta strada",
    "5th street": "Quinta strada",
    "6th street": "Sesta strada",
    "7th street": "Settima strada",
    "Texas Hold'em": "Texas Hold'em",
    "Seven Card Stud": "Seven Card Stud",
    "Deck short": "Mazzo insufficiente",
    "Bring-in": "Bring-in",
    "Complete": "Completa",
    "Maximum": "Massimo",
    "two": "due",
    "twos": "due",
    "three": "tre",
    "threes": "tre",
    "four": "quattro",
    "fours": "quattro",
    "five": "cinque",
    "fives": "cinque",
    "six": "sei",
    "sixes": "sei",
    "seven": "sette",
    "sevens": "sette",
    "eight": "otto",
    "eights": "otto",
    "nine": "nove",
    "nines": "nove",
    "ten": "dieci",
    "tens": "dieci",
    "jack": "fante",
    "jacks": "fanti",
    "queen": "donna",
    "queens": "donne",
    "king": "re",
    "kings": "re",
    "ace": "asso",
    "aces": "assi",
    "pair of %1": "coppia di %1",
    "two pair, %1 and %2": "doppia coppia, %1 e %2",
    "three %1": "tris di %1",
    "four %1": "poker di %1",
    "%1 high": "carte alte %1",
    "Lowest door card: %1": "Carta scoperta più bassa: %1",
    "Highest board: %1": "Mano scoperta più alta: %1",
    "Stub %1 + burns %2 = %3 cards, %4 players need %5: shuffle the burns and turn one "
    "community card": (
        "Mazzo %1 + bruciate %2 = %3 carte, %4 giocatori ne chiedono %5: mescola le bruciate "
        "e scopri una carta comune (vela)"
    ),
    "Stub %1 + burns %2 = %3 cards, %4 players need %5: shuffle the burns with the stub and "
    "deal one card to each player": (
        "Mazzo %1 + bruciate %2 = %3 carte, %4 giocatori ne chiedono %5: mescola le bruciate "
        "con il mazzo e dai una carta a ogni giocatore"
    ),
    "Above the limit: at most %1": "Oltre il limite: al più %1",
    "Amounts go in steps of %1 up to %2": "Importi a multipli di %1 fino a %2",
    "Burns loaded: shuffle": "Bruciate caricate: mescola",
    "Shuffling the burns…": "Bruciate in miscelazione…",
    "Load the burns (with the stub) into the shuffler, then tap “Burns loaded: shuffle”.": (
        "Carica le bruciate (con il resto del mazzo) nella miscelatrice, poi tocca “Bruciate "
        "caricate: mescola”."
    ),
    "Seat %1: %2 or fold": "Posto %1: %2 o passa",
    "If the seat folds, the obligation passes to the next seat in line.": (
        "Se il posto passa, l'obbligo passa al posto successivo."
    ),
    "First: seat %1 · %2": "Primo: posto %1 · %2",
    "%1: seat %2": "%1: posto %2",
    "folded: seat %1": "ha passato: posto %1",
    "%1: %2 (fixed limit)": "%1: %2 (limite fisso)",
    "Tap a seat to seat a player, top up, sit out or in, or leave.": (
        "Tocca un posto per far sedere un giocatore, ricaricare, uscire o rientrare, o lasciare "
        "il tavolo."
    ),
}


# trf() translates like tr(); the games mark their English titles with english() (no Qt there).
ALIASES = "tr+=trf,QT_TR_NOOP+=english"


IT_CONTEXT = {
    ("poker", "DEALER"): "CROUPIER",  # as every other Italian text (not "mazziere")
    # the pit boss's statistics group by the dealer on the box, not the house's hand
    ("StatsTab", "Dealer"): "Croupier",
}
"""Texts whose Italian depends on the context (``QCoreApplication.translate(context, ...)``)."""


MORE: dict[str, str] = {}
"""Filled by :func:`main` from the ``it_*.py`` files."""


def _more_italian(here: Path) -> dict[str, str]:
    """The ``IT`` dicts of ``ui/i18n/it_*.py``: one file per area, so work on one window does
    not edit the texts of another."""
    more: dict[str, str] = {}
    for path in sorted(here.glob("it_*.py")):
        texts = runpy.run_path(str(path)).get("IT", {})
        clash = {k for k in texts if k in more or k in IT}
        if clash:
            raise SystemExit(f"{path.name}: texts already translated elsewhere: {sorted(clash)}")
        more.update(texts)
    return more


def fill(ts: Path) -> list[str]:
    """Write the known translations into ``ts``; returns the source texts still missing."""
    tree = ET.parse(ts)
    missing = []
    messages = [
        (ctx.findtext("name") or "", msg)
        for ctx in tree.getroot().iter("context")
        for msg in ctx.iter("message")
    ]
    for context, msg in messages:
        source = msg.findtext("source") or ""
        tr = msg.find("translation")
        if tr is None:
            continue
        text = IT_CONTEXT.get((context, source), IT.get(source, MORE.get(source)))
        if text is not None:
            tr.text = text
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
    # every window of ui/ (console, poker, pitboss, tournament...), not this folder
    sources = sorted(str(p) for p in here.parent.rglob("*.py") if p.parent != here)
    sources += sorted(str(p) for p in (here.parent.parent / "dealer_assist" / "games").glob("*.py"))
    bindir = Path(sys.executable).parent
    lupdate = shutil.which("pyside6-lupdate", path=str(bindir)) or "pyside6-lupdate"
    lrelease = shutil.which("pyside6-lrelease", path=str(bindir)) or "pyside6-lrelease"
    subprocess.run(
        [lupdate, *sources, "-tr-function-alias", ALIASES, "-no-obsolete", "-ts", str(ts)],
        check=True,
    )
    MORE.update(_more_italian(here))
    left = fill(ts)
    subprocess.run([lrelease, str(ts), "-qm", str(qm)], check=True)
    for text in left:
        print(f"untranslated: {text}")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
