"""Goofspiel's study report: a report wing (``reports.wing.ReportWing``) on the lab's report framework.

The model for a designer's report: it reads a study folder through the lab's readers
(``analyses.study.folder``: the seat totals every game's chunks hold, the per-game rows when the study
kept them), makes two tables, says what they show in the framework's sentence forms (every number with
its 95% interval, written by ``reports.numbers``), draws a chart per table and hands everything to
``reports.pdf.write_report`` (title page, findings, charts, the PDF and the PNGs). The lab finds it
through the ``dreamscape.reports`` entry point of this package's pyproject.toml.

Seats count from 1 in every sentence and chart. A shared win counts 1/k to each of its k winners (G5.2),
so a seat's fair share is 1/players. A finding is starred when its interval excludes the fair share
(rates) or zero (changes).
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl

from .common import NAME, TITLE

TOPICS = {
    "seats": "Seat advantage (bids are simultaneous, so no seat should have one)",
    "carry": "Tied prizes discarded (base, G4.2) or carried to the next round (carry, G4.3)",
    "bots": "How strong each bot is",
}


# ------------------------------------------------------------------------------------------ tables


def seat_table(folder) -> pl.DataFrame:
    """One row per configuration and seat: win share with its Wilson interval and the fair share 1/players."""
    from analyses.stats.intervals import wilson
    from analyses.study.folder import seat_totals

    rows = []
    for r in seat_totals(folder).iter_rows(named=True):
        est = wilson(r["sum_win"], int(r["n"]))
        rows.append({"config": r["config"], "variant": r["variant"], "players": r["players"],
                     "strategies": r["strategies"], "seat": int(r["seat"]) + 1, "strategy": r["strategy"],
                     "games": int(r["n"]), "win": est.value, "low": est.low, "high": est.high,
                     "fair": 1.0 / r["players"], "mean_score": r["sum_score"] / r["n"]})
    return pl.DataFrame(rows).sort(["players", "strategies", "variant", "seat"])


def _seat1_credit(folder, config: str) -> np.ndarray:
    """Seat 1's win credit game by game (games in order), from the study's per-game rows."""
    from analyses.study.folder import scan_games

    rows = scan_games(folder, [config]).filter(pl.col("seat") == 0).select("game", "win").collect().sort("game")
    return rows["win"].to_numpy()


def carry_table(folder, seats: pl.DataFrame) -> pl.DataFrame:
    """Base against carry for every seat count and bot played under both rules: seat 1's win share under
    each, the change (paired game by game: game g of both configurations deals the same prizes) and the
    prize points the base rule discards per game (G4.2), each with its 95% interval."""
    from analyses.stats.intervals import Z_95, Estimate, mean_from_sums, paired_difference, sample_variance
    from analyses.study.folder import has_games, seat_totals

    totals = seat_totals(folder).filter(pl.col("seat") == 0)
    paired = has_games(folder)
    rows = []
    for (players, strategies), group in totals.group_by(["players", "strategies"], maintain_order=True):
        by_rule = {r["variant"]: r for r in group.iter_rows(named=True)}
        if "base" not in by_rule or "carry" not in by_rule:
            continue
        base, carry = by_rule["base"], by_rule["carry"]
        if paired:
            a, b = _seat1_credit(folder, carry["config"]), _seat1_credit(folder, base["config"])
            n = min(a.size, b.size)
            change = paired_difference(a[:n], b[:n])
        else:  # an --aggregate-only study keeps sums only: the two rules' rates as independent samples
            # (a wider interval than the paired one: it ignores that both rules dealt the same prizes)
            diff = carry["sum_win"] / carry["n"] - base["sum_win"] / base["n"]
            se = math.sqrt(sample_variance(carry["sum_win"], carry["sum2_win"], carry["n"]) / carry["n"]
                           + sample_variance(base["sum_win"], base["sum2_win"], base["n"]) / base["n"])
            change = Estimate(diff, diff - Z_95 * se, diff + Z_95 * se)
        discarded = mean_from_sums(base["sum_discarded"], base["sum2_discarded"], base["n"])
        seat1 = seats.filter((pl.col("seat") == 1) & (pl.col("players") == players)
                             & (pl.col("strategies") == strategies))
        rate = {r["variant"]: r for r in seat1.iter_rows(named=True)}
        rows.append({"players": players, "strategies": strategies,
                     "base_win": rate["base"]["win"], "carry_win": rate["carry"]["win"],
                     "change": change.value, "low": change.low, "high": change.high,
                     "discarded": discarded.value, "discarded_low": discarded.low,
                     "discarded_high": discarded.high})
    return pl.DataFrame(rows, schema={"players": pl.Int64, "strategies": pl.Utf8, "base_win": pl.Float64,
                                      "carry_win": pl.Float64, "change": pl.Float64, "low": pl.Float64,
                                      "high": pl.Float64, "discarded": pl.Float64, "discarded_low": pl.Float64,
                                      "discarded_high": pl.Float64})


def tables(folder) -> dict[str, pl.DataFrame]:
    """The report's tables of a checked study folder."""
    from analyses.study.folder import check_study

    folder = Path(folder)
    check_study(folder)   # every chunk as recorded, or one line
    seats = seat_table(folder)
    return {"seats": seats, "carry": carry_table(folder, seats)}


