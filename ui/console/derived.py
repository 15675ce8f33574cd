"""The presenter's derived state: the step the console is at and the whole view, worked out
from the presenter's parts (drafts, selection, cursor, messages) and the latest snapshot.

:class:`DerivedView` is a collaborator of :class:`ui.console.presenter.ConsolePresenter`, whose
parts own and change that state; this module only reads it. Qt-free.
"""

from __future__ import annotations

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig
from dealer_assist.engine.rules import BoxResult, SeatSettlement
from dealer_assist.engine.views import Phase
from ui.console.bets import BetBook
from ui.console.card_taps import CardTaps
from ui.console.commands import Deal
from ui.console.desk import Screen
from ui.console.pit_boss import PitBossForms
from ui.console.snapshot import TableSnapshot
from ui.console.view import (
    BOARD_SLOTS,
    DEALER_SLOTS,
    BoxView,
    ConsoleView,
    DealerAction,
    HistoryPad,
    Keypad,
    SeatView,
    SettleRow,
    Step,
)
from ui.console.walk import PayoutWalk
from ui.kit.cards import CardFace
from ui.kit.commands import AcknowledgeVoid, Confirm
from ui.kit.outbox import Outbox
from ui.kit.pin_entry import PitBossEntry
from ui.money import chip_breakdown


