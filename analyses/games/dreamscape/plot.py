"""Project Dreamscape's charts, one matplotlib figure each, from the Python API's frames.

Each function takes the frame the lab gives (seats counted from 1, rates as fractions) and returns a
:class:`~matplotlib.figure.Figure`, or None when the frame has nothing the chart shows (no row with two
or more players, say). The study report draws its pages with these same functions
(:mod:`reports.games.dreamscape.charts`).

Where a frame mixes bots, the chart keeps one-bot configurations (every seat the same bot, a
``strategies`` column such as ``linear/linear/linear``), as the report does.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib
import numpy as np
import polars as pl
from matplotlib.colors import Normalize, TwoSlopeNorm
from matplotlib.figure import Figure

from analyses.games.dreamscape.frames import (collect, homogeneous, lab_tables, level_key, main_strategy, round_robins,
                                              skill_rows)
from analyses.games.dreamscape.words import (OPTION_ORDER, options_label, split_variant, strategies_label, type_name,
                                               variant_label)
from analyses.lab.plot.numbers import change_with_interval
from analyses.lab.plot.page import (MAX_SERIES, PALETTE, SIGNIFICANT, STYLES, error_lengths, forest, interval_rows,
                                    legend_below, new_page, panels, styled)
from analyses.lab.plot.words import players_label
from simcore.games.dreamscape.cards import BASE_TYPES, CODES, EXPANSION_TYPES
from simcore.games.dreamscape.rules import SOLO_BANDS

METRICS = {
    # metric: (panel title, scale applied to the stored value, unit of the x axis)
    "seat_spread": ("seat spread", 100.0, "percentage points"),
    "first_seat_win": ("seat 1 win rate", 100.0, "percentage points"),
    "winning_score": ("mean winning score", 1.0, "game points"),
    "game_length": ("mean game length", 1.0, "turns"),
}
SWEEP_METRICS = {
    # sweep column: (title, colour-bar label, scale, what it means)
    "seat_spread": ("seat spread", "seat spread (percentage points)", 100.0,
                    "best seat's win rate minus the worst seat's, in points: lower is fairer"),
    "first_seat_win": ("seat 1 win rate", "seat 1 win rate (%)", 100.0, "share of games seat 1 wins"),
    "mean_winning_score": ("mean winning score", "mean winning score (points)", 1.0, "the winner's final score"),
    "mean_length": ("mean game length", "mean game length (turns)", 1.0, "turns per game"),
}


def option_variants(variants) -> list[str]:
    """The variants without swaps, in the order base, Sleep Token, shifting tokens, both."""
    plain = [v for v in dict.fromkeys(variants) if not split_variant(v).has_swaps]
    return sorted(plain, key=lambda v: (OPTION_ORDER.index(v) if v in OPTION_ORDER else len(OPTION_ORDER), v))


def shown_variants(variants, limit: int = MAX_SERIES) -> list[str]:
    """Variants worth a series: the ones without swaps, else the first few as they come."""
    variants = list(dict.fromkeys(variants))
    plain = option_variants(variants)
    return (plain or variants)[:limit]


def _series_label(variant: str, strategy: str, many_strategies: bool) -> str:
    label = variant_label(variant, short=True)
    return f"{label} ({strategy})" if many_strategies else label


# ============================================================================ seats


@styled
def seat_win_rates(seats: pl.DataFrame) -> Figure | None:
    """Win rate per seat with 95% intervals and the fair share, one panel per player count.

    ``seats``: one row per configuration and seat (``lab.simulate(...)``, ``lab.open_study(f).seats``):
    players, variant, strategy, seat (from 1), win_rate, win_low, win_high (fractions). Bars: win_rate in %.
    """
    df = homogeneous(seats.filter(pl.col("players") >= 2))
    if df.height == 0:
        return None
    variants = shown_variants(df["variant"].to_list())
    df = df.filter(pl.col("variant").is_in(variants))
    strategies = list(dict.fromkeys(df["strategy"].to_list()))
    series = [(v, s) for s in strategies for v in variants if df.filter((pl.col("variant") == v) & (pl.col("strategy") == s)).height]
    series = series[:MAX_SERIES]
    players = sorted(df["players"].unique().to_list())
    bots = f"the {strategies[0]} bot on every seat" if len(strategies) == 1 else "one bot on every seat (see legend)"
    subtitle = (f"Share of games each seat wins with {bots} (shared wins count 1/k, R8.3); seat 1 plays first; "
                "bars = 95% Wilson intervals; dashed line = fair share.")
    fig = new_page("Seat win rates", subtitle)
    axes = panels(len(players), fig, sharey=True)
    handles = {}
    top = float(df["win_high"].max()) * 100
    for ax, p in zip(axes, players):
        width = 0.8 / len(series)
        for i, (v, s) in enumerate(series):
            part = df.filter((pl.col("players") == p) & (pl.col("variant") == v) & (pl.col("strategy") == s)).sort("seat")
            if part.height == 0:
                continue
            x = part["seat"].to_numpy() + (i - (len(series) - 1) / 2) * width  # seats from 1
            y = part["win_rate"].to_numpy() * 100
            err = error_lengths(y, part["win_low"].to_numpy() * 100, part["win_high"].to_numpy() * 100)
            bars = ax.bar(x, y, width * 0.92, color=PALETTE[i % len(PALETTE)], yerr=err, capsize=2,
                          error_kw={"elinewidth": 0.9, "ecolor": "#222222"})
            handles[_series_label(v, s, len(strategies) > 1)] = bars
        fair = 100.0 / p
        line = ax.axhline(fair, color="#222222", ls="--", lw=1.1)
        handles.setdefault("fair share", line)
        ax.set_xticks(range(1, p + 1), [f"seat {i}" for i in range(1, p + 1)])
        ax.set_title(f"{p} players (fair {fair:.1f}%)")
        ax.set_ylim(0, top * 1.12)
        ax.grid(axis="x", visible=False)
    axes[0].set_ylabel("win rate (%)")
    legend_below(fig, list(handles.values()), list(handles.keys()), ncol=min(len(handles), 5))
    return fig


# ============================================================================ compare


def _compare_rows(cmp: pl.DataFrame, limit: int = 16) -> pl.DataFrame:
    """The comparisons worth a forest row: rules options against the baseline, else the largest swaps."""
    plain = option_variants(cmp["variant"].to_list())
    rows = cmp.filter(pl.col("variant").is_in(plain))
    if rows.height:
        return rows
    spread = cmp.filter(pl.col("metric") == "seat_spread").with_columns(pl.col("diff").abs().alias("_size"))
    keep = spread.sort("_size", descending=True).head(limit).select(["players", "strategies", "variant"])
    return cmp.join(keep, on=["players", "strategies", "variant"])


@styled
def variant_comparison(compare: pl.DataFrame) -> Figure | None:
    """Forest plot of paired differences (variant - baseline) with 95% intervals, one panel per metric.

    ``compare``: ``lab.compare(...)``'s rows (players, strategies, variant, baseline, metric, diff, diff_low,
    diff_high, significant; a rate's change is a fraction, drawn in percentage points).
    """
    cmp = homogeneous(compare)
    if cmp is None or cmp.height == 0:
        return None
    rows = _compare_rows(cmp.filter(pl.col("players") >= 2))
    if rows.height == 0:
        return None
    metrics = [m for m in METRICS if m in set(rows["metric"].to_list())]
    many = len({strategies_label(x) for x in rows["strategies"].to_list()}) > 1
    keys = rows.select(["players", "strategies", "variant", "baseline"]).unique(maintain_order=True)
    order = {v: i for i, v in enumerate(option_variants(keys["variant"].to_list()))}
    keys = keys.with_columns(pl.col("variant").replace_strict(order, default=len(order)).alias("_o")).sort(["players", "_o", "variant"])
    labels = []
    for r in keys.iter_rows(named=True):
        lab = f"{r['players']}p  {variant_label(r['variant'], short=True)}"
        labels.append(lab + (f" ({strategies_label(r['strategies'])})" if many else ""))
    baselines = sorted(set(keys["baseline"].to_list()))
    subtitle = (f"Change against the baseline ({', '.join(variant_label(b) for b in baselines)}) played on the same deals; "
                "thick bar = paired 95% interval, thin grey bar = unpaired interval for comparison; filled = significant.")
    fig = new_page("Variant comparison", subtitle)
    axes = fig.subplots(1, len(metrics), sharey=True, squeeze=False)[0]
    y = np.arange(keys.height)[::-1]
    for ax, metric in zip(axes, metrics):
        label, scale, unit = METRICS[metric]
        part = keys.join(rows.filter(pl.col("metric") == metric), on=["players", "strategies", "variant", "baseline"], how="left",
                         maintain_order="left")
        d = part["diff"].to_numpy().astype(float) * scale
        lo = part["diff_low"].to_numpy().astype(float) * scale
        hi = part["diff_high"].to_numpy().astype(float) * scale
        sig = part["significant"].fill_null(False).to_numpy()
        if "unpaired_low" in part.columns:
            ulo = part["unpaired_low"].to_numpy().astype(float) * scale
            uhi = part["unpaired_high"].to_numpy().astype(float) * scale
            ax.hlines(y, ulo, uhi, color="#AAAAAA", lw=1.0, zorder=1)
        ax.hlines(y, lo, hi, color=PALETTE[0], lw=3.0, zorder=2)
        ax.scatter(d[sig], y[sig], s=42, color=SIGNIFICANT, zorder=3, label="significant")
        ax.scatter(d[~sig], y[~sig], s=42, facecolor="white", edgecolor=PALETTE[0], zorder=3, label="not significant")
        ax.axvline(0, color="#222222", lw=1.0)
        ax.set_xlabel(f"change ({unit})")
        ax.set_title(label)
        ax.grid(axis="y", visible=False)
        span = np.nanmax(np.abs(np.concatenate([lo, hi, [1e-9]])))
        ax.set_xlim(-span * 1.25, span * 1.25)
        digits = 1 if span >= 1 else 2
        for yy, dd, l_, h_ in zip(y, d, lo, hi):  # the numbers, since narrow intervals hide behind the marker
            if np.isfinite(dd):
                ax.annotate(change_with_interval(dd, l_, h_, digits=digits, scale=1), (dd, yy), xytext=(0, 6),
                            textcoords="offset points", ha="right" if dd > span * 0.3 else "left" if dd < -span * 0.3 else "center",
                            va="bottom", fontsize=7, color="#333333",
                            bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85})
    axes[0].set_yticks(y, labels)
    pl_col = keys["players"].to_numpy()
    for i in np.flatnonzero(pl_col[1:] != pl_col[:-1]):  # a line between player counts
        for ax in axes:
            ax.axhline(y[i] - 0.5, color="#BBBBBB", lw=0.8)
    h, l = axes[0].get_legend_handles_labels()
    legend_below(fig, h, l)
    return fig


# ============================================================================ distributions


def _main_configs(configs: pl.DataFrame) -> pl.DataFrame:
    """Per player count, the balance configurations (every seat the same bot) of the shown variants."""
    info = homogeneous(configs)
    return info.filter(pl.col("variant").is_in(shown_variants(info["variant"].to_list())))


@styled
def final_scores(score_dist: pl.DataFrame, configs: pl.DataFrame) -> Figure | None:
    """Final score distribution per seat, one panel per player count (base game or the first variant).

    ``score_dist``: config, players, seat (from 1), score, count (``lab.open_study(f).tables.score_dist``);
    ``configs``: config, variant, players, strategies (``lab.open_study(f).configs``).
    """
    info = _main_configs(configs)
    dist = score_dist.filter(pl.col("config").is_in(info["config"].to_list()) & (pl.col("players") >= 2))
    if dist.height == 0:
        return None
    players = sorted(dist["players"].unique().to_list())
    fig = new_page("Final scores by seat",
               "Share of games ending with each final score (R8.2: chain points - Z cards), one line per seat.")
    axes = panels(len(players), fig, sharey=True)
    for ax, p in zip(axes, players):
        here = info.filter(pl.col("players") == p)
        variant = option_variants(here["variant"].to_list())[:1] or here["variant"].to_list()[:1]
        cfg = here.filter(pl.col("variant") == variant[0])["config"].to_list()[0]
        part = dist.filter(pl.col("config") == cfg)
        total = part.group_by("seat").agg(pl.col("count").sum().alias("n"))
        for seat in sorted(part["seat"].unique().to_list()):
            s = part.filter(pl.col("seat") == seat).sort("score")
            n = total.filter(pl.col("seat") == seat)["n"][0]
            x = s["score"].to_numpy()
            share = s["count"].to_numpy() / n * 100
            mean = float((x * s["count"].to_numpy()).sum() / n)
            ax.step(x, share, where="mid", color=PALETTE[(int(seat) - 1) % len(PALETTE)], lw=1.4,
                    label=f"seat {int(seat)} (mean {mean:.1f})")
        strat = strategies_label(here.filter(pl.col("config") == cfg)["strategies"][0])
        ax.set_title(f"{p} players, {variant_label(variant[0], short=True)}, {strat} bot")
        ax.set_xlabel("final score (points)")
        ax.legend(loc="best", frameon=True, framealpha=0.9, edgecolor="none", fontsize=8)
    axes[0].set_ylabel("share of games (%)")
    axes[0].set_ylim(0, axes[0].get_ylim()[1] * 1.25)  # room for the legends (panels share the y axis)
    return fig


@styled
def game_lengths(length_dist: pl.DataFrame, configs: pl.DataFrame) -> Figure | None:
    """Game length distribution, one panel per player count, one line per rules variant.

    ``length_dist``: config, players, variant, length, count (``lab.open_study(f).tables.length_dist``);
    ``configs``: config, variant, players, strategies (``lab.open_study(f).configs``).
    """
    info = _main_configs(configs).filter(pl.col("players") >= 2)
    dist = length_dist.filter(pl.col("config").is_in(info["config"].to_list()))
    if dist.height == 0:
        return None
    players = sorted(dist["players"].unique().to_list())
    fig = new_page("Game length", "Share of games lasting each number of turns (all seats' turns together); "
                              "the legend gives each variant's mean.")
    axes = panels(len(players), fig, sharey=True)
    variants = shown_variants(dist["variant"].to_list())
    many = info.filter(pl.col("config").is_in(dist["config"].unique().to_list()))["strategies"].map_elements(
        lambda s: s.split("/")[0], return_dtype=pl.Utf8).n_unique() > 1
    for ax, p in zip(axes, players):
        here = info.filter(pl.col("players") == p)
        for i, cfg in enumerate(here.iter_rows(named=True)):
            part = dist.filter(pl.col("config") == cfg["config"]).sort("length")
            if part.height == 0:
                continue
            n = part["count"].sum()
            x = part["length"].to_numpy()
            mean = float((x * part["count"].to_numpy()).sum() / n)
            colour = PALETTE[variants.index(cfg["variant"]) % len(PALETTE)] if cfg["variant"] in variants else PALETTE[i % 8]
            label = _series_label(cfg["variant"], strategies_label(cfg["strategies"]), many)
            style = STYLES[(variants.index(cfg["variant"]) if cfg["variant"] in variants else i) % len(STYLES)]
            ax.step(x, part["count"].to_numpy() / n * 100, where="mid", lw=1.6, ls=style, color=colour,
                    label=f"{label} (mean {mean:.1f})")
        ax.set_title(players_label(p).replace("-player", " players") if p > 1 else "solo")
        ax.set_xlabel("game length (turns)")
        ax.legend(loc="best", frameon=True, framealpha=0.9, edgecolor="none", fontsize=8)
    axes[0].set_ylabel("share of games (%)")
    axes[0].set_ylim(0, axes[0].get_ylim()[1] * 1.3)  # room for the legends (panels share the y axis)
    return fig


# ============================================================================ strength


@styled
def type_strength(strength: pl.DataFrame) -> Figure | None:
    """Dream-type strength: win rate of seats that performed the type more than average, minus fair.

    ``strength``: :func:`analyses.games.dreamscape.strength.type_strength`'s rows (``.tables.strength``).
    """
    strength = main_strategy(strength)
    if strength is None:
        return None
    df = strength.filter(pl.col("players") >= 2)
    variants = option_variants(df["variant"].to_list())
    if not variants:
        variants = shown_variants(df["variant"].to_list(), 4)
    df = df.filter(pl.col("variant").is_in(variants) & pl.col("win_rate_more").is_not_nan())
    if df.height == 0:
        return None
    players = sorted(df["players"].unique().to_list())
    fig = new_page("Dream-type strength",
               "Win rate of seats that performed a type more often than average in their game, minus the fair share; "
               "bars = 95% intervals.")
    axes = panels(len(players), fig, sharey=True)
    types = [c for c in CODES if c in set(df["type"].to_list())]
    ypos = {c: len(types) - 1 - i for i, c in enumerate(types)}
    handles = {}
    for ax, p in zip(axes, players):
        h = 0.8 / len(variants)
        for i, v in enumerate(variants):
            part = df.filter((pl.col("players") == p) & (pl.col("variant") == v))
            if part.height == 0:
                continue
            y = np.array([ypos[c] for c in part["type"].to_list()]) + (len(variants) - 1) / 2 * h - i * h
            x = (part["win_rate_more"] - part["fair"]).to_numpy() * 100
            lo = (part["win_low"] - part["fair"]).to_numpy() * 100
            hi = (part["win_high"] - part["fair"]).to_numpy() * 100
            eb = ax.errorbar(x, y, xerr=error_lengths(x, lo, hi), fmt="o", ms=4, color=PALETTE[i % 8], elinewidth=1.2, capsize=0)
            handles[variant_label(v, short=True)] = eb
        ax.axvline(0, color="#222222", lw=1.0)
        ax.set_title(f"{p} players (fair {100 / p:.1f}%)")
        ax.set_xlabel("win rate minus fair share (points)")
        ax.grid(axis="y", visible=False)
    axes[0].set_yticks([ypos[c] for c in types], [f"{type_name(c)} ({c})" for c in types])
    legend_below(fig, list(handles.values()), list(handles.keys()))
    return fig


@styled
def card_strength(pairs: pl.DataFrame, per_side: int = 8) -> Figure | None:
    """Cards whose holders win most and least often (pair strength) against the average card, one panel per player count.

    Holding any card at game end goes with winning (winners' REM stacks are
    longer), so every card's win rate lies above the fair share; the chart
    compares each card with the average card of the same player count
    (weighted by seat-games) instead. ``pairs``: :func:`analyses.games.dreamscape.strength.pair_strength`'s
    rows (``lab.open_study(f).tables.pairs``).
    """
    pairs = main_strategy(pairs)
    if pairs is None:
        return None
    df = pairs.filter((pl.col("players") >= 2) & pl.col("win_rate_held").is_not_nan() & (pl.col("seat_games") > 0))
    variants = option_variants(df["variant"].to_list())
    if not variants:
        return None
    df = df.filter(pl.col("variant") == variants[0])
    if df.height == 0:
        return None
    players = sorted(df["players"].unique().to_list())
    fig = new_page(f"Card strength ({variant_label(variants[0])})",
               "Win rate of seats whose REM stack holds the card at game end, compared with the average card "
               f"(weighted by how often it is held); the {per_side} strongest and {per_side} weakest cards, "
               "bars = 95% Wilson intervals, coloured when the interval excludes the average.")
    axes = panels(len(players), fig)
    for ax, p in zip(axes, players):
        part = df.filter(pl.col("players") == p)
        avg = float((part["win_rate_held"] * part["seat_games"]).sum() / part["seat_games"].sum())
        part = part.with_columns((pl.col("win_rate_held") - avg).alias("_rel")).sort("_rel")
        if part.height > 2 * per_side:
            part = pl.concat([part.head(per_side), part.tail(per_side)])
        x = part["_rel"].to_numpy() * 100
        lo = (part["win_low"].to_numpy() - avg) * 100
        hi = (part["win_high"].to_numpy() - avg) * 100
        y = np.arange(part.height)
        sig = (lo > 0) | (hi < 0)
        ax.barh(y, x, color=[SIGNIFICANT if s_ else "#999999" for s_ in sig], height=0.7)
        ax.errorbar(x, y, xerr=error_lengths(x, lo, hi), fmt="none", ecolor="#222222", elinewidth=0.9)
        ax.set_yticks(y, part["card"].to_list(), fontsize=8.5)
        ax.axvline(0, color="#222222", lw=1.0)
        ax.set_title(f"{p} players (average card {100 * avg:.1f}%)")
        ax.set_xlabel("win rate minus the average card's (points)")
        ax.grid(axis="y", visible=False)
    from matplotlib.patches import Patch

    legend_below(fig, [Patch(color=SIGNIFICANT), Patch(color="#999999")], ["interval excludes the average card", "within the average"])
    return fig


# ============================================================================ swaps


def _swap_matrix(sweep: pl.DataFrame, metric: str, players: int, options: str):
    """(values[8, 3], decks[8, 3]) for removed base type x added expansion type; mean over decks holding the pair."""
    rows = sorted(BASE_TYPES)
    cols = sorted(EXPANSION_TYPES)
    vals = np.full((len(rows), len(cols)), np.nan)
    decks = np.zeros((len(rows), len(cols)), int)
    part = sweep.filter((pl.col("players") == players) & (pl.col("options") == options) & (pl.col("swaps") != "none"))
    sums = np.zeros_like(vals)
    for r in part.iter_rows(named=True):
        if r[metric] is None or np.isnan(r[metric]):
            continue
        for rem in r["removed"].split("+"):
            for add in r["added"].split("+"):
                if rem in CODES and add in CODES:
                    i, j = rows.index(CODES.index(rem)), cols.index(CODES.index(add))
                    sums[i, j] += r[metric]
                    decks[i, j] += 1
    with np.errstate(invalid="ignore"):
        vals = np.where(decks > 0, sums / np.maximum(decks, 1), np.nan)
    ref = sweep.filter((pl.col("players") == players) & (pl.col("options") == options) & (pl.col("swaps") == "none"))
    reference = float(ref[metric][0]) if ref.height else None
    return vals, decks, reference


def swap_players(sweep: pl.DataFrame) -> list[int]:
    """The player counts (two or more) of a swap sweep's one-bot rows: one heatmap page each."""
    sweep = main_strategy(sweep)
    return [] if sweep is None else sorted(sweep.filter(pl.col("players") >= 2)["players"].unique().to_list())


