"""The numbers the docs quote, measured: the runs behind them, how to record them again, and the macros
that write them into the pages.

Why: a number typed into a page goes stale the day the code changes, and a reader who meets two numbers
for one thing stops trusting both. So a guide or game page quotes no number by hand. It shows a command
with what the command printed, or quotes a value of that output, through a macro that reads
``docs/data/runs.json``; tests/test_docs_data.py plays every recorded command again and fails when the
code no longer prints what the page shows (timings aside, which it checks for shape only).

    python docs/data/measured.py record            # record every run again (with the installed dreamscape)
    python docs/data/measured.py record NAME ...   # only these
    python docs/data/measured.py list              # the runs, their commands, which are slow
    python docs/data/measured.py show NAME         # a run as a text block (the README's copies)

Pages use (mkdocs-macros calls :func:`define_env` at build time):

* ``{{ run("NAME") }}``: the command and its output as a ``text`` block;
  ``{{ run("NAME", start="--- Turn 7", lines=18) }}`` shows an excerpt (a line ``...`` marks the cut);
* ``{{ rate("NAME", "seats.0.win_rate") }}``: a rate of the command's ``--json`` object, in %
  (``58.8%``); ``{{ rate_ci("NAME", "seats.0") }}`` with its interval (``58.8% (58.5-59.0%)``);
* ``{{ change_ci("NAME", "comparison.rows.0") }}``: a compare row's paired difference, in points, with its
  interval (``-16.8 (-18.2 to -15.3)``);
* ``{{ value("NAME", "games", "{:,}") }}``: any value of the JSON, formatted;
* ``{{ recorded("NAME") }}``: when, on what and from which commit the run was recorded;
* ``{% for r in rows("NAME", "KEY", field=value, ...) %}`` the rows of a list of the JSON whose fields have
  those values (a value, or a list of allowed values), and ``one(...)`` the one such row; a row's numbers
  are written with ``pct_ci(rate, low, high)`` (``58.8% (58.5-59.0%)``), ``pts_ci(diff, low, high)``
  (``-16.8 (-18.2 to -15.3)`` points), ``mean_ci(mean, low, high)`` and ``pct(rate)``: the game pages'
  tables of a study's findings.

A study's summary is megabytes of JSON; a run's ``keep`` names the parts its pages quote (the rows of a
list whose fields have the given values), and only those are recorded and compared.

Why recorded runs and mkdocs-macros (a well-kept plugin: variables and Python functions in pages) rather
than markdown-exec, which runs a page's code while the site builds: a build that ran these commands would
compile the engine and play games, minutes on two cores and again in every CI run, and the site would show
whatever a loaded machine printed that day. A recording is reviewed in a diff like code, the build stays
a matter of seconds, and the tests still play every command again.

Every run is played in a fresh empty folder (its ``--out`` folders land there) with warm start off;
``files`` are written into that folder first (a deck file the command reads).
"""

import datetime as _dt
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

DATA = Path(__file__).resolve().parent / "runs.json"
ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Run:
    """One command a page shows or quotes.

    ``command``: as a reader types it (``dreamscape ...``). ``json``: also record its ``--json`` object
    (for the values quoted in prose). ``slow``: replayed only under ``pytest -m slow``. ``exit``: the
    exit code the page shows (2 for a bad-input example). ``files``: name -> text, written into the run's
    folder first.
    """

    command: str
    json: bool = False
    slow: bool = False
    exit: int = 0
    files: dict[str, str] = field(default_factory=dict)
    after: str | None = None  # a run played first in the same folder (a report of its folder)
    # the parts of the --json object the pages quote: list key -> {field: value or [values]} its rows match
    # (empty: the whole object); the top level's plain values (seed, games, name...) are always kept
    keep: dict[str, dict] = field(default_factory=dict)


def _one_more_ff_is() -> str:
    """The default deck file with one more FF/IS card (the deck-against-deck example)."""
    text = (ROOT / "simcore/games/dreamscape/data/default_deck.toml").read_text("utf-8")
    return re.sub(r'^"FF/IS" = (\d+)$', lambda m: f'"FF/IS" = {int(m.group(1)) + 1}', text, count=1, flags=re.M)


