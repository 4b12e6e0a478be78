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

The chart functions are each game's own, in its lab wing, and this module finds them through the game
registry (the wing's ``charts`` hook), never by importing a game: ``plot.<name>`` is the default game's
(Project Dreamscape, :mod:`analyses.games.dreamscape.plot`): :func:`seat_win_rates`,
:func:`variant_comparison`, :func:`final_scores`, :func:`game_lengths`, :func:`type_strength`,
:func:`card_strength`, :func:`swaps_heatmap`, :func:`tournament`, :func:`skill_vs_luck`,
:func:`strength_ladder`, :func:`solo_bands`, :func:`exploit_table`, :func:`budget_ladder`,
:func:`restricted_play`, :func:`suggested_fixes`. :func:`charts` gives any game's (Pleasant Dreams:
:mod:`analyses.games.pleasant_dreams_plot`; Counting Zzzzs: :mod:`analyses.games.counting_zzzzs_plot`), each
function taking the folder's ``tables``. :func:`study_figures` draws every chart a study folder's report has.
"""
from __future__ import annotations

from analyses.lab.frames import game_wing_of_folder, study_tables


def charts(game: str | None = None):
    """A game's chart functions (its wing's ``charts`` hook; default: the default game), or one line.

    ``plot.charts("counting-zzzzs").first_player(tables)``; a game without charts (a designer's
    installed game) raises :class:`analyses.lab.errors.LabInputError`.
    """
    from analyses.games import DEFAULT_GAME, get_wing
    from analyses.lab.errors import LabInputError

    wing = get_wing(game or DEFAULT_GAME)
    if wing.charts is None:
        raise LabInputError(f"{wing.game.name} has no report charts (its lab wing fills in no charts; "
                            "open_study(folder).seats draws with plot.seat_win_rates)")
    return wing.charts()


def game_charts(folder):
    """The chart functions of a study folder's game (:func:`charts` of the game its manifest names)."""
    return charts(game_wing_of_folder(folder).game.name)


def study_figures(folder) -> dict:
    """Every chart of a study folder's report (any game with charts), by name: ``{"seats": Figure, ...}``."""
    from analyses.lab.errors import LabInputError

    wing = game_wing_of_folder(folder)
    if wing.figures is None:
        raise LabInputError(f"{folder}: {wing.game.name} has no report charts (its lab wing fills in no figures; "
                            "open_study(folder).seats draws with plot.seat_win_rates)")
    return wing.figures(study_tables(folder))


def __getattr__(name: str):
    """``plot.seat_win_rates`` and the default game's other charts, looked up in its wing when first used."""
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    game_charts_module = charts()
    if name not in getattr(game_charts_module, "__all__", ()):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(game_charts_module, name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(getattr(charts(), "__all__", ())))


__all__ = ["charts", "study_tables", "study_figures", "game_charts"]
