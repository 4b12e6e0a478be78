"""Conformance scenarios (shared/conformance/FORMAT.md) played on both engines.

Every file of ../shared/conformance (the 18 shared scenarios, which CI always
has) and every file of simcore/games/dreamscape/scenarios (this project's own, one rule point
each) is one test per engine (reference, fast), named by its scenario id.
The fast engine loads the same setup and answers the same scripted choices
(simcore.games.dreamscape.fast.scenario); its position is checked by the same compare_expect.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from simcore.games.dreamscape.conformance import ENGINES, run_scenario_data, run_scenario_file

HERE = Path(__file__).resolve().parent


def _shared_root() -> Path:
    """The project's sibling folder ``shared`` (../shared of the checkout; a git worktree may sit deeper)."""
    for parent in HERE.parents[1:]:
        if (parent / "shared" / "conformance").is_dir():
            return parent / "shared"
    return HERE.parents[1] / "shared"  # missing: the presence tests below fail and say where


SHARED = _shared_root() / "conformance"
OWN = HERE.parent / "simcore" / "games" / "dreamscape" / "scenarios"  # installed with the game package
RULES = _shared_root() / "rules" / "interpretations.md"


def _rule_ids() -> set[str]:
    text = RULES.read_text("utf-8")  # CI always has it: a missing file fails the test
    return set(re.findall(r"^(?:## )?(R\d+(?:\.\d+)?)\b", text, re.M))


def _files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix == ".json" and p.is_file())


def _id(path: Path) -> str:
    try:
        data = json.loads(path.read_text("utf-8"))
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            return f"{path.parent.name}/{data['id']}"
    except (OSError, ValueError):
        pass
    return f"{path.parent.name}/{path.stem}"


# A missing folder must FAIL, not skip: the placeholder path makes the parametrized test fail.
SHARED_FILES = _files(SHARED) or [SHARED / "MISSING-shared-conformance-folder.json"]
OWN_FILES = _files(OWN) or [OWN / "MISSING-own-scenarios.json"]


def test_shared_conformance_folder_is_present():
    """CI always has ../shared/conformance with its 18 scenarios: a missing folder fails."""
    assert SHARED.is_dir(), f"shared conformance folder missing: {SHARED}"
    assert len(_files(SHARED)) >= 18, f"expected the 18 shared scenarios in {SHARED}, found {len(_files(SHARED))}"


def test_own_scenarios_are_present():
    assert len(_files(OWN)) >= 30, f"expected this project's scenarios in {OWN}"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("path", SHARED_FILES, ids=[_id(p) for p in SHARED_FILES])
def test_shared_scenario(path: Path, engine: str):
    assert path.is_file(), f"missing: {path}"
    result = run_scenario_file(path, engine)
    assert result.passed, f"{path.name} on {engine}: {result.reason}"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("path", OWN_FILES, ids=[_id(p) for p in OWN_FILES])
def test_own_scenario(path: Path, engine: str):
    assert path.is_file(), f"missing: {path}"
    result = run_scenario_file(path, engine)
    assert result.passed, f"{path.name} on {engine}: {result.reason}"


# ----------------------------------------------------------------------------- the checker on each engine
# A scenario the engines must FAIL: each engine's scripted play is not vacuous.

BASIC = SHARED / "04-basic-turn.json"  # take_z, two refused buys, buy 2, PR, buy 1, refused CD, FF, PR


def _basic() -> dict:
    return json.loads(BASIC.read_text("utf-8"))


@pytest.mark.parametrize("engine", ENGINES)
def test_an_accepted_illegal_choice_fails_on_each_engine(engine):
    data = _basic()
    data["choices"][3]["illegal"] = True  # buying position 2 for 2 with 2 Z cards is legal (R5.1)
    assert run_scenario_data(data, engine) == (False, 'choice 4: illegal buy {"position": 2} was accepted')


