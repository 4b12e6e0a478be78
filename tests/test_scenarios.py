"""Conformance scenarios (shared/conformance/FORMAT.md) played on the reference engine.

Every file of ../shared/conformance (the 18 shared scenarios, which CI always
has) and every file of tests/scenarios (this project's own, one rule point
each) is one test, named by its scenario id.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from simcore.conformance import run_scenario_file

HERE = Path(__file__).resolve().parent
SHARED = Path(__file__).resolve().parents[2] / "shared" / "conformance"
OWN = HERE / "scenarios"
RULES = Path(__file__).resolve().parents[2] / "shared" / "rules" / "interpretations.md"


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


@pytest.mark.parametrize("path", SHARED_FILES, ids=[_id(p) for p in SHARED_FILES])
def test_shared_scenario(path: Path):
    assert path.is_file(), f"missing: {path}"
    result = run_scenario_file(path)
    assert result.passed, f"{path.name}: {result.reason}"


@pytest.mark.parametrize("path", OWN_FILES, ids=[_id(p) for p in OWN_FILES])
def test_own_scenario(path: Path):
    assert path.is_file(), f"missing: {path}"
    result = run_scenario_file(path)
    assert result.passed, f"{path.name}: {result.reason}"


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
