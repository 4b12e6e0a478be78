"""The report framework's pages and files: a title page, the findings pages, the PDF and one PNG per chart.

Every game's report (``reports.games.<game>``, a :class:`reports.wing.ReportWing`) is written with these
parts, so every report looks the same: the title page (what was simulated, the facts of the run, the
pages that follow), the findings as starred or bulleted sentences under topic headings, then the game's
own text pages and one page per chart. Nothing here knows a game.
"""
from __future__ import annotations

import os
import tempfile
import textwrap
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display: files only
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from reports.charts import PAGE, PNG_DPI, Chart, styled  # noqa: E402
from reports.findings import Finding  # noqa: E402
from reports.labels import SIGNIFICANT  # noqa: E402

STAR = "\u2605"
BULLET = "\u2022"
SIGNIFICANCE_NOTE = (f"{STAR} significant: the 95% interval excludes the fair share (rates) or zero (changes).   "
                     f"{BULLET} not significant, or nothing to compare with.")


@dataclass
class ReportFiles:
    """What a report build wrote (every game's).

    Attributes
    ----------
    pdf : Path
        The multi-page PDF.
    pngs : list of Path
        One PNG per chart, in report order.
    findings : list of reports.findings.Finding
        The sentences of the findings page(s), each with the table row it quotes.
    pages : list of str
        The title of every PDF page in order: the title page, the findings page(s), then the game's
        other pages and one per chart.
    tables : object
        The game's tables the report was drawn from (its wing's own type).
    csvs : list of Path
        Tables written beside the PNGs as CSV files (a game that writes them).
    """

    pdf: Path
    pngs: list[Path]
    findings: list[Finding]
    pages: list[str] = field(default_factory=list)
    tables: Any = field(default=None, repr=False)
    csvs: list[Path] = field(default_factory=list)


# ============================================================================ title page


def duration_text(seconds: float) -> str:
    """``12.3 s``, ``4 min 10 s`` or ``1 h 05 min``."""
    if seconds < 90:
        return f"{seconds:.1f} s"
    minutes, sec = divmod(int(round(seconds)), 60)
    return f"{minutes} min {sec:02d} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


@styled
def title_page(heading: str, subtitle: str, facts: list[tuple[str, str]], contents: list[str],
               simulated: list[str] | None = None) -> Figure:
    """The first page of every report: its heading, the facts of the run (key, value), what was simulated
    (bullets, when the game lists them, even none; the page list then sits beside them), and the pages that follow."""
    fig = Figure(figsize=PAGE)
    fig.text(0.05, 0.93, heading, fontsize=24, fontweight="bold", va="top")
    fig.text(0.05, 0.875, subtitle, fontsize=10.5, color="#333333", va="top")
    y = 0.81
    for key, value in facts:
        fig.text(0.05, y, key, fontsize=10, fontweight="bold", va="top")
        wrapped = textwrap.wrap(value, 120) or ["-"]
        fig.text(0.19, y, "\n".join(wrapped), fontsize=10, va="top", linespacing=1.3)
        y -= 0.027 * len(wrapped) + 0.012
    if simulated is None:
        fig.text(0.05, y - 0.02, "Pages", fontsize=12.5, fontweight="bold", va="top")
        for i, page in enumerate(contents):
            fig.text(0.05, y - 0.065 - 0.027 * i, f"{i + 2:>2}. {page}", fontsize=10, va="top")
        return fig
    top = y - 0.02
    fig.text(0.05, top, "What was simulated", fontsize=12.5, fontweight="bold", va="top")
    y = top - 0.045
    for line in simulated:
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
def findings_pages(findings: list[Finding], topics: dict[str, str], note: str = SIGNIFICANCE_NOTE) -> list[Figure]:
    """The findings as bullet sentences under the topic headings (in ``topics`` order), as many pages as they need;
    ``note`` under each page's title says what a star means (a game whose report corrects some stars says so)."""
    pages: list[Figure] = []
    fig, y = None, 0.0

    def new_page() -> tuple[Figure, float]:
        f = Figure(figsize=PAGE)
        title = "Findings" if not pages else "Findings (continued)"
        f.text(0.05, 0.94, title, fontsize=20, fontweight="bold", va="top")
        f.text(0.05, 0.885, note, fontsize=9.5, color="#333333", va="top")
        pages.append(f)
        return f, 0.835

    by_topic: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        by_topic[f.topic].append(f)
    if not findings:
        fig, y = new_page()
        fig.text(0.05, y, "This study has no data the findings cover.", fontsize=11, va="top")
        return pages
    for topic in topics:
        items = by_topic.get(topic, [])
        if not items:
            continue
        first_lines = len(textwrap.wrap(items[0].text, WRAP))
        if fig is None or y - LINE * (1.6 + first_lines) < 0.04:
            fig, y = new_page()
        fig.text(0.05, y, topics[topic], fontsize=12.5, fontweight="bold", va="top")
        y -= LINE * 1.35
        for item in items:
            lines = textwrap.wrap(item.text, WRAP)
            if y - LINE * len(lines) < 0.04:
                fig, y = new_page()
                fig.text(0.05, y, f"{topics[topic]} (continued)", fontsize=12.5, fontweight="bold", va="top")
                y -= LINE * 1.35
            mark, colour = (STAR, SIGNIFICANT) if item.significant else (BULLET, "#555555")
            fig.text(0.055, y, mark, fontsize=11, color=colour, va="top")
            fig.text(0.075, y, "\n".join(lines), fontsize=10.5, va="top", linespacing=1.3)
            y -= LINE * len(lines) + 0.008
        y -= 0.012
    return pages


