"""Project Dreamscape's findings: plain sentences a designer can read aloud, each built from one row of one table.

Every :class:`Finding` keeps the table row it quotes (``row``) and the name of
that table (``source``, an attribute of :class:`reports.games.dreamscape.data.StudyTables`),
so the numbers of a sentence can be checked against the data. A finding is
``significant`` when the 95% interval it quotes excludes the fair share (rates)
or zero (differences). Seats are numbered from 1 ("seat 1" = seat index 0).
"""
from __future__ import annotations

import polars as pl

from reports.findings import Finding
from reports.numbers import change_with_interval, mean_with_interval, rate_with_interval
from reports.games.dreamscape.data import StudyTables, homogeneous, main_strategy, round_robins, skill_rows
from reports.games.dreamscape.labels import (
    OPTION_ORDER,
    options_label,
    pct,
    players_label,
    seat_label,
    split_variant,
    strategies_label,
    swap_words,
    type_name,
    variant_label,
)

def _cell(v) -> str:
    return f"{v:.1f}"


def _main_variant(variants) -> str | None:
    """``base`` if present, else the first variant without swaps, else the first one."""
    variants = list(dict.fromkeys(variants))
    if not variants:
        return None
    if "base" in variants:
        return "base"
    plain = [v for v in variants if not split_variant(v).has_swaps]
    return (plain or variants)[0]


def _context(players: int, variant: str, strategy: str | None = None) -> str:
    """``"3-player games (base game, linear bot)"``."""
    what = variant_label(variant)
    bot = f", {strategy} bot" if strategy else ""
    return f"{players}-player games ({what}{bot})"


# ============================================================================ seats


def seat_findings(t: StudyTables) -> list[Finding]:
    """Per player count: the best seat, and the worst one with 3 or 4 players."""
    if t.seats is None:
        return []
    df = homogeneous(t.seats.filter(pl.col("players") >= 2))
    out = []
    for p in sorted(df["players"].unique().to_list()):
        here = df.filter(pl.col("players") == p)
        for strategy in here["strategy"].unique(maintain_order=True).to_list():
            part = here.filter(pl.col("strategy") == strategy)
            variant = _main_variant(part["variant"].to_list())
            part = part.filter(pl.col("variant") == variant).sort("seat")
            if part.height == 0:
                continue
            picks = [part.sort("win_rate", descending=True).row(0, named=True)]
            if p >= 3:
                picks.append(part.sort("win_rate").row(0, named=True))
            for r in picks:
                text = (f"In {_context(p, variant, strategy)} {seat_label(r['seat'])} wins "
                        f"{rate_with_interval(r['win_rate'], r['win_low'], r['win_high'])} against a fair {pct(r['fair'])}.")
                out.append(Finding(text, bool(r["significant"]), "seats", "seats", r))
    return out


# ============================================================================ compare and swaps

_METRIC_WORDS = {
    "seat_spread": ("seat spread", 100.0, " points"),
    "first_seat_win": ("seat 1's win rate", 100.0, "%"),
    "winning_score": ("the mean winning score", 1.0, " points"),
    "game_length": ("the mean game length", 1.0, " turns"),
}


def _change_sentence(r: dict, lead: str) -> str:
    words, scale, unit = _METRIC_WORDS[r["metric"]]
    a, b = r["baseline_value"] * scale, r["variant_value"] * scale
    d, lo, hi = (round(r[k] * scale, 1) + 0.0 for k in ("diff", "diff_low", "diff_high"))  # + 0.0: no "-0.0"
    return f"{lead} moves {words} from {_cell(a)} to {_cell(b)}{unit}, a change of {change_with_interval(d, lo, hi, scale=1)}."


