"""Italian texts of the dealer's level strip about the time banks in the journal
(rules text 002, "riserva di tempo")."""

IT = {
    "Time banks not read back: %1": "Riserve di tempo non rilette: %1",
    "Time bank not journaled: %1": "Riserva di tempo non registrata: %1",
}
