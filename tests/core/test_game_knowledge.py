"""Game knowledge lives in the game modules only.

Every Python module under ``dealer_assist/``, ``drivers/``, ``ui/`` and ``bench/`` outside the
game package ``dealer_assist/games/`` is parsed, and a string literal that is exactly a game code
(:data:`dealer_assist.games.GAME_CODES`), a box name or a street name of any game fails the test
with its ``file:line``. Such code reads the game instead (``GameRules.box_rows``,
``followed_boxes``, ``box_titles``, ``default_paytables``, ``strategy``...).

What is exempt, and why:

- ``dealer_assist/games/``: the game plug-ins are where this knowledge belongs.
- Docstrings (the first statement of a module, class or function): they explain, with examples
  such as ``ante -> Ante``; they are never compared against.
- Texts that merely contain a name (``"config/uth.toml"``, ``"Turn the flop"``, help texts): the
  match is on the whole literal, case-sensitively, the way code compares codes. English titles
  (``"Ante"``) and their translations (``ui/i18n/update.py``) are texts, not codes.
- Data files (``config/*.toml``, ``bench/*.json``, the ``ui/i18n`` catalogues) and the tests: data
  and checks, not code that decides by game.
- :data:`ALLOWED`: a name in one module where it means something else than a game's box or
  street, each with its reason (a file and a name, never a whole module).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from pathlib import Path

from dealer_assist.engine.rules import Action, GameRules
from dealer_assist.games import DEFAULT_GAME, GAME_CODES, POT_GAME_CODES, get_game, get_pot_game

ROOT = Path(__file__).parent.resolve().parent.parent
SCANNED = ("dealer_assist", "drivers", "ui", "bench")
GAMES_PACKAGE = ROOT / "dealer_assist" / "games"

ALLOWED = {
    ("dealer_assist/engine/operations.py", "ante"): (
        "the journal schema's kinds of forced bet of the peer games (ante, blinds, bring-in: "
        "poker vocabulary of the operation types), not the Ante box of UTH or THB"
    ),
    ("dealer_assist/pitboss/pot_replay.py", "ante"): (
        "the Hold'em record's forced-bet field (HAND_RECORD.md \"Pot games\": the ante each seat "
        "posts, poker vocabulary like the operations' forced-bet kinds), not the Ante box of UTH "
        "or THB"
    ),
    ("dealer_assist/pitboss/stud_replay.py", "ante"): (
        'the Stud record\'s forced-bet field (HAND_RECORD.md "Pot games": the ante every player '
        "posts), as in pot_replay.py, not the Ante box of UTH or THB"
    ),
    ("bench/settle_identity.py", "uth"): (
        "the bench's random-record generators keyed by the game code the records carry"
    ),
    ("bench/settle_identity.py", "thb"): (
        "the bench's random-record generators keyed by the game code the records carry"
    ),
    ("bench/settle_identity.py", "holdem"): (
        "the bench's random-record generators keyed by the game code the records carry"
    ),
    ("bench/settle_identity.py", "stud"): (
        "the bench's random-record generators keyed by the game code the records carry"
    ),
    ("bench/settle_identity.py", "ante"): (
        "the record field it spoils to compare refusals, not a game's box"
    ),
}
"""(module, name) -> why that module may spell that name."""


def _decision_paths(game: GameRules) -> Iterator[list[Action]]:
    """Every sequence of decisions a seat can take, street by street (prefixes included)."""

    def walk(previous: list[Action], index: int) -> Iterator[list[Action]]:
        yield previous
        if index >= len(game.streets):
            return
        for action in game.legal_actions(game.streets[index].name, previous):
            yield from walk([*previous, action], index + 1)

    yield from walk([], 0)


def boxes_of(game: GameRules) -> set[str]:
    """The game's boxes: placed before the deal, filled by its decisions, drawn, paid by a table."""
    boxes = set(game.required_boxes + game.optional_boxes)
    bets = dict.fromkeys(boxes, 1)
    for path in _decision_paths(game):
        for action in path:
            stake = game.stake_of(action, bets)
            if stake is not None:
                boxes.add(stake[0])
    boxes.update(b for row in game.box_rows for b in row)
    boxes.update(game.followed_boxes)
    boxes.update(game.followed_boxes.values())
    boxes.update(game.default_paytables)
    return boxes


