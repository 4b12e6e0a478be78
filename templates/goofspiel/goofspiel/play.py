"""play_games and narrate: the package's drivers over both engines (the lab's game contract)."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from . import reference
from .bots import check_run
from .common import Setup, empty_results, variant_name


def play_games(setup: Setup, strategies: Sequence[str], seed: int, first_game: int, n_games: int,
               *, engine: str = "fast") -> dict[str, np.ndarray]:
    """Play games first_game .. first_game + n_games - 1 (keys: :func:`.common.empty_results`).

    Game g plays from the streams of simcore.rng for (seed, g) on either engine, with identical results.
    """
    bots = check_run(setup, strategies, seed, first_game, n_games, engine)
    if engine == "fast":
        from . import fast
        return fast.play_games_fast(setup, bots, seed, first_game, n_games)
    out = empty_results(setup, first_game, n_games)
    for i in range(n_games):
        g = reference.play_one(setup, bots, seed, first_game + i)
        out["turns"][i] = g.rounds
        out["score"][i] = g.scores
        out["winners"][i] = g.winners
        out["discarded"][i] = g.discarded
    return out


def narrate(setup: Setup, strategies: Sequence[str], seed: int, game: int) -> list[str]:
    """Game ``game`` told round by round (seats from 1): the same game play_games plays."""
    bots = check_run(setup, strategies, seed, game, 1, "reference")
    values = setup.values
    log = [f"{setup.players} players, rules {variant_name(setup)}: each holds {len(values)} cards "
           f"({', '.join(map(str, values))}); the prizes are the same cards, shuffled"]
    log += [f"seat {s + 1} plays {bot.spec}" for s, bot in enumerate(bots)]
    g = reference.play_one(setup, bots, seed, game, log)
    won = [s + 1 for s in range(setup.players) if g.winners[s]]
    scores = ", ".join(f"seat {s + 1}: {score}" for s, score in enumerate(g.scores))
    if len(won) == 1:
        log.append(f"seat {won[0]} wins ({scores}; {g.discarded} discarded)")
    else:
        log.append(f"seats {', '.join(map(str, won))} share the win ({scores}; {g.discarded} discarded)")
    return log
