"""User strategies are contained: every misbehaviour ends the run with one line and exit 2, Ctrl-C with 130.

Each case runs the real command line in a fresh process (as a user would):
a strategy that raises, returns NaN or inf, reads outside ``features``,
writes into ``state``; a strategy file that exits, raises BaseException,
does not import or prints; a user file taking a built-in's name; Ctrl-C
while a strategy loops forever or a long run plays. The expectations come
from the brief of issue #13 (README "When a strategy misbehaves"), not from
the implementation.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from analyses.games.dreamscape.warmup import STRATEGY_NOTICE
from analyses.study.warmup import is_compile_line

NOTICE_HEAD, NOTICE_TAIL = STRATEGY_NOTICE.split("{}")
ROOT = Path(__file__).resolve().parents[1]
HEADER = "import math\nimport numpy as np\nfrom strategies import strategy\n"


def dreamscape(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)


def start(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", "import cli; cli.main()", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def bot(tmp_path: Path, name: str, body: str) -> str:
    """A strategy file holding ``body`` (a decorated function named ``name``); returns its --strategy value."""
    path = tmp_path / f"{name}.py"
    path.write_text(HEADER + textwrap.dedent(body))
    return f"{path}:{name}"


def is_compile_notice(line: str) -> bool:
    """The documented notice before numba compiles (analyses.games.dreamscape.warmup), printed ahead of any outcome."""
    return is_compile_line(line) or (line.startswith(NOTICE_HEAD) and line.endswith(NOTICE_TAIL))


def assert_one_line(result: subprocess.CompletedProcess, *words: str) -> str:
    """Exit 2, exactly one line on stderr (besides a compile notice) naming ``words``, no traceback, no stdout."""
    lines = [line for line in result.stderr.splitlines() if not is_compile_notice(line)]
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert len(lines) == 1, result.stderr[-2000:]
    assert "Traceback" not in result.stderr and result.stdout == ""
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# ----------------------------------------------------------------------------- faults during play

FAULTS = {
    # name: (body, words the one line must hold: strategy, decision kind, problem)
    "raiser": ("""
        @strategy("raiser")
        def raiser(kind, seat, features, state):
            if kind == 2:  # buy (simcore.games.dreamscape.rules.DECISION_ID): asked in every game's first turn
                raise ValueError("no buying today")
            return features[0]
        """, ("'raiser'", "buy decision", "ValueError: no buying today")),
    "nanbot": ("""
        @strategy("nanbot")
        def nanbot(kind, seat, features, state):
            return math.nan
        """, ("'nanbot'", "decision", "returned nan", "finite")),
    "infbot": ("""
        @strategy("infbot")
        def infbot(kind, seat, features, state):
            return -np.inf if kind == 2 else features[0]
        """, ("'infbot'", "buy decision", "returned -inf", "finite")),
    "faraway": ("""
        @strategy("faraway")
        def faraway(kind, seat, features, state):
            return features[10**8]
        """, ("'faraway'", "decision", "IndexError", "outside features or state")),
    "statepeek": ("""
        @strategy("statepeek")
        def statepeek(kind, seat, features, state):
            return features[0] + state[state.shape[0] + 5]
        """, ("'statepeek'", "decision", "IndexError")),
}


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_a_failing_strategy_ends_the_run_with_one_line_naming_it(tmp_path, name):
    body, words = FAULTS[name]
    spec = bot(tmp_path, name, body)
    result = dreamscape("simulate", "--players", "2", "--games", "3000", "--strategy", spec, "--strategy", "greedy",
                        "--no-progress")
    assert_one_line(result, *words)


def test_the_seat_named_is_the_failing_strategys_counted_from_1(tmp_path):
    spec = bot(tmp_path, "raiser", FAULTS["raiser"][0])
    result = dreamscape("simulate", "--players", "3", "--games", "500", "--strategy", "greedy", "--strategy", "greedy",
                        "--strategy", spec, "--no-progress")
    assert_one_line(result, "'raiser'", "(seat 3)")


def test_a_fault_in_a_study_run_is_one_line_too(tmp_path):
    spec = bot(tmp_path, "nanbot", FAULTS["nanbot"][0])
    result = dreamscape("simulate", "--players", "2", "--games", "200", "--strategy", spec, "--out", str(tmp_path / "s"),
                        "--json", "--no-progress")
    assert_one_line(result, "'nanbot'", "returned nan")


def test_a_strategy_writing_into_state_or_features_is_refused_when_loaded(tmp_path):
    for name, target in (("scribbler", "state[0] = 7"), ("doodler", "features[1] = 0.5")):
        spec = bot(tmp_path, name, f"""
            @strategy("{name}")
            def {name}(kind, seat, features, state):
                {target}
                return features[0]
            """)
        result = dreamscape("simulate", "--players", "2", "--games", "10", "--strategy", spec, "--no-progress")
        assert_one_line(result, name, "writes into features or state", "read-only")


def test_a_well_behaved_user_strategy_plays_the_same_games_as_its_builtin_twin(tmp_path):
    """The guard changes nothing for a strategy that behaves: the user's copy of greedy plays greedy's games."""
    spec = bot(tmp_path, "twin", """
        @strategy("twin")
        def twin(kind, seat, features, state):
            return features[0]
        """)
    runs = [json.loads(dreamscape("simulate", "--players", "3", "--games", "400", "--seed", "5", "--strategy", s,
                                  "--json", "--no-progress").stdout) for s in ("greedy", spec)]
    for run in runs:
        for seat in run["seats"]:
            seat.pop("strategy")
        run.pop("games_per_s")
        run.pop("seconds")
    assert runs[0] == runs[1]


# ----------------------------------------------------------------------------- importing a strategy file

IMPORTS = {
    "sys_exit": ("import sys\nsys.exit(0)\n", "sys.exit(0)"),
    "system_exit_3": ("raise SystemExit(3)\n", "sys.exit(3)"),
    "os_exit": ("import os\nos._exit(0)\n", "os._exit(0)"),
    "keyboard_interrupt": ("raise KeyboardInterrupt\n", "KeyboardInterrupt"),
    "base_exception": ("raise BaseException('odd')\n", "BaseException: odd"),
    "import_error": ("import no_such_module_here\n", "ModuleNotFoundError"),
    "syntax_error": ("def f(:\n", "SyntaxError line 1"),
}


@pytest.mark.parametrize("case", sorted(IMPORTS))
def test_importing_a_strategy_file_cannot_end_or_silence_the_command(tmp_path, case):
    text, words = IMPORTS[case]
    path = tmp_path / f"{case}.py"
    path.write_text(text + "def f(kind, seat, features, state):\n    return 0.0\n")
    result = dreamscape("simulate", "--games", "10", "--strategy", f"{path}:f", "--json", "--no-progress")
    assert_one_line(result, str(path), words)


def test_printing_at_import_does_not_corrupt_json_output(tmp_path):
    path = tmp_path / "chatty.py"
    path.write_text("print('hello from the strategy file')\n"
                    "def f(kind, seat, features, state):\n    return features[0]\n")
    result = dreamscape("simulate", "--players", "2", "--games", "20", "--strategy", f"{path}:f", "--json",
                        "--no-progress")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 20  # stdout is the JSON object alone
    assert "hello from the strategy file" in result.stderr


def test_a_user_file_cannot_take_a_builtin_name(tmp_path):
    spec = bot(tmp_path, "impostor", """
        @strategy("greedy")
        def impostor(kind, seat, features, state):
            return -features[0]
        """)
    result = dreamscape("simulate", "--games", "10", "--strategy", spec, "--no-progress")
    assert_one_line(result, "'greedy'", "built-in")


# ----------------------------------------------------------------------------- Ctrl-C

SAFETY_TIMEOUT = 120  # a bound against a hung test only: the claim is the exit code and the one line


def interrupt(proc: subprocess.Popen, ready_after: float) -> tuple[int, str, str]:
    """SIGINT ``proc`` once it had ``ready_after`` seconds to start its work; (exit code, stdout, stderr)."""
    time.sleep(ready_after)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=SAFETY_TIMEOUT)
    finally:
        proc.kill()
    return proc.returncode, out, err


def test_ctrl_c_stops_a_strategy_that_loops_forever(tmp_path):
    spec = bot(tmp_path, "looper", """
        @strategy("looper")
        def looper(kind, seat, features, state):
            x = 0.0
            while features[0] == features[0]:  # never false for a finite feature
                x += 1.0
            return x
        """)
    proc = start("simulate", "--players", "2", "--games", "10", "--strategy", spec, "--no-progress")
    deadline = time.monotonic() + SAFETY_TIMEOUT
    while proc.poll() is None and time.monotonic() < deadline and not (tmp_path / "__pycache__").is_dir():
        time.sleep(0.5)  # numba writes the strategy's cache once it compiled it: the games start
    code, out, err = interrupt(proc, 5.0)
    assert code == 130, err
    assert err.splitlines()[-1] == "dreamscape: interrupted" and "Traceback" not in err
    assert [line for line in err.splitlines() if "interrupted" in line] == ["dreamscape: interrupted"]


def test_ctrl_c_stops_a_long_run_inside_one_chunk():
    # One chunk of flat Monte Carlo games: minutes of numba code without a return to Python. The rollout
    # loop is compiled first (one game, its own process), so that the signal lands in the games, not in
    # the compiler (a first run compiles only the loop it plays).
    warm = start("simulate", "--players", "3", "--games", "1", "--strategy", "rollout", "--no-progress")
    _, warm_err = warm.communicate(timeout=SAFETY_TIMEOUT * 20)
    assert warm.returncode == 0, warm_err
    proc = start("simulate", "--players", "3", "--games", "200000", "--chunk-size", "200000", "--strategy", "rollout",
                 "--no-progress")
    code, out, err = interrupt(proc, 12.0)
    assert code == 130, err
    assert err.strip().splitlines() == ["dreamscape: interrupted"] and out == ""


def test_ctrl_c_between_chunks_keeps_the_finished_chunks_of_a_study(tmp_path):
    folder = tmp_path / "study"
    proc = start("simulate", "--players", "2", "--games", "50000000", "--chunk-size", "20000", "--out", str(folder),
                 "--no-progress")
    deadline = time.monotonic() + SAFETY_TIMEOUT
    while proc.poll() is None and time.monotonic() < deadline and not list(folder.glob("**/*.parquet")):
        time.sleep(0.5)
    code, out, err = interrupt(proc, 1.0)
    assert code == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "dreamscape: interrupted"
    assert list(folder.glob("**/*.parquet"))  # what was written stays
