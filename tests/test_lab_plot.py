"""analyses.lab.plot: every report chart as a figure of the Python API's frames, read back from its Axes.

Each chart is drawn from a small frame whose numbers are written here by hand (seats counted from 1,
rates as fractions), and the bars, dots and cells read back from the figure must be those numbers in
percent, at the places the conventions put them (seat 1 at x = 1, the fair share at 100/players %).
The reports draw with the same functions: a report page and the API's figure of the same table carry
the same numbers.
"""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from matplotlib.figure import Figure

from analyses.lab import plot

cz_plot = plot.charts("counting-zzzzs")  # each game's charts, found through the registry
pd_plot = plot.charts("pleasant-dreams")


def bar_heights(ax) -> list[float]:
    return [round(p.get_height(), 9) for p in ax.patches]


def bar_centres(ax) -> list[float]:
    return [round(p.get_x() + p.get_width() / 2, 9) for p in ax.patches]


def dots(ax) -> np.ndarray:
    """The (x, y) of every dot of the axes' scatter collections, in drawing order."""
    return np.vstack([c.get_offsets() for c in ax.collections if hasattr(c, "get_offsets")
                      and len(c.get_offsets()) and c.__class__.__name__ == "PathCollection"])


def seats_frame(rates: list[float], players: int = 3) -> pl.DataFrame:
    return pl.DataFrame({"players": [players] * len(rates), "variant": ["base"] * len(rates),
                         "strategy": ["greedy"] * len(rates), "seat": list(range(1, len(rates) + 1)),
                         "win_rate": rates, "win_low": [r - 0.01 for r in rates], "win_high": [r + 0.01 for r in rates]})


def test_seat_win_rates_draws_each_seats_rate_in_percent_at_its_seat_number():
    fig = plot.seat_win_rates(seats_frame([0.5, 0.3, 0.2]))
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert bar_heights(ax) == [50.0, 30.0, 20.0]
    assert bar_centres(ax) == [1.0, 2.0, 3.0]  # seat 1 is the first bar, at x = 1
    assert [t.get_text() for t in ax.get_xticklabels()] == ["seat 1", "seat 2", "seat 3"]
    fair = [line for line in ax.get_lines() if line.get_linestyle() == "--"][0]
    assert fair.get_ydata()[0] == pytest.approx(100 / 3)  # the fair share of three players
    # the error bars span the interval: 49-51, 29-31, 19-21
    caps = sorted(round(y, 6) for line in ax.get_lines() if line.get_marker() == "_" for y in line.get_ydata())
    assert caps == [19.0, 21.0, 29.0, 31.0, 49.0, 51.0]


def test_seat_win_rates_one_panel_per_player_count_and_none_for_solo():
    two = seats_frame([0.6, 0.4], players=2)
    four = seats_frame([0.3, 0.25, 0.25, 0.2], players=4)
    fig = plot.seat_win_rates(pl.concat([two, four]))
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [bar_heights(ax) for ax in visible] == [[60.0, 40.0], [30.0, 25.0, 25.0, 20.0]]
    assert [ax.get_title() for ax in visible] == ["2 players (fair 50.0%)", "4 players (fair 25.0%)"]
    assert plot.seat_win_rates(seats_frame([0.4], players=1)) is None  # solo has no seats to compare


def test_variant_comparison_draws_rate_changes_in_points_and_means_as_they_are():
    rows = []
    for metric, diff in (("seat_spread", -0.05), ("first_seat_win", 0.02), ("winning_score", 1.5), ("game_length", -0.4)):
        rows.append({"players": 3, "strategies": "greedy", "variant": "sleep-token", "baseline": "base",
                     "metric": metric, "diff": diff, "diff_low": diff - 0.01, "diff_high": diff + 0.01,
                     "significant": True})
    fig = plot.variant_comparison(pl.DataFrame(rows))
    panels = fig.axes[:4]
    assert [ax.get_title() for ax in panels] == ["seat spread", "seat 1 win rate", "mean winning score", "mean game length"]
    x = [dots(ax)[0][0] for ax in panels]
    assert x == pytest.approx([-5.0, 2.0, 1.5, -0.4])  # -0.05 and 0.02 in points; score and length in their units


