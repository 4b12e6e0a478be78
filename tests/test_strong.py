"""The strong bot (issue #26): its value, its files, its lookahead, and the search over it.

What is checked against what was worked out independently:
* the value's kernel against scikit-learn's own predictions and against a forest small enough to add by hand;
* the view's one-hot against the seat order of the rulebook (play passes to the left);
* the lookahead's values against a hidden order shuffled (it must not read what its seat cannot know), and the
  check itself against bots built to peek (its positive control);
* the decisions it looks ahead at (the kind mask, the late game only), the 16 options it values of 120, and a
  turn that ends the game scored by its result under a hand-made flat value, the win taken;
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
from simcore.games.dreamscape.fast.layout import (H_DECK_PTR, H_GAME_OVER, H_N_CARDS, S_Z_LEN, knob_vector, off_deck,
                                                  off_z, seat_base)
from simcore.games.dreamscape.fast.runner import deck_arrays, strategy_args
from simcore.games.dreamscape.fast.scratch import (
    LOOK_NESTED, LOOK_OFF, LOOK_VALUE, MD_LOOKAHEAD, MD_PLAYOUTS, MD_SCORE, MODE_EXPERT, MODE_SEARCH,
)
from simcore.games.dreamscape.fast.strategies import get_record
from simcore.games.dreamscape.fast.value import N_VIEW, VALUE_AT, encode_view, tree_value
from simcore.games.dreamscape.rules import DECISION_ID, Options
from tests.test_fast_search import FIELDS, _position, _shuffle_hidden

# the shipped values: 2-4 players x base, Sleep Token, the shifting tokens and both (issue #41)
STRONG_KEYS = [(p, sleep, shifting) for p in (2, 3, 4) for sleep in (False, True) for shifting in (False, True)]


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
    "meta not json": (lambda d, g: _rewrite(g, d / "json.npz", meta=np.array("{players")), "its meta: not a readable JSON"),
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
        made_for = path.stem.partition("p-")[2]
        if len(key) > 3:  # a value across a deck family: 3p-base-single-swaps.npz, base rules, the single swaps
            made_for, _, family = made_for.partition("-")
            assert (key[3], model.meta["deck"]) == ("single-swap", family) == ("single-swap", "single-swaps")
        assert (model.meta["players"], model.meta["variant"]) == (key[0], made_for)
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


def _late_positions(bot: str = "strong"):
    """Late positions of expert self-play, the active seat playing ``bot``: (players, state, scratch, seats'
    arguments, seed) for the rules options with their own values (the shifting tokens' trained for issue #41), a
    changed game the inputs read the numbers of (rule-aware: the costs and chain knobs, R2.3, R8.2) and a
    single-swap deck (R1.4), which plays the value trained across the single swaps where one is shipped."""
    for players, opt, swaps in ((2, Options(), []), (3, Options(False, True), []), (4, Options(True, True), []),
                                (3, Options(costs=(2, 3, 4, 5, 6), chain=(3, 6, 9)), []), (3, Options(), ["PR:ID"])):
        deck = deck_from_swap_texts(swaps)
        a, b = deck_arrays(deck)
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
                seats[int(st[2])] = bot
                yield players, st, wk, fw, strategy_args(seats, players, opt, deck), game * 100 + turns


def _unknown_order(st, seed, skip):
    """Another order of every card the seat to move cannot know at its decision ``skip`` of the turn: the Sleep
    Deck below its top and the Deep Sleep stacks, each below its top ``skip`` cards only. Strong decides from the
    turn's first perform on, and each perform before the decision may have been a Night Terror that removed a
    target's top Z card face up (R6.3, R3.3): after ``skip`` performs at most the top ``skip`` cards of a stack have
    been seen. At the first decision every Z card moves, short stacks included. None when nothing would move."""
    try:
        return _shuffle_hidden(st, seed * 3 + skip, keep_z_top=skip)
    except AssertionError:  # every unknown card already in a place of its own kind: nothing to move
        return None


def _reads_the_unknown_order(decide, bot: str = "strong") -> tuple[int, int, int]:
    """How many of the late positions' decisions ``decide(st, wk, fw, args, skip)`` answers differently once the
    cards its seat cannot know are put in another order (:func:`_unknown_order`); with the decisions seen and the
    Z cards moved in stacks of four or fewer (the places an earlier version of this check never moved)."""
    seen = differ = short_moved = 0
    for players, st, wk, fw, args, seed in _late_positions(bot):
        for skip in range(3):
            mine = decide(st, wk, fw, args, skip)
            if mine is None:
                break
            shuffled = _unknown_order(st, seed, skip)
            if shuffled is None:
                continue
            seen += 1
            differ += not _same_decision(mine, decide(shuffled, wk, fw, args, skip))
            short_moved += sum(skip < st[seat_base(s) + S_Z_LEN] <= 4 for s in range(players))
    return seen, differ, short_moved


def _same_decision(a, b) -> bool:
    return (a[0], a[1], a[2], a[4]) == (b[0], b[1], b[2], b[4]) and np.array_equal(a[3], b[3])


def _strong_decides(st, wk, fw, args, skip):
    kind, seat, n, values, best = first_search(st, wk, fw, *args, skip)
    return None if kind < 0 else (kind, seat, n, values, best)


@pytest.mark.parametrize("bot", ["strong", "sharp"])
def test_the_strong_bot_does_not_read_the_hidden_order(bot):
    """Late positions of expert self-play; the active seat plays strong (or sharp: strong plus its correction of
    the view, played in the 3-player changed-costs game, whose value is the base game's). Its lookahead values at
    the first three decisions of the turn it looks ahead at are the same whatever the order of the cards it cannot
    know: the Sleep Deck below its top and every Deep Sleep stack below the cards a Night Terror may have shown
    (none at the first decision, so every Z card moves, short stacks included; :func:`_unknown_order`)."""
    seen, differ, short_moved = _reads_the_unknown_order(_strong_decides, bot)
    assert differ == 0
    assert seen >= 30 and short_moved >= 20  # decisions were read, and stacks of four or fewer did move


def _peeking_bot(where):
    """A bot built to peek (the check's positive control): strong's values, nudged by a card nobody can see."""
    def decide(st, wk, fw, args, skip):
        out = _strong_decides(st, wk, fw, args, skip)
        if out is None:
            return None
        kind, seat, n, values, best = out
        card = where(st)
        peeked = values + 1e-6 * card * (np.arange(n) == 0)
        return kind, seat, n, peeked, int(np.argmax(peeked))
    return decide


def _bottom_z_of_a_short_stack(st) -> int:
    """The bottom card of the shortest non-empty Deep Sleep stack (-1: none), a card no seat has seen."""
    stacks = [(int(st[seat_base(s) + S_Z_LEN]), s) for s in range(int(st[0])) if st[seat_base(s) + S_Z_LEN] > 0]
    return int(st[off_z(st, min(stacks)[1])]) if stacks else -1


def _last_card_of_the_sleep_deck(st) -> int:
    return int(st[off_deck(st) + st[H_N_CARDS] - 1])


@pytest.mark.parametrize("where", [_bottom_z_of_a_short_stack, _last_card_of_the_sleep_deck])
def test_the_hidden_order_check_catches_a_bot_that_peeks(where):
    """The positive control: a bot that reads the bottom Z card of a short stack (where the check once kept every
    stack of four cards or fewer in place) or the Sleep Deck's last card is caught on most decisions."""
    seen, differ, _ = _reads_the_unknown_order(_peeking_bot(where))
    assert seen >= 30 and differ >= seen // 2


def test_strong_looks_ahead_only_at_the_kinds_and_phase_it_is_made_for():
    """The kind mask: in the late game strong looks ahead at every decision with 2+ options except taking a Z
    card, buying and Collective Dream's choice, which it leaves to the expert table (bots/strong.py); before the
    late third of the Sleep Deck it looks ahead at nothing."""
    passed = {DECISION_ID["take_z"], DECISION_ID["buy"], DECISION_ID["collective_dream"]}
    kinds = set()
    for players, st, wk, fw, args, seed in _late_positions():
        for skip in range(6):
            decided = _strong_decides(st, wk, fw, args, skip)
            if decided is None:
                break
            kinds.add(decided[0])
            assert decided[2] >= 2  # a decision of one option is nobody's to look ahead at
    assert not kinds & passed
    assert {DECISION_ID["perform"], DECISION_ID["floating_free"], DECISION_ID["shifting_dreams"]} <= kinds
    a, b = deck_arrays(deck_from_swap_texts([]))
    for players in (2, 3, 4):  # the first rounds: more than a third of the Sleep Deck left
        experts = strategy_args(["expert"] * players, players, Options())
        seats = ["strong"] + ["expert"] * (players - 1)
        for game in range(3):
            st, wk, fw = _position(a, b, players, False, False, knob_vector(Options(), players), seed_key(8), game, 0,
                                   *experts)
            assert (st[H_N_CARDS] - st[H_DECK_PTR]) * 3 > st[H_N_CARDS]
            assert _strong_decides(st, wk, fw, strategy_args(seats, players, Options()), 0) is None


def test_strong_looks_ahead_at_sixteen_options_drawn_at_random_and_takes_the_best_of_them():
    """The 16-option cap: the 120 orders (5!) of the five Dreamscape cards (Shifting Dreams) or cost tokens (the
    shifting tokens) get a value for exactly 16 of them, a
    different draw at each decision (not the first 16), and the option taken is the best valued one."""
    drawn = []
    for players, st, wk, fw, args, seed in _late_positions():
        for skip in range(6):
            decided = _strong_decides(st, wk, fw, args, skip)
            if decided is None:
                break
            kind, seat, n, values, best = decided
            valued = np.flatnonzero(values > -1e8)  # the others are marked unvalued (-1e9)
            if n <= 16:
                assert valued.size == n
                continue
            # 5! = 120 orders, fewer when two of the cards are the same pair of types (the swap deck's positions)
            assert kind in (DECISION_ID["shifting_dreams"], DECISION_ID["shifting_tokens"]) and 16 < n <= 120
            assert valued.size == 16 and best in valued and values[best] == values[valued].max()
            drawn.append(frozenset(valued.tolist()))
    # the draw follows the decision's stream: positions of two rule sets on the same game stream may share it
    assert len(set(drawn)) >= 4
    assert all(max(d) >= 16 for d in drawn)  # not the first sixteen options


def test_a_turn_that_ends_the_game_is_scored_by_its_result_and_strong_takes_the_win():
    """The fallback from the value to the result: a lookahead whose turn ends the game scores it as a playout
    does, win credit (R8.3: 1, 1/k shared, 0) + score margin / 1000, not by the value. With a hand-made value
    worth 0.5 everywhere, every option is then exactly 0.5 or a result, and where one option wins outright
    (1 or more) the bot takes a win, the largest margin first."""
    from simcore.games.dreamscape.fast.strategies import register_strong

    flat = ValueModel([-1], [0.0], [0], [0], [0.25], [0], [0.25], {"players": 2})  # 0.25 + one leaf of 0.25
    tables = StrongTables({(p, sleep, shift): flat for p in (2, 3, 4) for sleep in (False, True)
                           for shift in (False, True)})
    register_strong("strong-flat-test", tables, get_record("expert").tables[(3, False, False)], worlds=1)
    results = wins = 0
    for players, st, wk, fw, args, seed in _late_positions("strong-flat-test"):
        for skip in range(6):
            kind, seat, n, values, best = first_search(st, wk, fw, *args, skip)
            if kind < 0:
                break
            valued = values[values > -1e8]
            for v in valued[valued != 0.5]:  # a result: a credit and a whole number of points / 1000
                margins = [(v - credit) * 1000 for credit in (0.0, 1 / 4, 1 / 3, 1 / 2, 1.0)]
                assert any(abs(m - round(m)) < 1e-6 and abs(m) < 100 for m in margins), v
                results += 1
            assert values[best] == valued.max()
            if valued.max() >= 1.0:
                wins += 1
    assert results >= 20 and wins >= 10


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


@pytest.mark.parametrize("players, opt, swaps, bot", [
    (3, Options(), [], "strong"), (2, Options(True, False), ["NT:ED", "LD:PS"], "strong"),
    (4, Options(False, True), ["CD:ID"], "strong"), (3, Options(), [], "sharp"),
    (2, Options(False, True), [], "strong")])  # where strong looks ahead at take Z too (scratch.STRONG_RELEASED)
def test_strong_games_replay_identically_on_the_reference_engine(players, opt, swaps, bot):
    """Every decision the strong bot (and sharp, where its correction plays) takes is asked, with the same options,
    by the reference engine's rules."""
    names = [bot] + ["expert"] * (players - 1)
    for game in range(2):
        report = compare_game(deck_from_swap_texts(swaps), players, opt, 20261126, game, names)
        assert report is None, report


def test_strong_looks_ahead_at_take_z_in_two_player_shifting_tokens_games_only(monkeypatch):
    """scratch.STRONG_RELEASED: strong leaves buy, take Z and Collective Dream to the expert table everywhere but
    where a configuration measured otherwise; in 2-player shifting-tokens games it looks ahead at take Z too."""
    from analyses.games.dreamscape.kept import row_digest
    from simcore.games.dreamscape.fast import scratch
    from simcore.games.dreamscape.fast.scratch import MD_RELEASED, MD_SKIP

    take_z, buy, collective = (1 << DECISION_ID[k] for k in ("take_z", "buy", "collective_dream"))

    def modes(players, options, names):
        return strategy_args(names, players, options)[-2]

    shifting = Options(False, True)
    assert scratch.strong_released(None, False, True) == 0  # a row asked without a player count (the warm-up's)
    m = modes(2, shifting, ["strong", "strong"])
    assert m[MD_RELEASED, 0] == take_z and not m[MD_SKIP, 0] & take_z  # take Z looked ahead at
    assert m[MD_SKIP, 0] & buy and m[MD_SKIP, 0] & collective  # the other two still the table's
    for players, options in ((2, Options()), (2, Options(True, True)), (3, shifting), (4, shifting)):
        m = modes(players, options, ["strong"] * players)
        assert m[MD_RELEASED, 0] == 0 and m[MD_SKIP, 0] & take_z, (players, options)
    # the search over strong: its own search is as it was; its playouts' strong seats get the released kind
    search = load_strategy("search:strong@2:late")
    m = modes(2, shifting, [search, "strong"])
    assert m[MD_RELEASED, 0] == take_z and m[MD_SKIP, 0] == get_record(search).skip

    def games(players, options, names, n=60):
        return simulate(SimConfig(players, options), n, 7, names)

    released = games(2, shifting, ["strong", "strong"])
    base = games(2, Options(), ["strong", "strong"])
    searched = games(2, shifting, [search, "strong"], n=4)
    monkeypatch.setattr(scratch, "STRONG_RELEASED", {})
    assert not _same(released, games(2, shifting, ["strong", "strong"]))  # the release changes strong's games there
    assert _same(base, games(2, Options(), ["strong", "strong"]))  # and nothing where it is not declared
    assert not _same(searched, games(2, shifting, [search, "strong"], n=4))  # the playouts' strong seats too
    # the digest a study folder records: another one in 2-player shifting tokens only
    digests = {v: row_digest("strong", 2, v) for v in ("base", "shifting-tokens")}
    monkeypatch.undo()
    assert row_digest("strong", 2, "base") == digests["base"]
    assert row_digest("strong", 2, "shifting-tokens") != digests["shifting-tokens"]


def test_strong_with_an_expert_table_of_its_own_plays_that_table_in_its_early_game():
    """strong:VALUE.npz+expert:TABLE.toml (a refit of both for a changed game): with the shipped table of the rules
    options it is shipped strong, game for game; with another table its games change (the table plays the early and
    mid game, and the decisions strong leaves to it)."""
    from simcore.games.dreamscape.bots.expert import SHIPPED_DIR as TABLES
    from simcore.games.dreamscape.bots.strong import SHIPPED_DIR as VALUES

    cfg = SimConfig(3)
    value = VALUES / "3p-base.npz"
    same = load_strategy(f"strong:{value}+expert:{TABLES / '3p-base.toml'}")
    other = load_strategy(f"strong:{value}+expert:{TABLES / '3p-sleep-token.toml'}")
    shipped = simulate(cfg, 30, 7, "strong")
    again = simulate(cfg, 30, 7, same)
    changed = simulate(cfg, 30, 7, other)
    assert _same(shipped, again)
    assert not np.array_equal(shipped.score, changed.score)
    with pytest.raises(StrategyError, match="expert file"):
        load_strategy(f"strong:{value}+expert:{TABLES / 'no-such-table.toml'}")
