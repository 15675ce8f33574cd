"""dealer-assist: the pure domain core (cards, hand evaluation, game rules, settlement, journal).

This package imports no Qt, serial, USB or OpenCV code; device drivers live in ``drivers`` and
user interfaces in ``ui``. Storage adapters live in ``dealer_assist.storage``.
"""

__version__ = "0.1.0"
