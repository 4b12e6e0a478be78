"""A deterministic stand-in for the fast engine, for study and analysis tests (nothing to compile).

Every number is a function of (seed, game, seat) like the engine's streams, so
chunking, resuming and backends must not change anything. Game ``g`` shares its
"luck" across variants (common random numbers), and a variant adds a small
effect of its own, so paired differences are much tighter than unpaired ones.
Every 97th game (g % 97 == 5) is "aborted": no winner (R8.4).
"""
from __future__ import annotations

import numpy as np

from simcore.games.dreamscape.cards import N_TYPES
from simcore.games.dreamscape.fast.runner import SimResult
from simcore.games.dreamscape.study_tables import study_result

CARD_LABELS = ["FF/IS", "FF/IS", "NT/LD", "PR/RD", "CD/SD", "CD/SD"]
STRENGTH = {"random": -6, "greedy": 0, "chain": 1, "economist": 2, "spoiler": 1, "linear": 4, "rollout": 6}  # score bonus


def splitmix(*keys) -> np.ndarray:
    """SplitMix64 of a combination of integer arrays (uint64 arithmetic wraps)."""
    x = np.uint64(0x2545F4914F6CDD1D)
    with np.errstate(over="ignore"):
        for k in keys:
            x = (x * np.uint64(0x100000001B3)) ^ np.asarray(k, dtype=np.uint64)
            z = x + np.uint64(0x9E3779B97F4A7C15)
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            x = z ^ (z >> np.uint64(31))
    return x


def variant_key(variant: str) -> int:
    return sum(ord(ch) * 31**i for i, ch in enumerate(variant)) % 1_000_003


def fake_result(config, seed: int, first: int, games: int) -> SimResult:
    p = config.players
    g = np.arange(first, first + games, dtype=np.uint64)[:, None]
    s = np.arange(p, dtype=np.uint64)[None, :]
    luck = splitmix(seed, g, s)  # shared by every variant: common random numbers
    own = splitmix(seed, g, s, variant_key(config.variant) + 7)  # the variant's own noise
    score = (luck % np.uint64(30)).astype(np.int32) + (own % np.uint64(3)).astype(np.int32) - 3
    if p == 1:
        score = score * 2 + (own % np.uint64(11)).astype(np.int32)
    if "sleep-token" in config.variant and p > 1:
        score[:, p - 1] += 2  # the last seat gains: seat spread moves
    score[:, 0] += 1  # a first-seat advantage
    score += np.array([STRENGTH.get(name, 0) for name in config.strategies], dtype=np.int32)[None, :]
    aborted = (np.arange(first, first + games) % 97) == 5
    best = score.max(axis=1, keepdims=True)
    win = (score == best).astype(np.float64)
    win /= win.sum(axis=1, keepdims=True)
    win[aborted] = 0.0
    length = 20 + (splitmix(seed, g[:, 0], 99) % np.uint64(10)).astype(np.int32) + ("sleep-token" in config.variant)
    bits = splitmix(seed, g, s, 5)[:, :, None] >> np.arange(N_TYPES, dtype=np.uint64)[None, None, :] * np.uint64(2)
    performed = (bits % np.uint64(4)).astype(np.int32)
    held = ((splitmix(seed, g, s, 11)[:, :, None] >> np.arange(len(CARD_LABELS), dtype=np.uint64)) % np.uint64(2)).astype(np.int8)
    return SimResult(
        players=p, strategies=list(config.strategies), first_game=first,
        score=score, z=(luck % np.uint64(5)).astype(np.int32) + 1, turns=np.full((games, p), 12, np.int32),
        win=win, length=np.asarray(length, np.int32), aborted=aborted,
        performed=performed, chain_by_type=performed * 2, held=held, card_labels=list(CARD_LABELS),
    )


def fake_chunk(task) -> dict:
    """Chunk function of a :class:`analyses.study.backends.ChunkTask` (module-level: picklable): what the game's
    ``play_games(..., tables=True)`` returns for these games, as the study's chunk function does."""
    return study_result(fake_result(task.config, task.seed, task.first, task.games))
