"""Project Dreamscape's summary of one in-memory run (``dreamscape simulate``): light enough for a quick run.

Nothing here loads polars, pandas or scipy.stats, so a 10-game run starts in
about the time of ``dreamscape --help`` (:mod:`analyses.games.dreamscape.summary` gathers a
study folder's analyses).

Seats in these dicts are indexes from 0 (``"seat": 0`` is the first player,
"seat 1" in every table a person reads), as in study folders' data files.
"""
from __future__ import annotations

from collections.abc import Sequence

from analyses.stats.intervals import wilson
from simcore.games.dreamscape.cards import N_TYPES


# A game's win credit is 1/k for k tied winners (k <= 4 seats): twelve times it is a whole number, so
# credits add up exactly, in any order and any chunk size.
CREDIT_UNITS = 12


class RunTotals:
    """Running totals of a fast-engine run, one chunk at a time, for :func:`simulation_summary`.

    Every total is an exact integer (scores, Z, turns and chain points are
    integers; win credits are counted in twelfths), so the summary is the
    same, bit for bit, whatever the chunk size, and memory stays one chunk's
    however many games are played.
    """

    def __init__(self, players: int, strategy_names: Sequence[str]):
        self.players = players
        self.names = list(strategy_names)
        self.games = 0
        self.aborted = 0
        self.length = 0
        self.credits = [0] * players
        self.score = [0] * players
        self.z = [0] * players
        self.turns = [0] * players
        self.performed = [[0] * N_TYPES for _ in range(players)]
        self.chain = [[0] * N_TYPES for _ in range(players)]

    def add(self, result) -> "RunTotals":
        """Count one chunk (a :class:`simcore.games.dreamscape.fast.SimResult`); returns self."""
        import numpy as np

        n = result.n_games
        if n == 0:
            return self
        twelfths = np.rint(result.win * CREDIT_UNITS).astype(np.int64)
        self.games += n
        self.aborted += int(result.aborted.sum())
        self.length += int(result.length.astype(np.int64).sum())
        for s in range(self.players):
            self.credits[s] += int(twelfths[:, s].sum())
            self.score[s] += int(result.score[:, s].astype(np.int64).sum())
            self.z[s] += int(result.z[:, s].astype(np.int64).sum())
            self.turns[s] += int(result.turns[:, s].astype(np.int64).sum())
            performed = result.performed[:, s, :].astype(np.int64).sum(axis=0)
            chain = result.chain_by_type[:, s, :].astype(np.int64).sum(axis=0)
            for t in range(N_TYPES):
                self.performed[s][t] += int(performed[t])
                self.chain[s][t] += int(chain[t])
        return self

    def summary(self) -> dict:
        """The ``dreamscape simulate --json`` summary of the games counted so far."""
        n = self.games

        def mean(total: int) -> float:
            return total / n if n else 0.0

        seats = []
        for s in range(self.players):
            wins = self.credits[s] / CREDIT_UNITS
            rate = wilson(wins, n)
            seats.append(
                {
                    "seat": s,
                    "strategy": self.names[s] if s < len(self.names) else self.names[-1],
                    "win_rate": wins / n if n else 0.0,
                    "win_ci": [rate.low, rate.high],
                    "mean_score": mean(self.score[s]),
                    "mean_z": mean(self.z[s]),
                    "mean_turns": mean(self.turns[s]),
                    "performed": [mean(v) for v in self.performed[s]],
                    "chain_points_by_type": [mean(v) for v in self.chain[s]],
                }
            )
        return {"games": n, "aborted": self.aborted, "mean_game_length": mean(self.length), "seats": seats}


def simulation_summary(result, strategy_names: Sequence[str] | None = None) -> dict:
    """The ``dreamscape simulate --json`` summary of an in-memory run (a :class:`simcore.games.dreamscape.fast.SimResult`).

    Win rates and their 95% Wilson intervals (:func:`analyses.stats.intervals.wilson`)
    count every game (aborted games give no credit); score, Z and turn means
    are over all games. A run played chunk by chunk sums its chunks in a
    :class:`RunTotals` instead and gets the same numbers.
    """
    names = list(strategy_names) if strategy_names is not None else list(result.strategies)
    return RunTotals(result.players, names).add(result).summary()
