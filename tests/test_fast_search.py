"""The search player (search:NAME@K, Mode.SEARCH): legal, reproducible, blind to hidden cards, stronger than its policy."""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers linear, rollout, chain, ...
from simcore.games.dreamscape.decks import deck_from_swap_texts
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.batch import start_game
from simcore.games.dreamscape.fast.differential import compare_game
from simcore.games.dreamscape.fast.isearch import first_search, play_game_search
from simcore.games.dreamscape.fast.kernels import play_turn
from simcore.games.dreamscape.fast.layout import H_DECK_PTR, H_GAME_OVER, H_N_CARDS, S_Z_LEN, knob_vector, off_deck, off_z, seat_base
from simcore.fast_rng import seed_key, stream_state
from simcore.games.dreamscape.fast.runner import deck_arrays, strategy_args
from simcore.games.dreamscape.fast.scratch import MODE_SEARCH, new_work
from simcore.games.dreamscape.fast.strategies import get_record
from simcore.games.dreamscape.rules import DECISION_ID, Options
from simcore.games.dreamscape.bots.api import StrategyError, load_strategy
from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS

FIELDS = ("score", "z", "turns", "win", "length", "aborted", "performed", "chain_by_type")


def _same(a, b):
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in FIELDS)


# ------------------------------------------------------------------ names


def test_search_names_resolve_to_registered_records():
    assert load_strategy("search:linear") == "search:linear"
    assert load_strategy("search:linear@8") == "search:linear"  # 8 is the default K
    assert load_strategy("search:greedy@3") == "search:greedy@3"
    rec, lin = get_record(load_strategy("search:linear@16")), get_record("linear")
    assert rec.mode == MODE_SEARCH and rec.playouts == 16 and rec.policy == lin.mode
    assert np.array_equal(rec.weights, lin.weights) and rec.compiled is lin.compiled
    chain = get_record(load_strategy("search:chain@2"))
    assert chain.decides == get_record("chain").decides  # the policy is called only at its kinds


@pytest.mark.parametrize(
    "spec,words",
    [
        ("search:linear@0", "whole number 1 to 10,000"),
        ("search:linear@x", "whole number 1 to 10,000"),
        ("search:", "name the playout strategy"),
        ("search:nosuchbot", "unknown strategy"),
        ("search:rollout", "plain strategy"),
        ("search:search:linear", "plain strategy"),
    ],
)
def test_bad_search_names_are_one_line_errors(spec, words):
    with pytest.raises(StrategyError) as exc:
        load_strategy(spec)
    assert words in str(exc.value) and "\n" not in str(exc.value)


# ------------------------------------------------------------------ legality (replayed on the reference engine)

LEGAL = [
    ("base", [], 3, Options(), "search:linear@2"),
    ("NT:ED+LD:PS", ["NT:ED", "LD:PS"], 2, Options(True, False), "search:linear@2"),
    ("CD:ID+RD:ED+SD:PS", ["CD:ID", "RD:ED", "SD:PS"], 4, Options(True, True), "search:chain@1"),
    ("FF:ID", ["FF:ID"], 1, Options(False, True), "search:linear@2"),
]


@pytest.mark.parametrize("label,swaps,players,opt,spec", LEGAL, ids=[f"{x[0]}-{x[2]}p-{x[3].label()}" for x in LEGAL])
def test_search_games_replay_identically_on_the_reference_engine(label, swaps, players, opt, spec):
    """Every recorded decision (kind, seat, options) of a search game is asked by the reference engine too,
    and the final positions agree: the search only ever plays legal options, at every decision kind."""
    name = load_strategy(spec)
    deck = deck_from_swap_texts(swaps)
    names = [name] + ["linear", load_strategy("search:linear@1"), "greedy"][: players - 1]  # 4p: two search seats
    for game in range(2):
        report = compare_game(deck, players, opt, 20261121, game, names, REFERENCE_BOTS)
        assert report is None, report


