"""What every tool needs from a game, through the :class:`simcore.games.Game` interface only.

The tools (compare, tournament, exploit, restrict, bench) take ``game`` as a
:class:`~simcore.games.Game` or a registry name (None: the default game) and
play through :meth:`~simcore.games.Game.play_games`: game ``g`` of a call plays
from the streams of ``(seed, g)`` whatever the chunking, so two runs with the
same seed and game indices play the same deals (common random numbers), and a
tool's numbers do not depend on its chunk size.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from analyses.games import DEFAULT_GAME, get_game
from simcore.games import Game, GameError


def as_game(game: Game | str | None) -> Game:
    """The :class:`Game` meant by ``game`` (a Game, a registry name, or None for the default game)."""
    if game is None:
        return get_game(DEFAULT_GAME)
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        return get_game(game)
    raise GameError(f"game must be a game name or a Game, got {type(game).__name__}")


def seat_win_credits(game: Game, setup, seats: Sequence[str], games: int, seed: int, chunk_size: int,
                     progress: Callable[[int], None] | None = None, first: int = 0) -> np.ndarray:
    """Win credit (games, seats) of games ``first .. first + games - 1`` of one seating, played in chunks.

    Parameters
    ----------
    game, setup
        The game and its setup (:meth:`Game.setup`).
    seats : sequence of str
        One strategy spec per seat.
    games, seed, first : int
        Games ``first ..`` of run ``seed`` (game g deals from the streams of (seed, g)).
    chunk_size : int
        Games per ``play_games`` call (memory and progress only: the numbers do not depend on it).
    progress : callable(n_games), optional
        Called with the games of every chunk just played.
    """
    if chunk_size < 1:
        raise GameError(f"chunk size must be at least 1, got {chunk_size}")
    parts = []
    done = 0
    while done < games:
        n = min(chunk_size, games - done)
        result = game.play_games(setup, list(seats), seed, first + done, n, engine="fast")
        parts.append(np.asarray(game.seat_wins(result, setup), dtype=np.float64))
        done += n
        if progress is not None:
            progress(n)
    return np.concatenate(parts) if parts else np.zeros((0, setup.players))


def check_counts(game: Game, players: Sequence[int], least: int, command: str) -> list[int]:
    """The distinct player counts asked for, each one the game supports and at least ``least``; else GameError."""
    counts = list(dict.fromkeys(int(p) for p in players))
    if not counts:
        raise GameError(f"`dreamscape {command}` needs at least one player count")
    for p in counts:
        if p < least or p not in game.seat_counts:
            usable = [str(c) for c in game.seat_counts if c >= least]
            raise GameError(f"{game.title}: `dreamscape {command}` plays with {' or '.join(usable) or 'no'} "
                            f"players, got {p}")
    return counts