class DerivedView:
    """The step and the view of a presenter (see the module docstring), read from the
    presenter's parts: the screen's state, the commands in flight, the payout walk, the card
    keypad, the pit boss's forms and pads. It owns no state of its own."""

    def __init__(
        self,
        config: TableConfig,
        book: BetBook,
        screen: Screen,
        outbox: Outbox,
        walk: PayoutWalk,
        cards: CardTaps,
        forms: PitBossForms,
        pins: PitBossEntry,
    ) -> None:
        self.config, self.book, self.screen, self.outbox = config, book, screen, outbox
        self.walk, self.cards, self.forms, self.pins = walk, cards, forms, pins

    @property
    def snap(self) -> TableSnapshot:
        """The service's latest snapshot."""
        return self.screen.snap

    # -- derived state ----------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """A command other than a decision is in flight (the dealer's buttons wait)."""
        return self.outbox.busy

    def step(self) -> Step:
        """What the console shows now."""
        phase = self.snap.phase
        waiting = self.outbox.waiting.values()
        if phase is Phase.DEALING and self.snap.identifying and Confirm not in waiting:
            return Step.IDENTIFY
        if phase is Phase.DEALING and self.snap.manual_entry:
            return Step.MANUAL
        if Deal in waiting:
            return Step.DEALING
        if self.snap.void_reason is not None and AcknowledgeVoid not in waiting:
            return Step.VOID
        if phase is None:
            return Step.IDLE if AcknowledgeVoid in waiting else Step.CONNECTING
        if phase is Phase.VOID:
            return Step.IDLE
        if phase in (Phase.SETTLED, Phase.REVEALED):
            return Step.REVEAL if self.walk.cursor is None else Step.SETTLEMENT
        return {
            Phase.BETS_OPEN: Step.BETS,
            Phase.DEALING: Step.DEALING,
            Phase.DECISIONS: Step.DECISIONS,
            Phase.SHOWDOWN: Step.SHOWDOWN,
        }[phase]

    def view(self) -> ConsoleView:
        """The current view."""
        step = self.step()
        snap = self.snap
        settlement = snap.settlement
        return ConsoleView(
            step=step,
            game=self.book.game.code,
            table_id=self.config.table_id,
            currency=self.config.currency,
            street=snap.street if step is Step.DECISIONS else None,
            hand_no=snap.hand_no,
            seats=tuple(self._seat_view(n, step) for n in range(1, self.config.seats + 1)),
            board=_slots(snap.board, BOARD_SLOTS),
            dealer=_slots(snap.dealer, DEALER_SLOTS),
            dealer_category=(
                settlement.dealer_hand.category.code
                if settlement is not None and settlement.dealer_hand is not None
                else None
            ),
            qualifies=settlement.qualifies if settlement is not None else None,
            keypad=self._keypad(step),
            action=self.action(),
            to_act=snap.to_act if step is Step.DECISIONS else (),
            settlement=self._rows(step),
            settle_order=(
                tuple(settlement.settlement_order)
                if settlement is not None and step in (Step.REVEAL, Step.SETTLEMENT)
                else ()
            ),
            on_table=self._on_table(step),
            totals=(
                (settlement.to_pay, settlement.to_collect)
                if settlement is not None and step in (Step.REVEAL, Step.SETTLEMENT)
                else None
            ),
            void_reason=snap.void_reason,
            void_returns=snap.void_returns,
            device=snap.device,
            busy=self.busy,
            message=self.screen.message,
            can_repeat=step is Step.BETS and bool(self.screen.last_bets),
            can_void=self.can_void(),
            void_armed=self.screen.void_armed,
            entry=self.cards.entry(step),
            notice=(
                snap.notice
                if snap.notice is not None and snap.notice.number > self.screen.dismissed
                else None
            ),
            storage=(
                snap.storage
                if snap.storage is not None
                and (snap.storage.fault or snap.storage.number > self.screen.storage_dismissed)
                else None
            ),
            not_ready=self._not_ready(step),
            can_expose=self.cards.can_expose(),
            expose=self.cards.exposing,
            exposed=snap.exposed if snap.phase is not None else 0,
            resumed=snap.resumed and snap.phase is not None,
            can_back=step is Step.SETTLEMENT and bool(self.walk.cursor),
            can_undo_chip=step is Step.BETS and self.book.can_undo(self.screen.selected),
            undoable=snap.undoable if step is Step.DECISIONS and not self.busy else (),
            history=snap.history if step in (Step.BETS, Step.IDLE) else None,
            history_holes=snap.history_holes,
            history_pad=self.forms.history_pad if snap.history is not None else None,
            can_history=not self.busy and step in (Step.BETS, Step.IDLE),
            correct=self.forms.correcting if step is Step.DECISIONS else None,
            signoff_pad=(
                HistoryPad(self.pins.badge, len(self.pins.pin), self.walk.field)
                if self.walk.signoff_seat() is not None
                else None
            ),
        )

    # -- internals --------------------------------------------------------------------------------
    def can_void(self) -> bool:
        step = self.step()
        if step is Step.MANUAL:  # while the dealer types the cards
            return not self.busy
        stuck = step in (Step.DEALING, Step.IDENTIFY) and self.snap.phase is Phase.DEALING
        return not self.busy and (step in (Step.DECISIONS, Step.SHOWDOWN) or stuck)

    def _not_ready(self, step: Step) -> bool:
        """The device blocks the next hand (shown between hands, when it matters)."""
        d = self.snap.device
        between = step in (Step.BETS, Step.IDLE, Step.REVEAL, Step.SETTLEMENT)
        return between and self.snap.phase is not None and not d.ready

    def action(self) -> DealerAction | None:
        step, snap = self.step(), self.snap
        busy = self.busy
        if step is Step.CONNECTING:
            return DealerAction("retry", enabled=not busy)
        ready = snap.device.ready
        if step is Step.BETS:
            ok = bool(self.book.ready()) and not busy and ready
            return DealerAction("rnvp", enabled=ok)
        if step in (Step.MANUAL, Step.IDENTIFY):
            return None  # the keypad is the dealer's tool now
        if step is Step.DEALING:
            return DealerAction("rnvp", enabled=False)
        if step in (Step.DECISIONS, Step.SHOWDOWN):
            if snap.next_step is None:  # seats still decide: the step after them, not yet
                return DealerAction(snap.coming_step, enabled=False)
            return DealerAction(snap.next_step, enabled=not busy, cards=snap.next_cards)
        if step is Step.REVEAL:
            return DealerAction("settle", enabled=snap.settlement is not None)
        if step is Step.SETTLEMENT:
            n = len(snap.settlement.seats) if snap.settlement is not None else 0
            if (self.walk.cursor or 0) < n:
                return DealerAction("next", enabled=not busy)  # the last seat's mark first
            return DealerAction("new_hand", enabled=not busy and ready)
        if step is Step.VOID:
            return DealerAction("ack")
        return DealerAction("new_hand", enabled=not busy and ready)

    def _keypad(self, step: Step) -> Keypad | None:
        if step is not Step.BETS or self.screen.selected is None:
            return None
        seat = self.screen.selected
        limits = tuple(
            (box, lim.minimum, lim.maximum)
            for box in self.book.entry_boxes
            if (lim := self.config.limits.get(box)) is not None
        )
        return Keypad(
            seat=seat,
            boxes=tuple((b, self.book.amount(seat, b)) for b in self.book.entry_boxes),
            box=self.screen.box,
            chips=tuple(sorted(self.config.chips)),
            limits=limits,
        )

    def _seat_view(self, n: int, step: Step) -> SeatView:
        rows = self.book.game.box_rows
        if step in (Step.BETS, Step.CONNECTING) or (step is Step.DEALING and not self.snap.seats):
            return self._draft_view(n, rows, step)
        seat = next((s for s in self.snap.seats if s.seat == n), None)
        if seat is None:
            empty = tuple(tuple(BoxView(b, 0) for b in row) for row in rows)
            return SeatView(n, "out", empty)
        results = self._results(n)
        boxes = tuple(
            tuple(
                BoxView(
                    b,
                    seat.stakes.get(b, 0),
                    outcome=results[b].outcome if b in results else None,
                    net=results[b].net if b in results else None,
                )
                for b in row
            )
            for row in rows
        )
        status = "in"
        if seat.folded:
            status = "folded"
        elif seat.legal:
            status = "to_act"
        elif step is Step.DECISIONS and seat.actions:
            status = "acted"
        ss = self._seat_settlement(n)
        settling = step is Step.SETTLEMENT and self.walk.cursor is not None
        order = self.snap.settlement.settlement_order if self.snap.settlement else []
        highlighted = (
            settling
            and self.walk.cursor is not None
            and self.walk.cursor < len(order)
            and (order[self.walk.cursor] == n)
        )
        shown = step is Step.SETTLEMENT and ss is not None
        return SeatView(
            seat=n,
            status=status,
            boxes=boxes,
            highlighted=highlighted,
            legal=seat.legal if step is Step.DECISIONS else (),
            enabled=not self.busy and not self.outbox.waits(self.screen.acts.get(n)),
            undoable=step is Step.DECISIONS and n in self.snap.undoable,
            correctable=step is Step.DECISIONS and n in dict(self.snap.correctable),
            last_action=seat.actions[-1] if seat.actions else None,
            cards_dealt=seat.cards_dealt,
            result=ss.result if shown and ss is not None else None,
            net=ss.net if shown and ss is not None else None,
            paid=shown and n in self.walk.paid,
            category=(
                ss.hand.category.code if shown and ss is not None and ss.hand is not None else None
            ),
        )

    def _draft_view(self, n: int, rows: tuple[tuple[str, ...], ...], step: Step) -> SeatView:
        issue = self.book.issue(n)
        bets = self.book.seat_bets(n)
        boxes = tuple(
            tuple(
                BoxView(
                    b,
                    bets.get(b, 0),
                    follows=b in self.book.follows,
                    selected=self.screen.selected == n and b == self.screen.box,
                )
                for b in row
            )
            for row in rows
        )
        status = "empty" if not bets else ("invalid" if issue else "bet")
        return SeatView(
            seat=n,
            status=status,
            boxes=boxes,
            selected=self.screen.selected == n,
            issue=issue,
            enabled=step is Step.BETS and not self.busy,
        )

    def _seat_settlement(self, n: int) -> SeatSettlement | None:
        settlement = self.snap.settlement
        if settlement is None:
            return None
        return next((s for s in settlement.seats if s.seat == n), None)

    def _results(self, n: int) -> dict[str, BoxResult]:
        ss = self._seat_settlement(n)
        if ss is None or self.step() is not Step.SETTLEMENT:
            return {}
        return {b.box: b for b in ss.bets}

    def _rows(self, step: Step) -> tuple[SettleRow, ...]:
        settlement = self.snap.settlement
        if step is not Step.SETTLEMENT or settlement is None:
            return ()
        cursor = self.walk.cursor or 0
        holes = {s.seat: s.hole for s in self.snap.seats}
        chips = tuple(self.config.chips)
        rows = []
        for i, s in enumerate(settlement.seats):
            paid = s.seat in self.walk.paid
            state = "current" if i == cursor else ("done" if paid else "pending")
            pay = tuple((b.box, *_chips(b.net, chips)) for b in s.bets if b.net > 0)
            rows.append(
                SettleRow(
                    seat=s.seat,
                    result=s.result,
                    category=s.hand.category.code if s.hand is not None else None,
                    best_five=tuple(s.hand.best_five) if s.hand is not None else (),
                    boxes=s.bets,
                    net=s.net,
                    state=state,
                    paid=paid,
                    hole=holes.get(s.seat, ()),
                    pay=pay,
                )
            )
        return tuple(rows)

    def _on_table(self, step: Step) -> int:
        if step in (Step.BETS, Step.CONNECTING) or (step is Step.DEALING and not self.snap.seats):
            return sum(sum(b.values()) for b in self.book.ready().values())
        return sum(sum(s.stakes.values()) for s in self.snap.seats)


def _chips(amount: int, chips: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], int]:
    counts, rest = chip_breakdown(amount, chips)
    return tuple(counts), rest


def _slots(cards: tuple[Card | None, ...], n: int) -> tuple[CardFace, ...]:
    faces: list[CardFace] = [c if c is not None else "back" for c in cards[:n]]
    return tuple(faces + ["empty"] * (n - len(faces)))
