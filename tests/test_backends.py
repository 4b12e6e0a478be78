"""Backends: a study played on a Dask LocalCluster equals the local backend's, bit for bit.

The reference is always the local backend on the same study (same seed, same
chunks): game g plays stream (seed, g) wherever it runs, so the study folders'
per-game rows must be equal, not merely close. The Dask tests need the
``dask`` extra (``pip install ".[test,dask]"``) and are skipped without it;
the missing-Dask error is tested everywhere.
"""
from __future__ import annotations

import functools
import os
import signal
import sys
import textwrap
import threading
import time
from pathlib import Path

import polars as pl
import pytest

from analyses.study.backends import LocalBackend, make_backend
from analyses.study.chunks import play_chunk
from analyses.study.model import ChunkTask, RunConfig, StudyError
from analyses.study.folder import Study, load_manifest, scan_games

CONFIGS = [
    RunConfig("base", 3, ("greedy", "greedy", "greedy")),
    RunConfig("sleep-token", 2, ("greedy", "random")),
]


def rows(folder) -> pl.DataFrame:
    return scan_games(folder).collect().sort(["config", "game", "seat"])


def chunk_list(folder) -> dict[str, list[tuple[int, int]]]:
    m = load_manifest(folder)
    return {cid: [(r.first, r.games) for r in recs] for cid, recs in m.chunks.items()}


def run_study(folder, configs, games, chunk_size, backend=None, chunk_fn=None, seed=11) -> Path:
    Study(folder, configs, games, seed=seed, chunk_size=chunk_size).run(chunk_fn, progress=False, backend=backend)
    return Path(folder)


# ----------------------------------------------------------------------------- without Dask


