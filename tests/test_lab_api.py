"""docs/guide/python-api.md's example, run with small game counts: the lab's numbers are the command line's.

Each call of :mod:`analyses.lab` is checked against ``dreamscape ... --json``
with the same arguments (typer's CliRunner, same process), and against what is
known independently of both: a seat's win credits add up to the games played
(R8.3), and a study folder holds the games asked for.
"""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from analyses import lab
from cli import app

runner = CliRunner()


def cli_json(*args) -> dict:
    result = runner.invoke(app, [str(a) for a in args] + ["--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_simulate_is_the_commands_table():
    df = lab.simulate(game="dreamscape", players=3, games=300, seed=1)
    data = cli_json("simulate", "--game", "dreamscape", "--players", "3", "--games", "300", "--seed", "1")
    assert df.height == 3 and df["seat"].to_list() == [0, 1, 2]
    assert df["strategy"].to_list() == [s["strategy"] for s in data["seats"]] == ["expert"] * 3  # the default bot
    for key in ("win_rate", "mean_score", "mean_z", "mean_turns"):
        assert df[key].to_list() == [s[key] for s in data["seats"]]
    assert df["win_low"].to_list() == [s["win_ci"][0] for s in data["seats"]]
    # Win credits of a game add up to 1 unless it was aborted (R8.3, R8.4).
    assert sum(df["win_rate"]) * 300 == pytest.approx(300 - data["aborted"])


def test_compare_is_the_commands_table(tmp_path):
    cmp = lab.compare(game="dreamscape", players=3, variants=["base", "sleep-token"], games=300, seed=1,
                      out=tmp_path / "api", chunk_size=100)
    data = cli_json("compare", "--game", "dreamscape", "--players", "3", "--variant", "base", "--variant",
                    "sleep-token", "--games", "300", "--seed", "1", "--chunk-size", "100", "--out", tmp_path / "cli")
    assert cmp.to_dicts() == data["compare"]
    assert set(cmp["metric"]) == {"seat_spread", "first_seat_win", "winning_score", "game_length"}
    assert set(cmp["variant"]) == {"sleep-token"} and set(cmp["baseline"]) == {"base"}


def test_tournament_of_another_game_is_the_commands_table():
    t = lab.tournament(game="pleasant-dreams", players=2, strategies=["random", "threshold", "search@8"], games=40)
    data = cli_json("tournament", "--game", "pleasant-dreams", "--players", "2", "--strategy", "random",
                    "--strategy", "threshold", "--strategy", "search@8", "--games", "40")
    assert t["standings"].to_dicts() == data["standings"] and t["payoff"].to_dicts() == data["payoff"]
    assert set(t["standings"]["strategy"]) == {"random", "threshold", "search@8"}
    # Three pairs, both seatings, 40 deals each: every strategy plays 2 pairings x 2 seatings x 40 games.
    assert t["standings"]["games"].to_list() == [160, 160, 160]


def test_open_study_reads_back_what_was_played(tmp_path):
    lab.compare(game="dreamscape", players=2, variants=["base", "sleep-token"], games=200, seed=3,
                out=tmp_path / "s", chunk_size=100)
    study = lab.open_study(tmp_path / "s")
    assert study.configs.height == 2 and set(study.configs["variant"]) == {"base", "sleep-token"}
    assert study.seats.height == 4 and set(study.seats["games"]) == {200}
    summary = cli_json("summarize", tmp_path / "s")
    for row in summary["seats"]:
        mine = study.seats.filter((study.seats["variant"] == row["variant"]) & (study.seats["seat"] == row["seat"]))
        assert mine["win_rate"].item() == pytest.approx(row["win_rate"], abs=1e-12)
    assert study.summary["first_seat_win"].to_list() == study.seats.filter(study.seats["seat"] == 0)["win_rate"].to_list()
    assert study.data["kinds"] == summary["kinds"]


def test_the_guides_example_runs_as_written(tmp_path, monkeypatch):
    """docs/guide/python-api.md's code block, with small game counts, in a fresh folder: its numbers are the CLI's."""
    from pathlib import Path

    guide = Path(__file__).resolve().parents[1] / "docs" / "guide" / "python-api.md"
    code = guide.read_text(encoding="utf-8").split("```python\n", 1)[1].split("```", 1)[0]
    code = code.replace("20_000", "200").replace("2_000", "20")
    # The example reads back a study folder: the one its compare just wrote under out/ (its default folder).
    code = code.replace('lab.open_study("out/study")', 'lab.open_study(next(Path("out").iterdir()))')
    monkeypatch.chdir(tmp_path)
    names = {"Path": Path}
    exec(compile(code, str(guide), "exec"), names)  # noqa: S102 - the guide's own example
    df, cmp, t, study = names["df"], names["cmp"], names["t"], names["study"]
    data = cli_json("simulate", "--players", "3", "--games", "200", "--seed", "1")
    assert df["win_rate"].to_list() == [s["win_rate"] for s in data["seats"]]
    assert cmp.to_dicts() == cli_json("summarize", study.folder)["compare"]
    assert study.configs["variant"].to_list() == ["base", "sleep-token"]
    pd = cli_json("tournament", "--game", "pleasant-dreams", "--players", "2", "--strategy", "random", "--strategy",
                  "threshold", "--strategy", "search@8", "--games", "20")
    assert t["standings"].to_dicts() == pd["standings"]
