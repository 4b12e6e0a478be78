"""Project Dreamscape's bots for the game plug-in interface.

:mod:`simcore.games.dreamscape` sits below the ``strategies`` layer, so it
cannot import the bots; importing this module hands them to it (the loader of
``--strategy`` values, the table of built-in bots and the reference engine's
bots). :func:`ready_game` is the registry's lookup with that done.
"""
from __future__ import annotations

from simcore.games import Game, get_game
from simcore.games import dreamscape
from strategies.api import load_strategy, strategy_table
from strategies.reference_bots import REFERENCE_BOTS

dreamscape.use_strategies(load_strategy, strategy_table, REFERENCE_BOTS)


def ready_game(name: str) -> Game:
    """The game called ``name``, its bots loaded (GameError naming the games for an unknown name)."""
    return get_game(name)
