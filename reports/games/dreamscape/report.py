"""Project Dreamscape's report of a study folder, on the framework's pages (:mod:`reports.pdf`).

Its title page lists what was simulated as a designer thinks of it (balance runs, mixed tables, solo);
after the findings come the findings at every skill level, then one page per chart.
"""
from __future__ import annotations

import textwrap
from collections import defaultdict
from pathlib import Path

from matplotlib.figure import Figure

from analyses.study.botrows import OTHER_ROWS
from analyses.study.model import StudyManifest
from reports.charts import PAGE
from reports.games.dreamscape.certified import certified_pages
from reports.games.dreamscape.charts import make_charts
from reports.games.dreamscape.data import StudyTables, collect
from reports.games.dreamscape.findings import make_findings
from reports.games.dreamscape.topics import TOPICS
from reports.games.dreamscape.labels import SIGNIFICANT, split_variant, variant_label
from reports.games.dreamscape.robust import CORRECTION, EQUIVALENCE_MARGIN, Check, check_findings, level_cell, level_key
from reports.numbers import change_with_interval
from reports.pdf import BULLET, SIGNIFICANCE_NOTE, STAR, ReportFiles, continued, duration_text, write_report

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
    return f"; {duration_text(seconds)} from start to the last save" if seconds > 0 else ""


MAX_ROWS_LINES = 6  # lines of the title page naming configurations played by other bot rows


def bot_rows_facts(t: StudyTables) -> list[tuple[str, str]]:
    """The title page's word on what the bots played (issue #42): one line per configuration played by other bot
    rows than the code's, and whether the folder recorded them at all (:mod:`analyses.study.botrows`)."""
    rows = t.bot_rows
    if rows is None or not rows.kept:
        return []
    lines = rows.lines()
    if not lines:
        return [("Bot rows", f"recorded for every configuration; each is what the code plays now (sha256 of the "
                             "engine row every bot plays there)")]
    if len(lines) > MAX_ROWS_LINES:  # a table change can touch every configuration of a player count: the page keeps
        more = len(lines) - MAX_ROWS_LINES + 1  # its size, `dreamscape summarize` lists every one
        lines = lines[:MAX_ROWS_LINES - 1] + [f"... and {more} more configurations {OTHER_ROWS} or not recorded "
                                              "(`dreamscape summarize` lists every one)"]
    return [("Bot rows", line) for line in lines]


def title_facts(t: StudyTables) -> list[tuple[str, str]]:
    """The facts of the title page: command, seed, games, time, versions, conventions."""
    m = t.manifest
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
        ("Simulation time", (f"{duration_text(seconds)} playing chunks ({total / seconds:,.0f} games/s)" if seconds else "-")
                            + _wall(m)),
        ("Started, updated", f"{m.created or '-'}, {m.updated or '-'} (UTC)"),
        ("Versions", ", ".join(f"{k} {v}" for k, v in m.versions.items()) or "-"),
        ("Conventions", "rules as decided in interpretations R1-R11; every estimate with its 95% interval; "
                        "seat 1 plays first; win rates count a shared win 1/k (R8.3)"),
    ]
    facts += bot_rows_facts(t)
    unfinished = [c.id for c in m.configs if done.get(c.id, 0) < m.target_games.get(c.id, 0)]
    if unfinished:
        facts.append(("Unfinished", f"{len(unfinished)} configuration(s) have fewer games than asked for; "
                                    "run the same command again to finish them"))
    return facts


# ============================================================================ skill levels

LEVELS_TITLE = "Findings at every skill level"
LEVELS_HEADER_Y = 0.745  # the column headers, below the legend's six lines


