"""The rules knobs ``costs`` (R2.3) and ``chain`` (R8.2): parsing, hand-worked effects, both engines.

Expected values are worked out by hand from shared/rules/interpretations.md:
R2.3 (cost k on position k), R7.1 (the cards left slide to the cheapest
positions), R7.2 (refill most expensive first), R8.2 (the chain chart and its
steps +2 up to a run of 6, then +3, +3, +4, +4, ...).
"""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers linear
from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS
from simcore.games.dreamscape.cards import DreamType
from simcore.games.dreamscape.decks import build_deck
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.differential import compare_game
from simcore.games.dreamscape.fast.layout import H_POS_BY_COST, N_POS, knob_vector
from simcore.games.dreamscape.fast.zones import new_state, set_knobs
from simcore.games.dreamscape.reference import Game, setup_state
from simcore.games.dreamscape.rules import DEFAULT_COSTS, Options, chain_table
from simcore.games.dreamscape.scoring import chain_points
from simcore.games.dreamscape.variants import VariantError, parse_variant
from simcore.rng import GameRng

DECK = build_deck()
FF, NT, LD = DreamType.FLOATING_FREE, DreamType.NIGHT_TERROR, DreamType.LUCID_DREAMING


# ----------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    "text, name",
    [
        ("knob:costs=1,2,3,4,5", "base"),  # R2.3's own costs
        ("knob:costs=2,2,3,3,4", "knob:costs=2,2,3,3,4"),
        ("knob:chain=2,4,6", "base"),  # the printed chart's first three values
        ("knob:chain=2,4,6,8,10,13,16,20,24,29,34,40,46,53", "base"),  # ... and its continuation (R8.2)
        ("knob:chain=3,5,7,9", "knob:chain=3"),  # 5, 7, 9: what R8.2's +2 steps give after 3 anyway
        ("knob:chain=3,6,8", "knob:chain=3,6"),
        ("knob:chain=2", "base"),
        ("knob:chain=3", "knob:chain=3"),
        ("knob:chain=3,6+knob:costs=5,4,3,2,1+sleep-token", "sleep-token+knob:costs=5,4,3,2,1+knob:chain=3,6"),
    ],
)
def test_costs_and_chain_parse_to_a_canonical_name(text, name):
    v = parse_variant(text)
    assert v.name == name
    assert parse_variant(v.name) == v


@pytest.mark.parametrize(
    "text, words",
    [
        ("knob:cost=1,2,3,4,5", "unknown knob 'cost'"),
        ("knob:costs=1,2,3,4", "takes 5 values"),
        ("knob:costs=0,1,2,3,4", "outside 1..10"),
        ("knob:costs=1,2,3,4,11", "outside 1..10"),
        ("knob:costs=2,2,3,3,4+shifting-tokens", "fixes the same number"),
        ("knob:chain=4,3", "never fall"),
        ("knob:chain=2,5,5,4", "a run of 5 scores 4, less than the 5 of a run of 4"),
        ("knob:chain=201", "outside 0..200"),
        ("knob:chain=" + ",".join(["5"] * 21), "takes 1 to 20 values"),
        ("knob:chain", "needs a value, e.g. knob:chain=2,4,6"),
        ("knob:chain=3+knob:chain=4", "appears twice"),
    ],
)
def test_bad_costs_and_chain_name_the_problem_in_one_line(text, words):
    with pytest.raises(VariantError, match=words) as info:
        parse_variant(text)
    assert "\n" not in str(info.value)


def test_chain_table_continues_with_the_rulebook_steps():
    # knob:chain=3,5: runs of 2 and 3 score 3 and 5; then R8.2's steps: +2 to
    # 4 and 5 and 6 cards (7, 9, 11), +3 to 7 and 8 cards (14, 17), +4 to 9 (21).
    t = chain_table((3, 5))
    assert t[:10] == (0, 0, 3, 5, 7, 9, 11, 14, 17, 21)
    # Past the printed 14 -> 46: +7, +7, +8 (R8.2: 15 -> 53, 16 -> 60, 17 -> 68).
    assert chain_table()[14:18] == (46, 53, 60, 68)
    # A list reaching past a run of 6 continues from its own last value.
    # Runs of 2..7 score 1; run 8 = 1 + 3 (R8.2's step to 8), run 9 = 4 + 4 (its step to 9).
    assert chain_table((1, 1, 1, 1, 1, 1))[6:10] == (1, 1, 4, 8)


