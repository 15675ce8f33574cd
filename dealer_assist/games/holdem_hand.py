"""A live Hold'em hand (rules text 003 art. 6-7): the game's :class:`PeerSetup` of one hand.

:func:`holdem_setup` turns the table's Hold'em settings and the hand's seating (who is dealt in,
stacks, the button, the posts: :mod:`dealer_assist.games.holdem_table` decides them between
hands) into the :class:`~dealer_assist.engine.peer_state.PeerSetup` of a
:class:`~dealer_assist.engine.peer_state.PeerHand`: the streets, the betting structure, the
dealing order (from the small blind, the first seat after the button), the conventions in force
and the hand record's fixed fields (HAND_RECORD.md "Pot games"), so that the journaled record
settles to exactly the live hand's settlement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from dealer_assist.engine.operations import ForcedBetKind
from dealer_assist.engine.peer import STRUCTURES, BettingStructure, Structure
from dealer_assist.engine.peer_setup import ForcedPost, PeerSetup
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.engine.pots import after_button
from dealer_assist.errors import ConfigError
from dealer_assist.games import holdem_table
from dealer_assist.games.holdem import (
    ANTE,
    BIG_BLIND,
    CODE,
    SMALL_BLIND,
    STREETS,
    HoldemSettings,
)
from dealer_assist.games.holdem_table import PokerTable, after_hand, next_hand
from dealer_assist.games.pot_common import (
    buy_in_key,
    check_keys,
    is_whole,
    pair_key,
    whole_key,
)
from dealer_assist.games.session import TableSession


@dataclass(frozen=True)
class HoldemGame:
    """A Hold'em table's fixed game: betting structure, blinds, ante, chip, fixed-limit bets,
    buy-in bounds (cash) and the named settings. Chips in minor units.

    Attributes:
        betting: ``no_limit``, ``pot_limit`` or ``fixed_limit``.
        blinds: ``(small, big)``.
        ante: per player (0: none); ``ante_kind`` ``big_blind``: one ante by the big blind.
        chip: the smallest chip in play.
        limits: fixed limit ``(small_bet, big_bet)`` (default: big blind, twice the big blind).
        buy_in: cash ``(minimum, maximum)`` a player may sit down with.
        settings: the conventions in force (:class:`~dealer_assist.games.holdem.HoldemSettings`).
        tournament: ``(tournament id, level)`` at a tournament table (each hand record says
            which tournament and level it was played at: ``"tournament"``); None at a cash table.
    """

    betting: Structure = "no_limit"
    blinds: tuple[int, int] = (100, 200)
    ante: int = 0
    ante_kind: str | None = None
    chip: int = 1
    limits: tuple[int, int] | None = None
    buy_in: tuple[int, int] = (4000, 20000)
    settings: HoldemSettings = field(default_factory=HoldemSettings)
    tournament: tuple[str, int] | None = None

    def __post_init__(self) -> None:
        small, big = self.blinds
        if not 0 <= small <= big or big <= 0:
            raise ConfigError(f"blinds: need 0 <= small <= big, big > 0, got {self.blinds}")
        if self.ante < 0 or self.chip <= 0:
            raise ConfigError("ante must be >= 0 and chip > 0")
        if self.ante_kind not in (None, BIG_BLIND):
            raise ConfigError(f"ante_kind: must be {BIG_BLIND!r} or absent")
        low, high = self.buy_in
        if not 0 < low <= high:
            raise ConfigError(f"buy_in: need 0 < minimum <= maximum, got {self.buy_in}")
        self.structure()  # checks the bet sizes

    def structure(self) -> BettingStructure:
        """The betting structure (GAMES.md: fixed limit small/big bet and the 3-raise cap; no
        limit and pot limit: the big blind is the minimum bet)."""
        big = self.blinds[1]
        bets = self.limits or (big, 2 * big)
        if self.betting != "fixed_limit":
            bets = (big, big)
        cap = self.settings.max_raises if self.betting == "fixed_limit" else None
        return BettingStructure(self.betting, bets[0], bets[1], cap, self.chip)


def holdem_setup(
    game: HoldemGame,
    *,
    table_seats: int,
    seats: Sequence[int],
    stacks: Mapping[int, int],
    button: int,
    posts: Sequence[tuple[int, str, int]],
    big_blind: int | None,
    plain: bool,
    seating: Any = None,
) -> PeerSetup:
    """The :class:`PeerSetup` of one Hold'em hand.

    Args:
        game: the table's game.
        table_seats: seats at the table (the record's ``seats``).
        seats, stacks: the seats dealt in and their stacks at the start of the hand.
        button: the button's seat.
        posts: ``(seat, type, amount)`` in posting order, type ``small_blind``, ``big_blind``
            or ``ante`` (dead; a dead small blind is posted as one).
        big_blind: the seat the preflop opener follows.
        plain: the posts are the plain button/blinds case (no ``posts`` in the record).

    Raises:
        ConfigError: a post of an unknown type or by a seat not dealt in.
    """
    order = tuple(sorted(seats))
    forced: list[ForcedPost] = []
    kinds: dict[str, ForcedBetKind] = {
        ANTE: "ante",
        SMALL_BLIND: "small_blind",
        BIG_BLIND: "big_blind",
    }
    for seat, kind, amount in posts:
        if kind not in kinds or seat not in order:
            raise ConfigError(f"post {kind} by seat {seat}: not a post of this hand")
        forced.append(ForcedPost(seat, kinds[kind], amount, dead=kind == ANTE))
    st = game.settings
    record: dict[str, Any] = {
        "game": CODE,
        "betting": game.betting,
        "seats": table_seats,
        "button": button,
        "blinds": list(game.blinds),
        "ante": game.ante,
        "chip": game.chip,
        "settings": st.to_json(),
    }
    if game.ante_kind is not None:
        record["ante_kind"] = game.ante_kind
    if game.tournament is not None:
        record["tournament"] = {"id": game.tournament[0], "level": game.tournament[1]}
    if game.betting == "fixed_limit" and game.limits is not None:
        record["limits"] = list(game.limits)
    if not plain:
        record["posts"] = [{"seat": s, "type": k, "amount": a} for s, k, a in posts]
    if st.rake_percent > 0:
        p = st.rake_percent
        record["rake"] = {"percent": int(p) if p.denominator == 1 else float(p), "cap": st.rake_cap}
    return PeerSetup(
        game=CODE,
        seats=order,
        stacks=dict(stacks),
        button=button,
        posts=tuple(forced),
        big_blind=big_blind,
        blind=game.blinds[1],
        structure=game.structure(),
        streets=STREETS,
        deal_order=tuple(after_button(order, button)),
        uncapped_heads_up=st.no_cap_heads_up,
        reopen_by_sum=st.reopen_by_sum,
        blinds_first=game.ante_kind == BIG_BLIND,
        all_in_face_up=st.all_in_face_up,
        no_flop_no_drop=st.no_flop_no_drop,
        rake_percent=st.rake_percent,
        rake_cap=st.rake_cap,
        record=record,
        seating=seating,
        ante=0 if game.ante_kind == BIG_BLIND else game.ante,
    )


def new_holdem_hand(config: Any, session: TableSession, hand_uid: str) -> PeerHand:
    """The next hand at a Hold'em table: its seating from the session
    (:func:`dealer_assist.games.holdem_table.next_hand`: who is dealt in, the button, the
    posts), as a :class:`~dealer_assist.engine.peer_state.PeerHand`.

    Raises:
        HandStateError: no hand can start (fewer than two players with chips dealt in).
    """
    game: HoldemGame = config.poker
    setup = next_hand(session, poker_table(config))
    peer = holdem_setup(
        game,
        table_seats=config.seats,
        seats=setup.seats,
        stacks=setup.stacks,
        button=setup.button,
        posts=[(p.seat, p.type, p.amount) for p in setup.posts],
        big_blind=setup.big_blind,
        plain=setup.plain,
        seating=setup,
    )
    return PeerHand(peer, hand_uid)


def holdem_session_after(config: Any, session: TableSession, hand: PeerHand) -> TableSession:
    """The session after a journaled hand (:func:`dealer_assist.games.holdem_table.after_hand`:
    stacks from the settlement, the button moved; a void hand leaves both as they were)."""
    void = hand.status == "void"
    return after_hand(
        session, poker_table(config), hand.setup.seating, None if void else hand.result(), void=void
    )


def poker_table(config: Any) -> PokerTable:
    """The table's fixed Hold'em settings as the between-hands rules take them."""
    return PokerTable.of_game(config.poker, config.seats)


class HoldemTableOps:
    """The table between hands (:mod:`dealer_assist.games.holdem_table`) bound to one table's
    settings: each operation takes the session and returns the next one (with the change to
    journal), or raises TableError / HandStateError naming what was wrong."""

    def __init__(self, config: Any) -> None:
        self._t = holdem_table
        self._table = poker_table(config)

    def seat_player(
        self, session: TableSession, seat: int, name: str, buy_in: int, **kw: Any
    ) -> TableSession:
        """A player sits down with ``buy_in`` (within the table's buy-in bounds)."""
        new: TableSession = self._t.seat_player(session, self._table, seat, name, buy_in, **kw)
        return new

    def top_up(self, session: TableSession, seat: int, amount: int, **kw: Any) -> TableSession:
        """More chips for ``seat`` (cash, between hands, up to the maximum buy-in)."""
        new: TableSession = self._t.top_up(session, self._table, seat, amount, **kw)
        return new

    def sit_out(self, session: TableSession, seat: int, **kw: Any) -> TableSession:
        """``seat`` sits out from the next hand."""
        new: TableSession = self._t.sit_out(session, seat, **kw)
        return new

    def sit_in(self, session: TableSession, seat: int, **kw: Any) -> TableSession:
        """``seat`` is back from the next hand (the missed-blind rule applies)."""
        new: TableSession = self._t.sit_in(session, seat, table=self._table, **kw)
        return new

    def leave(self, session: TableSession, seat: int, **kw: Any) -> TableSession:
        """``seat`` cashes out and leaves."""
        new: TableSession = self._t.leave(session, seat, **kw)
        return new

    def set_button(self, session: TableSession, seat: int, **kw: Any) -> TableSession:
        """The dealer places the button in front of ``seat``."""
        new: TableSession = self._t.set_button(session, seat, **kw)
        return new

    def draw_button(self, session: TableSession, seed: int, **kw: Any) -> TableSession:
        """The first button drawn (seeded, recorded)."""
        new: TableSession = self._t.draw_button(session, seed, **kw)
        return new


def holdem_game(section: Mapping[str, Any]) -> HoldemGame:
    """The table's Hold'em game from its ``[poker]`` TOML section (``config/holdem.toml``):
    ``betting``, ``blinds = [small, big]``, ``ante``, ``ante_kind``, ``chip``, ``limits``,
    ``buy_in = {min, max}``, ``[poker.settings]`` (HoldemSettings names), ``[poker.rake]``
    (``percent``, ``cap``).

    Raises:
        ConfigError: naming the key (``poker.blinds: ...``).
    """
    check_keys(
        section,
        {"betting", "blinds", "ante", "ante_kind", "chip", "limits", "buy_in", "settings", "rake"},
    )
    settings = HoldemSettings.from_json(section.get("settings", {}), "poker.settings")
    rake = section.get("rake", {})
    if not isinstance(rake, Mapping):
        raise ConfigError("poker.rake: must be a table {percent, cap}")
    percent = rake.get("percent", 0)
    if isinstance(percent, bool) or not isinstance(percent, int | float) or not 0 <= percent < 100:
        raise ConfigError(f"poker.rake.percent: must be a number 0..100, got {percent!r}")
    cap = rake.get("cap")
    if cap is not None and not (is_whole(cap) and cap >= 0):
        raise ConfigError(f"poker.rake.cap: must be an integer >= 0, got {cap!r}")
    settings = replace(settings, rake_percent=Fraction(str(percent)), rake_cap=cap)
    betting = section.get("betting", "no_limit")
    if betting not in STRUCTURES:
        raise ConfigError(f"poker.betting: must be one of {', '.join(STRUCTURES)}")
    try:
        return HoldemGame(
            betting=betting,
            blinds=pair_key(section, "blinds", [100, 200]),
            ante=whole_key(section, "ante", 0),
            ante_kind=section.get("ante_kind"),
            chip=whole_key(section, "chip", 1) or 1,
            limits=pair_key(section, "limits", None) if "limits" in section else None,
            buy_in=buy_in_key(section, (4000, 20000)),
            settings=settings,
        )
    except ConfigError as e:
        raise ConfigError(f"poker: {e}") from e
