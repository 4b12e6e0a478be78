"""play_games and narrate: the package's drivers over both engines (contract, wave 5)."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from . import reference
from .bots import check_run
from .common import ACTION_TYPES, PDError, Setup, empty_results


def play_games(setup: Setup, strategies: Sequence[str], seed: int, first_game: int, n_games: int,
               *, engine: str = "fast") -> dict[str, np.ndarray]:
    """Play games first_game .. first_game + n_games - 1; see the contract for the keys.

    Game g plays from the streams of simcore.rng for (seed, g) on either engine, with identical results.
    """
    bots = check_run(setup, strategies, seed, first_game, n_games, engine)
    if engine == "fast":
        from . import fast
        return fast.play_games_fast(setup, bots, seed, first_game, n_games)
    out = empty_results(setup, first_game, n_games)
    for i in range(n_games):
        g = reference.play_one(setup, bots, seed, first_game + i)
        out["winner"][i] = g.winner
        out["turns"][i] = g.turns
        out["wake"][i] = g.wake
        out["deck_left"][i] = len(g.deck)
        out["dealt"][i] = g.dealt
        out["used"][i] = g.used
    return out


def narrate(setup: Setup, strategies: Sequence[str], seed: int, game: int) -> list[str]:
    """Game ``game`` told turn by turn (seats from 1): the same game play_games plays."""
    bots = check_run(setup, strategies, seed, game, 1, "reference")
    log: list[str] = []
    cards = setup.cards
    g0 = reference.new_game(setup, seed, game)
    log.append(f"{setup.players} player{'s' if setup.players > 1 else ''}, start at wakefulness {setup.start}; "
               f"deck of {len(g0.deck)} dream fragments, top shows {cards.label(g0.deck[0].card, 0)}")
    for s in range(setup.players):
        held = [f"{ACTION_TYPES[t]}" + (f" x{k}" if k > 1 else "") for t, k in enumerate(g0.held[s]) if k]
        log.append(f"seat {s + 1} ({bots[s].spec}) holds: {', '.join(held) or 'no action cards'}")
    g = reference.play_one(setup, bots, seed, game, log)
    if setup.players == 1:
        log.append("the player stays asleep and wins" if g.winner == 0 else "the player wakes up and loses")
    else:
        log.append(f"seat {g.winner + 1} wins after {g.turns} turns")
    return log


def check_engine(engine: str) -> None:
    if engine not in ("fast", "reference"):
        raise PDError(f"engine must be 'fast' or 'reference', not {engine!r}")