# ---------------------------------------------------------------------------------------- findings


def findings(t: dict) -> list:
    """Plain sentences, each quoting one table row."""
    from reports.findings import Finding, excludes
    from reports.labels import pct
    from reports.numbers import change_with_interval, mean_with_interval, rate_with_interval

    out = []
    seats = t["seats"]
    same_bot = seats.filter(~pl.col("strategies").str.contains("/"))
    for r in same_bot.filter(pl.col("seat") == 1).iter_rows(named=True):
        out.append(Finding(f"Seat 1, {r['players']} players, all {r['strategy']}, {r['variant']}: wins "
                           f"{rate_with_interval(r['win'], r['low'], r['high'])} against a fair {pct(r['fair'])}.",
                           excludes(r["low"], r["high"], r["fair"]), "seats", "seats", r))
    for r in t["carry"].iter_rows(named=True):
        out.append(Finding(f"Carrying tied prizes, {r['players']} players, all {r['strategies']}: seat 1's win share "
                           f"changes by {change_with_interval(r['change'], r['low'], r['high'])} points; the base "
                           f"rule discards {mean_with_interval(r['discarded'], r['discarded_low'], r['discarded_high'])}"
                           " prize points a game.", excludes(r["low"], r["high"], 0.0), "carry", "carry", r))
    for r in seats.filter(pl.col("strategies").str.contains("/")).iter_rows(named=True):
        out.append(Finding(f"Bots: {r['strategy']} in seat {r['seat']} of {r['strategies']} ({r['variant']}) wins "
                           f"{rate_with_interval(r['win'], r['low'], r['high'])} against a fair {pct(r['fair'])}.",
                           excludes(r["low"], r["high"], r["fair"]), "bots", "seats", r))
    return out


# ------------------------------------------------------------------------------------------ charts


def _err(value, low, high) -> np.ndarray:
    value, low, high = (np.asarray(a, dtype=np.float64) for a in (value, low, high))
    return np.nan_to_num(np.clip(np.vstack([value - low, high - value]), 0, None))


