"""The expert-iteration research tools (research/expert_iteration.py, issue #42 item 4) on hand-built decisions.

Every decision below is made up so that its answer is known without the code: which option a label favours,
what each regret is, what a clustered interval is.
"""
from __future__ import annotations

import numpy as np
import pytest

from research.expert_iteration import (
    N_FEATURES,
    REC_CHOSEN,
    REC_DECISION,
    REC_FEATURES,
    REC_KIND,
    REC_N,
    REC_OPTION,
    REC_VALUE,
    Decisions,
    clustered_mean,
    fit_correction,
)

pytest.importorskip("sklearn")


def make(values, labels, chosen, features=None, kind=0, games=None):
    """Records of decisions given as lists of per-option values / labels (two halves) and strong's pick index."""
    rows, labs, game = [], [], []
    for d, (v, lab, c) in enumerate(zip(values, labels, chosen)):
        n = len(v)
        for i in range(n):
            r = np.zeros(REC_FEATURES + N_FEATURES)
            r[REC_KIND], r[REC_N], r[REC_OPTION], r[REC_VALUE] = kind, n, i, v[i]
            r[REC_CHOSEN] = 1.0 if i == c else 0.0
            r[REC_DECISION] = d
            if features is not None:
                r[REC_FEATURES:] = features[d][i]
            rows.append(r)
            labs.append(lab[i])
            game.append(d if games is None else games[d])
    return {"records": np.array(rows), "labels": np.array(labs, dtype=float), "game": np.array(game)}


def test_regret_and_split_regret_by_hand():
    # one decision, three options; halves (A, B): option 0 (0.2, 0.4), 1 (0.5, 0.1), 2 (0.3, 0.3)
    data = make([[0.0, 1.0, 2.0]], [[(0.2, 0.4), (0.5, 0.1), (0.3, 0.3)]], [0])
    dec = Decisions(data)
    # mean labels 0.3, 0.3, 0.3: every pick has regret 0
    assert dec.regret(np.array([0]))[0] == pytest.approx(0.0)
    # split: best by A is option 1 (0.5), scored on B: 0.1; best by B is option 0 (0.4), scored on A: 0.2.
    # pick option 2: 0.5 * ((0.1 - 0.3) + (0.2 - 0.3)) = -0.15 (the noise-free estimate may be below 0)
    assert dec.split_regret(np.array([2]))[0] == pytest.approx(-0.15)
    # pick option 0: 0.5 * ((0.1 - 0.4) + (0.2 - 0.2)) = -0.15
    assert dec.split_regret(np.array([0]))[0] == pytest.approx(-0.15)
    # pick_of takes the first of tied scores
    assert list(dec.pick_of(np.array([1.0, 3.0, 3.0]))) == [1]


def test_clustered_interval_by_hand():
    # values 1, 3 in game 0 and 5, 7 in game 1: mean 4; cluster sums of deviations -4 and +4;
    # se = sqrt(16 + 16) / 4 = sqrt(2)
    m, lo, hi = clustered_mean(np.array([1.0, 3.0, 5.0, 7.0]), np.array([0, 0, 1, 1]))
    assert m == 4.0
    assert hi - m == pytest.approx(1.96 * np.sqrt(2.0))
    assert m - lo == pytest.approx(1.96 * np.sqrt(2.0))


def random_decisions(n, rng, label_of, games_offset=0):
    """n decisions of 3 options: strong's value is noise, the label is ``label_of(value, features)``."""
    values, labels, chosen, features = [], [], [], []
    for _ in range(n):
        v = rng.normal(size=3)
        f = rng.normal(size=(3, N_FEATURES))
        lab = label_of(v, f)
        values.append(v)
        labels.append([(x, x) for x in lab])
        chosen.append(int(np.argmax(v)))
        features.append(f)
    return make(values, labels, chosen, features, games=list(range(games_offset, games_offset + n)))


def test_fit_finds_the_feature_that_decides():
    # the label is feature 5 alone; strong's value is unrelated noise: the correction must pick argmax feature 5
    rng = np.random.default_rng(3)
    label = lambda v, f: f[:, 5]  # noqa: E731
    train = Decisions(random_decisions(300, rng, label))
    valid = Decisions(random_decisions(100, rng, label, 1000))
    test_data = random_decisions(100, rng, label, 2000)
    test = Decisions(test_data)
    corr = fit_correction(train, valid)
    assert 0 in corr.coef and corr.info[0]["kept"].startswith("fit")
    picks = corr.picks(test)
    best = test.pick_of(test.features[:, 5])
    assert np.mean(picks == best) > 0.95
    # strong's own pick (argmax of noise) is best about a third of the time
    assert np.mean(test.strong_pick() == best) < 0.5
    # the kept fit is the one of the two with the lower validation regret
    tried = {k: v for k, v in corr.info[0].items() if k.startswith("validation regret C=")}
    assert len(tried) == 2
    assert corr.info[0]["kept"] == "fit " + min(tried, key=tried.get).replace("validation regret ", "")


