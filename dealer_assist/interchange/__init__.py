"""Hand histories in other systems' formats (pure: text in, text out; no I/O).

- :mod:`dealer_assist.interchange.phh`: a ``holdem`` hand record (HAND_RECORD.md "Pot games") as
  a PHH hand history (the Poker Hand History format, TOML), ``.phh`` / ``.phhs`` text;
  :mod:`~dealer_assist.interchange.phh_stud` a ``stud`` record (variant ``F7S``).
- :mod:`dealer_assist.interchange.phh_read` (:mod:`~dealer_assist.interchange.phh_stud_read`
  for stud): a PHH hand history back to a hand record that ``dealer-assist settle`` accepts.

docs/PHH.md has the field mapping and where GAMES.md differs from other PHH readers (pokerkit).
"""

from dealer_assist.interchange.phh import (
    VARIANTS,
    dumps_phh,
    dumps_phhs,
    loads_phh_text,
    record_to_phh,
)
from dealer_assist.interchange.phh_read import phh_to_record

__all__ = [
    "VARIANTS",
    "dumps_phh",
    "dumps_phhs",
    "loads_phh_text",
    "phh_to_record",
    "record_to_phh",
]
