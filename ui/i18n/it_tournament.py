"""Italian texts of the tournament screens (ui/tournament/): the room's clock, the director's
console, the dealer's level strip. Terms as rules text 002 uses them (livello, limite minore e
maggiore, ante, bring-in, rebuy, add-on, montepremi)."""

IT = {
    # the room's clock
    "Tournament clock": "Orologio del torneo",
    "Players left": "Giocatori in gara",
    "Average stack": "Stack medio",
    "Prize pool": "Montepremi",
    "Payouts": "Premi",
    "No journal at %1": "Nessun giornale in %1",
    "No tournament in this journal yet (%1)": "Ancora nessun torneo in questo giornale (%1)",
    "The journal cannot be read: %1": "Il giornale non si può leggere: %1",
    "TOURNAMENT OVER": "TORNEO CONCLUSO",
    "Thank you for playing": "Grazie per aver giocato",
    "LEVEL %1 · PAUSED": "LIVELLO %1 · OROLOGIO FERMO",
    "The clock is stopped": "L'orologio è fermo",
    "BREAK": "PAUSA",
    "Play resumes in": "Si riprende fra",
    "LEVEL %1": "LIVELLO %1",
    "The tournament has not started": "Il torneo non è ancora iniziato",
    "Time left in the level": "Tempo rimasto nel livello",
    "Time left in the level · or %1 hands": "Tempo rimasto nel livello · oppure %1 mani",
    "Hands left in the level": "Mani rimaste nel livello",
    "Last level: played to the end": "Ultimo livello: si gioca fino alla fine",
    "After the break: level %1": "Dopo la pausa: livello %1",
    "Next level %1: %2": "Prossimo livello %1: %2",
    "This is the last level": "Questo è l'ultimo livello",
    "Break in %1 (%2 minutes)": "Pausa fra %1 (%2 minuti)",
    "Break after level %1 (%2 minutes)": "Pausa dopo il livello %1 (%2 minuti)",
    "Places %1–%2: %3": "Posizioni %1–%2: %3",
    "WAITING FOR THE JOURNAL": "IN ATTESA DEL GIORNALE",
    "Fixed limit": "Limite fisso",
    "Pot limit": "Pot limit",
    "No limit": "No limit",
    "Limits %1 / %2": "Limiti %1 / %2",
    "Blinds %1 / %2": "Bui %1 / %2",
    "Ante %1": "Ante %1",
    "No ante": "Senza ante",
    "Bring-in %1": "Bring-in %1",
    "%1st": "%1°",
    # the director's console
    "Registered": "Iscritto",
    "Playing": "In gioco",
    "Moving": "In spostamento",
    "Out": "Eliminato",
    "Director's console": "Console del direttore",
    "Operator": "Operatore",
    "name or badge": "nome o badge",
    "Player's name": "Nome del giocatore",
    "Register": "Iscrivi",
    "Player": "Giocatore",
    "Table": "Tavolo",
    "Seat": "Posto",
    "Chips": "Fiches",
    "Paid": "Pagato",
    "Rebuys": "Rebuy",
    "Add-on": "Add-on",
    "Status": "Stato",
    "Draw the seats": "Sorteggia i posti",
    "Start the clock": "Avvia l'orologio",
    "Pause the clock": "Ferma l'orologio",
    "Resume the clock": "Riavvia l'orologio",
    "Rebuy": "Rebuy",
    "Undo bust": "Annulla eliminazione",
    "Name the operator, then register the players.": (
        "Indica l'operatore, poi iscrivi i giocatori."
    ),
    "Name the operator first: every step is journaled with who authorised it.": (
        "Indica prima l'operatore: ogni passo è registrato con chi l'ha autorizzato."
    ),
    "Select a player in the list first.": "Seleziona prima un giocatore nell'elenco.",
    "Wait: the previous step is still being journaled.": (
        "Attendi: il passo precedente è ancora in registrazione."
    ),
    "Type the player's name first.": "Scrivi prima il nome del giocatore.",
    "%1 registered: entry fee %2 (authorised by %3)": (
        "%1 iscritto: quota d'iscrizione %2 (autorizzato da %3)"
    ),
    "Seats drawn from the tournament's seed": "Posti sorteggiati dal seme del torneo",
    "The clock is running": "L'orologio è in moto",
    "Clock paused by %1": "Orologio fermato da %1",
    "Clock resumed by %1": "Orologio riavviato da %1",
    "Rebuy for %1 (authorised by %2)": "Rebuy per %1 (autorizzato da %2)",
    "Add-on for %1 (authorised by %2)": "Add-on per %1 (autorizzato da %2)",
    "Bust of %1 undone (authorised by %2)": "Eliminazione di %1 annullata (autorizzata da %2)",
    "Entry fee %1": "Quota d'iscrizione %1",
    "yes": "sì",
    "Level %1 · %2 · the clock has not started": "Livello %1 · %2 · l'orologio non è partito",
    "Break · %1 left": "Pausa · mancano %1",
    "Level %1 · %2 · %3 left": "Livello %1 · %2 · mancano %3",
    "%1 · PAUSED": "%1 · OROLOGIO FERMO",
    # the dealer's level strip
    "Time bank": "Riserva di tempo",
    "Level %1": "Livello %1",
    "Clock paused": "Orologio fermo",
    "Break: %1 left": "Pausa: mancano %1",
    "%1 left in the level": "fine livello fra %1",
    "Last minute of the level: %1": "Ultimo minuto del livello: %1",
    "LEVEL %1 · LAST MINUTE": "LIVELLO %1 · ULTIMO MINUTO",
    "%1 is back": "%1 è tornato",
    "Sitting out: %1": "In sit-out: %1",
    "%1 hands left in the level": "fine livello fra %1 mani",
    "Last level": "Ultimo livello",
    "%1: time is up (check if possible, else fold)": (
        "%1: tempo scaduto (check se possibile, altrimenti passa)"
    ),
    "%1: time bank %2": "%1: riserva di tempo %2",
    "%1: %2 · time bank %3": "%1: %2 · riserva %3",
    "Action clock %1 s · time bank %2 s": "Tempo per agire %1 s · riserva di tempo %2 s",
    # the director confirms a rebuy or add-on, and may take it back
    "Undo rebuy or add-on": "Annulla rebuy o add-on",
    "Confirm the rebuy for %1: %2 for %3 chips?": "Confermi il rebuy per %1: %2 per %3 fiches?",
    "Confirm the add-on for %1: %2 for %3 chips?": "Confermi l'add-on per %1: %2 per %3 fiches?",
    "Cancelled: nothing sold to %1": "Annullato: niente venduto a %1",
    "Rebuy of %1 taken back: %2 refunded, %3 chips off (authorised by %4)": (
        "Rebuy di %1 annullato: %2 restituiti, %3 fiches tolte (autorizzato da %4)"
    ),
    "Add-on of %1 taken back: %2 refunded, %3 chips off (authorised by %4)": (
        "Add-on di %1 annullato: %2 restituiti, %3 fiches tolte (autorizzato da %4)"
    ),
    "This hand: level %1, %2 · level %3 from the next hand": (
        "Questa mano: livello %1, %2 · livello %3 dalla prossima mano"
    ),
    "Winner: %1 · thank you for playing": "Vince %1 · grazie di aver giocato",
    # the table's notes between hands (ui/tournament/table_notes.py)
    "%1 has no chips: a rebuy is open (the director confirms it), else out": (
        "%1 è senza fiches: può fare un rebuy (lo conferma il direttore), altrimenti è eliminato"
    ),
    "%1 has no chips and no rebuy now: out": "%1 è senza fiches e non può fare rebuy: eliminato",
    "%1 is out: %2 place": "%1 è eliminato: %2 posto",
    "%1 is out": "%1 è eliminato",
    "Table %1 is broken: its players move": "Tavolo %1 chiuso: i suoi giocatori cambiano tavolo",
    "Table %1 is broken: its players come here": "Tavolo %1 chiuso: i suoi giocatori vengono qui",
    "%1 comes from table %2: seat %3": "%1 arriva dal tavolo %2: posto %3",
    "%1 moves to table %2, seat %3": "%1 passa al tavolo %2, posto %3",
}
