"""The report of a study folder: a multi-page PDF (title, findings, charts) and one PNG per chart."""
from __future__ import annotations

import os
import tempfile
import textwrap
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display: files only
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analyses.study.model import StudyManifest  # noqa: E402
from reports.charts import PAGE, PNG_DPI, Chart, make_charts, styled  # noqa: E402
from reports.data import StudyTables, collect  # noqa: E402
from reports.findings import TOPICS, Finding, make_findings  # noqa: E402
from reports.robust import Check, check_findings, level_cell, level_key  # noqa: E402
from reports.labels import SIGNIFICANT, split_variant, variant_label  # noqa: E402

STAR = "\u2605"
BULLET = "\u2022"


@dataclass
class ReportFiles:
    """What :func:`build_report` wrote.

    Attributes
    ----------
    pdf : Path
        The multi-page PDF.
    pngs : list of Path
        One PNG per chart, in report order.
    findings : list of reports.findings.Finding
        The sentences of the findings page(s), each with the table row it quotes.
    pages : list of str
        The title of every PDF page in order: the title page, the findings page(s), then one per chart.
    """

    pdf: Path
    pngs: list[Path]
    findings: list[Finding]
    pages: list[str] = field(default_factory=list)
    tables: StudyTables | None = field(default=None, repr=False)


# ============================================================================ title page


def _games_done(m: StudyManifest) -> dict[str, int]:
    return {c.id: m.done_games(c.id) for c in m.configs}


def configuration_lines(m: StudyManifest) -> list[str]:
    """What was simulated, grouped as a designer thinks of it (balance runs, mixed tables, solo)."""
    done = _games_done(m)
    balance: dict[str, list] = defaultdict(list)
    tables: dict[tuple, list] = defaultdict(list)  # (players, variant) -> seatings mixing strategies
    solo: dict[str, list] = defaultdict(list)
    for c in m.configs:
        if not done.get(c.id):
            continue
        if c.players == 1:
            solo[c.strategies[0]].append(c)
        elif len(set(c.strategies)) == 1:
            balance[c.strategies[0]].append(c)
        else:
            tables[(c.players, c.variant)].append(c)
    mixed: dict[tuple, list] = defaultdict(list)  # the strategies met at those tables -> seatings
    for cs in tables.values():
        mixed[tuple(sorted({s for c in cs for s in c.strategies}))].extend(cs)
    lines = []
    for strategy, cs in balance.items():
        variants = list(dict.fromkeys(c.variant for c in cs))
        opts = list(dict.fromkeys(split_variant(v).options for v in variants))
        swaps = [v for v in variants if split_variant(v).has_swaps]
        singles = [v for v in swaps if len(split_variant(v).swaps) == 1]
        what = ", ".join(variant_label(o) for o in opts)
        if swaps:
            decks = len({tuple(split_variant(v).swaps) for v in swaps})
            what += f"; {decks} {'single-swap' if len(singles) == len(swaps) else 'swap'} decks under them"
        lines.append(f"Balance: {strategy} bot on every seat, {_players(cs)} players; {what}; "
                     f"{len(cs)} configurations, {_range(sorted({done[c.id] for c in cs}))} games each.")
    for names, cs in mixed.items():
        variants = list(dict.fromkeys(variant_label(c.variant, short=True) for c in cs))
        shown = ", ".join(variants[:4]) + (", ..." if len(variants) > 4 else "")
        kind = "Round robin" if len(names) >= 3 else "Mixed tables"
        lines.append(f"{kind}: {', '.join(names)}; {_players(cs)} players; {shown}; {len(cs)} seatings "
                     f"(seats rotated), {_range(sorted({done[c.id] for c in cs}))} games each.")
    for strategy, cs in solo.items():
        variants = ", ".join(variant_label(c.variant, short=True) for c in cs)
        lines.append(f"Solo (R10): {strategy} bot; {variants}; {_range(sorted({done[c.id] for c in cs}))} games each.")
    return lines


