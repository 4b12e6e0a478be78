"""Reports of any game's study folder: Project Dreamscape's (:mod:`reports.pdf`) or another game's own."""
from __future__ import annotations

from pathlib import Path

from analyses.model import StudyError
from analyses.study import folder_game


def build_any_report(folder, pdf=None, png_dir=None):
    """The report of a study folder, whatever game it plays (:class:`reports.pdf.ReportFiles`)."""
    game = folder_game(Path(folder))
    if game == "dreamscape":
        from reports.pdf import build_report

        return build_report(folder, pdf=pdf, png_dir=png_dir)
    if game == "pleasant-dreams":
        from reports.pleasant_dreams import build_pd_report

        return build_pd_report(folder, pdf=pdf, png_dir=png_dir)
    raise StudyError(f"{folder}: no report for game {game!r}")
