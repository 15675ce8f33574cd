"""Journal storage: the tamper-evident hand journal and the pending-step log (SQLAlchemy)."""

from dealer_assist.events import event_to_json
from dealer_assist.ports import HandEntry, PendingStep, StoredHand, VerifyResult
from dealer_assist.storage.chain import GENESIS_HASH, canonical_json, chain_hash
from dealer_assist.storage.journal import Journal

__all__ = [
    "GENESIS_HASH",
    "HandEntry",
    "Journal",
    "PendingStep",
    "StoredHand",
    "VerifyResult",
    "canonical_json",
    "chain_hash",
    "event_to_json",
]