def game_names() -> dict[str, str]:
    """name -> what it is (``game code``, ``box of uth``, ``street of thb``...)."""
    names: dict[str, str] = {}
    for code in GAME_CODES:
        game = get_game(code)
        names[code] = "game code"
        for street in game.streets:
            names.setdefault(street.name, f"street of {code}")
        names.setdefault(game.showdown_step, f"dealer step of {code}")
        for box in sorted(boxes_of(game)):
            names.setdefault(box, f"box of {code}")
    for code in POT_GAME_CODES:  # the pot games (Hold'em): their code and street names
        names[code] = "game code"
        for street in get_pot_game(code).streets:
            names.setdefault(street.name, f"street of {code}")
    return names


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the docstring nodes of the module and of every class and function in it."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            value = first.value if isinstance(first, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                out.add(id(value))
    return out


def modules() -> list[Path]:
    """The Python modules checked (sorted)."""
    found = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if GAMES_PACKAGE in path.parents:
                continue
            found.append(path)
    return found


def offences(path: Path, names: dict[str, str], root: Path = ROOT) -> list[str]:
    """``file:line: 'name' (what it is)`` for every string literal of ``path`` that is a name
    (``file`` relative to ``root``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        where = path.relative_to(root)
        if (
            id(node) not in skip
            and node.value in names
            and (where.as_posix(), node.value) not in ALLOWED
        ):
            found.append(f"{where}:{node.lineno}: {node.value!r} ({names[node.value]})")
    return found


def test_the_names_are_known() -> None:
    """The check knows every game's codes, boxes and streets (a failure here means the scan
    below would look for nothing)."""
    names = game_names()
    assert set(GAME_CODES) <= set(names)
    assert DEFAULT_GAME in GAME_CODES
    for code in GAME_CODES:
        game = get_game(code)
        assert {s.name for s in game.streets} <= set(names)
        assert set(game.required_boxes + game.optional_boxes) <= set(names)
    # the boxes the decisions fill are found too (UTH Play, THB Flop/Turn/River)
    assert {"play", "flop", "turn", "river"} <= set(names)
    for code in POT_GAME_CODES:
        assert code in names
        assert {s.name for s in get_pot_game(code).streets} <= set(names)


def test_no_game_knowledge_outside_the_games() -> None:
    """No game code, box name or street name as a string literal outside dealer_assist/games."""
    names = game_names()
    found = [line for path in modules() for line in offences(path, names)]
    assert not found, "game knowledge outside dealer_assist/games:\n" + "\n".join(found)


def test_the_check_finds_a_name(tmp_path: Path) -> None:
    """A literal box name in code is reported with file and line; a docstring is not."""
    src = tmp_path / "probe.py"
    src.write_text('"""Boxes: \'ante\'."""\n\nBOX = "ante"\nTITLE = "Ante"\n', encoding="utf-8")
    assert offences(src, game_names(), tmp_path) == ["probe.py:3: 'ante' (box of uth)"]


def test_titles_agree_between_games() -> None:
    """The console titles a code the same way in every game (its texts look codes up across
    games where no game is at hand), and every box, street and decision has a title."""
    seen: dict[tuple[str, str], str] = {}
    for code in GAME_CODES:
        game = get_game(code)
        tables: Sequence[tuple[str, dict[str, str]]] = (
            ("box", dict(game.box_titles)),
            ("street", dict(game.street_titles)),
        )
        for kind, table in tables:
            for key, title in table.items():
                assert seen.setdefault((kind, key), title) == title, (code, kind, key)
        assert set(boxes_of(game)) <= set(game.box_titles), code
        assert {s.name for s in game.streets} <= set(game.street_titles), code
        kinds = {a.action for path in _decision_paths(game) for a in path}
        assert kinds <= set(game.action_titles), code


def test_every_dealing_step_is_named_and_titled() -> None:
    """A game that deals before the showdown names that step; every step the dealer's big
    button can show (the streets after the first, the showdown deal) has its text, and the
    console has room for the most decisions a seat chooses among."""
    for code in GAME_CODES:
        game = get_game(code)
        steps = [s.name for s in game.streets[1:]]
        if game.deal_before_showdown([1]):
            assert game.showdown_step is not None, code
            steps.append(game.showdown_step)
        assert set(steps) <= set(game.step_titles), code
        first = game.legal_actions(game.streets[0].name, [])
        assert game.most_choices >= len(first) > 0, code
        assert game.stake_actions <= set(game.action_titles), code


def test_every_allowance_is_still_needed() -> None:
    """An allowance that no longer matches anything is removed, not kept in case."""
    for module, name in ALLOWED:
        path = ROOT / module
        assert path.exists(), module
        tree = ast.parse(path.read_text(encoding="utf-8"))
        literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
        assert name in literals, (module, name)