@styled
def swaps_heatmap(sweep: pl.DataFrame, players: int, metric: str = "seat_spread") -> Figure | None:
    """Swap heatmap of one player count: removed base type x added expansion type, one panel per rules option.

    ``sweep``: :func:`analyses.games.dreamscape.sweep.swap_sweep`'s rows (``lab.open_study(f).tables.sweep``);
    ``metric``: seat_spread, first_seat_win, mean_winning_score or mean_length (rates drawn in %).
    """
    sweep = main_strategy(sweep)
    if sweep is None or metric not in sweep.columns:
        return None
    title, cbar, scale, meaning = SWEEP_METRICS.get(metric, (metric, metric, 1.0, metric))
    p = players
    here = sweep.filter(pl.col("players") == p)
    if here.height == 0:
        return None
    opts = [o for o in OPTION_ORDER if o in set(here["options"].to_list())]
    opts += sorted(set(here["options"].to_list()) - set(opts))
    mats = [(o, *_swap_matrix(here, metric, p, o)) for o in opts]
    mats = [m for m in mats if np.isfinite(m[1]).any()]
    if any(m[3] is not None for m in mats):  # a change needs the same rules without swaps
        mats = [m for m in mats if m[3] is not None]
    if not mats:
        return None
    multi = bool((here["swaps"].str.count_matches(r"\+") > 0).any())
    how = "mean over the decks that make this swap" if multi else "each cell is one single-swap deck"
    fig = new_page(f"Expansion swaps: {title}, {p} players",
               f"Removed base type (rows) x added expansion type (columns); {how}. Numbers are the {title} "
               f"({meaning}); colour = change against the same rules without swaps.")
    slots = fig.subplots(1, max(len(mats), 3), squeeze=False, sharey=True)[0]  # cells keep their size
    for ax in slots[len(mats):]:
        ax.set_visible(False)
    axes = slots[:len(mats)]
    deltas = [(m[1] - m[3]) * scale if m[3] is not None else m[1] * scale for m in mats]
    span = max(float(np.nanmax(np.abs(d))) for d in deltas) or 1.0
    have_ref = all(m[3] is not None for m in mats)
    norm = TwoSlopeNorm(0.0, -span, span) if have_ref else Normalize(
        float(np.nanmin([np.nanmin(d) for d in deltas])), float(np.nanmax([np.nanmax(d) for d in deltas])))
    cmap = matplotlib.colormaps["PuOr_r" if have_ref else "cividis"]
    image = None
    for ax, (o, vals, decks, ref), delta in zip(axes, mats, deltas):
        image = ax.imshow(delta, cmap=cmap, norm=norm, aspect="auto")
        for i in range(vals.shape[0]):
            for j in range(vals.shape[1]):
                if np.isnan(vals[i, j]):
                    ax.text(j, i, "n/a", ha="center", va="center", fontsize=8, color="#555555")
                    continue
                rgba = cmap(norm(delta[i, j]))
                light = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2] > 0.55
                ax.text(j, i, f"{vals[i, j] * scale:.1f}", ha="center", va="center", fontsize=9,
                        color="black" if light else "white")
        ax.set_xticks(range(3), [type_name(CODES[c]).replace(" ", "\n") + f"\n({CODES[c]})" for c in sorted(EXPANSION_TYPES)],
                      fontsize=8.5)
        ax.set_yticks(range(8), [f"{type_name(CODES[c])} ({CODES[c]})" for c in sorted(BASE_TYPES)])
        ax.set_xlabel("added")
        ref_text = f"no swap: {ref * scale:.1f}" if ref is not None else "no swap: not played"
        ax.set_title(f"{options_label(o)}\n{ref_text}", fontsize=10)
        ax.grid(False)
        for side in ("top", "right"):
            ax.spines[side].set_visible(True)
    axes[0].set_ylabel("removed")
    cb = fig.colorbar(image, ax=list(axes), shrink=0.85, pad=0.02)
    cb.set_label(f"change in {cbar}" if have_ref else cbar)
    return fig