def test_solo_bands_bars_are_each_bands_share_in_percent():
    bands = ["under 15", "15-24", "25-34", "35-44", "45-54", "55+"]
    shares = [0.05, 0.10, 0.25, 0.30, 0.20, 0.10]
    solo = pl.DataFrame({"variant": ["base"] * 6, "strategy": ["greedy"] * 6, "band": bands, "share": shares,
                         "share_low": [s - 0.01 for s in shares], "share_high": [s + 0.01 for s in shares],
                         "mean_score": [33.0] * 6})
    ax = plot.solo_bands(solo).axes[0]
    assert bar_heights(ax) == pytest.approx([5.0, 10.0, 25.0, 30.0, 20.0, 10.0])
    assert [t.get_text() for t in ax.get_xticklabels()] == bands
    assert plot.solo_bands(solo.clear()) is None


def test_strength_ladder_and_exploit_table_dots_are_the_frames_rates():
    ladder = pl.DataFrame({"players": [2, 2], "variant": ["base", "base"], "step": [1, 2],
                           "weaker": ["random", "greedy"], "stronger": ["greedy", "linear"], "games": [400, 400],
                           "stronger_win_rate": [0.9, 0.6], "win_low": [0.85, 0.55], "win_high": [0.93, 0.65]})
    ax = plot.strength_ladder(ladder).axes[0]
    assert sorted(dots(ax)[:, 0]) == pytest.approx([60.0, 90.0])
    exploit = pl.DataFrame({"strategy": ["greedy"] * 2, "search": ["search:greedy@8"] * 2, "players": [2, 2],
                            "variant": ["base", "base"], "seat": [1, 2], "gain": [0.12, 0.08],
                            "gain_low": [0.1, 0.06], "gain_high": [0.14, 0.1], "games": [500, 500]})
    ax = plot.exploit_table(exploit).axes[0]
    assert list(dots(ax)[:, 0]) == pytest.approx([12.0, 8.0])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["2p base game, seat 1", "2p base game, seat 2"]
    with pytest.raises(ValueError, match="strategy 'expert' is not in the exploit table"):
        plot.exploit_table(exploit, "expert")


def test_swaps_heatmap_cells_are_the_change_against_no_swap():
    from simcore.games.dreamscape.cards import BASE_TYPES, CODES, EXPANSION_TYPES

    removed, added = CODES[sorted(BASE_TYPES)[0]], CODES[sorted(EXPANSION_TYPES)[1]]
    sweep = pl.DataFrame({"players": [3, 3], "options": ["base", "base"], "strategies": ["greedy/greedy/greedy"] * 2,
                          "swaps": ["none", f"{removed}:{added}"], "removed": ["", removed], "added": ["", added],
                          "seat_spread": [0.10, 0.04]})
    fig = plot.swaps_heatmap(sweep, players=3)
    ax = fig.axes[0]
    cells = ax.get_images()[0].get_array()
    assert cells[0, 1] == pytest.approx(-6.0)  # 4 points against 10 without the swap
    assert np.isnan(np.ma.filled(cells.astype(float), np.nan)).sum() == cells.size - 1  # the other pairs: not played
    assert "no swap: 10.0" in ax.get_title()
    assert plot.swaps_heatmap(sweep, players=4) is None


def test_tournament_takes_the_apis_dict_standings_sorted_payoff_in_percent():
    result = {"players": 2, "variant": "base", "games_per_seating": 100, "dominant": "b", "cycles": [],
              "standings": pl.DataFrame({"strategy": ["a", "b", "c"], "win_rate": [0.3, 0.7, 0.5],
                                         "win_low": [0.25, 0.65, 0.45], "win_high": [0.35, 0.75, 0.55]}),
              "payoff": pl.DataFrame({"strategy": ["a", "b"], "opponent": ["b", "a"], "win_rate": [0.2, 0.8]})}
    fig = plot.tournament(result)
    left, right = fig.axes[0], fig.axes[1]
    assert [p.get_width() for p in left.patches] == pytest.approx([70.0, 50.0, 30.0])  # best first, top down
    cells = right.get_images()[0].get_array()
    assert cells[0, 2] == pytest.approx(80.0) and cells[2, 0] == pytest.approx(20.0)  # rows and columns b, c, a


