"""Playing one chunk of games, whatever the game: the default chunk function of every backend.

Every game's chunk is played through :meth:`simcore.games.Game.play_games` and filed by
:mod:`analyses.study.gamechunks` (the lab's sums of its arrays, and the tables the game declares,
:attr:`simcore.games.Game.study_tables`); the one pipeline (:mod:`analyses.study.folder`) writes,
checks and resumes the folder.

:func:`play_chunk` is module-level and driven by a picklable
:class:`~analyses.study.model.ChunkTask` only, so a Dask worker can run it.
"""
from __future__ import annotations

from collections.abc import Callable

from analyses.study.gamechunks import play_chunk
from analyses.study.model import ChunkTask

ChunkFn = Callable[[ChunkTask], object]

__all__ = ["ChunkFn", "play_chunk"]