def test_chain_knob_scores_a_hand_stacked_rem():
    # Bottom to top: FF/NT, FF/NT, FF/LD, LD/NT. Runs: FF 3 (cards 1-3), NT 2
    # (cards 1-2), NT 1 (card 4), LD 2 (cards 3-4).
    rem = [(FF, NT), (FF, NT), (FF, LD), (LD, NT)]
    assert chain_points(rem) == 4 + 2 + 2  # the printed chart: 3 -> 4, 2 -> 2
    assert chain_points(rem, chain_table((5, 9))) == 9 + 5 + 5


# ----------------------------------------------------------------------------- costs on the table (R2.3, R7.1, R7.2)


def test_costs_knob_sets_the_market_and_equal_costs_rank_by_position():
    o = parse_variant("knob:costs=2,2,1,5,5").options
    s = setup_state(list(DECK.cards), list(range(52)), 3, o)
    assert s.costs == [2, 2, 1, 5, 5]
    assert s.dreamscape == [7, 6, 5, 4, 3]  # R2.3: the fill stays positions 5, 4, 3, 2, 1
    # R7.1 cheapest first: position 3 (cost 1), then 1 and 2 (cost 2, lower first), then 4, 5.
    assert s.positions_by_cost() == [3, 1, 2, 4, 5]
    assert setup_state(list(DECK.cards), list(range(52)), 3, Options()).costs == list(DEFAULT_COSTS)


def test_fast_engine_ranks_positions_as_the_reference_engine():
    rng = random.Random(5)
    for _ in range(40):
        costs = tuple(rng.randint(1, 4) for _ in range(N_POS))
        o = Options(costs=costs)
        st = new_state(np.zeros(52, np.int32), np.ones(52, np.int32), 2, False, False)
        set_knobs(st, knob_vector(o, 2))
        expected = sorted(range(1, 6), key=lambda p: (costs[p - 1], p))
        assert [int(st[H_POS_BY_COST + k]) + 1 for k in range(N_POS)] == expected


def test_a_cheap_market_slides_and_refills_by_the_costs():
    # Costs 5,4,3,2,1: position 5 is the cheapest. A game played to its end on
    # the reference engine: after every turn's slide (R7.1) the cards fill the
    # cheapest positions, so an empty position is never cheaper than a full one.
    o = parse_variant("knob:costs=5,4,3,2,1").options
    g = Game.new(DECK, 2, GameRng(11, 0), o)
    seen_empty = False
    def check(state):
        nonlocal seen_empty
        empty = [p for p in range(1, 6) if state.dreamscape[p - 1] is None]
        full = [p for p in range(1, 6) if state.dreamscape[p - 1] is not None]
        seen_empty |= bool(empty)
        assert all(state.costs[e - 1] >= state.costs[f - 1] for e in empty for f in full)
    g.state.on_turn_end = check
    drng = GameRng.decisions(11, 0)
    while not g.over:
        g.apply(REFERENCE_BOTS["greedy"].choose(g.state, g.pending, drng))
    assert g.state.costs == [5, 4, 3, 2, 1]


def test_dearer_market_means_fewer_purchases():
    cheap = simulate(SimConfig(players=3, options=parse_variant("knob:costs=1,1,1,1,1").options), 40, 5, "greedy")
    dear = simulate(SimConfig(players=3, options=parse_variant("knob:costs=3,4,5,6,7").options), 40, 5, "greedy")
    # A position at cost 1 is bought with any one Z card: games end sooner.
    assert cheap.length.mean() < dear.length.mean()


