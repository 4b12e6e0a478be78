"""The game's two random streams: SplitMix64, keyed by (seed, game index).

Game ``g`` of a run seeded ``s`` draws from two independent streams:

* the deal stream ``GameRng(s, g)`` (state :func:`game_stream_state`) shuffles
  the deck (R2) and nothing else;
* the decision stream ``GameRng.decisions(s, g)`` (state
  :func:`decision_stream_state`) breaks every tie and seeds the rollouts'
  playouts.

Why two: with one stream, the decisions started where the shuffle of the deck
stopped, so the first tie-break numbers depended on the deck's size and the
decision draws were tied to the deal. Now game ``g`` of every variant of a
deck starts from the same deal, and its decision stream starts from the same
state whatever the deck. (Variants that ask extra decisions, like Sleep
Token, still use up draws of that stream; README "Paired comparisons"
measures what the split did to paired intervals.)

Both engines draw from this same small generator so that game ``g`` has the
same shuffle and the same tie-breaks in the readable reference engine and in
the numba engine, whatever the thread count or chunking. The numba twin lives
in :mod:`simcore.fast_rng` and must stay bit-identical (tests/test_fast_rng.py
checks it).
"""
from __future__ import annotations

MASK64 = (1 << 64) - 1
# What a run may ask for. A seed is one 64-bit stream key: larger or negative numbers would wrap onto
# another seed (2**64 would play seed 0's games), so they are refused instead. Game g is a stream key
# too; 10**12 games (about four months at 100,000 games/s) keeps every game index and every exact
# per-study sum (analyses.study.folder.units) far inside 64-bit integers.
MAX_SEED = MASK64
MAX_GAMES = 10**12
GOLDEN = 0x9E3779B97F4A7C15
# Keys the decision stream off the deal stream's start: an arbitrary fixed
# 64-bit constant (any nonzero value would do; changing it changes every game).
DECISION_SALT = 0x6A09E667F3BCC909


def mix64(z: int) -> int:
    """SplitMix64's output function (a strong 64-bit bit mixer)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def game_stream_state(seed: int, game: int) -> int:
    """Starting state of game ``game``'s stream in a run seeded ``seed``."""
    return mix64((mix64(seed & MASK64) + (game & MASK64) * GOLDEN) & MASK64)


def decision_stream_state(seed: int, game: int) -> int:
    """Starting state of game ``game``'s decision stream in a run seeded ``seed``.

    A mix of the deal stream's start and :data:`DECISION_SALT`: a function of
    (seed, game) alone, so it is the same for every variant and deck.
    """
    return mix64(game_stream_state(seed, game) ^ DECISION_SALT)


class GameRng:
    """A seeded random stream owned by the caller of an engine.

    ``GameRng(seed, game)`` is the game's deal stream (give it to
    :meth:`simcore.games.dreamscape.reference.Game.new`); :meth:`decisions` makes the game's
    decision stream (give it to the bots).

    Parameters
    ----------
    seed : int
        The run's seed.
    game : int, optional
        Index of the game within the run; each game gets independent streams.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, game: int = 0) -> None:
        self.state = game_stream_state(seed, game)

    @classmethod
    def decisions(cls, seed: int = 0, game: int = 0) -> "GameRng":
        """Game ``game``'s decision stream (tie-breaks, playouts): state :func:`decision_stream_state`."""
        rng = cls.__new__(cls)
        rng.state = decision_stream_state(seed, game)
        return rng

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
