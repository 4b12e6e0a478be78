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
    assert df.height == 3 and df["seat"].to_list() == [1, 2, 3]  # counted from 1, as the command's table
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2]  # --json keeps the data's indexes
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
        mine = study.seats.filter((study.seats["variant"] == row["variant"]) & (study.seats["seat"] == row["seat"] + 1))
        assert mine["win_rate"].item() == pytest.approx(row["win_rate"], abs=1e-12)
    assert study.summary["first_seat_win"].to_list() == study.seats.filter(study.seats["seat"] == 1)["win_rate"].to_list()
    assert sorted(set(study.seats["seat"])) == [1, 2]
    assert study.data["kinds"] == summary["kinds"]


def page_blocks(page) -> list[str]:
    """Every ```python block of a docs page, in order."""
    text = page.read_text(encoding="utf-8")
    return [part.split("```", 1)[0] for part in text.split("```python\n")[1:]]


def small_games(code: str) -> str:
    """The page's code with small game counts: every ``games=N`` a hundredth of N, at least 20."""
    import re

    return re.sub(r"games=([0-9_]+)", lambda m: f"games={max(20, int(m.group(1).replace('_', '')) // 100)}", code)


def test_the_python_api_page_runs_top_to_bottom(tmp_path, monkeypatch, capsys):
    """docs/guide/python-api.md: every code block, in order, in one namespace and a fresh folder, with small game
    counts, as written otherwise (its ``open_study`` reads the folder its ``compare`` kept); its numbers are the CLI's."""
    from pathlib import Path

    guide = Path(__file__).resolve().parents[1] / "docs" / "guide" / "python-api.md"
    blocks = page_blocks(guide)
    assert len(blocks) >= 4  # the calls, the conventions, the charts, an error
    monkeypatch.chdir(tmp_path)
    names: dict = {}
    for block in blocks:
        exec(compile(small_games(block), str(guide), "exec"), names)  # noqa: S102 - the page's own example
    df, cmp, t, study = names["df"], names["cmp"], names["t"], names["study"]
    data = cli_json("simulate", "--players", "3", "--games", "200", "--seed", "1")
    assert df["win_rate"].to_list() == [s["win_rate"] for s in data["seats"]]
    assert cmp.to_dicts() == cli_json("summarize", "out/sleep-token")["compare"]
    assert study.configs["variant"].to_list() == ["base", "sleep-token"]
    pd = cli_json("tournament", "--game", "pleasant-dreams", "--players", "2", "--strategy", "random", "--strategy",
                  "threshold", "--strategy", "search@8", "--games", "20")
    assert t["standings"].to_dicts() == pd["standings"]
    for png in ("seats", "compare", "tournament"):
        assert (tmp_path / "out" / f"{png}.png").stat().st_size > 0
    assert {"seats", "compare"} <= set(names["figures"])
    assert "players must be 1 to 4, got 9" in capsys.readouterr().out  # the error block's line, in Python's words
