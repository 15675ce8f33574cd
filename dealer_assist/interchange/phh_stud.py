"""A ``stud`` hand record as a PHH hand history (Seven Card Stud, variant ``F7S``).

PHH (spec 0.0.1) fields of a stud hand: ``variant``, ``antes``, ``bring_in``, ``small_bet`` and
``big_bet`` (fixed limit), ``starting_stacks``, ``actions``. Players are in seat order (p1 the
lowest seat: the deal starts from the dealer's left, GAMES.md "Seven Card Stud"; there is no
button). The cards are dealt as PHH and pokerkit deal them: third street ``d dh pN DDDDUU`` (two
down cards and the door card), then ``d dh pN XX`` for each player still in on fourth to
seventh street; the cards' face (down, down, up, up, up, up, down) follows from the street, as
in the record's ``cards``. The bring-in is ``pN pb``, a completion, bet or raise ``pN cbr TO``
(the player's total in the street), a call or check ``pN cc``.

**The community card** (GAMES.md "Seven Card Stud" 5: the deck ran short on seventh street)
is written as pokerkit deals it: with 8 players still in, one board card ``d db XX`` (pokerkit
turns one when the cards it can deal, folded hands' included, are fewer than the players);
with fewer players pokerkit would deal them hole cards, so the card goes to each as its seventh
card, ``d dh pN XX # community card``, which is how it plays. Both are read back as the
record's ``community`` (:mod:`dealer_assist.interchange.phh_stud_read`).

Other variants: pot-limit and no-limit stud have no PHH code; ``P7S`` and ``N7S`` follow PHH's
naming (readers that know only the listed codes refuse them), with ``min_bet`` the big limit
(GAMES.md: the smallest bet) and the user field ``_limits``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from dealer_assist.cards import Card, parse_card
from dealer_assist.engine.betting import BET, BRING_IN, CALL, CHECK, COMPLETE, FOLD, RAISE
from dealer_assist.errors import InvalidRecordError
from dealer_assist.games.stud import (
    ANTE,
    CARDS_AFTER,
    CODE,
    DECK,
    FACE_UP,
    SEVENTH,
    STREET_NAMES,
    showdown_order,
)
from dealer_assist.interchange.phh_common import (
    UNKNOWN_CARD,
    add_metadata,
    sorted_fields,
    write_unanswerable_raises,
)
from dealer_assist.record import settle_record

STUD_VARIANTS = {"fixed_limit": "F7S", "pot_limit": "P7S", "no_limit": "N7S"}
"""Betting structure -> PHH variant code of Seven Card Stud (``F7S`` is PHH's)."""
STUD_CODES = {
    FOLD: "f",
    CHECK: "cc",
    CALL: "cc",
    BET: "cbr",
    RAISE: "cbr",
    COMPLETE: "cbr",
    BRING_IN: "pb",
}
COMMUNITY_NOTE = "community card"
_SEVENTH = len(STREET_NAMES) - 1


def stud_to_phh(
    record: Mapping[str, Any],
    settlement: Mapping[str, Any] | None = None,
    *,
    hand_id: int | str | None = None,
    table: str | int | None = None,
    time: datetime | None = None,
) -> dict[str, Any]:
    """One ``stud`` hand record as a PHH hand (a dict for
    :func:`~dealer_assist.interchange.phh.dumps_phh`); arguments as
    :func:`~dealer_assist.interchange.phh.record_to_phh`.

    Raises:
        InvalidRecordError: the record does not settle (naming its field), or a ``time``
            without a timezone.
    """
    computed = settle_record(dict(record))  # validates every field read below
    if settlement is None:
        settlement = computed
    if computed["game"] != CODE:
        raise InvalidRecordError("game", "not stud")
    order = sorted(int(p["seat"]) for p in record["players"])
    by_seat = {int(p["seat"]): p for p in record["players"]}
    betting = record["betting"]
    small, big = (int(x) for x in record["limits"])
    ante = int(record.get(ANTE, 0))
    phh: dict[str, Any] = {"variant": STUD_VARIANTS[betting], "antes": [ante] * len(order)}
    phh["bring_in"] = int(record["bring_in"])
    if betting == "fixed_limit":
        phh["small_bet"], phh["big_bet"] = small, big
    else:
        phh["min_bet"] = big
    if ante:
        # antes layered with the rest of the chips by our pots: pokerkit's trimming mode
        phh["ante_trimming_status"] = True
    phh["starting_stacks"] = [int(by_seat[s]["stack"]) for s in order]
    phh["actions"] = _actions(record, order, by_seat)
    write_unanswerable_raises(phh)
    add_metadata(
        phh, order, int(record["seats"]), settlement, hand_id=hand_id, table=table, time=time
    )
    if "chip" in record:
        phh["_chip"] = int(record["chip"])
    if record.get("settings"):
        phh["_settings"] = sorted_fields(record["settings"])
    if betting != "fixed_limit":
        phh["_limits"] = [small, big]
    return phh


def _actions(
    record: Mapping[str, Any], order: list[int], by_seat: Mapping[int, Mapping[str, Any]]
) -> list[str]:
    """The deal street by street, the betting, the showdown (PHH action strings)."""
    index = {s: i + 1 for i, s in enumerate(order)}
    cards = {s: [c or UNKNOWN_CARD for c in by_seat[s]["cards"]] for s in order}
    community = record.get("community")
    if isinstance(community, list):
        community = community[0]
    actions = list(record["actions"])
    folded: set[int] = set()
    live = [s for s in order if all(a["action"] != FOLD or int(a["seat"]) != s for a in actions)]
    last = STREET_NAMES.index(actions[-1]["street"]) if actions else 0
    reached = _SEVENTH if len(live) > 1 else last
    out: list[str] = []
    # pokerkit turns a board card only when the cards not held by players still in (the stub,
    # the burns, the folded hands) are fewer than one each, so never below 8 players
    gone = {int(a["seat"]) for a in actions if a["action"] == FOLD and a["street"] != SEVENTH}
    dealt_seventh = len(order) - len(gone)
    on_board = community is not None and dealt_seventh * CARDS_AFTER[SEVENTH] > DECK
    mucked = set(record.get("mucked", []))

    def showdown(k: int) -> None:
        """The hands still in shown (``sm`` with the cards dealt by street ``k``) or mucked."""
        final = STREET_NAMES[last]
        aggressors = [
            int(a["seat"])
            for a in actions
            if a["street"] == final and a["action"] in (BET, RAISE, COMPLETE)
        ]
        held = {s: cards[s] if k == _SEVENTH else cards[s][: 3 + k] for s in live}
        up = {s: _up_cards(held[s]) for s in live}
        for s in showdown_order(live, up, aggressors[-1] if aggressors else None):
            shown = s not in mucked and UNKNOWN_CARD not in held[s]
            out.append(f"p{index[s]} sm" + (f" {''.join(held[s])}" if shown else ""))
            if shown:
                shows.append(s)

    shows: list[int] = []

    for k, street in enumerate(STREET_NAMES[: reached + 1]):
        if k == _SEVENTH and on_board:
            out.append(f"d db {community}")
        for s in order:
            if s in folded:
                continue
            if k == 0:
                out.append(f"d dh p{index[s]} {''.join(cards[s][:3])}")
            elif k == _SEVENTH and community is not None:
                if on_board:
                    continue
                out.append(f"d dh p{index[s]} {community} # {COMMUNITY_NOTE}")
                cards[s].append(str(community))
            else:
                out.append(f"d dh p{index[s]} {cards[s][2 + k]}")
        for a in actions:
            if a["street"] != street:
                continue
            seat, kind = int(a["seat"]), a["action"]
            code = STUD_CODES[kind]
            out.append(f"p{index[seat]} {code}" + (f" {a['to']}" if code == "cbr" else ""))
            if kind == FOLD:
                folded.add(seat)
        if len(live) > 1 and k == last < _SEVENTH:
            # the betting is over before seventh street: the hands are shown before the
            # remaining cards are dealt, as pokerkit does (it deals none until they are)
            showdown(k)
    if len(live) > 1 and last == _SEVENTH:
        showdown(_SEVENTH)
    elif len(live) > 1 and not on_board:
        # shown before the seventh card, a down card: shown again with it (pokerkit)
        out += [f"p{index[s]} sm {''.join(cards[s])}" for s in shows]
    return out


def _up_cards(cards: Sequence[str]) -> list[Card]:
    return [parse_card(c) for j, c in enumerate(cards[:6]) if FACE_UP[j]]
