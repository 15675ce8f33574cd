"""A card's walk through the code: from the serial bytes to the committed settlement.

    python bench/card_walk.py [--hands 3] [--where]

Real hands over the built-in emulator on a pseudo-terminal, journal in SQLite, with a profiler
(``sys.setprofile`` / ``threading.setprofile``) on every thread. For the last card of a hand it
counts the project modules (``dealer_assist.*``, ``drivers.*``) whose functions run on its walk:

- on the device's receive thread: the loop turn whose read brought the card's bytes (parse,
  receive window, decoding, ACK, the event queued), up to the next read;
- on the table's thread: from the source handing the card's event over to the runner until the
  handling of that event returns; a UTH card then goes on through the dealer's two steps that
  end its hand (``reveal``, ``settle``: the settlement committed), a Hold'em all-in run-out's
  river settles and commits the hand inside the card's own handling.

Figures per card (medians over ``--hands`` hands of each game):

- ``modules``: distinct project modules that ran;
- ``calls in``: calls from one project module into another (each hop of the walk);
- ``re-entered``: calls into a module that already has a frame lower on the stack (control
  left it and came back: a callback, or a class cut over files calling its other files);
- ``runner entries``: calls into the table runner's modules from outside them (the runner
  "returned to" on the card's way).

The same script runs on any commit since the runner had ``HeadlessTable``/``HeadlessPeerTable``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from dealer_assist.config import load_table_config
from dealer_assist.events import CardRead
from dealer_assist.games import DEFAULT_GAME, POT_GAME_CODES
from dealer_assist.storage.journal import Journal
from drivers.emulator.process import EmulatorProcess
from drivers.factory import open_source

PROJECT = ("dealer_assist", "drivers")
RUNNER = (
    "dealer_assist.table.runner",
    "dealer_assist.table.resume",
    "dealer_assist.table.banked_runner",
    "dealer_assist.table.peer_runner",
    "dealer_assist.table.device_link",
    "dealer_assist.table.card_steps",
    "dealer_assist.table.dealing",
)


def _module(frame: FrameType | None) -> str:
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name.startswith(PROJECT):
            return str(name)
        return ""
    return ""


def _frames(frame: FrameType | None, depth: int = 8) -> str:
    """The innermost ``depth`` frames as ``module:function`` from the callee outwards."""
    out = []
    while frame is not None and len(out) < depth:
        out.append(f"{frame.f_globals.get('__name__', '?')}:{frame.f_code.co_name}")
        frame = frame.f_back
    return " < ".join(out)


@dataclass
class Walk:
    """What ran on one segment of a card's walk."""

    modules: set[str] = field(default_factory=set)
    calls_in: int = 0
    reentered: int = 0
    runner_entries: int = 0
    runner_reentered: int = 0
    where: list[str] = field(default_factory=list)  # each re-entry: module, caller, the frames

    def add(self, other: Walk) -> None:
        self.modules |= other.modules
        self.calls_in += other.calls_in
        self.reentered += other.reentered
        self.runner_entries += other.runner_entries
        self.runner_reentered += other.runner_reentered
        self.where += other.where


class Tracer:
    """Per thread: records project calls while ``on``; finds the card's receive-thread turn."""

    def __init__(self) -> None:
        self.main = threading.get_ident()
        self.recording = False  # the table thread records
        self.walk = Walk()
        self.target: tuple[str, int] | None = None  # deck, index of the card to follow
        self.rx_turn = Walk()  # the receive thread's current loop turn
        self.rx_has_card = False
        self.rx_walk: Walk | None = None
        self.stop_depth: int | None = None  # the card's handling ends at its caller's next call
        self._calls_at = 0
        self._stacks: dict[int, list[str]] = {}

    def is_target(self, value: Any) -> bool:
        if not isinstance(value, CardRead) or self.target is None:
            return False
        deck, index = self.target
        return value.index == index and deck in ("", value.deck_id)

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return"):
            return
        tid = threading.get_ident()
        stack = self._stacks.setdefault(tid, [])
        mod = _module(frame)
        if event == "return":
            if stack:
                stack.pop()
            if tid != self.main and self.is_target(arg):
                self.rx_has_card = True
            if (
                tid == self.main
                and not self.recording
                and self.walk.calls_in == 0
                and frame.f_code.co_name == "next_event"
                and self.is_target(arg)
                and _module(frame.f_back).startswith(RUNNER)
            ):
                self.recording = True  # the source handed the card to the runner
                self.stop_depth, self._calls_at = len(stack), 0
            return
        caller = stack[-1] if stack else ""
        if tid == self.main:
            if self.recording and self.stop_depth is not None and len(stack) == self.stop_depth:
                self._calls_at += 1
                if self._calls_at == 2:  # the card's handling returned: the next call
                    self.recording, self.stop_depth = False, None
            stack.append(mod)
            if self.recording and mod:
                self._count(self.walk, mod, caller, stack, frame)
            return
        stack.append(mod)
        if frame.f_code.co_name == "read" and mod.startswith("drivers.transport"):
            if self.rx_has_card and self.rx_walk is None:
                self.rx_walk = self.rx_turn  # the turn that brought the card is over
            self.rx_turn, self.rx_has_card = Walk(), False
        if mod:
            self._count(self.rx_turn, mod, caller, stack, frame)

    @staticmethod
    def _count(walk: Walk, mod: str, caller: str, stack: list[str], frame: FrameType) -> None:
        walk.modules.add(mod)
        if caller != mod:
            walk.calls_in += 1
            if mod in stack[:-1]:
                walk.reentered += 1
                walk.where.append(f"{mod} from {caller or 'a library'}: {_frames(frame)}")
                walk.runner_reentered += mod.startswith(RUNNER)
            if mod.startswith(RUNNER) and not caller.startswith(RUNNER):
                walk.runner_entries += 1


