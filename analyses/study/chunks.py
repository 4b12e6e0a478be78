"""Playing one chunk of games, whatever the game: the default chunk function of every backend.

A chunk is played and filed by its game's study chunks (:class:`analyses.games.StudyChunks`):
the ones its lab wing gives (:attr:`analyses.games.LabWing.study_chunks`; Project Dreamscape:
:mod:`analyses.games.dreamscape.study`), or the lab's own, which play through
:meth:`simcore.games.Game.play_games` and sum whatever arrays it returns
(:mod:`analyses.study.gamechunks`). Either way the one pipeline (:mod:`analyses.study.folder`)
writes, checks and resumes the folder.

:func:`play_chunk` is module-level and driven by a picklable
:class:`~analyses.study.model.ChunkTask` only, so a Dask worker can run it.
"""
from __future__ import annotations

from collections.abc import Callable

from analyses.study import gamechunks
from analyses.study.model import ChunkTask, GameDeal

ChunkFn = Callable[[ChunkTask], object]


def study_adapter(deal: GameDeal):
    """The study chunks (:class:`analyses.games.StudyChunks`) that play and file ``deal``'s chunks."""
    from analyses.games import wing_of

    own = wing_of(deal.game).study_chunks
    return own() if own is not None else gamechunks


def play_chunk(task: ChunkTask):
    """Play one chunk of ``task.game`` on its fast engine."""
    return study_adapter(task.game).play_chunk(task)
