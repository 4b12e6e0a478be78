"""Every chart of the reports as a matplotlib figure, from the Python API's frames (``analyses.lab.plot``).

Each function takes the frame a lab function returns and gives a :class:`matplotlib.figure.Figure`
(shown by a notebook as the cell's value; ``fig.savefig("seats.png")`` writes it), or None when the
frame holds nothing that chart shows. The study reports draw their pages with these same functions,
so a figure drawn from a notebook and the report's page are one drawing of the same numbers.

The frames are in the command line's conventions: seats counted from 1, every rate a fraction 0-1
(``win_rate`` with its 95% interval ``win_low``/``win_high``); the charts draw rates in percent and
changes of rates in percentage points::

    from analyses import lab
    from analyses.lab import plot

    fig = plot.seat_win_rates(lab.simulate(game="dreamscape", players=3, games=20_000))
    fig = plot.variant_comparison(lab.compare(game="dreamscape", players=3, variants=["base", "sleep-token"]))
    fig = plot.tournament(lab.tournament(game="dreamscape", players=3, strategies=["greedy", "chain", "linear"]))
    tables = lab.open_study("out/study").tables   # every table of the folder's report
    fig = plot.swaps_heatmap(tables.sweep, players=3)

Project Dreamscape (:mod:`analyses.lab.plot.dreamscape`): :func:`seat_win_rates`,
:func:`variant_comparison`, :func:`final_scores`, :func:`game_lengths`, :func:`type_strength`,
:func:`card_strength`, :func:`swaps_heatmap`, :func:`tournament`, :func:`skill_vs_luck`,
:func:`strength_ladder`, :func:`solo_bands`, :func:`exploit_table`, :func:`budget_ladder`,
:func:`restricted_play`, :func:`suggested_fixes`. Pleasant Dreams and Counting Zzzzs: the modules
:mod:`analyses.lab.plot.pleasant_dreams` and :mod:`analyses.lab.plot.counting_zzzzs`, each function
taking the folder's ``tables``. :func:`study_figures` draws every chart a study folder's report has.
"""
from __future__ import annotations

from analyses.lab.plot.dreamscape import (budget_ladder, card_strength, exploit_bots, exploit_table, final_scores,
                                          game_lengths, restricted_play, seat_win_rates, skill_vs_luck, solo_bands,
                                          strength_ladder, suggested_fixes, swap_players, swaps_heatmap, tournament,
                                          type_strength, variant_comparison)


def game_charts(folder):
    """The chart module of a study folder's game (``analyses.lab.plot.<game>``): its ``tables`` and ``figures``.

    Found by the game's registry name (``pleasant-dreams`` -> :mod:`analyses.lab.plot.pleasant_dreams`); a
    game without one (a designer's installed game) is one line.
    """
    import importlib
    import importlib.util

    from analyses.lab.errors import LabInputError
    from analyses.study.folder import folder_game

    game = folder_game(folder)
    name = f"{__name__}.{game.replace('-', '_')}"
    if importlib.util.find_spec(name) is None:
        raise LabInputError(f"{folder}: {game} has no report charts in analyses.lab.plot (open_study(folder).seats "
                            "draws with seat_win_rates)")
    return importlib.import_module(name)


def study_tables(folder):
    """Every table a study folder's report is drawn from, in the Python API's conventions (seats from 1).

    Project Dreamscape: a :class:`analyses.lab.frames.StudyTables` (``seats``, ``compare``, ``sweep``,
    ``solo``, ``ladder``, ``exploit``, ...); Pleasant Dreams: its summary (a dict of row lists,
    :func:`analyses.games.pleasant_dreams.pd_summary`); Counting Zzzzs: a dict of DataFrames
    (``first_player``, ``game_shape``, ``action_kinds``, ``element_cards``, ``bot_strength``). Each is what
    that game's chart functions take.
    """
    return game_charts(folder).tables(folder)


def study_figures(folder) -> dict:
    """Every chart of a study folder's report (any game with charts), by name: ``{"seats": Figure, ...}``."""
    charts = game_charts(folder)
    return charts.figures(charts.tables(folder))


__all__ = ["seat_win_rates", "variant_comparison", "final_scores", "game_lengths", "type_strength", "card_strength",
           "swaps_heatmap", "swap_players", "tournament", "skill_vs_luck", "strength_ladder", "solo_bands",
           "exploit_table", "exploit_bots", "budget_ladder", "restricted_play", "suggested_fixes", "study_tables",
           "study_figures", "game_charts"]
