"""Italian of the poker console's large-pot sign-off (ui/poker/widgets/
signoff_page.py, ui/poker/texts.py)."""

IT = {
    "Pot sign-off": "Convalida del piatto",
    "Large pot: sign-off": "Piatto elevato: convalida",
    "A %1 signs it off with badge and PIN: the pot is pushed after that": (
        "Un %1 lo convalida con badge e PIN: solo dopo il piatto viene assegnato"
    ),
    "This badge may not sign off this pot: a %1 must": (
        "Questo badge non può convalidare questo piatto: serve un %1"
    ),
    "No PIN list at this table: a large pot cannot be signed off here": (
        "Nessun elenco di PIN a questo tavolo: qui un piatto elevato non può essere convalidato"
    ),
    "→ seat %1: %2": "→ posto %1: %2",
    "pit boss": "capo tavolo",
    "shift manager": "responsabile di turno",
}
