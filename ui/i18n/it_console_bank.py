"""Italian of the banked console's corrections on the record, the totals of the hand and the
pit boss's list of corrections."""

IT = {
    "No pit boss list at this table: a correction needs a badge and PIN": (
        "Nessun elenco di pit boss a questo tavolo: una correzione richiede badge e PIN"
    ),
    "Corrections and undos": "Correzioni e annullamenti",
    "No dealer logged in": "Nessun croupier registrato",
    "Undo the last chip of seat %1": "Annulla l'ultima fiche del posto %1",
    "Seat %1: last chip taken back from %2": "Posto %1: ultima fiche tolta da %2",
    "To pay %1 · To collect %2": "Da pagare %1 · Da ritirare %2",
}