def _players(cs) -> str:
    return ", ".join(str(p) for p in sorted({c.players for c in cs}))


def _range(values: list[int]) -> str:
    if not values:
        return "0"
    return f"{values[0]:,}" if values[0] == values[-1] else f"{values[0]:,}-{values[-1]:,}"


def _wall(m: StudyManifest) -> str:
    """``; 4 min 10 s from start to the last save`` (includes writing files and any pause before a resume)."""
    from datetime import datetime

    try:
        seconds = (datetime.fromisoformat(m.updated) - datetime.fromisoformat(m.created)).total_seconds()
    except (TypeError, ValueError):
        return ""
    return f"; {_duration(seconds)} from start to the last save" if seconds > 0 else ""


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.1f} s"
    minutes, sec = divmod(int(round(seconds)), 60)
    return f"{minutes} min {sec:02d} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


@styled
def title_page(t: StudyTables, contents: list[str]) -> Figure:
    """What was simulated: configurations, seed, games, time, versions, and the pages that follow."""
    m = t.manifest
    fig = Figure(figsize=PAGE)
    name = m.meta.get("name") if isinstance(getattr(m, "meta", None), dict) else None
    fig.text(0.05, 0.93, "Project Dreamscape balance report", fontsize=24, fontweight="bold", va="top")
    fig.text(0.05, 0.875, (f"{name}: " if name else "") + f"study folder {t.folder}", fontsize=10.5, color="#333333", va="top")
    done = _games_done(m)
    total = sum(done.values())
    seconds = sum(r.seconds for recs in m.chunks.values() for r in recs)
    chunks = sum(len(recs) for recs in m.chunks.values())
    played = sum(1 for c in m.configs if done.get(c.id))
    facts = [
        ("Command", m.command or "(not recorded)"),
        ("Seed", f"{m.seed}: game g of every configuration plays random stream (seed, g), so variants share their deals"),
        ("Games", f"{total:,} in {played:,} configurations ({chunks:,} chunks of up to {m.chunk_size:,} games)"
                  + ("; per-chunk aggregates only" if m.aggregate_only else "")),
        ("Simulation time", (f"{_duration(seconds)} playing chunks ({total / seconds:,.0f} games/s)" if seconds else "-")
                            + _wall(m)),
        ("Started, updated", f"{m.created or '-'}, {m.updated or '-'} (UTC)"),
        ("Versions", ", ".join(f"{k} {v}" for k, v in m.versions.items()) or "-"),
        ("Conventions", "rules as decided in interpretations R1-R11; every estimate with its 95% interval; "
                        "seat 1 plays first; win rates count a shared win 1/k (R8.3)"),
    ]
    unfinished = [c.id for c in m.configs if done.get(c.id, 0) < m.target_games.get(c.id, 0)]
    if unfinished:
        facts.append(("Unfinished", f"{len(unfinished)} configuration(s) have fewer games than asked for; "
                                    "run the same command again to finish them"))
    y = 0.81
    for key, value in facts:
        fig.text(0.05, y, key, fontsize=10, fontweight="bold", va="top")
        wrapped = textwrap.wrap(value, 120) or ["-"]
        fig.text(0.19, y, "\n".join(wrapped), fontsize=10, va="top", linespacing=1.3)
        y -= 0.027 * len(wrapped) + 0.012
    top = y - 0.02
    fig.text(0.05, top, "What was simulated", fontsize=12.5, fontweight="bold", va="top")
    y = top - 0.045
    for line in configuration_lines(m):
        wrapped = textwrap.wrap(line, 92)
        fig.text(0.05, y, BULLET, fontsize=10, va="top")
        fig.text(0.065, y, "\n".join(wrapped), fontsize=10, va="top", linespacing=1.3)
        y -= 0.027 * len(wrapped) + 0.01
    fig.text(0.68, top, "Pages", fontsize=12.5, fontweight="bold", va="top")
    rows = max(1, int((top - 0.045 - 0.03) / 0.027))
    size = 10 if len(contents) <= rows else 8.5
    step = 0.027 if size == 10 else 0.022
    for i, page in enumerate(contents):
        fig.text(0.68, top - 0.045 - step * i, f"{i + 2:>2}. {page}", fontsize=size, va="top")
    return fig


