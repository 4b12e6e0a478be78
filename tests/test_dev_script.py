"""dev.py, the README's two commands: how ``test`` runs pytest, and its background compile.

The background compile runs with its output thrown away, so a name it imports that moved would go
unnoticed (it did once: every cold test run then compiled the other games inside the tests). Here its
script runs in this process with the two compile calls replaced by recorders.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("dev_script", ROOT / "dev.py")
dev = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dev)


def test_the_background_compile_imports_and_warms_every_other_game_and_the_rollout_loop(monkeypatch):
    from analyses import lab
    from analyses.games import DEFAULT_GAME, game_names
    from analyses.games.dreamscape import warmup

    from analyses.games.dreamscape import train_strong

    warmed, loops, trained = [], [], []
    monkeypatch.setattr(lab, "warmup", lambda name, say: warmed.append(name))
    monkeypatch.setattr(warmup, "compile_loop", loops.append)
    monkeypatch.setattr(train_strong, "value_rows", lambda players, *rest: trained.append(players))
    exec(compile(dev.WARM_OTHER_GAMES, "WARM_OTHER_GAMES", "exec"), {})
    assert DEFAULT_GAME == "dreamscape" and "dreamscape" not in warmed  # the install compiled it already
    assert {"pleasant-dreams", "counting-zzzzs"} <= set(warmed) == set(game_names()) - {"dreamscape"}
    assert loops == ["rollout"] and trained == [2]  # and the strong trainer's self-play games


TWO = ["-n", "2", "--dist", "loadfile"]
REST, SPARE_PASS = ["-m", "not slow and not spares"], ["-p", "no:xdist", "-m", "spares and not slow"]


@pytest.mark.parametrize("extra, wanted", [
    # the default run: every test but the spare tests in two workers, then the spare tests in one process
    ([], [TWO + REST, SPARE_PASS]),
    (["-x", "tests/test_layers.py"], [TWO + REST + ["-x", "tests/test_layers.py"],
                                      SPARE_PASS + ["-x", "tests/test_layers.py"]]),
    # the caller's markers: one run, in workers
    (["-m", "slow"], [TWO + ["-m", "slow"]]),
    # the caller's choice of workers or distribution replaces ours: one run as asked
    (["-n", "0"], [["-n", "0"]]),
    (["-n4"], [["-n4"]]),
    (["--numprocesses=3"], [["--numprocesses=3"]]),
    (["--dist", "load"], [["--dist", "load"]]),
    (["-p", "no:xdist"], [["-p", "no:xdist"]]),
])
def test_pytest_runs_in_two_workers_unless_told_otherwise(monkeypatch, extra, wanted):
    monkeypatch.setattr(dev, "pytest_workers", lambda: 2)
    assert dev.pytest_passes(list(extra)) == wanted


@pytest.mark.parametrize("codes, wanted", [
    ([0, 0], 0), ([1, 0], 1), ([0, 1], 1), ([5, 0], 0), ([0, 5], 0), ([5, 5], 5), ([2, 5], 2), ([0], 0),
])
def test_the_passes_exit_with_the_worst_code_and_5_only_when_nothing_ran(codes, wanted):
    assert dev.combined_exit(codes) == wanted


def test_the_spare_tests_carry_the_marker_the_second_pass_selects():
    for name in ("test_warmstart.py", "test_warmstart_faults.py", "test_warmstart_limits.py"):
        text = (Path(__file__).parent / name).read_text()
        assert "pytestmark = pytest.mark.spares" in text, name


def test_one_core_runs_pytest_in_one_process(monkeypatch):
    monkeypatch.setattr(dev.os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert dev.pytest_workers() == 1
    assert dev.pytest_passes(["-x"]) == [["-x"]]
    monkeypatch.setattr(dev.os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    assert dev.pytest_workers() == 2  # at most two, what the suite is kept safe on


def test_a_failed_background_compile_is_said_in_one_line(tmp_path, capsys):
    with open(tmp_path / "err", "w+b") as errors:
        errors.write(b"Traceback (most recent call last):\nImportError: cannot import name 'x'\n")
        dev.report_failed_warm(0, errors)
        dev.report_failed_warm(-15, errors)  # ended by dev.py after a short run: nothing to say
        assert capsys.readouterr().err == ""
        dev.report_failed_warm(1, errors)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "failed (exit 1)" in err and err.rstrip().endswith("ImportError: cannot import name 'x'")
