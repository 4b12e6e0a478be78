"""The strong bot (issue #26): its value, its files, its lookahead, and the search over it.

What is checked against what was worked out independently:
* the value's kernel against scikit-learn's own predictions and against a forest small enough to add by hand;
* the view's one-hot against the seat order of the rulebook (play passes to the left);
* the lookahead's values against a hidden order shuffled (it must not read what its seat cannot know);
* the games against other chunk sizes and thread counts, and against the reference engine's replay;
* every kind of bad file against one line naming it.
"""
from __future__ import annotations

import json
import zipfile

import numba
import numpy as np
import pytest

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers expert and strong
from simcore.fast_rng import seed_key
from simcore.games.dreamscape.bots.api import StrategyError, load_strategy
from simcore.games.dreamscape.bots.strong import StrongTables, ValueModel, read_value, shipped_values, write_value
from simcore.games.dreamscape.decks import deck_from_swap_texts
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.differential import compare_game
from simcore.games.dreamscape.fast.encoding import N_ENC, encode_position
from simcore.games.dreamscape.fast.isearch import first_search
from simcore.games.dreamscape.fast.layout import H_DECK_PTR, H_GAME_OVER, H_N_CARDS, knob_vector
from simcore.games.dreamscape.fast.runner import deck_arrays, strategy_args
from simcore.games.dreamscape.fast.scratch import (
    LOOK_NESTED, LOOK_OFF, LOOK_VALUE, MD_LOOKAHEAD, MD_PLAYOUTS, MD_SCORE, MODE_EXPERT, MODE_SEARCH,
)
from simcore.games.dreamscape.fast.strategies import get_record
from simcore.games.dreamscape.fast.value import N_VIEW, VALUE_AT, encode_view, tree_value
from simcore.games.dreamscape.rules import Options
from tests.test_fast_search import FIELDS, _position, _shuffle_hidden

# the shipped values: 2-4 players x base, Sleep Token and the shifting tokens, and 2-3 players with both (issue #41)
STRONG_KEYS = ([(p, sleep, shifting) for p in (2, 3, 4)
                for sleep, shifting in ((False, False), (True, False), (False, True))]
               + [(2, True, True), (3, True, True)])


def _same(a, b):
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in FIELDS)


# ------------------------------------------------------------------ the value


def _hand_forest() -> ValueModel:
    """Two trees over inputs 3, 7 and 0, with leaves worked out below."""
    # tree 0: node 0 splits x[3] <= 0.5 -> node 1 (leaf 1.0) else node 2 (leaf 2.0)
    # tree 1: node 3 splits x[7] <= 10 -> node 4 else node 5 (leaf -1.0); node 4 splits x[0] <= -1 -> 6 (0.25) else 7 (0.5)
    feature = [3, -1, -1, 7, 0, -1, -1, -1]
    threshold = [0.5, 0, 0, 10.0, -1.0, 0, 0, 0]
    left = [1, 0, 0, 4, 6, 0, 0, 0]
    right = [2, 0, 0, 5, 7, 0, 0, 0]
    leaf = [0, 1.0, 2.0, 0, 0, -1.0, 0.25, 0.5]
    return ValueModel(feature, threshold, left, right, leaf, [0, 3], [0.125], {"players": 3})


@pytest.mark.parametrize("x3, x7, x0, expected", [
    (0.5, 10.0, -1.0, 0.125 + 1.0 + 0.25),   # both splits go left at equality (x <= threshold)
    (0.6, 10.0, 0.0, 0.125 + 2.0 + 0.5),
    (0.0, 10.5, -5.0, 0.125 + 1.0 - 1.0),
])
def test_a_forest_small_enough_to_add_by_hand(x3, x7, x0, expected):
    model = _hand_forest()
    x = np.zeros(N_VIEW)
    x[3], x[7], x[0] = x3, x7, x0
    w = np.concatenate([np.zeros(VALUE_AT), model.packed()])
    assert tree_value(x, w) == expected
    assert model.predict(x)[0] == expected