# ============================================================================ tournaments


class _Result:
    """A tournament result read alike from ``lab.tournament``'s dict and a report's tournament."""

    def __init__(self, result) -> None:
        get = result.get if isinstance(result, Mapping) else (lambda k, d=None: getattr(result, k, d))
        self.players, self.variant = int(get("players")), str(get("variant", "base"))
        self.standings, self.payoff = (f if isinstance(f, pl.DataFrame) else pl.DataFrame(f)
                                       for f in (get("standings"), get("payoff")))
        self.dominant, self.cycles = get("dominant"), list(get("cycles", []) or [])
        self.games_per_seating = get("games_per_seating")
        self.fair = 1.0 / self.players


@styled
def tournament(result) -> Figure | None:
    """A round robin: standings with intervals and the payoff matrix (row's win rate when meeting column).

    ``result``: ``lab.tournament(...)`` (a dict: players, variant, standings, payoff, dominant, cycles,
    games_per_seating), or one of ``lab.open_study(f).tables.tournaments``.
    """
    tour = _Result(result)
    if tour.standings.height == 0:
        return None
    st = tour.standings.sort("win_rate", descending=True)
    names = st["strategy"].to_list()
    fair = 100 * tour.fair
    flags = []
    if tour.dominant:
        flags.append(f"dominant strategy: {tour.dominant}")
    if tour.cycles:
        flags.append("cycles: " + "; ".join(" > ".join(c) for c in tour.cycles))
    games = f"{tour.games_per_seating:,} games per seating, " if tour.games_per_seating else ""
    fig = new_page(f"Strategy tournament: {tour.players} players, {variant_label(tour.variant)}",
               f"Round robin, seats rotated on duplicate deals ({games}fair share {fair:.1f}%). "
               + ("; ".join(flags) if flags else "No dominant strategy, no cycles."))
    left, right = fig.subplots(1, 2, width_ratios=[1, 1.25])
    y = np.arange(len(names))[::-1]
    x = st["win_rate"].to_numpy() * 100
    lo, hi = st["win_low"].to_numpy() * 100, st["win_high"].to_numpy() * 100
    left.barh(y, x, color=PALETTE[0], height=0.65)
    left.errorbar(x, y, xerr=error_lengths(x, lo, hi), fmt="none", ecolor="#222222", capsize=3)
    left.axvline(fair, color="#222222", ls="--", lw=1.1, label=f"fair share {fair:.1f}%")
    for yy, xx, v in zip(y, hi, x):
        left.text(xx + 1, yy, f"{v:.1f}%", va="center", fontsize=9)
    left.set_yticks(y, names)
    left.set_xlim(0, min(100, max(hi.max() * 1.2, fair * 1.5)))
    left.set_xlabel("win rate over all games (%)")
    left.set_title("Standings")
    left.grid(axis="y", visible=False)
    left.legend(loc="lower right", frameon=False)
    mat = np.full((len(names), len(names)), np.nan)
    for r in tour.payoff.iter_rows(named=True):
        if r["strategy"] in names and r["opponent"] in names:
            mat[names.index(r["strategy"]), names.index(r["opponent"])] = r["win_rate"] * 100
    span = max(float(np.nanmax(np.abs(mat - fair))) if np.isfinite(mat).any() else 1.0, 1.0)
    norm = TwoSlopeNorm(fair, max(fair - span, 0.0), fair + span)  # span >= 1, so vmin < fair
    cmap = matplotlib.colormaps["PuOr"]
    image = right.imshow(mat, cmap=cmap, norm=norm)
    for i in range(len(names)):
        for j in range(len(names)):
            if np.isnan(mat[i, j]):
                continue
            rgba = cmap(norm(mat[i, j]))
            light = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2] > 0.55
            right.text(j, i, f"{mat[i, j]:.0f}", ha="center", va="center", fontsize=9, color="black" if light else "white")
    right.set_xticks(range(len(names)), names, rotation=30, ha="right")
    right.set_yticks(range(len(names)), names)
    right.set_xlabel("opponent at the table")
    right.set_ylabel("strategy")
    right.set_title("Payoff: row's win rate (%) in games with column")
    right.grid(False)
    cb = fig.colorbar(image, ax=right, shrink=0.8)
    cb.set_label(f"win rate (%), centred on fair {fair:.1f}%")
    return fig


