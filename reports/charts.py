"""What every game's chart page shares: the page size, the style, and :class:`Chart` (a figure and its table).

Conventions for every game: seats are numbered from 1; rates are shown in percent and differences of
rates in percentage points; every estimate has its 95% interval; colours are the Okabe-Ito palette
(:data:`reports.labels.PALETTE`).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import matplotlib

matplotlib.use("Agg")  # no display: files only
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

PAGE = (11.69, 8.27)  # A4 landscape, inches
STYLES = ("-", "--", "-.", ":")  # line styles, so overlapping lines stay apart without colour
PNG_DPI = 130
MAX_SERIES = 8

STYLE = {
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "figure.titlesize": 14,
    "legend.fontsize": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
}


def styled(fn):
    """Draw inside the report's style (rcParams in a context: nothing global changes)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(STYLE):
            return fn(*args, **kwargs)

    return wrapper


@dataclass
class Chart:
    """One report page: a figure and the table it was drawn from."""

    name: str  # file stem of its PNG, e.g. "seats" or "swaps-3p"
    title: str
    figure: Figure
    data: pl.DataFrame | None = field(default=None, repr=False)
