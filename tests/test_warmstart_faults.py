"""The warm-start spare hides nothing and serves only a caller like its own (issue #44).

Each test runs the real :func:`simcore.warmstart.serve_one` and :func:`simcore.warmstart.hand_over` in
separate processes, on a small stand-in project (no engine to load), in a private socket folder:

* a command that fails with an unexpected error in a spare prints its traceback on the caller's stderr and
  exits 1, as it would in a process of its own (it used to exit 1 with nothing on stderr);
* a caller whose resource limits differ from the spare's is not served by it: it runs in its own process;
* a second spare of the same setup does not truncate the first one's lock file, so ``server --stop``
  still finds the first one's pid and stops it.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simcore import warmstart

pytestmark = pytest.mark.spares  # dev.py test runs these in one process (not in an xdist worker)

ROOT = Path(__file__).resolve().parent.parent

SPARE = r"""
import sys, time
from pathlib import Path
from simcore import warmstart

def run(argv):
    if argv[0] == "boom":
        raise RuntimeError("boom from the command")
    if argv[0] == "exit-text":
        sys.exit("a message for stderr")
    print("ran " + " ".join(argv), flush=True)
    return 0

warmstart.serve_one(Path(sys.argv[1]), lambda: time.sleep(float(sys.argv[2])), run, "pass")
"""

CALLER = r"""
import resource, sys
from pathlib import Path
if sys.argv[2] == "fewer-files":  # another ulimit -n than the spare's
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 256) - 1, hard))
from simcore import warmstart
code = warmstart.hand_over(Path(sys.argv[1]), ["dreamscape", *sys.argv[3:]])
sys.exit(99 if code is None else code)
"""


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    (root / "simcore").mkdir(parents=True)
    (root / "cli.py").write_text("x = 1\n")
    (root / "simcore" / "engine.py").write_text("y = 2\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DREAMSCAPE_SERVER": "off",  # off: no next spare is started
           "DREAMSCAPE_SERVER_DIR": str(tmp_path / "sockets"), "DREAMSCAPE_SERVER_IDLE": "120"}
    started: list[subprocess.Popen] = []
    yield root, env, started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def start_spare(project, warm_seconds: float = 0.0) -> subprocess.Popen:
    root, env, started = project
    proc = subprocess.Popen([sys.executable, "-c", SPARE, str(root), str(warm_seconds)], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started.append(proc)
    return proc


def wait_ready(project) -> None:
    sockets = Path(project[1]["DREAMSCAPE_SERVER_DIR"])
    deadline = time.monotonic() + 60
    while not list(sockets.glob("*.sock")):
        assert time.monotonic() < deadline, "the spare never listened"
        time.sleep(0.05)


def call(project, *args: str, limits: str = "same") -> subprocess.CompletedProcess:
    root, env, _ = project
    return subprocess.run([sys.executable, "-c", CALLER, str(root), limits, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_an_unexpected_error_in_a_spare_reaches_the_callers_stderr(project):
    spare = start_spare(project)
    wait_ready(project)
    out = call(project, "boom")
    spare.wait(timeout=60)
    assert out.returncode == 1  # what Python exits with after an uncaught error
    assert "Traceback (most recent call last)" in out.stderr
    assert out.stderr.strip().splitlines()[-1] == "RuntimeError: boom from the command"


def test_sys_exit_with_a_message_in_a_spare_prints_it(project):
    spare = start_spare(project)
    wait_ready(project)
    out = call(project, "exit-text")
    spare.wait(timeout=60)
    assert (out.returncode, out.stderr.strip()) == (1, "a message for stderr")


def test_a_spare_serves_a_caller_with_its_own_limits(project):
    spare = start_spare(project)
    wait_ready(project)
    out = call(project, "hello")
    spare.wait(timeout=60)
    assert (out.returncode, out.stdout) == (0, "ran hello\n")


def test_a_caller_with_other_limits_runs_in_its_own_process(project):
    spare = start_spare(project)
    wait_ready(project)
    out = call(project, "hello", limits="fewer-files")
    assert out.returncode == 99, out.stderr  # hand_over said no spare took it: the caller runs it itself
    assert out.stdout == ""
    assert spare.poll() is None  # the spare still waits for a caller like its own
    again = call(project, "hello")
    spare.wait(timeout=60)
    assert again.stdout == "ran hello\n"


def test_the_limits_are_part_of_the_key():
    limits = warmstart.process_limits()
    assert "RLIMIT_NOFILE" in limits and limits["ids"][:2] == [os.getuid(), os.geteuid()]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    fewer = {**limits, "RLIMIT_NOFILE": [soft - 1, hard]}
    assert warmstart.source_key(ROOT, {}, fewer) != warmstart.source_key(ROOT, {}, limits)
    assert warmstart.source_key(ROOT, {}, dict(limits)) == warmstart.source_key(ROOT, {}, limits)


def test_a_second_spare_of_the_same_setup_leaves_the_first_ones_pid_for_stop(project, monkeypatch):
    first = start_spare(project)
    wait_ready(project)
    second = start_spare(project)  # finds the lock held and returns, after opening the lock file
    assert second.wait(timeout=60) == 0
    monkeypatch.setenv("DREAMSCAPE_SERVER_DIR", project[1]["DREAMSCAPE_SERVER_DIR"])
    found = warmstart.spares()
    assert [s["pid"] for s in found] == [first.pid]
    assert warmstart.stop_spares() == 1
    assert first.wait(timeout=30) != 0  # ended by the SIGTERM of --stop


def test_a_command_naming_its_own_pipe_runs_in_its_own_process():
    # bash's <(...) names the caller's descriptor: a spare (another process) cannot open it
    assert warmstart.names_own_files(["simulate", "--cards", "/dev/fd/63"])
    assert warmstart.names_own_files(["study", "--cards=/proc/self/fd/12"])
    assert warmstart.names_own_files(["simulate", "--deck", "/dev/stdin"])
    assert not warmstart.names_own_files(["simulate", "--cards", "cards.toml", "--out", "out/fd"])
