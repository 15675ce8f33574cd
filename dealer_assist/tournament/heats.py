"""The heats formula (rules text 002, "Formule di gioco": a tournament of several partite; the
structure's ``formula = "heats"``, ``qualifiers = N``): every table of the seeded seat draw is a
heat, played as its own partita on its own table (no balancing between heats) until only its
``N`` qualifiers are left (:meth:`Eliminations.partita_over`); then the qualifiers are seated
for the final by a second seeded draw, and the final is played to a winner.

**The final's stacks and clock.** Rules text 002, "Inizio della partita": at the start of each
partita every player gets the same chips ("Ciascun giocatore inizia la partita con una
dotazione di chip uguale a quella degli altri giocatori") and the level is the one set at the
start ("L'importo (il livello) iniziale ... può aumentare progressivamente nel corso di una
partita"): so each finalist starts the final with the structure's ``starting_stack`` and the
final's clock starts at level 1. The chips a qualifier had in their heat are taken off their
table (a ``leave`` record: ``qualified``); the final's stacks are issued by the formula, not
bought (the chip check counts both).

**Who qualifies.** The heat's players whose place in the heat's ranking is at most ``N``: the
players left, and, when the heat's last hand put out several players at once, those of them
ranked within ``N`` (equal stacks sharing a place at the cut all go on).

**The ranking** (:func:`~dealer_assist.tournament.ranking.combine_heats`): the finalists by
their place in the final, then the players each heat eliminated by their place in their heat,
the same heat place in different heats a shared place; the prizes are paid by it.

Every step is journaled and idempotent (a restart does only what is missing): ``qualified``
(per qualifier), ``final_draw`` (the draw and the final's tables), ``final_seated`` (per
finalist), ``final_started`` (the final's clock).

:class:`HeatsFormula` is a collaborator held by
:class:`~dealer_assist.tournament.director.Director`, journaling through its recorder.
"""

from __future__ import annotations

from dealer_assist.errors import HandStateError
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.clock import ClockState
from dealer_assist.tournament.director_clock import LiveClock
from dealer_assist.tournament.draws import draw_number
from dealer_assist.tournament.ranking import Eliminations, Placing, combine_heats
from dealer_assist.tournament.recorder import TournamentRecorder
from dealer_assist.tournament.seating import draw_seats
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import TournamentStructure


def check_heats(structure: TournamentStructure, players: int) -> None:
    """Refuse what the heats formula cannot play.

    Raises:
        HandStateError: a single heat with one qualifier (no final to play), or Double Chance
            (its second half would be given in the heat and again by the final's fresh stack).
    """
    if structure.formula != "heats":
        return
    heats = -(-players // structure.max_seats)
    if heats * structure.qualifiers < 2:
        raise HandStateError(
            f'formula "heats" with {players} players: one heat with one '
            "qualifier leaves no final to play"
        )
    if structure.double_chance:
        raise HandStateError(
            'formula "heats" with Double Chance: not played (the final '
            "starts with a fresh starting stack)"
        )


def heats_of(state: TournamentState) -> dict[str, list[str]]:
    """Each heat's table and its players (the seat draw's, by seat)."""
    if state.draw is None:
        return {}
    return {state.tables[t - 1]: list(ps) for t, ps in sorted(state.draw.tables.items())}


def heat_ranking(busts: Eliminations, players: list[str]) -> tuple[Placing, ...]:
    """One heat's ranking from the heats' eliminations (``busts``, every heat's)."""
    mine = Eliminations(tuple(b for b in busts.busts if b.player in players))
    return mine.ranking(players)


class HeatsFormula:
    """The heats formula of tournament ``state`` (see the module doc).

    Args:
        state: the tournament's fold (read; written only through ``recorder``).
        recorder: journals the formula's records (``qualified``, ``final_draw``,
            ``final_seated``, ``final_started``).
        clock: the tournament's clock (the final's starts at its moment).
    """

    def __init__(
        self, state: TournamentState, recorder: TournamentRecorder, clock: LiveClock
    ) -> None:
        self.state = state
        self._recorder = recorder
        self._clock = clock

    @property
    def structure(self) -> TournamentStructure:
        """The tournament's structure. Raises HandStateError before open."""
        if self.state.structure is None:
            raise HandStateError("the tournament is not open yet")
        return self.state.structure

    @property
    def in_heats(self) -> bool:
        """The heats formula's heats are still being played (its final has not started)."""
        f = self.state.final
        return self.structure.formula == "heats" and not (f is not None and f.started)

    def _qualifiers(self, players: list[str]) -> list[str] | None:
        """A heat's qualifiers once its partita is over (None while it is played)."""
        st, q = self.state, self.structure.qualifiers
        if not st.eliminations.partita_over(players, q):
            return None
        return [p.player for p in heat_ranking(st.eliminations, players) if p.place <= q]

    def between_hands(self) -> None:
        """Between hands: each heat over sends its qualifiers off its table; all over, the
        final is drawn, its players seated with the starting stack and its clock started."""
        if not self.in_heats:
            return
        st, s = self.state, self.structure
        if st.final is None or st.final.draw is None:
            over = True
            for tid, players in heats_of(st).items():
                qualifiers = self._qualifiers(players)
                if qualifiers is None:
                    over = False
                    continue
                for name in qualifiers:
                    e = st.entrants[name]
                    if e.qualified:
                        continue
                    if e.table is not None:
                        self._recorder.table_change(
                            e.table, "leave", e.seat, event=ev.QUALIFIED, player=name, heat=tid
                        )
                    else:  # out in the heat's last hand, yet placed within the qualifiers
                        self._recorder.desk_record(ev.QUALIFIED, player=name, heat=tid)
            if not over:
                return
            finalists = [n for n in st.ledger.players if st.entrants[n].qualified]
            seed = int(draw_number(st.seed, "final") * 2**63)
            draw = draw_seats(seed, finalists, s.max_seats)
            tables = [f"{st.tournament_id}-F{i}" for i in range(1, len(draw.tables) + 1)]
            self._recorder.desk_record(ev.FINAL_DRAW, draw=draw.to_json(), tables=tables)
        f = st.final
        if f is None or f.draw is None:
            raise HandStateError("the final's draw is not in the journal")
        for name, (t, seat) in sorted(f.draw.seats.items(), key=lambda kv: kv[1]):
            if st.entrants[name].table is None:
                self._recorder.table_change(
                    f.tables[t - 1],
                    "seat_player",
                    seat,
                    name,
                    s.starting_stack,
                    event=ev.FINAL_SEATED,
                    player=name,
                )
        self._recorder.desk_record(ev.FINAL_STARTED, ClockState().start(s, self._clock.now()))

    def ranking(self) -> tuple[Placing, ...]:
        """The tournament's ranking: under heats once the final is drawn, the final's then the
        heats' (:func:`combine_heats`); otherwise the one partita's."""
        st = self.state
        players = list(st.ledger.players)
        f = st.final
        if self.structure.formula != "heats" or f is None or f.draw is None:
            return st.eliminations.ranking(players)
        finalists = [n for n in players if n in f.draw.seats]
        final = st.eliminations.ranking(finalists)
        heats = [heat_ranking(f.heats, ps) for ps in heats_of(st).values()]
        return combine_heats(final, heats)
