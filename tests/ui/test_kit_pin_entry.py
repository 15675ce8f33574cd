"""The pit boss's pad of both consoles (ui/kit/pin_entry.py): the badge and the PIN typed, the
order of the fields on an unreadable card's pad and on a sign-off's, one pad with its field."""

from __future__ import annotations

from ui.kit.pin_entry import PIN_DIGITS, PinPad, PitBossEntry, identify_key, signoff_key


def test_identify_pad_goes_badge_pin_card_and_skips_the_pin_when_none_is_needed() -> None:
    entry, field = PitBossEntry(), "badge"
    field = identify_key(entry, field, "next", need_pin=True)
    assert field == "badge"  # an empty badge stays
    for key in "1042":
        field = identify_key(entry, field, key, need_pin=True)
    field = identify_key(entry, field, "next", need_pin=True)
    assert field == "pin" and entry.badge == "1042"
    field = identify_key(entry, field, "next", need_pin=True)
    assert field == "pin"  # an empty PIN stays
    field = identify_key(entry, field, "7", need_pin=True)
    field = identify_key(entry, field, "next", need_pin=True)
    assert field == "card" and entry.pin == "7"
    assert identify_key(entry, field, "5", need_pin=True) == "card"  # the card takes no digit
    assert (entry.badge, entry.pin) == ("1042", "7")
    assert identify_key(entry, "card", "badge", need_pin=True) == "badge"
    assert identify_key(entry, "badge", "pin", need_pin=False) == "badge"  # no PIN field
    assert identify_key(entry, "badge", "next", need_pin=False) == "card"


def test_signoff_pad_sends_badge_and_pin_once_and_forgets_them() -> None:
    entry, field = PitBossEntry(), "badge"
    for key in "3308":
        field, done = signoff_key(entry, field, key)
        assert done is None
    field, done = signoff_key(entry, field, "next")
    assert (field, done) == ("pin", None)
    field, done = signoff_key(entry, field, "next")
    assert (field, done) == ("pin", None)  # no PIN yet
    for key in ("9", "9", "back", "1"):
        field, done = signoff_key(entry, field, key)
    field, done = signoff_key(entry, field, "next")
    assert (field, done) == ("badge", ("3308", "91"))
    assert (entry.badge, entry.pin) == ("", "")


def test_a_pad_keeps_its_own_entry_and_field() -> None:
    pad, other = PinPad(), PinPad()
    for key in "1" * (PIN_DIGITS + 3):
        pad.signoff(key)
    assert pad.badge == "1" * PIN_DIGITS and other.badge == ""
    pad.signoff("next")
    pad.signoff("4")
    assert (pad.field, pad.pin_len) == ("pin", 1)
    assert pad.entry.take_pin() == "4" and pad.badge == "1" * PIN_DIGITS
    pad.identify("next", need_pin=True)  # no PIN: the field stays
    assert pad.field == "pin"
    pad.clear()
    assert (pad.field, pad.badge, pad.pin_len) == ("badge", "", 0)
