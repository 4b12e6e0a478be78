"""Pleasant Dreams (2 players and solo, Lucid Dreams expansion), the lab's second game.

The package in the shape TAG uses per game (``Setup`` = Parameters, ``reference.Game`` = GameState,
the functions of :mod:`.reference` = ForwardModel) with a numba twin (:mod:`.fast`, arrays as pgx keeps
state). Rules as played: ``interpretations.md`` (rule ids P1..P10); card list: ``cards.toml`` (assumed,
see its header); the bots' table and spec parser: :mod:`.bots`; the solo challenge with chosen cards:
:mod:`.challenge`. Importing this package compiles nothing: the fast engine compiles on first play.
"""
from __future__ import annotations

from .bots import DEFAULT_STRATEGY, STRATEGIES, check_strategy
from .common import (ACTION_TYPES, NAME, PACKAGE_DIR, SCENARIOS_DIR, SEAT_COUNTS, TITLE, CardList, PDError, Setup, load_cards,
                     parse_setup, variant_name)
from .play import narrate, play_games

# Declared capabilities (simcore.games.CAPABILITIES): the default studies. This game's own analyses and
# report live in the upper layers, which register them (analyses.games.pleasant_dreams.WING).
STUDY_PLANS = {"main": PACKAGE_DIR / "study.toml", "quick": PACKAGE_DIR / "study_quick.toml"}

# The simulate table's columns beyond seat, strategy and win rate (simcore.games.Game.columns).
COLUMNS = {
    "seat": (("mean_wake", "wakefulness at the end", ".2f"),),
    "game": (("mean_turns", "turns", ".2f"), ("mean_deck_left", "cards left in the deck", ".2f")),
    "solo_win": "stays asleep",
}


def deck_of(setup: Setup) -> tuple[str, int]:
    """The fragment cards a setup plays (P1.2): the card file's name (``base``: the shipped cards) and count."""
    shipped = load_cards(None)
    cards = setup.cards if setup.cards is not None else shipped
    return ("base" if cards == shipped else cards.source), len(cards)


def variants(players: int) -> tuple[str, ...]:
    """The rules a comparison may set side by side: the base game, then the Lucid Dreams expansion (P9)."""
    return ("base", "lucid")


def search_strategy(bot: str, playouts: int, phases: str | None = None) -> str:
    """The search seat over ``bot``: ``search@K`` samples K deck orders per choice with threshold playouts."""
    if bot != "threshold":
        raise PDError(f"the search player plays its playouts with threshold, not {bot!r}")
    if phases is not None:
        raise PDError("the search player searches every decision (no phases)")
    return f"search@{playouts}"


def restrictions(setup: Setup) -> tuple[str, ...]:
    """What a bot may be forbidden: using one action type (``no-ACTION``)."""
    return tuple(f"no-{a}" for a in ACTION_TYPES)


def restrict_strategy(bot: str, restriction: str, setup: Setup) -> str:
    """``bot`` forbidden one action type, as a strategy spec (``threshold/no-mirror``)."""
    if restriction not in restrictions(setup):
        raise PDError(f"unknown restriction {restriction!r} (known: {', '.join(restrictions(setup))})")
    return check_strategy(f"{bot}/{restriction}", setup)


def check_scenario(path, engine: str):
    """Play one hand-worked scenario on ``engine``: None = passed, else a one-line failure."""
    from .scenario import check_scenario as run
    return run(path, engine)


def solver_gap(setup: Setup, strategy: str, seed: int, positions: int) -> dict:
    """How close ``strategy`` comes to the exact solver on small positions sampled from play."""
    from .solver import solver_gap as run
    return run(setup, strategy, seed, positions)


def _game():
    import sys

    from simcore.games import game_of_package

    return game_of_package(sys.modules[__name__])


GAME = _game()  # what the lab sees of the game (simcore.games.Game)

__all__ = ["NAME", "TITLE", "SEAT_COUNTS", "ACTION_TYPES", "STRATEGIES", "DEFAULT_STRATEGY", "SCENARIOS_DIR",
           "PDError", "Setup", "CardList", "load_cards", "parse_setup", "variant_name", "check_strategy",
           "play_games", "check_scenario", "narrate", "solver_gap", "GAME"]
