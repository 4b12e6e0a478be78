"""Strategy tournaments: round robin with seats rotated on duplicate deals, for any game.

Every group of ``players`` distinct strategies plays every seating order of
the group on the *same* deals (games 0..n-1 of one seed), so luck of the deal
and of the seat cancels out as far as it can. The games are played through the
game's interface (:meth:`simcore.games.Game.play_games` on the fast engine,
win credit from :attr:`~simcore.games.Game.seat_wins`), so any game with two or
more seats holds a tournament. From the games come:

* each strategy's overall win rate (shared wins split 1/k, R8.3) with a 95%
  Wilson interval, and its lift over the fair share 1/players;
* a payoff matrix: row A, column B = A's mean win credit in the games where it
  met B, with the interval;
* ratings from openskill's Plackett-Luce model, each game ranked by win credit,
  then by score when the game reports scores;
* flags: a dominant strategy (in the matrix it beats every other one, every
  interval above the fair share) and cycles (A beats B, B beats C, C beats A).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

import numpy as np
import polars as pl

from analyses.study.model import StudyError, exploit_cell
from analyses.stats.intervals import wilson
from analyses.study.folder import finished_configs, has_games, read_manifest, scan_games, seat_totals
from analyses.tools.gameplay import as_game, check_counts
from simcore.games import Game, GameError

# (players, variant, seating (strategy per seat), seed, first game, games) -> the games' result: a dict of
# arrays with "win" (games, seats) and, when the game reports them, "score" (games, seats).
PlayFn = Callable[[int, str, tuple[str, ...], int, int, int], Mapping]


def game_play(game: Game | str | None = None) -> PlayFn:
    """The :data:`PlayFn` of ``game`` (default: the default game): its fast engine through ``play_games``."""
    the_game = as_game(game)

    def play(players: int, variant: str, seating: tuple[str, ...], seed: int, first: int, games: int) -> dict:
        setup = the_game.setup(players, variant)
        result = dict(the_game.play_games(setup, list(seating), seed, first, games, engine="fast"))
        result["win"] = the_game.seat_wins(result, setup)
        return result

    return play


def fast_play(players: int, variant: str, seating: tuple[str, ...], seed: int, first: int, games: int):
    """One seating's games of the default game on its fast engine."""
    return game_play(None)(players, variant, seating, seed, first, games)


