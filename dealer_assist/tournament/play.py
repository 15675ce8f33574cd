"""A whole tournament played headless: the director between hands, one hand at a time at the
tables in turn, each with simulated players, to the last player (``dealer-assist tournament
simulate``; tests).

Determinism, so that a run killed at any moment and started again ends with the same ranking
as a run never interrupted: every random choice is keyed by the tournament's seed and the
tournament's hand number (settled hands before it), never by how many hands a process dealt.
Before each hand the table's source may be told the hand's deck seed (``reseed``: the
emulator's ``SEED``), the players' generator is seeded from (seed, hand, decisions so far)
before each decision, and the choices between hands are hashes of (seed, hand, player)
(:func:`~dealer_assist.tournament.director.draw_number`). A hand a restart voided is dealt
again as the same hand; a hand a restart continues goes on with the same choices.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.betting import CHECK, FOLD
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.engine.state import ActionSpace
from dealer_assist.table.driving import resume_table
from dealer_assist.table.peer_driving import SeatPlayer, play_hand
from dealer_assist.tournament.decisions import Clocked, walk
from dealer_assist.tournament.director import Director
from dealer_assist.tournament.draws import draw_number
from dealer_assist.tournament.tables import TournamentTable
from dealer_assist.tournament.upkeep import Players


class _Banks:
    """The time banks during one hand (the director's state takes them from the journaled
    hand, never from here)."""

    def __init__(self, banks: Any, timed_out: set[str]) -> None:
        self.banks = banks
        self.timed_out = timed_out


Reseed = Callable[[TournamentTable, int], None]
"""Tell ``table``'s source the deck seed of the next hand (None: the source shuffles freely)."""
SeatPlayers = Callable[[TournamentTable, random.Random], Mapping[int, SeatPlayer]]
"""The simulated player in each seat of ``table`` (their decisions drawn from the generator)."""
Say = Callable[[str], None]


class SittingOut:
    """A seat in the tournament's sit-out: dealt in, their hand checked if it can be, else
    folded when the action reaches it (rules text 002, sit-out; a bring-in they may fold
    passes on)."""

    def choose(
        self,
        space: ActionSpace,
        *,
        hole: Sequence[Card],
        board: Sequence[Card],
        pot: int,
        to_call: int,
    ) -> tuple[str, int | None]:
        """Check, else fold, else the one forced action the space leaves."""
        for kind in (CHECK, FOLD):
            if kind in space.kinds:
                return kind, None
        return sorted(space.kinds)[0], None


def hand_seed(seed: int, number: int, decisions: int = -1) -> int:
    """The 63-bit seed of hand ``number``'s deck (``decisions`` -1) or of its next decision."""
    return int(draw_number(seed, "hand", number, decisions) * 2**63)


def decisions(hand: PeerHand) -> int:
    """Decisions taken in ``hand`` so far (actions, hands shown or mucked)."""
    return len(hand.bets) + len(hand.shown) + len(hand.mucked)


class Tournament:
    """Plays the tournament of ``director`` to its end.

    Args:
        director: opened on the journal (its tables made by its ``make_table``).
        players: the players' choices between hands; seat_players: their choices in a hand.
        reseed: see :data:`Reseed`. say: where the resume's sentences go.
        after_hand: called after each hand is journaled and taken (a progress bar).
        should_stop: asked between hands, once the records between them are journaled (an
            ordinary stop: SIGTERM); true ends :meth:`run` there with :attr:`stopped` set.
    """

    def __init__(
        self,
        director: Director,
        players: Players,
        seat_players: SeatPlayers,
        *,
        reseed: Reseed | None = None,
        say: Say | None = None,
        after_hand: Callable[[], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> None:
        self.director = director
        self.players = players
        self.seat_players = seat_players
        self.reseed = reseed
        self.say = say or (lambda _line: None)
        self.after_hand = after_hand
        self.should_stop = should_stop
        self.stopped = False
        self.rng = random.Random(0)
        self.resumed = 0

    def resume(self) -> None:
        """Each table's step log after a crash: the hand it left finished, continued (with the
        level it started at) or voided by the rules, said in a sentence."""
        d = self.director
        for tid in d.state.tables:
            table = d.tables[tid]
            table.set_level(d.pending_level())
            if self.reseed is not None:  # a hand resumed before its first card: a new deck
                self.reseed(table, hand_seed(d.state.seed, d.state.hands))
            report = resume_table(table.runner, table.table.resume)
            for line in report.sentences():
                self.say(f"{tid}: {line}")
            self.resumed += bool(report.continued or report.journaled)
            d.hand_done(f"{tid}: the hand the restart journaled")
            hand = table.table.hand
            if report.continued and hand is not None and not hand.is_over:
                self._play(table, d.state.hands, hand)

    def run(
        self, structure: Any, *, seed: int, names: Sequence[str], seconds_per_hand: int
    ) -> None:
        """Set up what is missing, resume the tables, then play to the end."""
        d = self.director
        d.open(
            structure,
            seed=seed,
            players=len(names),
            seconds_per_hand=seconds_per_hand,
            simulated_decisions=True,
        )
        self.resume()
        d.setup(structure, seed=seed, players=names, seconds_per_hand=seconds_per_hand)
        while True:
            d.between_hands(self.players)
            if d.finished:
                return
            if self.should_stop is not None and self.should_stop():
                self.stopped = True  # between hands: no table has a hand to resume
                return
            nxt = d.next_hand()
            if self.reseed is not None:
                self.reseed(nxt.table, hand_seed(d.state.seed, nxt.number))
            self._play(nxt.table, nxt.number, None, nxt.sitting_out)

    def _play(
        self,
        table: TournamentTable,
        number: int,
        hand: PeerHand | None,
        out: frozenset[int] = frozenset(),
    ) -> None:
        d = self.director
        seed = d.state.seed
        rng = self.rng
        if hand is not None:
            out = frozenset(
                s
                for s, n in d.state.at_table(table.table_id).items()
                if d.state.entrants[n].sitting_out
            )
        seats: dict[int, SeatPlayer] = dict(self.seat_players(table, rng))
        st = d.state
        if st.simulated_decisions:  # every decision on the action clock, its bank drawn
            clock = _Banks(st.banks, set(st.timed_out))
            names = st.at_table(table.table_id)
            if hand is not None:  # the decisions taken before the crash drew from the banks
                done = [(i, names.get(b.seat)) for i, (b, _street) in enumerate(hand.bets)]
                clock.banks, clock.timed_out = walk(
                    self.director.structure,
                    table.level_number,
                    clock.banks,
                    done,
                    seed=seed,
                    number=number,
                    timed_out=clock.timed_out,
                )
            for s, player in list(seats.items()):
                seats[s] = Clocked(
                    player,
                    names[s],
                    lambda: table.table.hand,
                    clock,
                    structure=d.structure,
                    level=table.level_number,
                    seed=seed,
                    number=number,
                )
        for s in out:
            seats[s] = SittingOut()
        rng.seed(hand_seed(seed, number, decisions(hand) if hand is not None else 0))

        def next_decision(h: PeerHand, _seat: int, _kind: str, _to: int | None) -> None:
            rng.seed(hand_seed(seed, number, decisions(h)))

        played = play_hand(table.table, seats, rng, hand, by=d.by, after_action=next_decision)
        d.hand_done(f"{table.table_id} hand {played.hand_uid}")
        if self.after_hand is not None:
            self.after_hand()
