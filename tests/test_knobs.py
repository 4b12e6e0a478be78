"""Rules knobs (``knob:NAME=VALUE`` in the variant notation): parsing, hand-worked effects, both engines.

Each knob changes one rule of shared/rules/interpretations.md (start-z and
remove R2.2, bonus and z-penalty R8.2, max-buys R5.2). The expected values
below are worked out by hand from those rules; the differential test plays
random knob settings on both engines from the same streams.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers linear
from simcore.games.dreamscape.decks import DeckError, build_deck, check_deck_fits
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.bridge import decode_trace, play_traced
from simcore.games.dreamscape.fast.differential import compare_game
from simcore.games.dreamscape.fast.layout import N_KNOBS, knob_vector
from simcore.games.dreamscape.reference import Game, setup_state
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import KNOBS, KnobError, Options
from simcore.games.dreamscape.variants import VariantError, check_variant_fits, parse_variant
from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS

DECK = build_deck()


# ----------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    "text, name",
    [
        ("knob:start-z=0,1,1", "knob:start-z=0,1,1"),
        ("knob:start-z=1", "base"),  # the rulebook's value is the printed game
        ("knob:start-z=1,1,1+sleep-token", "sleep-token"),
        ("FF:ID+knob:z-penalty=2+knob:bonus=0,1,2", "knob:bonus=0,1,2+knob:z-penalty=2+FF:ID"),
        ("knob:remove=10+knob:max-buys=2", "knob:max-buys=2+knob:remove=10"),
    ],
)
def test_knob_tokens_parse_to_a_canonical_name(text, name):
    v = parse_variant(text)
    assert v.name == name
    assert parse_variant(v.name) == v


def test_knob_values_land_in_the_options():
    o = parse_variant("knob:start-z=0,2+knob:bonus=3+knob:z-penalty=0+knob:max-buys=1+knob:remove=20").options
    assert (o.start_z, o.bonus, o.z_penalty, o.max_buys, o.removed) == ((0, 2), (3,), 0, 1, 20)
    assert o.seat_values("bonus", 3) == (3, 3, 3)
    assert o.seat_values("start_z", 2) == (0, 2)


@pytest.mark.parametrize(
    "text, words",
    [
        ("knob:start-z=4", "outside 0..3"),
        ("knob:bonus=-1", "outside 0..10"),
        ("knob:z-penalty=9", "outside 0..3"),
        ("knob:max-buys=0", "outside 1..5"),
        ("knob:remove=21", "outside 0..20"),
        ("knob:z-penalty=1,2", "takes one value"),
        ("knob:bonus=1,2,3,4,5", "at most 4"),
        ("knob:bonus=two", "not a whole number"),
        ("knob:speed=3", "unknown knob"),
        ("knob:remove", "needs a value"),
        ("knob:remove=1+knob:remove=2", "appears twice"),
    ],
)
def test_bad_knob_values_name_the_problem(text, words):
    with pytest.raises(VariantError, match=words):
        parse_variant(text)


def test_every_knob_default_is_the_rulebook():
    assert Options() == parse_variant("base").options
    assert [k.rule for k in KNOBS] == ["R2.2", "R8.2", "R8.2", "R5.2", "R2.2", "R2.3", "R8.2",
                                       "R4.1", "R5.1", "R5.2", "R6.4", "R3.2", "R6.3", "R6.5", "R6.11", "R9", "R1.3"]
    v = knob_vector(Options(), 4)
    assert v.shape == (N_KNOBS,)
    assert list(v[:11]) == [1, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0]  # z-penalty 1, no buy limit, none removed, 1 Z each
    assert list(v[11:16]) == [1, 2, 3, 4, 5]  # R2.3: cost k on position k
    # R4.1 take 1, R5.1 reserved card 1, R5.2 at least 1 buy, R6.4 no reserve limit, R3.2 floor 1,
    # R6.5 respite 1, R6.11 up to 2 discards, R9 token point 1, R6.3 Night Terror discards 1
    assert list(v[16:25]) == [1, 1, 1, 0, 1, 1, 2, 1, 1]
    # R8.2's chart for runs of 0..15 cards (15 -> 53 continues the chart's steps)
    assert list(v[25:41]) == [0, 0, 2, 4, 6, 8, 10, 13, 16, 20, 24, 29, 34, 40, 46, 53]


def test_a_per_seat_knob_must_fit_the_seat_count():
    v = parse_variant("knob:start-z=0,1,1")
    check_variant_fits(v, 3)
    with pytest.raises(VariantError, match="3 values but the game has 4 seat"):
        check_variant_fits(v, 4)
    with pytest.raises(KnobError):
        SimConfig(players=2, options=v.options)
    with pytest.raises(KnobError):
        Game.new(DECK, 4, GameRng(1, 0), v.options)


def test_the_deck_must_hold_the_removed_and_dealt_cards():
    o = parse_variant("knob:remove=20+knob:start-z=3").options
    assert o.setup_cards(4) == 20 + 12
    check_deck_fits(DECK, 4, o.setup_cards(4))  # 52 >= 32 + 5
    with pytest.raises(DeckError, match="needs at least 37"):
        check_deck_fits(type(DECK)(cards=DECK.cards[:36]), 4, o.setup_cards(4))


# ----------------------------------------------------------------------------- hand-worked setup (R2.2)

ORDER = list(range(52))  # card ids top first: the deal is readable


def test_start_z_zero_gives_the_first_seat_no_z_card():
    s = setup_state(list(DECK.cards), ORDER, 3, parse_variant("knob:start-z=0,1,1").options)
    assert [st.deep_sleep for st in s.seats] == [[], [0], [1]]
    assert s.dreamscape == [6, 5, 4, 3, 2]  # R2.3: positions 5, 4, 3, 2, 1 from cards 2..6
    assert len(s.sleep_deck) == 52 - 2 - 5
    assert s.budget(0) == 0


def test_start_z_deals_each_seat_its_cards_in_seat_order():
    s = setup_state(list(DECK.cards), ORDER, 2, parse_variant("knob:start-z=2,3").options)
    assert [st.deep_sleep for st in s.seats] == [[0, 1], [2, 3, 4]]
    assert s.dreamscape[4] == 5


def test_remove_takes_cards_off_the_top_before_dealing():
    s = setup_state(list(DECK.cards), ORDER, 3, parse_variant("knob:remove=4").options)
    assert [st.deep_sleep for st in s.seats] == [[4], [5], [6]]
    assert s.sleep_deck[0] == 12 and len(s.sleep_deck) == 52 - 4 - 3 - 5
    assert all(c not in s.discard for c in range(4))  # out of the game, not discarded


# ----------------------------------------------------------------------------- scoring (R8.2) on both engines


def _games(variant: str, players: int, n: int = 60, bot: str = "greedy"):
    return simulate(SimConfig(players=players, options=parse_variant(variant).options), n, 5, bot)


def test_z_penalty_changes_each_final_score_by_exactly_the_extra_penalty():
    # The bots judge by the printed score (R8.2), so the games are the same and
    # only the final scores move: by (3 - 1) points per Z card held.
    base, harsh = _games("base", 3), _games("knob:z-penalty=3", 3)
    assert np.array_equal(base.length, harsh.length) and np.array_equal(base.z, harsh.z)
    assert np.array_equal(harsh.score, base.score - 2 * base.z)
    assert (base.z > 0).any()


def test_bonus_adds_each_seats_points_and_can_change_the_winner():
    base, comp = _games("base", 3), _games("knob:bonus=0,4,8", 3)
    assert np.array_equal(comp.score, base.score + np.array([0, 4, 8]))
    # R8.3 on the new scores: the winner is the highest final score (ties: most Z).
    top = comp.score.max(axis=1, keepdims=True)
    assert ((comp.win > 0) <= (comp.score == top)).all()
    assert comp.win[:, 2].sum() > base.win[:, 2].sum()


def test_reference_final_score_uses_the_knobs():
    o = parse_variant("knob:z-penalty=2+knob:bonus=0,5").options
    g = Game.new(DECK, 2, GameRng(3, 0), o)
    while not g.over:
        g.apply(g.pending.choices[0])
    s = g.state
    for seat in range(2):
        assert s.final_score(seat) == s.score(seat) - s.seats[seat].z + (0, 5)[seat]


# ----------------------------------------------------------------------------- max-buys (R5.2)


def _buy_choices(variant: str, game: int):
    st, meta, opts = play_traced(DECK, 3, parse_variant(variant).options, 9, game, ["linear"] * 3)
    return [choices for kind, _seat, choices, _c in decode_trace(meta, opts) if kind == "buy"]


def test_max_buys_one_never_offers_a_second_purchase():
    # "stop" is offered only after a first purchase (R5.2): with one purchase
    # per turn the buy loop ends before any such decision.
    assert any("stop" in c for g in range(3) for c in _buy_choices("base", g))
    assert not any("stop" in c for g in range(3) for c in _buy_choices("knob:max-buys=1", g))


# ----------------------------------------------------------------------------- differential


def random_knobs(rng: random.Random, players: int) -> Options:
    """A random knob setting (every knob moved with probability 1/2), random rules flags."""
    def pick(lo, hi, default):
        return rng.randint(lo, hi) if rng.random() < 0.5 else default
    start_z = tuple(rng.randint(0, 3) for _ in range(players)) if rng.random() < 0.5 else ()
    bonus = tuple(rng.randint(0, 10) for _ in range(players)) if rng.random() < 0.5 else ()
    return Options(
        rng.random() < 0.3, rng.random() < 0.3, start_z, bonus,
        pick(0, 3, 1), pick(1, 5, 0), pick(0, 20, 0),
    )


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_knob_settings_play_identically_on_both_engines(players):
    rng = random.Random(1400 + players)
    for game in range(6):
        options = random_knobs(rng, players)
        for bot in ("random", "greedy"):
            assert compare_game(DECK, players, options, 77, game, bot, REFERENCE_BOTS) is None
        assert compare_game(DECK, players, options, 77, game, "linear") is None  # replayed


@pytest.mark.parametrize("players", [2, 4])
def test_random_knob_settings_score_and_win_alike_on_both_engines(players):
    rng = random.Random(2400 + players)
    for game in range(4):
        options = random_knobs(rng, players)
        fast = simulate(SimConfig(players=players, options=options), game + 1, 31, "random")
        g = Game.new(DECK, players, GameRng(31, game), options)
        drng = GameRng.decisions(31, game)
        while not g.over:
            g.apply(REFERENCE_BOTS["random"].choose(g.state, g.pending, drng))
        assert [g.state.final_score(s) for s in range(players)] == list(fast.score[game])
        credit = [1 / len(g.state.winners) if s in g.state.winners else 0.0 for s in range(players)]
        assert credit == list(fast.win[game])


# ----------------------------------------------------------------------------- every command takes knobs


def test_compare_and_study_files_and_sweep_take_knob_variants(tmp_path):
    from typer.testing import CliRunner

    from analyses.study.studyfile import load_study_file
    from analyses.games.dreamscape.sweep import parse_options, sweep_variants
    from cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["compare", "--variant", "base", "--variant", "knob:bonus=0,5", "-p", "2", "-n", "200",
                              "--strategy", "greedy", "--out", str(tmp_path / "cmp"), "--json", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "knob:bonus=0,5" in res.output
    study = tmp_path / "s.toml"
    study.write_text('[[configs]]\nvariants = ["base", "knob:z-penalty=2+sleep-token"]\nplayers = [3]\ngames = 10\n')
    plan = load_study_file(study)
    assert [c.variant for c in plan.configs] == ["base", "sleep-token+knob:z-penalty=2"]
    bad = tmp_path / "bad.toml"
    bad.write_text('[[configs]]\nvariants = ["knob:start-z=0,1,1"]\nplayers = [2]\ngames = 10\n')
    with pytest.raises(Exception, match="3 values but the game has 2"):
        load_study_file(bad)
    assert parse_options("base,knob:start-z=0,1,1") == ["base", "knob:start-z=0,1,1"]
    assert sweep_variants("FF:ID", "knob:remove=5") == ["knob:remove=5", "knob:remove=5+FF:ID"]