def test_the_value_kernel_adds_the_trees_as_scikit_learn_does():
    """A fitted HistGradientBoostingRegressor, flattened, gives scikit-learn's own predictions bit for bit."""
    from sklearn.ensemble import HistGradientBoostingRegressor

    rng = np.random.default_rng(4)
    x = rng.normal(size=(3000, N_VIEW)).round(2)
    y = (x[:, 0] > 0.3) * 0.6 + 0.2 * x[:, 5] * (x[:, 9] < 0) + 0.05 * rng.normal(size=3000)
    fitted = HistGradientBoostingRegressor(max_iter=30, max_leaf_nodes=15, early_stopping=False, random_state=0)
    fitted.fit(x[:2000], y[:2000])
    model = ValueModel.from_sklearn(fitted, {"players": 3})
    w = np.concatenate([np.zeros(VALUE_AT), model.packed()])
    expected = fitted.predict(x[2000:])
    got = np.array([tree_value(row, w) for row in x[2000:]])
    assert np.array_equal(got, expected)
    assert np.array_equal(model.predict(x[2000:]), expected)
    assert np.unique(expected).size > 50  # the trees split: not a constant


def test_the_view_is_the_seats_encoding_and_where_the_seat_to_move_sits():
    """R3 passes play to the left: the seat to move is 0 places from itself, 1 from the seat before it, ..."""
    a, b = deck_arrays(deck_from_swap_texts([]))
    opt = Options()
    for players in (2, 3, 4):
        args = strategy_args(["expert"] * players, players, opt)
        st, wk, fw = _position(a, b, players, False, False, knob_vector(opt, players), seed_key(2), 0, players + 1,
                               *args)
        active = int(st[2])
        for seat in range(players):
            view = np.full(N_VIEW, 7.0)
            encode_view(st, seat, view)
            own = np.zeros(N_ENC)
            encode_position(st, seat, own, 0)
            assert np.array_equal(view[:N_ENC], own)
            hot = np.zeros(4)
            hot[(active - seat) % players] = 1.0
            assert np.array_equal(view[N_ENC:], hot)


# ------------------------------------------------------------------ files


@pytest.fixture(scope="module")
def good_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("strong") / "hand.npz"
    write_value(path, _hand_forest())
    return path


def _rewrite(src, dst, **change):
    """A copy of a value file with some arrays (or meta) replaced, the checksum left as it was."""
    with np.load(src) as data:
        arrays = {k: data[k] for k in data.files}
    arrays.update(change)
    np.savez(dst, **arrays)
    return dst


def test_a_value_file_reads_back_as_written(good_file):
    model = read_value(good_file)
    hand = _hand_forest()
    for name, a in hand.arrays().items():
        assert np.array_equal(model.arrays()[name], a), name
    assert model.meta["inputs"] == N_VIEW and model.meta["trees"] == 2 and model.meta["sha256"] == hand.digest()


def _meta(path, **change):
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
    meta.update(change)
    return np.array(json.dumps(meta))


BAD_FILES = {
    "missing": (lambda d, g: d / "nope.npz", "does not exist"),
    "folder": (lambda d, g: d, "is a folder"),
    "text": (lambda d, g: (d / "t.npz").write_text("feature = 1\n") and d / "t.npz", "not a strong value file"),
    "one array": (lambda d, g: (np.save(d / "one.npy", np.zeros(3)), d / "one.npy")[1], "one array"),
    "truncated": (lambda d, g: (d / "cut.npz").write_bytes(g.read_bytes()[:200]) and d / "cut.npz",
                  "not a strong value file"),
    "no roots": (lambda d, g: _drop(g, d / "noroots.npz", "roots"), "has no array 'roots'"),
    "edited threshold": (lambda d, g: _rewrite(g, d / "edit.npz", threshold=np.array([0.75, 0, 0, 10, -1, 0, 0, 0.])),
                         "checksum does not match"),
    "a cycle": (lambda d, g: _rewrite(g, d / "cycle.npz", left=np.array([1, 0, 0, 4, 3, 0, 0, 0], np.int32)),
                "outside its tree"),
    "into the next tree": (lambda d, g: _rewrite(g, d / "next.npz", right=np.array([4, 0, 0, 5, 7, 0, 0, 0], np.int32)),
                           "outside its tree"),
    "unknown input": (lambda d, g: _rewrite(g, d / "input.npz", feature=np.array([3, -1, -1, 999, 0, -1, -1, -1],
                                                                                  np.int32)), "input outside"),
    "not finite": (lambda d, g: _rewrite(g, d / "nan.npz", leaf_value=np.array([0, 1, np.nan, 0, 0, -1, .25, .5])),
                   "not a finite number"),
    "short array": (lambda d, g: _rewrite(g, d / "short.npz", left=np.zeros(3, np.int32)), "values for 8 nodes"),
    "float indices": (lambda d, g: _rewrite(g, d / "float.npz", left=np.zeros(8)), "wrong type"),
    "other engine": (lambda d, g: _rewrite(g, d / "inputs.npz", meta=_meta(g, inputs=N_VIEW + 1)), "inputs"),
    "other format": (lambda d, g: _rewrite(g, d / "format.npz", meta=_meta(g, format=99)), "unknown format"),
    "solo": (lambda d, g: _rewrite(g, d / "solo.npz", meta=_meta(g, players=1)), "players must be 2 to 4"),
    "meta not json": (lambda d, g: _rewrite(g, d / "json.npz", meta=np.array("{players")), "not JSON"),
    "pickled": (lambda d, g: _rewrite(g, d / "pickle.npz", roots=np.array([{"a": 1}], dtype=object)),
                "not a strong value file"),
}


