"""``console --game holdem|stud --demo N --screenshot DIR``: the poker console plays scripted
hands by itself on the keypad card source (the cards typed from a stacked deck, so the hands are
known; each game's hands in its module of :mod:`ui.poker.demo_hands`: Hold'em a side pot, a
split pot with an odd chip and a muck, a refused amount and an undo, a void; Stud a bring-in
folded and a completion with odd chips by suit, eight players to a community card, a side pot)
and saves screenshots of each interesting step, at 1920x1080 and 1280x800, in both languages.

It taps the presenter as the dealer taps the screen (the double-tap guard gets a clock that
moves a second per tap: the demo taps faster than a dealer).
"""

from __future__ import annotations

import importlib
import itertools
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtWidgets import QApplication

from dealer_assist.cards import FULL_DECK, Card, parse_card
from dealer_assist.config import TableConfig
from dealer_assist.errors import DealerAssistError
from dealer_assist.games import get_pot_game
from dealer_assist.storage.journal import Journal
from drivers.manual import ManualSource
from ui.kit.boot import demo_journal_path
from ui.kit.service_parts import ServiceParts
from ui.poker.app import PokerConsole
from ui.poker.snapshot import BET_KINDS, FORCED_KIND, PokerSnapshot

SIZES = ((1920, 1080), (1280, 800))
PASSIVE = ("check", "call", FORCED_KIND)
"""What a seat with no scripted action does: check, call, or post the forced bet it decides."""


@dataclass(frozen=True)
class Script:
    """One scripted hand.

    Attributes:
        name: its name (the screenshots').
        holes: seat -> its cards in deal order (``KsKd``; ``??`` for a card left to the deck).
        board: the board cards in order (a community card too), ``??`` as in ``holes``.
        actions: ``(street index, seat)`` -> its actions on that street in order, comma
            separated (``raise:max``, ``bet:2500``, ``call``, ``aggr``: bet, raise or complete
            whichever is open, else check or call); no action scripted: check, call or post.
        shows: showdown ``seat -> show`` (default: show).
        shots: ``(street index, seat)`` to take screenshots at before that seat acts (seat 0:
            whoever acts first on the street); None: the first actor of the first two streets.
    """

    name: str
    holes: dict[int, str]
    board: str
    actions: dict[tuple[int, int], str]
    shows: dict[int, bool] = field(default_factory=dict)
    shots: tuple[tuple[int, int], ...] | None = None


def hands_for(game: str) -> tuple[tuple[tuple[int, str, int], ...], tuple[Script, ...]]:
    """The players and scripted hands of ``game`` (its :mod:`ui.poker.demo_hands` module).

    Raises:
        DealerAssistError: the game has no demo hands.
    """
    try:
        module = importlib.import_module(f"ui.poker.demo_hands.{game}")
    except ModuleNotFoundError as e:
        raise DealerAssistError(f"demo: no scripted hands for the game {game!r}") from e
    return tuple(module.PLAYERS), tuple(module.HANDS)