# ----------------------------------------------------------------------------- both engines alike


def random_costs_chain(rng: random.Random, players: int) -> Options:
    costs = tuple(rng.randint(1, 6) for _ in range(N_POS)) if rng.random() < 0.7 else ()
    chain = ()
    if rng.random() < 0.7:
        chain = tuple(sorted(rng.randint(0, 40) for _ in range(rng.randint(1, 8))))
    sleep_token = rng.random() < 0.3
    shifting = not costs and rng.random() < 0.5
    return Options(sleep_token, shifting, (), (), rng.randint(0, 2), 0, 0, costs, chain)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_costs_and_chain_play_identically_on_both_engines(players):
    rng = random.Random(4100 + players)
    for game in range(5):
        options = random_costs_chain(rng, players)
        for bot in ("random", "greedy"):
            assert compare_game(DECK, players, options, 78, game, bot, REFERENCE_BOTS) is None, options
        assert compare_game(DECK, players, options, 78, game, "linear") is None, options


@pytest.mark.parametrize("players", [2, 3])
def test_chain_knob_scores_alike_on_both_engines(players):
    options = parse_variant("knob:chain=5,6,20+knob:costs=2,2,2,3,3").options
    for game in range(3):
        fast = simulate(SimConfig(players=players, options=options), game + 1, 41, "random")
        g = Game.new(DECK, players, GameRng(41, game), options)
        drng = GameRng.decisions(41, game)
        while not g.over:
            g.apply(REFERENCE_BOTS["random"].choose(g.state, g.pending, drng))
        table = chain_table((5, 6, 20))
        for s in range(players):
            rem = [g.state.cards[c] for c in g.state.seats[s].rem]
            assert g.state.final_score(s) == chain_points(rem, table) - g.state.seats[s].z
        assert [g.state.final_score(s) for s in range(players)] == list(fast.score[game])


# ----------------------------------------------------------------------------- hand-worked scenarios (setup.knobs)

from pathlib import Path  # noqa: E402

from simcore.games.dreamscape.conformance import run_scenario_file  # noqa: E402

SCENARIOS = Path(__file__).resolve().parents[1] / "simcore" / "games" / "dreamscape" / "scenarios"
KNOB_SCENARIOS = [SCENARIOS / "t36-costs-knob-slide-by-cost.json", SCENARIOS / "t37-chain-knob-run-of-three.json"]
BROKEN = Path(__file__).resolve().parent / "ds_knob_broken"


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("path", KNOB_SCENARIOS, ids=lambda p: p.stem)
def test_knob_scenarios_pass(path, engine):
    result = run_scenario_file(path, engine)
    assert result.passed, result.reason


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("path", KNOB_SCENARIOS, ids=lambda p: p.stem)
def test_broken_knob_scenarios_fail_on_their_wrong_value(path, engine):
    broken = BROKEN / f"{path.stem}-broken.json"
    result = run_scenario_file(broken, engine)
    assert not result.passed and not result.malformed
    field = json.loads(broken.read_text())["broken"].split("expect.")[1].split(":")[0]
    assert field in result.reason, result.reason


@pytest.mark.parametrize(
    "knobs, words",
    [
        ("knob:costs=1,2", "takes 5 values"),
        ("sleep-token", "may only hold knob:NAME=VALUE"),
        (5, "must be a text"),
    ],
)
def test_bad_scenario_knobs_are_one_line_errors(knobs, words, tmp_path):
    data = json.loads(KNOB_SCENARIOS[0].read_text())
    data["setup"]["knobs"] = knobs
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = run_scenario_file(path, "reference")
    assert result.malformed and words in result.reason and "\n" not in result.reason


def test_scenario_costs_must_be_the_knob_costs(tmp_path):
    data = json.loads(KNOB_SCENARIOS[0].read_text())
    data["setup"]["costs"] = [1, 2, 3, 4, 5]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = run_scenario_file(path, "reference")
    assert result.malformed and "must be the knob's costs [3, 3, 1, 2, 5]" in result.reason
