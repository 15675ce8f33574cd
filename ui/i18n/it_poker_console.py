"""Italian of the poker console's betting facts and amount keys (ui/poker/facts.py,
ui/poker/widgets/amount_keypad.py): why a bet or raise is not open, a short stack's only
all-in, the pot and half-pot keys, the numeric keypad."""

IT = {
    "No raise: the short all-in did not reopen the betting (call or fold)": (
        "Niente rilancio: l'all-in incompleto non riapre le puntate (chiama o passa)"
    ),
    "No raise: the betting is capped (fixed limit)": (
        "Niente rilancio: le puntate hanno raggiunto il limite (limite fisso)"
    ),
    "No bet or raise: every other player is all-in": (
        "Niente puntata né rilancio: tutti gli altri giocatori sono all-in"
    ),
    "No bet or raise: calling takes the whole stack": (
        "Niente puntata né rilancio: chiamare impegna tutto lo stack"
    ),
    "No bet or raise: %1": "Niente puntata né rilancio: %1",
    "%1: all-in %2 only": "%1: solo all-in %2",
    "½ Pot": "½ piatto",
    "Pot": "Piatto",
    "Delete the last digit": "Cancella l'ultima cifra",
    # the felt and the award (ui/poker/widgets/felt.py, ui/poker/awards.py)
    "Pot total: %1": "Piatto totale: %1",
    "Community card": "Carta comune",
    "Community cards": "Carte comuni",
    "straight, %1 high": "scala, carta alta %1",
    "flush, %1 high": "colore, carta alta %1",
    "%1 full of %2": "full di %1 e %2",
    "straight flush, %1 high": "scala colore, carta alta %1",
    "%1: %2": "%1: %2",
    "%1 (seat %2)": "%1 (posto %2)",
    "Returned to %1: %2": "Restituito a %1: %2",
    # a player at 0 chips (ui/poker/widgets/panel.py)
    "No chips": "Senza fiche",
    "No chips: top up (rebuy) or leave": "Senza fiche: ricarica (rebuy) o lascia il tavolo",
    "%1 has no chips: tap the seat, then Top up (rebuy) or Leave": (
        "%1 è senza fiche: tocca il posto, poi Ricarica (rebuy) o Lascia il tavolo"
    ),
}
