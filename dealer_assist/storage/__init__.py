"""Journal storage: the tamper-evident hand journal and the pending-step log (SQLAlchemy)."""

from dealer_assist.storage.chain import GENESIS_HASH, canonical_json, chain_hash
from dealer_assist.storage.eventjson import event_to_json
from dealer_assist.storage.journal import Journal
from dealer_assist.storage.model import HandEntry, PendingStep, StoredHand, VerifyResult

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
