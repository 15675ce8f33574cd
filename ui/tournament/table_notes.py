"""What a tournament table's console tells its dealer about the tournament's changes at the
table between hands (the level strip's notes line): a player left with no chips, asked to rebuy
while the structure allows it, else out with their place (rules text 002: a rebuy while the
rules allow it; the ranking by the order of elimination); the players a table break or the
balancing brings here or takes away, with their new table and seat (GAMES.md "Tournaments":
tables broken and balanced as players go out). Computed from the tournament's snapshot, Qt's
translations aside: the notes of the last break between hands, until the next hand settles.
"""

from __future__ import annotations

from ui.kit.translate import trf
from ui.tournament.board import Snapshot
from ui.tournament.texts import place_name


def short(table_id: str) -> str:
    """``ROOM-T2`` -> ``T2`` (the name the director's console and the dealers use)."""
    return table_id.rsplit("-", 1)[-1]


def table_notes(snap: Snapshot, table_id: str) -> list[str]:
    """The notes for table ``table_id`` now (module doc), most pressing first: the players
    with no chips, the eliminations and the moves since the last settled hand."""
    notes = []
    for name, table, may in snap.busted:
        if table != table_id:
            continue
        if may:
            notes.append(
                trf("%1 has no chips: a rebuy is open (the director confirms it), else out", name)
            )
        else:
            notes.append(trf("%1 has no chips and no rebuy now: out", name))
    for name, table, place, at in snap.eliminated:
        if table == table_id and at == snap.hands:
            notes.append(
                trf("%1 is out: %2 place", name, place_name(place))
                if place
                else trf("%1 is out", name)
            )
    moves = [m for m in snap.moves if m[0] == snap.hands and table_id in (m[2], m[3])]
    broken = {src for _at, _n, src, _dst, _s in moves if src and src not in snap.live_tables}
    for src in sorted(broken):
        if src == table_id:
            notes.append(trf("Table %1 is broken: its players move", short(src)))
        else:
            notes.append(trf("Table %1 is broken: its players come here", short(src)))
    for _at, name, src, dst, seat in moves:
        if dst == table_id:
            notes.append(trf("%1 comes from table %2: seat %3", name, short(src), seat))
        else:
            notes.append(trf("%1 moves to table %2, seat %3", name, short(dst), seat))
    return notes
