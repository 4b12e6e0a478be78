"""``--game`` on the command line: Pleasant Dreams through simulate, play, conformance, strategies, study,
summarize and report; one-line refusals where a command has no meaning for it; Project Dreamscape unchanged."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from cli import app
from cli_checks import assert_one_line_error
from analyses.games import get_game

runner = CliRunner()
PD = "pleasant-dreams"
SHIPPED_CARDS = Path(__file__).resolve().parents[1] / "simcore" / "games" / "pleasant_dreams" / "cards.toml"


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def pd():
    return get_game(PD)


def test_simulate_json_equals_the_games_played_directly(pd):
    result = run("simulate", "--game", PD, "--variant", "lucid", "-n", "300", "--seed", "4", "--chunk-size", "70",
                 "--strategy", "threshold", "--strategy", "random", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    direct = pd.play_games(pd.setup(2, "lucid"), ["threshold", "random"], 4, 0, 300)
    assert data["players"] == 2 and data["variant"] == "lucid" and data["games"] == 300
    for seat in (0, 1):
        row = data["seats"][seat]
        assert row["win_rate"] == pytest.approx((direct["winner"] == seat).mean())
        assert row["win_ci"][0] < row["win_rate"] < row["win_ci"][1]
    assert data["mean_turns"] == pytest.approx(direct["turns"].mean())


def test_simulate_solo_table_counts_seats_from_one(pd):
    result = run("simulate", "--game", PD, "-p", "1", "--variant", "start=4+actions=1", "-n", "200")
    assert result.exit_code == 0, result.output
    direct = pd.play_games(pd.setup(1, "start=4+actions=1"), ["threshold"], 1, 0, 200)
    line = next(x for x in result.stdout.splitlines() if x.startswith("1 "))
    assert f"{100 * (direct['winner'] == 0).mean():.1f}%" in line


def test_cards_file_changes_the_game(tmp_path):
    text = SHIPPED_CARDS.read_text(encoding="utf-8")
    harsh = tmp_path / "harsh.toml"
    harsh.write_text(text.replace("front = -1", "front = 2"), encoding="utf-8")
    same = run("simulate", "--game", PD, "-n", "400", "--json", "--cards", str(SHIPPED_CARDS))
    default = run("simulate", "--game", PD, "-n", "400", "--json")
    other = run("simulate", "--game", PD, "-n", "400", "--json", "--cards", str(harsh))
    assert same.exit_code == default.exit_code == other.exit_code == 0, other.output
    rates = lambda r: [s["win_rate"] for s in json.loads(r.stdout)["seats"]]  # noqa: E731
    assert rates(same) == rates(default)
    assert json.loads(other.stdout)["mean_turns"] != json.loads(default.stdout)["mean_turns"]


@pytest.mark.parametrize("args, words", [
    (["simulate", "--game", PD, "-p", "3"], ["--players", "1 to 2", "3"]),
    (["simulate", "--game", PD, "--sleep-token"], ["--sleep-token"]),
    (["simulate", "--game", PD, "--variant", "lucid+x"], ["lucid+x"]),
    (["simulate", "--game", PD, "--strategy", "nobody"], ["nobody"]),
    (["simulate", "--game", PD, "--cards", "missing-cards.toml"], ["missing-cards.toml"]),
    (["simulate", "--game", "chess"], ["chess", "dreamscape, pleasant-dreams"]),
    (["play", "--game", PD, "--swap", "FF:ID"], ["--swap"]),
    (["strategies", "--game", "chess"], ["chess"]),
])
def test_bad_input_is_one_line(args, words):
    assert_one_line_error(run(*args), *words)


@pytest.mark.parametrize("command, missing", [
    (["sweep"], "card swaps"), (["solo"], "solo score bands"), (["decks"], "card swaps"), (["tune"], "tuner"),
    (["train"], "trainer"), (["fix-seats"], "rules knobs"),
])
def test_a_command_names_what_pleasant_dreams_lacks(command, missing):
    """Issue #25: a game without what a command needs is one line naming the command and what is missing
    (it was "for Project Dreamscape only", decided by the game's name)."""
    assert_one_line_error(run(*command, "--game", PD), f"dreamscape {command[0]}", "Pleasant Dreams", missing)


def test_compare_plays_pleasant_dreams_declared_variants(pd, tmp_path):
    """Pleasant Dreams declares variants to compare, so compare plays them (it was refused by name)."""
    result = run("compare", "--game", PD, "--variant", "base", "--variant", "lucid", "-n", "120", "--chunk-size", "60",
                 "--out", str(tmp_path / "cmp"), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    direct = pd.play_games(pd.setup(2, "lucid"), ["threshold", "threshold"], 1, 0, 120)
    row = next(r for r in data["first_player"] if r["variant"] == "lucid")
    assert row["rate"] == pytest.approx(float(np.mean(direct["winner"] == 0)))


def test_play_narrates_with_seats_from_one():
    result = run("play", "--game", PD, "--seed", "3", "--strategy", "threshold", "--strategy", "random")
    assert result.exit_code == 0, result.output
    assert "seat 1 (threshold)" in result.stdout and "seat 2 (random)" in result.stdout
    assert "seat 0" not in result.stdout


def test_strategies_lists_the_games_bots(pd):
    result = run("strategies", "--game", PD, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {s["name"] for s in data["strategies"]} == set(pd.strategies()) and data["default"] == "threshold"


def test_conformance_plays_the_games_own_scenarios_by_default(pd):
    files = sorted(pd.scenarios_dir.glob("*.json"))
    result = run("conformance", "--game", PD, "--engine", "both")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == f"{len(files)} passed, 0 failed"


def test_conformance_names_a_failing_scenario(pd, tmp_path):
    source = sorted(pd.scenarios_dir.glob("*.json"))[0]
    data = json.loads(source.read_text(encoding="utf-8"))
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**data, "expect": {"no_such_field": 1}}), encoding="utf-8")
    result = run("conformance", "--game", PD, str(broken), "--engine", "reference")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith("FAIL broken: reference:")


