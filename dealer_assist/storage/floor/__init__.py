"""The floor database on PostgreSQL: every table's journal forwarded (store and forward), each
table's chain checked as it arrives, alerts on a break (docs/FLOOR.md)."""

from dealer_assist.storage.floor.errors import FloorError, FloorUnavailableError
from dealer_assist.storage.floor.floor import Alert, Floor, FloorTable, ReceivedHead
from dealer_assist.storage.floor.forward import Forwarder, ForwardStatus
from dealer_assist.storage.floor.ingest import IngestResult, Refusal
from dealer_assist.storage.floor.push import Pusher, PushResult
from dealer_assist.storage.floor.settings import FloorSettings, floor_settings

__all__ = [
    "Alert",
    "Floor",
    "FloorError",
    "FloorSettings",
    "FloorTable",
    "FloorUnavailableError",
    "ForwardStatus",
    "Forwarder",
    "IngestResult",
    "PushResult",
    "Pusher",
    "ReceivedHead",
    "Refusal",
    "floor_settings",
]
