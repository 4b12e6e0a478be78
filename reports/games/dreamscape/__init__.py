"""Project Dreamscape's report wing (:class:`reports.wing.ReportWing`): its study tables (``data``),
findings (``findings``), findings at every skill level (``robust``), charts (``charts``), words
(``labels``), the report (``report``) and the narration of one game for ``dreamscape play`` (``narrate``).

The modules are imported on first use, so ``dreamscape play`` (which needs only ``narrate``) loads no
matplotlib.
"""
from __future__ import annotations

from reports.games.dreamscape.topics import TOPICS  # the findings' headings, in page order
from reports.wing import GameReport

NAME = "dreamscape"


def tables(folder):
    """The study folder's tables (:class:`reports.games.dreamscape.data.StudyTables`)."""
    from reports.games.dreamscape.data import collect

    return collect(folder)


def findings(t):
    """The findings, each checked at every skill level the study played."""
    from reports.games.dreamscape.findings import make_findings
    from reports.games.dreamscape.robust import check_findings

    return check_findings(make_findings(t), t)[0]


def build_report(folder, pdf=None, png_dir=None, swap_metric: str = "seat_spread"):
    """The study folder's report (:func:`reports.games.dreamscape.report.build_report`)."""
    from reports.games.dreamscape import report

    return report.build_report(folder, pdf=pdf, png_dir=png_dir, swap_metric=swap_metric)


def summary_output(folder, as_json: bool) -> list[str]:
    """``dreamscape summarize`` of a Project Dreamscape study folder: strict JSON or its tables."""
    from reports.games.dreamscape.report import summary_output as lines

    return lines(folder, as_json)


def play_narration(setup, bots, seed: int, as_json: bool):
    """``dreamscape play``: the table after every turn (:mod:`reports.games.dreamscape.narrate`)."""
    from reports.games.dreamscape.narrate import play_narration as tell

    return tell(setup, bots, seed, as_json)


WING = GameReport(game=NAME, topics=TOPICS, tables=tables, findings=findings,
                  build_report=lambda folder, pdf=None, png_dir=None: build_report(folder, pdf=pdf, png_dir=png_dir),
                  summary_output=lambda folder, as_json: summary_output(folder, as_json),
                  play_narration=play_narration)
