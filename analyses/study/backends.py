"""Where a study's chunks are played: this process (local) or a Dask cluster.

A backend takes the study's pending chunks as :class:`ChunkTask` values and
yields each one's result as it finishes (any order); the driver
(:meth:`analyses.study.folder.Study.run`) writes the study folder, so resume,
progress and reports do not depend on the backend.

Backends
--------
``local``
    Chunks one after the other in this process, numba threads inside each chunk.
``dask``
    Chunks are Dask tasks (:class:`DaskBackend`): on an existing cluster
    (``scheduler="tcp://host:8786"``) or on a ``LocalCluster`` of ``workers``
    processes started for the study. Game ``g`` always plays stream
    ``(seed, g)`` whichever worker plays it, so a study is bit-identical on
    both backends. A worker that dies mid-study loses nothing: Dask re-runs
    its chunks on the other workers, and the driver records every chunk once.

Dask is an optional extra: ``pip install ".[dask]"``.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import os
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from analyses.games import DEFAULT_GAME, wing_of
from analyses.study.chunks import ChunkFn
from analyses.study.model import ChunkTask, StudyError

DASK_INSTALL_HINT = 'the dask backend needs Dask: pip install ".[dask]" (or pip install "dask[distributed]")'


class LocalBackend:
    """Play chunks one after the other in this process (numba threads inside each chunk)."""

    name = "local"

    def imap_unordered(self, fn: ChunkFn, tasks: Sequence[ChunkTask]) -> Iterator[tuple[int, object, float]]:
        """Yield ``(index into tasks, result, seconds)`` for every task as it finishes."""
        for i, task in enumerate(tasks):
            t0 = time.perf_counter()
            result = fn(task)
            yield i, result, time.perf_counter() - t0

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def make_backend(name: str = "local", scheduler: str | None = None, workers: int | None = None):
    """The backend for ``--backend NAME`` (``local`` or ``dask``).

    Parameters
    ----------
    name : {"local", "dask"}
        Where chunks are played.
    scheduler : str, optional
        ``dask`` only: address of a running Dask scheduler (``tcp://host:8786``)
        to join. Without it a ``LocalCluster`` is started for the study.
    workers : int, optional
        ``dask`` only: worker processes of the ``LocalCluster`` (default: one
        per core of this machine); with ``scheduler``, wait until that many
        workers have joined before playing.

    Raises
    ------
    analyses.study.model.StudyError
        Unknown backend, bad worker count, Dask not installed, or no cluster
        at ``scheduler``.
    """
    if name == "local":
        if scheduler is not None:
            raise StudyError("--scheduler needs --backend dask")
        if workers is not None:
            raise StudyError("--workers needs --backend dask (the local backend uses numba threads; set NUMBA_NUM_THREADS)")
        return LocalBackend()
    if name == "dask":
        return DaskBackend(scheduler=scheduler, workers=workers)
    raise StudyError(f"unknown backend {name!r} (use local or dask)")


# ============================================================================ Dask backend


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise StudyError(DASK_INSTALL_HINT) from None
    return distributed


def default_workers() -> int:
    """Cores this process may use (the LocalCluster's default worker count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class DaskBackend:
    """Play chunks as Dask tasks, on an existing cluster or a LocalCluster started here.

    Parameters
    ----------
    scheduler : str, optional
        Address of a running scheduler (``tcp://host:8786``). Without it a
        ``LocalCluster`` of ``workers`` processes is started (and shut down by
        :meth:`close`).
    workers : int, optional
        LocalCluster: worker processes (default: one per core). With a
        scheduler: wait for at least this many workers (default 1).
    numba_threads : int, optional
        LocalCluster: numba threads per worker process (``NUMBA_NUM_THREADS``),
        default: this machine's cores shared out between the workers (one each
        with the default one worker per core). Every worker runs one Dask
        thread: chunks in parallel across processes, the numba threads of a
        process inside its chunk.
    wait_timeout : float
        Seconds to wait for workers before giving up with a StudyError.

    Notes
    -----
    Each worker process plays one chunk at a time (a process-wide lock), so a
    worker started with several Dask threads cannot oversubscribe the cores
    with several numba thread pools; give such a worker ``NUMBA_NUM_THREADS``
    equal to its cores instead.
    """

    name = "dask"

    def __init__(
        self,
        scheduler: str | None = None,
        workers: int | None = None,
        *,
        numba_threads: int | None = None,
        wait_timeout: float = 60.0,
    ) -> None:
        distributed = _import_distributed()
        if workers is not None and workers < 1:
            raise StudyError(f"--workers must be >= 1, got {workers}")
        if numba_threads is not None and numba_threads < 1:
            raise StudyError(f"numba threads per worker must be >= 1, got {numba_threads}")
        self.cluster = None
        self.client = None
        self.worker_info: dict[str, dict] = {}  # worker address -> what its warm-up reported
        self.startup_seconds = 0.0
        t0 = time.perf_counter()
        if scheduler is None:
            n = workers or default_workers()
            threads = numba_threads or max(1, default_workers() // n)
            self.cluster = distributed.LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: never clashes with another cluster
                silence_logs=50,  # logging.CRITICAL: restarts and shutdown races are not news; chunk errors reach the driver
                env={"NUMBA_NUM_THREADS": str(threads)},
            )
            self.client = distributed.Client(self.cluster, set_as_default=False)
            self.address = self.cluster.scheduler_address
            wanted = n
        else:
            self.address = scheduler
            try:
                self.client = distributed.Client(scheduler, timeout=wait_timeout, set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise StudyError(f"cannot reach the Dask scheduler at {scheduler}: {_one_line(exc)}") from None
            wanted = workers or 1
        try:
            self.client.wait_for_workers(wanted, timeout=wait_timeout)
        except (TimeoutError, OSError):
            have = len(self.client.nthreads())
            self.close()
            raise StudyError(
                f"the Dask scheduler at {self.address} has {have} worker(s) after {wait_timeout:.0f} s, "
                f"{wanted} wanted (start them with: dask worker {self.address})"
            ) from None
        try:
            self.warm_up()
        except BaseException:
            self.close()
            raise
        self.startup_seconds = time.perf_counter() - t0

    # --- worker preparation -------------------------------------------------------------
    def warm_up(self, recipes: dict | None = None) -> dict[str, dict]:
        """Load (or compile) the engine in every worker that has not done it yet.

        One small task per worker, pinned to it, in parallel. Returns (and
        keeps in :attr:`worker_info`) what each worker reported: pid, numba
        threads, engine cache hits and misses, seconds. Raises StudyError when
        a worker runs other game code or another numba than this process
        (its results would not be bit-identical).
        """
        addresses = [a for a in self.client.nthreads() if a not in self.worker_info]
        if not addresses:
            return self.worker_info
        # Pinned to each worker, but free to move if that worker goes away meanwhile.
        mine = code_identity()
        futures = [
            self.client.submit(
                _warm_worker, recipes or {}, mine, key=f"dreamscape-warmup-{uuid.uuid4().hex}",
                workers=[a], allow_other_workers=True, pure=False,
            )
            for a in addresses
        ]
        try:
            reports = self.client.gather(futures)
        finally:
            self.client.cancel(futures)
        for info in reports:
            address = info["address"]
            theirs = (info["code_digest"], info["numba"])
            if theirs != mine:
                raise StudyError(
                    f"Dask worker {address} runs other game code or numba than this machine "
                    f"(code {theirs[0][:12]}, numba {theirs[1]}; here {mine[0][:12]}, numba {mine[1]}): "
                    "install the same dreamscape-lab version on every worker"
                )
            self.worker_info[address] = info
        return self.worker_info

    # --- playing ------------------------------------------------------------------------
    def imap_unordered(self, fn: ChunkFn, tasks: Sequence[ChunkTask]) -> Iterator[tuple[int, object, float]]:
        """Yield ``(index into tasks, result, seconds)`` for every task as it finishes.

        ``fn`` must be picklable (a module-level function); it runs in the
        workers. The strategies of the tasks' configurations are shipped with
        the tasks as registered here, so strategy files need not exist on the
        workers. At most two chunks per worker thread are in flight, which
        bounds the workers' memory whatever the study's size; results travel
        with their integer arrays narrowed (:func:`pack_result`) and arrive
        equal in dtype and value; ``seconds`` is the time the chunk took on
        its worker. Every index is yielded exactly once, also when workers die
        (Dask re-runs their chunks).
        """
        distributed = _import_distributed()
        tasks = list(tasks)
        if not tasks:
            return
        # A game whose wing ships its strategies sends them as recipes (a strategy file need not
        # exist on the workers); another game's bots are part of its package.
        recipes = game_recipes(tasks)
        self.warm_up(recipes)
        run = uuid.uuid4().hex[:12]
        identity = code_identity()
        window = max(4, 2 * sum(self.client.nthreads().values()))
        index: dict[str, int] = {}
        pending = iter(range(len(tasks)))
        done: set[int] = set()

        def submit_next(queue) -> None:
            i = next(pending, None)
            if i is None:
                return
            t = tasks[i]
            key = f"dreamscape-chunk-{run}-{i}-{t.config.id}-{t.first}"
            fut = self.client.submit(_play_on_worker, fn, t, recipes, identity, key=key, pure=False)
            index[fut.key] = i
            queue.add(fut)

        queue = distributed.as_completed(loop=self.client.loop)
        for _ in range(window):
            submit_next(queue)
        try:
            for fut in queue:
                i = index[fut.key]
                try:
                    packed, seconds = fut.result()
                except distributed.KilledWorker as exc:
                    t = tasks[i]
                    raise StudyError(
                        f"chunk {t.config.id} games {t.first}..{t.first + t.games - 1} killed every worker "
                        f"that played it ({_one_line(exc)}); is the worker memory limit too small?"
                    ) from None
                except (asyncio.CancelledError, concurrent.futures.CancelledError) as exc:
                    t = tasks[i]
                    raise StudyError(
                        f"chunk {t.config.id} games {t.first}..{t.first + t.games - 1} was cancelled by the Dask "
                        f"cluster at {self.address} ({_one_line(exc)}); finished chunks are kept, re-run to resume"
                    ) from None
                fut.release()
                submit_next(queue)
                result = unpack_result(packed)
                if i in done:  # pragma: no cover - Dask reports a key once; guard anyway
                    continue
                done.add(i)
                yield i, result, seconds
        finally:
            left = list(getattr(queue, "futures", ()))
            if left:
                self.client.cancel(left)

    def close(self) -> None:
        """Disconnect; shut down the LocalCluster if this backend started it (never an external one)."""
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")


# ============================================================================ in the workers

_CHUNK_LOCK = threading.Lock()  # one chunk at a time per process (one numba thread pool)


def shipping(game: str):
    """The game's :class:`analyses.games.StrategyShipping` (None: its bots are part of its package)."""
    own = wing_of(game).strategy_shipping
    return own() if own is not None else None


def game_recipes(tasks: Sequence[ChunkTask]) -> dict[str, dict]:
    """Per game of ``tasks`` that ships its strategies: the recipes of its configurations' strategies."""
    specs: dict[str, set[str]] = {}
    for t in tasks:
        specs.setdefault(t.game.game, set()).update(t.config.strategies)
    out = {}
    for game, names in specs.items():
        ship = shipping(game)
        if ship is not None:
            out[game] = ship.recipes(names)
    return out


def install_recipes(recipes: dict[str, dict]) -> None:
    """In a worker: every game's recipes installed (:func:`game_recipes`)."""
    for game, theirs in recipes.items():
        shipping(game).install(theirs)


def _play_on_worker(fn: ChunkFn, task: ChunkTask, recipes: dict, expected: tuple[str, str]) -> tuple[object, float]:
    """Run one chunk in a worker: check its game code, install the strategies it needs, then ``fn(task)``."""
    if code_identity() != tuple(expected):
        digest, numba_version = code_identity()
        raise StudyError(
            f"Dask worker pid {os.getpid()} runs other game code or numba than the driver (code {digest[:12]}, "
            f"numba {numba_version}; driver {expected[0][:12]}, numba {expected[1]}): "
            "install the same dreamscape-lab version on every worker"
        )
    with _CHUNK_LOCK:
        install_recipes(recipes)
        t0 = time.perf_counter()
        result = fn(task)
        return pack_result(result), time.perf_counter() - t0


# ============================================================================ sending results back
#
# A chunk's result is mostly small integers in wide arrays (int16 and int32 counts,
# 0/1 flags): hundreds of bytes per game. Sent as they are,
# fetching a 100,000-game chunk takes a noticeable share of its playing time.
# Each integer array travels in the narrowest integer type that holds its
# values (0/1 arrays as bits) and is restored to its own dtype on arrival:
# the driver gets arrays equal in dtype, shape and every value.


class PackedResult:
    """A chunk result (a dict of arrays, with its game's ``tables``) with its integer arrays narrowed for the trip."""

    __slots__ = ("values",)

    def __init__(self, values: dict) -> None:
        self.values = values


class _Narrowed(NamedTuple):
    data: Any  # numpy array: narrower integers, or packed bits
    dtype: str  # the original dtype
    shape: tuple[int, ...]
    bits: bool


def _narrow(a):
    import numpy as np

    if a.dtype.kind not in "iub" or a.size < 1024:
        return a
    if a.dtype.kind == "b":
        return _Narrowed(np.packbits(a.reshape(-1)), a.dtype.str, a.shape, True)
    lo, hi = int(a.min()), int(a.max())
    if 0 <= lo and hi <= 1:
        return _Narrowed(np.packbits(a.reshape(-1).astype(np.uint8)), a.dtype.str, a.shape, True)
    for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32):
        info = np.iinfo(t)
        if info.min <= lo and hi <= info.max:
            if np.dtype(t).itemsize < a.dtype.itemsize:
                return _Narrowed(a.astype(t), a.dtype.str, a.shape, False)
            break
    return a


def _widen(v):
    import numpy as np

    if not isinstance(v, _Narrowed):
        return v
    if v.bits:
        n = int(np.prod(v.shape, dtype=np.int64))
        return np.unpackbits(v.data, count=n).astype(v.dtype).reshape(v.shape)
    return v.data.astype(v.dtype)


def _pack(value):
    """An array narrowed; a dict of them (a chunk's ``tables``) narrowed inside; anything else as it is."""
    import numpy as np

    if isinstance(value, np.ndarray):
        return _narrow(value)
    if isinstance(value, dict):
        return {k: _pack(v) for k, v in value.items()}
    return value


def _unpack(value):
    if isinstance(value, dict):
        return {k: _unpack(v) for k, v in value.items()}
    return _widen(value)


def pack_result(result: dict) -> PackedResult:
    """A chunk's result (:func:`analyses.study.gamechunks.play_chunk`: a dict of arrays and the game's tables)
    with its integer arrays narrowed."""
    return PackedResult(_pack(result))


def unpack_result(packed: PackedResult) -> dict:
    """The result :func:`pack_result` packed, every array in its own dtype again."""
    return _unpack(packed.values)


def _warm_worker(recipes: dict, expected: tuple[str, str]) -> dict:
    """Load the engine (numba cache) and the strategies in this worker; say how it went.

    Nothing is loaded when the worker's :func:`code_identity` is not ``expected``
    (the driver's): the driver then refuses the worker.
    """
    import socket

    import numba

    try:
        from distributed import get_worker

        address = get_worker().address
    except (ImportError, ValueError):  # pragma: no cover - called outside a worker
        address = ""
    digest, numba_version = code_identity()
    info = {"address": address, "pid": os.getpid(), "host": socket.gethostname(),
            "code_digest": digest, "numba": numba_version}
    if (digest, numba_version) != tuple(expected):
        return info
    with _CHUNK_LOCK:
        t0 = time.perf_counter()
        install_recipes(recipes)
        stats = {"cache_hits": 0, "cache_misses": 0}
        for game in recipes or (DEFAULT_GAME,):  # the engine of every game shipped (at start: the default game's)
            ship = shipping(game)
            for key, value in (ship.warm_worker() if ship is not None else {}).items():
                stats[key] = stats.get(key, 0) + value
        return {
            **info,
            "numba_threads": numba.get_num_threads(),
            "threading_layer": numba.threading_layer(),
            "seconds": time.perf_counter() - t0,
            **stats,
        }


@lru_cache(maxsize=1)
def code_identity() -> tuple[str, str]:
    """(sha256 of the game code and data: simcore/ and strategies/, numba version).

    Two processes with the same identity play every game the same way.
    """
    import numba

    import simcore
    import strategies

    h = hashlib.sha256()
    for package in (simcore, strategies):
        root = Path(package.__file__).resolve().parent
        for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".py", ".toml")):
            h.update(str(path.relative_to(root.parent)).replace(os.sep, "/").encode())
            h.update(b"\0")
            h.update(path.read_bytes())
    return h.hexdigest(), numba.__version__
