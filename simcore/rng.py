"""The game's random stream: SplitMix64, keyed by (seed, game index).

Both engines draw from this same small generator so that game ``g`` of a run
with seed ``s`` has the same shuffle and the same tie-breaks in the readable
reference engine and in the numba engine, whatever the thread count or chunking.
The numba twin lives in :mod:`simcore.fast.rng` and must stay bit-identical
(tests/test_rng.py checks it).
"""
from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    """SplitMix64's output function (a strong 64-bit bit mixer)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def game_stream_state(seed: int, game: int) -> int:
    """Starting state of game ``game``'s stream in a run seeded ``seed``."""
    return mix64((mix64(seed & MASK64) + (game & MASK64) * GOLDEN) & MASK64)


class GameRng:
    """A seeded random stream owned by the caller of an engine.

    Parameters
    ----------
    seed : int
        The run's seed.
    game : int, optional
        Index of the game within the run; each game gets an independent stream.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, game: int = 0) -> None:
        self.state = game_stream_state(seed, game)

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A whole number in ``[0, n)`` (multiply-shift on the high 32 bits)."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        return ((self.next_u64() >> 32) * n) >> 32

    def uniform(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def shuffle(self, items: list) -> None:
        """Fisher–Yates, in place, from the last item down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