def test_pleasant_dreams_and_counting_zzzzs_charts_draw_their_tables():
    summary = {"first_player": [{"strategy": "threshold", "variant": "base", "rate": 0.56, "low": 0.52, "high": 0.6}]}
    ax = pd_plot.first_player(summary).axes[0]
    assert list(dots(ax)[:, 0]) == pytest.approx([56.0])
    assert pd_plot.solver_gap({"solver": []}) is None
    tables = {"first_player": pl.DataFrame({"bot": ["greedy", "greedy"], "players": [2, 3], "seat1_win": [0.55, 0.4],
                                            "low": [0.5, 0.35], "high": [0.6, 0.45], "fair": [0.5, 1 / 3]})}
    ax = cz_plot.first_player(tables).axes[0]
    assert bar_heights(ax) == [0.55, 0.4]
    assert cz_plot.bot_strength(tables) is None  # not played: no figure


def test_the_report_page_is_the_apis_figure_of_the_same_table():
    """The report's seat page is plot.seat_win_rates of the report's table (seats shifted to count from 1)."""
    from analyses.games.dreamscape.frames import StudyTables
    from reports.games.dreamscape.charts import seat_chart

    seats0 = seats_frame([0.5, 0.3, 0.2]).with_columns(pl.col("seat") - 1, pl.lit("greedy/greedy/greedy").alias("strategies"))
    (chart,) = seat_chart(StudyTables(seats=seats0))
    assert chart.name == "seats"
    assert bar_heights(chart.figure.axes[0]) == [50.0, 30.0, 20.0]
    assert bar_centres(chart.figure.axes[0]) == [1.0, 2.0, 3.0]


def test_simulated_seats_are_drawn_as_the_frame_says():
    """A real run: lab.simulate's frame (seats from 1) and its figure carry the same numbers."""
    from analyses import lab

    df = lab.simulate(game="dreamscape", players=3, games=120, seed=5, strategies=["greedy"])
    assert df["seat"].to_list() == [1, 2, 3]
    ax = plot.seat_win_rates(df).axes[0]
    assert bar_heights(ax) == pytest.approx([100 * r for r in df["win_rate"]])
    # every game's win credit shared out among its winners (R8.3), unless it was aborted (R8.4)
    assert sum(bar_heights(ax)) == pytest.approx(100.0 * (120 - df["aborted"][0]) / 120)


def test_a_pleasant_dreams_folder_draws_its_reports_charts_from_its_tables(tmp_path):
    """lab.open_study(f).tables of another game's folder is what its charts take; study_figures draws them all."""
    from analyses import lab

    lab.simulate(game="pleasant-dreams", players=2, games=200, seed=2, out=tmp_path / "pd")
    study = lab.open_study(tmp_path / "pd")
    rows = study.tables["first_player"]
    assert rows and {r["strategy"] for r in rows} == {study.seats["strategy"][0]}
    figures = plot.study_figures(tmp_path / "pd")
    assert set(figures) == {"pd-first-player"}  # a plain simulation answers the first-player question only
    ax = figures["pd-first-player"].axes[0]
    assert list(dots(ax)[:, 0]) == pytest.approx([100 * r["rate"] for r in rows])
    # seat 1's rate in the chart is the folder's seat 1 (seats counted from 1)
    assert rows[0]["rate"] == pytest.approx(study.seats.filter(pl.col("seat") == 1)["win_rate"][0])


def test_charts_are_the_games_own_found_through_its_wing_and_a_game_without_them_is_one_line(tmp_path):
    """plot.<name> is the default game's chart; each game's come from its wing's hooks, and a wing without
    them (a designer's game, here Pleasant Dreams registered again as a bare LabWing) is a LabInputError."""
    from analyses import lab
    from analyses.games import LabWing, get_game, register, unregister
    from analyses.lab.errors import LabInputError

    assert plot.seat_win_rates is plot.charts("dreamscape").seat_win_rates
    for not_a_chart in ("no_such_chart", "tables", "np"):  # only the charts the game's module lists
        with pytest.raises(AttributeError):
            getattr(plot, not_a_chart)
    lab.simulate(game="pleasant-dreams", players=2, games=200, seed=2, out=tmp_path / "pd")
    register(LabWing(get_game("pleasant-dreams")))
    try:
        with pytest.raises(LabInputError, match="^pleasant-dreams has no report charts"):
            plot.charts("pleasant-dreams")
        with pytest.raises(LabInputError, match="pleasant-dreams has no report charts"):
            plot.study_figures(tmp_path / "pd")
        with pytest.raises(LabInputError, match="pleasant-dreams has no report tables"):
            lab.open_study(tmp_path / "pd").tables
    finally:
        unregister("pleasant-dreams")
    assert set(plot.study_figures(tmp_path / "pd")) == {"pd-first-player"}  # its entry point's wing again
