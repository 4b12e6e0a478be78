"""Pleasant Dreams' bots: the table of strategies and the strategy-spec parser (NAME, search@K, /no-ACTION).

Every game package has a ``bots`` module with its STRATEGIES, DEFAULT_STRATEGY and check_strategy; the
decision kernels themselves stay in the engines (:mod:`.reference`, :mod:`.fast`), which read a parsed
:class:`Bot`. Rule ids (P7.4 ...) refer to ``interpretations.md``.
"""
from __future__ import annotations

from simcore.games.botspec import Bot, BotNotation

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


NOTATION = BotNotation(BOTS, ACTION_TYPES, PDError, Setup, DEFAULT_SEARCH_BUDGET, MAX_SEARCH_BUDGET)
parse_bot = NOTATION.parse            # NAME, search@K, any number of /no-ACTION; PDError naming the problem
check_strategy = NOTATION.check_strategy
check_run = NOTATION.check_run