def charts(t: dict) -> list:
    """Seat win shares per configuration; seat 1's change from base to carry."""
    import matplotlib

    matplotlib.use("Agg")  # no display: files only
    from matplotlib.figure import Figure

    from reports.charts import PAGE, Chart, styled

    @styled
    def draw() -> list:
        out = []
        seats = t["seats"]
        fig = Figure(figsize=PAGE)
        fig.suptitle("Win share per seat (bars: 95% intervals; red: fair share 1/players)")
        ax = fig.add_subplot(111)
        labels = [f"{r['players']}p {r['strategies']} {r['variant']} s{r['seat']}" for r in seats.iter_rows(named=True)]
        x = np.arange(len(labels))
        ax.bar(x, seats["win"], color="#0072B2")
        ax.errorbar(x, seats["win"], yerr=_err(seats["win"], seats["low"], seats["high"]), fmt="none",
                    color="black", capsize=2)
        for i, fair in enumerate(seats["fair"]):
            ax.hlines(fair, i - 0.4, i + 0.4, color="red", linewidth=1)
        ax.set_xticks(x, labels, rotation=60, ha="right", fontsize=6)
        ax.set_ylabel("win share")
        fig.subplots_adjust(bottom=0.3)
        out.append(Chart("seats", "Win share per seat", fig, seats))
        carry = t["carry"]
        if carry.height:
            fig = Figure(figsize=PAGE)
            fig.suptitle("Carry minus base: seat 1's win share, percentage points (95% intervals, paired games)")
            ax = fig.add_subplot(111)
            y = np.arange(carry.height)[::-1]
            v = 100 * carry["change"].to_numpy()
            ax.errorbar(v, y, xerr=_err(v, 100 * carry["low"].to_numpy(), 100 * carry["high"].to_numpy()),
                        fmt="o", capsize=3)
            ax.axvline(0, color="red", linewidth=1)
            ax.set_yticks(y, [f"{r['players']} players, {r['strategies']}" for r in carry.iter_rows(named=True)])
            ax.set_xlabel("change of seat 1's win share (points)")
            fig.subplots_adjust(left=0.25)
            out.append(Chart("carry", "Base against carry", fig, carry))
        return out

    return draw()


# ------------------------------------------------------------------------------------------ the files


def build_report(folder, pdf=None, png_dir=None):
    """The report of a Goofspiel study folder: the PDF (``pdf``, default ``folder/report.pdf``), the PNG
    charts and the tables as CSV files (``png_dir``, default ``folder/charts``)."""
    from analyses.study.folder import read_manifest
    from reports.pdf import duration_text, write_report

    folder = Path(folder)
    t = tables(folder)
    m = read_manifest(folder)
    out = Path(png_dir) if png_dir is not None else folder / "charts"
    out.mkdir(parents=True, exist_ok=True)
    csvs = []
    for name, table in t.items():
        table.write_csv(out / f"{name}.csv")
        csvs.append(out / f"{name}.csv")
    seats = t["seats"]
    games = int(seats.filter(pl.col("seat") == 1)["games"].sum())
    seconds = sum(r.seconds for recs in m.chunks.values() for r in recs)
    facts = [("Command", m.command or "(not recorded)"),
             ("Seed", f"{m.seed}: game g of every configuration deals the same prizes, so rules compare game by game"),
             ("Games", f"{games:,} in {seats['config'].n_unique()} configurations"),
             ("Simulation time", f"{duration_text(seconds)} playing chunks" if seconds else "-"),
             ("Conventions", "rules as played in interpretations G1-G7; every estimate with its 95% interval; "
                             "a shared win counts 1/k to each winner (G5.2)")]
    files = write_report(folder, pdf, out, pdf_title=f"{TITLE} balance report: {folder.name}",
                         heading=f"{TITLE} balance report",
                         subtitle=(f"{m.meta.get('name')}: " if m.meta.get("name") else "") + f"study folder {folder}",
                         facts=facts, findings=findings(t), topics=TOPICS, charts=charts(t), tables=t)
    files.csvs = csvs
    return files


def summary_output(folder, as_json: bool) -> list[str]:
    """``dreamscape summarize``: the tables as one line of JSON, or the findings as lines."""
    t = tables(folder)
    if as_json:
        return [json.dumps({"game": NAME, **{k: v.to_dicts() for k, v in t.items()}}, default=float)]
    return [f"{TITLE} study {folder}: {t['seats']['config'].n_unique()} configurations", "",
            *(("\u2605 " if f.significant else "") + f.text for f in findings(t))]


def _wing():
    from reports.wing import GameReport

    return GameReport(game=NAME, topics=TOPICS, tables=tables, findings=findings, build_report=build_report,
                      summary_output=summary_output)


WING = _wing()
