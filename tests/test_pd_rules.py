"""Pleasant Dreams rules: setup, cards, deal and turn mechanics against hand calculations (rule ids
from simcore/games/pleasant_dreams/interpretations.md), and every scenario on both engines."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from simcore.games import pleasant_dreams as pd
from simcore.games.pleasant_dreams import reference as R
from simcore.games.pleasant_dreams import scenario as SC

CARDS = pd.load_cards()
SCENARIOS = sorted(pd.SCENARIOS_DIR.glob("*.json"))


def position(deck, wakes, actions=None, players=2, active=0):
    """A reference Game at the start of a turn, built like a scenario's setup."""
    seats = [{"wake": w, "actions": (actions or [[]] * players)[s]} for s, w in enumerate(wakes)]
    return SC.build_reference({"setup": {"players": players, "deck": deck, "active": active, "seats": seats}})


class Script:
    """Answers decisions from a list of (kind, choice) pairs; records what was asked."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.asked = []

    def choose(self, game, kind, options, info):
        self.asked.append((kind, options))
        want, choice = self.answers.pop(0)
        assert want == kind
        return choice


# ---------------------------------------------------------------- P1 cards

def test_shipped_cards_are_the_printed_two_plus_assumed_list():
    # P1.1, P1.2: 19 cards; The Bear and The Music Box as printed.
    assert len(CARDS) == 19
    bear = CARDS.names.index("The Bear")
    box = CARDS.names.index("The Music Box")
    assert (CARDS.flip[bear], CARDS.value(bear, 0), CARDS.value(bear, 1)) == (True, -1, 1)
    assert (CARDS.symbol(bear, 0), CARDS.symbol(bear, 1)) == (pd.common.FLIP, pd.common.CROSS)
    assert (CARDS.flip[box], CARDS.value(box, 0), CARDS.symbol(box, 0)) == (False, 2, pd.common.EQUAL)
    assert "ASSUMED" in pd.common.CARDS_FILE.read_text().splitlines()[2]


@pytest.mark.parametrize("text, fragment", [
    ("", "no [[card]] tables"),
    ("[[card]]\nname = 'A'\nsymbol = 'flip'\nfront = 1\n", "exactly the keys"),
    ("[[card]]\nname = 'A'\nsymbol = 'odd'\nvalue = 1\n", "symbol must be"),
    ("[[card]]\nname = 'A'\nsymbol = 'equal'\nvalue = 9\n", "from -5 to 5"),
    ("[[card]]\nname = 'A'\nsymbol = 'equal'\nvalue = 1\n[[card]]\nname = 'A'\nsymbol = 'equal'\nvalue = 2\n",
     "used twice"),
    ("[[card]\n", "not valid TOML"),
    ("x = 1\n", "unknown top-level key"),
])
def test_bad_card_files_are_one_line_errors(tmp_path, text, fragment):
    f = tmp_path / "cards.toml"
    f.write_text(text)
    with pytest.raises(pd.PDError) as err:
        pd.load_cards(f)
    assert fragment in str(err.value) and "\n" not in str(err.value)


def test_missing_card_file():
    with pytest.raises(pd.PDError, match="no such file"):
        pd.load_cards("/nonexistent/cards.toml")


# ---------------------------------------------------------------- P2 setup, notation, strategies

@pytest.mark.parametrize("players, variant, fields, canonical", [
    (2, "base", (False, 1, -1), "base"),
    (2, "lucid", (True, 1, -1), "lucid"),
    (2, "start=3+lucid", (True, 3, -1), "lucid+start=3"),
    (1, "start=4+actions=2", (False, 4, 2), "start=4+actions=2"),
    (1, "actions=0", (False, 1, 0), "actions=0"),
    (1, "start=1", (False, 1, -1), "base"),
])
def test_variant_notation_round_trips(players, variant, fields, canonical):
    s = pd.parse_setup(players, variant)
    assert (s.expansion, s.start, s.actions) == fields
    assert pd.variant_name(s) == canonical
    assert pd.parse_setup(players, canonical) == s


@pytest.mark.parametrize("players, variant, fragment", [
    (3, "base", "players must be"),
    (2, "start=5", "start must be 0 to 4"),
    (2, "start=-1", "start must be"),
    (2, "actions=2", "needs 1 player"),
    (1, "lucid+actions=2", "drop lucid"),
    (1, "actions=17", "0 to 16"),
    (2, "lucid+lucid", "given twice"),
    (2, "expert", "unknown part"),
    (2, "", "empty"),
])
def test_bad_setups(players, variant, fragment):
    with pytest.raises(pd.PDError) as err:
        pd.parse_setup(players, variant)
    assert fragment in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("spec, canonical", [
    ("threshold", "threshold"), ("search", "search@16"), ("search@5", "search@5"),
    ("random/no-mirror/no-barrier", "random/no-barrier/no-mirror"),
    ("threshold/no-recurring-dreams", "threshold/no-recurring-dreams"),
])
def test_strategy_specs(spec, canonical):
    assert pd.check_strategy(spec, pd.parse_setup(2)) == canonical


@pytest.mark.parametrize("spec", ["expert", "threshold@3", "search@0", "search@x", "random/mirror",
                                  "random/no-dance", ""])
def test_bad_strategy_specs(spec):
    with pytest.raises(pd.PDError) as err:
        pd.check_strategy(spec, pd.parse_setup(2))
    assert "\n" not in str(err.value)


def test_api_constants():
    assert pd.NAME == "pleasant-dreams" and pd.SEAT_COUNTS == (1, 2)
    assert pd.DEFAULT_STRATEGY in pd.STRATEGIES and set(pd.STRATEGIES) == {"random", "threshold", "search"}
    assert len(pd.ACTION_TYPES) == 8


def test_base_deal_and_difficulty_start():
    # P2.1: a shuffle of all 19 cards, fronts up; P2.2: everybody on `start`; P2.4: barrier + premonition.
    g = R.new_game(pd.parse_setup(2, "start=3"), 7, 11)
    assert sorted(s.card for s in g.deck) == list(range(19)) and all(s.side == 0 for s in g.deck)
    assert g.wake == [3, 3]
    assert [h[pd.common.BARRIER] for h in g.held] == [1, 1]
    assert [h[pd.common.PREMONITION] for h in g.held] == [1, 1] and sum(map(sum, g.held)) == 4


def test_lucid_deal_two_each_from_all_sixteen():
    # P7.2: 2 cards each, never more than the 2 copies of a type between both seats; every type appears.
    seen = set()
    for game in range(200):
        g = R.new_game(pd.parse_setup(2, "lucid"), 3, game)
        assert [sum(h) for h in g.held] == [2, 2]
        for t in range(8):
            assert g.held[0][t] + g.held[1][t] <= 2
            if g.held[0][t]:
                seen.add(t)
    assert seen == set(range(8))


def test_solo_challenge_deal_counts():
    # P7.3: actions=N deals N cards; actions=0 none.
    for n in (0, 1, 4):
        g = R.new_game(pd.parse_setup(1, f"start=4+actions={n}"), 5, 2)
        assert sum(g.held[0]) == n and g.wake == [4]


# ---------------------------------------------------------------- turn mechanics (hand calculations)

def play_with(game, answers):
    agent = Script(answers)
    game.agents = [agent] * game.players
    R.play_turn(game)
    return agent


def test_flow_resolves_farthest_first_and_floors_at_zero():
    # P4.3, P3.1: draw Calm Sea (-2) then Spider (+1): Spider resolves first: 0 + 1 = 1, then 1 - 2 -> 0.
    g = position(["The Calm Sea", "The Spider", "The Moon"], [0, 0])
    play_with(g, [("turn", 2)])
    assert g.wake[0] == 0
    assert [CARDS.names[c] for c, _ in g.discard] == ["The Spider", "The Calm Sea"]
    # the other order floors first: -2 at 0 stays 0, then +1 = 1
    g = position(["The Spider", "The Calm Sea", "The Moon"], [0, 0])
    play_with(g, [("turn", 2)])
    assert g.wake[0] == 1


def test_flow_size_limited_by_deck():
    # P4.1: with 3 cards the flow may be 1..3; P4.2: an empty deck gives a flow of 0 without asking.
    g = position(["The Moon", "The Spider", "The Storm"], [1, 1])
    agent = play_with(g, [("turn", 1)])
    assert agent.asked[0] == ("turn", [1, 2, 3])
    g = position([], [1, 1])
    g.agents = [Script([])] * 2
    R.play_turn(g)
    assert g.over and g.winner == 0                       # P6.2: asleep on an empty deck


def test_secret_position_options():
    # P5.4: 2 players any of 1..d; solo exactly (d + 1) // 2.
    for d, centre in [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)]:
        deck = ["The Moon"] + ["The Spider", "The Storm", "The Shadow", "The Teddy Bear", "The Calm Sea"][:d]
        g2 = position(["The Bear"] + deck[1:], [2, 1])
        g2.deck = g2.deck[1:]
        assert R.place_options(g2) == list(range(1, d + 1))
        g1 = position(["The Bear"] + deck[1:], [2], players=1)
        g1.deck = g1.deck[1:]
        assert R.place_options(g1) == [centre]


def test_flip_gives_one_more_point_never_below_zero():
    # P5.2: Bear -1 at 1 -> 0, flip: the extra point is lost to the floor; the back shows (+1 cross).
    g = position(["The Bear", "The Moon", "The Spider"], [1, 1])
    play_with(g, [("turn", 1), ("flip", 1), ("place", 2)])
    assert g.wake[0] == 0
    assert [(CARDS.names[s.card], s.side, s.known) for s in g.deck] == [
        ("The Moon", 0, 0), ("The Spider", 0, 0), ("The Bear", 1, 1)]


def test_no_flip_on_empty_deck():
    # P5.1: the last card cannot be flipped back (no position but the top).
    g = position(["The Bear"], [2, 1])
    agent = play_with(g, [("turn", 1)])
    assert all(kind != "flip" for kind, _ in agent.asked) and g.over and g.winner == 0


def test_waking_stops_the_flow():
    # P3.1, P6.1: +3 at 2 wakes at once; the -2 under it never resolves; the opponent wins.
    g = position(["The Calm Sea", "The Shadow", "The Moon"], [2, 4])
    play_with(g, [("turn", 2)])
    assert g.over and g.winner == 1 and g.wake == [5, 4] and g.discard == []


def test_mirror_reverses_and_flips_sides():
    # P8.6: order reversed, every flip card shows its other side, equal cards unchanged, knowledge moves.
    g = position(["The Bear", "~The Lullaby", "The Moon"], [1, 1], actions=[["mirror"], []])
    g.deck[0].known = 3
    R.use_mirror(g, 0)
    assert [(CARDS.names[s.card], s.side, s.known) for s in g.deck] == [
        ("The Moon", 0, 0), ("The Lullaby", 0, 0), ("The Bear", 1, 3)]


def test_suppression_blocks_the_empty_deck_win():
    # P8.7, P6.2: with a card set aside, emptying the deck does not win.
    g = position(["The Moon", "The Shadow"], [3, 1], actions=[["suppression"], []])
    play_with(g, [("turn", 2), ("resolve", R.USE_SUPPRESSION)])
    assert not g.over and g.active == 1 and g.aside[0] == [(CARDS.names.index("The Shadow"), 0)]


def test_recurring_candidates_are_the_nightmares():
    # P8.8: only cards resolved above 0 and discarded are offered (The Calm Sea and The Moon are not).
    g = position(["The Spider", "The Moon", "The Calm Sea", "The Music Box", "The Storm"], [1, 1],
                 actions=[["recurring-dreams"], []])
    agent = play_with(g, [("turn", 4), ("recurring", ())])
    assert agent.asked[-1] == ("recurring", 2)             # Music Box and Spider
    assert g.wake[0] == 2                                   # 1 +2 -2 +0 +1


def test_restricted_seat_never_offered_the_card():
    # P7.4: /no-barrier takes barrier out of the options; the shadow then resolves without asking.
    g = position(["The Moon", "The Shadow"], [0, 1], actions=[["barrier"], []])
    g.banned = [1 << pd.common.BARRIER, 0]
    agent = play_with(g, [("turn", 1)])
    assert agent.asked == [("turn", [1, 2])]


def test_threshold_reads_only_what_it_knows():
    # P9: two decks that differ only in slots the seat cannot see get the same threshold choices.
    a = position(["The Moon", "The Shadow", "The Teddy Bear", "The Spider", "The Calm Sea"], [2, 1])
    b = position(["The Moon", "The Calm Sea", "The Spider", "The Teddy Bear", "The Shadow"], [2, 1])
    opts = R.turn_options(a, 0)
    assert R.threshold_turn(a, 0, opts) == R.threshold_turn(b, 0, opts)
    a.deck[1].known = b.deck[1].known = 1                   # now the seat knows slot 1: the choices may differ
    assert R.knows(a, 0, 1) and not R.knows(a, 1, 1)


# ---------------------------------------------------------------- scenarios on both engines

@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(path, engine):
    assert pd.check_scenario(path, engine) is None


def test_at_least_twelve_scenarios_cover_the_rules():
    rules = set()
    for p in SCENARIOS:
        rules |= set(json.loads(p.read_text())["rules"])
    assert len(SCENARIOS) >= 12
    assert {"P5.2", "P5.3", "P8.1", "P8.2", "P8.3", "P8.4", "P8.5", "P8.6", "P8.7", "P8.8", "P6.1", "P6.2",
            "P5.4", "P2.2"} <= rules


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("mutate, fragment", [
    (lambda d: d["expect"].update(deck=["The Moon"]), "deck: expected"),
    (lambda d: d["choices"][0].update(illegal=False), "refused as illegal"),
    (lambda d: d["choices"][1].update(decision="place"), "expected decision"),
    (lambda d: d["choices"].append({"decision": "turn", "choice": 1}), None),
])
def test_a_wrong_scenario_fails(tmp_path, engine, mutate, fragment):
    data = json.loads((pd.SCENARIOS_DIR / "01-rulebook-flow.json").read_text())
    mutate(data)
    f = tmp_path / "s.json"
    f.write_text(json.dumps(data))
    result = pd.check_scenario(f, engine)
    assert result is not None and "\n" not in result
    if fragment:
        assert fragment in result


def test_unreadable_scenario_is_a_failure_not_a_crash(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text("{")
    assert "not a readable JSON" in pd.check_scenario(f, "reference")
    assert "no such file" in pd.check_scenario(tmp_path / "none.json", "fast")
    with pytest.raises(pd.PDError):
        pd.check_scenario(f, "gpu")
