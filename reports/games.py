"""Reports of any game's study folder: the report its game declares (:meth:`simcore.games.Game.extension`)."""
from __future__ import annotations

from pathlib import Path

from analyses.study.model import StudyError
from analyses.study.folder import folder_game
from analyses.study.gamechunks import load_game


def build_any_report(folder, pdf=None, png_dir=None):
    """The report of a study folder, whatever game it plays (:class:`reports.pdf.ReportFiles`)."""
    game = load_game(folder_game(Path(folder)))
    report = game.extension("report")
    if report is None:
        raise StudyError(f"{folder}: {game.title} has no study report")
    return report.build_report(folder, pdf=pdf, png_dir=png_dir)