# ============================================================================ skill, solo


@styled
def skill_vs_luck(skill: pl.DataFrame) -> Figure | None:
    """How often the stronger bot wins, per variant and player count, against its fair share.

    ``skill``: :func:`analyses.stats.skill.skill_vs_luck`'s rows (``lab.open_study(f).tables.skill``).
    """
    skill = skill_rows(skill)
    if skill is None:
        return None
    rank = {v: i for i, v in enumerate(OPTION_ORDER)}
    df = skill.with_columns(pl.col("variant").replace_strict(rank, default=len(rank)).alias("_o")).sort(
        ["players", "stronger", "weaker", "_o", "variant"]).drop("_o")
    labels = [f"{r['players']}p {variant_label(r['variant'], short=True)}: {r['stronger']} vs {r['weaker']}" for r in df.iter_rows(named=True)]
    fig, ax, y = forest("Skill against luck",
                        "How often the stronger bot wins against the weaker one(s) on the same deals, seats rotated; "
                        "bars = 95% intervals, | = fair share. The further right, the more the game rewards skill.",
                        df, "stronger_win_rate", "win_low", "win_high", labels, "stronger bot's win rate (%)")
    ax.scatter(df["fair"].to_numpy() * 100, y, marker="|", s=220, color="#222222", zorder=4)
    return fig


