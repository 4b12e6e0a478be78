"""Strategy tournaments: round robin with seats rotated on duplicate deals.

Every group of ``players`` distinct strategies plays every seating order of
the group on the *same* deals (games 0..n-1 of one seed), so luck of the deal
and of the seat cancels out as far as it can. From the games come:

* each strategy's overall win rate (shared wins split 1/k, R8.3) with a 95%
  Wilson interval, and its lift over the fair share 1/players;
* a payoff matrix: row A, column B = A's mean win credit in the games where it
  met B, with the interval;
* ratings from openskill's Plackett-Luce model, each game ranked by score;
* flags: a dominant strategy (in the matrix it beats every other one, every
  interval above the fair share) and cycles (A beats B, B beats C, C beats A).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

import numpy as np
import polars as pl

from analyses.stats import wilson

# (players, variant, seating (strategy per seat), seed, first game, games) -> SimResult
PlayFn = Callable[[int, str, tuple[str, ...], int, int, int], object]


def fast_play(players: int, variant: str, seating: tuple[str, ...], seed: int, first: int, games: int):
    from simcore.fast import SimConfig, iter_chunks
    from simcore.variants import parse_variant

    v = parse_variant(variant)
    config = SimConfig(players=players, options=v.options, deck=v.deck())
    (result,) = list(iter_chunks(config, games, seed, list(seating), chunk_size=max(games, 1), first_game=first))
    return result


def schedule(strategies: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every seating order of every group of distinct strategies (all groups if fewer than seats)."""
    names = list(dict.fromkeys(strategies))
    if len(names) < 2:
        raise ValueError("a tournament needs at least two different strategies")
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
) -> TournamentResult:
    """Play the round robin and analyse it (see the module docstring)."""
    play = play or fast_play
    frames = []
    for i, seating in enumerate(schedule(strategies, players)):
        result = play(players, variant, seating, seed, 0, games_per_seating)
        n = result.n_games
        frames.append(pl.DataFrame({
            "seating": np.full(n * players, i, np.int32),
            "game": np.repeat(np.arange(n, dtype=np.int64), players),
            "seat": np.tile(np.arange(players, dtype=np.int8), n),
            "strategy": [seating[s] for _ in range(n) for s in range(players)],
            "score": result.score.reshape(-1).astype(np.int32),
            "win": result.win.reshape(-1),
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
            "lift": est.value - fair, "mean_score": float(part["score"].mean()), "rating": ratings.get(name, float("nan")),
        })
    return pl.DataFrame(rows).sort("win_rate", descending=True)


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
        # Rank by win credit first (winners share rank 1, R8.3), then by score.
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
