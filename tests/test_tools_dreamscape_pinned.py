"""Project Dreamscape's tool tables are bit-identical to those of the tools before they went through the Game interface.

``pinned/tools_dreamscape.json`` holds the tables the tools of commit d23f596
(which called the fast engine directly: SimConfig, simulate, play_chunk,
parse_variant, restricted()) produced for the calls below, generated once from
that commit's code and never edited. The tools now play through
``game.play_games`` on the fast engine, which plays exactly ``iter_chunks`` of the
same SimConfig, so every number must come out the same to the last bit: any
change of seeds, game indices, seat order, restriction order or metric fails here.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl
import pytest

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers 'chain' (a tournament entrant below)
from analyses.study.model import RunConfig
from analyses.study.studyfile import StudyPlan, run_plan
from analyses.tools.compare import compare_variants
from analyses.tools.exploit import exploit_table
from analyses.tools.restrict import restrict_table
from analyses.tools.tournament import run_tournament
from simcore.games.dreamscape.bots.api import load_strategy

PINNED = json.loads((Path(__file__).parent / "pinned" / "tools_dreamscape.json").read_text())


def rows(frame: pl.DataFrame) -> dict:
    """The frame as the pinned file keeps it (NaN as the text "nan": JSON has no NaN to compare equal)."""
    out = [{k: ("nan" if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()}
           for r in frame.to_dicts()]
    return {"columns": frame.columns, "rows": out}


def test_tournament_is_bit_identical():
    t = run_tournament(["greedy", "random"], players=2, variant="sleep-token", games_per_seating=40, seed=3)
    want = PINNED["tournament_2p"]
    assert rows(t.standings) == want["standings"] and rows(t.payoff) == want["payoff"]
    assert rows(t.games) == want["games"]
    assert (t.dominant, [list(c) for c in t.cycles]) == (want["dominant"], want["cycles"])
    t = run_tournament(["greedy", "random", "chain"], players=3, variant="base", games_per_seating=15, seed=7)
    want = PINNED["tournament_3p"]
    assert rows(t.standings) == want["standings"] and rows(t.payoff) == want["payoff"]
    assert (t.dominant, [list(c) for c in t.cycles]) == (want["dominant"], want["cycles"])


def test_exploit_is_bit_identical():
    got = exploit_table("greedy", load_strategy("search:greedy@1"), players=[2], variants=["base"], games=30, seed=5,
                        chunk_size=13)
    assert rows(got) == PINNED["exploit"]


def test_restrict_is_bit_identical():
    got = restrict_table("linear", [2], ["base"], ["perform", "buy"], games=12, seed=2, chunk_size=5)
    assert rows(got) == PINNED["restrict"]


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dscompare") / "study"
    configs = [RunConfig(v, 3, ("greedy",) * 3) for v in ("base", "sleep-token", "shifting-tokens")]
    run_plan(StudyPlan(configs, games=150, seed=11, chunk_size=64), folder, progress=False)
    return folder


def test_compare_is_bit_identical(study):
    assert rows(compare_variants(study)) == PINNED["compare"]
    assert rows(compare_variants(study, baseline="sleep-token")) == PINNED["compare_st"]