def _follow(tracer: Tracer, deck: str, index: int) -> None:
    tracer.target = (deck, index)
    tracer.recording, tracer.stop_depth = False, None
    tracer.walk, tracer.rx_walk = Walk(), None


def _run(
    game: str, hands: int, play: Callable[[Any, Tracer, int], Walk | None]
) -> list[tuple[Walk, Walk]]:
    out: list[tuple[Walk, Walk]] = []
    tracer = Tracer()
    with tempfile.TemporaryDirectory() as tmp:
        emu = EmulatorProcess(["--seed", "5", "--shuffle-time", "0.005", "--card-interval", "0.05"])
        journal = Journal(str(Path(tmp) / "journal.db"))
        where = emu.start()
        threading.setprofile(tracer.profile)
        sys.setprofile(tracer.profile)
        try:
            source = open_source(where, name="serial")
            journal.open()
            source.open()
            config = load_table_config(game=game)
            for i in range(hands):
                walk = play((config, source, journal), tracer, i)
                if walk is not None and tracer.rx_walk is not None:
                    out.append((tracer.rx_walk, walk))
            source.close()
            journal.close()
        finally:
            sys.setprofile(None)
            threading.setprofile(None)  # type: ignore[arg-type]
            emu.stop()
    return out


def _uth(table_args: tuple[Any, Any, Any], tracer: Tracer, i: int) -> Walk | None:
    from dealer_assist.engine.views import Phase
    from dealer_assist.table.driving import HeadlessTable

    config, source, journal = table_args
    table = getattr(_uth, "table", None) or HeadlessTable(config, source, journal)
    _uth.table = table  # type: ignore[attr-defined]
    hand = table.new_hand()
    seats = (1, 2, 3)
    for seat in seats:
        first = config.limits[hand.game.required_boxes[0]].minimum  # UTH: Blind = Ante
        hand.place_bets(seat, dict.fromkeys(hand.game.required_boxes, first))
    # UTH deals every card after the bets: the board, the seats', the dealer's two; the last
    # one (the dealer's second) is the one followed, of whatever deck the device shuffled
    _follow(tracer, "", len(hand.game.initial_deal(list(seats))))
    table.close_bets()
    while hand.phase is Phase.DECISIONS:
        decisions = [(s, hand.legal_actions(s)[-1]) for s in hand.seats_to_act]
        table.act_many(decisions, advance=True)
    card_walk = tracer.walk
    tracer.recording = True  # the dealer's steps that take the card to the settlement
    table.reveal()
    table.settle()
    tracer.recording = False
    return card_walk if hand.phase is Phase.SETTLED else None


def _holdem(table_args: tuple[Any, Any, Any], tracer: Tracer, i: int) -> Walk | None:
    from dealer_assist.table.peer_driving import HeadlessPeerTable

    config, source, journal = table_args
    table = getattr(_holdem, "table", None)
    if table is None:
        table = HeadlessPeerTable(config, source, journal)
        table.runner.seat_player(1, "Ada", 20000)
        table.runner.seat_player(2, "Bo", 20000)
        table.runner.set_button(1)
        _holdem.table = table  # type: ignore[attr-defined]
    for seat in (1, 2):  # every hand all-in: stacks back to the buy-in
        stack = table.session.seats[seat].stack if table.session else 20000
        if stack < 20000:
            table.runner.top_up(seat, 20000 - stack)
    hand = table.new_hand()
    table.wait_for_turn(hand)
    seat = hand.actor
    space = hand.legal(seat)
    table.act(seat, "raise" if "raise" in space.kinds else "bet", space.amount.maximum)
    table.wait_for_turn(hand)
    # the river: the last card of a run-out (flop 3 + turn + river, burns before each street)
    deck = hand.cards[-1].deck_id
    _follow(tracer, deck, hand.cards[-1].index + 8)
    table.act(hand.actor, "call")
    table.driver.until(lambda: hand.is_over, 30.0)
    tracer.recording = False
    return tracer.walk if hand.status == "settled" else None


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument(
        "--where", action="store_true", help="print each re-entry of the last hand and its frames"
    )
    args = ap.parse_args()
    for game, play in ((DEFAULT_GAME, _uth), (POT_GAME_CODES[0], _holdem)):
        walks = _run(game, args.hands, play)
        if not walks:
            print(f"{game}: no hand followed")
            continue
        rows = []
        for rx, table in walks:
            both = Walk()
            both.add(rx)
            both.add(table)
            rows.append((both, rx, table))

        def med(f: Callable[[tuple[Walk, Walk, Walk]], int], rows: list[Any] = rows) -> float:
            return statistics.median(f(r) for r in rows)

        print(
            f"{game} card ({len(rows)} hands): modules {med(lambda r: len(r[0].modules)):g} "
            f"(receive thread {med(lambda r: len(r[1].modules)):g}, table thread "
            f"{med(lambda r: len(r[2].modules)):g}), calls in {med(lambda r: r[0].calls_in):g}, "
            f"re-entered {med(lambda r: r[0].reentered):g}, runner entries "
            f"{med(lambda r: r[0].runner_entries):g} (re-entered "
            f"{med(lambda r: r[0].runner_reentered):g})"
        )
        print("  modules: " + " ".join(sorted(rows[-1][0].modules)))
        if args.where:
            for where in rows[-1][0].where:
                print("  re-entered: " + where)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
