"""Italian of the pit-boss window's Statistics tab (ui/pitboss/stats_tab.py).
The shift report's own words (CSV/PDF, written without Qt) are in ui/pitboss/export.py."""

IT = {
    "Refresh": "Aggiorna",
    "Group": "Gruppo",
    "Games": "Giochi",
    "Hands": "Mani",
    "Hands/h": "Mani/ora",
    "Drop": "Drop",
    "Win": "Vincita",
    "Hold": "Hold",
    "Theoretical hold": "Hold teorico",
    "Hold % by day against the 95% band": "Hold % per giorno rispetto alla banda al 95%",
    "Hands per hour": "Mani per ora",
    "From": "Dal",
    "To": "Al",
    "By": "Per",
    "Pit": "Pit",
    "Shift": "Turno",
    "Game": "Gioco",
    "Computing…": "Calcolo in corso…",
    "%1 hands, %2 groups": "%1 mani, %2 gruppi",
    "No hold outside its 95% band.": "Nessun hold fuori dalla sua banda al 95%.",
    "Statistics": "Statistiche",
}
