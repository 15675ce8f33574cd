"""The banked console's commands are dispatched by their class: every command class has its
handler, and each handler calls the service step it names."""

from __future__ import annotations

import inspect
from typing import Any

from dealer_assist.cards import parse_card
from dealer_assist.engine.rules import Action
from ui.console import commands
from ui.console.commands import Correct, Deal, MarkPaid
from ui.console.dispatch import HANDLERS, execute
from ui.kit import commands as kit_commands
from ui.kit.commands import Command, Confirm, Tick


class Recorder:
    """Stands in for the table service: records the step called and its arguments (the real
    service's steps are covered by the console's tests; here only the routing)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        def step(*args: Any) -> str:
            self.calls.append((name, args))
            return name

        return step


def test_every_command_class_has_a_handler() -> None:
    classes = {
        c
        for module in (commands, kit_commands)
        for _, c in inspect.getmembers(module, inspect.isclass)
        if issubclass(c, Command) and c is not Command
    }
    assert classes == set(HANDLERS)


def test_each_command_reaches_its_step_with_its_fields() -> None:
    card = parse_card("As")
    service = Recorder()
    cases: list[tuple[Command, str, tuple[Any, ...]]] = [
        (Deal(3, {1: {"ante": 10}}), "deal", ({1: {"ante": 10}}, 3)),
        (MarkPaid(4, 6), "mark_paid", (6, 4)),
        (Confirm(5, card, "4711", "1234"), "confirm", (card, "4711", "1234", 5)),
        (
            Correct(6, 2, Action("preflop", "play", 4), "9", "1"),
            "correct_decision",
            (2, Action("preflop", "play", 4), "9", "1", 6),
        ),
        (Tick(7), "tick", ()),
    ]
    for cmd, name, args in cases:
        assert execute(service, cmd) == name  # type: ignore[arg-type]
        assert service.calls[-1] == (name, args)


def test_a_pin_never_shows_in_a_command_repr() -> None:
    cmd = Confirm(1, parse_card("Kd"), "4711", "8642")
    assert "8642" not in repr(cmd) and "Kd" not in repr(cmd) and "4711" in repr(cmd)
