"""pokerkit as the oracle of our PHH export: replay a hand, compare its end stacks with ours.

Used by tests/test_phh_stud.py and bench/phh_replay.py. A hand is ``same`` (pokerkit's stacks
are the settlement's), ``odd chips`` (they differ only by how split pots' odd chips go: pokerkit
gives a pot's whole remainder, in units of 1, to one winner), one of the rule differences of
docs/PHH.md "Where GAMES.md differs from pokerkit" that pokerkit refuses, or anything else
(a failure of the mapping).
"""

from __future__ import annotations

import warnings
from typing import Any

OPEN_PAIR = "an open pair bets the big bet on fourth street (rules text 002; not in pokerkit)"
BRING_IN_FOLD = "the bring-in folds (rules text 002; pokerkit: post the bring-in or complete)"
AGREES = ("same", "odd chips")
RULE_DIFFERENCES = (OPEN_PAIR, BRING_IN_FOLD)


def replay(pk: Any, phh: dict[str, Any]) -> list[int]:
    """pokerkit's end stacks of one PHH hand (a dict read from our export): its
    ``HandHistory`` state, every action applied as written (no repair). Raises ValueError
    (pokerkit's refusal) with the action refused in ``args[1]``."""
    fields = {k: v for k, v in phh.items() if not k.startswith("_")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # cards "not recommended" (the deck's own)
        state = pk.HandHistory(**fields).create_state()
        for action in phh["actions"]:
            try:
                while state.can_burn_card():
                    state.burn_card("??")
                pk.notation.parse_action(state, action)
            except ValueError as e:
                raise ValueError(str(e), action, state.street_index) from e
    if state.status:
        raise ValueError("the hand is not over after the last action", "", state.street_index)
    return list(state.stacks)


def classify(pk: Any, phh: dict[str, Any], settlement: dict[str, Any]) -> str:
    """How pokerkit replays ``phh`` against our ``settlement`` (HAND_RECORD.md)."""
    order = list(phh["seats"])
    ours = {s["seat"]: s["stack"] for s in settlement["seats"]}
    try:
        theirs = dict(zip(order, replay(pk, phh), strict=True))
    except ValueError as e:
        reason, action, street = (*e.args, None, None)[:3]
        words = str(action).split()
        big = phh.get("big_bet")
        if phh["variant"] == "F7S" and street == 1 and words[1:] == ["cbr", str(big)]:
            return OPEN_PAIR
        if "must post a bring-in or complete" in str(reason) and words[1:] == ["f"]:
            return BRING_IN_FOLD
        return f"pokerkit refuses {action!r}: {reason}"
    if theirs == ours:
        return "same"
    chip = int(phh.get("_chip", 1))
    slack: dict[int, int] = {}
    for pot in settlement["pots"]:
        winners = pot["winners"]
        if len(winners) > 1:
            for w in winners:
                slack[w["seat"]] = slack.get(w["seat"], 0) + chip * len(winners)
    if sum(theirs.values()) == sum(ours.values()) and all(
        abs(theirs[s] - ours[s]) <= slack.get(s, 0) for s in order
    ):
        return "odd chips"
    return f"stacks differ: ours {[ours[s] for s in order]}, pokerkit {[theirs[s] for s in order]}"
