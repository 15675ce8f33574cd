"""The tournament screens' texts through Qt's translation (``ui/console/texts.py`` explains the
rules lupdate needs: literals in ``tr``/``trf``/``QT_TRANSLATE_NOOP``). Italian:
``ui/i18n/it_tournament.py``. Amounts: money with :func:`ui.kit.format.money`, chips with
:func:`chips` (grouped in the language's way)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from dealer_assist.errors import ConfigError
from dealer_assist.games import get_pot_game
from dealer_assist.games.pot_types import PotGame
from dealer_assist.tournament.structure import Level
from ui.kit import format as fmt
from ui.kit.translate import tr, trf

# the pot games' titles (their plug-ins' ``title``), here for lupdate to collect
_GAME_TITLES = (
    QT_TRANSLATE_NOOP("", "Seven Card Stud"),
    QT_TRANSLATE_NOOP("", "Texas Hold'em"),
)
_BETTING = {
    "fixed_limit": QT_TRANSLATE_NOOP("", "Fixed limit"),
    "pot_limit": QT_TRANSLATE_NOOP("", "Pot limit"),
    "no_limit": QT_TRANSLATE_NOOP("", "No limit"),
}


def chips(n: int) -> str:
    """A chip count: ``12,500`` (``12.500`` in Italian)."""
    return fmt.amount(n * 100, cents=False)


def _plugin(game: str) -> PotGame | None:
    """The pot game's plug-in; None for an unknown code (shown as given, with blinds)."""
    try:
        return get_pot_game(game)
    except ConfigError:
        return None


def _no_blinds(game: str) -> bool:
    """A game without a button has no blinds: limits and a bring-in (Stud, rules text 002)."""
    plugin = _plugin(game)
    return plugin is not None and not plugin.has_button


def game_line(game: str, betting: str) -> str:
    """``Seven Card Stud · Fixed limit``."""
    plugin = _plugin(game)
    title = plugin.title if plugin is not None else game
    return f"{tr(title)} · {tr(_BETTING.get(betting, betting))}"


def blinds(game: str, lv: Level) -> str:
    """``Limits 100 / 200`` (Stud: small and big limit) or ``Blinds 50 / 100`` (Hold'em)."""
    if _no_blinds(game):
        return trf("Limits %1 / %2", chips(lv.small), chips(lv.big))
    return trf("Blinds %1 / %2", chips(lv.small), chips(lv.big))


def forced(game: str, lv: Level) -> str:
    """``Ante 25 · Bring-in 25`` (Stud), ``Ante 25`` or ``No ante``."""
    parts = [trf("Ante %1", chips(lv.ante)) if lv.ante else tr("No ante")]
    if _no_blinds(game) and lv.bring_in:
        parts.append(trf("Bring-in %1", chips(lv.bring_in)))
    return " · ".join(parts)


def level_amounts(game: str, lv: Level) -> str:
    """Blinds or limits, the ante and (Stud) the bring-in on one line."""
    return f"{blinds(game, lv)} · {forced(game, lv)}"


def place_name(place: int) -> str:
    """``1st``... in English, ``1°`` in Italian."""
    if tr("%1st") == "%1st":  # English ordinals
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
        return f"{place}{suffix}"
    return trf("%1st", place)


CONFIRM = {  # the director confirms a purchase before it is journaled
    "rebuy": QT_TRANSLATE_NOOP("", "Confirm the rebuy for %1: %2 for %3 chips?"),
    "addon": QT_TRANSLATE_NOOP("", "Confirm the add-on for %1: %2 for %3 chips?"),
}
TAKEN_BACK = {
    "rebuy": QT_TRANSLATE_NOOP(
        "", "Rebuy of %1 taken back: %2 refunded, %3 chips off (authorised by %4)"
    ),
    "addon": QT_TRANSLATE_NOOP(
        "", "Add-on of %1 taken back: %2 refunded, %3 chips off (authorised by %4)"
    ),
}
