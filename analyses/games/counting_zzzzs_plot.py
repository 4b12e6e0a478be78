"""Counting Zzzzs' charts, one matplotlib figure each, from its study tables (its lab wing's ``charts``).

Each function takes the tables of a Counting Zzzzs study folder (``lab.open_study(f).tables``: a dict of
DataFrames, :func:`analyses.games.counting_zzzzs.counting_zzzzs_tables`; seats from 1, rates as fractions) and
returns a :class:`~matplotlib.figure.Figure`, or None when the study did not play that question. The
report draws its pages with these same functions (:mod:`reports.games.counting_zzzzs`).
"""
from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from analyses.lab.plot.page import error_lengths, styled

SIZE = (8.27, 5.8)  # A5 landscape, inches: one question per page


def _page(title: str) -> tuple[Figure, object]:
    fig = Figure(figsize=SIZE)
    fig.suptitle(title, fontsize=12)
    return fig, fig.add_subplot(111)


def _bars(ax, labels, value, low, high, ref=None):
    x = np.arange(len(labels))
    value, low, high = (np.asarray(a, dtype=np.float64) for a in (value, low, high))
    ax.bar(x, value, color="#5b8db8")
    ax.errorbar(x, value, yerr=error_lengths(value, low, high), fmt="none", color="black", capsize=3)
    ax.set_xticks(x, labels, rotation=30, ha="right", fontsize=8)
    if ref is not None:
        for i, r in enumerate(np.broadcast_to(ref, x.shape)):
            ax.hlines(r, i - 0.4, i + 0.4, color="red", linewidth=1)


def _rows(tables: dict, name: str) -> pl.DataFrame | None:
    frame = tables.get(name)
    return frame if frame is not None and frame.height else None


@styled
def first_player(tables: dict) -> Figure | None:
    """Seat 1's win share per player count and bot (bars, fractions) against its fair share (red marks)."""
    fp = _rows(tables, "first_player")
    if fp is None:
        return None
    fp = fp.sort(["bot", "players"])
    fig, ax = _page("First-player advantage: seat 1's win share (red: fair share)")
    _bars(ax, [f"{r['players']}p {r['bot']}" for r in fp.iter_rows(named=True)], fp["seat1_win"], fp["low"],
          fp["high"], fp["fair"].to_numpy())
    return fig


@styled
def balance_rule(tables: dict) -> Figure | None:
    """Wake Ups removed (Z-rules' balance rule): rounds per game and elements per dream, greedy bot."""
    shape = _rows(tables, "game_shape")
    shape = None if shape is None else shape.filter(pl.col("bot") == "greedy")
    if shape is None or shape.height == 0:
        return None
    fig = Figure(figsize=SIZE)
    fig.suptitle("Wake Ups removed: game length and dream length per player count (ring: the rulebook's)")
    for k, (col, name) in enumerate((("rounds", "rounds per game"), ("dream_length", "elements per dream"))):
        ax = fig.add_subplot(1, 2, k + 1)
        for p in sorted(set(shape["players"].to_list())):
            s = shape.filter(pl.col("players") == p).sort("removed")
            ax.errorbar(s["removed"], s[col], yerr=error_lengths(s[col], s[f"{col}_low"], s[f"{col}_high"]),
                        marker="o", label=f"{p} players", capsize=2)
            rb = s.filter(pl.col("rulebook"))
            ax.scatter(rb["removed"], rb[col], s=160, facecolors="none", edgecolors="black")
        ax.set_xlabel("Wake Ups removed")
        ax.set_ylabel(name)
        ax.legend(fontsize=8)
    return fig


@styled
def how_games_end(tables: dict) -> Figure | None:
    """Share of games ending at 40 points (the rest at morning) per player count, rulebook set-up, greedy bot."""
    shape = _rows(tables, "game_shape")
    s = None if shape is None else shape.filter((pl.col("bot") == "greedy") & pl.col("rulebook")).sort("players")
    if s is None or s.height == 0:
        return None
    fig, ax = _page("How games end: share ending at 40 points (the rest at morning), greedy")
    _bars(ax, [f"{p} players" for p in s["players"]], s["forty_share"], s["forty_low"], s["forty_high"])
    return fig


@styled
def action_kinds(tables: dict) -> Figure | None:
    """Restricted play: the win credit a seat loses without one action kind."""
    ak = _rows(tables, "action_kinds")
    if ak is None:
        return None
    fig, ax = _page("Restricted play: win credit change of a seat without one action kind")
    ak = ak.sort(["players", "action"])
    _bars(ax, [f"{r['players']}p no {r['action']}" for r in ak.iter_rows(named=True)], ak["win_change"],
          ak["low"], ak["high"], 0.0)
    return fig


@styled
def element_cards(tables: dict) -> Figure | None:
    """Element cards: win rate with the card scored minus without (the table's top 15 and bottom 5)."""
    ec = _rows(tables, "element_cards")
    if ec is None:
        return None
    pick = pl.concat([ec.head(15), ec.tail(5)]).unique(maintain_order=True)
    fig, ax = _page("Element cards: win rate with the card scored minus without (top 15, bottom 5)")
    y = np.arange(pick.height)[::-1]
    v = pick["difference"].to_numpy()
    ax.errorbar(v, y, xerr=error_lengths(v, pick["low"], pick["high"]), fmt="o", capsize=2)
    ax.axvline(0, color="red", linewidth=1)
    ax.set_yticks(y, pick["card"].to_list(), fontsize=7)
    return fig


@styled
def bot_strength(tables: dict) -> Figure | None:
    """Bot strength: each bot's win share per seat (from 1) in mixed tables, against the fair share."""
    bs = _rows(tables, "bot_strength")
    if bs is None:
        return None
    fig, ax = _page("Bot strength: win share per seat in mixed tables (red: fair share)")
    _bars(ax, [f"{r['bot']} s{r['seat']} ({r['table']})" for r in bs.iter_rows(named=True)], bs["win"], bs["low"],
          bs["high"], bs["fair"].to_numpy())
    return fig


# every chart of the report, by its page's file stem, in report order
FIGURES = {
    "first_player": first_player,
    "balance_rule": balance_rule,
    "how_games_end": how_games_end,
    "action_kinds": action_kinds,
    "element_cards": element_cards,
    "bot_strength": bot_strength,
}


def figures(tables) -> dict[str, Figure]:
    """Every chart of a study's tables (:func:`analyses.games.counting_zzzzs.report_tables`), by its report page's file stem, in report order."""
    drawn = {name: draw(tables) for name, draw in FIGURES.items()}
    return {name: fig for name, fig in drawn.items() if fig is not None}
