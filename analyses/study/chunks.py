"""Playing one chunk of games, whatever the game: the default chunk function of every backend.

A game that declares its own ``study`` capability (:meth:`simcore.games.Game.extension`)
plays and files its chunks itself (Project Dreamscape:
:mod:`analyses.games.dreamscape.study`); every other game plays through
:meth:`simcore.games.Game.play_games` and is summed by :mod:`analyses.study.gamechunks`.

:func:`play_chunk` is module-level and driven by a picklable
:class:`~analyses.study.model.ChunkTask` only, so a Dask worker can run it.
"""
from __future__ import annotations

from collections.abc import Callable

from analyses.study import gamechunks
from analyses.study.model import ChunkTask, GameDeal

ChunkFn = Callable[[ChunkTask], object]


def study_adapter(deal: GameDeal):
    """The module that plays and files ``deal``'s chunks: the game's own, or the generic one.

    It has ``play_chunk(task)``, ``result_games(result)`` and
    ``chunk_frames(result, config, aggregate_only) -> [(kind, frame), ...]``
    (the ``agg`` frame first).
    """
    return gamechunks.load_game(deal.game).extension("study") or gamechunks


def play_chunk(task: ChunkTask):
    """Play one chunk of ``task.game`` on its fast engine."""
    return study_adapter(task.game).play_chunk(task)
