"""``dreamscape certify STUDY``: a study's headline findings read again at the game's certified top rung.

The game's wing plays and reads it (its ``certify`` hook; Project Dreamscape:
:mod:`analyses.games.dreamscape.certify`); this function checks the request, readies the engine and the
backend (local cores or a Dask cluster, bit-identical) and returns plain rows, as every lab function does.
"""
from __future__ import annotations

from pathlib import Path

from analyses.games import need_hook
from analyses.lab.common import LabInputError, check_study_numbers, prepare, warm


def certify(study: str | Path, games: int | None = None, doubling: bool = False, backend: str = "local",
            scheduler: str | None = None, workers: int | None = None, progress: bool | None = None,
            interrupts: bool = False, command: str = "", playouts: int | None = None) -> dict:
    """Play the top rung's games of ``study`` (resuming its ``certify/`` subfolder) and read every finding again.

    ``games``: deals per configuration (None: the game's default; never more than the study played with the
    level it certifies). ``doubling``: also play the top rung at twice its budget. ``playouts``: the top rung's
    budget K (None: the game's default). Returns ``folder`` (the
    subfolder), ``played`` (games this run played), ``findings`` (one dict per finding and budget) and
    ``doubling_changes`` (the findings whose verdict the doubled budget changes).
    """
    from analyses.study.backends import make_backend
    from analyses.study.folder import MANIFEST, folder_game

    study = Path(study)
    if not study.is_dir() or not (study / MANIFEST).is_file():
        raise LabInputError(f"{study}: not a study folder (no {MANIFEST}); give the folder `dreamscape study` wrote")
    check_study_numbers(workers=workers)
    game = folder_game(study)
    rung = need_hook(game, "certify", "certify")
    if games is not None and games < 2:
        raise LabInputError(f"games must be at least 2 (a control variate needs two deals), got {games}")
    playouts = rung.PLAYOUTS if playouts is None else playouts
    if not 1 <= playouts <= rung.MAX_PLAYOUTS:
        raise LabInputError(f"playouts must be 1 to {rung.MAX_PLAYOUTS:,}, got {playouts}")
    rung.read_parent(study)  # a study it cannot certify is named before the engine loads
    prepare(game, progress, interrupts=interrupts)
    warm(game, backend, scheduler)
    engine = make_backend(backend, scheduler, workers)
    try:
        result = rung.run(study, games or rung.DEFAULT_GAMES, doubling, backend=engine, progress=True,
                          command=command, playouts=playouts)
    finally:
        engine.close()
    import polars as pl

    changes = rung.doubling_changes(pl.DataFrame(result["findings"], schema=rung.SCHEMA))
    return {**result, "doubling_changes": changes.to_dicts()}


__all__ = ["certify"]
