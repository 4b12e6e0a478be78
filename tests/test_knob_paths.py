"""The new knobs go wherever variants go: simulate, compare, sweep, restrict, tournament, study files, the Python API.

The known effect each path is checked against: the games the fast engine plays for the knob's
Options directly (same seed, same deals: the numbers must be equal), which differ from the
printed game's; and for knob:copies=FF/SD:2 the deck played holds 53 cards (R1.3: FF/SD printed
once, now twice).
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from analyses import lab
from cli import app
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.variants import parse_variant

KNOB = "knob:take-z=0+knob:reserve-cost=2+knob:copies=FF/SD:2"
runner = CliRunner()


def direct(variant: str, players: int, games: int, seed: int, bot: str):
    v = parse_variant(variant)
    return simulate(SimConfig(players, v.options, v.deck()), games, seed, bot)


def test_python_api_simulate_plays_the_knob():
    df = lab.simulate(players=3, games=300, seed=4, variant=KNOB, strategies=["linear"], progress=False)
    want = direct(KNOB, 3, 300, 4, "linear")
    base = direct("base", 3, 300, 4, "linear")
    assert np.allclose(df.sort("seat")["win_rate"].to_numpy(), want.win.mean(axis=0))
    assert not np.allclose(want.score.mean(axis=0), base.score.mean(axis=0))  # the knob changes the games


def test_cli_simulate_names_the_knob_and_the_53_card_deck():
    res = runner.invoke(app, ["simulate", "-p", "2", "-n", "200", "--variant", KNOB, "--strategy", "random",
                              "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "knob:take-z=0" in res.output and "53 cards" in res.output


def test_compare_takes_the_new_knobs(tmp_path):
    res = runner.invoke(app, ["compare", "--variant", "base", "--variant", KNOB, "-p", "2", "-n", "200",
                              "--strategy", "linear", "--out", str(tmp_path / "cmp"), "--json", "--no-progress",
                              "--no-distance"])  # the knob is the point; the distance from search is test_whatif's
    assert res.exit_code == 0, res.output
    assert parse_variant(KNOB).name in res.output


def test_sweep_and_study_files_take_the_new_knobs(tmp_path):
    from analyses.games.dreamscape.sweep import sweep_variants
    from analyses.study.studyfile import load_study_file

    assert sweep_variants("FF:ID", "knob:paradigm-max=1") == ["knob:paradigm-max=1", "knob:paradigm-max=1+FF:ID"]
    study = tmp_path / "s.toml"
    study.write_text('[[configs]]\nvariants = ["knob:z-floor=2+knob:respite-z=2"]\nplayers = [3]\ngames = 10\n')
    assert [c.variant for c in load_study_file(study).configs] == ["knob:z-floor=2+knob:respite-z=2"]
    bad = tmp_path / "bad.toml"
    bad.write_text('[[configs]]\nvariants = ["knob:token-point=2"]\nplayers = [2]\ngames = 10\n')
    with pytest.raises(Exception, match="add sleep-token"):
        load_study_file(bad)


def test_tournament_plays_the_knob():
    knob = lab.tournament(players=2, strategies=["random", "linear"], games=100, seed=3, variant=KNOB, progress=False)
    base = lab.tournament(players=2, strategies=["random", "linear"], games=100, seed=3, progress=False)
    assert knob["variant"] == parse_variant(KNOB).name and knob["deck_cards"] == 53  # FF/SD twice (R1.3)
    assert base["deck_cards"] == 52
    assert knob["standings"].to_dicts() != base["standings"].to_dicts()


def test_restrict_plays_the_knob(tmp_path):
    data = lab.restrict(strategy="linear", players=[2], variants=[KNOB], restrictions=["perform"], games=40, seed=2,
                        out=tmp_path / "r", progress=False)
    assert {r["variant"] for r in data["rows"]} == {parse_variant(KNOB).name}


def test_a_bad_new_knob_is_one_line_and_exit_2_everywhere(tmp_path):
    for args in (["simulate", "--variant", "knob:reserve-cost=0"],
                 ["compare", "--variant", "base", "--variant", "knob:token-point=2", "--out", str(tmp_path / "c")],
                 ["tournament", "--variant", "knob:paradigm-max=5", "-p", "2", "--strategy", "random",
                  "--strategy", "greedy"],
                 ["restrict", "--variant", "knob:copies=FF/SD", "-p", "2"]):
        res = runner.invoke(app, [*args, "--no-progress"])
        assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, (args, res.output)