@pytest.mark.parametrize("engine", ENGINES)
def test_a_refused_choice_names_the_legal_ones_on_each_engine(engine):
    data = _basic()
    data["choices"][3]["choice"] = {"position": 5}  # costs 5, the seat has 2 Z cards
    assert run_scenario_data(data, engine) == (
        False, 'choice 4: buy {"position": 5} was refused (legal: {"position": 1}, {"position": 2})'
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_a_wrong_decision_kind_fails_on_each_engine(engine):
    data = _basic()
    data["choices"][0]["decision"] = "buy"  # the first decision is take_z (R4.1)
    passed, reason = run_scenario_data(data, engine)
    # seats counted from 1 in every message a person reads (seat 1 plays first)
    assert not passed and reason.startswith("choice 1: pending decision is take_z (seat 1), the scenario answers buy")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_wrong_expectation_fails_on_each_engine(engine):
    data = _basic()
    data["expect"]["seats"][0]["z"] = 5  # R6.5: 4 Z cards
    assert run_scenario_data(data, engine) == (False, "seats[0].z: expected 5, got 4")


@pytest.mark.parametrize("engine", ENGINES)
def test_choices_after_the_game_end_fail_but_refused_ones_pass(engine):
    path = OWN / "t22-game-end-one-card-short.json"
    data = json.loads(path.read_text("utf-8"))
    assert data["expect"].get("game_over") is True
    extra = dict(data, choices=data["choices"] + [{"decision": "take_z", "choice": True, "illegal": True}])
    assert run_scenario_data(extra, engine) == (True, "")
    extra = dict(data, choices=data["choices"] + [{"decision": "take_z", "choice": True}])
    n = len(extra["choices"])
    assert run_scenario_data(extra, engine) == (False, f"choice {n}: the game is over, but the scenario answers take_z")


@pytest.mark.parametrize("engine", ENGINES)
def test_shifting_dreams_accepts_any_order_of_empty_positions(engine):
    """FORMAT.md: any of the 120 orders is legal; orders moving only empty positions differently are one outcome."""
    data = json.loads((SHARED / "11-shifting-dreams-rearrange.json").read_text("utf-8"))
    data["setup"]["dreamscape"][1] = None  # position 2 empty; buying position 1 empties it too
    data["choices"] = [
        {"decision": "take_z", "choice": False},
        # the only affordable purchase (position 1 for 1, R11) is not asked
        {"decision": "perform", "choice": "SD"},
        # positions 1 and 2 take each other's (empty) content: the engines list this outcome as [1, 2, 5, 3, 4]
        {"decision": "shifting_dreams", "choice": [2, 1, 5, 3, 4]},
    ]
    # Nothing costs 1 any more (budget 1): the turn ends; R7.1 slides LD/CD, NT/LD, PR/RD to
    # positions 1-3 and R7.2 fills 5 then 4 from the deck (FF/NT, NT/RD).
    data["expect"] = {"pending": "take_z", "active": 1,
                      "dreamscape": ["LD/CD", "NT/LD", "PR/RD", "NT/RD", "FF/NT"]}
    assert run_scenario_data(data, engine) == (True, "")
    data["choices"][-1]["choice"] = [2, 1, 3, 4, 5]  # another outcome: the slide keeps NT/LD first
    passed, reason = run_scenario_data(data, engine)
    assert not passed and reason.startswith("dreamscape: expected")


@pytest.mark.parametrize("path", OWN_FILES, ids=[_id(p) for p in OWN_FILES])
def test_own_scenario_is_well_formed(path: Path):
    """Own scenarios follow FORMAT.md: an id, rule ids and a description."""
    data = json.loads(path.read_text("utf-8"))
    assert isinstance(data.get("id"), str) and data["id"]
    assert data["id"] == path.stem, "the file is named after its scenario id"
    assert data.get("rules") and all(isinstance(r, str) for r in data["rules"])
    unknown = set(data["rules"]) - _rule_ids()
    assert not unknown, f"rule ids not in interpretations.md: {sorted(unknown)}"
    assert isinstance(data.get("description"), str) and data["description"]
