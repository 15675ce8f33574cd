"""Italian of the poker console's rule refusals (ui/poker/texts.py ``_REFUSALS``) and of its
storage bar (ui/poker/widgets/storage_bar.py)."""

IT = {
    # the betting round (dealer_assist/engine/betting.py RULES)
    "Seat %1 is not in the hand": "Il posto %1 non è nella mano",
    "Seat %1 has folded and cannot act": "Il posto %1 ha passato e non può agire",
    "Seat %1 is all-in and cannot act": "Il posto %1 è all-in e non può agire",
    "The betting round is closed: nobody is to act": (
        "Il giro di puntate è chiuso: nessuno deve agire"
    ),
    "Seat %1 acted out of turn: seat %2 is to act": (
        "Il posto %1 ha agito fuori turno: tocca al posto %2"
    ),
    "Seat %1 has nothing to call: check": "Il posto %1 non ha nulla da vedere: check",
    "Seat %1 cannot check: %2 to call": "Il posto %1 non può fare check: %2 da vedere",
    "Unknown action: %1": "Azione sconosciuta: %1",
    "There is no forced bet to complete: %1": "Non c'è una puntata obbligatoria da completare: %1",
    "There is a forced bet of %1: complete, not bet": (
        "C'è una puntata obbligatoria di %1: completare, non puntare"
    ),
    "There is a bet of %1 already: raise, not bet": (
        "C'è già una puntata di %1: rilanciare, non puntare"
    ),
    "There is no bet to raise: bet, not raise": (
        "Non c'è una puntata da rilanciare: puntare, non rilanciare"
    ),
    "%1: key the amount first": "%1: digitare prima l'importo",
    "%1 to %2: more than seat %3's stack of %4": "%1 a %2: più delle fiche del posto %3 (%4)",
    "%1 to %2: it does not raise the bet of %3": "%1 a %2: non supera la puntata di %3",
    "Seat %1 has no chips left to bet or raise after calling": (
        "Al posto %1 non restano fiche per puntare o rilanciare dopo aver visto"
    ),
    "Nobody can answer a bet or raise: every other player is all-in": (
        "Nessuno può rispondere a una puntata o a un rilancio: tutti gli altri sono all-in"
    ),
    "A short all-in does not reopen the betting for seat %1: call or fold": (
        "Un all-in incompleto non riapre le puntate per il posto %1: vedere o passare"
    ),
    "The betting is capped: a bet and %1 raises (fixed limit)": (
        "Le puntate sono al massimo: una puntata e %1 rilanci (limite fisso)"
    ),
    "%1 to %2: at fixed limit only to %3": "%1 a %2: a limite fisso solo a %3",
    "%1 to %2: at fixed limit only to %3 or %4": "%1 a %2: a limite fisso solo a %3 o %4",
    "%1 to %2: below the minimum, at least %3": "%1 a %2: sotto il minimo, almeno %3",
    "%1 to %2: above the pot, at most %3 (pot limit)": (
        "%1 a %2: sopra il piatto, al massimo %3 (pot limit)"
    ),
    "%1 to %2: not a multiple of the chip %3": "%1 a %2: non è un multiplo della fiche da %3",
    # the hand's other checks (dealer_assist/engine/peer_checks.py RULES)
    "This hand takes no such step": "Questa mano non prevede questo passo",
    "The hand is over: no more steps": "La mano è finita: nessun altro passo",
    "The hand is already open": "La mano è già aperta",
    "No forced bet is due now": "Nessuna puntata obbligatoria è dovuta ora",
    "Seat %1 posts the %2 of %3 now": "Ora il posto %1 mette %2 da %3",
    "No card is expected now": "Nessuna carta è attesa ora",
    "An unreadable card must be identified before it is placed": (
        "Una carta illeggibile va identificata prima di essere assegnata"
    ),
    "The new deck of the burns and the stub has not been shuffled yet": (
        "Il nuovo mazzo delle carte bruciate e del fondo non è ancora stato mescolato"
    ),
    "No new deck is due: the hand deals from its deck": (
        "Nessun nuovo mazzo è dovuto: la mano si distribuisce dal suo mazzo"
    ),
    "No exposed card can be recorded now": "Ora non si può registrare una carta esposta",
    "No betting now": "Ora non si punta",
    "The hand's betting is over: no more actions": (
        "Le puntate della mano sono finite: nessun'altra azione"
    ),
    "%1 is being dealt: no action before its cards": (
        "Si distribuisce %1: nessuna azione prima delle sue carte"
    ),
    "Seat %1 acted out of turn: seat %2 posts the forced bet of %3 or folds": (
        "Il posto %1 ha agito fuori turno: il posto %2 mette la puntata obbligatoria di %3 o passa"
    ),
    "Seat %1 posts the forced bet of %2 or folds": (
        "Il posto %1 mette la puntata obbligatoria di %2 o passa"
    ),
    "There is no action to undo": "Non c'è un'azione da annullare",
    "The last action is seat %1's, not seat %2's": (
        "L'ultima azione è del posto %1, non del posto %2"
    ),
    "A card was dealt after that action: it cannot be undone": (
        "Dopo quell'azione è stata distribuita una carta: non si può annullare"
    ),
    "There is no showdown now": "Ora non c'è uno showdown",
    "Seat %1 shows out of turn: seat %2 shows now": (
        "Il posto %1 mostra fuori turno: ora mostra il posto %2"
    ),
    "Seat %1 cannot muck: a player is all-in, every hand is turned up": (
        "Il posto %1 non può scartare: un giocatore è all-in, tutte le mani si scoprono"
    ),
    "Seat %1 cannot muck: its hand is the last one left for a pot": (
        "Il posto %1 non può scartare: la sua è l'ultima mano rimasta per un piatto"
    ),
    "No pot to award now": "Ora non c'è un piatto da assegnare",
    "The award of pot %1 does not match the showdown": (
        "L'assegnazione del piatto %1 non corrisponde allo showdown"
    ),
    "The pots are not all awarded yet": "I piatti non sono ancora tutti assegnati",
    "The hand cannot be voided now": "Ora la mano non può essere annullata",
    # the console's own (ui/poker/service.py RULES)
    "No card entered": "Nessuna carta inserita",
    "Acknowledge the void first": "Prima confermare l'annullamento",
    "A hand is in progress: finish it first": "Una mano è in corso: prima finirla",
    "No hand in progress to void": "Nessuna mano in corso da annullare",
    # the storage bar
    "Retry": "Riprova",
}
