"""The bench report's shape and its readable table (quick mode: seconds)."""
from __future__ import annotations

import time

from analyses.games.dreamscape.bench import GREEDY_HOOK, GREEDY_HOOK_KINDS, run_bench
from analyses.tools import bench
from analyses.tools.bench import bench_lines, speedups
from simcore.games.dreamscape.fast import get_record
from simcore import warmstart
from simcore.games.dreamscape.fast.strategies import MODE_CALL, greedy_strategy


def test_quick_bench_report_and_lines():
    report = run_bench(quick=True, players=(2,), variants=("base",), strategies=("greedy",))
    starts = {"cold_start_s", "warm_start_s", "help_s", "small_run_s", "small_run_spare_s"}
    assert set(report) == {"rows"} | starts
    assert all(report[k] is None for k in starts)  # quick mode measures no start time
    keys = {"engine", "players", "variant", "strategy", "games", "seconds", "games_per_s"}
    assert all(set(r) == keys for r in report["rows"])
    labels = [(r["engine"], r["strategy"]) for r in report["rows"]]
    assert labels == [("fast", "greedy"), ("reference", "greedy"), ("fast", "greedy-hook"), ("fast", "rollout")]
    assert all(r["games_per_s"] > 0 for r in report["rows"])
    assert len(speedups(report)) == 1
    lines = bench_lines(report)
    assert "games/s" in lines[0] and "fast/ref" in lines[0]
    assert len(lines) == 2 + len(report["rows"]) + 4
    assert lines[2].rstrip().endswith("x")  # the fast greedy row carries its ratio
    assert lines[-4].startswith("cold start") and lines[-3].startswith("warm start")
    assert lines[-2].startswith("small run, own process") and lines[-1].startswith("small run, handed")
    assert all(line.endswith("not measured") for line in lines[-4:])


def test_the_bench_times_the_hook_with_strategies_it_registers_itself():
    """Its hook rows call greedy's own function (no shortcut), at every kind or at greedy's five."""
    every, kinds = get_record(GREEDY_HOOK), get_record(GREEDY_HOOK_KINDS)
    assert "bench" in every.description and "bench" in kinds.description  # the bench's, not the tests' ones
    assert every.compiled is greedy_strategy and kinds.compiled is greedy_strategy
    assert every.mode == kinds.mode == MODE_CALL and not every.builtin
    assert every.decides == 2**17 - 1  # all 17 decision kinds
    # buy, take_z, sleep_token, perform, floating_free: decision ids 0..4 (simcore.games.dreamscape.rules.DECISION_KINDS)
    assert kinds.decides == 0b11111


def test_a_start_time_process_leaves_no_spare_behind(tmp_path, monkeypatch):
    """The cold and warm start are timed with warm start off, whatever the user's setting (issue #44).

    With it on, each timed ``dreamscape`` process left a spare that loaded the engine into the timing's
    own numba cache while the bench deleted that folder: ``bench --json`` failed after playing every row.
    The command timed here is a quick one that plays no game (no compile), in an empty cache folder.
    """
    monkeypatch.setenv("DREAMSCAPE_SERVER", "on")  # the user's ordinary setting (the suite runs with it off)
    monkeypatch.setenv("DREAMSCAPE_SERVER_DIR", str(tmp_path / "sockets"))
    monkeypatch.setattr(bench, "start_args", lambda game=None: ["strategies", "--game", "counting-zzzzs", "--json"])
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    try:
        assert bench.time_start(str(cache)) > 0
        deadline = time.monotonic() + 10  # a spare would take its lock right after importing the CLI
        while time.monotonic() < deadline and not warmstart.spares():
            time.sleep(0.2)
        assert warmstart.spares() == []
    finally:
        warmstart.stop_spares()  # only this test's private socket folder
