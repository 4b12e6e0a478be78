"""Words, numbers and colours every game's report shares: seats, player counts, percentages, the palette.

Seats are numbered from 1 in everything a designer reads ("seat 1" is seat index 0 in the data). A number
with its interval is written by :mod:`reports.numbers`.
"""
from __future__ import annotations

from analyses.lab.plot.page import PALETTE, SIGNIFICANT  # noqa: F401 - the charts' colours, for every page
from analyses.lab.plot.words import players_label  # noqa: F401


def seat_label(seat_index: int) -> str:
    """Seat index 0 -> ``"seat 1"``."""
    return f"seat {int(seat_index) + 1}"


def pct(rate: float, digits: int = 1) -> str:
    """0.41234 -> ``"41.2%"``."""
    return f"{100 * rate:.{digits}f}%"


def pm_pct(low: float, high: float, digits: int = 1) -> str:
    """Half-width of an interval of rates, in percent: ``"\u00b10.6%"``."""
    return f"\u00b1{100 * (high - low) / 2:.{digits}f}%"


def points(rate: float, digits: int = 1) -> str:
    """A difference of rates in percentage points: 0.081 -> ``"8.1"``."""
    return f"{100 * rate:.{digits}f}"
