"""Italian of the banked console's refusal sentences (ui/console/texts.py ``_REFUSED``)."""

IT = {
    "That decision is not possible now: check the seat, then tap again": (
        "Decisione non possibile ora: controllare il posto, poi toccare di nuovo"
    ),
    "Not possible at this point of the hand: follow the next step shown": (
        "Non possibile a questo punto della mano: seguire il passo indicato"
    ),
    "That bet is refused: check it against the table limits": (
        "Puntata rifiutata: controllarla con i limiti del tavolo"
    ),
    "Refused: the table cannot do that now; call the pit boss if it happens again": (
        "Rifiutato: il tavolo non può farlo ora; chiamare il capo tavolo se si ripete"
    ),
}
