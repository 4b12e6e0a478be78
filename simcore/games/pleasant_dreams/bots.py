"""Pleasant Dreams' bots: the table of strategies and the strategy-spec parser (NAME, search@K, /no-ACTION).

Every game package has a ``bots`` module with its STRATEGIES, DEFAULT_STRATEGY and check_strategy; the
decision kernels themselves stay in the engines (:mod:`.reference`, :mod:`.fast`), which read a parsed
:class:`Bot`. Rule ids (P7.4 ...) refer to ``interpretations.md``.
"""
from __future__ import annotations

from dataclasses import dataclass

from simcore.games.botspec import bot_spec_text, parse_bot_spec

from .common import ACTION_TYPES, PDError, Setup

STRATEGIES = {
    "random": "uniform over the legal choices at every decision",
    "threshold": "flow size from wakefulness and the unseen cards' values; rule-of-thumb use of each action card",
    "search": "search@K: Monte Carlo over the hidden deck order, K sampled orders per choice, threshold playouts",
}
DEFAULT_STRATEGY = "threshold"
DEFAULT_SEARCH_BUDGET = 16
MAX_SEARCH_BUDGET = 10_000


BOTS = ("random", "threshold", "search")  # kind 0, 1, 2 of a Bot


@dataclass(frozen=True)
class Bot:
    """A parsed strategy spec: kind 0 random, 1 threshold, 2 search; budget K; banned action mask."""

    kind: int
    budget: int
    banned: int

    @property
    def spec(self) -> str:
        return bot_spec_text(BOTS, ACTION_TYPES, self.kind, self.budget, self.banned)


def parse_bot(spec: str) -> Bot:
    """A Bot from a spec (NAME, search@K, any number of /no-ACTION); PDError naming the problem."""
    return Bot(*parse_bot_spec(spec, BOTS, ACTION_TYPES, PDError, DEFAULT_SEARCH_BUDGET, MAX_SEARCH_BUDGET))


def check_strategy(spec: str, setup: Setup) -> str:
    """The canonical form of a strategy spec, or PDError (one line)."""
    if not isinstance(setup, Setup):
        raise PDError("check_strategy needs a Setup from parse_setup")
    return parse_bot(spec).spec


def check_run(setup: Setup, strategies, seed: int, first_game: int, n_games: int, engine: str) -> list[Bot]:
    """Check play_games' arguments; the parsed bots, one per seat."""
    from simcore.rng import MAX_GAMES, MAX_SEED
    if not isinstance(setup, Setup) or setup.cards is None:
        raise PDError("play_games needs a Setup from parse_setup")
    if isinstance(strategies, str) or not hasattr(strategies, "__len__") or len(strategies) != setup.players:
        raise PDError(f"need {setup.players} strategies (one per seat), got {strategies!r}")
    for name, v, hi in (("seed", seed, MAX_SEED), ("first_game", first_game, MAX_GAMES),
                        ("n_games", n_games, MAX_GAMES)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= hi:
            raise PDError(f"{name} must be a whole number from 0 to {hi}, not {v!r}")
    if first_game + n_games > MAX_GAMES:
        raise PDError(f"games beyond index {MAX_GAMES} are not allowed")
    if engine not in ("fast", "reference"):
        raise PDError(f"engine must be 'fast' or 'reference', not {engine!r}")
    return [parse_bot(s) for s in strategies]
