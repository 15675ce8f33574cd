"""The pit boss's figures, pure: statistics of hands over a time range and the variance alert
(docs/STATISTICS.md). Storage answers the queries
(:mod:`dealer_assist.storage.stats`, :mod:`dealer_assist.storage.floor.stats`)."""
