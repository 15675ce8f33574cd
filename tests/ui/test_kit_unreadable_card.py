"""The unreadable card's readings at both consoles (ui/kit/unreadable_card.py): the dealer's
Identify, the pit boss's pad and Confirm, a fresh pad at the pit boss's turn, a shared entry."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.cards import parse_card
from dealer_assist.engine.state import Position
from ui.kit.commands import Confirm, Identify
from ui.kit.pin_entry import PitBossEntry
from ui.kit.unreadable_card import UnreadableCard

SEAT2 = Position("seat", 1, seat=2)
CARD = parse_card("Qh")


@dataclass(frozen=True)
class Snap:
    """What a console's snapshot says of the unreadable card."""

    ident_position: Position | None = SEAT2
    ident_entered: bool = False
    pin_required: bool = True


def test_the_dealers_reading_is_an_identify_and_the_pad_waits_for_the_pit_boss() -> None:
    u = UnreadableCard()
    entry = u.entry(Snap(), waiting=False)
    assert (entry.mode, entry.position) == ("identify", SEAT2)
    make = u.reading(entry, CARD)
    assert make is not None and make(7) == Identify(7, card=CARD)
    assert not u.key(Snap(), "1")  # the pit boss's pad waits for the dealer's reading
    assert u.pad.badge == ""


def test_the_pit_boss_confirms_with_badge_and_pin_and_the_pin_is_taken() -> None:
    u, snap = UnreadableCard(), Snap(ident_entered=True)
    for key in ("4", "2", "next", "9", "9", "next"):
        assert u.key(snap, key)
    entry = u.entry(snap, waiting=True)
    assert (entry.mode, entry.badge, entry.pin_len, entry.pin_field) == ("confirm", "42", 2, "card")
    assert entry.waiting and entry.pin_required
    make = u.reading(entry, CARD)
    assert make is not None and make(8) == Confirm(8, card=CARD, badge="42", pin="99")
    assert (u.pad.badge, u.pad.pin_len) == ("42", 0)  # the badge stays for a card typed again
    assert u.reading(u.entry(snap, waiting=False), CARD) is None  # no PIN now: refused


def test_without_a_roster_the_badge_alone_confirms_and_none_refuses() -> None:
    u, snap = UnreadableCard(), Snap(ident_entered=True, pin_required=False)
    assert u.reading(u.entry(snap, waiting=False), CARD) is None  # no badge
    u.key(snap, "5")
    u.key(snap, "next")
    assert u.pad.field == "card"  # the PIN skipped
    make = u.reading(u.entry(snap, waiting=False), CARD)
    assert make is not None and make(1) == Confirm(1, card=CARD, badge="5", pin="")


def test_the_pit_boss_turn_starts_a_fresh_pad_on_the_shared_entry() -> None:
    shared = PitBossEntry()
    u = UnreadableCard(shared)
    shared.key("badge", "3")
    u.pad.field = "pin"
    assert not u.follow(Snap(ident_entered=True), Snap(ident_entered=True))  # the same turn
    assert shared.badge == "3"
    assert u.follow(Snap(), Snap(ident_entered=True))
    assert (shared.badge, u.pad.field) == ("", "badge")
