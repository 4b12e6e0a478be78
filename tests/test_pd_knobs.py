"""Pleasant Dreams: the rulebook's numbers as knobs (P11) on both engines.

The knobs are refused in one line when unknown, out of range, given twice or beside a variant part that
fixes the same number; the canonical name round-trips; each hand-worked scenario (25-31) passes on both
engines and its broken copy (tests/pd_knob_broken/) fails on both; the engines play identical games with
knobs; and the threshold bot reads the knobs rather than the printed numbers.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from simcore.games import pleasant_dreams as pd
from simcore.games.pleasant_dreams import reference as R
from simcore.games.pleasant_dreams.common import KNOBS

BROKEN = Path(__file__).resolve().parent / "pd_knob_broken"
KNOB_SCENARIOS = ["25-knob-start", "26-knob-wake", "27-knob-flow", "28-knob-flip", "29-knob-premonition",
                  "30-knob-copies", "31-knob-deal"]


@pytest.mark.parametrize("players, variant, fields, canonical", [
    (2, "knob:wake=7", {"wake_limit": 7}, "knob:wake=7"),
    (2, "knob:start=3", {"start": 3}, "start=3"),                          # P11.3: written start=N
    (2, "knob:wake=8+knob:start=6", {"start": 6, "wake_limit": 8}, "start=6+knob:wake=8"),
    (2, "knob:premonition=5+knob:flip=2+knob:flow=3", {"premonition": 5, "flip_extra": 2, "max_flow": 3},
     "knob:flow=3+knob:flip=2+knob:premonition=5"),
    (2, "lucid+knob:copies=1", {"copies": 1, "expansion": True}, "lucid+knob:copies=1"),
    (1, "knob:copies=1", {"copies": 1}, "knob:copies=1"),                  # solo: one Barrier is enough
    (2, "lucid+knob:deal=4", {"lucid_deal": 4}, "lucid+knob:deal=4"),
    (1, "hand=shimmer,shimmer,shimmer+knob:copies=3", {"hand": (0, 0, 0, 3, 0, 0, 0, 0)},
     "hand=shimmer,shimmer,shimmer+knob:copies=3"),
    (2, "knob:wake=5+knob:flip=1", {}, "base"),                            # the rulebook's values: base
])
def test_knobs_set_their_numbers_and_the_name_round_trips(players, variant, fields, canonical):
    setup = pd.parse_setup(players, variant)
    for field, value in fields.items():
        assert getattr(setup, field) == value, field
    assert pd.variant_name(setup) == canonical
    assert pd.parse_setup(players, canonical) == setup


def test_the_rulebook_values_are_the_defaults():
    # as the rulebook prints them: token on 1, 5 wakes, flows of 1 to 5, one extra point, two of each of
    # the 8 action types, two cards in the Lucid Dreams deal, Premonition shows three
    s = pd.parse_setup(2)
    assert (s.start, s.wake_limit, s.max_flow, s.flip_extra, s.copies, s.lucid_deal, s.premonition) == \
        (1, 5, 5, 1, 2, 2, 3)


@pytest.mark.parametrize("players, variant, fragment", [
    (2, "knob:sleep=3", "unknown knob 'sleep'"),
    (2, "knob:wake", "needs a value"),
    (2, "knob:wake=", "needs a value"),
    (2, "knob:wake=x", "not a whole number"),
    (2, "knob:wake=-1", "not a whole number"),
    (2, "knob:wake=1", "outside 2..10"),
    (2, "knob:wake=11", "outside 2..10"),
    (2, "knob:flow=0", "outside 1..5"),
    (2, "knob:flow=6", "outside 1..5"),
    (2, "knob:flip=5", "outside 0..4"),
    (2, "knob:premonition=0", "outside 1..10"),
    (2, "lucid+knob:copies=5", "outside 1..4"),
    (2, "lucid+knob:deal=9", "outside 0..8"),
    (2, "knob:wake=3+knob:wake=4", "knob:wake appears twice"),
    (2, "knob:start=3+start=2", "both set the same number"),
    (2, "start=2+knob:start=3", "both set the same number"),
    (1, "actions=2+knob:deal=2", "both set the action cards dealt"),
    (2, "knob:wake=4+start=4", "start must be 0 to 3"),                  # P2.2 below the waking value
    (2, "knob:start=5", "start must be 0 to 4"),
    (2, "knob:deal=2", "add lucid"),
    (2, "lucid+knob:copies=1+knob:deal=5", "more than the 8 action cards"),
    (2, "knob:copies=1", "too few Barriers"),
    (1, "hand=shimmer,shimmer+knob:copies=1", "more than 1 times"),
    (1, "actions=9+knob:copies=1", "actions must be 0 to 8"),
])
def test_bad_knobs_are_one_line_errors(players, variant, fragment):
    with pytest.raises(pd.PDError) as err:
        pd.parse_setup(players, variant)
    assert fragment in str(err.value) and "\n" not in str(err.value), str(err.value)


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("name", KNOB_SCENARIOS)
def test_knob_scenario_passes_and_its_broken_copy_fails(engine, name):
    assert pd.check_scenario(pd.SCENARIOS_DIR / f"{name}.json", engine) is None
    broken = BROKEN / f"{name}-broken.json"
    assert json.loads(broken.read_text())["setup"] == json.loads((pd.SCENARIOS_DIR / f"{name}.json").read_text())["setup"]
    assert pd.check_scenario(broken, engine) is not None


def test_each_knob_has_a_scenario_citing_p11_and_its_rule():
    cited = {}
    for name in KNOB_SCENARIOS:
        data = json.loads((pd.SCENARIOS_DIR / f"{name}.json").read_text())
        assert "P11.1" in data["rules"]
        for k in KNOBS:
            if f"knob:{k.token}=" in data["setup"]["variant"]:
                cited.setdefault(k.token, set()).update(data["rules"])
    assert {k.token for k in KNOBS} <= set(cited)
    for k in KNOBS:
        assert k.rule in cited[k.token], k


def same(a, b):
    assert set(a) == set(b)
    for key in a:
        assert a[key].dtype == b[key].dtype and np.array_equal(a[key], b[key]), key


@pytest.mark.parametrize("players, variant", [
    (2, "knob:wake=7+knob:flip=2"), (2, "knob:flow=2+knob:premonition=6"), (1, "knob:wake=3+start=2+knob:flip=0"),
    (2, "lucid+knob:copies=1+knob:deal=4"), (2, "lucid+knob:copies=4+knob:deal=3+knob:premonition=1"),
    (1, "start=6+knob:wake=9+hand=barrier,barrier,barrier,shimmer+knob:copies=3"), (1, "actions=5+knob:copies=3"),
])
@pytest.mark.parametrize("bots", [("random",), ("threshold",), ("random", "threshold")])
def test_fast_equals_reference_with_knobs(players, variant, bots):
    setup = pd.parse_setup(players, variant)
    strategies = [bots[s % len(bots)] for s in range(players)]
    same(pd.play_games(setup, strategies, 12, 40, 60, engine="reference"),
         pd.play_games(setup, strategies, 12, 40, 60, engine="fast"))


@pytest.mark.parametrize("players, variant", [(2, "lucid+knob:wake=7+knob:flow=3"), (1, "start=3+knob:premonition=5")])
def test_fast_equals_reference_search_with_knobs(players, variant):
    setup = pd.parse_setup(players, variant)
    strategies = ["search@2"] + ["threshold"] * (players - 1)
    same(pd.play_games(setup, strategies, 3, 0, 4, engine="reference"),
         pd.play_games(setup, strategies, 3, 0, 4, engine="fast"))


def test_knobs_change_the_games_played():
    # a knob that changes nothing would pass the differential tests: with knob:wake=3 a seat wakes (and is
    # recorded) at 3, never above; the rulebook's games reach 5
    base = pd.play_games(pd.parse_setup(2), ["random"] * 2, 4, 0, 400, engine="fast")
    low = pd.play_games(pd.parse_setup(2, "knob:wake=3"), ["random"] * 2, 4, 0, 400, engine="fast")
    assert base["wake"].max() == 5 and low["wake"].max() == 3
    flows = pd.play_games(pd.parse_setup(2, "knob:flow=1"), ["random"] * 2, 4, 0, 400, engine="fast")
    assert flows["turns"].mean() > base["turns"].mean()                  # one card a turn: more turns
    dealt = pd.play_games(pd.parse_setup(2, "lucid+knob:deal=5"), ["random"] * 2, 4, 0, 50, engine="fast")
    assert (dealt["dealt"].sum(axis=2) == 5).all()


def game_at(variant: str, wake: int, deck: list[str], actions: list[str]) -> R.Game:
    """A 2-player reference Game at seat 0's turn (the scenario format's setup)."""
    from simcore.games.pleasant_dreams.scenario import build_reference
    return build_reference({"setup": {"players": 2, "variant": variant, "deck": deck, "active": 0,
                                      "seats": [{"wake": wake, "actions": actions}, {"wake": 1, "actions": []}]}})


def test_threshold_bot_reads_the_wake_and_flow_knobs():
    # Every card known (bits 3), seat 1 on 1, deck (top first) The Calm Sea -2, The Shadow +3, The Music
    # Box +2, The Spider +1. The bot takes the whole deck when that is safe, else the safe flow with the
    # lowest final wakefulness. Whole deck (resolution order Spider, Music Box, Shadow, Calm Sea): 2, 4, 7, 5:
    # wakes at 5, safe at 10. Flows of 1: 0; of 2: 4, 2; of 3: 3, 6 (wakes at 5), 4.
    # rulebook: flow 1 (final 0); knob:wake=10: the whole deck, 4; knob:wake=10+knob:flow=3: the whole
    # deck is no option and flow 1 ends lowest.
    deck = ["The Calm Sea", "The Shadow", "The Music Box", "The Spider"]
    for variant, top, want in (("base", 4, 1), ("knob:wake=10", 4, 4), ("knob:wake=10+knob:flow=3", 3, 1)):
        game = game_at(variant, 1, deck, [])
        for slot in game.deck:
            slot.known = R.ALL_SEATS
        options = R.turn_options(game, 0)
        assert max(options) == top
        assert R.threshold_turn(game, 0, options) == want, variant


def test_threshold_bot_asks_premonition_for_the_cards_the_knob_shows():
    # the 2nd and 3rd cards known, the 4th not: with the rulebook's 3 Premonition adds nothing the bot
    # lacks; with knob:premonition=4 it would show the unknown 4th, so the bot uses it (wakefulness 2)
    deck = ["The Moon", "The Spider", "The Storm", "The Kite", "The Bear"]
    for variant, used in (("base", False), ("knob:premonition=4", True)):
        game = game_at(variant, 2, deck, ["premonition"])
        for i in range(3):
            game.deck[i].known = R.ALL_SEATS
        options = R.turn_options(game, 0)
        assert (R.threshold_turn(game, 0, options) == R.TURN_PREMONITION) == used, variant


def test_tables_of_the_printed_game_leave_knob_changed_configurations_out():
    # a study may play knob:wake=7 beside the base game: the first-player and difficulty tables describe
    # the printed game (P11), so the changed configuration is not read as a base-game or difficulty row
    from analyses.games.pleasant_dreams import difficulty_rows, first_player_rows

    def row(variant, players=2, start=1):
        return {"config": variant, "variant": variant, "players": players, "strategies": ["threshold"] * players,
                "expansion": False, "start": start, "actions": -1, "public_backs": False, "hand": False,
                "bots": [("threshold", ())] * players, "games": 100, "turns": 10.0,
                "seat_rates": [(0.6, 0.5, 0.7)] * players}

    rows = [row("base"), row("knob:wake=7"), row("start=2", start=2), row("start=2+knob:flip=2", start=2)]
    assert [r["variant"] for r in first_player_rows(rows)] == ["base"]
    assert [r["start"] for r in difficulty_rows(rows)] == [1, 2]
