"""The table a tournament assigns to a dealer's console (``dealer-assist console --tournament ID
--db JOURNAL [--tournament-table T1]``): no cash table file to edit. The tournament's journal
says the game (its structure), the tables the director made and their seats; the console's
table is the game's shipped table made the tournament's (:func:`tournament_table_config`:
its id, seats, amounts in chips, the level's game set each hand).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from dealer_assist.config import TableConfig, load_table_config
from dealer_assist.errors import ConfigError, DealerAssistError
from dealer_assist.storage.journal import Journal
from dealer_assist.tournament.live_table import (
    find_tournament,
    table_name,
    tournament_table_config,
)
from dealer_assist.tournament.state import TournamentState


def assigned_table(
    url: str, tournament_id: str | None, table: str | None, base: TableConfig | None = None
) -> tuple[TableConfig, str]:
    """The console's table of tournament ``tournament_id`` (None: the last opened in the
    journal) in journal ``url``: ``table`` (``T2`` or ``ROOM-T2``; None: the tournament's
    first table). ``base``: a table file's settings to keep (its sources, language, sign-off
    tiers), else the game's shipped table. Returns the config and the tournament's id.

    Raises:
        ConfigError: no journal, no such tournament, a table the tournament does not have
            (the sentence names the tables it has).
    """
    if "://" not in url and not Path(url).exists():
        raise ConfigError(
            f"--db {url}: no such journal (the tournament's, made by "
            "'dealer-assist tournament director')"
        )
    journal = Journal(url, read_only=True)
    try:
        journal.open()
        tid = tournament_id or find_tournament(journal)
        if tid is None:
            raise ConfigError(f"{url}: no tournament opened in this journal")
        state = TournamentState(tid)
        for stored in journal.iter_hands(1):
            state.take(stored)
    except DealerAssistError as e:
        if isinstance(e, ConfigError):
            raise
        raise ConfigError(f"{url}: cannot read the tournament's journal: {e}") from e
    finally:
        journal.close()
    structure = state.structure
    if structure is None:
        raise ConfigError(f"{url}: no tournament {tid} opened in this journal")
    wanted = table_name(tid, table) if table else state.tables[0]
    if wanted not in state.tables:
        raise ConfigError(
            f"--tournament-table {table}: tournament {tid} has the tables {', '.join(state.tables)}"
        )
    if base is None:
        base = load_table_config(None, game=structure.game)
    elif base.game != structure.game:
        raise ConfigError(
            f"--table: a {base.game} table, but tournament {tid} plays {structure.game}"
        )
    config = tournament_table_config(base, structure, wanted, url)
    return dataclasses.replace(config, journal_url=url), tid
