"""Designer reports: narration of one game, and PDF/PNG reports of study folders.

``build_report(folder)`` writes a study folder's report (see :mod:`reports.pdf`);
the lab (:func:`analyses.lab.run_study`) runs the balance study behind
``dreamscape study`` and calls it. Both are imported on first use, so ``dreamscape play``
(which only needs :mod:`reports.narrate`) does not load matplotlib.
"""
from __future__ import annotations

__all__ = ["build_report", "ReportFiles", "Finding", "run_main_study"]


def __getattr__(name: str):
    if name in ("build_report", "ReportFiles"):
        from reports import pdf

        return getattr(pdf, name)
    if name == "Finding":
        from reports.findings import Finding

        return Finding
    if name == "run_main_study":  # the older name of analyses.lab.run_study
        from analyses.lab import run_study

        return run_study
    raise AttributeError(f"module 'reports' has no attribute {name!r}")