def compare_findings(t: StudyTables) -> list[Finding]:
    """Each rules option against the baseline: its effect on seat spread, per player count."""
    cmp = homogeneous(t.compare)
    if cmp is None or cmp.height == 0:
        return []
    df = cmp.filter((pl.col("metric") == "seat_spread") & (pl.col("players") >= 2))
    out = []
    many = len({strategies_label(s) for s in df["strategies"].to_list()}) > 1
    rank = {v: i for i, v in enumerate(OPTION_ORDER)}
    rows = sorted(df.iter_rows(named=True), key=lambda r: (r["players"], r["strategies"], rank.get(r["variant"], 99), r["variant"]))
    for r in rows:
        parts = split_variant(r["variant"])
        if parts.has_swaps or r["variant"] == r["baseline"]:
            continue
        base = "" if r["baseline"] == "base" else f" instead of {variant_label(r['baseline'])}"
        bot = f" with the {strategies_label(r['strategies'])} bot" if many else ""
        lead = f"In {r['players']}-player games{bot}, playing {options_label(parts.options)}{base}"
        out.append(Finding(_change_sentence(r, lead), bool(r["significant"]), "compare", "compare", r))
    return out


def swap_findings(t: StudyTables) -> list[Finding]:
    """Per player count: the single swap that lowers seat spread most and the one that raises it most."""
    out: list[Finding] = []
    cmp = homogeneous(t.compare)
    if cmp is not None and cmp.height:
        df = cmp.filter((pl.col("metric") == "seat_spread") & (pl.col("players") >= 2))
        rows = [r for r in df.iter_rows(named=True)
                if len(split_variant(r["variant"]).swaps) == 1
                and split_variant(r["variant"]).options == split_variant(r["baseline"]).options
                and not split_variant(r["baseline"]).has_swaps]
        # one bot's swaps: the one that played most of them (others replay a few decks as skill levels, reports.games.dreamscape.robust)
        bots = [r["strategies"].split("/")[0] for r in rows]
        main_bot = max(sorted(set(bots)), key=bots.count) if bots else None
        rows = [r for r, bot in zip(rows, bots) if bot == main_bot]
        by_players: dict[int, list[dict]] = {}
        for r in rows:
            by_players.setdefault(r["players"], []).append(r)
        for p in sorted(by_players):
            cand = by_players[p]
            main = _main_variant([r["baseline"] for r in cand])
            cand = [r for r in cand if r["baseline"] == main]
            if not cand:
                continue
            best = min(cand, key=lambda r: r["diff"])
            worst = max(cand, key=lambda r: r["diff"])
            for r in (best, worst) if best is not worst else (best,):
                (rem, add), = split_variant(r["variant"]).swaps
                where = "" if main == "base" else f" with {options_label(split_variant(main).options)}"
                lead = f"In {p}-player games{where}, swapping {type_name(rem)} for {type_name(add)}"
                out.append(Finding(_change_sentence(r, lead), bool(r["significant"]), "swaps", "compare", r))
        if out:
            return out
    sw = main_strategy(t.sweep)
    if sw is None:
        return out
    # No comparison table: quote the sweep's own row, with the no-swap value of the same rules beside it.
    sw = sw.filter(pl.col("players") >= 2)
    for p in sorted(sw["players"].unique().to_list()):
        here = sw.filter(pl.col("players") == p)
        opts = "base" if "base" in here["options"].to_list() else here["options"][0]
        ref = here.filter((pl.col("options") == opts) & (pl.col("swaps") == "none"))
        single = here.filter((pl.col("options") == opts) & (pl.col("swaps") != "none") & ~pl.col("swaps").str.contains(r"\+"))
        if ref.height == 0 or single.height == 0:
            continue
        ref_value = float(ref["seat_spread"][0])
        best = single.sort("seat_spread").row(0, named=True)
        worst = single.sort("seat_spread", descending=True).row(0, named=True)
        for r in (best, worst):
            r = dict(r, no_swap_seat_spread=ref_value)
            where = "" if opts == "base" else f" with {options_label(opts)}"
            text = (f"In {p}-player games{where}, {swap_words(r['removed'], r['added'])} moves seat spread from "
                    f"{_cell(100 * ref_value)} to "
                    f"{mean_with_interval(100 * r['seat_spread'], 100 * r['spread_low'], 100 * r['spread_high'])} points.")
            sig = not (r["spread_low"] <= ref_value <= r["spread_high"])
            out.append(Finding(text, sig, "swaps", "sweep", r))
    return out


# ============================================================================ types