@styled
def strength_ladder(ladder: pl.DataFrame) -> Figure | None:
    """The strength ladder: each bot's head-to-head win share against the next weaker one, with 95% intervals.

    ``ladder``: :func:`analyses.tools.ladder.strength_ladder`'s rows (``lab.open_study(f).tables.ladder``).
    """
    if ladder is None or ladder.height == 0:
        return None
    df = ladder.sort("step")
    r0 = df.row(0, named=True)
    fig, ax, _ = forest(
        "Strength ladder",
        f"{players_label(r0['players']).capitalize()} games ({variant_label(r0['variant'])}), both seatings on the "
        "same deals: how often each bot beats the next weaker one; bars = 95% intervals, the line = one half. "
        "A bar clear of one half: the two bots are an interval apart.",
        df, "stronger_win_rate", "win_low", "win_high",
        [f"{r['stronger']} vs {r['weaker']} ({r['games']:,} games)" for r in df.iter_rows(named=True)],
        "stronger bot's share of the wins (%)")
    ax.axvline(50, color="#222222", lw=0.8)
    return fig


@styled
def solo_bands(solo: pl.DataFrame) -> Figure | None:
    """Share of solo games in each rulebook score band (R10.5): one panel per strategy, one bar per variant.

    ``solo``: :func:`analyses.games.dreamscape.solo.solo_bands`'s rows (strategy, variant, band, share,
    share_low, share_high, mean_score; ``lab.open_study(f).tables.solo``). Bars: share in %.
    """
    if solo is None or solo.height == 0:
        return None
    df = solo
    strategies = df["strategy"].unique(maintain_order=True).to_list()[:3]
    variants = shown_variants(df["variant"].to_list(), 6)
    df = df.filter(pl.col("strategy").is_in(strategies) & pl.col("variant").is_in(variants))
    bands = [b[2] for b in SOLO_BANDS]
    fig = new_page("Solo (Virtual Dreaming) score bands",
               "Share of solo games ending in each of the rulebook's score bands (R10.5); bars = 95% Wilson intervals; "
               "the legend gives each variant's mean final score.")
    axes = panels(len(strategies), fig, sharey=True)
    top = float(df["share_high"].max()) * 100
    for ax, strategy in zip(axes, strategies):
        here = [v for v in variants if df.filter((pl.col("strategy") == strategy) & (pl.col("variant") == v)).height]
        width = 0.8 / max(len(here), 1)
        for i, v in enumerate(here):
            part = df.filter((pl.col("strategy") == strategy) & (pl.col("variant") == v))
            share = {r["band"]: (r["share"], r["share_low"], r["share_high"]) for r in part.iter_rows(named=True)}
            vals = np.array([share.get(b, (0.0, 0.0, 0.0)) for b in bands]) * 100
            x = np.arange(len(bands)) + (i - (len(here) - 1) / 2) * width
            colour = PALETTE[variants.index(v) % len(PALETTE)]
            ax.bar(x, vals[:, 0], width * 0.92, color=colour, label=f"{variant_label(v, short=True)} (mean {part['mean_score'][0]:.1f})",
                   yerr=error_lengths(vals[:, 0], vals[:, 1], vals[:, 2]), capsize=2,
                   error_kw={"elinewidth": 0.9, "ecolor": "#222222"})
        ax.set_xticks(range(len(bands)), bands)
        ax.set_xlabel("final score band (points)")
        ax.set_title(f"{strategy} bot")
        ax.set_ylim(0, top * 1.25)
        ax.grid(axis="x", visible=False)
        ax.legend(loc="upper left", frameon=False, fontsize=8.5)
    axes[0].set_ylabel("share of solo games (%)")
    return fig