# ------------------------------------------------------------------ determinism


def test_same_seed_same_games_whatever_the_chunk_size():
    name = load_strategy("search:linear@2")
    cfg = SimConfig(3, Options(True, False))
    seats = [name, "linear", "rollout"]  # a rollout seat in a search game is searched at its buys
    a = simulate(cfg, 12, 5, seats, chunk_size=12)
    b = simulate(cfg, 12, 5, seats, chunk_size=1)
    c = simulate(cfg, 12, 5, seats, chunk_size=5)
    assert _same(a, b) and _same(a, c)
    d = simulate(cfg, 12, 6, seats, chunk_size=12)
    assert not np.array_equal(a.score, d.score)  # another seed plays other games


@njit
def _dealt_worlds_agree(a, b, players, sleep, shift, knobs, key, games, s0, s1, s2, s3, modes, weights):
    bad = 0
    for g in range(games):
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = stream_state(key, g)
        st = start_game(a, b, players, sleep, shift, knobs, rng)
        wk, fw = new_work(a.shape[0], rng[0], 0, 0, modes, weights)
        bad += play_game_search(st, wk, fw, (s0, s1, s2, s3), modes, weights)
    return bad


def test_every_replayed_prefix_fits_the_dealt_world():
    """A forced choice is never out of range in a playout: the dealt worlds agree with everything seen."""
    deck = deck_from_swap_texts(["NT:ED", "LD:PS"])  # Paradigm Shift draws face up mid-turn (R6.11)
    a, b = deck_arrays(deck)
    name = load_strategy("search:linear@2")
    for players, opt in ((4, Options(True, True)), (1, Options())):
        args = strategy_args([name] + ["linear"] * (players - 1))
        bad = _dealt_worlds_agree(a, b, players, opt.sleep_token, opt.shifting_tokens, knob_vector(opt, players), seed_key(3), 6, *args)
        assert bad == 0


# ------------------------------------------------------------------ no peeking


