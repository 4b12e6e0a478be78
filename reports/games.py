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


def report_of(folder, game: str | None = None, pdf=None, png_dir=None):
    """``dreamscape report``: check the folder (and its game), where the files go, then build its report.

    A damaged or missing chunk, another game than ``game``, or an unwritable
    ``pdf``/``png_dir`` is one line before any chart is drawn.
    """
    from analyses.lab import check_folder_game
    from analyses.lab.common import writable_file, writable_folder
    from analyses.study.folder import check_study

    folder = Path(folder)
    check_study(folder)
    check_folder_game(folder, game)
    writable_file(pdf if pdf is not None else folder / "report.pdf", "--pdf")
    writable_folder(png_dir if png_dir is not None else folder / "charts", "--png-dir")
    return build_any_report(folder, pdf=pdf, png_dir=png_dir)