def test_missing_dask_is_a_one_line_error_saying_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` raises ImportError
    with pytest.raises(StudyError) as err:
        make_backend("dask", None, 2)
    text = str(err.value)
    assert 'pip install ".[dask]"' in text and "\n" not in text


def test_backend_names_and_flags_are_checked():
    assert isinstance(make_backend("local"), LocalBackend)
    with pytest.raises(StudyError, match="unknown backend 'spark'"):
        make_backend("spark")
    with pytest.raises(StudyError, match="--scheduler needs --backend dask"):
        make_backend("local", scheduler="tcp://127.0.0.1:8786")
    with pytest.raises(StudyError, match="--workers needs --backend dask"):
        make_backend("local", workers=2)


def test_results_travel_narrowed_and_arrive_equal_in_dtype_and_value():
    import numpy as np

    from analyses.study.backends import PackedResult, pack_result, unpack_result
    from simcore.games.dreamscape.fast.runner import SimResult

    rng = np.random.default_rng(5)
    n, p = 700, 3
    result = SimResult(
        players=p, strategies=["a", "b", "c"], first_game=1400,
        score=rng.integers(-20, 90, (n, p)).astype(np.int32),            # fits int8
        z=np.full((n, p), 2**31 - 1, np.int32),                             # needs int32
        turns=rng.integers(0, 300, (n, p)).astype(np.int32),               # fits int16
        win=rng.choice([0.0, 1.0, 0.5, 1 / 3], (n, p)),                    # floats travel as they are
        length=rng.integers(0, 40_000, n).astype(np.int32),                # fits uint16
        aborted=rng.random(n) < 0.1,                                       # bools (small: as they are)
        performed=rng.integers(0, 2, (n, p, 11)).astype(np.int32),         # 0/1: bits
        chain_by_type=-rng.integers(0, 40_000, (n, p, 11)).astype(np.int32),  # fits int32 only
        held=rng.integers(0, 2, (n, p, 52)).astype(np.int8), card_labels=["FF/IS"] * 52,
    )
    from simcore.games.dreamscape.study_tables import study_result

    chunk = {**study_result(result), "held": result.held, "chain": result.chain_by_type}  # wide arrays too
    packed = pack_result(chunk)
    assert isinstance(packed, PackedResult)
    back = unpack_result(packed)

    def same(a, b, where):
        assert type(a) is type(b), where
        if isinstance(a, dict):
            assert list(a) == list(b), where
            for k in a:
                same(a[k], b[k], f"{where}.{k}")
        else:
            assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), where

    same(chunk, back, "result")
    narrowed = [k for k, v in packed.values.items() if not isinstance(v, (np.ndarray, dict))]
    assert {"held", "score"} <= set(narrowed) and "chain" not in narrowed  # narrowed where a narrower type holds them
    assert not isinstance(packed.values["tables"]["games"]["score"], np.ndarray)  # inside the game's tables too


# ----------------------------------------------------------------------------- on a LocalCluster


@pytest.fixture(scope="module")
def dask_backend():
    pytest.importorskip("distributed")
    play_chunk(ChunkTask(CONFIGS[0], 0, 0, 1))  # the engine is in numba's disk cache before workers start
    backend = make_backend("dask", None, 2)
    yield backend
    backend.close()


def test_a_study_on_a_local_cluster_equals_the_local_backend(tmp_path, dask_backend):
    local = run_study(tmp_path / "local", CONFIGS, 2400, 500)
    dask = run_study(tmp_path / "dask", CONFIGS, 2400, 500, backend=dask_backend)
    assert rows(dask).equals(rows(local))
    assert rows(dask).height == 2400 * (3 + 2)
    # every chunk recorded once, the same chunks as locally: 0, 500, .., 2000 (the last one 400 games)
    expected = [(f, min(500, 2400 - f)) for f in range(0, 2400, 500)]
    assert chunk_list(dask) == chunk_list(local) == {c.id: expected for c in CONFIGS}
    # byte for byte: every chunk file (agg, games and the held cards' pairs) has the local one's size and sha256
    checks = {folder: {(cid, r.first): r.checks for cid, recs in load_manifest(folder).chunks.items() for r in recs}
              for folder in (local, dask)}
    assert checks[dask] == checks[local] and all(set(c) == {"agg", "games", "pairs"} for c in checks[local].values())


def test_workers_load_the_engine_from_the_disk_cache_once(dask_backend):
    from analyses.games.dreamscape.shipping import engine_cache_stats

    dask_backend.warm_up()
    # The study above played several chunks per worker: each worker process
    # loaded the engine kernel once from numba's cache and never compiled it.
    stats = dask_backend.client.run(engine_cache_stats)
    assert len(stats) == 2
    for s in stats.values():
        assert s == {"cache_hits": 1, "cache_misses": 0}
    assert {info["numba_threads"] for info in dask_backend.worker_info.values()} == {max(1, len(os.sched_getaffinity(0)) // 2)}


def test_user_strategy_files_play_on_workers_that_cannot_see_them(tmp_path, dask_backend, monkeypatch):
    # The specs are relative to this process's working folder, which is not
    # the workers': they only get the strategies through the backend.
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "mine.py").write_text(textwrap.dedent("""
        from strategies import strategy

        @strategy("test-backends-thrifty", description="keeps its budget")
        def thrifty(kind, seat, features, state):
            return features[0] + 0.25 * features[4]

        def careful(kind, seat, features, state):
            return features[0] - 0.1 * features[4]
    """))
    monkeypatch.chdir(tmp_path)
    assert all(cwd != str(tmp_path) for cwd in dask_backend.client.run(os.getcwd).values())
    config = RunConfig("base", 3, ("bots/mine.py:thrifty", "bots/mine.py:careful", "greedy"))
    local = run_study(tmp_path / "local", [config], 900, 300)
    dask = run_study(tmp_path / "dask", [config], 900, 300, backend=dask_backend)
    assert rows(dask).equals(rows(local))
    assert rows(local)["score"].sum() > 0


def test_joining_a_running_cluster_leaves_it_running(tmp_path, dask_backend):
    joined = make_backend("dask", dask_backend.address, 2)
    assert joined.cluster is None
    local = run_study(tmp_path / "local", CONFIGS[:1], 600, 200)
    dask = run_study(tmp_path / "dask", CONFIGS[:1], 600, 200, backend=joined)
    joined.close()
    assert rows(dask).equals(rows(local))
    assert len(dask_backend.client.nthreads()) == 2  # the cluster it joined still has its workers


def test_workers_with_other_game_code_are_refused(dask_backend, monkeypatch):
    import analyses.study.backends as backends

    # This process pretends to run another version: the workers' code then differs from it.
    monkeypatch.setattr(backends, "code_identity", lambda: ("0" * 64, "0.0"))
    with pytest.raises(StudyError, match="runs other game code or numba than this machine") as err:
        make_backend("dask", dask_backend.address)
    assert "\n" not in str(err.value)
    assert len(dask_backend.client.nthreads()) == 2


def test_an_unreachable_scheduler_is_a_one_line_error():
    pytest.importorskip("distributed")
    from analyses.study.backends import DaskBackend

    with pytest.raises(StudyError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9") as err:
        DaskBackend(scheduler="tcp://127.0.0.1:9", wait_timeout=2)
    assert "\n" not in str(err.value)


# ----------------------------------------------------------------------------- a worker dies


def marked_chunk(marks: str, task: ChunkTask):
    """play_chunk, leaving start-<first>-<pid> and end-<first>-<pid> files in ``marks``."""
    pid = os.getpid()
    Path(marks, f"start-{task.first}-{pid}").touch()
    result = play_chunk(task)
    Path(marks, f"end-{task.first}-{pid}").touch()
    return result


def kill_a_busy_worker(marks: Path, killed: dict, stop: threading.Event) -> None:
    """After the first chunk finished, SIGKILL a worker process in the middle of a chunk."""
    while not stop.is_set() and not any(p.name.startswith("end-") for p in marks.iterdir()):
        time.sleep(0.005)
    while not stop.is_set():
        names = {p.name for p in marks.iterdir()}
        for name in names:
            _, first, pid = name.split("-")
            if name.startswith("start-") and f"end-{first}-{pid}" not in names and int(pid) != os.getpid():
                os.kill(int(pid), signal.SIGKILL)
                killed.update(first=int(first), pid=int(pid))
                return
        time.sleep(0.005)


def test_a_worker_killed_mid_study_loses_nothing_and_counts_nothing_twice(tmp_path):
    pytest.importorskip("distributed")
    config = CONFIGS[0]
    # 8 chunks of 5,000 games (about 0.2 s each on one core): the killer, polling every 5 ms, finds one
    # started and not finished as soon as the first one ends
    games, size = 8 * 5_000, 5_000
    local = run_study(tmp_path / "local", [config], games, size)

    marks = tmp_path / "marks"
    marks.mkdir()
    killed: dict = {}
    stop = threading.Event()
    killer = threading.Thread(target=kill_a_busy_worker, args=(marks, killed, stop), daemon=True)
    with make_backend("dask", None, 2) as backend:
        backend.warm_up()
        killer.start()
        try:
            dask = run_study(tmp_path / "dask", [config], games, size, backend=backend,
                             chunk_fn=functools.partial(marked_chunk, str(marks)))
        finally:
            stop.set()
            killer.join()
    assert killed, "no worker was killed mid-chunk"
    # The killed chunk was started by the dead worker and played again by another process.
    starters = {int(p.name.split("-")[2]) for p in marks.glob(f"start-{killed['first']}-*")}
    assert killed["pid"] in starters and len(starters) >= 2
    assert not (marks / f"end-{killed['first']}-{killed['pid']}").exists()
    # Nothing lost or counted twice: every game once, the same rows as the local backend.
    assert chunk_list(dask) == {config.id: [(f, size) for f in range(0, games, size)]}
    assert rows(dask).equals(rows(local))


def test_another_games_study_on_a_local_cluster_equals_the_local_backend(tmp_path, dask_backend):
    # The backends take --game: a Pleasant Dreams chunk is played by the worker's own copy of that game.
    from analyses.study.studyfile import load_study_file
    from analyses.games.pleasant_dreams import pd_summary

    plan_file = tmp_path / "pd.toml"
    plan_file.write_text('game = "pleasant-dreams"\nseed = 3\ngames = 300\nchunk_size = 70\n\n'
                         '[[configs]]\nplayers = 2\nvariants = ["base", "lucid"]\nstrategy = "threshold"\n\n'
                         '[[configs]]\nplayers = 1\nvariants = ["start=4+actions=2"]\nstrategy = "threshold"\n',
                         encoding="utf-8")
    from analyses.study.studyfile import run_plan

    run_plan(load_study_file(plan_file), tmp_path / "local", progress=False)
    run_plan(load_study_file(plan_file), tmp_path / "dask", backend=dask_backend, progress=False)
    local, dask = pd_summary(tmp_path / "local"), pd_summary(tmp_path / "dask")
    assert dask["first_player"] == local["first_player"] and dask["solo_challenge"] == local["solo_challenge"]
    assert sum(r["games"] for r in dask["first_player"]) == 600  # both 2-player variants, every game once
