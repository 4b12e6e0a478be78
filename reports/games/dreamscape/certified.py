"""The report's certified column: every finding `dreamscape certify` read again at the top rung (search over strong).

Drawn only when the study folder holds a ``certify/`` subfolder with games
(:func:`analyses.games.dreamscape.certify.certified_findings`): per finding, the strong level over every deal
the study played, and the certified estimate at the top rung (the control variate against strong on the same
deals) at each budget played, with their verdicts, and whether the doubling K -> 2K changes any.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

from matplotlib.figure import Figure

from analyses.games.dreamscape.certify import (MARGIN, MIN_VERDICT_DEALS, bot_rows_lines, certified_findings,
                                               doubling_changes, top_rung)
from analyses.games.dreamscape.toprung import NOT_MEASURED, NOT_SHOWN
from reports.certify import finding_name, value_text
from reports.charts import PAGE

CERTIFIED_TITLE = "Certified findings (top rung: search over strong)"
ROWS_PER_PAGE = 24
MARGIN_LINES = 4  # measured head-to-head margins named on the page; the rest are counted


def rung_margin_text(rows: list[dict]) -> str:
    """The top rung's measured head-to-head margin over strong where it was measured, and how many certified
    configurations it was not shown stronger in (measured, its interval holding zero) or not measured in: there
    the verdicts are read by another bot of about strong's strength, not by a level shown above it."""
    margins = sorted({(r["playouts"], r["players"], r["variant"], r["rung_margin"]) for r in rows})
    measured = [m for m in margins if not m[3].startswith(NOT_MEASURED)]
    lines = [f"{top_rung(k)} against strong: {words}" for k, _, _, words in measured[:MARGIN_LINES]]
    if len(measured) > MARGIN_LINES:
        lines.append(f"... and {len(measured) - MARGIN_LINES} more measured (`dreamscape certify` lists them)")
    not_shown = sum(m[3].endswith(f": {NOT_SHOWN}") for m in measured)
    if not_shown:
        lines.append(f"The rung is measured and not shown stronger than strong in {not_shown} of the {len(margins)} "
                     f"certified configurations and budgets: there it reads the findings at about strong's strength.")
    missing = len(margins) - len(measured)
    if missing or not lines:
        lines.append(f"The rung's head-to-head margin over strong is not measured in {missing} of the "
                     f"{len(margins)} certified configurations and budgets.")
    return "\n".join(lines)


def certified_pages(folder: str | Path) -> list[tuple[str, Figure]]:
    """(title, page) of the certified column, none when the folder has no certified games."""
    rows = certified_findings(folder)
    if rows.height == 0:
        return []
    budgets = sorted(set(rows["playouts"].to_list()))
    keys = ["topic", "players", "variant", "baseline", "seat"]
    first = rows.filter(rows["playouts"] == budgets[0]).to_dicts()
    by_budget = {k: {tuple(r[c] for c in keys): r for r in rows.filter(rows["playouts"] == k).to_dicts()}
                 for k in budgets}
    changed = doubling_changes(rows)
    doubling = (f"Doubling {budgets[0]} -> {budgets[-1]} playouts: "
                + ("no verdict changes (among the findings with enough deals at both)." if changed.height == 0
                   else f"{changed.height} verdict(s) change.")
                if len(budgets) > 1 else f"Doubling not played (`dreamscape certify --doubling` plays "
                                         f"{top_rung(2 * budgets[0])} too).")
    columns = ["strong (all its deals)"] + [f"{top_rung(k)}" for k in budgets]
    margin_text = rung_margin_text(rows.to_dicts())
    # the top rung's own games played by other bot rows (the study's are named on the title page), one line each
    rows_lines = [line.removeprefix("certify: ") for line in bot_rows_lines(folder) if line.startswith("certify: ")]
    if rows_lines:
        margin_text += "\nTop rung's games: " + "\nTop rung's games: ".join(rows_lines[:MARGIN_LINES])
    pages = []
    for start in range(0, len(first), ROWS_PER_PAGE):
        fig = Figure(figsize=PAGE)
        fig.text(0.05, 0.94, CERTIFIED_TITLE if not pages else f"{CERTIFIED_TITLE} (continued)", fontsize=20,
                 fontweight="bold", va="top")
        fig.text(0.05, 0.895, "Every finding read under strong, read again with the top rung on every seat, on the "
                              "study's first deals; the certified value is the control variate against strong on "
                              "the same deals\n(beta fixed in advance by a pilot on other deals, so it is unbiased). "
                              "Verdict: above/below, the 95% interval excludes the fair share (win rates) or zero "
                              f"(spread changes) and Holm's correction across the page's {first[0]['family']} claims "
                              "keeps it;\n"
                              f"no effect, within +-{MARGIN * 100:.0f} points of it; too few deals, under "
                              f"{MIN_VERDICT_DEALS}; unconfirmed otherwise. {doubling}",
                 fontsize=8.5, color="#333333", va="top", linespacing=1.4)
        fig.text(0.05, 0.815, margin_text, fontsize=8.5, color="#333333", va="top", linespacing=1.4)
        top = 0.785 - 0.017 * (margin_text.count("\n") + 1)
        col, width = 0.36, (0.98 - 0.36) / len(columns)
        fig.text(0.05, top, "Finding", fontsize=9.5, fontweight="bold", va="top")
        for i, name in enumerate(columns):
            fig.text(col + i * width, top, name, fontsize=8.5, fontweight="bold", va="top")
        y = top - 0.03
        for r in first[start:start + ROWS_PER_PAGE]:
            key = tuple(r[c] for c in keys)
            fig.text(0.05, y, textwrap.shorten(finding_name(r), 48), fontsize=8.5, va="top")
            fig.text(col, y, f"{value_text(r, 'strong_')} {r['strong_verdict']}", fontsize=7.5, va="top")
            for i, k in enumerate(budgets):
                cell = by_budget[k].get(key)
                text = "-" if cell is None else f"{value_text(cell)} {cell['verdict']} ({cell['deals']:,} deals)"
                fig.text(col + (i + 1) * width, y, text, fontsize=7.5, va="top")
            y -= 0.024
        pages.append(fig)
    titles = [CERTIFIED_TITLE] + [f"{CERTIFIED_TITLE} (continued)"] * (len(pages) - 1)
    return list(zip(titles, pages))