def skill_level_pages(checks: list[Check]) -> list[Figure]:
    """Each checked finding's claim under every bot, the reading level's distance from search and the verdict
    (no page without checks)."""
    if not checks:
        return []
    bots = sorted({lv.bot for c in checks for lv in c.levels}, key=level_key)
    family = sum(len(c.levels) for c in checks)
    pages: list[Figure] = []
    fig, y = None, 0.0
    col = 0.36
    width = (0.98 - col) / (len(bots) + 2)

    def new_page() -> tuple[Figure, float]:
        f = Figure(figsize=PAGE)
        f.text(0.05, 0.94, LEVELS_TITLE if not pages else f"{LEVELS_TITLE} (continued)", fontsize=20,
               fontweight="bold", va="top")
        f.text(0.05, 0.895, "Each headline finding of the main bot read again under every bot that played its "
                            f"configurations; * significant after {CORRECTION}'s correction across the page's "
                            f"{family} claims (family-wise error 5%).\n"
                            "The strongest bot weighs first; 'distance': its search gain in one seat (worst seat "
                            "read; 'kept': a kept run), and a finding holds only if larger than its upper bound.\n"
                            "Robust: every level significant with the same sign. Strong play: the strongest level "
                            "significant with it, nothing above against it. Within distance / unmeasured: so, but "
                            "no larger\nthan the distance, or the distance not measured. Flips: a level that counts "
                            "significant against it. Bot's effect: the strongest level finds none and rules the main "
                            "bot's size out.\nNo effect: no level that counts finds one, the strongest level's "
                            f"interval within +-{EQUIVALENCE_MARGIN * 100:.0f} points. Unconfirmed: none of these; "
                            "more games at the strongest level would tell.\nMain only: one bot played it. Other rows: "
                            "a level it reads was played by another engine row than the code plays now (its table or "
                            "value changed since): measure it again.",
               fontsize=8.5, color="#333333", va="top", linespacing=1.4)
        f.text(0.05, LEVELS_HEADER_Y, "Claim", fontsize=9.5, fontweight="bold", va="top")
        for i, bot in enumerate(bots):
            f.text(col + i * width, LEVELS_HEADER_Y, bot, fontsize=8.5, fontweight="bold", va="top")
        f.text(col + len(bots) * width, LEVELS_HEADER_Y, "distance", fontsize=9.5, fontweight="bold", va="top")
        f.text(col + (len(bots) + 1) * width, LEVELS_HEADER_Y, "Verdict", fontsize=9.5, fontweight="bold", va="top")
        pages.append(f)
        return f, LEVELS_HEADER_Y - 0.03

    for c in checks:
        if fig is None or y < 0.05:
            fig, y = new_page()
        cells = {lv.bot: level_cell(lv, c.finding.topic) for lv in c.levels}
        colour = SIGNIFICANT if c.verdict == "flips" else "#000000"
        fig.text(0.05, y, textwrap.shorten(c.claim, 60), fontsize=8.5, va="top")
        for i, bot in enumerate(bots):
            fig.text(col + i * width, y, cells.get(bot, "-"), fontsize=8, va="top")
        d = c.distance
        fig.text(col + len(bots) * width, y,
                 "not measured" if d is None else change_with_interval(d.gain, d.low, d.high)
                 + (" kept" if d is not None and str(d.source or "").startswith("from a kept run") else ""),
                 fontsize=8, va="top")
        fig.text(col + (len(bots) + 1) * width, y, c.verdict, fontsize=8.5, color=colour, va="top")
        y -= 0.024
    return pages


# ============================================================================ the report

CORRECTED_NOTE = (f"{STAR} significant: the 95% interval excludes the fair share (rates) or zero (changes); for the "
                  f"findings checked at every skill level, after {CORRECTION}'s correction.   {BULLET} not significant.")


def correction_fact(checks: list[Check]) -> tuple[str, str]:
    """The title page's line on the multiple comparisons: which correction, over how many claims."""
    family = sum(len(c.levels) for c in checks)
    return ("Multiple comparisons", f"the significance of the {len(checks)} findings read at every skill level is "
                                    f"{CORRECTION}-corrected as one family of {family} claims (every finding at every "
                                    "level; family-wise error 5%); the other findings' stars are their own 95% "
                                    "intervals'")


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
    findings, checks = check_findings(make_findings(t), t)
    level_figs = skill_level_pages(checks)
    facts = title_facts(t)
    note = SIGNIFICANCE_NOTE
    if checks:
        facts.append(correction_fact(checks))
        note = CORRECTED_NOTE
    name = t.manifest.meta.get("name") if isinstance(getattr(t.manifest, "meta", None), dict) else None
    return write_report(folder, pdf, png_dir, pdf_title=f"Project Dreamscape balance report: {folder.name}",
                        heading="Project Dreamscape balance report",
                        subtitle=(f"{name}: " if name else "") + f"study folder {t.folder}",
                        facts=facts, simulated=configuration_lines(t.manifest), findings=findings,
                        topics=TOPICS, extra_pages=list(zip(continued(LEVELS_TITLE, len(level_figs)), level_figs))
                        + certified_pages(folder),  # the certified column, when `dreamscape certify` has played
                        charts=make_charts(t, swap_metric), tables=t, note=note)


def summary_output(folder, as_json: bool) -> list[str]:
    """Project Dreamscape's summary of a study folder (``dreamscape summarize``): JSON or tables."""
    import json

    from analyses.games.dreamscape.summary import summary_data
    from analyses.study.runsummary import json_ready
    from reports.tables import summary_lines

    data = summary_data(folder)
    if as_json:
        return [json.dumps(json_ready(data), default=str, allow_nan=False)]
    return summary_lines(folder, data)
