"""Counting Zzzzs' report wing (:class:`reports.wing.ReportWing`): findings in plain sentences, one chart per
balance question, on the framework's pages (:mod:`reports.pdf`), and the tables as CSV files.

Built from the tables of :mod:`analyses.games.counting_zzzzs` only. Seats count from 1 (seat 1 plays
first); every estimate has its 95% interval, written by :mod:`reports.numbers`; a finding is starred
when its interval excludes the fair share (rates) or zero (changes).
"""
from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display: files only
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analyses.games import counting_zzzzs as A  # noqa: E402
from analyses.study.folder import check_study  # noqa: E402
from analyses.study.model import StudyError  # noqa: E402
from reports.charts import Chart, styled  # noqa: E402
from reports.findings import Finding, excludes, worst_row  # noqa: E402
from reports.labels import pct  # noqa: E402
from reports.numbers import change_with_interval, mean_with_interval, rate_with_interval  # noqa: E402
from reports.pdf import ReportFiles, duration_text, write_report  # noqa: E402
from reports.wing import GameReport  # noqa: E402

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


def _page(title: str) -> tuple[Figure, object]:
    fig = Figure(figsize=(8.27, 5.8))
    fig.suptitle(title, fontsize=12)
    return fig, fig.add_subplot(111)


def _err(value, low, high) -> np.ndarray:
    """Error bar lengths (no interval, e.g. a single game or no spread: none drawn)."""
    value, low, high = (np.asarray(a, dtype=np.float64) for a in (value, low, high))
    return np.nan_to_num(np.clip(np.vstack([value - low, high - value]), 0, None))


def _bars(ax, labels, value, low, high, ref=None):
    x = np.arange(len(labels))
    value, low, high = (np.asarray(a, dtype=np.float64) for a in (value, low, high))
    ax.bar(x, value, color="#5b8db8")
    ax.errorbar(x, value, yerr=_err(value, low, high), fmt="none", color="black", capsize=3)
    ax.set_xticks(x, labels, rotation=30, ha="right", fontsize=8)
    if ref is not None:
        for i, r in enumerate(np.broadcast_to(ref, x.shape)):
            ax.hlines(r, i - 0.4, i + 0.4, color="red", linewidth=1)


