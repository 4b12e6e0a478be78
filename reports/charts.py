"""What every game's chart page shares: the page size, the style, and :class:`Chart` (a figure and its table).

The drawing itself is the Python API's (:mod:`analyses.lab.plot`): the page, the style and the
palette are defined there once, so a chart drawn from a notebook and the report's page look alike.
Conventions for every game: seats are numbered from 1; rates are shown in percent and differences of
rates in percentage points; every estimate has its 95% interval; colours are the Okabe-Ito palette
(:data:`reports.labels.PALETTE`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import matplotlib

matplotlib.use("Agg")  # no display: files only
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analyses.lab.plot.page import MAX_SERIES, PAGE, STYLE, STYLES, styled  # noqa: E402,F401

PNG_DPI = 130


@dataclass
class Chart:
    """One report page: a figure and the table it was drawn from."""

    name: str  # file stem of its PNG, e.g. "seats" or "swaps-3p"
    title: str
    figure: Figure
    data: pl.DataFrame | None = field(default=None, repr=False)
