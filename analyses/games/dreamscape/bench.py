"""Project Dreamscape's rows of ``dreamscape bench`` beyond its engines: the strategy hook and the rollout player.

Its bots may score every option through the generic strategy hook (a call of the
bot's compiled function per option) instead of the engine's built-in shortcut for
the heuristic bots; these rows time that path with greedy's own function (the same
games as ``greedy``), once at every decision kind (:data:`GREEDY_HOOK`) and once
declaring the kinds greedy tells apart (:data:`GREEDY_HOOK_KINDS`, calls skipped
elsewhere), and the flat Monte Carlo player (``rollout``) among two greedy seats.
"""
from __future__ import annotations

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers the bots timed here ('rollout', 'chain', ...)
from analyses.tools import bench
from simcore.games.dreamscape.fast.features import DELTA_KINDS
from simcore.games.dreamscape.fast.strategies import greedy_strategy, register

# Greedy through the generic strategy hook: every option scored by a call of
# greedy's cfunc instead of the engine's MODE_DELTA shortcut (same games).
GREEDY_HOOK = "greedy-hook"
register(GREEDY_HOOK, greedy_strategy, "'greedy' scored through the strategy hook (bench row)")
# The same, declaring the kinds greedy tells apart: calls skipped elsewhere.
GREEDY_HOOK_KINDS = "greedy-hook-kinds"
register(GREEDY_HOOK_KINDS, greedy_strategy, "'greedy' through the hook, declaring its kinds (bench row)",
         decides=DELTA_KINDS)
ROLLOUT_SEATS = ("rollout", "greedy", "greedy")  # the rollout row: 3 players, base game, 2 greedy opponents


def run_bench(**options) -> dict:
    """:func:`analyses.tools.bench.run_bench` of Project Dreamscape with its own rows (the hook, the rollout player)."""
    return bench.run_bench(**{"hook_strategies": (GREEDY_HOOK,), "rollout_seats": ROLLOUT_SEATS, **options})