def _drop(src, dst, name):
    with np.load(src) as data:
        arrays = {k: data[k] for k in data.files if k != name}
    np.savez(dst, **arrays)
    return dst


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_value_file_is_one_line_naming_it(case, good_file, tmp_path):
    make, words = BAD_FILES[case]
    path = make(tmp_path, good_file)
    with pytest.raises(StrategyError) as err:
        read_value(path)
    message = str(err.value)
    assert "\n" not in message and words in message and str(path) in message, message
    with pytest.raises(StrategyError):
        load_strategy(f"strong:{path}")


def test_a_value_file_plays_only_its_own_player_count(good_file):
    name = load_strategy(f"strong:{good_file}")
    strategy_args([name, "expert", "expert"], 3, Options())  # its own count: fine
    with pytest.raises(StrategyError, match="trained for 3 players; this game has 2"):
        strategy_args([name, "expert"], 2, Options())


def test_a_value_file_is_written_whole_or_not_at_all(tmp_path):
    path = tmp_path / "v.npz"
    write_value(path, _hand_forest())
    assert zipfile.is_zipfile(path) and not list(tmp_path.glob("*.part"))


# ------------------------------------------------------------------ the bot in the engine


def test_every_shipped_value_reads_and_matches_its_configuration():
    files = shipped_values()
    assert set(files) >= set(STRONG_KEYS)
    for key, path in files.items():
        model = read_value(path)
        assert (model.meta["players"], model.meta["variant"]) == (key[0], path.stem.partition("p-")[2])
        assert model.n_trees >= 1 and 0.2 < model.meta["held_out_r2"] < 1


def test_strong_is_a_late_lookahead_seat_and_expert_where_it_has_no_value():
    """Modes the engine gets: a lookahead (one world) in 2-4 player games; solo has no value, so expert's table."""
    record = get_record(load_strategy("strong"))
    assert record.lookahead == LOOK_VALUE
    for players in (2, 3, 4):
        modes, weights = strategy_args(["strong"] * players, players, Options())[-2:]
        assert modes[MD_SCORE, 0] == MODE_SEARCH and modes[MD_LOOKAHEAD, 0] == LOOK_VALUE and modes[MD_PLAYOUTS, 0] == 1
        assert weights[0, VALUE_AT] >= 1  # trees behind the expert table
        expert = strategy_args(["expert"] * players, players, Options())[-1]
        assert np.array_equal(weights[0, :VALUE_AT], expert[0, :VALUE_AT])
    modes, weights = strategy_args(["strong"], 1, Options())[-2:]
    assert modes[MD_SCORE, 0] == MODE_EXPERT and modes[MD_LOOKAHEAD, 0] == LOOK_OFF
    solo_strong = simulate(SimConfig(1), 40, 3, "strong")
    solo_expert = simulate(SimConfig(1), 40, 3, "expert")
    assert _same(solo_strong, solo_expert)
    nested = strategy_args([load_strategy("search:strong@2:late"), "strong"], 2, Options())[-2]
    assert nested[MD_LOOKAHEAD, 0] == LOOK_NESTED and nested[MD_LOOKAHEAD, 1] == LOOK_VALUE


def test_a_configuration_without_its_own_value_plays_no_other_configurations_value():
    """Issue #41: the base game's value stood in for the shifting tokens by a silent lookup. Now a configuration
    without a value of its own plays the expert table alone unless a stand-in is declared (and training_status
    reports a declared one), and a user's one file plays under every rules option of its player count."""
    expert = get_record("expert")
    tables = StrongTables({(3, False, False): _hand_forest()})
    assert tables.value_for((3, False, True)) is None
    row = tables[(3, False, True)]
    assert np.array_equal(row, expert.tables.get((3, False, True)))  # the expert table, no trees behind it
    assert tables[(3, False, False)].shape[0] > VALUE_AT and tables[(3, False, False)][VALUE_AT] == 2  # its 2 trees
    declared = StrongTables({(3, False, False): _hand_forest()}, stand_ins={(3, False, True): (3, False, False)})
    assert declared[(3, False, True)][VALUE_AT] == 2 and declared.value_for((3, True, True)) is None
    user = StrongTables({(3, False, False): _hand_forest()}, only_players=3, source="strong file v.npz")
    assert user.value_for((3, True, True)) is not None and user[(3, True, True)][VALUE_AT] == 2
    with pytest.raises(StrategyError, match="trained for 3 players"):
        user.value_for((2, False, False))