RUNS: dict[str, Run] = {
    # the designer's first ten minutes (getting-started.md) and the README's tour
    "simulate-3p": Run("dreamscape simulate --players 3 --games 20000 --seed 1", json=True),
    "simulate-2p": Run("dreamscape simulate --players 2 --games 20000 --seed 1", json=True),
    "simulate-4p": Run("dreamscape simulate --players 4 --games 20000 --seed 1", json=True),
    "first-change": Run("dreamscape compare --variant base --variant knob:start-z=0,1,1 --players 3 "
                        "--games 20000 --seed 1 --out first-change/", json=True),
    "first-report": Run("dreamscape report first-change/", after="first-change"),
    # Play and simulate (guide/simulate.md)
    "play-3p": Run("dreamscape play --players 3 --seed 1"),
    "simulate-cz-3p": Run("dreamscape simulate --game counting-zzzzs --players 3 --games 20000 --seed 1", json=True),
    "compare-3p-linear": Run("dreamscape compare --variant base --variant sleep-token --variant shifting-tokens "
                             "--players 3 --strategy linear --games 20000 --seed 1 --out cmp/", json=True),
    "compare-decks": Run("dreamscape compare --deck default.toml --deck one-more-ff-is.toml --players 3 "
                         "--games 20000 --seed 1 --out decks/",
                         files={"default.toml": "@simcore/games/dreamscape/data/default_deck.toml",
                                "one-more-ff-is.toml": "@one-more-ff-is"}),
    # From diagnosis to fix (guide/fixes.md)
    "knob-out-of-range": Run("dreamscape simulate --variant knob:start-z=9", exit=2),
    "knob-wrong-length": Run("dreamscape simulate --players 4 --variant knob:start-z=0,1,1", exit=2),
    "restrict-3p": Run("dreamscape restrict --players 3 --variant base --games 200 --seed 1", json=True, slow=True),
    "fix-seats-3p": Run("dreamscape fix-seats --players 3 --trials 60 --games 1000 --verify 4000 --seed 1 "
                        "--out fix-seats-3p/", json=True, slow=True),
    # Pleasant Dreams (games/pleasant-dreams.md)
    "simulate-pd-lucid": Run("dreamscape simulate --game pleasant-dreams --variant lucid --games 20000 --seed 1",
                             json=True),
    "conformance-pd": Run("dreamscape conformance --game pleasant-dreams", json=True),
    "conformance-cz": Run("dreamscape conformance --game counting-zzzzs", json=True),
    "conformance-ds": Run("dreamscape conformance", json=True),
    # The game pages' findings (games/*.md): each game's quick study (the main study's parts with fewer games;
    # the main study itself takes hours on two cores and is not replayed by a test), then its summary
    "study-ds-quick": Run("dreamscape study --quick --seed 1 --out ds-quick/", slow=True),
    "findings-ds-quick": Run("dreamscape summarize ds-quick/", json=True, slow=True, after="study-ds-quick", keep={
        "seats": {"config": [f"base__{p}p__{bot}" for bot in ("expert", "strong") for p in (2, 3, 4)]},
        "compare": {"strategies": "expert", "baseline": "base", "metric": ["first_seat_win", "seat_spread"],
                    "variant": ["sleep-token", "shifting-tokens", "sleep-token+shifting-tokens"]},
        "sweep": {"strategies": "expert", "options": "base"},
        "solo": {"strategy": "expert", "variant": "base"}}),
    "study-pd-quick": Run("dreamscape study --game pleasant-dreams --quick --seed 1 --out pd-quick/", slow=True),
    "findings-pd-quick": Run("dreamscape summarize pd-quick/", json=True, slow=True, after="study-pd-quick", keep={
        "first_player": {}, "expansion": {}, "action_value": {}, "difficulty": {}, "solo_challenge": {},
        "solo_chosen": {}, "solver": {}}),
    "study-cz-quick": Run("dreamscape study --game counting-zzzzs --quick --seed 1 --out cz-quick/", slow=True),
    "findings-cz-quick": Run("dreamscape summarize cz-quick/", json=True, slow=True, after="study-cz-quick", keep={
        "first_player": {}, "game_shape": {"rulebook": True}, "balance_rule": {}, "action_kinds": {}}),
}


# ----------------------------------------------------------------------------- playing a run


def _file_text(spec: str) -> str:
    if spec == "@one-more-ff-is":
        return _one_more_ff_is()
    if spec.startswith("@"):
        return (ROOT / spec[1:]).read_text("utf-8")
    return spec


@dataclass
class Played:
    exit: int
    stdout: str
    stderr: str