@njit
def _position(a, b, players, sleep, shift, knobs, key, game, turns, s0, s1, s2, s3, modes, weights):
    """The state and scratch at the start of turn ``turns`` of a game every seat plays by its mode."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = stream_state(key, game)
    st = start_game(a, b, players, sleep, shift, knobs, rng)
    wk, fw = new_work(a.shape[0], rng[0], 0, 0, modes, weights)
    for _ in range(turns):
        if st[H_GAME_OVER] != 0:
            break
        play_turn(st, wk, fw, (s0, s1, s2, s3))
    return st, wk, fw


def _shuffle_hidden(st, seed, keep_z_top=0):
    """Another order of the cards no seat can see: the Sleep Deck below its top and every Z card, mixed.

    ``keep_z_top``: the top cards of each Deep Sleep stack stay where they are. A Night Terror removes the
    target's top Z card face up (R6.3, R3.3): a turn that performs it before a decision shows the seat that card.
    """
    st = st.copy()
    places = list(range(off_deck(st) + st[H_DECK_PTR], off_deck(st) + st[H_N_CARDS]))
    for s in range(int(st[0])):
        places += [off_z(st, s) + k for k in range(max(0, st[seat_base(s) + S_Z_LEN] - keep_z_top))]
    cards = st[places]
    st[places] = np.random.default_rng(seed).permutation(cards)
    assert not np.array_equal(st[places], cards)
    return st


@pytest.mark.parametrize("skip", [0, 1])
def test_the_search_does_not_read_the_hidden_order(skip):
    """Same position, same stream, another hidden order: identical playout values and the same choice.

    The active seat searches (search:linear@3) at the first (skip 0: mostly
    take_z, where the top card would matter most) or second search decision
    of its turn (skip 1: mostly a buy after a face-down draw); the other seats
    play linear. Positions from several games and turns; without the Sleep
    Token, Night Terror or Paradigm Shift nothing is turned face up between
    the two decisions, so the seat has seen the same in both positions.
    """
    name = load_strategy("search:linear@3")
    deck = deck_from_swap_texts([] if skip else ["NT:ED", "LD:PS"])
    a, b = deck_arrays(deck)
    seen = 0
    differing = 0
    configs = ((3, Options()), (2, Options(False, True)), (4, Options())) if skip else \
        ((3, Options()), (2, Options(True, False)), (4, Options(False, True)))
    for players, opt in configs:
        for game in range(4):
            for turns in (players + 1, players * 2):  # games of linear bots last ~4-5 rounds
                lin = strategy_args(["linear"] * players)
                st, wk, fw = _position(a, b, players, opt.sleep_token, opt.shifting_tokens, knob_vector(opt, players), seed_key(8), game, turns, *lin)
                if st[H_GAME_OVER]:
                    continue
                active = int(st[2])
                seats = ["linear"] * players
                seats[active] = name
                args = strategy_args(seats)
                kind, seat, n, values, best = first_search(st, wk, fw, *args, skip)
                if kind < 0:
                    continue
                other = first_search(_shuffle_hidden(st, game * 100 + turns), wk, fw, *args, skip)
                assert seat == active and n >= 2
                assert (other[0], other[1], other[2], other[4]) == (kind, seat, n, best)
                assert np.array_equal(other[3], values), (values, other[3])
                seen += 1
                differing += len(set(values.tolist())) > 1
    assert seen >= 16 and differing >= seen // 2  # the values are not all alike: the check is not vacuous


def test_the_late_game_search_does_not_read_the_hidden_order():
    """The late game, where search gains most over expert (issue #12), is not won by peeking.

    Positions in the last third of the Sleep Deck of expert self-play, where few
    unseen cards are left and the true order would help most. The active seat plays
    ``search:expert@4:late``; its first three searched decisions of the turn must
    have the same playout values whatever the order of the cards nobody can see.
    (No Sleep Token: its red side turns a Z card face up at the start of the turn,
    so after it the seat legitimately knows a card the shuffle changes.)
    """
    name = load_strategy("search:expert@4:late")
    a, b = deck_arrays(deck_from_swap_texts([]))
    seen = differing = 0
    # a changed game too: the features read its market costs and chain table from the state (issue #41)
    for players, opt in ((2, Options()), (3, Options()), (4, Options(False, True)),
                         (3, Options(costs=(2, 3, 4, 5, 6), chain=(3, 6, 9)))):
        for game in range(3):
            for turns in range(players * 2, players * 12):
                experts = strategy_args(["expert"] * players, players, opt)
                st, wk, fw = _position(a, b, players, opt.sleep_token, opt.shifting_tokens, knob_vector(opt, players),
                                       seed_key(8), game, turns, *experts)
                if st[H_GAME_OVER]:
                    break
                if (st[H_N_CARDS] - st[H_DECK_PTR]) * 3 > st[H_N_CARDS]:
                    continue  # not the late third yet: the searcher plays expert there
                seats = ["expert"] * players
                seats[int(st[2])] = name
                args = strategy_args(seats, players, opt)
                shuffled = _shuffle_hidden(st, game * 100 + turns)
                for skip in range(3):
                    kind, seat, n, values, best = first_search(st, wk, fw, *args, skip)
                    if kind < 0:
                        break
                    other = first_search(shuffled, wk, fw, *args, skip)
                    assert (other[0], other[1], other[2], other[4]) == (kind, seat, n, best)
                    assert np.array_equal(other[3], values), (players, game, turns, skip, values, other[3])
                    seen += 1
                    differing += len(set(values.tolist())) > 1
    assert seen >= 30 and differing >= seen // 2  # late positions were searched, with values that differ


# ------------------------------------------------------------------ strength


def test_search_beats_its_own_policy_in_seat_one():
    """search:linear@4 in seat 1 against two linear bots wins clearly more than linear there (same deals)."""
    name = load_strategy("search:linear@4")
    cfg = SimConfig(3)
    n = 160
    s = simulate(cfg, n, 2026, [name, "linear", "linear"])
    base = simulate(cfg, n, 2026, "linear")
    d = s.win[:, 0] - base.win[:, 0]
    low = d.mean() - 1.96 * d.std(ddof=1) / np.sqrt(n)
    assert low > 0, (s.win[:, 0].mean(), base.win[:, 0].mean())


# ------------------------------------------------------------------ a search player limited to game phases


def _phases_along(deck, players, options, seed, game, choices):
    """The game phase at each decision of a replay on the reference engine: 0 early, 1 mid, 2 late.

    The expert tables' split (simcore.games.dreamscape.fast.scratch.expert_phase): more than 2/3 of
    the deck's cards still in the Sleep Deck, more than 1/3, or less.
    """
    from simcore.games.dreamscape.reference import Game
    from simcore.rng import GameRng

    g = Game.new(deck, players, GameRng(seed, game), options)
    phases = []
    for choice in choices:
        left = len(g.state.sleep_deck) / len(g.state.cards)
        phases.append(0 if left > 2 / 3 else (1 if left > 1 / 3 else 2))
        g.apply(choice, g.pending.kind)
    return phases


@pytest.mark.parametrize("phase,index", [("late", 2), ("early", 0)])
def test_a_phase_limited_search_seat_plays_its_policy_outside_its_phase(phase, index):
    from simcore.games.dreamscape.fast.bridge import decode_trace, play_traced

    deck = deck_from_swap_texts([])
    name = load_strategy(f"search:greedy@2:{phase}")
    assert name == f"search:greedy@2:{phase}" and get_record(name).mode == MODE_SEARCH
    diverged = 0
    for game in range(4):
        _, meta, opts = play_traced(deck, 3, Options(), 9, game, [name, "greedy", "greedy"])
        searched = [(k, s, x) for k, s, _, x in decode_trace(meta, opts)]
        _, meta, opts = play_traced(deck, 3, Options(), 9, game, ["greedy"] * 3)
        plain = [(k, s, x) for k, s, _, x in decode_trace(meta, opts)]
        first = next((i for i, (a, b) in enumerate(zip(searched, plain)) if a != b), None)
        if first is None:
            continue
        diverged += 1
        phases = _phases_along(deck, 3, Options(), 9, game, [x for *_, x in searched])
        # the two games agree decision for decision until seat 1 has searched: the first difference comes in the
        # phase it searches (at its own decision, or at another seat's tie-break drawn from the game's stream,
        # which a searched decision leaves elsewhere than greedy's own tie-breaks would), after a decision of seat 1
        assert phases[first] == index
        assert any(searched[i][1] == 0 and phases[i] == index for i in range(first + 1))
    assert diverged >= 2  # the phase it searches changes games


def test_searching_every_phase_is_the_plain_search_player():
    assert load_strategy("search:linear@3:early+mid+late") == "search:linear@3"
    assert load_strategy("search:linear@8:late+mid") == "search:linear@8:mid+late"  # phases in game order
    assert get_record(load_strategy("search:linear@8:late")).skip != 0 and get_record("search:linear@3").skip == 0


@pytest.mark.parametrize("spec", ["search:linear@4:", "search:linear@4:dawn", "search:linear@4:late+late"])
def test_bad_phases_are_one_line_errors(spec):
    with pytest.raises(StrategyError) as exc:
        load_strategy(spec)
    assert "early, mid, late" in str(exc.value) and "\n" not in str(exc.value)


# ------------------------------------------------------------------ a search player limited to decision kinds


@pytest.mark.slow  # research driver: its own kernels compile for about two minutes (run with -m slow)
def test_a_kind_limited_search_plays_the_games_of_a_search_masked_to_those_kinds():
    """search:NAME@K:late:buy+perform is the late searcher whose mask holds only purchases and performs.

    The diagnostics set the same mask another way (a hook at every turn start, research/diagnostic_games.py);
    the games must agree bit for bit.
    """
    from research.diagnostic_games import only_phase, play_restricted

    cfg = SimConfig(3, Options())
    limited = load_strategy("search:expert@2:late:buy+perform")
    every = load_strategy("search:expert@2:late")
    mask = only_phase((1 << DECISION_ID["buy"]) | (1 << DECISION_ID["perform"]), 2)
    masked = play_restricted(cfg, 8, 4, [every, "expert", "expert"], [mask, 0, 0])
    assert np.array_equal(simulate(cfg, 8, 4, [limited, "expert", "expert"]).win, masked)


def test_a_kind_limited_search_plays_other_games_than_every_kind_or_none_the_same_whatever_the_chunks():
    """The kind-limited searcher's games differ from searching every kind and from not searching, and do not
    depend on the chunk size or the number of threads. (That they are the games of a search masked to those
    kinds, checked against the diagnostics' own driver, is the slow test above.)"""
    cfg = SimConfig(3, Options())
    limited = load_strategy("search:expert@2:late:perform+buy")
    assert limited == "search:expert@2:late:buy+perform"  # kinds in DECISION_KINDS order
    every = load_strategy("search:expert@2:late")
    games = simulate(cfg, 8, 4, [limited, "expert", "expert"])
    whole = simulate(cfg, 8, 4, [every, "expert", "expert"])
    plain = simulate(cfg, 8, 4, ["expert"] * 3)
    differs = [not _same(games, other) for other in (whole, plain)]
    assert all(differs)
    assert _same(games, simulate(cfg, 8, 4, [limited, "expert", "expert"], chunk_size=3))
    import numba

    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        assert _same(games, simulate(cfg, 8, 4, [limited, "expert", "expert"]))
    finally:
        numba.set_num_threads(before)


def test_searching_every_kind_is_the_plain_search_player():
    from simcore.games.dreamscape.rules import DECISION_KINDS

    every = "+".join(DECISION_KINDS)
    assert load_strategy(f"search:linear@3:late:{every}") == "search:linear@3:late"
    assert load_strategy(f"search:linear@3:early+mid+late:{every}") == "search:linear@3"
    name = load_strategy("search:linear@3:early+mid+late:buy")  # purchases in every phase
    assert name == "search:linear@3:early+mid+late:buy"
    assert get_record(name).skip == ((1 << len(DECISION_KINDS)) - 1) & ~(1 << DECISION_ID["buy"])
    assert "every buy decision" in get_record(name).description


@pytest.mark.parametrize("spec", ["search:linear@4:late:", "search:linear@4:late:dance", "search:linear@4:late:buy+buy",
                                  "search:linear@4:late:buy:perform"])
def test_bad_kinds_are_one_line_errors(spec):
    with pytest.raises(StrategyError) as exc:
        load_strategy(spec)
    assert "decision kinds" in str(exc.value) and "\n" not in str(exc.value)


def test_a_phase_limited_search_gives_the_same_games_whatever_the_chunk_size():
    name = load_strategy("search:linear@2:mid+late")
    cfg = SimConfig(4, Options(False, True))
    seats = [name, "linear", name, "greedy"]
    a = simulate(cfg, 10, 8, seats, chunk_size=10)
    assert _same(a, simulate(cfg, 10, 8, seats, chunk_size=3)) and _same(a, simulate(cfg, 10, 8, seats, chunk_size=1))


def test_a_phase_limited_search_on_every_seat_is_one_bot_in_a_studys_tables():
    """Study tables join the seats' bots with "/": the phases' separator must not look like one."""
    import polars as pl

    from analyses.study.model import RunConfig
    from reports.games.dreamscape.data import homogeneous

    name = load_strategy("search:linear@2:mid+late")
    label = RunConfig("base", 3, (name,) * 3).label
    assert label == name
    frame = pl.DataFrame({"strategies": [label, "linear/greedy/greedy"]})
    assert homogeneous(frame)["strategies"].to_list() == [name]
