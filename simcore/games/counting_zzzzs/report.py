"""The Counting Zzzzs study report: findings in plain sentences, one chart per balance question (PDF + PNG).

Built from the tables of :mod:`.analysis` only (matplotlib, no display). Seats count from 1 (seat 1 plays
first); every rate has its 95% interval and a finding is starred when the interval excludes the fair share
(rates) or zero (changes).
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from . import analysis as A  # noqa: E402
from .common import CZError  # noqa: E402

STAR = "\u2605"


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def findings(tables: dict) -> list[str]:
    """Plain sentences, one per answer, starred when significant."""
    out = []
    fp = tables["first_player"]
    for r in fp.iter_rows(named=True):
        star = STAR + " " if not (r["low"] <= r["fair"] <= r["high"]) else ""
        out.append(f"{star}First player, {r['players']} players ({r['bot']}): seat 1 wins {pct(r['seat1_win'])} "
                   f"[{pct(r['low'])}, {pct(r['high'])}] against a fair {pct(r['fair'])}.")
    shape = tables["game_shape"].filter(pl.col("bot") == "greedy")
    for r in shape.filter(pl.col("rulebook")).sort("players").iter_rows(named=True):
        out.append(f"{r['players']} players, rulebook ({r['removed']} Wake Ups removed): {r['rounds']:.1f} rounds "
                   f"[{r['rounds_low']:.1f}, {r['rounds_high']:.1f}], dreams of {r['dream_length']:.2f} elements, "
                   f"{pct(r['forty_share'])} of games end at 40 points (the rest at morning).")
    br = tables["balance_rule"]
    if br.height:
        best = br.row(0, named=True)
        rb = br.filter(pl.col("policy") == "rulebook")
        if rb.height:
            r = rb.row(0, named=True)
            out.append(f"Balance rule: with the rulebook's removal ({r['removed']}) the player counts last "
                       f"{r['rounds']} rounds (spread {r['rounds_spread']:.1f}); the most even removal measured is "
                       f"{best['policy']} ({best['removed']}, spread {best['rounds_spread']:.1f}). Dream length "
                       f"{r['dream_length']} under the rulebook.")
    ak = tables["action_kinds"]
    for p in sorted(set(ak["players"].to_list())) if ak.height else []:
        sub = ak.filter(pl.col("players") == p).sort("win_change")
        r = sub.row(0, named=True)
        star = STAR + " " if r["high"] < 0 or r["low"] > 0 else ""
        out.append(f"{star}Action cards, {p} players: without {r['action']} a seat's win credit changes by "
                   f"{100 * r['win_change']:+.1f} points [{100 * r['low']:+.1f}, {100 * r['high']:+.1f}], the most "
                   f"of the four kinds.")
    ec = tables["element_cards"]
    if ec.height:
        top, low = ec.row(0, named=True), ec.row(ec.height - 1, named=True)
        out.append(f"Element cards: scoring {top['card']} in a dream goes with {100 * top['difference']:+.1f} points "
                   f"of win rate [{100 * top['low']:+.1f}, {100 * top['high']:+.1f}] (the most); {low['card']} with "
                   f"{100 * low['difference']:+.1f} (the least). Attribution, not cause: strong hands score more cards.")
    bs = tables["bot_strength"]
    for r in bs.iter_rows(named=True):
        if r["bot"].startswith("search") or (r["bot"] == "greedy" and "random" in r["table"]):
            star = STAR + " " if not (r["low"] <= r["fair"] <= r["high"]) else ""
            out.append(f"{star}Bots: {r['bot']} in seat {r['seat']} of {r['table']} wins {pct(r['win'])} "
                       f"[{pct(r['low'])}, {pct(r['high'])}] against a fair {pct(r['fair'])}.")
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


def charts(tables: dict) -> list[tuple[str, Figure]]:
    out = []
    fp = tables["first_player"].sort(["bot", "players"])
    fig, ax = _page("First-player advantage: seat 1's win share (red: fair share)")
    _bars(ax, [f"{r['players']}p {r['bot']}" for r in fp.iter_rows(named=True)], fp["seat1_win"], fp["low"],
          fp["high"], fp["fair"].to_numpy())
    out.append(("first_player", fig))
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
    out.append(("balance_rule", fig))
    fig, ax = _page("How games end: share ending at 40 points (the rest at morning), greedy")
    s = shape.filter(pl.col("rulebook")).sort("players")
    _bars(ax, [f"{p} players" for p in s["players"]], s["forty_share"], s["forty_low"], s["forty_high"])
    out.append(("how_games_end", fig))
    ak = tables["action_kinds"]
    if ak.height:
        fig, ax = _page("Restricted play: win credit change of a seat without one action kind")
        ak = ak.sort(["players", "action"])
        _bars(ax, [f"{r['players']}p no {r['action']}" for r in ak.iter_rows(named=True)], ak["win_change"],
              ak["low"], ak["high"], 0.0)
        out.append(("action_kinds", fig))
    ec = tables["element_cards"]
    if ec.height:
        pick = pl.concat([ec.head(15), ec.tail(5)]).unique(maintain_order=True)
        fig, ax = _page("Element cards: win rate with the card scored minus without (top 15, bottom 5)")
        y = np.arange(pick.height)[::-1]
        v = pick["difference"].to_numpy()
        ax.errorbar(v, y, xerr=_err(v, pick["low"], pick["high"]), fmt="o", capsize=2)
        ax.axvline(0, color="red", linewidth=1)
        ax.set_yticks(y, pick["card"].to_list(), fontsize=7)
        out.append(("element_cards", fig))
    bs = tables["bot_strength"]
    if bs.height:
        fig, ax = _page("Bot strength: win share per seat in mixed tables (red: fair share)")
        _bars(ax, [f"{r['bot']} s{r['seat']} ({r['table']})" for r in bs.iter_rows(named=True)], bs["win"], bs["low"],
              bs["high"], bs["fair"].to_numpy())
        out.append(("bot_strength", fig))
    return out


def all_tables(rows: pl.DataFrame, configs: pl.DataFrame, names: list[str]) -> dict:
    shape = A.game_shape(rows, configs)
    base = configs.filter(pl.col("variant") == "base")["config"].to_list()
    return {"first_player": A.first_player(rows, configs.filter(pl.col("variant") == "base")),
            "game_shape": shape, "balance_rule": A.balance_rule(shape),
            "action_kinds": A.action_kinds(rows, configs),
            "element_cards": A.element_cards(rows.filter(pl.col("config").is_in(base)), names),
            "bot_strength": A.bot_strength(rows, configs)}


def write_report(rows: pl.DataFrame, configs: pl.DataFrame, names: list[str], out: Path, timing: dict,
                 source: str = "", pdf: Path | None = None) -> Path:
    """Write ``out/*.png`` and ``out/*.csv`` (the tables) and the PDF (default ``out/report.pdf``); its path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tables = all_tables(rows, configs, names)
    for name, table in tables.items():
        table.write_csv(out / f"{name}.csv")
    pdf = Path(pdf) if pdf is not None else out / "report.pdf"
    pdf.parent.mkdir(parents=True, exist_ok=True)
    with PdfPages(pdf) as doc:
        fig = Figure(figsize=(8.27, 11.69))
        lines = ["Counting Zzzzs balance study", f"cards: {source}",
                 f"{timing['games']:,} games in {timing['seconds']:.0f} s", "", "Findings (\u2605: the 95% interval "
                 "excludes the fair share or zero)", ""]
        for f in findings(tables):
            lines += textwrap.wrap(f, 100) + [""]
        fig.text(0.05, 0.97, "\n".join(lines), va="top", fontsize=7.5, family="DejaVu Sans")
        doc.savefig(fig)
        for name, chart in charts(tables):
            chart.savefig(out / f"{name}.png", dpi=110)
            doc.savefig(chart)
    return pdf


@dataclass(frozen=True)
class ReportFiles:
    """What :func:`build_report` wrote (the fields of reports.pdf.ReportFiles, and the tables)."""

    pdf: Path
    pngs: list[Path]
    csvs: list[Path]

    @property
    def pages(self) -> list[str]:
        """The PDF's pages: the findings page, then one page per chart (one PNG each)."""
        return ["findings"] + [p.stem for p in self.pngs]


def read_folder(folder) -> tuple[pl.DataFrame, pl.DataFrame, list[str], dict, str | None]:
    """A pipeline study folder's per-game rows, configurations, element names, manifest and card text."""
    import json
    import tomllib

    from .cards import load_cards, read_cards

    folder = Path(folder)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    text = manifest.get("meta", {}).get("cards")
    cards = read_cards(tomllib.loads(text), "the study's card file") if text else load_cards(None)
    names = [n for n, e in zip(cards.names, cards.element) if e]
    configs, frames = [], []
    for c in manifest["configs"]:
        files = sorted((folder / "chunks" / c["id"]).glob("games-*.parquet"))
        if not files:
            continue
        # a card's column only ever asks "did this seat score it?" (analysis.element_cards): one bit instead of a
        # 32-bit count keeps a full study's 2 million seat rows x one column per element card under 1 GB
        frames.append(pl.concat([pl.read_parquet(f).with_columns(pl.col(r"^element_scored_\d+$") > 0)
                                 for f in files], how="diagonal"))
        configs.append({"config": c["id"], "variant": c["variant"], "players": c["players"],
                        "strategies": list(c["strategies"])})
    if not frames:
        raise CZError(f"{folder}: no per-game rows (a study kept with --aggregate-only has none to analyse)")
    return pl.concat(frames, how="diagonal"), pl.DataFrame(configs), names, manifest, text


def summary_output(folder, as_json: bool) -> list[str]:
    """``dreamscape summarize`` of a Counting Zzzzs study folder: every table as JSON, or the findings as lines."""
    import json

    rows, configs, names, manifest, _ = read_folder(folder)
    tables = all_tables(rows, configs, names)
    if as_json:
        data = {"game": "counting-zzzzs", "seed": manifest.get("seed"),
                **{k: (v.to_dicts() if isinstance(v, pl.DataFrame) else v) for k, v in tables.items()}}
        return [json.dumps(data, default=float)]
    left_out = manifest.get("meta", {}).get("left_out", [])  # variants the study's deck cannot play
    return [f"Counting Zzzzs study {folder}: {configs.height} configurations, seed {manifest.get('seed')}",
            *left_out, "", *findings(tables)]


def build_report(folder, pdf=None, png_dir=None) -> ReportFiles:
    """The report of a study folder written by the lab's pipeline (``dreamscape study --game counting-zzzzs``).

    Reads the folder's ``manifest.json`` (configurations, the card file's text) and its per-game rows
    (``chunks/<config>/games-*.parquet``), and writes the PDF (``pdf``, default ``folder/report.pdf``) and
    the PNG charts and CSV tables (in ``png_dir``, default ``folder/charts``).
    """
    from datetime import datetime

    folder = Path(folder)
    rows, configs, names, manifest, text = read_folder(folder)
    games = sum(rows.filter(pl.col("seat") == 0).group_by("config").len()["len"].to_list())
    try:
        seconds = (datetime.fromisoformat(manifest["updated"]) - datetime.fromisoformat(manifest["created"])).total_seconds()
    except (KeyError, ValueError):
        seconds = float("nan")
    out = Path(png_dir) if png_dir else folder / "charts"
    left_out = manifest.get("meta", {}).get("left_out", [])  # variants the study's deck cannot play (gameplan)
    source = "the study's card file" if text else "shipped example deck (invented for illustration)"
    path = write_report(rows, pl.DataFrame(configs), names, out, {"games": games, "seconds": seconds},
                        source=source + "".join(f"; {line}" for line in left_out),
                        pdf=Path(pdf) if pdf is not None else folder / "report.pdf")
    return ReportFiles(path, sorted(out.glob("*.png")), sorted(out.glob("*.csv")))