# ============================================================================ findings pages

LINE = 0.0235  # figure fraction per text line
WRAP = 128


@styled
def findings_pages(findings: list[Finding]) -> list[Figure]:
    """The findings as bullet sentences under topic headings, as many pages as they need."""
    pages: list[Figure] = []
    fig, y = None, 0.0

    def new_page() -> tuple[Figure, float]:
        f = Figure(figsize=PAGE)
        title = "Findings" if not pages else "Findings (continued)"
        f.text(0.05, 0.94, title, fontsize=20, fontweight="bold", va="top")
        f.text(0.05, 0.885, f"{STAR} significant: the 95% interval excludes the fair share (rates) or zero (changes).   "
                            f"{BULLET} not significant, or nothing to compare with.", fontsize=9.5, color="#333333", va="top")
        pages.append(f)
        return f, 0.835

    by_topic: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        by_topic[f.topic].append(f)
    if not findings:
        fig, y = new_page()
        fig.text(0.05, y, "This study has no data the findings cover.", fontsize=11, va="top")
        return pages
    for topic in TOPICS:
        items = by_topic.get(topic, [])
        if not items:
            continue
        first_lines = len(textwrap.wrap(items[0].text, WRAP))
        if fig is None or y - LINE * (1.6 + first_lines) < 0.04:
            fig, y = new_page()
        fig.text(0.05, y, TOPICS[topic], fontsize=12.5, fontweight="bold", va="top")
        y -= LINE * 1.35
        for item in items:
            lines = textwrap.wrap(item.text, WRAP)
            if y - LINE * len(lines) < 0.04:
                fig, y = new_page()
                fig.text(0.05, y, f"{TOPICS[topic]} (continued)", fontsize=12.5, fontweight="bold", va="top")
                y -= LINE * 1.35
            mark, colour = (STAR, SIGNIFICANT) if item.significant else (BULLET, "#555555")
            fig.text(0.055, y, mark, fontsize=11, color=colour, va="top")
            fig.text(0.075, y, "\n".join(lines), fontsize=10.5, va="top", linespacing=1.3)
            y -= LINE * len(lines) + 0.008
        y -= 0.012
    return pages


# ============================================================================ skill levels

LEVELS_TITLE = "Findings at every skill level"


def skill_level_pages(checks: list[Check]) -> list[Figure]:
    """Each checked finding's claim under every bot, with its verdict (no page without checks)."""
    if not checks:
        return []
    bots = sorted({lv.bot for c in checks for lv in c.levels}, key=level_key)
    pages: list[Figure] = []
    fig, y = None, 0.0
    col = 0.42
    width = (0.98 - col) / (len(bots) + 1)

    def new_page() -> tuple[Figure, float]:
        f = Figure(figsize=PAGE)
        f.text(0.05, 0.94, LEVELS_TITLE if not pages else f"{LEVELS_TITLE} (continued)", fontsize=20,
               fontweight="bold", va="top")
        f.text(0.05, 0.895, "Each headline finding of the main bot read again under every bot that played its "
                            "configurations (* significant at 95%); the strongest bot weighs first.\n"
                            "Robust: every level significant with the same sign. Strong play: the strongest level "
                            "significant with it, nothing above against it.\nFlips: a level that counts significant "
                            "with the opposite sign. Bot's effect: the strongest level finds none and rules the main "
                            "bot's size out.\nNo effect: neither the main bot nor a level that counts finds one. "
                            "Unconfirmed: not significant at the strongest level; more games would tell.",
               fontsize=9.5, color="#333333", va="top", linespacing=1.4)
        f.text(0.05, 0.785, "Claim", fontsize=9.5, fontweight="bold", va="top")
        for i, bot in enumerate(bots):
            f.text(col + i * width, 0.785, bot, fontsize=9.5, fontweight="bold", va="top")
        f.text(col + len(bots) * width, 0.785, "Verdict", fontsize=9.5, fontweight="bold", va="top")
        pages.append(f)
        return f, 0.755

    for c in checks:
        if fig is None or y < 0.05:
            fig, y = new_page()
        cells = {lv.bot: level_cell(lv, c.finding.topic) for lv in c.levels}
        colour = SIGNIFICANT if c.verdict == "flips" else "#000000"
        fig.text(0.05, y, textwrap.shorten(c.claim, 70), fontsize=8.5, va="top")
        for i, bot in enumerate(bots):
            fig.text(col + i * width, y, cells.get(bot, "-"), fontsize=8, va="top")
        fig.text(col + len(bots) * width, y, c.verdict, fontsize=8.5, color=colour, va="top")
        y -= 0.024
    return pages