# ============================================================================ bot strength


def exploit_bots(exploit: pl.DataFrame) -> list[str]:
    """The bots an exploit table measures, weakest first (one page each)."""
    return sorted(dict.fromkeys(exploit["strategy"].to_list()), key=level_key)


@styled
def exploit_table(exploit: pl.DataFrame, strategy: str | None = None, missing: Sequence[str] = ()) -> Figure | None:
    """How strong was a bot? The search player's gain over it in each seat, with 95% intervals.

    ``exploit``: ``pl.DataFrame(lab.exploit(...)["rows"])`` or ``lab.open_study(f).tables.exploit``
    (strategy, search, players, variant, seat from 1, gain, gain_low, gain_high, games; gains are fractions,
    drawn in percentage points). ``strategy``: the bot (default: the weakest the table measures); a bot
    measured at several budgets shows its largest. A ``source`` column (a study's tables) marks the cells taken
    from a kept run ("kept run"); ``missing``: a line per configuration read under the bot and not measured.
    """
    if exploit is None or exploit.height == 0:
        return None
    bots = exploit_bots(exploit)
    bot = strategy or bots[0]
    if bot not in bots:
        raise ValueError(f"strategy {bot!r} is not in the exploit table (it has {', '.join(bots)})")
    mine = exploit.filter(pl.col("strategy") == bot)
    search = mine["search"].to_list()[-1]
    df = mine.filter(pl.col("search") == search).sort(["variant", "players", "seat"])
    r0 = df.row(0, named=True)
    title = "How strong were the bots?" + (f" ({bot})" if bot != bots[0] else "")
    kept = [str(r.get("source") or "").startswith("from a kept run") for r in df.iter_rows(named=True)]
    sources = (f" Cells marked \"kept run\" come from a kept run of the same seed, deck and {r0['strategy']} value "
               f"(analyses/games/dreamscape/kept.py); the others were measured in this study folder." if any(kept) else "")
    unmeasured = (f" Read under {r0['strategy']} but not measured: {len(missing)} configuration"
                  f"{'s' if len(missing) != 1 else ''} (listed with the findings)." if missing else "")
    games = sorted(set(df["games"].to_list()))
    fig, ax, _ = forest(
        title,
        f"Win rate gained by {r0['search']} in one seat against {r0['strategy']} everywhere else, over "
        f"{r0['strategy']}'s own win rate in that seat on the same deals "
        f"({' or '.join(f'{g:,}' for g in games)} games per seat); "
        "bars = 95% intervals. Near 0: this search, at this budget, finds no better play than the bot (a larger "
        "budget may: dreamscape exploit -k 8 -k 16 measures the budget ladder); large gains: findings may belong to the bot rather than "
        f"to the game.{sources}{unmeasured}",
        df, "gain", "gain_low", "gain_high",
        [f"{r['players']}p {variant_label(r['variant'], short=True)}, seat {r['seat']}{', kept run' if k else ''}"
         for r, k in zip(df.iter_rows(named=True), kept)],
        f"search gain over {r0['strategy']} (percentage points of win rate)", share=False)
    ax.axvline(0, color="#222222", lw=0.8)
    return fig


