"""Pleasant Dreams' charts, one matplotlib figure each, from its study summary (its lab wing).

Each function takes the summary of a Pleasant Dreams study folder (``lab.open_study(f).tables``, the same
dict as :func:`analyses.games.pleasant_dreams.pd_summary`: row lists with rates as fractions) and returns
a :class:`~matplotlib.figure.Figure`, or None when the study did not play that question. The report
draws its pages with these same functions (:mod:`reports.games.pleasant_dreams`).
"""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from analyses.lab.plot.page import PALETTE, forest_axes, new_page, styled


def variant_text(variant: str) -> str:
    """``lucid+start=3`` -> ``Lucid Dreams, start 3`` (for sentences)."""
    parts = []
    for token in variant.split("+"):
        if token == "base":
            parts.append("base game")
        elif token == "lucid":
            parts.append("Lucid Dreams")
        elif token.startswith("start="):
            parts.append(f"starting wakefulness {token[6:]}")
        elif token.startswith("actions="):
            parts.append(f"{token[8:]} random action card(s)")
        elif token.startswith("hand="):
            parts.append(f"holding {token[5:].replace(',', ', ')}")
        elif token == "public-backs":
            parts.append("backs public (variant)")
        else:
            parts.append(token)
    return ", ".join(parts)


@styled
def first_player(summary: dict) -> Figure | None:
    rows = summary["first_player"]
    if not rows:
        return None
    fig = new_page("First-player advantage", "Seat 1's win rate in 2-player games with the same bot on both seats, "
               "with its 95% Wilson interval; the dashed line is a fair 50%. Red: the interval excludes 50%.")
    ax = fig.add_subplot()
    forest_axes(ax, [f"{r['strategy']}, {variant_text(r['variant'])}" for r in rows], [r["rate"] for r in rows],
            [r["low"] for r in rows], [r["high"] for r in rows], 50.0)
    ax.set_xlabel("seat 1 win rate (%)")
    return fig


@styled
def action_value(summary: dict) -> Figure | None:
    """Value of each action card (restricted play): the win rate a seat gains from being allowed to use it."""
    rows = summary["action_value"]
    if not rows:
        return None
    fig = new_page("Value of each action card (restricted play)",
                   "Win rate a seat gains from being allowed to use the card: the bot against the same bot that never "
                   "uses it (BOT/no-ACTION), paired on the same deals, both seats pooled; 95% interval, in points.")
    ax = fig.add_subplot()
    forest_axes(ax, [f"{r['action']} ({r['strategy']}, {variant_text(r['variant'])})" for r in rows],
                [r["value"] for r in rows], [r["low"] for r in rows], [r["high"] for r in rows], 0.0)
    ax.set_xlabel("win rate the card is worth (percentage points)")
    return fig


@styled
def holding(summary: dict) -> Figure | None:
    """Holding an action card (Lucid Dreams): a seat dealt the card against a seat not dealt it."""
    rows = summary["holding"]
    if not rows:
        return None
    fig = new_page("Holding an action card (Lucid Dreams)",
                   "Win rate of a seat dealt the card minus that of a seat not dealt it, in Lucid Dreams games with the "
                   "same bot on both seats (different games: Welch 95% interval), in points.")
    ax = fig.add_subplot()
    forest_axes(ax, [f"{r['action']} ({r['strategy']})" for r in rows], [r["difference"] for r in rows],
                [r["low"] for r in rows], [r["high"] for r in rows], 0.0)
    ax.set_xlabel("holding minus not holding (percentage points)")
    return fig


@styled
def expansion(summary: dict) -> Figure | None:
    rows = summary["expansion"]
    if not rows:
        return None
    fig = new_page("Lucid Dreams against the base game", "Paired on the same game indices, per bot: the change in seat 1's "
               "win rate (points) and in game length (turns), each with its 95% interval.")
    ax1, ax2 = fig.subplots(1, 2)
    labels = [r["strategy"] for r in rows]
    forest_axes(ax1, labels, [r["change"] for r in rows], [r["low"] for r in rows], [r["high"] for r in rows], 0.0)
    ax1.set_xlabel("change in seat 1 win rate (points)")
    forest_axes(ax2, labels, [r["turns_change"] for r in rows], [r["turns_low"] for r in rows],
            [r["turns_high"] for r in rows], 0.0, scale=1.0)
    ax2.set_xlabel("change in game length (turns)")
    return fig


