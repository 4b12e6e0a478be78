"""First contact (issue 17): compile once, start fast, seats from 1, clean pipes, --json on every table."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "simcore" / "games" / "dreamscape" / "scenarios"  # the project's own (moved with the game package)


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def dreamscape(*args: str, cwd: Path = ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    """The command line in a fresh process, stdout and stderr piped (not terminals)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120", **(env or {})}
    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args], cwd=cwd, env=env,
                          capture_output=True, timeout=600)


# ----------------------------------------------------------------------------- seats from 1


def test_simulate_table_numbers_seats_from_1():
    result = run("simulate", "--players", "4", "--games", "20", "--seed", "2", "--no-progress")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["seat", "strategy"])  # after any notice
    rows = [line.split()[0] for line in lines[header + 1:header + 5]]
    assert rows == ["1", "2", "3", "4"]


def test_simulate_table_keeps_long_strategy_names_apart_from_the_rate():
    result = run("simulate", "--players", "2", "--games", "4", "--seed", "2", "--no-progress",
                 "--strategy", "search:greedy@16", "--strategy", "greedy")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[2].split()
    assert first[:2] == ["1", "search:greedy@16"] and first[2].endswith("%")


def test_simulate_json_keeps_seat_indexes_from_0():
    """The documented JSON convention (README): "seat" is the index, 0 for the first player."""
    result = run("simulate", "--players", "2", "--games", "20", "--json", "--no-progress")
    data = json.loads(result.output)
    assert [s["seat"] for s in data["seats"]] == [0, 1]


def test_reference_log_and_errors_number_seats_from_1():
    from simcore.games.dreamscape.decks import build_deck
    from simcore.games.dreamscape.reference import Game, IllegalChoice
    from simcore.rng import GameRng
    from simcore.games.dreamscape.rules import Options

    game = Game.new(build_deck(), 2, GameRng(5), Options())
    d = game.pending
    with pytest.raises(IllegalChoice, match=f"for seat {d.seat + 1}$"):
        game.apply(10_000)


# ----------------------------------------------------------------------------- pipes and --json


def test_piped_run_writes_no_carriage_return_unless_asked():
    quiet = dreamscape("simulate", "--players", "3", "--games", "3000", "--chunk-size", "500")
    assert quiet.returncode == 0, quiet.stderr
    assert b"\r" not in quiet.stderr and b"\r" not in quiet.stdout
    assert quiet.stdout.decode().splitlines()[1].startswith("seat")  # stdout: only the result
    forced = dreamscape("simulate", "--players", "3", "--games", "3000", "--chunk-size", "500", "--progress")
    assert b"\r" in forced.stderr and b"\r" not in forced.stdout