@styled
def budget_ladder(doubling: pl.DataFrame) -> Figure | None:
    """The budget ladder: what each doubling of the search's playouts over a bot gains, per seat, with 95% intervals.

    ``doubling``: the ``doubling`` rows of ``lab.exploit(..., playouts=[4, 8, 16])`` as a frame, or
    ``lab.open_study(f).tables.doubling`` (seats from 1; gains are fractions, drawn in percentage points).
    """
    if doubling is None or doubling.height == 0:
        return None
    df = doubling.sort(["strategy", "variant", "players", "seat", "from_playouts"])
    bots = ", ".join(dict.fromkeys(df["strategy"].to_list()))
    fig, ax, _ = forest(
        "Search budget ladder",
        f"Win rate gained by doubling the playouts of the search player over {bots} in one seat (the larger "
        "budget's win rate minus the smaller's, on the same deals), bars = 95% intervals. Near 0 at the top: "
        "more search finds no more, so the search's gain over the bot is about all there is to find.",
        df, "gain", "gain_low", "gain_high",
        [f"{r['strategy']} {r['players']}p {variant_label(r['variant'], short=True)}, seat {r['seat']}: "
         f"{r['from_playouts']} -> {r['to_playouts']}" for r in df.iter_rows(named=True)],
        "gain of the doubling (percentage points of win rate)", share=False)
    ax.axvline(0, color="#222222", lw=0.8)
    return fig


# ============================================================================ restricted play


@styled
def restricted_play(restrict: pl.DataFrame) -> Figure | None:
    """Restricted play: the win rate a seat loses when its bot may never buy / perform a type, with 95% intervals.

    ``restrict``: ``pl.DataFrame(lab.restrict(...)["rows"])`` or ``lab.open_study(f).tables.restrict``
    (losses are fractions, drawn in percentage points).
    """
    if restrict is None or restrict.height == 0:
        return None
    df = restrict.sort(["restriction", "variant", "players", "rank"])
    r0 = df.row(0, named=True)
    fig = new_page("Restricted play: which dream types matter?",
               f"One seat's {r0['strategy']} bot may never buy a card showing a dream type (left) or never perform it "
               f"(right); the others play unrestricted. Loss = its win rate in that seat without the restriction minus "
               f"with it, on the same deals ({r0['games']:,} deals per seat, every seat in turn); bars = 95% intervals. "
               "Large: the type is essential to the bot's play; D = dominant (dwarfs the others), "
               "0 = irrelevant (no measurable loss).")
    kinds = list(dict.fromkeys(df["restriction"].to_list()))
    axes = fig.subplots(1, len(kinds), squeeze=False)[0]
    for ax, kind in zip(axes, kinds):
        part = df.filter(pl.col("restriction") == kind)
        y = interval_rows(ax, part, "loss", "loss_low", "loss_high")
        ax.axvline(0, color="#222222", lw=0.8)
        marks = {"dominant": " D", "irrelevant": " 0"}
        labels = [f"{r['players']}p {variant_label(r['variant'], short=True)}: {r['type']}{marks.get(r['flag'], '')}"
                  for r in part.iter_rows(named=True)]
        ax.set_yticks(y, labels)
        ax.set_xlabel(f"never {kind}: loss (percentage points of win rate)")
        ax.grid(axis="y", visible=False)
    return fig


