"""The expert diagnostics: agreement / regret on hand-worked decisions, the models, the labelled search games."""
from __future__ import annotations

import numpy as np
import pytest

from research.diagnostics import (
    agreement,
    decision_kinds,
    decision_starts,
    fit_scores,
    rank_labels,
    regret,
    table_scores,
    top_rows,
)
from simcore.games.dreamscape.fast.isearch import REC_CHOSEN, REC_DECISION, REC_FEATURES, REC_KIND, REC_VALUE, REC_WIDTH
from simcore.games.dreamscape.fast.layout import F_DECK_FRACTION
from simcore.games.dreamscape.fast.scratch import EXPERT_WIDTH
from simcore.games.dreamscape.bots.features import N_FEATURES

# Three decisions: two options, three options (two tied on score), one option.
DECISION = np.array([0, 0, 1, 1, 1, 2])
SCORES = np.array([1.0, 2.0, 3.0, 3.0, 1.0, 5.0])
VALUES = np.array([0.2, 0.5, 0.1, 0.4, 0.9, 0.3])


def test_decision_starts_and_top_rows():
    assert decision_starts(DECISION).tolist() == [0, 2, 5]
    assert top_rows(SCORES, DECISION).tolist() == [False, True, True, True, False, True]
    assert decision_starts(np.zeros(0)).tolist() == []


def test_agreement_counts_ties_as_a_fair_draw():
    # decision 0: the model picks option 1, the reference too -> 1
    # decision 1: the model ties options 0 and 1, the reference took 0 -> 1/2
    # decision 2: a single option -> 1
    chosen = np.array([0, 1, 1, 0, 0, 1])
    assert agreement(SCORES, chosen, DECISION).tolist() == [1.0, 0.5, 1.0]
    # a reference with two tied best options: a model that picks either agrees
    assert agreement(np.array([0.0, 1.0]), np.array([1, 1]), np.array([7, 7])).tolist() == [1.0]
    assert agreement(np.array([0.0, 1.0]), np.array([1, 0]), np.array([7, 7])).tolist() == [0.0]


def test_regret_is_best_value_minus_the_expected_pick():
    # decision 0: picks 0.5, best 0.5 -> 0
    # decision 1: picks 0.1 or 0.4 (mean 0.25), best 0.9 -> 0.65
    # decision 2: 0
    assert regret(SCORES, VALUES, DECISION) == pytest.approx([0.0, 0.65, 0.0])
    # scoring by the values themselves never regrets
    assert regret(VALUES, VALUES, DECISION).tolist() == [0.0, 0.0, 0.0]


def records_of(decision, kind, values, features, chosen=None):
    """Records with the given columns (features: rows x N_FEATURES)."""
    r = np.zeros((len(decision), REC_WIDTH))
    r[:, REC_DECISION] = decision
    r[:, REC_KIND] = kind
    r[:, REC_VALUE] = values
    r[:, REC_FEATURES : REC_FEATURES + N_FEATURES] = features
    if chosen is not None:
        r[:, REC_CHOSEN] = chosen
    return r


def test_rank_labels_and_kinds():
    rec = records_of([0, 0, 0, 1, 1], [2, 2, 2, 5, 5], [0.3, -0.1, 0.3, 0.0, 1.0], np.zeros((5, N_FEATURES)))
    assert rank_labels(rec).tolist() == [1, 0, 1, 0, 1]
    assert decision_kinds(rec).tolist() == [2, 5]


def test_table_scores_read_the_kind_and_phase_row():
    # kind 2 with 1/2 of the deck left: phase mid (row 2 * 3 + 1); feature 5 = 2.0
    features = np.zeros((1, N_FEATURES))
    features[0, F_DECK_FRACTION] = 0.5
    features[0, 5] = 2.0
    table = np.zeros(EXPERT_WIDTH)
    table[(2 * 3 + 1) * N_FEATURES + 5] = 3.0
    table[(2 * 3 + 0) * N_FEATURES + 5] = 100.0  # the early row must not be read
    rec = records_of([0], [2], [0.0], features)
    assert table_scores(rec, table).tolist() == [6.0]