def test_study_summarize_report_of_a_pleasant_dreams_study(tmp_path):
    plan = tmp_path / "mini.toml"
    plan.write_text('game = "pleasant-dreams"\nname = "mini"\ngames = 200\nchunk_size = 100\n'
                    '[[configs]]\nplayers = 2\nvariants = ["base", "lucid"]\nstrategy = "threshold"\n'
                    '[[configs]]\nplayers = 1\nvariants = ["start=4+actions=0", "start=4+actions=1"]\n'
                    'strategy = "threshold"\n', encoding="utf-8")
    out = tmp_path / "study"
    result = run("study", "--config", str(plan), "--out", str(out), "--json")
    assert result.exit_code == 0, result.output
    wrote = json.loads(result.stdout)
    assert Path(wrote["report"]).is_file() and wrote["charts"]
    summary = run("summarize", str(out), "--json", "--game", PD)
    assert summary.exit_code == 0, summary.output
    data = json.loads(summary.stdout)
    assert data["game"] == PD and [r["actions"] for r in data["solo_challenge"]] == [0, 1]
    assert {r["variant"] for r in data["first_player"]} == {"base", "lucid"}
    table = run("summarize", str(out))
    assert "Solo challenge" in table.stdout and "First-player advantage" in table.stdout
    report = run("report", str(out), "--pdf", str(tmp_path / "again.pdf"))
    assert report.exit_code == 0 and (tmp_path / "again.pdf").is_file()
    assert_one_line_error(run("report", str(out), "--game", "dreamscape"), "pleasant-dreams")
    assert_one_line_error(run("study", "--config", str(plan), "--game", "dreamscape", "--out", str(out)),
                          "pleasant-dreams")


def test_simulate_out_writes_a_study_folder_of_the_game(pd, tmp_path):
    result = run("simulate", "--game", PD, "-n", "150", "--chunk-size", "40", "--out", str(tmp_path / "sim"), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    direct = pd.play_games(pd.setup(2, "base"), ["threshold", "threshold"], 1, 0, 150)
    (row,) = data["first_player"]
    assert row["rate"] == pytest.approx(float(np.mean(direct["winner"] == 0)))


def test_exploit_plays_pleasant_dreams_search_player(pd):
    """exploit runs Pleasant Dreams (issue #25): each seat's gain is search@K's win rate minus threshold's on
    the same deals, and equals the games played directly through the interface."""
    result = run("exploit", "--game", PD, "--strategy", "threshold", "--players", "2", "--variant", "base",
                 "-n", "40", "--playouts", "2", "--seed", "3", "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert [r["seat"] for r in rows] == [0, 1]
    setup = pd.setup(2, "base")
    own = pd.play_games(setup, ["threshold", "threshold"], 3, 0, 40)
    for r in rows:
        seats = ["search@2" if s == r["seat"] else "threshold" for s in range(2)]
        mine = pd.play_games(setup, seats, 3, 0, 40)
        assert r["search_win"] == pytest.approx(float(np.mean(mine["winner"] == r["seat"])))
        assert r["gain"] == pytest.approx(r["search_win"] - r["own_win"])
        assert r["own_win"] == pytest.approx(float(np.mean(own["winner"] == r["seat"])))


def test_restrict_plays_pleasant_dreams_actions(pd):
    """restrict runs Pleasant Dreams: one row per action type, and forbidding an action the base game never
    deals (the Lucid Dreams cards) costs exactly nothing."""
    result = run("restrict", "--game", PD, "--players", "2", "-n", "30", "--seed", "2", "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert {r["type"] for r in rows} >= {"barrier", "mirror", "recurring-dreams"}
    never = [r for r in rows if r["type"] in ("mirror", "suppression", "recurring-dreams")]
    assert never and all(r["loss"] == 0.0 for r in never)


def test_bench_times_pleasant_dreams_engines():
    """bench runs Pleasant Dreams: a fast and a reference row for each bot both engines play."""
    result = run("bench", "--game", PD, "--quick", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert {r["engine"] for r in rows} == {"fast", "reference"}
    assert {r["strategy"] for r in rows} == {"random", "threshold"}
    assert all(r["games_per_s"] > 0 for r in rows)
