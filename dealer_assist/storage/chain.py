"""The journal's hash chain: canonical JSON and ``hash = sha256(prev_hash || content)``.

Pure functions, no database: the journal stores what these compute and ``verify`` recomputes it
from what is stored, so both sides must go through exactly this code.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from dealer_assist.errors import JournalError

#: ``prev_hash`` of hand 1: 64 zeros (hex digest width of SHA-256).
GENESIS_HASH = "0" * 64


def canonical_json(value: Any) -> str:
    """``value`` as canonical JSON: sorted keys, no spaces, UTF-8 text (``ensure_ascii=False``).

    Raises:
        JournalError: ``value`` holds something JSON cannot carry exactly (a datetime, a set,
            NaN or infinity, a non-string key).
    """
    try:
        return json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    except (TypeError, ValueError) as e:
        raise JournalError(f"not storable as JSON: {e}") from e


def chain_hash(prev_hash: str, content: dict[str, Any]) -> str:
    """``sha256(prev_hash || canonical_json(content))`` as 64 lowercase hex digits.

    ``prev_hash`` enters as its ASCII hex text, the content as UTF-8 bytes.
    """
    digest = hashlib.sha256()
    digest.update(prev_hash.encode("ascii"))
    digest.update(canonical_json(content).encode("utf-8"))
    return digest.hexdigest()
