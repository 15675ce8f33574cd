"""Italian of the banked console's corrections on the record, the totals of the hand and the
pit boss's list of corrections."""

IT = {
    "No pit boss list at this table: a correction needs a badge and PIN": (
        "Nessun elenco di pit boss a questo tavolo: una correzione richiede badge e PIN"
    ),
    "Corrections and undos": "Correzioni e annullamenti",
}
