"""The tournament's errors: a structure file refused, a purchase refused, a clock operation that
does not fit the clock's state. All derive from :class:`~dealer_assist.errors.DealerAssistError`.
"""

from __future__ import annotations

from dealer_assist.errors import ConfigError, RuleError


class StructureError(ConfigError, ValueError):
    """A tournament structure (``config/tournaments/*.toml``) that breaks a rule.

    Attributes:
        source: the file (or ``<dict>``) the structure came from.
        key: the key path of the offending value, e.g. ``levels[3].bring_in``.
        reason: what is wrong, naming the rule (``at most half the small limit 100 (rules text
            002, bring-in)``).
    """

    def __init__(self, source: str, key: str, reason: str) -> None:
        super().__init__(f"{source}: {key}: {reason}" if key else f"{source}: {reason}")
        self.source = source
        self.key = key
        self.reason = reason


class PurchaseRefused(RuleError, ValueError):
    """A registration, rebuy, add-on or Double Chance release the rules refuse now; the ledger is
    left unchanged.

    Attributes:
        player: who asked.
        kind: ``entry`` | ``rebuy`` | ``addon`` | ``second_half``.
        reason: why, naming the rule or the limit (``EUR 250.00 a player``).
    """

    def __init__(self, player: str, kind: str, reason: str) -> None:
        super().__init__(f"{kind} for {player}: {reason}")
        self.player = player
        self.kind = kind
        self.reason = reason


class ClockError(RuleError, ValueError):
    """A clock operation its state refuses (a hand started during a break, time going backwards,
    a naive timestamp); the state is left unchanged."""


class RankingError(RuleError, ValueError):
    """An elimination the ranking refuses (a player not entered, busted twice, undo of a player
    not busted); the eliminations are left unchanged."""


class PrizeError(RuleError, ValueError):
    """Payouts that cannot be computed as the structure says (the highest prize not above the
    entry fee, a ranking that pays more places than it has)."""
