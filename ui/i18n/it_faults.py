"""Italian of the dealer's fault texts (5: ``ui/console/texts.py``, faults section):
each one says what happened and what to do, in the instruction form of the issue's own example
("cavo della miscelatrice scollegato: ricollegarlo")."""

IT = {
    "Another device or a forged message is on the shuffler's line: check that only the shuffler "
    "is connected to its cable, and call the technician": (
        "Sulla linea della miscelatrice c'è un altro dispositivo o un messaggio contraffatto: "
        "controllare che al cavo sia collegata solo la miscelatrice e chiamare il tecnico"
    ),
    "The shuffler's port is in use by another program: close that program, then connect the "
    "shuffler again": (
        "La porta della miscelatrice è usata da un altro programma: chiudere quel programma, poi "
        "ricollegare la miscelatrice"
    ),
    "This computer may not open the shuffler's port: call the technician": (
        "Questo computer non ha il permesso di aprire la porta della miscelatrice: chiamare il "
        "tecnico"
    ),
    "Shuffler not found: check that its cable is plugged in and it is switched on": (
        "Miscelatrice non trovata: controllare che il cavo sia collegato e che sia accesa"
    ),
    "Another shuffler answered: check which one is connected, then restart the console": (
        "Ha risposto un'altra miscelatrice: controllare quale è collegata, poi riavviare la console"
    ),
    "The shuffler restarted by itself: wait until it is ready": (
        "La miscelatrice si è riavviata da sola: attendere che sia pronta"
    ),
    "The shuffler does not answer: switch it off and on again": (
        "La miscelatrice non risponde: spegnerla e riaccenderla"
    ),
    "Cards keep going missing on the way from the shuffler: another program may be reading the "
    "shuffler's port. Close it, or call the technician": (
        "Continuano a mancare carte in arrivo dalla miscelatrice: un altro programma potrebbe "
        "leggere la porta della miscelatrice. Chiuderlo, o chiamare il tecnico"
    ),
    "Shuffler cable disconnected or shuffler switched off: plug the cable back in and switch it "
    "on": (
        "Cavo della miscelatrice scollegato o miscelatrice spenta: ricollegare il cavo e accenderla"
    ),
    "Shuffler cable disconnected or shuffler switched off: plug the cable back in and switch it "
    "on. If it keeps happening, another program may be reading the shuffler's port: close it": (
        "Cavo della miscelatrice scollegato o miscelatrice spenta: ricollegare il cavo e "
        "accenderla. Se succede ancora, un altro programma potrebbe leggere la porta della "
        "miscelatrice: chiuderlo"
    ),
    "Card source fault: call the technician (the details are in the log)": (
        "Guasto della sorgente delle carte: chiamare il tecnico (i dettagli sono nel registro)"
    ),
    "Cards jammed in the shuffler: clear the jam on the shuffler": (
        "Carte inceppate nella miscelatrice: sbloccarle sulla miscelatrice"
    ),
    "Shuffler door open: close it": "Sportello della miscelatrice aperto: chiuderlo",
    "A card is missing from the shuffler: find it and put it back": (
        "Manca una carta nella miscelatrice: trovarla e rimetterla"
    ),
    "An extra card in the shuffler: take it out": (
        "Una carta in più nella miscelatrice: toglierla"
    ),
    "The same card twice in the shuffler: check the deck": (
        "La stessa carta due volte nella miscelatrice: controllare il mazzo"
    ),
    "The shuffler misread a card: check the deck, then clear the fault on the shuffler": (
        "La miscelatrice ha letto male una carta: controllare il mazzo, poi risolvere il guasto "
        "sulla miscelatrice"
    ),
    "Shuffler elevator failure: call the technician": (
        "Guasto dell'elevatore della miscelatrice: chiamare il tecnico"
    ),
    "Shuffler power failure: check its power cable": (
        "Guasto dell'alimentazione della miscelatrice: controllarne il cavo di alimentazione"
    ),
    "Shuffler internal error: switch it off and on again; if it stays, call the technician": (
        "Errore interno della miscelatrice: spegnerla e riaccenderla; se resta, chiamare il tecnico"
    ),
    "A card left the shuffler after the hand was settled: take it off the table": (
        "Una carta è uscita dalla miscelatrice dopo la chiusura della mano: toglierla dal tavolo"
    ),
    "jam": "inceppo",
    "door open": "sportello aperto",
    "missing card": "carta mancante",
    "extra card": "carta in più",
    "duplicate card": "carta doppia",
    "misread": "lettura errata",
    "elevator": "elevatore",
    "power": "alimentazione",
    "internal": "errore interno",
    "late card": "carta in ritardo",
    "other shuffler": "altra miscelatrice",
    "Wait until the shuffler is ready, then start a new hand": (
        "Attendere che la miscelatrice sia pronta, poi iniziare una nuova mano"
    ),
    "Shuffler fault %1: see its display": "Guasto della miscelatrice %1: vedere il suo display",
    "The shuffler is in fault: clear it on the shuffler": (
        "La miscelatrice è in guasto: risolverlo sulla miscelatrice"
    ),
    "The shuffler is not ready (%1): wait until it is": (
        "La miscelatrice non è pronta (%1): attendere che lo sia"
    ),
}
