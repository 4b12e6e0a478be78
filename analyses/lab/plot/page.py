"""What every chart shares: the page, the style, the palette and the small drawing steps of its panels.

Conventions of every chart, in every game: seats are numbered from 1; rates are drawn in percent and
differences of rates in percentage points (the frames hold them as fractions); every estimate has its
95% interval; colours are the Okabe-Ito palette (:data:`PALETTE`) and, for heatmaps, diverging
colour-blind-safe maps centred on the reference value.
"""
from __future__ import annotations

import functools
import textwrap

import matplotlib
import numpy as np
import polars as pl
from matplotlib.figure import Figure

PAGE = (11.69, 8.27)  # A4 landscape, inches
STYLES = ("-", "--", "-.", ":")  # line styles, so overlapping lines stay apart without colour
MAX_SERIES = 8
# Okabe-Ito colours (safe for the common colour-vision deficiencies), in the order series use them.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#000000")
SIGNIFICANT = "#D55E00"

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
    """Draw inside the charts' style (rcParams in a context: nothing global changes)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(STYLE):
            return fn(*args, **kwargs)

    return wrapper


def new_page(title: str, subtitle: str = "", top_gap: float = 0.955) -> Figure:
    """A landscape page with a bold title and a wrapped explanatory subtitle above the panels.

    A :class:`~matplotlib.figure.Figure`, not pyplot's: nothing global is kept, nothing needs closing
    (a notebook shows it as the cell's value).
    """
    lines = textwrap.wrap(subtitle, 150) if subtitle else []
    fig = Figure(figsize=PAGE, layout="constrained")
    fig.suptitle(title, fontsize=15, fontweight="bold", x=0.01, y=0.995, ha="left", va="top")
    if lines:
        fig.text(0.01, 0.952, "\n".join(lines), fontsize=10, color="#333333", ha="left", va="top", linespacing=1.3)
    top = top_gap - 0.027 * len(lines) - (0.01 if lines else 0)
    fig.get_layout_engine().set(rect=(0, 0, 1, top))
    return fig


def error_lengths(value, low, high) -> np.ndarray:
    """Error-bar lengths below and above ``value`` (never negative: a rate of 0 has its Wilson low at 0;
    an interval that cannot be computed draws none)."""
    value, low, high = (np.asarray(a, dtype=float) for a in (value, low, high))
    return np.nan_to_num(np.clip(np.vstack([value - low, high - value]), 0.0, None))


def panels(n: int, fig: Figure, sharey: bool = False) -> list:
    """``n`` axes in rows of at most three (the spare slots of the last row hidden)."""
    cols = min(n, 3)
    rows = (n + cols - 1) // cols
    axes = fig.subplots(rows, cols, squeeze=False, sharey=sharey)
    flat = list(axes.flat)
    for ax in flat[n:]:
        ax.set_visible(False)
    return flat[:n]


def legend_below(fig: Figure, handles, labels, ncol: int | None = None) -> None:
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncol=ncol or min(len(labels), 4), frameon=False)


def interval_rows(ax, df: pl.DataFrame, value: str, low: str, high: str) -> np.ndarray:
    """One row per table row, top down: the value (in %) as a dot on its 95% interval, coloured by player count.

    Returns the rows' y positions, for labels and reference marks.
    """
    y = np.arange(df.height)[::-1]
    colours = [PALETTE[{2: 0, 3: 1, 4: 2}.get(p, 3)] for p in df["players"].to_list()]
    ax.hlines(y, df[low].to_numpy() * 100, df[high].to_numpy() * 100, colors=colours, lw=3)
    ax.scatter(df[value].to_numpy() * 100, y, color=colours, s=36, zorder=3)
    return y


def forest(title: str, subtitle: str, df: pl.DataFrame, value: str, low: str, high: str, labels: list[str],
           xlabel: str, share: bool = True):
    """A page of one interval per row (:func:`interval_rows`), labelled; ``share``: a 0-100% axis.

    Returns the figure, its axes and the rows' y positions (for reference marks).
    """
    fig = new_page(title, subtitle)
    ax = fig.subplots()
    y = interval_rows(ax, df, value, low, high)
    ax.set_yticks(y, labels)
    ax.set_xlabel(xlabel)
    if share:
        ax.set_xlim(0, 100)
    ax.grid(axis="y", visible=False)
    return fig, ax, y


def forest_axes(ax, labels: list[str], value, low, high, ref: float, scale: float = 100.0) -> None:
    """One interval per label on ``ax``, top down, red where it excludes ``ref`` (a dashed line)."""
    y = np.arange(len(labels))[::-1]
    value, low, high = (np.asarray(a, dtype=float) * scale for a in (value, low, high))
    sig = (low > ref) | (high < ref)
    colours = [SIGNIFICANT if s else PALETTE[0] for s in sig]
    ax.hlines(y, low, high, colors=colours, lw=3)
    ax.scatter(value, y, color=colours, s=36, zorder=3)
    ax.axvline(ref, color="#555555", lw=1, ls="--")
    ax.set_yticks(y, labels)
