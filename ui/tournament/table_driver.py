"""One tournament table's dealer console driven by scripted taps, without a screen of its own:
the real :class:`~ui.poker.service.PokerService` (its runner, the journal, the keypad source)
and :class:`~ui.poker.presenter.PokerPresenter`, the service's answers taken at once on the
caller's thread (as the console's worker would deliver them, in order), the tournament's level
set on each hand by :class:`~dealer_assist.tournament.live_table.LiveTable`. The rehearsal
(:mod:`ui.tournament.rehearse`) and the tests play whole tournaments with it: the dealer taps
*New hand*, types the cards the seeded deck gives on the keypad, and taps each player's
decision (a seeded choice among the legal ones).

Qt-free, like the presenter: a window may be put over the same presenter for screenshots.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from datetime import datetime

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.config import TableConfig
from dealer_assist.storage.journal import Journal
from dealer_assist.tournament.live_table import LiveTable
from drivers.manual import ManualSource
from ui.kit.commands import Command
from ui.kit.service_parts import ServiceParts
from ui.poker.presenter import PokerPresenter
from ui.poker.service import PokerService
from ui.poker.snapshot import PokerSnapshot

DEAL_ROUNDS = 400  # ticks a deal may take (each types what the table waits for)


class TableDriver:
    """Table ``config.table_id`` of tournament ``tournament_id`` in journal ``url``.

    Args:
        now: the wall clock the tournament's clock runs on (the rehearsal's fast clock).
        seed: the seed of the decks and the decisions (keyed by the table's hand count).

    :meth:`open` connects (resuming a hand a crash left), :meth:`close` closes (idempotent).
    """

    def __init__(
        self,
        config: TableConfig,
        url: str,
        tournament_id: str,
        *,
        now: Callable[[], datetime],
        seed: int = 1,
    ) -> None:
        self.config = config
        self.seed = seed
        self.service = PokerService(
            ServiceParts(config, ManualSource, Journal(url, group=config.journal_group))
        )
        self.live = self.service.tournament = LiveTable(config, tournament_id, now=now)
        self._taps = itertools.count(0.0, 1.0)  # the presenter's double-tap guard: 1 s a tap
        self.p = PokerPresenter(config, self.run, clock=lambda: next(self._taps))
        self.snaps = 0
        self._deck: tuple[str, list[Card]] | None = None

    # -- the console ------------------------------------------------------------------------------
    def run(self, cmd: Command) -> None:
        """The presenter's command, answered at once."""
        self.feed(self.service.execute(cmd))

    def feed(self, snap: PokerSnapshot) -> None:
        """A snapshot to the presenter (as the worker's signal delivers it)."""
        self.snaps += 1
        self.p.on_snapshot(snap)

    def open(self) -> PokerSnapshot:
        """Connect (the journal, the keypad source; a hand a crash left is resumed)."""
        self.p.start()
        return self.p.snap

    def close(self) -> None:
        """Close the service (a hand in progress stays in the step log)."""
        self.service.close()

    # -- the dealer's taps ------------------------------------------------------------------------
    def new_hand(self) -> PokerSnapshot:
        """Tap *New hand*; the snapshot says the refusal when no hand may start."""
        self.p.tap_new_hand()
        return self.p.snap

    def deal(self) -> None:
        """Type the cards the table waits for (the hand's seeded deck) until it waits for a
        person; a Stud shortage's new deck is tapped too.

        Raises:
            RuntimeError: the deal does not finish (a bug: said, never hidden).
        """
        for _ in range(DEAL_ROUNDS):
            snap = self.service.tick(0.0)
            self.feed(snap)
            if snap.new_deck and not snap.reshuffling:
                self.p.tap_reshuffle()
                continue
            if not snap.pending:
                return
            source = self.service.active_source
            runner = self.service.runner
            if not isinstance(source, ManualSource) or runner is None or runner.hand is None:
                continue
            if source.expected <= 0:
                continue
            dealt = {c.card for c in runner.hand.cards} | set(source.entered)
            card = next(c for c in self._cards(snap.hand_uid) if c not in dealt)
            self.service.enter_card(card)
        raise RuntimeError(
            f"{self.config.table_id}: the deal of {self.p.snap.hand_uid} did not finish"
        )

    def _cards(self, hand_uid: str) -> list[Card]:
        if self._deck is None or self._deck[0] != hand_uid:
            rng = random.Random(f"{self.seed}:{self.config.table_id}:{self.hands}")
            cards = list(FULL_DECK)
            rng.shuffle(cards)
            self._deck = (hand_uid, cards)
        return self._deck[1]

    @property
    def hands(self) -> int:
        """Hands this table played (the session's count)."""
        return self.p.snap.hand_no

    def decide(self, rng: random.Random) -> str:
        """Tap one decision for the seat to act: a seeded choice among the legal ones (mostly
        check or call, sometimes a bet or raise of the minimum, sometimes a fold; at the
        showdown *show*). Returns the kind tapped ('' when nobody is to act)."""
        legal = self.p.snap.legal
        if legal is None:
            return ""
        kinds = legal.kinds
        if "show" in kinds:
            self.p.tap_show(True)
            return "show"
        x = rng.random()
        bet = legal.bet_kind
        if bet is not None and x < 0.18 and legal.minimum is not None:
            self.p.tap_clear()
            self.p.amount = legal.minimum if x > 0.03 else (legal.maximum or legal.minimum)
            self.p.tap_action(bet)
            return bet
        if "fold" in kinds and legal.to_call > 0 and x > 0.8:
            self.p.tap_action("fold")
            return "fold"
        for kind in ("check", "call", "bring_in", "fold"):
            if kind in kinds:
                self.p.tap_action(kind)
                return kind
        self.p.tap_action(kinds[0])
        return kinds[0]

    def timeout_action(self) -> str:
        """The seat to act timed out (or sits out): its hand checked if it can be, else
        folded, by the table (rules text 002). Returns the kind ('' when nobody acts)."""
        legal = self.p.snap.legal
        if legal is None:
            return ""
        kind = "check" if "check" in legal.kinds else "fold"
        if kind not in legal.kinds:  # a forced bring-in: the one action there is
            kind = "bring_in" if "bring_in" in legal.kinds else legal.kinds[0]
        if kind in ("show", "muck"):
            self.p.tap_show(kind == "show")
        else:
            self.p.tap_action(kind)
        return kind
