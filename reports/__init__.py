"""Designer reports: the report framework and each game's report.

The framework (this package outside ``reports/games/``) knows no game: its pages and files
(:mod:`reports.pdf`), charts' style (:mod:`reports.charts`), findings (:mod:`reports.findings`), how a
number and its interval are written (:mod:`reports.numbers`), the terminal tables (:mod:`reports.tables`)
and what a game's report gives it (:class:`reports.wing.ReportWing`). Each game's report is in
``reports/games/<game>``, found by :func:`reports.games.report_wing`.

``build_report(folder)`` writes a study folder's report, whatever game it plays. Everything is imported
on first use, so ``dreamscape play`` does not load matplotlib.
"""
from __future__ import annotations

__all__ = ["build_report", "ReportFiles", "Finding", "ReportWing", "run_main_study"]


def __getattr__(name: str):
    if name == "build_report":
        from reports.games import build_any_report

        return build_any_report
    if name == "ReportFiles":
        from reports.pdf import ReportFiles

        return ReportFiles
    if name == "Finding":
        from reports.findings import Finding

        return Finding
    if name == "ReportWing":
        from reports.wing import ReportWing

        return ReportWing
    if name == "run_main_study":  # the older name of analyses.lab.run_study
        from analyses.lab import run_study

        return run_study
    raise AttributeError(f"module 'reports' has no attribute {name!r}")