def synthetic(n_decisions, seed):
    """Decisions of 4 options whose value is feature 3 minus feature 7 squared: a non-linear target."""
    rng = np.random.default_rng(seed)
    n = 4 * n_decisions
    features = rng.normal(size=(n, N_FEATURES))
    features[:, F_DECK_FRACTION] = 0.5
    values = features[:, 3] - features[:, 7] ** 2
    decision = np.repeat(np.arange(n_decisions), 4)
    best = top_rows(values, decision).astype(float)
    return records_of(decision, 2, values, features, best)


@pytest.mark.parametrize("name", ["ridge", "lightgbm", "hgb"])
def test_models_learn_a_known_ranking(name):
    if name == "lightgbm":
        pytest.importorskip("lightgbm")  # an optional extra (pyproject: diagnostics)
    train, test = synthetic(600, 1), synthetic(200, 2)
    fitted = fit_scores(name, train, test, np.zeros(EXPERT_WIDTH))
    share = agreement(fitted.test, test[:, REC_CHOSEN], test[:, REC_DECISION]).mean()
    chance = 0.25
    # a linear model gets feature 3's part only; the non-linear ones the square too
    assert share > (0.45 if name == "ridge" else 0.7), share
    assert share > chance + 0.2
    if name != "ridge":
        ridge = fit_scores("ridge", train, test, np.zeros(EXPERT_WIDTH))
        assert share > agreement(ridge.test, test[:, REC_CHOSEN], test[:, REC_DECISION]).mean() + 0.1


def test_unknown_model_is_refused():
    with pytest.raises(ValueError, match="unknown model"):
        fit_scores("forest", synthetic(2, 1), synthetic(2, 2), np.zeros(EXPERT_WIDTH))


# -- the labelled search games (research.diagnostic_games): the engine's games, plus independent labels --


@pytest.fixture(scope="module")
def three_base():
    from simcore.games.dreamscape.fast import SimConfig
    from simcore.games.dreamscape.rules import Options
    from simcore.games.dreamscape.bots.api import load_strategy

    return SimConfig(3, Options()), load_strategy("search:expert@2")


@pytest.mark.slow  # research driver: its own kernels compile for about two minutes (run with -m slow)
def test_labelled_games_are_the_engines(three_base):
    from research.diagnostic_games import collect_labelled
    from simcore.games.dreamscape.fast.runner import collect_search

    config, search = three_base
    records, wins, skipped = collect_search(config, 3, 11, search, first_game=5)
    got, extra, got_wins, got_skipped = collect_labelled(config, 3, 11, search, (2, 4), first_game=5, chunk_size=2)
    assert np.array_equal(got, records) and np.array_equal(got_wins, wins) and got_skipped == skipped
    assert extra.shape == (records.shape[0], 2)
    # the extra K=2 label is the game's evaluation on other playouts: same scale, not the same numbers
    assert not np.array_equal(extra[:, 0], records[:, REC_VALUE])
    assert np.all(np.abs(extra) < 1.1) and np.all(extra > -0.1)  # win credit in [0, 1] + margin / 1000
    # labels of one option never depend on the chunk size
    _, extra1, _, _ = collect_labelled(config, 3, 11, search, (2, 4), first_game=5, chunk_size=3)
    assert np.array_equal(extra1, extra)


@pytest.mark.slow  # research driver: its own kernels compile for about two minutes (run with -m slow)
def test_restricted_search_every_kind_is_the_search_player(three_base):
    from research.diagnostic_games import ALL_KINDS, play_restricted
    from simcore.games.dreamscape.fast import simulate

    config, search = three_base
    seats = [search, "expert", "expert"]
    wins = play_restricted(config, 4, 3, seats, [ALL_KINDS, 0, 0])
    assert np.array_equal(wins, simulate(config, 4, 3, seats).win)


@pytest.mark.slow  # research driver: its own kernels compile for about two minutes (run with -m slow)
def test_restricted_search_of_no_kind_plays_the_policy(three_base):
    from research.diagnostic_games import play_restricted
    from simcore.games.dreamscape.fast import simulate

    config, search = three_base
    wins = play_restricted(config, 4, 3, [search, "expert", "expert"], [0, 0, 0])
    assert np.array_equal(wins, simulate(config, 4, 3, ["expert"] * 3).win)