def play(run: Run, folder: Path, as_json: bool = False, prepared: bool = False) -> Played:
    """Run ``run``'s command (with ``--json`` when asked) in ``folder``, warm start off, no progress bars.

    In this process, through typer's test runner, so a test that replays many runs loads the compiled
    engine once; the folder's path is cut from the output (it is another temporary folder each time).
    ``prepared``: the folder already holds what ``run.after`` writes.
    """
    from typer.testing import CliRunner

    from cli import app

    os.environ["DREAMSCAPE_SERVER"] = "off"
    for name, spec in run.files.items():
        (folder / name).write_text(_file_text(spec), encoding="utf-8")
    if run.after is not None and not as_json and not prepared:
        before = play(RUNS[run.after], folder)
        if before.exit != 0:
            raise RuntimeError(f"{run.after} (played before {run.command!r}) failed: {before.stderr}")
    argv = shlex.split(run.command)
    assert argv[0] == "dreamscape", run.command
    argv = argv[1:] + (["--json"] if as_json else [])
    here, outer_argv = Path.cwd(), sys.argv
    os.chdir(folder)
    sys.argv = ["dreamscape", *argv]  # a study folder's manifest records the command that wrote it
    try:
        result = CliRunner().invoke(app, argv, env={"COLUMNS": "200", "DREAMSCAPE_SERVER": "off"}, prog_name="dreamscape")
    finally:
        os.chdir(here)
        sys.argv = outer_argv
    cut = lambda text: (text.replace(f"{folder.resolve()}/", "").replace(f"{folder}/", "")  # noqa: E731
                        .replace(f"{ROOT}/", ""))
    return Played(result.exit_code, cut(result.stdout), cut(result.stderr))


# What changes from run to run although the numbers do not: timings and speeds. Masked before comparing.
TIMING = [
    (re.compile(r"\b\d+(?:\.\d+)? s\b"), "N s"),
    (re.compile(r"\(\d[\d,]* games/s\)"), "(N games/s)"),
    (re.compile(r"\b\d+(?:\.\d+)? min \d+ s\b"), "N s"),
    (re.compile(r"\bin \d+(?:\.\d+)?s\b"), "in N s"),
]
TIMING_KEYS = {"seconds", "games_per_s", "elapsed", "time", "wall_seconds", "simulation_seconds",
               "report_seconds", "compile_seconds"}


def mask_timings(text: str) -> str:
    for pattern, replacement in TIMING:
        text = pattern.sub(replacement, text)
    return text


def cut_paths(data):
    """The JSON object with this checkout's folder cut from every path in it (a scenario's file): what is
    recorded and compared does not depend on where the repository lies."""
    if isinstance(data, dict):
        return {k: cut_paths(v) for k, v in data.items()}
    if isinstance(data, list):
        return [cut_paths(v) for v in data]
    if isinstance(data, str):
        return data.replace(f"{ROOT}/", "")
    return data


def _matches(row: dict, where: dict) -> bool:
    return all(row.get(f) in v if isinstance(v, list) else row.get(f) == v for f, v in where.items())


def quoted(run: Run, data):
    """The parts of a run's JSON object its pages quote (``run.keep``; the whole object when it keeps all)."""
    if not run.keep:
        return data
    out = {k: v for k, v in data.items() if not isinstance(v, (list, dict))}
    for key, where in run.keep.items():
        out[key] = [row for row in data[key] if _matches(row, where)]
    return out


def drop_timings(data):
    """The JSON object without its timing fields (any key naming seconds or a speed)."""
    if isinstance(data, dict):
        return {k: drop_timings(v) for k, v in data.items()
                if k not in TIMING_KEYS and not k.endswith(("_seconds", "_s", "seconds"))}
    if isinstance(data, list):
        return [drop_timings(v) for v in data]
    return data


def record(names: list[str] | None = None) -> dict:
    """Play the runs (all, or ``names``) and write them into runs.json beside the ones kept."""
    records = load()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    played: dict[str, Path] = {}  # run -> its folder in this call: a run played after it starts from a copy
    scratch = tempfile.TemporaryDirectory()  # every run's folder, until the call has recorded them all
    for name in names or list(RUNS):
        run = RUNS[name]
        tmp = Path(scratch.name) / name
        tmp.mkdir()
        before = played.get(run.after) if run.after else None
        if before is not None:
            shutil.copytree(before, tmp, dirs_exist_ok=True)
        played[name] = tmp
        text = play(run, tmp, prepared=before is not None)
        rec = {"command": run.command, "exit": text.exit, "stdout": text.stdout,
               "stderr": text.stderr if run.exit else "",
               "recorded": _dt.date.today().isoformat(), "commit": commit,
               "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
                          f"load average {os.getloadavg()[0]:.0f}"}
        if text.exit != run.exit:
            raise SystemExit(f"{name}: exit {text.exit}, expected {run.exit}\n{text.stderr}{text.stdout}")
        if run.json:
            out = play(run, Path(tmp), as_json=True)
            if out.exit != 0:
                raise SystemExit(f"{name} --json: exit {out.exit}\n{out.stderr}")
            rec["json"] = quoted(run, cut_paths(json.loads(out.stdout)))
        records[name] = rec
        print(f"recorded {name}", file=sys.stderr)
    scratch.cleanup()
    records = {k: records[k] for k in RUNS if k in records}
    DATA.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return records


def load() -> dict:
    return json.loads(DATA.read_text("utf-8")) if DATA.exists() else {}


# ----------------------------------------------------------------------------- the macros


