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
}
