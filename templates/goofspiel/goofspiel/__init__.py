"""Goofspiel (the Game of Pure Strategy, 2-4 players): the lab's template game, the model to copy.

The package in the shape TAG uses per game (``Setup`` = Parameters, ``reference.Game`` = GameState, the
functions of :mod:`.reference` = ForwardModel) with a numba twin (:mod:`.fast`). Rules as played:
``interpretations.md`` (rule ids G1..G7); cards: ``cards.toml`` (one suit, ace to king); the bots'
table and spec parser: :mod:`.bots`. Importing this package compiles nothing: the fast engine compiles
on first play.

What the lab reads is :data:`GAME` (``simcore.games.Game``): the module-level API below, collected by
``simcore.games.game_of_package``, with this game's own error class and its shared-win credit.
"""
from __future__ import annotations

import dataclasses
import sys

import numpy as np

from .bots import DEFAULT_STRATEGY, STRATEGIES, check_strategy
from .common import (NAME, PACKAGE_DIR, SCENARIOS_DIR, SEAT_COUNTS, TITLE, GoofspielError, Setup, Suit, load_cards,
                     parse_setup, variant_name)
from .play import narrate, play_games

# Declared capabilities (simcore.games.CAPABILITIES): the default studies. Its study report
# (goofspiel/report.py) is found by the lab through the package's dreamscape.reports entry point.
STUDY_PLANS = {"main": PACKAGE_DIR / "study.toml", "quick": PACKAGE_DIR / "study_quick.toml"}


def variants(players: int) -> tuple[str, ...]:
    """The rules a comparison may set side by side: tied prizes discarded (G4.2), then carried (G4.3)."""
    return ("base", "carry")


def search_strategy(bot: str, playouts: int, phases: str | None = None) -> str:
    """The search seat over ``bot``: ``search@K`` plays its playouts with match."""
    if bot != "match":
        raise GoofspielError(f"the search player plays its playouts with match, not {bot!r}")
    if phases is not None:
        raise GoofspielError("the search player searches every bid (no phases)")
    return f"search@{playouts}"


def check_scenario(path, engine: str):
    """Play one hand-worked scenario on ``engine``: None = passed, else a one-line failure."""
    from .scenario import check_scenario as run
    return run(path, engine)


def seat_wins(result: dict, setup: Setup) -> np.ndarray:
    """Win credit (games, seats): 1 for the winner, 1/k for each of k seats sharing the win (G5.2)."""
    from simcore.games import shared_wins
    return shared_wins(result, setup)


def _game():
    from simcore.games import GameError, game_of_package
    base = game_of_package(sys.modules[__name__])
    return dataclasses.replace(base, errors=(GoofspielError, GameError), seat_wins=seat_wins,
                               reference_strategies=lambda setup: ("random", "match", "search@2"))


GAME = _game()

__all__ = ["NAME", "TITLE", "SEAT_COUNTS", "STRATEGIES", "DEFAULT_STRATEGY", "SCENARIOS_DIR", "STUDY_PLANS",
           "GoofspielError", "Setup", "Suit", "load_cards", "parse_setup", "variant_name", "check_strategy",
           "play_games", "check_scenario", "narrate", "variants", "search_strategy", "seat_wins", "GAME"]