def _get(data, path: str):
    for part in path.split(".") if path else []:
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def _record(name: str) -> dict:
    records = load()
    if name not in records:
        raise KeyError(f"docs/data/runs.json has no run {name!r}: add it to RUNS and record it")
    return records[name]


def run_block(name: str, start: str | None = None, lines: int | None = None) -> str:
    """The command and what it printed, as a ``text`` block (an excerpt from ``start`` when given)."""
    rec = _record(name)
    out = rec["stdout"] if rec["exit"] == 0 else rec["stderr"]
    body = out.rstrip("\n").splitlines()
    if start is not None:
        first = next(i for i, line in enumerate(body) if line.startswith(start))
        body = body[first:]
    if lines is not None and len(body) > lines:
        body = body[:lines] + ["..."]
    command = rec["command"]
    return "```text\n$ " + command + "\n" + "\n".join(body) + "\n```"


def rate(name: str, path: str, digits: int = 1) -> str:
    return f"{100 * _get(_record(name)['json'], path):.{digits}f}%"


def rate_ci(name: str, path: str, key: str = "win_rate", digits: int = 1) -> str:
    """A seat's win rate with its 95% Wilson interval, written as every table writes it (the lab's own
    functions: analyses/stats/intervals.py, reports/numbers.py)."""
    from analyses.stats.intervals import wilson
    from reports.numbers import rate_with_interval

    data = _record(name)["json"]
    row, games = _get(data, path), data["games"]
    estimate = wilson(row[key] * games, games)
    return rate_with_interval(row[key], estimate.low, estimate.high, digits)


def change_ci(name: str, path: str, digits: int = 1) -> str:
    """A paired difference of rates (a compare row: ``diff``, ``diff_low``, ``diff_high``) in percentage
    points with its interval, as the compare table writes it: ``-16.8 (-18.2 to -15.3)``."""
    from reports.numbers import change_with_interval

    row = _get(_record(name)["json"], path)
    return change_with_interval(row["diff"], row["diff_low"], row["diff_high"], digits)


def value(name: str, path: str, fmt: str = "{}") -> str:
    return fmt.format(_get(_record(name)["json"], path))


def recorded(name: str) -> str:
    rec = _record(name)
    return f"recorded {rec['recorded']} at commit {rec['commit']} ({rec['machine']})"


def rows(name: str, key: str, **where) -> list[dict]:
    """The rows of the list ``key`` of a run's JSON whose fields have the given values (a list: any of them)."""
    found = [row for row in _record(name)["json"][key] if _matches(row, where)]
    if not found:
        raise KeyError(f"{name}: no row of {key} with {where}")
    return found


def one(name: str, key: str, **where) -> dict:
    """The one row of :func:`rows`; KeyError when there are none or several."""
    found = rows(name, key, **where)
    if len(found) != 1:
        raise KeyError(f"{name}: {len(found)} rows of {key} with {where}, not one")
    return found[0]


def pct(rate: float, digits: int = 1) -> str:
    return f"{100 * rate:.{digits}f}%"


def pct_ci(rate: float, low: float, high: float, digits: int = 1) -> str:
    """A rate with its interval, as every table writes it (``58.8% (58.5-59.0%)``)."""
    from reports.numbers import rate_with_interval

    return rate_with_interval(rate, low, high, digits)


def pts_ci(diff: float, low: float, high: float, digits: int = 1) -> str:
    """A change of rates in percentage points with its interval (``-16.8 (-18.2 to -15.3)``)."""
    from reports.numbers import change_with_interval

    return change_with_interval(diff, low, high, digits)


def mean_ci(mean: float, low: float, high: float, digits: int = 1) -> str:
    """A mean with its interval (``11.5 (10.2-12.8)``)."""
    from reports.numbers import mean_with_interval

    return mean_with_interval(mean, low, high, digits)


def define_env(env) -> None:
    """mkdocs-macros: the macros above, for every page."""
    for function in (rate, rate_ci, change_ci, value, recorded, rows, one, pct, pct_ci, pts_ci, mean_ci):
        env.macro(function)
    env.macro(run_block, "run")


def main(argv: list[str]) -> int:
    if argv[:1] == ["record"]:
        unknown = [n for n in argv[1:] if n not in RUNS]
        if unknown:
            print(f"unknown run(s): {', '.join(unknown)}; known: {', '.join(RUNS)}", file=sys.stderr)
            return 2
        record(argv[1:] or None)
        return 0
    if argv[:1] == ["show"] and len(argv) == 2 and argv[1] in RUNS:  # the block to paste into the README
        print(run_block(argv[1]))
        return 0
    if argv[:1] == ["list"]:
        for name, run in RUNS.items():
            print(f"{name:20} {'slow ' if run.slow else ''}{run.command}")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