def test_the_strong_bot_does_not_read_the_hidden_order():
    """Late positions of expert self-play; the active seat plays strong. Its lookahead values at the first three
    decisions of the turn it looks ahead at are the same whatever the order of the cards nobody can see.

    Strong leaves a turn's first decisions (take Z, buy) to the expert table and looks ahead from the first
    perform on, after which a Night Terror may already have turned a target's top Z cards face up (R6.3, R3.3):
    those stay in place, or the seat would legitimately have seen another card.
    """
    a, b = deck_arrays(deck_from_swap_texts([]))
    seen = differing = 0
    # the rules options with their own values (the shifting tokens' trained for issue #41) and a changed game the
    # inputs read the numbers of (rule-aware: the costs and chain knobs, R2.3, R8.2)
    for players, opt in ((2, Options()), (3, Options(False, True)), (4, Options(True, True)),
                         (3, Options(costs=(2, 3, 4, 5, 6), chain=(3, 6, 9)))):
        for game in range(3):
            for turns in range(players * 2, players * 12):
                experts = strategy_args(["expert"] * players, players, opt)
                st, wk, fw = _position(a, b, players, opt.sleep_token, opt.shifting_tokens, knob_vector(opt, players),
                                       seed_key(8), game, turns, *experts)
                if st[H_GAME_OVER]:
                    break
                if (st[H_N_CARDS] - st[H_DECK_PTR]) * 3 > st[H_N_CARDS]:
                    continue
                seats = ["expert"] * players
                seats[int(st[2])] = "strong"
                args = strategy_args(seats, players, opt)
                shuffled = _shuffle_hidden(st, game * 100 + turns, keep_z_top=4)
                for skip in range(3):
                    kind, seat, n, values, best = first_search(st, wk, fw, *args, skip)
                    if kind < 0:
                        break
                    other = first_search(shuffled, wk, fw, *args, skip)
                    assert (other[0], other[1], other[2], other[4]) == (kind, seat, n, best)
                    assert np.array_equal(other[3], values), (players, game, turns, skip, values, other[3])
                    seen += 1
                    differing += len(set(values.tolist())) > 1
    assert seen >= 30 and differing >= seen // 2


def test_same_seed_same_games_whatever_the_chunk_size_or_threads():
    cfg = SimConfig(3, Options(True, False))
    seats = ["strong", "expert", load_strategy("search:expert@2:late")]
    a = simulate(cfg, 10, 5, seats, chunk_size=10)
    b = simulate(cfg, 10, 5, seats, chunk_size=3)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        c = simulate(cfg, 10, 5, seats, chunk_size=10)
    finally:
        numba.set_num_threads(threads)
    assert _same(a, b) and _same(a, c)
    expert = simulate(cfg, 10, 5, ["expert", "expert", seats[2]], chunk_size=10)
    assert not np.array_equal(a.score, expert.score)  # the strong seat plays other games than expert would


def test_a_search_over_the_strong_bot_gives_the_same_games_whatever_the_chunk_size():
    cfg = SimConfig(2)
    seats = [load_strategy("search:strong@2:late"), "strong"]
    a = simulate(cfg, 4, 11, seats, chunk_size=4)
    b = simulate(cfg, 4, 11, seats, chunk_size=1)
    assert _same(a, b)


@pytest.mark.parametrize("players, opt, swaps", [(3, Options(), []), (2, Options(True, False), ["NT:ED", "LD:PS"]),
                                                 (4, Options(False, True), ["CD:ID"])])
def test_strong_games_replay_identically_on_the_reference_engine(players, opt, swaps):
    """Every decision the strong bot takes is asked, with the same options, by the reference engine's rules."""
    names = ["strong"] + ["expert"] * (players - 1)
    for game in range(2):
        report = compare_game(deck_from_swap_texts(swaps), players, opt, 20261126, game, names)
        assert report is None, report