def test_no_correction_where_strong_is_already_right():
    # the label is strong's own value: strong's regret is 0 and no fit can lower it, so strong's pick is kept
    rng = np.random.default_rng(4)
    label = lambda v, f: v  # noqa: E731
    train = Decisions(random_decisions(200, rng, label))
    valid = Decisions(random_decisions(80, rng, label, 1000))
    corr = fit_correction(train, valid)
    assert corr.coef == {}
    assert corr.info[0]["kept"].startswith("strong")
    test = Decisions(random_decisions(50, rng, label, 2000))
    assert np.array_equal(corr.picks(test), test.strong_pick())


def test_fit_is_reproducible():
    rng = np.random.default_rng(5)
    label = lambda v, f: f[:, 1] - 0.5 * f[:, 2]  # noqa: E731
    data = random_decisions(150, rng, label)
    valid = random_decisions(60, rng, label, 1000)
    a = fit_correction(Decisions(data), Decisions(valid))
    b = fit_correction(Decisions(data), Decisions(valid))
    assert a.coef.keys() == b.coef.keys()
    for k in a.coef:
        assert np.array_equal(a.coef[k], b.coef[k])


@pytest.mark.slow  # research driver: its own kernels compile for minutes (run with -m slow)
def test_labelled_games_are_strong_self_play_and_keep_strongs_own_values():
    """The labelling hooks change no game: the win credits are strong self-play's on the same seed, bit for bit;
    every kept decision's pick is an option of the highest value strong gave, and that value is what strong's
    trees give the kept end-of-turn view (or the outcome where the turn ended the game, where the view is zeros)."""
    import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers strong
    from research.iteration_games import collect_iteration
    from simcore.games.dreamscape.fast import SimConfig, simulate
    from simcore.games.dreamscape.fast.strategies import get_record

    config = SimConfig(players=3)
    got = collect_iteration(config, 3, 11, half=1)
    assert np.array_equal(got["wins"], simulate(config, 3, 11, "strong").win)
    rec = got["records"]
    assert rec.shape[0] > 30 and got["labels"].shape == (rec.shape[0], 2)
    dec = Decisions(got)
    best = np.maximum.reduceat(dec.value, dec.starts)
    assert np.array_equal(dec.value[dec.strong_pick()], best)
    model = get_record("strong").tables.value_for((3, False, False))
    live = got["ends"] < 0.5
    assert np.array_equal(model.predict(got["views"][live]), rec[live, REC_VALUE])
    assert not got["views"][~live].any()


def test_the_fit_command_runs_on_a_folder_of_labels_and_refuses_an_empty_one(tmp_path):
    """Smoke test of "expert_iteration.py" fit (the labels' driver "iteration_games.py" has its slow test above):
    a folder of made-up labels (the label is feature 5, as above) gives the table by kind; a folder without
    labels is one line and exit code 2."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    rng = np.random.default_rng(6)
    data = random_decisions(400, rng, lambda v, f: f[:, 5])
    data["views"] = np.zeros((data["records"].shape[0], 8))
    data["ends"] = np.zeros(data["records"].shape[0])
    np.savez(tmp_path / "chunk-0000000.npz", **data)
    (tmp_path / "collect.json").write_text(json.dumps({"players": 3, "variant": "base", "seed": 1, "half": 1}))
    script = Path(__file__).resolve().parents[1] / "research" / "expert_iteration.py"
    done = subprocess.run([sys.executable, str(script), "fit", str(tmp_path), "--inputs", "afterstate",
                           "--save", str(tmp_path / "c.npz")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "| every kind | 80 |" in done.stdout  # the test games: game % 10 in (8, 9), 80 of the 400
    with np.load(tmp_path / "c.npz") as saved:
        meta = json.loads(str(saved["meta"]))
        assert list(saved["kinds"]) == [0] and meta["scikit-learn"]
    empty = tmp_path / "empty"
    empty.mkdir()
    bad = subprocess.run([sys.executable, str(script), "fit", str(empty)], capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "no chunk" in bad.stderr
