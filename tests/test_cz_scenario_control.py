"""Counting Zzzzs' scenarios catch a fast-engine scoring bug (issue #44).

A control with a known answer: the fast engine's dream scoring (``fast_state.dream_points``) is broken on
purpose (every dream one point more), and the hand-worked scenarios in which a dream is scored must then
fail on the fast engine. Scenario 13 (the morning scores every dream) scores dreams that no card changes
during the scenario: before the fix the runner seeded the fast engine's stored dream points from the
reference engine, so it passed with the broken scoring (checked against the code before the fix: 13
passed, 12 failed already, as a card changes one of its dreams before it is scored).

Numba's compiled kernels cannot be patched, so the control runs in a fresh process with the JIT off
(``NUMBA_DISABLE_JIT=1``), where the engine's functions are plain Python and read the patched name.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CONTROL = r"""
import json, sys
from simcore.games.counting_zzzzs import SCENARIOS_DIR, check_scenario
from simcore.games.counting_zzzzs import fast as FAST, fast_state as F

names = [p.name for p in sorted(SCENARIOS_DIR.glob("*.json"))]
honest = {n: check_scenario(SCENARIOS_DIR / n, "fast") for n in names}
true_points = F.dream_points

def one_point_too_many(st, cd, seat, extra, fpos, fval):
    return true_points(st, cd, seat, extra, fpos, fval) + 1

F.dream_points = FAST.dream_points = one_point_too_many
broken = {n: check_scenario(SCENARIOS_DIR / n, "fast") for n in names}
print(json.dumps({"honest": honest, "broken": broken}))
"""


def run_control() -> dict:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", CONTROL], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_broken_fast_scoring_fails_the_scenarios_that_score_unchanged_dreams():
    result = run_control()
    assert all(v is None for v in result["honest"].values()), result["honest"]  # the engine as it is passes all
    broken = result["broken"]
    # 12: seat 1's dream of 4 cards scores 11 and seat 2's 13 (worked in the scenario's description); one
    # point more each moves both totals, so the score check fails
    assert "score" in (broken["12-forty-wake-all.json"] or "passed")
    assert "score" in (broken["13-morning.json"] or "passed")
