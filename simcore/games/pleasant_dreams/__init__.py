"""Pleasant Dreams (2 players and solo, Lucid Dreams expansion), the lab's second game.

The package in the shape TAG uses per game (``Setup`` = Parameters, ``reference.Game`` = GameState,
the functions of :mod:`.reference` = ForwardModel) with a numba twin (:mod:`.fast`, arrays as pgx keeps
state). Rules as played: ``interpretations.md`` (rule ids P1..P10); card list: ``cards.toml`` (assumed,
see its header); the bots' table and spec parser: :mod:`.bots`; the solo challenge with chosen cards:
:mod:`.challenge`. Importing this package compiles nothing: the fast engine compiles on first play.
"""
from __future__ import annotations

from .bots import DEFAULT_STRATEGY, STRATEGIES, check_strategy
from .common import (ACTION_TYPES, NAME, SCENARIOS_DIR, SEAT_COUNTS, TITLE, CardList, PDError, Setup, load_cards,
                     parse_setup, variant_name)
from .play import narrate, play_games


def check_scenario(path, engine: str):
    """Play one hand-worked scenario on ``engine``: None = passed, else a one-line failure."""
    from .scenario import check_scenario as run
    return run(path, engine)


def solver_gap(setup: Setup, strategy: str, seed: int, positions: int) -> dict:
    """How close ``strategy`` comes to the exact solver on small positions sampled from play."""
    from .solver import solver_gap as run
    return run(setup, strategy, seed, positions)


__all__ = ["NAME", "TITLE", "SEAT_COUNTS", "ACTION_TYPES", "STRATEGIES", "DEFAULT_STRATEGY", "SCENARIOS_DIR",
           "PDError", "Setup", "CardList", "load_cards", "parse_setup", "variant_name", "check_strategy",
           "play_games", "check_scenario", "narrate", "solver_gap"]
