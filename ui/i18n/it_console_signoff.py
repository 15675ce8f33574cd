"""Italian of the banked console's large-payout sign-off."""

IT = {
    "Seat %1: a large payout — a pit boss signs it off with badge and PIN first": (
        "Posto %1: vincita elevata — prima la convalida del capo tavolo con badge e PIN"
    ),
    "This badge may not sign off this payout: it needs a higher role": (
        "Questo badge non può convalidare questa vincita: serve un ruolo superiore"
    ),
    "No PIN list at this table: a large payout cannot be signed off here": (
        "Nessun elenco di PIN a questo tavolo: qui una vincita elevata non può essere convalidata"
    ),
}