def schedule(strategies: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every seating order of every group of distinct strategies (all groups if fewer than seats)."""
    names = list(dict.fromkeys(strategies))
    if len(names) < 2:
        raise GameError("a tournament needs at least two different strategies")
    if len(names) >= players:
        groups = list(combinations(names, players))
    else:  # fewer strategies than seats: repeat them so every seat is filled
        groups = [tuple((names * players)[:players])]
    seatings: list[tuple[str, ...]] = []
    for group in groups:
        seatings.extend(dict.fromkeys(permutations(group)))
    return seatings


@dataclass
class TournamentResult:
    players: int
    variant: str
    games_per_seating: int
    games: pl.DataFrame  # one row per game and seat: seating, game, seat, strategy, score, win
    standings: pl.DataFrame
    payoff: pl.DataFrame
    dominant: str | None
    cycles: list[tuple[str, str, str]]


def run_tournament(
    strategies: Sequence[str],
    players: int = 3,
    variant: str = "base",
    games_per_seating: int = 1000,
    seed: int = 1,
    play: PlayFn | None = None,
    progress: Callable[[int], None] | None = None,
    rating_games: int = 20_000,
    *,
    game: Game | str | None = None,
) -> TournamentResult:
    """Play the round robin and analyse it (see the module docstring).

    Parameters
    ----------
    strategies : sequence of str
        Two or more different strategy specs of the game (each checked by ``game.check_strategy``
        and kept in its canonical form).
    players : int
        Seats at every table (one of the game's seat counts, 2 or more).
    variant : str
        The game's variant text (kept in its canonical form).
    games_per_seating : int
        Games 0 .. n-1 of ``seed``, played by every seating (duplicate deals).
    seed : int
        Game g of every seating plays from the streams of (seed, g).
    play : PlayFn, optional
        Plays one seating's games instead of the game's fast engine (a stand-in game for tests);
        strategies and variant are then taken as given.
    progress : callable(n_games), optional
        Called with the games of every seating just played.
    rating_games : int
        Games (sampled with ``seed``) the openskill ratings are fitted on.
    game : Game or str, optional
        The game (default: the default game).

    Returns
    -------
    TournamentResult
        ``games`` (one row per game and seat: seating, game, seat, strategy, score, win; score is
        null for a game without scores), ``standings`` (strategy, games, win_rate, win_low, win_high,
        lift, mean_score, rating), ``payoff`` (strategy, opponent, games, win_rate, win_low, win_high),
        ``dominant`` and ``cycles``.
    """
    if play is None:
        the_game = as_game(game)
        check_counts(the_game, [players], 2, "tournament")
        setup = the_game.setup(players, variant)
        variant = the_game.variant_name(setup)
        strategies = [the_game.check_strategy(s, setup) for s in strategies]
        play = game_play(the_game)
    elif players < 2:
        raise GameError(f"a tournament needs 2 or more players, got {players}")
    frames = []
    for i, seating in enumerate(schedule(strategies, players)):
        win, score = _seating_arrays(play(players, variant, seating, seed, 0, games_per_seating))
        n = win.shape[0]
        frames.append(pl.DataFrame({
            "seating": np.full(n * players, i, np.int32),
            "game": np.repeat(np.arange(n, dtype=np.int64), players),
            "seat": np.tile(np.arange(players, dtype=np.int8), n),
            "strategy": [seating[s] for _ in range(n) for s in range(players)],
            "score": pl.Series("score", score.reshape(-1).astype(np.int32) if score is not None else [None] * (n * players),
                               dtype=pl.Int32),
            "win": win.reshape(-1),
        }))
        if progress:
            progress(n)
    games = pl.concat(frames)
    standings = standings_table(games, players, rating_games, seed)
    payoff = payoff_table(games, players)
    return TournamentResult(
        players, variant, games_per_seating, games, standings, payoff,
        dominant_strategy(payoff, players), find_cycles(payoff),
    )


def _seating_arrays(result: Mapping) -> tuple[np.ndarray, np.ndarray | None]:
    """(win credit, score or None) of one seating's games: the ``win`` (games, seats) and ``score`` (None for a game
    without scores) of the play function's result (:data:`PlayFn`, the arrays of ``play_games``)."""
    score = result.get("score")
    return np.asarray(result["win"], dtype=np.float64), (None if score is None else np.asarray(score))


def standings_table(games: pl.DataFrame, players: int, rating_games: int = 20_000, seed: int = 1) -> pl.DataFrame:
    fair = 1.0 / players
    rows = []
    ratings = openskill_ratings(games, players, rating_games, seed)
    for name, part in games.group_by("strategy", maintain_order=True):
        name = name[0]
        n, wins = part.height, float(part["win"].sum())
        est = wilson(wins, n)
        rows.append({
            "strategy": name, "games": n, "win_rate": est.value, "win_low": est.low, "win_high": est.high,
            "lift": est.value - fair, "mean_score": _mean(part["score"]), "rating": ratings.get(name, float("nan")),
        })
    return pl.DataFrame(rows).sort("win_rate", descending=True)


def _mean(column: pl.Series) -> float:
    """The column's mean; NaN when it holds no values (a game without scores)."""
    m = column.mean()
    return float("nan") if m is None else float(m)


def payoff_table(games: pl.DataFrame, players: int) -> pl.DataFrame:
    """Row strategy's mean win credit in the games where it met the column strategy."""
    present = games.group_by(["seating", "game"]).agg(pl.col("strategy").alias("table"))
    joined = games.join(present, on=["seating", "game"])
    rows = []
    names = sorted(games["strategy"].unique().to_list())
    for a in names:
        mine = joined.filter(pl.col("strategy") == a)
        for b in names:
            if a == b:
                continue
            met = mine.filter(pl.col("table").list.contains(b))
            if met.height == 0:
                continue
            est = wilson(float(met["win"].sum()), met.height)
            rows.append({"strategy": a, "opponent": b, "games": met.height, "win_rate": est.value,
                         "win_low": est.low, "win_high": est.high})
    return pl.DataFrame(rows)


def beats(payoff: pl.DataFrame, a: str, b: str) -> bool:
    """A beats B when, in their shared games, A's interval lies above B's mean and B's below A's."""
    ab = payoff.filter((pl.col("strategy") == a) & (pl.col("opponent") == b))
    ba = payoff.filter((pl.col("strategy") == b) & (pl.col("opponent") == a))
    if ab.height == 0 or ba.height == 0:
        return False
    return ab["win_low"][0] > ba["win_high"][0]


def dominant_strategy(payoff: pl.DataFrame, players: int) -> str | None:
    if payoff.height == 0:
        return None
    names = sorted(set(payoff["strategy"].to_list()))
    for a in names:
        if all(beats(payoff, a, b) for b in names if b != a):
            return a
    return None


def find_cycles(payoff: pl.DataFrame) -> list[tuple[str, str, str]]:
    if payoff.height == 0:
        return []
    names = sorted(set(payoff["strategy"].to_list()))
    out = []
    for a, b, c in combinations(names, 3):
        for x, y, z in ((a, b, c), (a, c, b)):
            if beats(payoff, x, y) and beats(payoff, y, z) and beats(payoff, z, x):
                out.append((x, y, z))
    return out


def openskill_ratings(games: pl.DataFrame, players: int, max_games: int, seed: int) -> dict[str, float]:
    """Plackett-Luce ratings (openskill) from up to ``max_games`` games, ranked by score."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, object] = {}
    tables = games.group_by(["seating", "game"], maintain_order=True).agg(pl.col("strategy"), pl.col("score"), pl.col("win"))
    if tables.height > max_games:
        tables = tables.sample(max_games, seed=seed)
    for names, scores, wins in tables.select(["strategy", "score", "win"]).iter_rows():
        # Rank by win credit first (winners share rank 1, R8.3), then by score (a game without scores: 0 for all).
        scores = [0 if x is None else x for x in scores]
        order = sorted(range(len(names)), key=lambda i: (-wins[i], -scores[i]))
        ranks = [0] * len(names)
        for pos, i in enumerate(order):
            prev = order[pos - 1] if pos else None
            same = prev is not None and wins[prev] == wins[i] and scores[prev] == scores[i]
            ranks[i] = ranks[prev] if same else pos + 1
        teams = [[ratings.setdefault(n, model.rating(name=n))] for n in names]
        new = model.rate(teams, ranks=ranks)
        for n, team in zip(names, new):
            ratings[n] = team[0]
    return {n: float(r.ordinal()) for n, r in ratings.items()}


# ============================================================================ from a study folder


def tournament_groups(folder) -> list[tuple[int, str]]:
    """(players, variant) of every tournament a study folder holds: two or more seatings, one mixing strategies."""
    groups: dict[tuple[int, str], list] = {}
    for c in finished_configs(folder):
        if exploit_cell(c.strategies) is not None:  # one seat searching over the others' bot: a bot measure
            continue
        groups.setdefault((c.players, c.variant), []).append(c)
    return [key for key, cs in groups.items()
            if key[0] >= 2 and len(cs) >= 2 and any(len(set(c.strategies)) > 1 for c in cs)]


def tournament_from_study(folder, players: int | None = None, variant: str | None = None,
                          rating_games: int = 20_000, seed: int | None = None) -> TournamentResult:
    """The tournament of a study folder (``dreamscape tournament --out``), analysed as :func:`run_tournament` does.

    Standings and the payoff matrix come from the per-chunk aggregates (a
    seating is one configuration; every strategy's win credit in the
    seatings where it met another), so they also work for ``--aggregate-only``
    studies; the openskill ratings need per-game rows (NaN without them).
    ``players``/``variant`` choose among several tournaments (default: the first).
    """
    groups = tournament_groups(folder)
    chosen = [g for g in groups if (players is None or g[0] == players) and (variant is None or g[1] == variant)]
    if not chosen:
        raise StudyError(f"{folder}: no tournament (two or more seatings of the same players and variant, mixing strategies)")
    players, variant = chosen[0]
    # the seatings that mix strategies: a one-bot balance run of the same players and variant is no part of it
    configs = [c for c in finished_configs(folder)
               if c.players == players and c.variant == variant and len(set(c.strategies)) > 1
               and exploit_cell(c.strategies) is None]
    ids = [c.id for c in configs]
    totals = seat_totals(folder).filter(pl.col("config").is_in(ids))
    fair = 1.0 / players
    m = read_manifest(folder)
    seed = m.seed if seed is None else seed
    scored = "sum_score" in totals.columns  # a game that reports no scores has none to average or rank by
    if has_games(folder):
        index = {cid: i for i, cid in enumerate(ids)}
        rows_scan = scan_games(folder, ids)
        if not scored:
            rows_scan = rows_scan.with_columns(pl.lit(None, dtype=pl.Int32).alias("score"))
        games = (rows_scan
                 .select(["config", "game", "seat", "strategy", "score", "win"]).collect()
                 .with_columns(pl.col("config").replace_strict(index, return_dtype=pl.Int32).alias("seating"),
                               pl.col("score").cast(pl.Int32))
                 .select(["seating", "game", "seat", "strategy", "score", "win"]).sort(["seating", "game", "seat"]))
        ratings = openskill_ratings(games, players, rating_games, seed)
    else:
        games = pl.DataFrame(schema={"seating": pl.Int32, "game": pl.Int64, "seat": pl.Int8, "strategy": pl.Utf8,
                                     "score": pl.Int32, "win": pl.Float64})
        ratings = {}
    per = totals.group_by("strategy", maintain_order=True).agg(
        pl.col("n").sum().alias("games"), pl.col("sum_win").sum().alias("wins"),
        (pl.col("sum_score").sum() if scored else pl.lit(float("nan"))).alias("score"))
    rows = []
    for r in per.iter_rows(named=True):
        est = wilson(r["wins"], r["games"])
        rows.append({"strategy": r["strategy"], "games": r["games"], "win_rate": est.value, "win_low": est.low,
                     "win_high": est.high, "lift": est.value - fair, "mean_score": r["score"] / r["games"],
                     "rating": ratings.get(r["strategy"], float("nan"))})
    standings = pl.DataFrame(rows).sort("win_rate", descending=True)
    met: dict[tuple[str, str], list[float]] = {}
    for (cid,), part in totals.group_by(["config"], maintain_order=True):
        seated = set(part["strategy"].to_list())
        for a in seated:
            mine = part.filter(pl.col("strategy") == a)
            for b in seated - {a}:
                acc = met.setdefault((a, b), [0, 0.0])
                acc[0] += int(mine["n"].sum())
                acc[1] += float(mine["sum_win"].sum())
    payoff_rows = []
    for (a, b) in sorted(met):
        n, w = met[(a, b)]
        est = wilson(w, n)
        payoff_rows.append({"strategy": a, "opponent": b, "games": n, "win_rate": est.value,
                            "win_low": est.low, "win_high": est.high})
    payoff = pl.DataFrame(payoff_rows)
    per_seating = min(m.done_games(cid) for cid in ids)
    return TournamentResult(players, variant, per_seating, games, standings, payoff,
                            dominant_strategy(payoff, players), find_cycles(payoff))
