"""Games/s of the local and the Dask backend on the same study (README, Dask section)."""
from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from analyses.study.backends import DaskBackend, LocalBackend
from analyses.study.chunks import play_chunk
from analyses.study.model import ChunkTask, RunConfig
from analyses.study.folder import Study, scan_games


def bench_backends(
    games: int = 1_000_000,
    workers: int = 2,
    *,
    repeats: int = 2,
    players: int = 3,
    strategy: str = "greedy",
    chunk_size: int = 100_000,
    seed: int = 2024,
    folder: str | Path | None = None,
) -> dict:
    """Games/s of the local and the dask (LocalCluster) backend on the same study.

    The study (``base``, ``players`` seats of ``strategy``, ``games`` games in
    chunks of ``chunk_size``) is played into a fresh temporary study folder
    (per-game rows written, as ``dreamscape simulate --out``) by the local
    backend, then by a LocalCluster of ``workers`` processes, ``repeats``
    times in turn, so that both meet the same machine load. The engine is
    loaded before any clock starts (here: a one-game chunk; in the workers:
    the backend's warm-up), and the cluster's start-up is reported apart.

    Returns
    -------
    dict
        ``local_games_per_s`` and ``dask_games_per_s`` (all runs together),
        ``ratio`` (dask / local), ``local_runs_s`` and ``dask_runs_s`` (seconds
        of every run), ``dask_startup_seconds`` (cluster start and warm-up),
        ``workers``, ``games``, ``identical`` (every folder holds the same
        per-game rows).
    """
    config = RunConfig("base", players, (strategy,) * players)
    play_chunk(ChunkTask(config, seed, 0, 1))  # the engine loaded here before any clock starts

    def run(backend, where: Path) -> float:
        t0 = time.perf_counter()
        Study(where, [config], games, seed=seed, chunk_size=chunk_size).run(progress=False, backend=backend)
        return time.perf_counter() - t0

    local_s, dask_s = [], []
    first, identical = None, True
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        t0 = time.perf_counter()
        with DaskBackend(workers=workers) as dask_backend:
            startup = time.perf_counter() - t0
            for r in range(repeats):
                for name, backend, times in (("local", LocalBackend(), local_s), ("dask", dask_backend, dask_s)):
                    where = Path(tmp) / f"{name}-{r}"
                    times.append(run(backend, where))
                    table = scan_games(where).collect().sort(["game", "seat"])
                    if first is None:
                        first = table
                    identical = identical and table.equals(first)
                    shutil.rmtree(where)
    return {
        "games": games,
        "workers": workers,
        "local_games_per_s": games * len(local_s) / sum(local_s),
        "dask_games_per_s": games * len(dask_s) / sum(dask_s),
        "ratio": sum(local_s) / sum(dask_s),
        "local_runs_s": [round(x, 2) for x in local_s],
        "dask_runs_s": [round(x, 2) for x in dask_s],
        "dask_startup_seconds": round(startup, 2),
        "identical": bool(identical),
    }
