"""Warm start (simcore.warmstart): a spare process, loaded in advance, runs the next command.

The end-to-end tests run the real entry point in subprocesses with warm start
on, in a private socket folder, and check what a user would see: the same
answer as a command run on its own, the same exit code and one-line errors,
no progress frames in a pipe, Ctrl-C and a killed command reaching the spare.
That a command was handed over is read from the spare's process id (the spare
that waited is gone afterwards, and another one waits), never from a timing.
"""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cli
from simcore import warmstart

pytestmark = pytest.mark.spares  # dev.py test runs these in one process (not in an xdist worker)

ROOT = Path(__file__).resolve().parent.parent
READY_WITHIN = 240.0  # seconds: a spare loads in 1-3 s, but the engine may compile first on a cold cache


# ----------------------------------------------------------------------------- pieces

def test_help_and_server_command_run_in_their_own_process():
    assert not cli.wants_spare([])
    assert not cli.wants_spare(["--help"])
    assert not cli.wants_spare(["simulate", "--help"])
    assert not cli.wants_spare(["simulate", "-h"])
    assert not cli.wants_spare(["server", "--stop"])
    assert cli.wants_spare(["simulate", "--games", "10"])


def test_off_switch(monkeypatch):
    for value in ("off", "0", "no", "FALSE"):
        assert not warmstart.enabled({"DREAMSCAPE_SERVER": value})
    assert warmstart.enabled({}) == (os.name == "posix")


def make_root(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "simcore").mkdir(parents=True)
    (root / "cli.py").write_text("x = 1\n")
    (root / "simcore" / "engine.py").write_text("y = 2\n")
    return root


def test_key_follows_the_code_on_disk_and_import_time_settings(tmp_path):
    root = make_root(tmp_path)
    env = {"NUMBA_NUM_THREADS": "2", "HOME": "/x"}
    key = warmstart.source_key(root, env)
    assert warmstart.source_key(root, env) == key
    # settings that act only at run time, or warm start's own, do not make another spare
    assert warmstart.source_key(root, {**env, "HOME": "/y", "DREAMSCAPE_SERVER_IDLE": "5"}) == key
    # settings numba reads at import do
    assert warmstart.source_key(root, {**env, "NUMBA_NUM_THREADS": "1"}) != key
    # an edited engine file does
    engine = root / "simcore" / "engine.py"
    engine.write_text("y = 3\n")
    os.utime(engine, ns=(time.time_ns(), time.time_ns() + 10**9))
    assert warmstart.source_key(root, env) != key


def test_key_follows_a_value_file_added_after_the_spare_started(tmp_path):
    """A spare registers the bots' value files when it starts: a new or retrained value must not be served stale."""
    root = make_root(tmp_path)
    key = warmstart.source_key(root, {})
    data = root / "simcore" / "data"
    data.mkdir()
    (data / "3p-shifting-tokens.npz").write_bytes(b"PK\x03\x04")
    assert warmstart.source_key(root, {}) != key


def test_socket_folder_must_be_private(tmp_path, monkeypatch):
    folder = tmp_path / "sockets"
    monkeypatch.setenv("DREAMSCAPE_SERVER_DIR", str(folder))
    assert warmstart.socket_folder() == folder
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    os.chmod(folder, 0o755)  # others could enter: our terminal must not be handed to their socket
    assert warmstart.socket_folder() is None
    os.chmod(folder, 0o700)
    link = tmp_path / "link"
    link.symlink_to(folder)
    monkeypatch.setenv("DREAMSCAPE_SERVER_DIR", str(link))
    assert warmstart.socket_folder() is None


def test_no_socket_means_run_here(tmp_path, monkeypatch):
    monkeypatch.setenv("DREAMSCAPE_SERVER_DIR", str(tmp_path / "s"))
    assert warmstart.hand_over(ROOT, ["dreamscape", "simulate"]) is None


# ----------------------------------------------------------------------------- end to end

