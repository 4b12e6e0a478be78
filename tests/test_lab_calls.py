"""The Python API in Python's language: errors name the parameter, and a call never returns another call's result.

A lab function called from Python names its parameter in an error (``players must be 1 to 4``); the
command line says the same with its option (``--players must be 1 to 4``). ``lab.compare`` without a
folder plays its own arguments every time: the earlier call's default folder used to hand back a
larger, stale result, or refuse another seed.
"""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from analyses import lab
from cli import app

runner = CliRunner()


def cli_error(*args) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 2, result.output
    return result.output.strip().splitlines()[-1]


@pytest.mark.parametrize("call, python, command, words", [
    (lambda: lab.simulate(game="dreamscape", players=9), "players must be 1 to 4, got 9",
     ["simulate", "--players", "9"], "--players must be 1 to 4, got 9"),
    (lambda: lab.tournament(game="dreamscape", players=1), "a tournament needs players 2 to 4",
     ["tournament", "--players", "1"], "a tournament needs --players 2 to 4"),
    (lambda: lab.exploit(game="dreamscape", players=[1]), "exploit needs players 2 to 4",
     ["exploit", "--strategy", "greedy", "--players", "1"], "exploit needs --players 2 to 4"),
    (lambda: lab.simulate(game="dreamscape", games=10, precision=0.01), "precision, aggregate_only and backend write",
     ["simulate", "--games", "10", "--precision", "0.01"], "--precision, --aggregate-only and --backend write"),
])
def test_an_error_names_the_python_parameter_and_the_command_its_option(call, python, command, words):
    with pytest.raises(ValueError) as caught:
        call()
    assert str(caught.value).startswith(python) and "--" not in str(caught.value)
    assert words in cli_error(*command)


@pytest.mark.parametrize("call, name", [
    (lambda: lab.simulate(game="dreamscape", games=10, cards=3), "cards"),
    (lambda: lab.compare(game="dreamscape", players=3, games=10, out=7), "out"),
    (lambda: lab.exploit(game="dreamscape", players="3"), "players"),
    (lambda: lab.exploit(game="dreamscape", players=[3.0]), "players"),
])
def test_a_wrong_type_is_a_type_error_naming_the_parameter(call, name):
    with pytest.raises(TypeError, match=rf"^{name} must be"):
        call()


def test_one_player_count_is_taken_as_a_list_of_one():
    with pytest.raises(ValueError, match="^restrict needs players 2 to 4"):
        lab.restrict(game="dreamscape", players=1)


def test_compare_called_again_plays_its_own_arguments(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ask = {"game": "dreamscape", "players": 2, "variants": ["base", "sleep-token"], "chunk_size": 50}
    larger = lab.compare(games=200, seed=1, **ask)
    smaller = lab.compare(games=100, seed=1, **ask)
    assert set(larger["games"]) == {200} and set(smaller["games"]) == {100}  # not the earlier, larger result
    other = lab.compare(games=100, seed=2, **ask)  # another seed plays, it is not refused
    assert set(other["games"]) == {100} and other["diff"].to_list() != smaller["diff"].to_list()
    again = lab.compare(games=100, seed=1, **ask)
    assert again.to_dicts() == smaller.to_dicts()  # same arguments, same numbers
    assert not (tmp_path / "out").exists()  # no folder asked for, none left behind
    kept = lab.compare(games=100, seed=1, out=tmp_path / "kept", **ask)
    assert kept.to_dicts() == smaller.to_dicts() and (tmp_path / "kept" / "manifest.json").is_file()


def test_an_unwritable_folder_is_named_by_the_out_parameter(tmp_path):
    taken = tmp_path / "a-file"
    taken.write_text("not a folder")
    with pytest.raises(ValueError) as caught:
        lab.compare(game="dreamscape", players=2, games=10, out=taken / "study")
    assert str(caught.value).startswith(f"out {taken / 'study'}: ") and "--" not in str(caught.value)
    assert f"--out {taken / 'study'}: " in cli_error("compare", "--players", "2", "--games", "10", "--out", taken / "study")
