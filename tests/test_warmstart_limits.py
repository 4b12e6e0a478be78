"""A spare serves only a caller with its own resource limits and ids (issue #44).

The spare's key (:func:`simcore.warmstart.source_key`) includes the caller's ``ulimit`` values and its user
and group ids, and the spare checks the limits a caller sends once more. These tests start the real
:func:`simcore.warmstart.serve_one` on a small stand-in project (no engine to load) in a private socket
folder, and callers whose limits or ids were changed before they started (``preexec_fn``), the way a shell's
``ulimit -f`` or a privilege-dropping wrapper would start ``dreamscape``. Which process ran the command is
read from the command's own output: the spare prints its pid; a caller no spare took runs it itself
(here: exit 99 and no output).
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOBODY = 65534

pytestmark = pytest.mark.spares  # dev.py test runs these in one process (not in an xdist worker)

SPARE = r"""
import os, sys, time
from pathlib import Path
from simcore import warmstart

def run(argv):
    print(f"served by {os.getpid()}", flush=True)
    return 0

warmstart.serve_one(Path(sys.argv[1]), lambda: None, run, "pass")
"""

# argv: project root, how to change this process after finding the spare's socket ("none" or "fewer-files" or
# "other-group"), then the command. Changing after the look-up reaches the spare's own check: the caller
# knocks on the socket of the key it started with, then sends the limits it runs with.
CALLER = r"""
import os, resource, sys
from pathlib import Path
from simcore import warmstart
root, change = Path(sys.argv[1]), sys.argv[2]
found = warmstart.socket_path(root)
if change == "fewer-files":
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft - 1, hard))
elif change == "other-group":
    os.setgid(65534)
if change != "none":
    warmstart.socket_path = lambda _root: found
code = warmstart.hand_over(root, ["dreamscape", *sys.argv[3:]])
sys.exit(99 if code is None else code)
"""
NOT_SERVED = 99


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    (root / "simcore").mkdir(parents=True)
    (root / "cli.py").write_text("x = 1\n")
    (root / "simcore" / "engine.py").write_text("y = 2\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DREAMSCAPE_SERVER": "off",  # off: no next spare is started
           "DREAMSCAPE_SERVER_DIR": str(tmp_path / "sockets"), "DREAMSCAPE_SERVER_IDLE": "120"}
    spare = subprocess.Popen([sys.executable, "-c", SPARE, str(root)], cwd=ROOT, env=env,
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not list((tmp_path / "sockets").glob("*.sock")):
        assert time.monotonic() < deadline, "the spare never listened"
        assert spare.poll() is None, "the spare ended before it listened"
        time.sleep(0.05)
    yield root, env, spare
    if spare.poll() is None:
        spare.kill()
    spare.wait(timeout=30)


def call(project, change: str = "none", preexec=None) -> subprocess.CompletedProcess:
    root, env, _ = project
    return subprocess.run([sys.executable, "-c", CALLER, str(root), change, "hello"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, preexec_fn=preexec)


def served_by_the_spare(project) -> None:
    """A caller with the spare's own limits is served by it (its pid in the output), and the spare is then done."""
    spare = project[2]
    out = call(project)
    assert (out.returncode, out.stdout, out.stderr) == (0, f"served by {spare.pid}\n", "")
    assert spare.wait(timeout=60) == 0


def not_served(project, out: subprocess.CompletedProcess) -> None:
    assert (out.returncode, out.stdout) == (NOT_SERVED, ""), out.stderr
    assert project[2].poll() is None  # the spare still waits for a caller like its own


def lower_soft_limit(name: str):
    """What ``ulimit -S`` does in the shell that starts the caller: one less (a finite value if unlimited)."""
    limit = getattr(resource, name)

    def apply():
        soft, hard = resource.getrlimit(limit)
        resource.setrlimit(limit, (1 << 30 if soft == resource.RLIM_INFINITY else soft - 1, hard))
    return apply


def test_a_caller_with_the_spares_limits_is_served_by_it(project):
    served_by_the_spare(project)


@pytest.mark.parametrize("limit", ["RLIMIT_NOFILE", "RLIMIT_FSIZE"])
def test_a_caller_started_under_a_lower_ulimit_runs_in_its_own_process(project, limit):
    not_served(project, call(project, preexec=lower_soft_limit(limit)))
    served_by_the_spare(project)  # ... and the spare then serves the next caller like its own


def declined_by_the_spare(project, out: subprocess.CompletedProcess) -> None:
    """The spare took the connection, compared the limits, and closed it before running anything."""
    assert (out.returncode, out.stdout) == (NOT_SERVED, ""), out.stderr
    # a spare serves one connection: having left its socket for it, it ends without running the command
    assert project[2].wait(timeout=60) == 0


def test_the_spare_itself_declines_a_caller_whose_limits_differ(project):
    # the caller finds the spare's socket under its first limits, then sends lower ones: the spare checks them
    declined_by_the_spare(project, call(project, change="fewer-files"))


root_only = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                               reason="changing the user or group ids needs root")


@root_only
def test_a_caller_that_dropped_privileges_runs_in_its_own_process(project):
    def drop():  # what a privilege-dropping wrapper does before it starts the command
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)

    out = call(project, preexec=drop)
    not_served(project, out)
    served_by_the_spare(project)


@root_only
def test_the_spare_itself_declines_a_caller_with_another_group(project):
    # still root (so the private socket folder is open to it) but with another group id than the spare's
    declined_by_the_spare(project, call(project, change="other-group"))