@pytest.mark.slow  # research driver: its own kernels compile for about two minutes (run with -m slow)
def test_phase_masks_skip_the_expert_tables_thirds():
    # a 22-card deck: the expert's early rows take more than 2/3 of it left (15 cards: 0.68), the late rows
    # at most 1/3 (7 cards: 0.32); 14 and 8 cards are mid (scratch.expert_phase)
    from research.diagnostic_games import ALL_KINDS, only_phase
    from simcore.games.dreamscape.fast.layout import H_DECK_PTR
    from simcore.games.dreamscape.fast.prefix import PX_KIND_BITS, skips_phase
    from simcore.games.dreamscape.fast.zones import new_state

    st = new_state(np.zeros(22, np.int32), np.ones(22, np.int32), 3, False, False)
    phase_at = {15: 0, 14: 1, 8: 1, 7: 2, 0: 2}
    for left, phase in phase_at.items():
        st[H_DECK_PTR] = 22 - left
        assert not skips_phase(st, ALL_KINDS), left  # normal search play: no phase skipped
        for q in range(3):
            assert skips_phase(st, only_phase(ALL_KINDS, q)) == (q != phase), (left, q)
    assert only_phase(1 << 2, 2) & PX_KIND_BITS == 1 << 2  # the kinds are kept
    with pytest.raises(ValueError):
        only_phase(ALL_KINDS, 3)


@pytest.mark.slow  # research driver: its own kernels compile for about two minutes (run with -m slow)
def test_restricted_search_of_no_phase_plays_the_policy_and_one_phase_searches(three_base):
    from research.diagnostic_games import ALL_KINDS, only_phase, play_restricted
    from simcore.games.dreamscape.fast import simulate
    from simcore.games.dreamscape.fast.prefix import PX_PHASE_SHIFT

    config, search = three_base
    seats = [search, "expert", "expert"]
    expert = simulate(config, 6, 3, ["expert"] * 3).win
    every = simulate(config, 6, 3, seats).win
    none = ALL_KINDS | (7 << PX_PHASE_SHIFT)  # every kind, every phase skipped
    assert np.array_equal(play_restricted(config, 6, 3, seats, [none, 0, 0]), expert)
    # searching one phase changes some game against the policy and plays other games than searching all
    late = play_restricted(config, 6, 3, seats, [only_phase(ALL_KINDS, 2), 0, 0])
    assert not np.array_equal(late, expert) and not np.array_equal(late, every)


@pytest.mark.slow  # research driver: its own kernels compile for about two minutes (run with -m slow)
def test_restricted_search_by_the_deck_left_at_the_turn_start(three_base):
    from research.diagnostic_games import ALL_KINDS, play_restricted
    from simcore.games.dreamscape.fast import simulate

    config, search = three_base
    seats = [search, "expert", "expert"]
    expert = simulate(config, 6, 3, ["expert"] * 3).win
    every = simulate(config, 6, 3, seats).win
    masks = [ALL_KINDS, 0, 0]
    big = 1 << 30
    # no turn starts with fewer than 0 cards: the policy's games; every turn starts with at most 44
    assert np.array_equal(play_restricted(config, 6, 3, seats, masks, deck_at_most=[-1, big, big]), expert)
    assert np.array_equal(play_restricted(config, 6, 3, seats, masks, deck_at_most=[44, big, big]), every)
    last = play_restricted(config, 6, 3, seats, masks, deck_at_most=[12, big, big])
    assert not np.array_equal(last, expert) and not np.array_equal(last, every)


@pytest.mark.parametrize("args, problem", [
    (["--players", "7"], "--players must be 2, 3 or 4"),
    (["--train-games", "150"], "--train-games must be a positive multiple of 100"),
    (["--label-train-games", "500"], "--label-train-games"),
    (["--seat", "4"], "--seat must be 1 to 3"),
    (["--models", "forest"], "--models: unknown forest"),
    (["--variant", "no-such-option"], "--variant"),
    (["--playouts", "x"], "invalid int value"),
])
def test_diagnostics_script_refuses_bad_input(args, problem):
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "research" / "expert_diagnostics.py"
    done = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and problem in lines[0], done.stderr
