"""Each game's report, in one place per game, and the registry that finds a study folder's.

``reports/games/<game>`` exports ``WING``, the game's :class:`reports.wing.ReportWing`. The registry
knows the built-in games' wings and, for a game in a designer's own package, reads the
``dreamscape.reports`` entry-point group (``[project.entry-points."dreamscape.reports"]`` in its
pyproject.toml: ``my-game = "my_package.report:WING"``), found by the game's name.
"""
from __future__ import annotations

import importlib
import importlib.util
from importlib.metadata import entry_points
from pathlib import Path

from analyses.study.model import StudyError
from analyses.study.folder import folder_game
from reports.wing import ReportWing

ENTRY_POINT_GROUP = "dreamscape.reports"


def built_in_module(game: str) -> str | None:
    """The module of a built-in game's wing: ``reports.games.<name, - as _>`` when it exists, else None.

    Found by this rule rather than a list of names, so a source checkout needs no installed metadata
    (this project's pyproject.toml declares the same modules in the entry-point group; a test keeps
    them in step).
    """
    module = f"{__name__}.{game.replace('-', '_')}"
    if not game.replace("-", "_").isidentifier() or importlib.util.find_spec(module) is None:
        return None
    return module


def report_wing(game: str) -> ReportWing:
    """The report of ``game`` (a registry name): a built-in wing, else the entry point of that name.

    Raises :class:`StudyError` (one line) when no wing reports that game or what is registered is not one.
    """
    module = built_in_module(game)
    if module is not None:
        wing = importlib.import_module(module).WING
    else:
        found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == game]
        if not found:
            raise StudyError(f"{game} has no study report (no built-in one, none in the {ENTRY_POINT_GROUP!r} "
                             "entry points)")
        wing = found[0].load()
        wing = getattr(wing, "WING", wing)  # a module that exports WING, or the wing itself
    if not isinstance(wing, ReportWing) or wing.game != game:
        raise StudyError(f"the report registered for {game} is not a report wing of {game} (reports.wing.ReportWing)")
    return wing


def folder_wing(folder) -> ReportWing:
    """The report of the game a study folder plays."""
    return report_wing(folder_game(Path(folder)))


def build_any_report(folder, pdf=None, png_dir=None):
    """The report of a study folder, whatever game it plays (:class:`reports.pdf.ReportFiles`)."""
    return folder_wing(folder).build_report(folder, pdf=pdf, png_dir=png_dir)


def summary_output(folder, as_json: bool) -> list[str]:
    """``dreamscape summarize``: the folder's game's summary, strict JSON or its tables."""
    return folder_wing(folder).summary_output(folder, as_json)


def report_of(folder, game: str | None = None, pdf=None, png_dir=None):
    """``dreamscape report``: check the folder (and its game), where the files go, then build its report.

    A damaged or missing chunk, another game than ``game``, or an unwritable
    ``pdf``/``png_dir`` is one line before any chart is drawn. The folder, and any other study folder the
    PDF or the PNGs go into, is held (its lock) while the report is written; a ``--pdf``/``--png-dir`` in a
    study folder of another game or kind of run is refused, nothing written (issue #40).
    """
    from analyses.lab import check_folder_game
    from analyses.lab.common import writable_file, writable_folder
    from analyses.study.folder import MANIFEST, check_study, claim_folder, folder_kind, read_manifest

    folder = Path(folder)
    check_study(folder)
    check_folder_game(folder, game)
    writable_file(pdf if pdf is not None else folder / "report.pdf", "--pdf")
    writable_folder(png_dir if png_dir is not None else folder / "charts", "--png-dir")
    held_game, kind = folder_game(folder), folder_kind(read_manifest(folder).meta)
    # a study folder among the targets: the report's own, or one the PDF or the PNGs are written into
    places = [Path(pdf).parent] if pdf is not None else []
    places += [Path(png_dir), Path(png_dir).parent] if png_dir is not None else []  # charts/ inside a study folder too
    targets = [folder] + [t for t in places if (t / MANIFEST).is_file()]
    releases = []
    try:
        for target in dict.fromkeys(Path(t).resolve() for t in targets):
            releases.append(claim_folder(target, held_game, kind))
        return build_any_report(folder, pdf=pdf, png_dir=png_dir)
    finally:
        for release in reversed(releases):
            release()