def type_findings(t: StudyTables) -> list[Finding]:
    """Per player count (main variant): the strongest dream type, and the weakest when it is significantly below fair."""
    strength = main_strategy(t.strength)
    if strength is None:
        return []
    df = strength.filter((pl.col("players") >= 2) & pl.col("win_rate_more").is_not_nan())
    out = []
    for p in sorted(df["players"].unique().to_list()):
        here = df.filter(pl.col("players") == p)
        variant = _main_variant(here["variant"].to_list())
        here = here.filter(pl.col("variant") == variant)
        if here.height == 0:
            continue
        strongest = here.sort("lift", descending=True).row(0, named=True)
        weakest = here.sort("lift").row(0, named=True)
        for r in (strongest, weakest) if weakest["type"] != strongest["type"] else (strongest,):
            if r is weakest and not (r["significant"] and r["lift"] < 0):
                continue  # the weakest type is news only when it loses significantly more than its share
            text = (f"In {p}-player games ({variant_label(variant)}), seats that perform {type_name(r['type'])} more than "
                    f"average win {rate_with_interval(r['win_rate_more'], r['win_low'], r['win_high'])} against a fair {pct(r['fair'])}.")
            out.append(Finding(text, bool(r["significant"]), "types", "strength", r))
    return out


# ============================================================================ tournaments, skill, solo, length


def tournament_findings(t: StudyTables) -> list[Finding]:
    """Per tournament: the leader's overall win rate, and the dominant strategy if there is one."""
    out = []
    for i, tour in enumerate(t.tournaments):
        if tour not in round_robins(t):
            continue
        st = tour.standings.sort("win_rate", descending=True)
        r = st.row(0, named=True)
        last = st.row(st.height - 1, named=True)
        fair = tour.fair
        where = f"the {tour.players}-player tournament ({variant_label(tour.variant)})"
        for row, word in ((r, "leads"), (last, "trails")):
            sig = not (row["win_low"] <= fair <= row["win_high"])
            text = (f"In {where}, {row['strategy']} {word} with {rate_with_interval(row['win_rate'], row['win_low'], row['win_high'])} "
                    f"of its games won against a fair {pct(fair)}.")
            out.append(Finding(text, sig, "tournament", f"tournament:{i}", row))
        if tour.dominant:
            row = st.filter(pl.col("strategy") == tour.dominant).row(0, named=True)
            text = (f"In {where}, {tour.dominant} is dominant: it beats every other strategy head to head "
                    f"(overall {pct(row['win_rate'])}).")
            out.append(Finding(text, True, "tournament", f"tournament:{i}", row))
    return out


def skill_findings(t: StudyTables, limit: int = 6) -> list[Finding]:
    """How often the stronger bot wins: per pairing, the variant where skill counts most and least."""
    skill = skill_rows(t.skill)
    if skill is None:
        return []
    out = []
    for key, part in skill.group_by(["players", "stronger", "weaker"], maintain_order=True):
        part = part.sort("stronger_win_rate", descending=True)
        rows = [part.row(0, named=True)]
        if part.height > 1:
            rows.append(part.row(part.height - 1, named=True))
        for r in rows:
            text = (f"In {r['players']}-player games ({variant_label(r['variant'])}), {r['stronger']} beats {r['weaker']}: "
                    f"it wins {rate_with_interval(r['stronger_win_rate'], r['win_low'], r['win_high'])} against a fair {pct(r['fair'])}.")
            out.append(Finding(text, bool(r["significant"]), "skill", "skill", r))
    return out[:limit]