@styled
def charts(tables: dict) -> list[Chart]:
    """One chart per balance question (none for a question the study did not play)."""
    out = []
    fp = tables["first_player"].sort(["bot", "players"])
    fig, ax = _page("First-player advantage: seat 1's win share (red: fair share)")
    _bars(ax, [f"{r['players']}p {r['bot']}" for r in fp.iter_rows(named=True)], fp["seat1_win"], fp["low"],
          fp["high"], fp["fair"].to_numpy())
    out.append(Chart("first_player", "First-player advantage", fig))
    shape = tables["game_shape"].filter(pl.col("bot") == "greedy")
    fig = Figure(figsize=(8.27, 5.8))
    fig.suptitle("Wake Ups removed: game length and dream length per player count (ring: the rulebook's)")
    for k, (col, name) in enumerate((("rounds", "rounds per game"), ("dream_length", "elements per dream"))):
        ax = fig.add_subplot(1, 2, k + 1)
        for p in sorted(set(shape["players"].to_list())):
            s = shape.filter(pl.col("players") == p).sort("removed")
            ax.errorbar(s["removed"], s[col], yerr=_err(s[col], s[f"{col}_low"], s[f"{col}_high"]),
                        marker="o", label=f"{p} players", capsize=2)
            rb = s.filter(pl.col("rulebook"))
            ax.scatter(rb["removed"], rb[col], s=160, facecolors="none", edgecolors="black")
        ax.set_xlabel("Wake Ups removed")
        ax.set_ylabel(name)
        ax.legend(fontsize=8)
    out.append(Chart("balance_rule", "Wake Ups removed: game and dream length", fig))
    fig, ax = _page("How games end: share ending at 40 points (the rest at morning), greedy")
    s = shape.filter(pl.col("rulebook")).sort("players")
    _bars(ax, [f"{p} players" for p in s["players"]], s["forty_share"], s["forty_low"], s["forty_high"])
    out.append(Chart("how_games_end", "How games end", fig))
    ak = tables["action_kinds"]
    if ak.height:
        fig, ax = _page("Restricted play: win credit change of a seat without one action kind")
        ak = ak.sort(["players", "action"])
        _bars(ax, [f"{r['players']}p no {r['action']}" for r in ak.iter_rows(named=True)], ak["win_change"],
              ak["low"], ak["high"], 0.0)
        out.append(Chart("action_kinds", "Restricted play: action kinds", fig))
    ec = tables["element_cards"]
    if ec.height:
        pick = pl.concat([ec.head(15), ec.tail(5)]).unique(maintain_order=True)
        fig, ax = _page("Element cards: win rate with the card scored minus without (top 15, bottom 5)")
        y = np.arange(pick.height)[::-1]
        v = pick["difference"].to_numpy()
        ax.errorbar(v, y, xerr=_err(v, pick["low"], pick["high"]), fmt="o", capsize=2)
        ax.axvline(0, color="red", linewidth=1)
        ax.set_yticks(y, pick["card"].to_list(), fontsize=7)
        out.append(Chart("element_cards", "Element cards", fig))
    bs = tables["bot_strength"]
    if bs.height:
        fig, ax = _page("Bot strength: win share per seat in mixed tables (red: fair share)")
        _bars(ax, [f"{r['bot']} s{r['seat']} ({r['table']})" for r in bs.iter_rows(named=True)], bs["win"], bs["low"],
              bs["high"], bs["fair"].to_numpy())
        out.append(Chart("bot_strength", "Bot strength", fig))
    return out


def all_tables(rows: pl.DataFrame, configs: pl.DataFrame, names: list[str]) -> dict:
    """Every table of the report (:mod:`analyses.games.counting_zzzzs`)."""
    shape = A.game_shape(rows, configs)
    base = configs.filter(pl.col("variant") == "base")["config"].to_list()
    return {"first_player": A.first_player(rows, configs.filter(pl.col("variant") == "base")),
            "game_shape": shape, "balance_rule": A.balance_rule(shape),
            "action_kinds": A.action_kinds(rows, configs),
            "element_cards": A.element_cards(rows.filter(pl.col("config").is_in(base)), names),
            "bot_strength": A.bot_strength(rows, configs)}


def read_folder(folder) -> tuple[pl.DataFrame, pl.DataFrame, list[str], object, str | None]:
    """A checked study folder's per-game rows, configurations, element card names, manifest and card text."""
    import tomllib

    from simcore.games.counting_zzzzs.cards import load_cards, read_cards

    folder = Path(folder)
    manifest = check_study(folder)   # every chunk as recorded, or one line
    text = manifest.meta.get("cards")
    cards = read_cards(tomllib.loads(text), "the study's card file") if text else load_cards(None)
    names = [n for n, e in zip(cards.names, cards.element) if e]
    configs, frames = [], []
    for c in manifest.configs:
        files = sorted((folder / "chunks" / c.id).glob("games-*.parquet"))
        if not files:
            continue
        # a card's column only ever asks "did this seat score it?" (element_cards): one bit instead of a
        # 32-bit count keeps a full study's 2 million seat rows x one column per element card under 1 GB
        frames.append(pl.concat([pl.read_parquet(f).with_columns(pl.col(r"^element_scored_\d+$") > 0)
                                 for f in files], how="diagonal"))
        configs.append({"config": c.id, "variant": c.variant, "players": c.players, "strategies": list(c.strategies)})
    if not frames:
        raise StudyError(f"{folder}: no per-game rows (a study kept with --aggregate-only has none to analyse)")
    return pl.concat(frames, how="diagonal"), pl.DataFrame(configs), names, manifest, text


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
