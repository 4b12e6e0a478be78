"""Goofspiel's bots: the table of strategies and the strategy-spec parser (``random``, ``match``, ``search@K``).

Every game package has a ``bots`` module with its STRATEGIES, DEFAULT_STRATEGY and check_strategy; the
decision rules themselves stay in the engines (:mod:`.reference`, :mod:`.fast`), which read a parsed
:class:`Bot`. The spec text is the lab's shared card-game notation (:mod:`simcore.games.botspec`);
Goofspiel has no action cards, so no ``/no-ACTION`` restriction applies.
"""
from __future__ import annotations

from simcore.games.botspec import Bot, BotNotation

from .common import GoofspielError, Setup

STRATEGIES = {
    "random": "a card of its hand, uniformly at random",
    "match": "the held card nearest the value at stake (prize and carried prizes) -1, 0 or +1 at random; lower on a tie",
    "search": "search@K: every held card tried in K playouts over the unseen prize order, match elsewhere",
}
DEFAULT_STRATEGY = "match"
DEFAULT_SEARCH_BUDGET = 16
MAX_SEARCH_BUDGET = 10_000

BOTS = ("random", "match", "search")    # kind 0, 1, 2 of a Bot (the third is the search player)
BOT_RANDOM, BOT_MATCH, BOT_SEARCH = range(3)

NOTATION = BotNotation(BOTS, (), GoofspielError, Setup, DEFAULT_SEARCH_BUDGET, MAX_SEARCH_BUDGET)
parse_bot = NOTATION.parse            # NAME or search@K; GoofspielError naming the problem
check_strategy = NOTATION.check_strategy
check_run = NOTATION.check_run

__all__ = ["STRATEGIES", "DEFAULT_STRATEGY", "BOTS", "BOT_RANDOM", "BOT_MATCH", "BOT_SEARCH", "Bot",
           "parse_bot", "check_strategy", "check_run"]