@pytest.fixture
def warm_env(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DREAMSCAPE_SERVER": "on",
           "DREAMSCAPE_SERVER_DIR": str(tmp_path / "sockets"), "DREAMSCAPE_SERVER_IDLE": "300"}
    yield env
    subprocess.run([sys.executable, "-c", "import cli; cli.main()", "server", "--stop"], cwd=ROOT, env=env,
                   capture_output=True, timeout=60)


def dreamscape(env, *args, **kw):
    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600, **kw)


def spares(env) -> list[dict]:
    out = dreamscape(env, "server", "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["spares"]


def waiting_spare(env) -> int:
    deadline = time.monotonic() + READY_WITHIN
    while time.monotonic() < deadline:
        ready = [s for s in spares(env) if s["ready"] and s["current"]]
        if ready:
            return ready[0]["pid"]
        time.sleep(0.5)
    pytest.fail("no spare process became ready")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.1)
    return False


def without_timing(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("seconds", "games_per_s")}


def test_a_spare_runs_the_next_command_with_the_same_answer(warm_env):
    args = ("simulate", "--players", "3", "--games", "40", "--seed", "11", "--json")
    alone = dreamscape({**warm_env, "DREAMSCAPE_SERVER": "off"}, *args)
    assert alone.returncode == 0, alone.stderr
    assert spares(warm_env) == []  # off: nothing was started
    first = dreamscape(warm_env, *args)  # no spare yet: runs here, then starts one
    assert first.returncode == 0
    pid = waiting_spare(warm_env)
    second = dreamscape(warm_env, *args)
    assert second.returncode == 0, second.stderr
    assert gone_within(pid, 30), "the spare that waited did not run the command"
    assert without_timing(json.loads(second.stdout)) == without_timing(json.loads(alone.stdout))
    assert without_timing(json.loads(first.stdout)) == without_timing(json.loads(alone.stdout))
    assert waiting_spare(warm_env) != pid  # the command started the next spare


def test_bad_input_through_a_spare_is_one_line_and_exit_2(warm_env):
    dreamscape(warm_env, "simulate", "--games", "1")
    pid = waiting_spare(warm_env)
    out = dreamscape(warm_env, "simulate", "--players", "9", "--games", "10")
    assert gone_within(pid, 30)
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.strip().splitlines() == ["dreamscape: error: --players must be 1 to 4, got 9"]


def test_piped_run_through_a_spare_has_no_progress_frames(warm_env):
    dreamscape(warm_env, "simulate", "--games", "1")
    pid = waiting_spare(warm_env)
    out = dreamscape(warm_env, "simulate", "--players", "2", "--games", "3000", "--seed", "2")
    assert gone_within(pid, 30)
    assert out.returncode == 0
    assert "\r" not in out.stderr and "\r" not in out.stdout
    assert "3,000 games" in out.stdout


def start_long_run(env):
    return subprocess.Popen(
        [sys.executable, "-c", "import cli; cli.main()", "simulate", "--players", "4", "--games", "50000000",
         "--seed", "1", "--no-progress", "--strategy", "greedy"],  # greedy: chunks end well within Ctrl-C's grace
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def long_run_in_a_spare(env) -> tuple[subprocess.Popen, int]:
    """A 50-million-game run handed to a spare, once the spare has taken it: (waiting command, spare pid)."""
    dreamscape(env, "simulate", "--games", "1")
    pid = waiting_spare(env)
    proc = start_long_run(env)
    deadline = time.monotonic() + 30
    while any(s["pid"] == pid for s in spares(env)):
        assert time.monotonic() < deadline
        time.sleep(0.2)  # the spare took the command when it left the list of waiting spares
    time.sleep(1.0)
    assert alive(pid)  # the spare plays the 50 million games
    return proc, pid


def test_ctrl_c_reaches_the_spare(warm_env):
    proc, pid = long_run_in_a_spare(warm_env)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "dreamscape: interrupted"
    assert "Traceback" not in err
    assert gone_within(pid, 10)


def test_a_killed_command_stops_its_spare(warm_env):
    proc, pid = long_run_in_a_spare(warm_env)
    proc.kill()
    proc.communicate(timeout=30)
    assert gone_within(pid, 30), "the spare kept playing for a command that was killed"
