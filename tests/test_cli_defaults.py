"""Issue #25, "while every command is touched": one default bot, default folders, a full disk, a grouped --help.

Each test fails on the command line before the change: simulate/compare/solo/sweep
played greedy or linear, compare/sweep/solo needed --out, a full disk was a
traceback, and --help listed the commands alphabetically under one game's title.
"""
from __future__ import annotations

import errno
import json
from pathlib import Path

import polars as pl
from typer.testing import CliRunner

import analyses.study.folder as study_folder
from analyses.study.folder import load_manifest
from cli import app
from cli_checks import assert_one_line_error
from analyses.games import get_game

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def ok(*args):
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result


# ----------------------------------------------------------------------------- one default bot


def test_every_command_plays_the_games_default_bot(tmp_path, monkeypatch):
    assert get_game("dreamscape").default_strategy == "expert" and get_game("pleasant-dreams").default_strategy == "threshold"
    table = ok("simulate", "--players", "2", "--games", "30", "--no-progress").stdout.splitlines()
    assert "bot expert" in table[0]  # the header names the bot
    assert [line.split()[1] for line in table[2:4]] == ["expert", "expert"]
    pd_table = ok("simulate", "--game", "pleasant-dreams", "--games", "30").stdout.splitlines()
    assert "bot threshold" in pd_table[0]
    monkeypatch.chdir(tmp_path)
    ok("compare", "--variant", "base", "--variant", "sleep-token", "--players", "2", "--games", "20", "--no-progress",
       "--no-distance")  # the bot is the point; the distance from search is test_whatif's
    ok("solo", "--games", "20", "--no-progress")
    ok("sweep", "--swaps", "none", "--options", "base", "--players", "2", "--games", "20", "--no-progress")
    folders = sorted(p for p in (tmp_path / "out").iterdir())
    assert [p.name.split("-")[0] for p in folders] == ["compare", "solo", "sweep"]
    for folder in folders:
        assert {c.strategies[0] for c in load_manifest(folder).configs} == {"expert"}, folder


# ----------------------------------------------------------------------------- no required --out


def test_compare_without_out_writes_a_named_default_folder_and_resumes_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ("compare", "--variant", "base", "--variant", "shifting-tokens", "--players", "2", "--strategy", "greedy",
            "--games", "60", "--chunk-size", "30", "--json", "--no-progress",
            "--no-distance")  # the folder is the point; the distance from search is test_whatif's
    first = ok(*args)
    folder = Path("out") / "compare-2p-base-vs-shifting-tokens-greedy"
    assert f"writing {folder}" in first.stderr and (tmp_path / folder / "manifest.json").is_file()
    again = ok(*args)  # the same question: the same folder, nothing left to play, the same numbers
    assert json.loads(again.stdout)["compare"] == json.loads(first.stdout)["compare"]
    assert load_manifest(tmp_path / folder).configs[0].strategies == ("greedy", "greedy")


# ----------------------------------------------------------------------------- a full disk


def test_a_full_disk_is_one_line_and_the_same_command_resumes(tmp_path, monkeypatch):
    real = study_folder.write_atomic
    written = {"agg": 0}

    def disk_fills_up(path, data):
        if path.name.startswith("agg-"):
            written["agg"] += 1
            if written["agg"] == 3:  # two chunks are kept, the third finds the disk full
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data)

    args = ["simulate", "--players", "2", "--strategy", "greedy", "--games", "500", "--chunk-size", "100",
            "--seed", "5", "--no-progress", "--json"]
    monkeypatch.setattr(study_folder, "write_atomic", disk_fills_up)
    full = run(*args, "--out", tmp_path / "s")
    assert_one_line_error(full, "disk full", "agg-000000000200.parquet", "bytes", "run the same command again")
    monkeypatch.undo()
    assert len(load_manifest(tmp_path / "s").chunks[load_manifest(tmp_path / "s").configs[0].id]) == 2
    resumed = json.loads(ok(*args, "--out", tmp_path / "s").stdout)
    clean = json.loads(ok(*args, "--out", tmp_path / "clean").stdout)
    assert resumed["seats"] == clean["seats"] and resumed["games"] == clean["games"] == 500
    aggs = [pl.read_parquet(sorted((tmp_path / d / "chunks").rglob("agg-*.parquet"))).sort("seat") for d in ("s", "clean")]
    assert aggs[0].equals(aggs[1])


# ----------------------------------------------------------------------------- a designer's --help


def test_help_lists_commands_in_the_order_of_a_designers_work():
    text = ok("--help").stdout
    assert "Balance lab for tabletop card games" in text and "Project Dreamscape balance lab" not in text
    panels = ["Play and simulate", "Studies and reports", "Bots", "Fixes", "Setup"]
    assert [text.index(p) for p in panels] == sorted(text.index(p) for p in panels)
    order = ["play", "simulate", "compare", "sweep", "solo", "study", "summarize", "report", "strategies",
             "tournament", "exploit", "train", "tune", "restrict", "fix-seats", "decks", "conformance", "warmup",
             "bench", "server"]
    rows = [line.strip("│ ").split(" ")[0] for line in text.splitlines() if line.startswith("│ ")]
    assert [r for r in rows if r in order] == order
    for panel, first in zip(panels, ["play", "study", "strategies", "restrict", "conformance"]):
        after = text[text.index(panel):]
        assert min((after.find(f"│ {c} ") for c in order if after.find(f"│ {c} ") >= 0)) == after.find(f"│ {first} ")