# ============================================================================ suggested fixes


@styled
def suggested_fixes(fixes: pl.DataFrame) -> Figure | None:
    """Suggested fixes: each verified knob setting's seat win rates and game length against the unmodified game.

    ``fixes``: ``pl.DataFrame(lab.fix_seats(...)["rows"])`` or ``lab.open_study(f).tables.fixes`` (seats from 1).
    """
    if fixes is None or fixes.height == 0:
        return None
    df = fixes.sort(["candidate", "seat"])
    r0 = df.row(0, named=True)
    fig = new_page("Suggested fixes",
               f"Rules knob settings found by `dreamscape fix-seats` for {r0['players']} players"
               + (f" with the {r0['strategy']} bot on every seat" if r0.get("strategy") else "") + " (target: seat spread "
               f"under {100 * r0['target']:.0f} points, mean length within +-10% of the unmodified game), re-played on "
               f"{r0['games']:,} fresh deals each. Left: each seat's win rate with its 95% interval (dotted: the fair "
               "share). Right: mean game length with its 95% interval; the grey band is +-10% of the unmodified game.")
    left, right = fig.subplots(1, 2, width_ratios=(3, 2))
    y = interval_rows(left, df, "win_rate", "win_low", "win_high")
    left.axvline(100.0 / r0["players"], color="#222222", lw=0.8, ls=":")
    left.set_yticks(y, [f"{'unmodified' if r['candidate'] == 0 else 'fix ' + str(r['candidate'])}, seat {r['seat']}"
                        for r in df.iter_rows(named=True)])
    left.set_xlabel("win rate (%)")
    left.grid(axis="y", visible=False)
    per = df.filter(pl.col("seat") == 1)
    yy = np.arange(per.height)[::-1]
    right.hlines(yy, per["length_low"].to_numpy(), per["length_high"].to_numpy(), color=PALETTE[0], lw=3)
    right.scatter(per["mean_length"].to_numpy(), yy, color=PALETTE[0], s=36, zorder=3)
    base = r0["base_length"]
    right.axvspan(0.9 * base, 1.1 * base, color="#dddddd", zorder=0)
    right.set_yticks(yy, [f"{'unmodified' if r['candidate'] == 0 else 'fix ' + str(r['candidate'])}: "
                          f"spread {100 * r['spread']:.1f} pts\n{variant_label(r['variant'], short=True)}"
                          for r in per.iter_rows(named=True)], fontsize=7)
    right.set_xlabel("mean game length (turns)")
    right.grid(axis="y", visible=False)
    return fig


# --------------------------------------------------------------------------- a study folder's charts


def tables(folder):
    """A study folder's report tables (:func:`analyses.games.dreamscape.frames.collect`) with seats counted from 1."""
    return lab_tables(collect(folder))


def configs_of(t) -> pl.DataFrame:
    """config, variant, players, strategies of every configuration of a study's tables (manifest or seat table)."""
    schema = {"config": pl.Utf8, "variant": pl.Utf8, "players": pl.Int64, "strategies": pl.Utf8}
    if t.manifest is not None:
        return pl.DataFrame([{"config": c.id, "variant": c.variant, "players": c.players, "strategies": c.label}
                             for c in t.manifest.configs], schema=schema)
    if t.seats is not None:
        return t.seats.select(list(schema)).unique(maintain_order=True)
    return pl.DataFrame(schema=schema)


def figures(t) -> dict[str, Figure]:
    """Every chart of a study's tables (:func:`tables`), by name, in report order."""
    configs = configs_of(t)
    out = {"seats": t.seats is not None and seat_win_rates(t.seats),
           "compare": t.compare is not None and variant_comparison(t.compare),
           "scores": t.score_dist is not None and final_scores(t.score_dist, configs),
           "lengths": t.length_dist is not None and game_lengths(t.length_dist, configs),
           "types": t.strength is not None and type_strength(t.strength),
           "cards": t.pairs is not None and card_strength(t.pairs)}
    for p in swap_players(t.sweep) if t.sweep is not None else []:
        out[f"swaps-{p}p"] = swaps_heatmap(t.sweep, p)
    for tour in round_robins(t):
        out[f"tournament-{tour.players}p-{tour.variant}"] = tournament(tour)
    out.update(skill=t.skill is not None and skill_vs_luck(t.skill), ladder=strength_ladder(t.ladder),
               solo=solo_bands(t.solo))
    for bot in exploit_bots(t.exploit) if t.exploit is not None and t.exploit.height else []:
        out[f"exploit-{bot}"] = exploit_table(t.exploit, bot)
    out.update(doubling=budget_ladder(t.doubling), restrict=restricted_play(t.restrict), fixes=suggested_fixes(t.fixes))
    return {name: fig for name, fig in out.items() if fig not in (None, False)}


# the charts of the Python API (``analyses.lab.plot.<name>`` finds these through the registry)
__all__ = ["seat_win_rates", "variant_comparison", "final_scores", "game_lengths", "type_strength", "card_strength",
           "swaps_heatmap", "swap_players", "tournament", "skill_vs_luck", "strength_ladder", "solo_bands",
           "exploit_table", "exploit_bots", "budget_ladder", "restricted_play", "suggested_fixes"]
