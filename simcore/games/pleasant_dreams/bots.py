"""Pleasant Dreams' bots: the table of strategies and the strategy-spec parser (NAME, search@K, /no-ACTION).

Every game package has a ``bots`` module with its STRATEGIES, DEFAULT_STRATEGY and check_strategy; the
decision kernels themselves stay in the engines (:mod:`.reference`, :mod:`.fast`), which read a parsed
:class:`Bot`. Rule ids (P7.4 ...) refer to ``interpretations.md``.
"""
from __future__ import annotations

from dataclasses import dataclass

from simcore.games.botspec import bot_spec_text, check_play_args, parse_bot_spec

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
    check_play_args(setup, Setup, strategies, seed, first_game, n_games, engine, PDError)
    return [parse_bot(s) for s in strategies]
