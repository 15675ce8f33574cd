"""Italian of the storage-fault sentences (ui/kit/storage_notice.py)."""

_PAIRS = [
    (
        "The journal's disk is full: the hand stays pending. Free space, then resume the table.",
        "Il disco del giornale è pieno: la mano resta in sospeso. "
        "Liberare spazio, poi riprendere il tavolo.",
    ),
    (
        "The journal is locked by another program: the hand stays pending. "
        "Close that program, then resume the table.",
        "Il giornale è bloccato da un altro programma: la mano resta in sospeso. "
        "Chiudere quel programma, poi riprendere il tavolo.",
    ),
    (
        "The connection to the journal's database is lost: the hand stays pending. "
        "Check the database server, then resume the table.",
        "Il collegamento con il database del giornale è perso: la mano resta in sospeso. "
        "Controllare il server del database, poi riprendere il tavolo.",
    ),
    (
        "The journal cannot be written: the hand stays pending. Call the floor supervisor.",
        "Il giornale non può essere scritto: la mano resta in sospeso. Chiamare il capo sala.",
    ),
    (
        "No new hand: the journal's disk has only %1 MiB free (at least %2 MiB are needed).",
        "Nessuna nuova mano: il disco del giornale ha solo %1 MiB liberi "
        "(ne servono almeno %2 MiB).",
    ),
    (
        "The journal's disk has only %1 MiB free: free space soon (below %2 MiB no new hand).",
        "Il disco del giornale ha solo %1 MiB liberi: liberare spazio presto "
        "(sotto %2 MiB nessuna nuova mano).",
    ),
    (
        "The journal answers again: play goes on.",
        "Il giornale risponde di nuovo: il gioco continua.",
    ),
]

IT = dict(_PAIRS)
