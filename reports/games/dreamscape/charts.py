"""The charts of a report: one page per chart the study has data for, drawn by :mod:`analyses.lab.plot`.

Every function takes a :class:`~analyses.games.dreamscape.frames.StudyTables` and returns a list of
:class:`Chart` (empty when the study has no data for it), so a report holds only pages with data.
The figures are the Python API's (``analyses.lab.plot``, the game's :mod:`analyses.games.dreamscape.plot`): a chart drawn from a notebook and the
report's page are the same drawing, from the same frames in the same conventions (seats counted
from 1, rates in percent, every estimate with its 95% interval).
"""
from __future__ import annotations

import re
from collections.abc import Callable

import polars as pl

from analyses.games.dreamscape import plot
from analyses.games.dreamscape.frames import StudyTables, Tournament, lab_tables, round_robins
from analyses.games.dreamscape.plot import METRICS, SWEEP_METRICS, option_variants, shown_variants  # noqa: F401
from reports.charts import MAX_SERIES, PAGE, PNG_DPI, STYLE, STYLES, Chart, styled  # noqa: F401


def _configs(t: StudyTables) -> pl.DataFrame:
    """config, variant, players, strategies of every configuration (manifest or seat table)."""
    return plot.configs_of(t)


def _page(name: str, title: str, figure, data: pl.DataFrame | None) -> list[Chart]:
    return [] if figure is None else [Chart(name, title, figure, data)]


def seat_chart(t: StudyTables) -> list[Chart]:
    """Win rate per seat with 95% intervals and the fair share, one panel per player count."""
    seats = lab_tables(t).seats
    return [] if seats is None else _page("seats", "Seat win rates", plot.seat_win_rates(seats), seats)


def compare_chart(t: StudyTables) -> list[Chart]:
    """Forest plot of paired differences (variant - baseline) with 95% intervals, one panel per metric."""
    return [] if t.compare is None else _page("compare", "Variant comparison", plot.variant_comparison(t.compare),
                                              t.compare)


def score_chart(t: StudyTables) -> list[Chart]:
    """Final score distribution per seat, one panel per player count (base game or the first variant)."""
    dist = lab_tables(t).score_dist
    return [] if dist is None else _page("scores", "Final scores by seat", plot.final_scores(dist, _configs(t)), dist)


def length_chart(t: StudyTables) -> list[Chart]:
    """Game length distribution, one panel per player count, one line per rules variant."""
    dist = t.length_dist
    return [] if dist is None else _page("lengths", "Game length", plot.game_lengths(dist, _configs(t)), dist)


def type_chart(t: StudyTables) -> list[Chart]:
    """Dream-type strength: win rate of seats that performed the type more than average, minus fair."""
    return [] if t.strength is None else _page("types", "Dream-type strength", plot.type_strength(t.strength), t.strength)


def card_chart(t: StudyTables, per_side: int = 8) -> list[Chart]:
    """Cards whose holders win most and least often against the average card, one panel per player count."""
    return [] if t.pairs is None else _page("cards", "Card strength", plot.card_strength(t.pairs, per_side), t.pairs)


def swap_charts(t: StudyTables, metric: str = "seat_spread") -> list[Chart]:
    """Swap heatmaps: removed base type x added expansion type, one page per player count, one panel per rules option."""
    if t.sweep is None:
        return []
    return [chart for p in plot.swap_players(t.sweep)
            for chart in _page(f"swaps-{p}p", f"Expansion swaps, {p} players", plot.swaps_heatmap(t.sweep, p, metric),
                               t.sweep.filter(pl.col("players") == p))]


def tournament_charts(t: StudyTables) -> list[Chart]:
    """Per tournament: standings with intervals and the payoff matrix (row's win rate when meeting column)."""
    return [chart for tour in round_robins(t) for chart in _tournament_page(tour)]


def _tournament_page(tour: Tournament) -> list[Chart]:
    name = f"tournament-{tour.players}p" + ("" if tour.variant == "base" else f"-{tour.variant}").replace("+", "_").replace(":", "-")
    data = tour.payoff.with_columns(pl.lit(tour.players).alias("players"), pl.lit(tour.variant).alias("variant"))
    return _page(name, f"Strategy tournament, {tour.players} players", plot.tournament(tour), data)


def skill_chart(t: StudyTables) -> list[Chart]:
    """How often the stronger bot wins, per variant and player count, against its fair share."""
    return [] if t.skill is None else _page("skill", "Skill against luck", plot.skill_vs_luck(t.skill), t.skill)


def ladder_chart(t: StudyTables) -> list[Chart]:
    """The strength ladder: each bot's head-to-head win share against the next weaker one, with 95% intervals."""
    return _page("ladder", "Strength ladder", plot.strength_ladder(t.ladder), t.ladder)


def solo_chart(t: StudyTables) -> list[Chart]:
    """Share of solo games in each rulebook score band (R10.5): one panel per strategy, one bar per variant."""
    return _page("solo", "Solo score bands", plot.solo_bands(t.solo), t.solo)


def exploit_chart(t: StudyTables) -> list[Chart]:
    """How strong were the bots? One page per bot (the main study's expert cells, a kept ``exploit`` run of
    the strong bot): the search player's gain over it in each seat."""
    if t.exploit is None or t.exploit.height == 0:
        return []
    charts = []
    for i, bot in enumerate(plot.exploit_bots(t.exploit)):
        name = "exploit" + (f"-{re.sub(r'[^a-z0-9]+', '-', bot.lower()).strip('-')}" if i else "")
        title = "How strong were the bots?" + (f" ({bot})" if i else "")
        missing = getattr(t, "exploit_missing", []) if bot == "strong" else []
        charts += _page(name, title, plot.exploit_table(t.exploit, bot, missing), t.exploit.filter(pl.col("strategy") == bot))
    return charts


def doubling_chart(t: StudyTables) -> list[Chart]:
    """The budget ladder: what each doubling of the search's playouts over a bot gains, per seat."""
    return _page("doubling", "Search budget ladder", plot.budget_ladder(t.doubling), t.doubling)


def restrict_chart(t: StudyTables) -> list[Chart]:
    """Restricted play: the win rate a seat loses when its bot may never buy / perform a type."""
    return _page("restrict", "Restricted play: which dream types matter?", plot.restricted_play(t.restrict), t.restrict)


def fixes_chart(t: StudyTables) -> list[Chart]:
    """Suggested fixes: each verified knob setting's seat win rates and game length against the unmodified game."""
    return _page("fixes", "Suggested fixes", plot.suggested_fixes(t.fixes), t.fixes)


CHARTS: tuple[Callable[[StudyTables], list[Chart]], ...] = (
    seat_chart, compare_chart, score_chart, length_chart, type_chart, card_chart,
    swap_charts, tournament_charts, skill_chart, ladder_chart, solo_chart, exploit_chart, doubling_chart, restrict_chart,
    fixes_chart,
)


def make_charts(t: StudyTables, swap_metric: str = "seat_spread") -> list[Chart]:
    """Every chart the study has data for, in report order."""
    out: list[Chart] = []
    for fn in CHARTS:
        out.extend(fn(t, swap_metric) if fn is swap_charts else fn(t))
    return out
