"""Stored playthroughs (tests/playthroughs/*.json) replayed on both engines.

Each file is a whole seeded game: configuration, every asked decision (kind,
seat, options, chosen option) and the final position. The fast engine must
play the same game with the same bots; the reference engine must ask the
same decisions when given the stored choices (and, for random/greedy tables,
choose the same with its own bots) and reach the same final position. A
failure names the engine and the first difference. Regenerating the files:
see the docstring of tests/playthroughs/regenerate.py (only after a
deliberate, reviewed change of rules, stream or bots).
"""
from __future__ import annotations

import copy
import importlib.util
import json

import pytest

from playthrough_lib import FOLDER, check, dumps, files

FILES = files()


def _regenerate_module():
    spec = importlib.util.spec_from_file_location("regenerate", FOLDER / "regenerate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_configured_playthrough_is_stored():
    stored = {p.stem for p in FILES}
    assert stored == set(_regenerate_module().PLAYTHROUGHS), "run tests/playthroughs/regenerate.py (see its docstring)"


def test_playthroughs_cover_seats_options_swaps_and_bots():
    configs = [json.loads(p.read_text("utf-8"))["config"] for p in FILES]
    assert {c["players"] for c in configs} == {1, 2, 3, 4}
    assert {(c["options"]["sleep_token"], c["options"]["shifting_tokens"]) for c in configs} == {
        (False, False), (True, False), (False, True), (True, True)
    }
    assert any(c["deck"] for c in configs)
    bots = {b for c in configs for b in c["bots"]}
    assert bots >= {"random", "greedy", "chain", "economist", "spoiler", "linear", "rollout"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_playthrough_replays_on_both_engines(path):
    play = json.loads(path.read_text("utf-8"))
    assert play["decisions"], "a playthrough lists its decisions"
    assert play["final"]["game_over"] is True
    assert dumps(play) == path.read_text("utf-8"), "the file is in the writer's format (regenerate.py)"
    problems = check(play)
    assert not problems, "\n".join(problems)


def test_a_changed_decision_or_position_is_named():
    """The check is not vacuous: an edited choice, option list or final score is reported with its place."""
    play = json.loads(FILES[0].read_text("utf-8"))
    edited = copy.deepcopy(play)
    edited["final"]["seats"][0]["score"] += 1
    assert any(p.startswith("fast: final.seats[0].score") for p in check(edited))
    edited = copy.deepcopy(play)
    edited["decisions"][2][2] = edited["decisions"][2][2][:-1]
    problems = check(edited)
    assert any(p.startswith("fast: decision 2: value") or p.startswith("fast: decision 2[2]") for p in problems), problems
