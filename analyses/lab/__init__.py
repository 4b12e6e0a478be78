"""The balance lab's Python API: every ``dreamscape`` command as a plain function.

Each function validates its inputs (bad input is one :class:`LabInputError`,
or a game's own one-line error), plays, and returns its results: polars
DataFrames or plain dicts, the same numbers the command prints with
``--json``. The command line (``cli.py``) only parses options, calls one of
these and prints::

    from analyses import lab

    df = lab.simulate(game="dreamscape", players=3, games=20_000, seed=1)   # one row per seat
    cmp = lab.compare(game="dreamscape", players=3, variants=["base", "sleep-token"], games=20_000, seed=1)
    t = lab.tournament(game="pleasant-dreams", players=2, strategies=["random", "threshold", "search@8"], games=2_000)
    lab.compare(game="dreamscape", players=3, variants=["base", "sleep-token"], games=20_000, seed=1,
                out="out/sleep-token")   # the same comparison, kept as a study folder
    study = lab.open_study("out/sleep-token")   # .summary, .seats, .configs, .tables as polars DataFrames

The frames count seats from 1 and hold rates as fractions (``win_rate``, ``win_low``, ``win_high``);
:mod:`analyses.lab.plot` draws every chart of the reports from them. Errors name the Python parameter
(``players must be 1 to 4, got 9``); the command line prints its option instead.

Every function takes ``game`` (a registry name, :func:`analyses.games.game_names`);
a game without the capability a function needs is one line naming it
(:meth:`simcore.games.Game.need`). A function that writes a study folder
writes ``out``, or a default folder under ``out/`` named after the question
(said on stderr); the same call again resumes it.
"""
from __future__ import annotations

from analyses.lab.certify import certify
from analyses.lab.bots import exploit, fix_seats, restrict, tournament, tournament_data, train, train_strong, tune
from analyses.lab.common import LabInputError
from analyses.lab.play import (bench, conformance, decks, play_setup, seat_frame, simulate, simulate_summary,
                               strategies, warmup)
from analyses.lab import ui  # the what-if page (dreamscape ui); light: NiceGUI loads when the page is served
from analyses.lab.studies import (FolderOptions, LabStudy, check_folder_game, compare, compare_decks_folders,
                                  compare_folder, compared, comparison_summary, open_study, run_study, solo_folder,
                                  study, summary_data, sweep, sweep_folder)

__all__ = [
    "LabInputError", "FolderOptions", "LabStudy",
    "simulate", "simulate_summary", "seat_frame", "play_setup", "conformance", "decks", "strategies", "warmup", "bench",
    "compare", "compare_folder", "compare_decks_folders", "compared", "comparison_summary", "sweep", "sweep_folder", "solo_folder", "study", "run_study", "open_study", "summary_data",
    "check_folder_game", "tournament", "tournament_data", "exploit", "restrict", "train", "train_strong", "tune", "fix_seats", "certify",
]
