"""play_games and narrate: the package's drivers over both engines (the plug-in contract)."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .bots import play_one
from .common import CAUSES, Setup, check_run, empty_results


def play_games(setup: Setup, strategies: Sequence[str], seed: int, first_game: int, n_games: int,
               *, engine: str = "fast") -> dict[str, np.ndarray]:
    """Play games ``first_game .. first_game + n_games - 1``.

    Game g plays from the streams of simcore.rng for (seed, g), with identical results on both engines.

    Returns
    -------
    dict of NumPy arrays indexed by game first: ``game``, ``winner`` (-1 when shared), ``winners``
    (games, seats), ``turns``, ``end`` (1: 40 points, 2: morning), ``deck_left``, ``score``, ``dreams``,
    ``dream_elements``, ``scored_dreams`` (games, seats), ``woke`` (games, seats, causes: card, ten,
    stuck, morning), ``played`` and ``blocked`` (games, seats, action kinds: wake up, bender, force,
    block), ``element_scored`` (games, seats, element rows).
    """
    bots = check_run(setup, strategies, seed, first_game, n_games, engine)
    if engine == "fast":
        return fast_engine().play_games_fast(setup, bots, seed, first_game, n_games)
    out = empty_results(setup, first_game, n_games)
    for i in range(n_games):
        g = play_one(setup, bots, seed, first_game + i)
        fill_row(out, i, g)
    return out


_GUARDED: list[bool] = []


def fast_engine():
    """The fast engine's batch module, after the numba cache guard of :mod:`simcore.numba_cache`.

    numba re-validates a cached kernel only against its own file, but play_batch (fast_batch.py) and the
    kernels of fast.py freeze those of fast_state.py and the constants of common.py, bots.py and
    reference.py: an edit of any of them drops this package's cache once, so nothing runs stale code.
    """
    if not _GUARDED:
        from pathlib import Path

        from simcore.numba_cache import guard_kernels
        # every file the kernels read, followed through their imports (the random streams of
        # simcore/fast_rng.py, shared with every game, among them)
        guard_kernels(Path(__file__).resolve().parent)
        _GUARDED.append(True)
    from . import fast_batch
    return fast_batch


def fill_row(out: dict, i: int, g) -> None:
    """Row ``i`` of the results from a finished reference Game."""
    out["winner"][i] = g.winners[0] if len(g.winners) == 1 else -1
    for s in g.winners:
        out["winners"][i, s] = 1
    out["turns"][i] = g.turns
    out["end"][i] = g.end
    out["deck_left"][i] = len(g.deck)
    out["score"][i] = g.score
    for key in ("dreams", "dream_elements", "scored_dreams"):
        out[key][i] = [row[0] for row in g.stats[key]]
    for key in ("woke", "played", "blocked", "element_scored"):
        out[key][i] = g.stats[key]


def narrate(setup: Setup, strategies: Sequence[str], seed: int, game: int) -> list[str]:
    """Game ``game`` told turn by turn (seats from 1): the same game play_games plays."""
    from .config import variant_name
    bots = check_run(setup, strategies, seed, game, 1, "reference")
    log: list[str] = [f"{setup.players} players ({variant_name(setup)}: {setup.removed} Wake Ups removed), "
                      f"{setup.cards.total} cards; " + ", ".join(f"seat {s + 1}: {b.spec}" for s, b in enumerate(bots))]
    g = play_one(setup, bots, seed, game, log)
    if setup.removed:                                      # Z2.2: face up, or face down with hidden-removal
        log.insert(1, "Wake Ups removed face down (hidden-removal)" if setup.hidden_removal else
                   "Wake Ups removed face up: " + ", ".join(setup.cards.names[c] for c in range(len(setup.cards))
                                                            for _ in range(g.removed[c])))
    how = "at morning" if g.end == 2 else f"at {setup.goal} points"
    log.append(f"the game ends {how} after {g.turns} turns; totals " +
               ", ".join(f"seat {s + 1}: {g.score[s]}" for s in range(setup.players)))
    return log


__all__ = ["play_games", "narrate", "CAUSES"]
