"""``--game counting-zzzzs`` on the command line: simulate (and --cards), conformance on both engines (the broken
copies fail), play, and bad card files as one line with exit 2."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from cli_checks import assert_one_line_error
from simcore.games.counting_zzzzs import SCENARIOS_DIR
from analyses.games import get_game

runner = CliRunner()
CZ = "counting-zzzzs"
SHIPPED = SCENARIOS_DIR.parent / "cards.toml"
BROKEN = Path(__file__).resolve().parent / "cz_broken"


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_simulate_json_equals_the_games_played_directly():
    game = get_game(CZ)
    result = run("simulate", "--game", CZ, "-p", "3", "-n", "300", "--seed", "4", "--chunk-size", "70", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    direct = game.play_games(game.setup(3, "base"), ["greedy"] * 3, 4, 0, 300)
    wins = game.seat_wins(direct, game.setup(3, "base")).mean(axis=0)
    assert data["players"] == 3 and data["variant"] == "base" and data["games"] == 300
    for seat in range(3):
        assert data["seats"][seat]["win_rate"] == pytest.approx(wins[seat])
    assert data["mean_turns"] == pytest.approx(direct["turns"].mean())


def test_cards_file_changes_the_game(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text(SHIPPED.read_text(encoding="utf-8").replace('value = "neutral"', "value = 3"), encoding="utf-8")
    same = run("simulate", "--game", CZ, "-n", "200", "--json", "--cards", SHIPPED)
    default = run("simulate", "--game", CZ, "-n", "200", "--json")
    other = run("simulate", "--game", CZ, "-n", "200", "--json", "--cards", mine)
    assert same.exit_code == default.exit_code == other.exit_code == 0, other.output
    assert json.loads(same.stdout)["seats"] == json.loads(default.stdout)["seats"]
    assert json.loads(other.stdout)["seats"] != json.loads(default.stdout)["seats"]


def test_conformance_both_engines_passes_and_broken_copies_fail():
    good = run("conformance", "--game", CZ, "--engine", "both")
    assert good.exit_code == 0, good.output
    assert good.output.strip().splitlines()[-1] == f"{len(list(SCENARIOS_DIR.glob('*.json')))} passed, 0 failed"
    bad = run("conformance", "--game", CZ, "--engine", "both", "--json", BROKEN)
    assert bad.exit_code == 1
    data = json.loads(bad.stdout)
    assert data["passed"] == 0 and data["failed"] == len(list(BROKEN.glob("*.json")))
    assert all("reference:" in row["reason"] and "fast:" in row["reason"] for row in data["scenarios"])


def test_play_narrates_a_game():
    result = run("play", "--game", CZ, "-p", "2", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "seat 1" in result.output and ("morning" in result.output or "40 points" in result.output)


@pytest.mark.parametrize("old, new, words", [
    ('themes = ["domestic", "fantasy"]', 'themes = ["domestic", "horror"]', ["'Mom'", "themes", "'horror'"]),
    ('wakes = "one opponent"', 'wakes = "the street"', ["'Garbage Truck'", "wakes", "'the street'"]),
    ('value = "+1/-2"', 'value = "+1/-x"', ["'Stranger'", "value"]),
    ('"+2 with Cooking"', '"+2 with Baking"', ["'Mom'", "modifiers", "'Baking'"]),
])
def test_bad_card_files_are_one_line_exit_2(tmp_path, old, new, words):
    text = SHIPPED.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert_one_line_error(run("simulate", "--game", CZ, "-n", "10", "--cards", bad), *words)


@pytest.mark.parametrize("args, words", [
    (["simulate", "--game", CZ, "-p", "5"], ["2 to 4", "5"]),
    (["simulate", "--game", CZ, "--variant", "remove=x"], ["remove=x"]),
    (["simulate", "--game", CZ, "--variant", "knob:goal=1"], ["goal", "5..200"]),
    (["simulate", "--game", CZ, "--variant", "knob:hands=6"], ["unknown knob", "'hands'"]),
    (["simulate", "--game", CZ, "--variant", "knob:remove=3+remove=2"], ["knob:remove", "remove=N", "same number"]),
    (["compare", "--game", CZ, "-n", "10", "--variant", "base", "--variant", "knob:max-dream=3"], ["min-dream 5", "max-dream 3"]),
    (["simulate", "--game", CZ, "--strategy", "search@0"], ["search@0"]),
    (["simulate", "--game", CZ, "--cards", "missing-cards.toml"], ["missing-cards.toml"]),
])
def test_bad_input_is_one_line(args, words):
    assert_one_line_error(run(*args), *words)
