"""Italian of the payout walk, the corrections and the hand history."""

IT = {
    "Back": "Indietro",
    "Re-enter the last card": "Reinserisci l'ultima carta",
    "The last card was dropped: enter it again": (
        "L'ultima carta è stata scartata: inseriscila di nuovo"
    ),
    "Hand resumed after a restart": "Mano ripresa dopo un riavvio",
    "Undo last chip": "Annulla l'ultima fiche",
    "Hand history": "Storico mani",
    "Close": "Chiudi",
    "Show hole cards (pit boss)": "Mostra le carte dei giocatori (pit boss)",
    "Tap “Confirm: void the hand” to void it. Any other tap cancels.": (
        "Tocca “Conferma: annulla la mano” per annullarla. Qualsiasi altro tocco rinuncia."
    ),
    "Not the card the reader read there: look again at the card": (
        "Non è la carta letta dal lettore in quella posizione: guarda di nuovo la carta"
    ),
    "Chips: %1": "Fiche: %1",
    "Cards read: %1": "Carte lette: %1",
    "Change": "Cambia",
    "Correct": "Correggi",
    "Correct seat %1 (pit boss)": "Correggi il posto %1 (pit boss)",
    "What did the player decide?": "Che cosa ha deciso il giocatore?",
    "Seat %1: change the decision": "Posto %1: cambia la decisione",
    "Hand %1 · %2": "Mano %1 · %2",
    "Void: %1": "Annullata: %1",
    "Board %1 · Dealer %2": "Carte comuni %1 · Banco %2",
    "Seat %1 returned": "Posto %1 restituito",
    "pay %1": "paga %1",
    "collect %1": "ritira %1",
    "push": "pari",
    "No hands yet": "Nessuna mano ancora",
    "Pit boss badge: %1": "Badge del pit boss: %1",
}
