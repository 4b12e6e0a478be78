"""Counting Zzzzs' report wing (:class:`reports.wing.ReportWing`): findings in plain sentences, one chart per
balance question, on the framework's pages (:mod:`reports.pdf`), and the tables as CSV files.

Built from the tables of :mod:`analyses.games.counting_zzzzs` only. Seats count from 1 (seat 1 plays
first); every estimate has its 95% interval, written by :mod:`reports.numbers`; a finding is starred
when its interval excludes the fair share (rates) or zero (changes).
"""
from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from analyses.games import counting_zzzzs_plot as plot
from analyses.games.counting_zzzzs import counting_zzzzs_tables, read_counting_zzzzs
from reports.charts import Chart
from reports.findings import Finding, excludes, worst_row
from reports.labels import pct
from reports.numbers import change_with_interval, mean_with_interval, rate_with_interval
from reports.pdf import ReportFiles, duration_text, write_report
from reports.wing import GameReport

NAME = "counting-zzzzs"
TOPICS = {
    "first": "First-player advantage",
    "shape": "The rulebook's balance rule, game length and how games end",
    "actions": "Which action kind matters most (restricted play)",
    "cards": "Which element cards matter most",
    "bots": "How strong each bot is",
}


def findings(tables: dict) -> list[Finding]:
    """Plain sentences, one per answer, each quoting one table row."""
    out = []
    for r in tables["first_player"].iter_rows(named=True):
        out.append(Finding(f"First player, {r['players']} players ({r['bot']}): seat 1 wins "
                           f"{rate_with_interval(r['seat1_win'], r['low'], r['high'])} against a fair {pct(r['fair'])}.",
                           excludes(r["low"], r["high"], r["fair"]), "first", "first_player", r))
    shape = tables["game_shape"].filter(pl.col("bot") == "greedy") if tables["game_shape"].height else tables["game_shape"]
    for r in shape.filter(pl.col("rulebook")).sort("players").iter_rows(named=True) if shape.height else []:
        out.append(Finding(f"{r['players']} players, rulebook ({r['removed']} Wake Ups removed): "
                           f"{mean_with_interval(r['rounds'], r['rounds_low'], r['rounds_high'])} rounds, dreams of "
                           f"{mean_with_interval(r['dream_length'], r['dream_length_low'], r['dream_length_high'], 2)} "
                           f"elements, {rate_with_interval(r['forty_share'], r['forty_low'], r['forty_high'])} of games "
                           "end at 40 points (the rest at morning).", False, "shape", "game_shape", r))
    br = tables["balance_rule"]
    if br.height:
        best = br.row(0, named=True)
        rb = br.filter(pl.col("policy") == "rulebook")
        if rb.height:
            r = rb.row(0, named=True)
            out.append(Finding(f"Balance rule: with the rulebook's removal ({r['removed']}) the player counts last "
                               f"{r['rounds']} rounds (spread {r['rounds_spread']:.1f}); the most even removal measured "
                               f"is {best['policy']} ({best['removed']}, spread {best['rounds_spread']:.1f}). Dream "
                               f"length {r['dream_length']} under the rulebook.", False, "shape", "balance_rule", r))
    ak = tables["action_kinds"]
    for p in sorted(set(ak["players"].to_list())) if ak.height else []:
        r = worst_row(list(ak.filter(pl.col("players") == p).iter_rows(named=True)), "win_change")
        out.append(Finding(f"Action cards, {p} players: without {r['action']} a seat's win credit changes by "
                           f"{change_with_interval(r['win_change'], r['low'], r['high'])} points, the most of the four "
                           "kinds.", excludes(r["low"], r["high"], 0.0), "actions", "action_kinds", r))
    ec = tables["element_cards"]
    if ec.height:
        top, low = ec.row(0, named=True), ec.row(ec.height - 1, named=True)
        out.append(Finding(f"Element cards: scoring {top['card']} in a dream goes with "
                           f"{change_with_interval(top['difference'], top['low'], top['high'])} points of win rate (the "
                           f"most); {low['card']} with {change_with_interval(low['difference'], low['low'], low['high'])} "
                           "(the least). Attribution, not cause: strong hands score more cards.",
                           excludes(top["low"], top["high"], 0.0), "cards", "element_cards", top))
    bs = tables["bot_strength"]
    for r in bs.iter_rows(named=True):
        if r["bot"].startswith("search") or (r["bot"] == "greedy" and "random" in r["table"]):
            out.append(Finding(f"Bots: {r['bot']} in seat {r['seat']} of {r['table']} wins "
                               f"{rate_with_interval(r['win'], r['low'], r['high'])} against a fair {pct(r['fair'])}.",
                               excludes(r["low"], r["high"], r["fair"]), "bots", "bot_strength", r))
    return out