class PokerDemo:
    """Plays the scripted hands on one console (``console``: a started PokerConsole)."""

    def __init__(self, app: QApplication, console: PokerConsole, shots: Path | None, lang: str):
        self.app = app
        self.c = console
        self.p = console.presenter
        self.p.clock = itertools.count(0.0, 1.0).__next__
        self.shots = shots
        self.lang = lang
        self.saved: list[Path] = []
        self._entered: set[tuple[str, str]] = set()
        self._plan: dict[tuple[int, int], list[str]] = {}
        self._shot_kinds: set[str] = set()
        game = get_pot_game(console.config.game)
        self.streets = [st.name for st in game.streets]
        self.has_button = bool(getattr(game, "has_button", True))
        self.players, self.hands = hands_for(console.config.game)

    @property
    def snap(self) -> PokerSnapshot:
        """The snapshot the screen shows."""
        return self.p.snap

    def wait(self, pred: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
        """Process Qt events until ``pred()`` (DealerAssistError after ``timeout`` s)."""
        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                raise DealerAssistError(f"demo: timed out waiting for {what}")
            self.app.processEvents()
            time.sleep(0.005)
        self.app.processEvents()

    def settle(self) -> None:
        """Wait for the answers to every command sent."""
        self.wait(lambda: not self.p.view().busy, "the table's answer")

    def shot(self, name: str) -> None:
        """Screenshots of the window at both sizes."""
        if self.shots is None:
            return
        self.shots.mkdir(parents=True, exist_ok=True)
        win = self.c.window
        for w, h in SIZES:
            win.resize(w, h)
            for _ in range(3):  # the resize, then the layouts it asks for
                self.app.processEvents()
            path = self.shots / f"{len(self.saved) // 2 + 1:02d}-{name}-{self.lang}-{w}x{h}.png"
            win.grab().save(str(path))
            self.saved.append(path)

    def run(self, hands: int) -> list[str]:
        """Seat the players, play ``hands`` scripted hands; a line per hand."""
        self.wait(lambda: self.snap.device.connected, "the card source")
        self.shot("empty-table")
        for seat, name, stack in self.players:
            self.p.tap_seat(seat)
            self.p.set_name(name)
            for chip in sorted(self.c.config.chips, reverse=True):
                while self.p.amount + chip <= stack:
                    self.p.tap_chip(chip)
            self.p.tap_seat_player()
            self.settle()
        if self.has_button:
            self.p.tap_seat(1)
            self.p.tap_seat_change("button")
            self.settle()
        self.p.tap_seat(3)
        self.shot("between-hands")
        self.p.tap_seat(3)
        out = []
        for script in itertools.islice(itertools.cycle(self.hands), hands):
            out.append(self.play(script))
        return out

    def play(self, s: Script) -> str:
        """One scripted hand, to its award (or its void alarm)."""
        self.p.tap_new_hand()
        self.wait(lambda: self.snap.in_hand, "the new hand")
        uid = self.snap.hand_uid
        deck = self._deck(s)
        self._plan = {k: v.split(",") for k, v in s.actions.items()}  # each run from the start
        shot_taken: set[str] = set()
        while self.snap.in_hand and self.snap.hand_uid == uid:
            snap = self.snap
            if snap.new_deck:  # the deck ran short: the burns are loaded, then shuffled
                if not snap.reshuffling:
                    self.shot(f"{s.name}-deck-short")
                    self.p.tap_reshuffle()
                    self.settle()
                self.wait(
                    lambda: not self.snap.new_deck or not self.snap.in_hand, "the burns shuffled"
                )
                continue
            if snap.pending:
                if "manual" not in self._shot_kinds and self.p.step() == "manual":
                    self._shot_kinds.add("manual")
                    self.shot("manual-entry")
                for pos in snap.pending:
                    if (uid, pos) not in self._entered:
                        self._entered.add((uid, pos))
                        self.c.service.enter_card(deck[pos] if pos in deck else deck.pop("next"))
                before = snap.pending
                self.wait(
                    lambda: self.snap.pending != before or not self.snap.in_hand,  # noqa: B023
                    "the cards",
                )
                continue
            legal = snap.legal
            if legal is None:
                last = snap
                self.wait(lambda: self.snap != last, "the table")  # noqa: B023
                continue
            key = f"{s.name}-{snap.street}"
            street = self.streets.index(snap.street) if snap.street in self.streets else -1
            if s.name == "void" and street == 1:
                self.p.tap_void()
                self.shot("void-confirm")
                self.p.tap_void()
                self.settle()
                self.wait(lambda: self.p.step() == "void", "the void alarm")
                self.shot("void-alarm")
                self.p.tap_ack()
                self.settle()
                return f"{s.name}: void, acknowledged"
            if s.shots is not None and snap.phase != "showdown":
                first = key not in shot_taken
                shot_taken.add(key)
                at = {(street, legal.seat)} | ({(street, 0)} if first else set())
                for where in sorted(at & set(s.shots)):
                    if f"{key}-{where[1]}" not in shot_taken:
                        shot_taken.add(f"{key}-{where[1]}")
                        seat = f"-seat{where[1]}" if where[1] else ""
                        self.shot(f"{s.name}-{snap.street}{seat}")
            elif (key not in shot_taken and street in (0, 1)) or (
                snap.phase == "showdown" and "showdown" not in shot_taken
            ):
                shot_taken.add(key if snap.phase != "showdown" else "showdown")
                self.shot(f"{s.name}-{snap.phase if snap.phase == 'showdown' else snap.street}")
            if snap.phase == "showdown" and "showdown" not in shot_taken:
                shot_taken.add("showdown")
                self.shot(f"{s.name}-showdown")
            self._act(s, snap)
            self.settle()
        self.wait(lambda: self.p.step() in ("settled", "between", "void"), "the award")
        self.shot(f"{s.name}-award")
        awards = "; ".join(
            f"pot {a.index}: {[(w.seat, w.amount) for w in a.winners]}" for a in self.snap.awards
        )
        self.p.tap_done()
        return f"{s.name}: {awards}; stacks after {list(self.snap.after)}"

    def _act(self, s: Script, snap: PokerSnapshot) -> None:
        legal = snap.legal
        if legal is None:
            return
        if snap.phase == "showdown":
            self.p.tap_show(s.shows.get(legal.seat, True))
            return
        street = self.streets.index(snap.street) if snap.street in self.streets else -1
        todo = self._plan.get((street, legal.seat), [])
        plan = todo.pop(0) if todo else ""
        if plan == "aggr":
            kind = next((k for k in legal.kinds if k in BET_KINDS), None)
            if kind is not None:
                self.p.tap_min()
                self.p.tap_action(kind)
                return
            plan = ""
        if plan == "undo_call":
            self.p.tap_action("call")
            self.settle()
            self.shot(f"{s.name}-undo")
            self.p.tap_undo()
            self.settle()
            self.p.tap_action("fold")
            return
        if plan == "small_raise" and legal.minimum is not None:
            self.p.tap_clear()
            self.p.tap_chip(min(self.c.config.chips))
            self.p.tap_action(legal.bet_kind or "raise")
            self.shot(f"{s.name}-refused")
            self.p.tap_min()
            self.p.tap_action(legal.bet_kind or "raise")
            return
        kind, _, amount = plan.partition(":")
        if kind in ("raise", "bet") and legal.bet_kind is not None:
            if amount == "max":
                self.p.tap_all_in()
            else:
                self.p.tap_clear()
                self.p.tap_chip(int(amount))
            self.p.tap_action(legal.bet_kind)
            return
        if kind in legal.kinds:
            if kind in BET_KINDS and legal.only is None:
                self.p.tap_min()
            self.p.tap_action(kind)
            return
        self.p.tap_action(next((k for k in PASSIVE if k in legal.kinds), "fold"))

    def _deck(self, s: Script) -> _Deck:
        """Position -> card for the scripted places; ``next`` pops the burns from the rest."""
        out: dict[str, Card] = {}
        places = [(f"seat {seat} card", text) for seat, text in s.holes.items()]
        for where, text in [*places, ("board", s.board)]:
            for n in range(1, len(text) // 2 + 1):
                part = text[2 * n - 2 : 2 * n]
                if part != "??":
                    out[f"{where} {n}"] = parse_card(part)
        used = set(out.values())
        rest = [c for c in FULL_DECK if c not in used]
        return _Deck(out, rest)


class _Deck(dict[str, Card]):
    """The scripted cards; ``pop("next")`` gives the next unscripted card (a burn)."""

    def __init__(self, cards: dict[str, Card], rest: list[Card]) -> None:
        super().__init__(cards)
        self.rest = rest

    def pop(self, key: str, *default: Card) -> Card:  # type: ignore[override]
        if key == "next":
            return self.rest.pop()
        return super().pop(key, *default)


def run_demo(
    app: QApplication,
    config: TableConfig,
    hands: int,
    shots: Path | None,
    *,
    size: tuple[int, int],
    db: str | None,
    seed: int,
    langs: tuple[str, ...],
) -> int:
    """Play ``hands`` scripted hands once per language; 0 when every hand went as scripted."""
    status = 0
    for lang in langs:
        url = db or str(demo_journal(shots, lang))
        console = PokerConsole(
            ServiceParts(config, lambda: ManualSource(name="manual"), Journal(url)), lang=lang
        )
        console.window.resize(*size)
        console.window.show()
        console.start()
        demo = PokerDemo(app, console, shots, lang)
        try:
            for line in demo.run(hands):
                print(f"[{lang}] {line}")
        except DealerAssistError as e:
            print(f"[{lang}] demo failed: {e}")
            status = 1
        console.close()
        console.window.deleteLater()
        app.processEvents()
        print(f"[{lang}] {len(demo.saved)} screenshots" + (f" in {shots}" if shots else ""))
    del seed  # the hands are scripted
    return status


def demo_journal(screenshot_dir: Path | None, lang: str) -> Path:
    """The demo's own journal for ``lang`` (never the table's)."""
    base = demo_journal_path(screenshot_dir)
    path = base.with_name(f"poker-demo-{lang}.db")
    if path.exists():
        path.unlink()
    print(f"poker demo hands journaled in {path}", file=sys.stderr)
    return path