# ============================================================================ the report


def write_pdf(pdf_path: Path, png_path: Path, title: str, pages: list, charts: list[Chart]) -> list[Path]:
    """Write the PDF (text pages, then one page per chart) and one PNG per chart; every game's report uses it.

    The PDF is written under a unique temporary name and renamed into place, so an
    interrupted report leaves the previous one whole and two reports of one folder
    never share a temporary file. Returns the PNG paths.
    """
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    png_path.mkdir(parents=True, exist_ok=True)
    pngs: list[Path] = []
    fd, tmp_name = tempfile.mkstemp(prefix=f".{pdf_path.name}.", suffix=".tmp", dir=pdf_path.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        with PdfPages(tmp, metadata={"Title": title, "Creator": "dreamscape report"}) as out:
            for fig in pages:
                out.savefig(fig)
            for chart in charts:
                out.savefig(chart.figure)
                png = png_path / f"{chart.name}.png"
                chart.figure.savefig(png, dpi=PNG_DPI)
                pngs.append(png)
        tmp.replace(pdf_path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return pngs


def build_report(folder, pdf=None, png_dir=None, swap_metric: str = "seat_spread") -> ReportFiles:
    """Write the report of a study folder.

    Parameters
    ----------
    folder : path
        A study folder (``manifest.json`` and its chunks).
    pdf : path, optional
        The PDF to write; default ``folder/report.pdf``.
    png_dir : path, optional
        Where one PNG per chart goes; default ``folder/charts``.
    swap_metric : str
        The swap sweep column the swap heatmaps show (default ``seat_spread``).

    Returns
    -------
    ReportFiles

    Raises
    ------
    analyses.study.folder.StudyError
        The folder is not a study folder, is damaged or has no finished chunk.
    """
    folder = Path(folder)
    t = collect(folder)
    pdf_path = Path(pdf) if pdf is not None else folder / "report.pdf"
    png_path = Path(png_dir) if png_dir is not None else folder / "charts"
    findings, checks = check_findings(make_findings(t), t)
    charts: list[Chart] = make_charts(t, swap_metric)
    finding_figs = findings_pages(findings)
    contents = [("Findings" if i == 0 else "Findings (continued)") for i in range(len(finding_figs))]
    level_figs = skill_level_pages(checks)
    contents += [(LEVELS_TITLE if i == 0 else f"{LEVELS_TITLE} (continued)") for i in range(len(level_figs))]
    contents += [c.title for c in charts]
    title = title_page(t, contents)
    pngs = write_pdf(pdf_path, png_path, f"Project Dreamscape balance report: {folder.name}",
                     [title, *finding_figs, *level_figs], charts)
    pages = ["Title", *contents]
    return ReportFiles(pdf=pdf_path, pngs=pngs, findings=findings, pages=pages, tables=t)


def summary_output(folder, as_json: bool) -> list[str]:
    """Project Dreamscape's summary of a study folder (``dreamscape summarize``): JSON or tables."""
    from reports.tables import dreamscape_summary_output

    return dreamscape_summary_output(folder, as_json)