@pytest.mark.parametrize("args", [
    ("decks", "--swaps", "single"),
    ("strategies",),
    ("conformance", str(SCENARIOS), "--engine", "reference"),
    ("simulate", "--players", "3", "--games", "50"),
    ("play", "--players", "2"),
    ("server",),
])
def test_every_table_command_has_json_that_parses(args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert isinstance(data, dict)
    if args[0] == "decks":
        assert data["decks"] and all(len(d["removed"]) == len(d["added"]) == 1 for d in data["decks"])
        assert all(2 * d["cards"] == sum(d["type_counts"].values()) for d in data["decks"])  # two types a card
    if args[0] == "strategies":
        assert {"greedy", "linear", "chain"} <= {s["name"] for s in data["strategies"]}
    if args[0] == "conformance":
        assert data["failed"] == 0 and data["passed"] == len(data["scenarios"]) > 0


def test_every_command_takes_json():
    """`dreamscape --help` lists them; each prints a result (a table, a record, what it wrote, a timing)."""
    import typer.main

    group = typer.main.get_command(app)
    missing = [name for name, command in group.commands.items()
               if not any("--json" in getattr(param, "opts", ()) for param in command.params)]
    # `ui` serves the what-if page until stopped: it prints no result to take as JSON (the page exports each
    # run as the `compare --json` command that gives its numbers)
    assert len(group.commands) >= 20 and missing == ["ui"]


# ----------------------------------------------------------------------------- play --json: the narrated game as data

TURN = re.compile(r"--- Turn (\d+): seat (\d) ---$")
ROW = re.compile(r"  Seat (\d): Z +(\d+)  score +(-?\d+)  reserved (.*)  REM \(bottom->top\) (.*)$")
FINAL = re.compile(r"  Seat (\d) \(([\w:@.-]+)\): (-?\d+) with (\d+) Z cards after (\d+) turns(?:, band (.+) \(R10.5\))?$")
BUY = re.compile(r"Seat (\d) buys (?:reserved (\S+) for 1\.|(the face-down card|\S+) at position (\d) for (\d)[.:])")
PERFORM = re.compile(r"  Seat (\d) performs (\w\w) of (\S+)\.$")


def table_of(lines: list[str]) -> dict:
    """The last table in ``lines`` as the narration prints it (seats from 1)."""
    dream = [line for line in lines if line.startswith("  Dreamscape   ")][-1]
    cells = [re.fullmatch(r"(\d):(\S+) \$(\d)", c).groups() for c in dream.split("   ", 1)[1].split("  ")]
    rows = {}
    for line in lines:
        m = ROW.match(line)
        if m:
            rows[int(m.group(1))] = (int(m.group(2)), int(m.group(3)), m.group(4), m.group(5))
    deck = [line for line in lines if line.startswith("  Sleep Deck")][-1]
    counts = [int(n) for n in re.findall(r"(\d+) cards?", deck)]
    return {"dreamscape": [(int(p), card, int(cost)) for p, card, cost in cells], "rows": rows, "counts": counts}


def as_table(record: dict) -> dict:
    """The same table from a JSON record (seat indexes from 0 -> seats from 1)."""
    return {"dreamscape": [(c["position"], c["card"] or "(empty)", c["cost"]) for c in record["dreamscape"]],
            "rows": {s["seat"] + 1: (s["z"], s["score"], ", ".join(s["reserved"]) or "none", " ".join(s["rem"]) or "(empty)")
                     for s in record["seats"]},
            "counts": [record["sleep_deck"], record["discard"]]}


@pytest.mark.parametrize("args", [
    ("--players", "3", "--seed", "1"),
    ("--players", "2", "--seed", "11", "--sleep-token", "--shifting-tokens"),
    ("--players", "4", "--seed", "5", "--strategy", "random"),
    ("--players", "1", "--seed", "3", "--strategy", "random", "--sleep-token"),
])
def test_play_json_is_the_record_of_the_narrated_game(args):
    text, data = run("play", *args), run("play", *args, "--json")
    assert text.exit_code == 0 and data.exit_code == 0, (text.output, data.output)
    record = json.loads(data.stdout)
    lines = text.stdout.splitlines()
    players = int(args[1])
    assert record["players"] == players and [s["seat"] for s in record["seats"]] == list(range(players))
    bots = lines[1].removeprefix("Bots: ").split(", ")
    assert bots == [f"seat {s['seat'] + 1} {s['strategy']}" for s in record["seats"]]

    # Cut the narration at its turn headers: set-up, turn 1, turn 2, ..., then the final scores.
    starts = [i for i, line in enumerate(lines) if TURN.match(line)]
    end = lines.index("Final scores (R8.2: chain points - Z cards):")
    blocks = [lines[a:b] for a, b in zip(starts, starts[1:] + [end])]
    assert [(t["turn"], t["seat"] + 1) for t in record["turns"]] == [tuple(map(int, TURN.match(b[0]).groups()))
                                                                     for b in blocks]
    assert as_table(record["setup"]) == table_of(lines[:starts[0]])
    for turn, block in zip(record["turns"], blocks):
        assert as_table(turn["after"]) == table_of(block)  # the table printed after the turn
        buys = [m.groups() for m in map(BUY.match, block) if m]
        assert [(e["seat"] + 1, e["card"], e["position"], e["cost"]) for e in turn["events"] if e["event"] == "buy"] == [
            (int(s), reserved or (None if card == "the face-down card" else card), None if reserved else int(p),
             1 if reserved else int(c)) for s, reserved, card, p, c in buys]
        performs = [m.groups() for m in map(PERFORM.match, block) if m]
        assert [(str(e["seat"] + 1), e["type"], e["card"]) for e in turn["events"] if e["event"] == "perform"] == performs
        # R4.1 asks every turn while the Sleep Deck has cards: a Z card taken is a take_z decision answered true.
        taken = sum(bool(re.match(r"Seat \d takes a Z card", line)) for line in block)
        assert taken == sum(d["choice"] is True for d in turn["decisions"] if d["kind"] == "take_z")
        assert all(d["options"] >= 2 for d in turn["decisions"])  # R11: a single option is no decision

    final = [FINAL.match(line).groups() for line in lines[end + 1:end + 1 + players]]
    assert [(str(s["seat"] + 1), s["strategy"], str(s["score"]), str(s["z"]), str(s["turns"]), s.get("band"))
            for s in record["final"]["seats"]] == final
    winners = re.findall(r"seat (\d)", lines[-1])
    assert lines[-1].startswith("Winner(s): ") and [w + 1 for w in record["final"]["winners"]] == list(map(int, winners))
    assert sum(s["turns"] for s in record["final"]["seats"]) == len(record["turns"])


def test_play_json_of_another_game_agrees_with_its_narration():
    text = run("play", "--game", "pleasant-dreams", "--seed", "3")
    data = run("play", "--game", "pleasant-dreams", "--seed", "3", "--json")
    assert text.exit_code == 0 and data.exit_code == 0, data.output
    record = json.loads(data.stdout)
    assert record["narration"] == text.stdout.splitlines()
    seat, turns = map(int, re.fullmatch(r"seat (\d) wins after (\d+) turns", record["narration"][-1]).groups())
    assert record["result"]["winner"] == seat - 1 and record["result"]["turns"] == turns
    assert [s["win"] for s in record["seats"]] == [1.0 if s["seat"] == seat - 1 else 0.0 for s in record["seats"]]


def test_tune_json_parses(tmp_path):
    out = tmp_path / "w.toml"
    result = run("tune", "--out", str(out), "--players", "2", "--budget", "2", "--games-per-eval", "20",
                 "--field", "greedy", "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["out"] == str(out) and out.exists() and data["evaluations"] >= 1


def test_help_renders_flags_as_flags():
    result = run("simulate", "--help")
    json_line = next(line for line in result.output.splitlines() if "--json" in line)
    assert "<bool>" not in json_line and "--no-progress" in result.output


# ----------------------------------------------------------------------------- compile once


def test_wilson_critical_value_is_scipys():
    from scipy import stats

    from analyses.stats.intervals import Z_95

    assert Z_95 == float(stats.norm.isf((1 - 0.95) / 2))


LOAD = textwrap.dedent("""
    import sys
    from simcore.games.dreamscape.fast.strategies import get_strategy
    from simcore.games.dreamscape.bots.api import load_strategy
    name = load_strategy(sys.argv[1])
    print(get_strategy(name).cache_hits, get_strategy("chain").cache_hits)
""")


def load_in_fresh_process(spec: str, cwd: Path) -> tuple[int, int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", LOAD, spec], cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=600, check=True).stdout
    a, b = out.split()
    return int(a), int(b)


def test_a_strategy_file_compiles_once_per_version(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text("def hoard(kind, seat, features, state):\n    return features[0] + 0.25 * features[1]\n")
    spec = f"{bot}:hoard"
    first, chain = load_in_fresh_process(spec, tmp_path)
    assert first == 0  # compiled: nothing cached yet
    assert chain == 1  # a built-in: loaded from numba's cache, not compiled again
    again, _ = load_in_fresh_process(spec, tmp_path)
    assert again == 1  # the same file in a new process: loaded from the cache
    bot.write_text("def hoard(kind, seat, features, state):\n    return features[0] - 0.5 * features[1]\n")
    os.utime(bot, (bot.stat().st_atime, bot.stat().st_mtime + 5))
    changed, _ = load_in_fresh_process(spec, tmp_path)
    assert changed == 0  # edited: compiled again


def test_compiling_a_user_strategy_is_announced_once_on_stderr(tmp_path):
    bot = tmp_path / "bot2.py"
    bot.write_text("def edge(kind, seat, features, state):\n    return 2.0 * features[0]\n")
    first = dreamscape("simulate", "--players", "2", "--games", "5", "--strategy", f"{bot}:edge", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    lines = first.stderr.decode().splitlines()
    assert [line for line in lines if line.startswith("compiling strategy")] == [lines[0]]
    second = dreamscape("simulate", "--players", "2", "--games", "5", "--strategy", f"{bot}:edge", cwd=tmp_path)
    assert "compiling" not in second.stderr.decode()


@pytest.mark.slow  # an empty numba cache: the plain game loop and the built-in strategies compile, about 1 min on 2 cores
def test_a_cold_cache_says_so_in_one_line_and_its_rate_counts_play_only(tmp_path):
    from analyses.study.warmup import is_compile_line

    result = dreamscape("simulate", "--players", "3", "--games", "1000", "--strategy", "random",
                        env={"NUMBA_CACHE_DIR": str(tmp_path / "numba"), "DREAMSCAPE_SERVER": "off"})
    assert result.returncode == 0, result.stderr
    before, after = result.stderr.decode().splitlines()  # one line before the compile, one with its time
    assert before.startswith("compiling ") and "game loop" in before and "search" not in before
    assert is_compile_line(after) and re.search(r"compiled in \d+ s", after)
    assert any((tmp_path / "numba").iterdir())  # it did compile, into the empty cache
    entries = {p.name.split(".")[1].rsplit("-", 1)[0] for p in (tmp_path / "numba").rglob("batch.*.nbi")}
    assert "run_chunk" in entries and not entries & {"run_chunk_search", "run_chunk_rollout"}  # only what it played
    assert not list((tmp_path / "numba").rglob("isearch.*.nbi"))  # nothing of the search player compiled
    head = result.stdout.decode().splitlines()[0]
    seconds, rate = re.search(r", ([\d.]+) s \(([\d,]+) games/s\)$", head).groups()
    # Compilation takes a minute or more: 1,000 games over it would be under 20 games/s and over 50 s.
    assert float(seconds) < 5 and int(rate.replace(",", "")) > 1000


def test_the_main_study_needs_the_loops_the_warmup_compiles():
    # dev.py's warm-up compiles the main study's game loops and no other: every bot of main.toml runs on one of
    # them, and each of them is used (a search seat needs the search loop, the others the plain one).
    import tomllib

    from analyses.games.dreamscape.warmup import MAIN_LOOPS
    from simcore.games.dreamscape import STUDY_PLANS
    from simcore.games.dreamscape.bots.api import load_strategy
    from simcore.games.dreamscape.fast.batch import chunk_loop
    from simcore.games.dreamscape.fast.runner import strategy_args

    study = tomllib.loads(STUDY_PLANS["main"].read_text())
    bots = set()
    for config in study["configs"]:
        for key in ("strategy", "tournament", "rotate", "strategies"):
            value = config.get(key, [])
            bots.update([value] if isinstance(value, str) else value)
    assert {"expert", "strong", "linear", "greedy", "search:expert@8:late"} <= bots
    loops = {chunk_loop(strategy_args([load_strategy(b)] * 2)[-2], 2) for b in bots}
    assert loops == set(MAIN_LOOPS) == {"plain", "search"}


def test_engine_cache_state_is_read_without_compiling():
    from analyses.games.dreamscape.warmup import engine_compiled, warm_run
    from simcore.games.dreamscape.fast import SimConfig

    warm_run(SimConfig(players=2), ["greedy"])
    assert engine_compiled()


def test_study_json_says_what_it_wrote(tmp_path):
    config = tmp_path / "tiny.toml"
    config.write_text('name = "tiny"\nseed = 3\nchunk_size = 100\n\n[[configs]]\nplayers = 2\ngames = 200\n'
                      'variants = ["base", "sleep-token"]\nstrategy = "greedy"\n')
    out = tmp_path / "study"
    result = run("study", "--config", str(config), "--out", str(out), "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # the banner and timings go to stderr
    assert data["folder"] == str(out) and (out / "manifest.json").is_file()
    assert data["report"] == str(out / "report.pdf") and (out / "report.pdf").is_file()
    assert data["charts"] and all(c.endswith(".png") and (out / "charts").samefile(Path(c).parent) for c in data["charts"])
    again = run("report", str(out), "--pdf", str(tmp_path / "again.pdf"), "--png-dir", str(tmp_path / "png"), "--json")
    assert again.exit_code == 0, again.output
    wrote = json.loads(again.stdout)
    assert wrote["report"] == str(tmp_path / "again.pdf") and (tmp_path / "again.pdf").is_file()
    assert sorted(Path(c).name for c in wrote["charts"]) == sorted(Path(c).name for c in data["charts"])
    assert all(Path(c).parent == tmp_path / "png" and Path(c).is_file() for c in wrote["charts"])


def test_warmup_json_says_how_long_and_whether_it_was_compiled():
    from analyses.games.dreamscape.warmup import engine_compiled, warm_run
    from simcore.games.dreamscape.fast import SimConfig

    warm_run(SimConfig(players=2), ["greedy"])
    assert engine_compiled()
    result = run("warmup", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # its two lines of progress are on stderr
    assert data["already_compiled"] is True and data["seconds"] > 0
    assert "ready in" in result.stderr and "ready in" not in result.stdout


def test_workers_of_a_running_scheduler_are_announced_before_they_load_the_engine(capsys):
    # Their numba cache is their own: a cold one compiles silently for minutes unless the run says so first.
    from analyses.lab.common import forget_notices, warm
    from analyses.games.dreamscape.warmup import WORKER_NOTICE
    from analyses.games import get_game

    forget_notices()  # said at most once per process: a test before may have said it
    warm(get_game("dreamscape"), "dask", "tcp://127.0.0.1:8786")
    captured = capsys.readouterr()
    assert captured.err.strip().endswith(WORKER_NOTICE) and "Dask worker" in WORKER_NOTICE
    assert captured.out == ""


def test_every_other_game_announces_its_compile_in_the_same_two_lines(monkeypatch):
    # Pleasant Dreams, Counting Zzzzs (and any game without a hook of its own): one line before the compile, with
    # the estimate, one after it with the time; the compile is one game played and thrown away, before any timing.
    from analyses.study import warmup
    from analyses.games import get_game

    for name in ("pleasant-dreams", "counting-zzzzs"):
        game = get_game(name)
        played, lines = [], []
        monkeypatch.setattr(warmup, "game_engine_compiled", lambda g: False)
        fake = type("FakeGame", (), {})()
        for attr in ("name", "title", "seat_counts", "default_strategy", "parse_setup", "check_strategy"):
            setattr(fake, attr, getattr(game, attr))
        fake.play_games = lambda setup, seats, seed, first, n, engine: played.append((len(seats), first, n, engine))
        seconds = warmup.ready_game_engine(fake, lines.append)
        assert played == [(max(game.seat_counts), 0, 1, "fast")] and seconds is not None
        title = game.title + ("'" if game.title.endswith("s") else "'s")
        assert lines[0] == f"compiling {title} fast engine once ({warmup.about(warmup.GAME_COMPILE_ESTIMATE_S)} on 2 cores)…"
        assert re.fullmatch(rf"{re.escape(title)} fast engine compiled in \d+ s \(.*\)", lines[1])
        assert all(warmup.is_compile_line(line) for line in lines) and len(lines) == 2
        monkeypatch.setattr(warmup, "game_engine_compiled", lambda g: True)
        assert warmup.ready_game_engine(fake, lines.append) is None and len(lines) == 2  # cached: nothing said


def test_a_loop_compile_is_announced_once_before_and_after(monkeypatch):
    # The engine's notice: a loop that is neither loaded nor cached is compiled on one throw-away game between two
    # lines, once per process; a loaded loop says nothing.
    from simcore.games.dreamscape.fast import SimConfig, runner, simulate

    said = []
    monkeypatch.setattr(runner, "_ANNOUNCED", set())
    runner.set_loop_notice(lambda label, seconds, done: said.append((label, done)))
    try:
        simulate(SimConfig(players=2), 3, 1, "greedy")  # loaded or in the on-disk cache: silent
        assert said == []
        monkeypatch.setattr(runner, "cached_entries", lambda kernel: 0)

        class Cold:  # the plain loop as if never compiled: no signature in this process
            signatures = []

            def __call__(self, *args):
                return runner.run_chunk(*args)

        monkeypatch.setitem(runner.LOOP_KERNELS, "plain", Cold())
        monkeypatch.setattr(runner, "chunk_kernel", lambda modes, n: runner.LOOP_KERNELS["plain"])
        a = simulate(SimConfig(players=2), 3, 1, "greedy")
        b = simulate(SimConfig(players=2), 3, 1, "greedy")
        assert said == [("game loop", False), ("game loop", True)]  # once, before and after
        assert (a.score == b.score).all()  # the throw-away game changed nothing
    finally:
        runner.set_loop_notice(None)
