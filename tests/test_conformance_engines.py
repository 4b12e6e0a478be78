"""`dreamscape conformance --engine`: both engines, the failing engine named, folders searched recursively."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import simcore.games.dreamscape.conformance as conformance
from cli import app
from simcore.games.dreamscape.conformance import failure_reason, scenario_files

HERE = Path(__file__).resolve().parent
OWN = HERE.parent / "simcore" / "games" / "dreamscape" / "scenarios"  # installed with the game package
BASIC = OWN / "t05-nothing-affordable-no-purchase.json"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def lines(result) -> list[str]:
    """The report lines (a cold numba compile may add a warning to the mixed output)."""
    return [ln for ln in result.output.splitlines() if re.match(r"(PASS|FAIL) |\d+ passed, \d+ failed$|\S+: error: ", ln)]


def test_default_plays_both_engines_and_a_fast_only_failure_names_the_fast_engine(monkeypatch):
    calls = []
    real = dict(conformance.PLAYERS)

    def spy(engine):
        def play(state, choices):
            calls.append(engine)
            return real[engine](state, choices)
        return play

    monkeypatch.setitem(conformance.PLAYERS, "reference", spy("reference"))
    monkeypatch.setitem(conformance.PLAYERS, "fast", lambda state, choices: (calls.append("fast"), ("choice 1: broken", None, None))[1])
    result = run("conformance", str(BASIC))
    assert calls == ["reference", "fast"]
    assert result.exit_code == 1
    assert lines(result) == [f"FAIL {BASIC.stem}: fast: choice 1: broken", "0 passed, 1 failed"]


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_one_engine_plays_only_that_engine(monkeypatch, engine):
    other = "fast" if engine == "reference" else "reference"
    monkeypatch.setitem(conformance.PLAYERS, other, lambda state, choices: pytest.fail(f"{other} was played"))
    result = run("conformance", "--engine", engine, str(BASIC))
    assert result.exit_code == 0, result.output
    assert lines(result) == [f"PASS {BASIC.stem}", "1 passed, 0 failed"]


def test_the_same_failure_on_both_engines_is_given_once_with_both_named(tmp_path):
    data = json.loads(BASIC.read_text("utf-8"))
    data["expect"]["active"] = 3
    (tmp_path / "x.json").write_text(json.dumps(data))
    result = run("conformance", str(tmp_path))
    assert result.exit_code == 1
    assert lines(result)[0] == f"FAIL {data['id']}: active: expected 3, got 1 (reference and fast)"


def test_failure_reason_lines():
    both = ("reference", "fast")
    assert failure_reason({}, both) == ""
    assert failure_reason({"fast": "x"}, both) == "fast: x"
    assert failure_reason({"reference": "x", "fast": "y"}, both) == "reference: x; fast: y"
    assert failure_reason({"reference": "x", "fast": "x"}, both) == "x (reference and fast)"
    assert failure_reason({"fast": "x"}, ("fast",)) == "x (fast)"


def test_folders_are_searched_recursively_in_name_order(tmp_path):
    names = ["t05-nothing-affordable-no-purchase", "t06-reserved-this-turn-not-buyable", "t07-floating-free-one-card-stack"]
    (tmp_path / "b" / "deeper").mkdir(parents=True)
    (tmp_path / "a").mkdir()
    shutil.copy(OWN / f"{names[0]}.json", tmp_path / "b" / "deeper" / "z.json")
    shutil.copy(OWN / f"{names[1]}.json", tmp_path / "a" / "y.json")
    shutil.copy(OWN / f"{names[2]}.json", tmp_path / "0.json")
    (tmp_path / "a" / "notes.txt").write_text("not a scenario")
    assert [p.relative_to(tmp_path).as_posix() for p in scenario_files([tmp_path])] == ["0.json", "a/y.json", "b/deeper/z.json"]
    result = run("conformance", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert lines(result) == [f"PASS {names[2]}", f"PASS {names[1]}", f"PASS {names[0]}", "3 passed, 0 failed"]


def test_no_paths_plays_the_games_own_scenarios():
    # as for the other games: the scenarios installed with the package, each once, all passing
    result = run("conformance", "--engine", "reference")
    own = sorted(OWN.rglob("*.json"))
    assert result.exit_code == 0, result.output
    assert lines(result)[-1] == f"{len(own)} passed, 0 failed" and len(own) > 30
    assert sum(ln.startswith("PASS ") for ln in lines(result)) == len(own)


def test_no_scenario_found_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "sub").mkdir()
    result = run("conformance", str(tmp_path))
    assert result.exit_code == 2
    assert [ln.split(": ", 1)[1] for ln in lines(result)] == [f"error: no scenario (*.json) found in {tmp_path}"]


def test_an_unknown_engine_is_one_line_and_exit_2():
    result = run("conformance", "--engine", "quantum", str(BASIC))
    assert result.exit_code == 2
    assert [ln.split(": ", 1)[1] for ln in lines(result)] == [
        "error: --engine must be one of reference, fast, both, got 'quantum'"
    ]


def test_a_malformed_expect_is_reported_even_when_an_engine_fails_first(tmp_path):
    data = json.loads(BASIC.read_text("utf-8"))
    data["choices"] = [{"decision": "buy", "choice": "stop"}]  # would fail on both engines
    data["expect"]["colour"] = "blue"
    (tmp_path / "m.json").write_text(json.dumps(data))
    result = run("conformance", str(tmp_path))
    assert result.exit_code == 2
    assert "malformed scenario: expect.colour is not a field FORMAT.md knows" in result.output