def rate_lines(ax, groups: dict, xkey: str) -> None:
    for i, (label, rows) in enumerate(groups.items()):
        x = np.array([r[xkey] for r in rows], dtype=float)
        v, lo, hi = (np.array([r[k] for r in rows]) * 100 for k in ("rate", "low", "high"))
        ax.errorbar(x + 0.04 * i, v, yerr=np.clip(np.vstack([v - lo, hi - v]), 0, None), marker="o", capsize=3,
                    color=PALETTE[i % len(PALETTE)], label=label)
    ax.legend()


@styled
def difficulty(summary: dict) -> Figure | None:
    rows = summary["difficulty"]
    if not rows:
        return None
    fig = new_page("Difficulty levels", "Starting wakefulness 1 to 4 (the rulebook's default is 1; difficulty is a solo rule): "
               "solo, the chance of staying asleep to the end; the 2-player line is a variant the rulebook does not "
               "define (both seats start there), seat 1's win rate; 95% Wilson intervals.")
    groups: dict[str, list[dict]] = {}
    for r in rows:
        label = "solo" if r["players"] == 1 else "2-player variant, seat 1"
        groups.setdefault(f"{label} ({r['strategy']})", []).append(r)
    ax = fig.add_subplot()
    rate_lines(ax, groups, "start")
    ax.set_xlabel("starting wakefulness")
    ax.set_ylabel("win rate (%)")
    ax.set_xticks(sorted({r["start"] for r in rows}))
    return fig


@styled
def solo_challenge(summary: dict) -> Figure | None:
    rows = summary["solo_challenge"] + summary.get("solo_chosen", [])
    if not rows:
        return None
    fig = new_page("The solo challenge", "\"How many action cards do you need if you start on a wakefulness of 4?\" The "
               "chance of staying asleep to the end of the deck with N action cards, per bot: chosen by the player "
               "(the best set of N of the 16, measured on deals it was not chosen on; the question as asked) and "
               "dealt at random from all 16; 95% Wilson intervals.")
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(f"{r['strategy']}, {r.get('reading', 'random deal')}", []).append(r)
    ax = fig.add_subplot()
    rate_lines(ax, groups, "actions")
    ax.axhline(50, color="#555555", lw=1, ls="--")
    ax.set_xlabel("action cards (chosen or dealt)")
    ax.set_ylabel("stays asleep (%)")
    ax.set_xticks(sorted({r["actions"] for r in rows}))
    return fig


@styled
def solver_gap(summary: dict) -> Figure | None:
    rows = summary["solver"]
    if not rows:
        return None
    fig = new_page("How close each bot plays to the exact solver", "On small positions sampled from play: the solver's win "
               "chance minus the bot's, for the player to move, with its 95% interval (0 = plays perfectly there).")
    ax = fig.add_subplot()
    forest_axes(ax, [f"{r['strategy']} ({r['players']}p, {variant_text(r['variant'])})" for r in rows],
            [r["gap"] for r in rows], [r["gap_low"] for r in rows], [r["gap_high"] for r in rows], 0.0)
    ax.set_xlabel("solver minus bot (percentage points)")
    return fig


# every chart of the report, by its page's file stem, in report order
FIGURES = {
    "pd-first-player": first_player,
    "pd-action-value": action_value,
    "pd-holding": holding,
    "pd-expansion": expansion,
    "pd-difficulty": difficulty,
    "pd-solo-challenge": solo_challenge,
    "pd-solver-gap": solver_gap,
}


def figures(tables) -> dict[str, Figure]:
    """Every chart of a study's summary (:func:`analyses.games.pleasant_dreams.report_tables`), by its report page's file stem, in report order."""
    drawn = {name: draw(tables) for name, draw in FIGURES.items()}
    return {name: fig for name, fig in drawn.items() if fig is not None}