def ladder_findings(t: StudyTables) -> list[Finding]:
    """The ladder in one sentence, then every step whose two bots are not an interval apart."""
    if t.ladder is None or t.ladder.height == 0:
        return []
    df = t.ladder.sort("step")
    first = df.row(0, named=True)
    in_chain = pl.col("source").is_in(["round robin", "search over the top bot"])
    robin, beside = df.filter(in_chain), df.filter(~in_chain)  # search over a lower bot hangs off it, not the top
    chain = "; ".join([" < ".join([robin["weaker"][0], *robin["stronger"].to_list()])] * (robin.height > 0)
                      + [f"{r['weaker']} < {r['stronger']}" for r in beside.iter_rows(named=True)])
    where = f"{players_label(first['players'])} games ({variant_label(first['variant'])}), head to head on the same deals"
    apart = df.filter(pl.col("apart"))
    if apart.height == df.height:
        text = (f"In {where}, every step of the ladder {chain} is an interval apart: the smallest step is "
                + _step_words(df.sort("stronger_win_rate").row(0, named=True)) + ".")
        return [Finding(text, True, "ladder", "ladder", first)]
    text = f"In {where}, {apart.height} of the {df.height} steps of the ladder {chain} are an interval apart."
    out = [Finding(text, False, "ladder", "ladder", first)]
    for r in df.filter(~pl.col("apart")).iter_rows(named=True):
        out.append(Finding(f"Not an interval apart: {_step_words(r)}.", False, "ladder", "ladder", r))
    return out


def _step_words(r: dict) -> str:
    return (f"{r['stronger']} wins {rate_with_interval(r['stronger_win_rate'], r['win_low'], r['win_high'])} "
            f"of {r['games']:,} games against {r['weaker']}")


def solo_findings(t: StudyTables) -> list[Finding]:
    """Per solo strategy (main variant): mean score and the most common rulebook band (R10.5)."""
    if t.solo is None:
        return []
    out = []
    for strategy in t.solo["strategy"].unique(maintain_order=True).to_list():
        here = t.solo.filter(pl.col("strategy") == strategy)
        variant = _main_variant(here["variant"].to_list())
        r = here.filter(pl.col("variant") == variant).sort("share", descending=True).row(0, named=True)
        text = (f"Solo with the {strategy} bot ({variant_label(variant)}) scores "
                f"{mean_with_interval(r['mean_score'], r['score_low'], r['score_high'])} points on average; the most "
                f"common band is {r['band']}, in {rate_with_interval(r['share'], r['share_low'], r['share_high'])} of games.")
        out.append(Finding(text, False, "solo", "solo", r))
    return out


def length_findings(t: StudyTables) -> list[Finding]:
    """Mean game length per player count (main variant, every seat the same bot)."""
    if t.lengths is None or "players" not in t.lengths.columns:
        return []
    df = homogeneous(t.lengths.filter(pl.col("players") >= 2))
    out = []
    for p in sorted(df["players"].unique().to_list()):
        here = df.filter(pl.col("players") == p)
        variant = _main_variant(here["variant"].to_list())
        for r in here.filter(pl.col("variant") == variant).iter_rows(named=True):
            text = (f"{players_label(p).capitalize()} games ({variant_label(variant)}, {strategies_label(r['strategies'])} bot) "
                    f"last {mean_with_interval(r['mean_length'], r['length_low'], r['length_high'], digits=2)} turns on average.")
            out.append(Finding(text, False, "length", "lengths", r))
    return out


def exploit_findings(t: StudyTables) -> list[Finding]:
    """Per bot measured, the seat where search gains most over it and how many seats it gains in at all;
    then the budget ladder's top doubling."""
    if t.exploit is None or t.exploit.height == 0:
        return []
    out = []
    for bot in dict.fromkeys(t.exploit["strategy"].to_list()):
        mine = t.exploit.filter(pl.col("strategy") == bot)
        df = mine.filter(pl.col("search") == mine["search"].to_list()[-1])  # a budget ladder: its largest budget
        r = df.sort("gain", descending=True).row(0, named=True)
        n_sig = int(df.filter(pl.col("gain_low") > 0).height)
        text = (f"Search over the {r['strategy']} bot ({r['search']}) wins "
                f"{change_with_interval(r['gain'], r['gain_low'], r['gain_high'])} points more often than the bot itself in "
                f"seat {r['seat']} of {r['players']}-player games ({variant_label(r['variant'])}): "
                f"{pct(r['search_win'])} against {pct(r['own_win'])}; "
                f"it gains significantly in {n_sig} of {df.height} seats, so findings measured with {r['strategy']} "
                f"may partly belong to the bot's style of play.")
        out.append(Finding(text, bool(r["gain_low"] > 0 or r["gain_high"] < 0), "exploit", "exploit", r))
    return out + sources_findings(t) + doubling_findings(t)


