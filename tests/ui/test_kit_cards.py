"""A card typed on the keypad, handed to a real keypad source (ui/kit/cards.py hand_to_source):
taken, refused as a card already in the deck (never named), refused by the device."""

from __future__ import annotations

from dealer_assist.cards import parse_card
from drivers.manual import ManualSource
from ui.kit.cards import hand_to_source


def test_a_typed_card_goes_to_the_source_and_a_refusal_never_names_it() -> None:
    source = ManualSource()
    king = parse_card("Kh")
    assert hand_to_source(source.enter, king) == ("device", "manual is not open")
    source.open()
    try:
        assert hand_to_source(source.enter, king) is None
        refused = hand_to_source(source.enter, king)  # already in this deck
        assert refused == ("card_taken", "") and "K" not in repr(refused)
    finally:
        source.close()
