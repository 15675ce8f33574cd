"""Tournaments (rules text 002; GAMES.md "Tournaments"): the pure domain core.

No Qt, no database, no I/O but reading a structure file; time is passed in, never read. The
director (journal, tables, ``dealer-assist tournament simulate``) is built on these modules.

API summary (kept in step with /tmp/t15/api.md while the director is being built):

``structure_reader``  ``load_structure(path) -> TournamentStructure`` (UTF-8, BOM accepted;
    every rule of text 002 checked, a refusal is ``StructureError(source, key, reason)`` naming
    the key path, e.g. ``levels[3].bring_in``); ``structure_from_dict(d)``.
``structure``  ``TournamentStructure``; ``s.to_dict()`` round-trips. Fields: name, game
    (stud|holdem), betting, chip, starting_stack, max_seats, min_players, entry_fee_cents,
    levels (``Level``: number, small, big, ante, bring_in, minutes, hands, action_seconds),
    breaks (``Break``: after_level, minutes), action_seconds,
    time_bank_seconds, time_bank (automatic|on_request), rebuy (``RebuyRule`` | None), addon
    (``AddOnRule`` | None), double_chance_level, prize_kind, percentages_bp, guarantee_cents,
    special_prizes, formula (single|heats), qualifiers, warnings; ``s.level(n)``,
    ``s.break_after(n)``, ``s.max_total_cents``. ``euros(cents)`` -> ``'EUR 25.00'``;
    ``shipped_structures() -> {name: path}``.
``money``  ``Purchase`` (kind entry|rebuy|addon|second_half, player, amount_cents, chips, level,
    authorised_by; to_json/from_json); ``Ledger.empty()`` / ``Ledger.fold(structure, records)``,
    ``ledger.apply(p)``, ``fees_cents``, ``chips_issued``, ``account(p)``, ``half_pending``.
    ``register``, ``rebuy``, ``addon``, ``second_half`` return the record to journal or raise
    ``PurchaseRefused`` (the EUR 250 cap at each purchase); ``due_second_halves``, ``is_out``,
    ``can_rebuy``.
``seating``  ``draw_seats(seed, players, max_seats) -> SeatDraw`` (deterministic, SHA-256).
``clock``  ``ClockState`` (frozen; to_json/from_json): ``start``, ``advance``, ``start_hand ->
    (state, Level)``, ``end_hand``, ``pause``, ``resume``, ``view -> ClockView``; each takes
    ``(structure, now)``; ``ClockError`` leaves the state unchanged.
``action_clock``  ``TimeBanks``, ``DecisionClock.begin/status/open_bank/finish ->
    DecisionOutcome``, ``timeout_action(can_check)``.
``sitout``  ``SitOuts``: sit out, back from the next hand, automatic actions.
``ranking``  ``EliminationRecord`` (bust/undo, to_json/from_json), ``Eliminations.fold``,
    ``bust``, ``undo``, ``ranking(entrants) -> (Placing(place, player, shared, in_play), ...)``
    (same-hand busts by start stack, equal stacks share the place); ``combine_heats``.
``prizes``  ``prize_pool``, ``place_amounts``, ``payouts`` (cents, rounded down, remainder to
    the best place, shared places split the sum of their prizes), ``categories_shown``,
    ``special_prizes_won -> (SpecialAward, ...)``.
``results``  ``results_table(...) -> ResultsTable`` (exports: ``ui/tournament_export.py``).
"""