def sources_findings(t: StudyTables) -> list[Finding]:
    """Where the strong bot's distance from search comes from: cells of this folder, cells of kept runs (the same
    seed, deck and value, :mod:`analyses.games.dreamscape.kept`), and every configuration read under it unmeasured."""
    missing = list(getattr(t, "exploit_missing", []) or [])
    rows = [] if t.exploit is None or "source" not in t.exploit.columns else \
        t.exploit.filter(pl.col("strategy") == "strong").to_dicts()
    if not rows and not missing:
        return []
    kept = sorted({r["source"] for r in rows if str(r["source"]).startswith("from a kept run")})
    own = sum(1 for r in rows if not str(r["source"]).startswith("from a kept run"))
    parts = [f"{own} measured in this study folder"] if own else []
    parts += [f"{sum(1 for r in rows if r['source'] == k)} {k}" for k in kept]
    text = f"The strong bot's distance from search: {len(rows)} cells ({', '.join(parts) or 'none'})."
    if missing:
        text += (f" Read under strong with no distance measured ({len(missing)}), so their findings under strong say "
                 f"\"unmeasured\": " + "; ".join(missing) + ".")
    return [Finding(text, False, "exploit", "exploit", {"strategy": "strong", "cells": len(rows), "missing": missing})]


def doubling_findings(t: StudyTables) -> list[Finding]:
    """Per bot, the top doubling of the budget ladder: the largest gain of its last doubling over every seat."""
    if t.doubling is None or t.doubling.height == 0:
        return []
    out = []
    for bot in dict.fromkeys(t.doubling["strategy"].to_list()):
        mine = t.doubling.filter(pl.col("strategy") == bot)
        top = mine.filter(pl.col("to_playouts") == mine["to_playouts"].max())
        r = top.sort("gain", descending=True).row(0, named=True)
        n_sig = int(top.filter(pl.col("gain_low") > 0).height)
        text = (f"Doubling the search over {bot} from {r['from_playouts']} to {r['to_playouts']} playouts gains at most "
                f"{change_with_interval(r['gain'], r['gain_low'], r['gain_high'])} points (seat {r['seat']} of "
                f"{r['players']}-player games, {variant_label(r['variant'])}); significantly in {n_sig} of "
                f"{top.height} seats.")
        out.append(Finding(text, bool(r["gain_low"] > 0), "exploit", "doubling", r))
    return out


def restrict_findings(t: StudyTables) -> list[Finding]:
    """Per restriction: the type whose loss is largest, and the dominant / irrelevant ones."""
    if t.restrict is None or t.restrict.height == 0:
        return []
    out = []
    for kind in dict.fromkeys(t.restrict["restriction"].to_list()):
        df = t.restrict.filter(pl.col("restriction") == kind)
        r = df.sort("loss", descending=True).row(0, named=True)
        # irrelevant wherever measured (every player count and deck that holds the type)
        flags = df.group_by("type", maintain_order=True).agg((pl.col("flag") == "irrelevant").all().alias("nil"))
        nil = flags.filter(pl.col("nil"))["type"].to_list()
        dom = " It dominates: its loss is at least twice any other's." if r["flag"] == "dominant" else ""
        text = (f"Forbidden to {kind} {r['type_name']}, the {r['strategy']} bot's win rate changes by "
                f"{change_with_interval(-r['loss'], -r['loss_high'], -r['loss_low'])} points in {r['players']}-player games "
                f"({variant_label(r['variant'])}): {pct(r['win'])} against {pct(r['base_win'])}; "
                f"the largest loss of the {df.height} type/setting cells.{dom}"
                + (f" No measurable loss anywhere without: {', '.join(nil)}." if nil else ""))
        out.append(Finding(text, bool(r["loss_low"] > 0), "restrict", "restrict", r))
    return out


FINDERS = (seat_findings, compare_findings, swap_findings, type_findings, tournament_findings,
           skill_findings, ladder_findings, solo_findings, length_findings, exploit_findings, restrict_findings)


def make_findings(t: StudyTables) -> list[Finding]:
    """Every finding the study's tables support, grouped by topic in report order."""
    out: list[Finding] = []
    for fn in FINDERS:
        out.extend(fn(t))
    return out
