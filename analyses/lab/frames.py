"""A study folder's report tables in the Python API's conventions, whatever its game.

Each game reads its own folders: its lab wing's ``report_tables`` hook (:class:`analyses.games.LabWing`)
gives every table its report is drawn from, so a chart drawn from a notebook and the report's page quote
the same DataFrames (Project Dreamscape: :mod:`analyses.games.dreamscape.frames`; Counting Zzzzs:
:mod:`analyses.games.counting_zzzzs`; Pleasant Dreams: its summary). The conventions are the command
line's: seats counted from 1 (the analyses count from 0, the data's index), rates as fractions 0-1
(``win_rate``, ``win_low``, ``win_high``; a chart or a table shows them in percent).
"""
from __future__ import annotations

import polars as pl


def seats_from_one(frame: pl.DataFrame | None, column: str = "seat") -> pl.DataFrame | None:
    """``frame`` with its seat index (0 = the first player) counted from 1, as the command line counts."""
    if frame is None or column not in frame.columns:
        return frame
    return frame.with_columns(pl.col(column) + 1)


def game_wing_of_folder(folder):
    """The lab wing of a study folder's game (read from its manifest, found through the registry)."""
    from analyses.games import get_wing
    from analyses.study.folder import folder_game

    return get_wing(folder_game(folder))


def study_tables(folder):
    """Every table a study folder's report is drawn from: its game wing's ``report_tables(folder)``.

    What that game's chart functions take. Project Dreamscape: a
    :class:`analyses.games.dreamscape.frames.StudyTables` (``seats``, ``compare``, ``sweep``, ``solo``,
    ``ladder``, ``exploit``, ...); Pleasant Dreams: its summary (a dict of row lists,
    :func:`analyses.games.pleasant_dreams.pd_summary`); Counting Zzzzs: a dict of DataFrames
    (``first_player``, ``game_shape``, ``action_kinds``, ``element_cards``, ``bot_strength``).
    A game whose wing has no ``report_tables`` (a designer's installed game) is one line
    (:class:`analyses.lab.errors.LabInputError`).
    """
    from analyses.lab.errors import LabInputError

    wing = game_wing_of_folder(folder)
    if wing.report_tables is None:
        raise LabInputError(f"{folder}: {wing.game.name} has no report tables (its lab wing fills in no "
                            "report_tables; open_study(folder).seats draws with plot.seat_win_rates)")
    return wing.report_tables(folder)


__all__ = ["seats_from_one", "study_tables", "game_wing_of_folder"]
