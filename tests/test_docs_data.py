"""The docs' measured runs (docs/data/runs.json) are what the code prints today.

Every page number of the guides and game pages comes from a recorded run (docs/data/measured.py): a
command, what it printed and its ``--json`` object. Here each run is played again, with the same
arguments and seed, and its output must be the recorded one line for line, timings masked (the only
part of an output that differs between two runs of the same seed). A change of the code that moves a
number fails here, and ``python docs/data/measured.py record NAME`` records it again.

The default run replays every run marked fast, in this process (the engine is loaded once); the slow
ones (restricted play, fix-seats) and the ``--json`` objects are replayed under ``-m slow``. The JSON
objects, which the prose quotes, are recorded in the same call as the text, and
:func:`test_the_quoted_json_is_the_printed_table` checks that the rates quoted from them are the rates
the recorded table prints.
"""
from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("docs_measured", ROOT / "docs" / "data" / "measured.py")
measured = importlib.util.module_from_spec(spec)
sys.modules["docs_measured"] = measured
spec.loader.exec_module(measured)

RECORDS = measured.load()
FAST = [name for name, run in measured.RUNS.items() if not run.slow]
SLOW = [name for name, run in measured.RUNS.items() if run.slow]


def test_every_run_is_recorded():
    missing = [name for name in measured.RUNS if name not in RECORDS]
    assert not missing, f"record them: python docs/data/measured.py record {' '.join(missing)}"
    for name, run in measured.RUNS.items():
        assert RECORDS[name]["command"] == run.command, f"{name}: the command changed since it was recorded"


REPLAYED: dict[str, Path] = {}  # run -> the folder it was replayed in, for a run played after it


def check_replay(name: str, tmp_path: Path, with_json: bool) -> None:
    run, rec = measured.RUNS[name], RECORDS[name]
    before = REPLAYED.get(run.after) if run.after else None
    if before is not None:  # the report of a folder replayed a moment ago: a copy of it, not a second play
        for item in before.iterdir():
            shutil.copytree(item, tmp_path / item.name) if item.is_dir() else shutil.copy(item, tmp_path)
    now = measured.play(run, tmp_path, prepared=before is not None)
    REPLAYED[name] = tmp_path
    assert now.exit == rec["exit"] == run.exit, now.stderr
    if run.exit:
        assert now.stderr == rec["stderr"], f"{name}: the error line changed"
        return
    assert measured.mask_timings(now.stdout) == measured.mask_timings(rec["stdout"]), (
        f"{name} prints other numbers than the docs show: python docs/data/measured.py record {name}")
    if with_json and run.json:
        data = measured.play(run, tmp_path, as_json=True)
        import json

        now_json = measured.quoted(run, measured.cut_paths(json.loads(data.stdout)))
        assert measured.drop_timings(now_json) == measured.drop_timings(rec["json"])


@pytest.mark.parametrize("name", FAST)
def test_a_recorded_run_prints_the_same_today(name, tmp_path):
    check_replay(name, tmp_path, with_json=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW + [n for n in FAST if measured.RUNS[n].json])
def test_a_slow_run_and_its_json_the_same_today(name, tmp_path):
    check_replay(name, tmp_path, with_json=True)


def test_the_quoted_json_is_the_printed_table():
    """Each seat's rate with its interval, as the prose quotes it from the JSON, is in the printed table."""
    checked = 0
    for name, rec in RECORDS.items():
        for seat in rec.get("json", {}).get("seats", []) if rec["command"].startswith("dreamscape simulate") else []:
            written = measured.rate_ci(name, f"seats.{seat['seat']}")
            assert f"{100 * seat['win_rate']:.1f}% (" in written
            assert written in rec["stdout"], (name, written)
            checked += 1
    assert checked >= 9


def test_timings_are_masked_and_nothing_else():
    line = "Project Dreamscape: 3 players, ..., 20,000 games, seed 1, 6.24 s (32,049 games/s)"
    assert measured.mask_timings(line) == "Project Dreamscape: 3 players, ..., 20,000 games, seed 1, N s (N games/s)"
    assert measured.mask_timings("1    expert          58.8% (58.5-59.0%)   8.82") == (
        "1    expert          58.8% (58.5-59.0%)   8.82")


def test_what_the_pages_say_about_the_recorded_runs_holds():
    """The words around the quoted numbers: getting-started.md reads the first question as "seat 1 wins more
    than its fair share, and the interval does not come near it", and the first change as "it overshoots:
    seat 1 ends below the fair share"."""
    seat1 = RECORDS["simulate-3p"]["json"]["seats"][0]["win_rate"]
    low = float(measured.rate_ci("simulate-3p", "seats.0").split("(")[1].split("-")[0]) / 100
    assert low > 1 / 3 + 0.05 and seat1 > low
    rows = {row["metric"]: row for row in RECORDS["first-change"]["json"]["comparison"]["rows"]}
    first = rows["first_seat_win"]
    assert first["baseline_value"] > 1 / 3 > first["diff_high"] + first["baseline_value"]  # the whole interval below
    assert rows["seat_spread"]["diff_high"] < 0  # the spread narrows


def test_the_game_pages_findings_agree_across_the_summarys_tables():
    """The game pages quote each game's quick study (docs/games/*.md, runs findings-*-quick). One number read from
    two tables of the summary, computed by two code paths, must be the same: seat 1's win rate of the printed 2-,
    3- and 4-player games under expert in the seat table, the swap sweep's no-swap row and the baseline of every
    rules-option comparison; Pleasant Dreams' seat 1 rate in its first-player table and its Lucid Dreams
    comparison; Counting Zzzzs' fair share is 1/players and its advantage is seat 1's rate minus it."""
    ds = RECORDS["findings-ds-quick"]["json"]
    for players in (2, 3, 4):
        seat = next(r for r in ds["seats"] if r["config"] == f"base__{players}p__expert" and r["seat"] == 0)
        no_swap = next(r for r in ds["sweep"] if r["players"] == players and r["swaps"] == "none")
        assert no_swap["first_seat_win"] == pytest.approx(seat["win_rate"], abs=1e-12)
        options = [r for r in ds["compare"] if r["players"] == players and r["metric"] == "first_seat_win"]
        assert len(options) == 3 and all(r["baseline_value"] == pytest.approx(seat["win_rate"], abs=1e-12)
                                          for r in options)
    assert sum(r["count"] for r in ds["solo"]) == ds["solo"][0]["games"]  # every solo game lands in one band (R10.5)
    pd = RECORDS["findings-pd-quick"]["json"]
    for row in pd["expansion"]:
        base = next(r for r in pd["first_player"] if r["variant"] == "base" and r["strategy"] == row["strategy"])
        lucid = next(r for r in pd["first_player"] if r["variant"] == "lucid" and r["strategy"] == row["strategy"])
        assert (row["base_rate"], row["lucid_rate"]) == pytest.approx((base["rate"], lucid["rate"]), abs=1e-12)
    cz = RECORDS["findings-cz-quick"]["json"]
    for row in cz["first_player"]:
        assert row["fair"] == pytest.approx(1 / row["players"])
        assert row["advantage"] == pytest.approx(row["seat1_win"] - row["fair"], abs=1e-12)
