"""The strength ladder: each bot against the next stronger one, head to head, with intervals.

A round robin of three or more bots in 3- or 4-player games hides the bottom
of the ladder: where a strong third bot wins nearly every game, random and
greedy both win almost none, whichever is better. Head to head, in 2-player
games with both seatings on the same deals, every game is won by one of the
two (or shared, R8.3), so the stronger one's win share says how far apart the
two are. :func:`strength_ladder` reads a study's 2-player round robin
(:func:`analyses.tools.tournament.tournament_from_study`), orders its bots by how
many of the others each beats head to head (then by their standings) and gives each adjacent pair's head-to-head share with its 95%
Wilson interval. When the study also played the search player over a bot of
the ladder in both seats (exploit cells, :func:`analyses.study.model.exploit_cell`),
that is a last step: the search player against the bot it searches with (the
main study's search player searches over expert, below the strong bot).

A step is *apart* when the stronger bot's interval lies above one half: the
two bots' own intervals (the weaker one's is its mirror) do not overlap.
"""
from __future__ import annotations

from pathlib import Path

import polars as pl

from analyses.study.model import StudyError, exploit_cell
from analyses.stats.intervals import wilson
from analyses.study.folder import finished_configs, seat_totals, to_output
from analyses.tools.tournament import tournament_from_study, tournament_groups

COLUMNS = {
    "players": pl.Int64, "variant": pl.Utf8, "step": pl.Int64, "weaker": pl.Utf8, "stronger": pl.Utf8,
    "games": pl.Int64, "stronger_win_rate": pl.Float64, "win_low": pl.Float64, "win_high": pl.Float64,
    "apart": pl.Boolean, "source": pl.Utf8,
}
HEAD_TO_HEAD = 2  # players: the ladder is read from 2-player games only (see the module docstring)


def strength_ladder(folder: str | Path, variant: str = "base", pandas: bool = False):
    """Adjacent steps of the ladder of a study's 2-player round robin in ``variant`` (columns :data:`COLUMNS`).

    Raises :class:`~analyses.study.model.StudyError` when the folder holds no such
    round robin of three or more bots.
    """
    if (HEAD_TO_HEAD, variant) not in tournament_groups(folder):
        raise StudyError(f"{folder}: no {HEAD_TO_HEAD}-player round robin in {variant}")
    result = tournament_from_study(folder, players=HEAD_TO_HEAD, variant=variant)
    payoff = result.payoff
    order = ladder_order(result.standings, payoff)  # weakest first
    if len(order) < 3:
        raise StudyError(f"{folder}: the {HEAD_TO_HEAD}-player round robin in {variant} has fewer than three bots")
    rows = []
    for step, (weak, strong) in enumerate(zip(order, order[1:]), start=1):
        cell = payoff.filter((pl.col("strategy") == strong) & (pl.col("opponent") == weak))
        if cell.height == 0:
            continue
        r = cell.row(0, named=True)
        rows.append(_row(variant, step, weak, strong, int(r["games"]), float(r["win_rate"]) * int(r["games"]),
                         "round robin"))
    for bot in reversed(order):  # the search player over a bot of the ladder (the main study: over expert)
        search = _search_step(folder, variant, bot)
        if search is not None:
            name, games, credit = search
            source = "search over the top bot" if bot == order[-1] else f"search over {bot}"
            rows.append(_row(variant, len(rows) + 1, bot, name, games, credit, source))
    return to_output(pl.DataFrame(rows, schema=COLUMNS), pandas)


def ladder_order(standings: pl.DataFrame, payoff: pl.DataFrame) -> list[str]:
    """The bots weakest first: by how many others each beats head to head, then by its standings.

    Head-to-head wins first (a Copeland count over the payoff matrix), because
    the standings pool every game a bot played: a bot that also played many
    games against a far stronger one (the main study's linear, which meets
    expert in the 40,000 games of skill against luck) falls below a bot it
    beats five games in six.
    """
    beats = {s: 0 for s in standings["strategy"].to_list()}
    for r in payoff.filter(pl.col("win_rate") > 0.5).iter_rows(named=True):
        if r["strategy"] in beats:
            beats[r["strategy"]] += 1
    rate = dict(zip(standings["strategy"].to_list(), standings["win_rate"].to_list()))
    return sorted(beats, key=lambda s: (beats[s], rate[s], s))


def _row(variant: str, step: int, weak: str, strong: str, games: int, credit: float, source: str) -> dict:
    est = wilson(credit, games)
    return {"players": HEAD_TO_HEAD, "variant": variant, "step": step, "weaker": weak, "stronger": strong,
            "games": games, "stronger_win_rate": est.value, "win_low": est.low, "win_high": est.high,
            "apart": bool(est.low > 0.5), "source": source}


def _search_step(folder, variant: str, bot: str) -> tuple[str, int, float] | None:
    """The search player over ``bot`` against ``bot`` head to head: (its name, games, its win credit).

    Pooled over the 2-player exploit cells of ``variant`` (search in seat 1,
    then in seat 2); None unless both seatings were played.
    """
    cells = {}
    for c in finished_configs(folder):
        found = exploit_cell(c.strategies)
        if c.players == HEAD_TO_HEAD and c.variant == variant and found is not None and found[0] == bot:
            cells.setdefault(found[1], {})[found[2]] = c.id
    both = [(name, ids) for name, ids in cells.items() if len(ids) == HEAD_TO_HEAD]
    if not both:
        return None
    name, ids = min(both, key=lambda x: x[0])  # one search player per ladder: the first by name if several
    totals = seat_totals(folder)
    games, credit = 0, 0.0
    for seat, cid in ids.items():
        mine = totals.filter((pl.col("config") == cid) & (pl.col("seat") == seat))
        games += int(mine["n"].sum())
        credit += float(mine["sum_win"].sum())
    return name, games, credit