def continued(title: str, count: int) -> list[str]:
    """Page titles of ``count`` pages of one kind: ``Findings``, ``Findings (continued)``, ..."""
    return [title if i == 0 else f"{title} (continued)" for i in range(count)]


# ============================================================================ the files


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
                pngs.append(_write_png(chart, png_path / f"{chart.name}.png"))
        tmp.replace(pdf_path)
    except OSError as exc:
        if exc.filename is None:  # a full disk's write error names no file: the line names the report's
            raise OSError(exc.errno, exc.strerror, str(pdf_path)) from None
        raise
    finally:
        if tmp.exists():
            tmp.unlink()
    return pngs


def _write_png(chart: Chart, png: Path) -> Path:
    """One chart's PNG, whole or not at all: a full disk left an empty PNG behind (issue #44 probes)."""
    tmp = png.with_name(f".{png.name}.tmp")
    try:
        chart.figure.savefig(tmp, dpi=PNG_DPI, format="png")
        tmp.replace(png)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OSError(exc.errno, exc.strerror, str(png)) from None
    return png


def write_report(folder: Path, pdf, png_dir, *, pdf_title: str, heading: str, subtitle: str,
                 facts: list[tuple[str, str]], findings: list[Finding], topics: dict[str, str],
                 simulated: list[str] | None = None, extra_pages: list[tuple[str, Figure]] = (),
                 charts: list[Chart] = (), tables: Any = None, note: str = SIGNIFICANCE_NOTE) -> ReportFiles:
    """A whole report in the framework's order: title page, findings pages, the game's other text pages
    (title, figure), then one page per chart; the PDF (default ``folder/report.pdf``) and the PNGs
    (default ``folder/charts``)."""
    folder = Path(folder)
    pdf_path = Path(pdf) if pdf is not None else folder / "report.pdf"
    png_path = Path(png_dir) if png_dir is not None else folder / "charts"
    from reports.tables import folder_training_line

    training = folder_training_line(folder)  # every report page that reads a changed game names the bots' status
    facts = [*facts, ("Bots", training.removeprefix("Bots on the changed games: "))] if training else facts
    finding_figs = findings_pages(findings, topics, note)
    contents = continued("Findings", len(finding_figs)) + [t for t, _ in extra_pages] + [c.title for c in charts]
    title = title_page(heading, subtitle, facts, contents, simulated)
    pngs = write_pdf(pdf_path, png_path, pdf_title, [title, *finding_figs, *(f for _, f in extra_pages)], list(charts))
    return ReportFiles(pdf=pdf_path, pngs=pngs, findings=findings, pages=["Title", *contents], tables=tables)
