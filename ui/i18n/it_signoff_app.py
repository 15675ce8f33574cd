"""Italian of the pit-boss application's sign-offs waiting (ui/pitboss/signoff_panel.py and the
window's answers). Texts translated elsewhere are not repeated."""

IT = {
    " and ": " e ",
    "%1 pot %2": "%1 piatto %2",
    "%1 seat %2": "%1 posto %2",
    "Already signed off at the table: %1, nothing changed": (
        "Già autorizzata al tavolo: %1, nulla è cambiato"
    ),
    "Amount": "Importo",
    "Cards as read": "Carte lette",
    "Confirm sign-off": "Autorizza la vincita",
    "Main pot, %1": "Piatto principale, %1",
    "Needs": "Richiede",
    "PIN not recognised: nothing confirmed": "PIN non riconosciuto: nulla autorizzato",
    "Pot %1 (side pot), %2": "Piatto %1 (piatto laterale), %2",
    "Requested (UTC)": "Richiesta (UTC)",
    "Sign-off confirmed: %1, the table pays": "Vincita autorizzata: %1, il tavolo paga",
    "Sign-offs waiting: %1": "Autorizzazioni in attesa: %1",
    "This payout needs a %1": "Questa vincita richiede un %1",
    "Your PIN again": "Di nuovo il tuo PIN",
    "Your role does not confirm sign-offs": "Il tuo ruolo non autorizza le vincite",
    "Your role may not confirm this sign-off: nothing confirmed": (
        "Il tuo ruolo non può autorizzare questa vincita: nulla autorizzato"
    ),
    "board": "carte comuni",
    "winners seat %1": "vincitore al posto %1",
    "winners seats %1": "vincitori ai posti %1",
}
