"""The linear bot's weights files and the CMA-ES tuner."""
from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from cli import app
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.bots.api import StrategyError, load_strategy
from simcore.games.dreamscape.bots.features import N_FEATURES, NAMES
from simcore.games.dreamscape.bots.linear import read_weights, write_weights
from simcore.games.dreamscape.bots.tuner import evaluate, seatings, tune

runner = CliRunner()


def test_weights_round_trip_through_toml(tmp_path):
    w = np.zeros(N_FEATURES)
    w[[i for i, n in NAMES.items() if n == "delta"][0]] = 1.0
    w[[i for i, n in NAMES.items() if n == "perform_NT"][0]] = -0.25
    path = tmp_path / "w.toml"
    write_weights(path, w, "mine", "a comment")
    name, back = read_weights(path)
    assert name == "mine" and np.array_equal(back[: len(w)], w)
    assert "perform_NT = -0.25" in path.read_text()


def test_a_delta_only_linear_bot_plays_exactly_like_greedy(tmp_path):
    # Same score for every option as greedy (features[delta]) -> same choices, same tie-breaks.
    path = tmp_path / "greedy_like.toml"
    path.write_text('name = "greedy-like"\n[weights]\ndelta = 1.0\n')
    name = load_strategy(f"linear:{path}")
    a = simulate(SimConfig(3), 500, 4, [name, "greedy", name])
    b = simulate(SimConfig(3), 500, 4, ["greedy", "greedy", "greedy"])
    assert np.array_equal(a.score, b.score) and np.array_equal(a.win, b.win)


@pytest.mark.parametrize("content, words", [
    ("[weights\n", ["not valid TOML"]),
    ('name = "x"\n', ["no [weights] table"]),
    ("[weights]\nhappiness = 1.0\n", ["unknown feature 'happiness'"]),
    ('[weights]\ndelta = "big"\n', ["must be a number"]),
    # a weight written above the table header belongs to no table: it would be dropped, the bot would play 0
    ('delta = 2.0\n[weights]\ncost = -1.0\n', ["unknown key 'delta' outside [weights]"]),
])
def test_bad_weights_files_are_one_line_errors(tmp_path, content, words):
    path = tmp_path / "bad.toml"
    path.write_text(content)
    with pytest.raises(StrategyError) as err:
        load_strategy(f"linear:{path}")
    for word in words:
        assert word in str(err.value)
    result = runner.invoke(app, ["simulate", "--games", "10", "--strategy", f"linear:{path}"])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_tuning_seatings_put_the_candidate_in_every_seat_against_the_field():
    plan = seatings(["a", "b"], 3, "X")
    assert len(plan) == 6
    assert sorted(s.index("X") for s in plan) == [0, 0, 1, 1, 2, 2]
    assert all(sorted(x for x in s if x != "X") == ["a", "b"] for s in plan)


def test_evaluate_counts_the_candidates_win_credit():
    # A delta-only candidate is greedy: against a field of greedy it gets the fair share exactly
    # on average over seats, since every seat of every game is played identically.
    w = np.zeros(N_FEATURES)
    w[0] = 1.0
    fitness = evaluate(w, 3, "base", ["greedy"], 900, 2)
    result = simulate(SimConfig(3), 300, 2, "greedy")
    assert fitness == pytest.approx(result.win.sum() / (300 * 3))


def test_tuning_is_reproducible_from_its_seed_and_writes_a_playable_file(tmp_path):
    a = tune(3, "base", ["greedy", "random"], budget=6, games_per_eval=60, seed=3)
    b = tune(3, "base", ["greedy", "random"], budget=6, games_per_eval=60, seed=3)
    assert a.evaluations == 6 and np.array_equal(a.weights, b.weights) and a.fitness == b.fitness
    out = tmp_path / "tuned.toml"
    result = runner.invoke(app, ["tune", "--players", "3", "--budget", "4", "--games-per-eval", "30",
                                 "--field", "greedy,random", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.exists() and "wrote" in result.stdout
    played = runner.invoke(app, ["simulate", "--games", "50", "--strategy", f"linear:{out}"])
    assert played.exit_code == 0, played.output
