"""Italian of the dealer on the box: the consoles' Dealer control and pad, the
pit-boss search's dealer field and shift picker. The person is the "croupier" (as the pit-boss
role, it_pitboss.py; "Banco" is the house's hand). Texts translated elsewhere are not repeated."""

IT = {
    # the consoles' Dealer control (ui/kit/dealer_box.py)
    "Dealer %1": "Croupier %1",
    "Dealer change": "Cambio croupier",
    "On the box now: %1": "Al tavolo ora: %1",
    "Nobody on the box yet": "Ancora nessun croupier al tavolo",
    "Incoming dealer: enter your badge": "Croupier entrante: inserisci il tuo badge",
    "Back to the table": "Torna al tavolo",
    "Take the box": "Prendi il tavolo",
    "A dealer changes between hands only: finish the hand first": (
        "Il croupier si cambia solo tra una mano e l'altra: prima finisci la mano"
    ),
    "Not a badge: 1 to %1 letters or digits": "Non è un badge: da 1 a %1 lettere o cifre",
    "Dealer %1 is on the box already": "Il croupier %1 è già al tavolo",
    "Badge %1 is not a dealer known to the pit boss's list": (
        "Il badge %1 non è di un croupier nell'elenco del capo tavolo"
    ),
    "Not recorded: the journal did not take it. Try again": (
        "Non registrato: il registro non l'ha accettato. Riprova"
    ),
    "Refused: the dealer change was not recorded": "Rifiutato: il cambio croupier non è registrato",
    # the pit-boss hand search (ui/pitboss/search_view.py, search_model.py)
    "Dealer badge": "Badge croupier",
    "badge, exact": "badge, esatto",
}
