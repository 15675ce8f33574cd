"""A live Seven Card Stud hand (rules text 002; GAMES.md "Seven Card Stud"): the table's game
and the :class:`~dealer_assist.engine.peer_state.PeerSetup` of one hand.

The game's knowledge reaches the engine as hooks (:mod:`dealer_assist.games.stud`): the bring-in
by the lowest door card and the best exposed hand opening the later streets
(:func:`~dealer_assist.games.stud.opening`), the showdown order, the odd chips by the highest
card by suit, and the seventh-street shortage (:func:`~dealer_assist.games.stud.seventh_street`:
deal, reshuffle the burns with the stub, or turn one community card). The journaled record is
the ``stud`` hand record of HAND_RECORD.md (``cards`` in deal order, ``community``), so it settles
to exactly the live hand's settlement.

Between hands the table is the generic one (:mod:`dealer_assist.games.seats`): seats, stacks,
buy-ins, sit-out; Stud has no button and no blinds (everyone antes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.peer import STRUCTURES, BettingStructure, Structure
from dealer_assist.engine.peer_setup import ForcedPost, PeerSetup
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.errors import ConfigError, HandStateError
from dealer_assist.games import seats as generic
from dealer_assist.games.pot_common import buy_in_key, check_keys, pair_key, whole_key
from dealer_assist.games.session import TableSession
from dealer_assist.games.stud import (
    CODE,
    SEVENTH,
    STREETS,
    Opening,
    StudSettings,
    odd_chip_order,
    opening,
    seventh_street,
    showdown_order,
)


@dataclass(frozen=True)
class StudGame:
    """A Stud table's fixed game (chips in minor units or tournament chips).

    Attributes:
        betting: ``fixed_limit`` (text 002's), ``pot_limit`` or ``no_limit``.
        limits: ``(small_limit, big_limit)``; the big limit is twice the small (text 002).
        ante: every player's ante; bring_in: at most half the small limit (text 002).
        chip: the smallest chip in play.
        buy_in: ``(minimum, maximum)`` a player may sit down with.
        settings: the conventions in force (:class:`~dealer_assist.games.stud.StudSettings`).
        tournament: ``(tournament id, level)`` at a tournament table (each hand record says
            which tournament and level it was played at: ``"tournament"``); None at a cash table.
    """

    betting: Structure = "fixed_limit"
    limits: tuple[int, int] = (200, 400)
    ante: int = 25
    bring_in: int = 50
    chip: int = 25
    buy_in: tuple[int, int] = (4000, 40000)
    settings: StudSettings = field(default_factory=StudSettings)
    tournament: tuple[str, int] | None = None

    def __post_init__(self) -> None:
        small, big = self.limits
        if not 0 < small <= big:
            raise ConfigError(f"limits: need 0 < small <= big, got {self.limits}")
        if not 0 < 2 * self.bring_in <= small:
            raise ConfigError(
                f"bring_in: at most half the small limit {small} (rules text 002), "
                f"got {self.bring_in}"
            )
        if self.ante < 0 or self.chip <= 0:
            raise ConfigError("ante must be >= 0 and chip > 0")
        if not 0 < self.buy_in[0] <= self.buy_in[1]:
            raise ConfigError(f"buy_in: need 0 < minimum <= maximum, got {self.buy_in}")
        self.structure()

    def structure(self) -> BettingStructure:
        """The betting structure (fixed limit: small bet on 3rd/4th, big on 5th-7th; pot and no
        limit: the minimum bet is the big limit, text 002)."""
        small, big = self.limits
        fixed = self.betting == "fixed_limit"
        cap = self.settings.max_raises if fixed else None
        return BettingStructure(self.betting, small if fixed else big, big, cap, self.chip)


def stud_setup(game: StudGame, *, table_seats: int, stacks: Mapping[int, int]) -> PeerSetup:
    """The :class:`PeerSetup` of one Stud hand for the seats of ``stacks`` (all ante).

    Raises:
        HandStateError: fewer than two players.
    """
    order = tuple(sorted(stacks))
    if len(order) < 2:
        raise HandStateError("fewer than 2 players with chips are dealt in")
    st = game.settings
    fixed = game.betting == "fixed_limit"
    posts = tuple(ForcedPost(s, "ante", game.ante, dead=True) for s in order if game.ante)
    record: dict[str, Any] = {
        "game": CODE,
        "betting": game.betting,
        "seats": table_seats,
        "ante": game.ante,
        "bring_in": game.bring_in,
        "limits": list(game.limits),
        "chip": game.chip,
        "settings": st.to_json(),
    }
    if game.tournament is not None:
        record["tournament"] = {"id": game.tournament[0], "level": game.tournament[1]}

    def open_street(street: str, up: Mapping[int, tuple[Card, ...]]) -> Opening:
        return opening(street, up, bring_in=game.bring_in, fixed_limit=fixed, settings=st)

    def shortage(street: str, dealt: int, burns: int, players: int) -> Any:
        return seventh_street(dealt, burns, players) if street == SEVENTH else None

    return PeerSetup(
        game=CODE,
        seats=order,
        stacks=dict(stacks),
        button=0,
        posts=posts,
        big_blind=None,
        blind=0,
        structure=game.structure(),
        streets=STREETS,
        deal_order=order,
        uncapped_heads_up=st.no_cap_heads_up,
        reopen_by_sum=st.reopen_by_sum,
        all_in_face_up=st.all_in_face_up,
        no_flop_no_drop=False,
        record=record,
        ante=game.ante,
        opening=open_street,
        show_order=showdown_order,
        odd_chips=odd_chip_order,
        shortage=shortage,
        cards_field="cards",
    )


def new_stud_hand(config: Any, session: TableSession, hand_uid: str) -> PeerHand:
    """The next hand at a Stud table: every player with chips who is not sitting out.

    Raises:
        HandStateError: fewer than two such players.
    """
    dealt = generic.eligible(session)
    stacks = {s: int(session.seats[s].stack or 0) for s in dealt}
    return PeerHand(stud_setup(config.poker, table_seats=config.seats, stacks=stacks), hand_uid)


def stud_session_after(config: Any, session: TableSession, hand: PeerHand) -> TableSession:
    """The session after a journaled hand: stacks from the settlement (a void hand: as they
    were, every chip returned), one more hand."""
    result = hand.result() if hand.status == "settled" else None
    seats = dict(session.seats)
    for row in (result or {}).get("seats", []):
        seat = row["seat"]
        if seat in seats:
            seats[seat] = replace(seats[seat], stack=row["stack"])
    return replace(session, hands=session.hands + 1, seats=seats, change=None)


class StudTableOps:
    """The table between hands for a Stud table (generic seats: buy-ins within the table's
    bounds, top-up, sit out, sit in, leave). Each returns the next session with its change."""

    def __init__(self, config: Any) -> None:
        game: StudGame = config.poker
        self._rule = generic.BuyIn(game.buy_in[0], game.buy_in[1], game.chip)
        self._seats = int(config.seats)

    def seat_player(
        self, session: TableSession, seat: int, name: str, buy_in: int, **kw: Any
    ) -> TableSession:
        """A player sits down at ``seat`` with ``buy_in``."""
        return generic.seat_player(
            session, seat, name, buy_in, seats=self._seats, rule=self._rule, **kw
        )

    def top_up(self, session: TableSession, seat: int, amount: int, **kw: Any) -> TableSession:
        """More chips for ``seat``, between hands."""
        return generic.top_up(session, seat, amount, rule=self._rule, **kw)

    def sit_out(self, session: TableSession, seat: int, **kw: Any) -> TableSession:
        """``seat`` sits out from the next hand."""
        return generic.sit_out(session, seat, **kw)

    def sit_in(self, session: TableSession, seat: int, **kw: Any) -> TableSession:
        """``seat`` is dealt in again from the next hand."""
        return generic.sit_in(session, seat, **kw)

    def leave(self, session: TableSession, seat: int, **kw: Any) -> TableSession:
        """``seat`` leaves with its stack."""
        return generic.leave(session, seat, **kw)

    def set_button(self, session: TableSession, seat: int, **kw: Any) -> TableSession:
        """Stud has no button: refused."""
        raise HandStateError("a stud table has no button: the deal starts from seat 1")

    def draw_button(self, session: TableSession, seed: int, **kw: Any) -> TableSession:
        """Stud has no button: the session as it is."""
        return session


def stud_game(section: Mapping[str, Any]) -> StudGame:
    """The table's Stud game from its ``[poker]`` TOML section (``config/stud.toml``):
    ``betting``, ``limits = [small, big]``, ``ante``, ``bring_in``, ``chip``,
    ``buy_in = {min, max}``, ``[poker.settings]`` (StudSettings names).

    Raises:
        ConfigError: naming the key (``poker.bring_in: ...``).
    """
    check_keys(section, {"betting", "limits", "ante", "bring_in", "chip", "buy_in", "settings"})
    limits = pair_key(section, "limits", [200, 400])
    buy_in = buy_in_key(section, (4000, 40000))
    betting = section.get("betting", "fixed_limit")
    if betting not in STRUCTURES:
        raise ConfigError(f"poker.betting: must be one of {', '.join(STRUCTURES)}")
    settings = StudSettings.from_json(section.get("settings", {}), "poker.settings")
    try:
        return StudGame(
            betting=betting,
            limits=limits,
            ante=whole_key(section, "ante", 25),
            bring_in=whole_key(section, "bring_in", 50),
            chip=whole_key(section, "chip", 25) or 1,
            buy_in=buy_in,
            settings=settings,
        )
    except ConfigError as e:
        raise ConfigError(f"poker: {e}") from e


__all__: Sequence[str] = (
    "StudGame",
    "StudTableOps",
    "new_stud_hand",
    "stud_game",
    "stud_session_after",
    "stud_setup",
)
