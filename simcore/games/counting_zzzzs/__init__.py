"""Counting Zzzzs (2-4 players, a Blood and Cardstock game), the lab's third game, played from a card file.

The package in the shape TAG uses per game (``Setup`` = Parameters, ``reference.Game`` = GameState, the
functions of :mod:`.reference` = ForwardModel) with a numba twin (:mod:`.fast`). Rules as played:
``interpretations.md`` (Z1..Z18); cards: a designer's TOML file (:func:`load_cards`; the shipped
``cards.toml`` is invented for illustration). Importing this package compiles nothing: the fast engine
compiles on first play.
"""
from __future__ import annotations

import dataclasses
import sys

import numpy as np

from .cards import load_cards
from .common import (ACTION_TYPES, DEFAULT_STRATEGY, END_FORTY, NAME, SCENARIOS_DIR, SEAT_COUNTS, STRATEGIES, TITLE, CardSet,
                     CZError, Setup, check_strategy)
from .config import parse_setup, variant_name
from .play import narrate, play_games

PACKAGE_DIR = SCENARIOS_DIR.parent
STUDY_PLAN = PACKAGE_DIR / "study.toml"             # dreamscape study --game counting-zzzzs
QUICK_STUDY_PLAN = PACKAGE_DIR / "study_quick.toml"  # ... --quick

# Declared capabilities (simcore.games.CAPABILITIES): the default studies. Its report (a PDF and PNG charts
# from a study folder) is registered from above, like every game's (the entry-point group dreamscape.reports).
STUDY_PLANS = {"main": STUDY_PLAN, "quick": QUICK_STUDY_PLAN}

# The simulate table's columns beyond seat, strategy and win rate (simcore.games.Game.columns). A seat's
# win rate splits a shared win (Z15.2, Z16.2); "won or shared" counts every game the seat is among the winners.
# A label's {goal} is the Setup's field, the points played to (knob:goal, Z19), filled in by the simulate table.
COLUMNS = {
    "seat": (("mean_score", "score", ".2f"), ("mean_dreams", "dreams", ".2f"),
             ("mean_dream_elements", "dream elements", ".2f"), ("mean_scored_dreams", "scored dreams", ".2f"),
             ("mean_winners", "won or shared", "pct")),
    "game": (("mean_turns", "turns", ".2f"), ("share_end_forty", "ends at {goal} points", "pct", ("end", END_FORTY)),
             ("mean_deck_left", "cards left in the deck", ".2f")),
}


def deck_of(setup: Setup) -> tuple[str, int]:
    """The cards a setup plays: the card file's name (``base``: the shipped cards) and its copies in all."""
    shipped = load_cards(None)
    cards = setup.cards if setup.cards is not None else shipped
    return ("base" if cards == shipped else cards.source), cards.total


def variants(players: int) -> tuple[str, ...]:
    """The rules a comparison sets side by side: the rulebook's Wake Up removal (Z2), then another removal
    (none where the rulebook removes some; two where it removes none)."""
    from .config import RULEBOOK_REMOVED

    return ("base", "remove=0" if RULEBOOK_REMOVED[players] else "remove=2")


def search_strategy(bot: str, playouts: int, phases: str | None = None) -> str:
    """The search seat over ``bot``: ``search@K`` plays its playouts with greedy (Z-bots)."""
    if bot != "greedy":
        raise CZError(f"the search player plays its playouts with greedy, not {bot!r}")
    if phases is not None:
        raise CZError("the search player searches every decision (no phases)")
    return f"search@{playouts}"


def restrictions(setup: Setup) -> tuple[str, ...]:
    """What a bot may be forbidden: playing one kind of action card (``no-ACTION``)."""
    return tuple(f"no-{a}" for a in ACTION_TYPES)


def restrict_strategy(bot: str, restriction: str, setup: Setup) -> str:
    """``bot`` forbidden one action kind, as a strategy spec (``greedy/no-bender``)."""
    if restriction not in restrictions(setup):
        raise CZError(f"unknown restriction {restriction!r} (known: {', '.join(restrictions(setup))})")
    return check_strategy(f"{bot}/{restriction}", setup)


def check_scenario(path, engine: str):
    """Play one hand-worked scenario on ``engine``: None = passed, else a one-line failure."""
    from .scenario import check_scenario as run
    return run(path, engine)


def seat_wins(result: dict, setup: Setup) -> np.ndarray:
    """Win credit (games, seats): 1 for the winner, 1/k for each of k seats sharing the win (Z15.2, Z16.2)."""
    from simcore.games import shared_wins
    return shared_wins(result, setup)


def _game():
    from simcore.games import GameError, game_of_package
    base = game_of_package(sys.modules[__name__])
    return dataclasses.replace(base, errors=(CZError, GameError), seat_wins=seat_wins,
                               reference_strategies=lambda setup: ("random", "greedy", "search@2"))


GAME = _game()

__all__ = ["NAME", "TITLE", "SEAT_COUNTS", "ACTION_TYPES", "STRATEGIES", "DEFAULT_STRATEGY", "SCENARIOS_DIR",
           "CZError", "Setup", "CardSet", "load_cards", "parse_setup", "variant_name", "check_strategy",
           "play_games", "check_scenario", "narrate", "seat_wins", "GAME", "STUDY_PLAN", "QUICK_STUDY_PLAN"]