PAGES = (  # (file stem, page title, drawing of analyses.games.counting_zzzzs_plot), in report order
    ("first_player", "First-player advantage", plot.first_player),
    ("balance_rule", "Wake Ups removed: game and dream length", plot.balance_rule),
    ("how_games_end", "How games end", plot.how_games_end),
    ("action_kinds", "Restricted play: action kinds", plot.action_kinds),
    ("element_cards", "Element cards", plot.element_cards),
    ("bot_strength", "Bot strength", plot.bot_strength),
)


def charts(tables: dict) -> list[Chart]:
    """One chart per balance question (none for a question the study did not play): the Python API's drawings."""
    return [Chart(name, title, fig) for name, title, draw in PAGES if (fig := draw(tables)) is not None]


def all_tables(rows: pl.DataFrame, configs: pl.DataFrame, names: list[str]) -> dict:
    """Every table of the report (:func:`analyses.games.counting_zzzzs.counting_zzzzs_tables`: the Python API's too)."""
    return counting_zzzzs_tables(rows, configs, names)


def read_folder(folder) -> tuple[pl.DataFrame, pl.DataFrame, list[str], object, str | None]:
    """A checked study folder's per-game rows, configurations, element card names, manifest and card text."""
    return read_counting_zzzzs(folder)


def tables(folder) -> dict:
    """The report's tables of a study folder."""
    rows, configs, names, _, _ = read_folder(folder)
    return all_tables(rows, configs, names)


def summary_output(folder, as_json: bool) -> list[str]:
    """``dreamscape summarize`` of a Counting Zzzzs study folder: every table as JSON, or the findings as lines."""
    rows, configs, names, manifest, _ = read_folder(folder)
    t = all_tables(rows, configs, names)
    if as_json:
        data = {"game": NAME, "seed": manifest.seed, **{k: v.to_dicts() for k, v in t.items()}}
        return [json.dumps(data, default=float)]
    return [f"Counting Zzzzs study {folder}: {configs.height} configurations, seed {manifest.seed}",
            *manifest.meta.get("left_out", []), "",  # variants the study's deck cannot play (analyses.study.studyfile.LAB_RULES)
            *(("\u2605 " if f.significant else "") + f.text for f in findings(t))]


def build_report(folder, pdf=None, png_dir=None) -> ReportFiles:
    """The report of a study folder (``dreamscape study --game counting-zzzzs``): the PDF (``pdf``, default
    ``folder/report.pdf``), the PNG charts and the CSV tables (in ``png_dir``, default ``folder/charts``)."""
    folder = Path(folder)
    rows, configs, names, m, text = read_folder(folder)
    t = all_tables(rows, configs, names)
    out = Path(png_dir) if png_dir is not None else folder / "charts"
    out.mkdir(parents=True, exist_ok=True)
    csvs = []
    for name, table in t.items():
        table.write_csv(out / f"{name}.csv")
        csvs.append(out / f"{name}.csv")
    games = int(rows.filter(pl.col("seat") == 0).height)
    seconds = sum(r.seconds for recs in m.chunks.values() for r in recs)
    facts = [("Command", m.command or "(not recorded)"),
             ("Seed", f"{m.seed}: game g of every configuration plays random stream (seed, g), so configurations share deals"),
             ("Games", f"{games:,} in {configs.height} configurations"),
             ("Simulation time", f"{duration_text(seconds)} playing chunks ({games / seconds:,.0f} games/s)" if seconds else "-"),
             ("Cards", "the study's card file (kept in the manifest)" if text
              else "shipped example deck (invented for illustration)"),
             *[("Left out", line) for line in m.meta.get("left_out", [])],  # variants the deck cannot play
             ("Conventions", "rules as played in interpretations Z1-Z18; every estimate with its 95% interval; seat 1 "
                             "plays first; a shared win counts 1/k to each winner (Z15.2, Z16.2)")]
    files = write_report(folder, pdf, out, pdf_title=f"Counting Zzzzs balance report: {folder.name}",
                         heading="Counting Zzzzs balance report",
                         subtitle=(f"{m.meta.get('name')}: " if m.meta.get("name") else "") + f"study folder {folder}",
                         facts=facts, findings=findings(t), topics=TOPICS, charts=charts(t), tables=t)
    files.csvs = csvs
    return files


WING = GameReport(game=NAME, topics=TOPICS, tables=tables, findings=findings, build_report=build_report,
                  summary_output=summary_output)
