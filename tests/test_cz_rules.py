"""Counting Zzzzs rules on the reference engine against hand-worked values, each citing its decision (Z..) in
simcore/games/counting_zzzzs/interpretations.md. Cards are those of the shipped example deck."""
from __future__ import annotations

import pytest

from simcore.games.counting_zzzzs import load_cards, parse_setup
from simcore.games.counting_zzzzs import reference as R
from simcore.games.counting_zzzzs.bots import GreedyAgent, sample_world
from simcore.games.counting_zzzzs.cards import read_cards
from simcore.rng import GameRng

CARDS = load_cards(None)
N = CARDS.names.index


def game_with(players=2, dreams=(), hands=(), deck=(), scores=None, active=0, cards=CARDS):
    game = R.blank_game(parse_setup(players, "remove=0", cards))
    for s, names in enumerate(dreams):
        for name in names:
            card, _, force = name.partition("^")
            d = game.dreams[s]
            d.cards.append(N(card) if cards is CARDS else cards.names.index(card))
            d.forced.append(R.UNFORCED if not force else (R.FORCED_POS if force == "Sweet Dreams" else R.FORCED_NEG))
            d.force_card.append(-1 if not force else N(force))
    for s, names in enumerate(hands):
        for name in names:
            game.hands[s][N(name)] += 1
    game.deck = [N(x) for x in deck]
    game.score = list(scores or [0] * players)
    game.active = active
    return game


def points(*names) -> int:
    return R.dream_points(CARDS, game_with(dreams=[names]).dreams[0])


@pytest.mark.parametrize("names, expected, why", [
    # Z14.2 more positive: Swimming turns +1 -> 5 + 2 + 1 + 1 + 1 + 1
    (("Beach", "Mom", "Swimming", "Cake", "Kitchen"), 11, "Z14.2 positive"),
    # Z14.2 more negative: Stranger turns -2 -> 5 - 2 - 2 - 2 - 2 - 1
    (("Haunted House", "Stranger", "Falling", "Spider", "Clown"), -4, "Z14.2 negative"),
    # Z14.2 equal (Beach + vs The Ex -): Swimming neutral -> 5 + 2 - 1
    (("Beach", "Swimming", "The Ex", "Key", "Bathroom"), 6, "Z14.2 equal"),
    # Z14.2 forced cards join the tally: 1 + vs 2 -, nothing unforced left -> 5 + 2 - 1 - 1
    (("Beach", "Swimming^Night Sweats", "The Ex", "Key", "Bathroom"), 5, "Z11.1 forced negative"),
    # Z14.2 a forced positive tips the tally so Mirror (+2/-2) turns positive: 2 + vs 1 - -> 4 + 2 + 1 - 1 + 2
    (("Beach", "Swimming^Sweet Dreams", "The Ex", "Mirror"), 8, "Z11.1 forced positive"),
    # Z14.4 Burning -1 +2 with Haunted House still counts negative: 2 vs 2, Mirror neutral
    (("Haunted House", "Burning", "Mirror", "Talking Cat", "Castle"), 6, "Z14.4 polarity kept"),
    # Z14.4 modifiers anywhere in the dream: Mom +2 (Cooking), Parents' House +1 (Mom), PH turns +2
    (("Mom", "Kitchen", "Cooking", "Cake", "Parents' House"), 14, "Z14.4 modifiers"),
    # Z14.1 the base counts short dreams too (the threshold is applied on waking, not here)
    (("Beach", "Mom"), 5, "Z16.1 short dream at morning"),
    # all neutral: just the base
    (("Office", "Coworker", "Typing"), 3, "base only"),
])
def test_dream_points_by_hand(names, expected, why):
    assert points(*names) == expected, why


def test_a_modifier_naming_its_own_card_needs_another_copy():
    cards = read_cards({"element": [
        {"name": "Twin", "kind": "person", "themes": ["surreal"], "value": 1, "modifiers": ["+3 with Twin"], "count": 2},
        {"name": "Mirror", "kind": "thing", "themes": ["surreal"], "value": "neutral", "count": 30}]})
    one = R.Dream([0, 1], [0, 0], [-1, -1])
    two = R.Dream([0, 1, 0], [0, 0, 0], [-1, -1, -1])
    assert R.dream_points(cards, one) == 2 + 1                     # Z14.4: no other Twin, no bonus
    assert R.dream_points(cards, two) == 3 + 2 + 3 + 3             # each Twin sees the other: +3 each


def test_setup_removes_the_rulebooks_wake_ups_from_the_top_of_the_shuffle():
    """Z2.2: the first N Wake Ups of the shuffled deck are taken out; Z2.3: 5 cards each, one at a time."""
    for players, removed in ((2, 4), (3, 2), (4, 0)):
        setup = parse_setup(players, "base")
        assert setup.removed == removed
        game = R.new_game(setup, 7, 3)
        order = [c for c in range(len(CARDS)) for _ in range(CARDS.count[c])]
        GameRng(7, 3).shuffle(order)
        wake_ups = [i for i, c in enumerate(order) if not CARDS.element[c] and CARDS.kind[c] == 0]
        kept = [c for i, c in enumerate(order) if i not in wake_ups[:removed]]
        assert game.deck == kept[5 * players:]
        for s in range(players):
            dealt = [kept[k * players + s] for k in range(5)]
            assert game.hands[s] == [dealt.count(c) for c in range(len(CARDS))]
        assert len(game.deck) == 140 - removed - 5 * players


def test_variant_remove_n_overrides_the_player_count_rule():
    assert parse_setup(4, "remove=4").removed == 4
    assert parse_setup(2, "remove=4").removed == 4 and parse_setup(2, "remove=0").removed == 0
    from simcore.games.counting_zzzzs import variant_name
    assert variant_name(parse_setup(2, "remove=4")) == "base" and variant_name(parse_setup(2, "remove=2")) == "remove=2"


def test_sequencing_themes_and_kinds():
    """Z5.1: a shared theme with the element before, never the same kind; Z6.1 nobody starts another's dream."""
    game = game_with(dreams=[["Beach"], []], hands=[["Mom", "Kitchen", "Spider", "Cooking", "Castle"], ["Dad"]])
    # after Beach (place; fantasy, domestic): Mom (person, domestic) and Cooking (verb, domestic) yes;
    # Kitchen and Castle are places, Spider shares no theme
    assert [CARDS.names[c] for c in R.element_options(game, 0)] == ["Mom", "Cooking"]
    assert not R.can_follow(game, 1, N("Mom"), R.NO_BEND, False)   # seat 2's dream is empty
    assert R.can_follow(game, 1, N("Mom"), R.NO_BEND, True)        # but the owner may start it
    assert R.can_follow(game, 0, N("Spider"), R.BEND_THEME, True)  # Z10.1 theme bent
    assert R.can_follow(game, 0, N("Castle"), R.BEND_TYPE, True)   # Z10.1 kind bent (Castle shares fantasy)
    assert not R.can_follow(game, 0, N("Kitchen"), R.BEND_THEME, True)   # the kind still counts


def test_a_placeholder_replaces_the_theme_condition_only():
    """Z5.2, Z12.1: after Beach with Monday Morning (work) at the end: work elements of another kind."""
    game = game_with(dreams=[["Beach"]], hands=[["Mom", "Coworker", "Office", "Typing"]])
    game.dreams[0].holder_theme, game.dreams[0].holder_card = 2, N("Monday Morning")
    assert [CARDS.names[c] for c in R.element_options(game, 0)] == ["Coworker", "Typing"]
    R.put_element(game, 0, 0, N("Typing"))                          # laid over it: the placeholder is discarded
    assert game.dreams[0].holder_card == -1 and game.discard[N("Monday Morning")] == 1


def test_second_play_options():
    """Z3.3, Z9.1-Z9.2, Z11.2, Z12.1, Z3.4: what the second play may be."""
    game = game_with(players=3, dreams=[["Beach", "Mom"], ["Knight"], []],
                     hands=[["Cake", "Garbage Truck", "Sweet Dreams", "Cold Sweat", "Snooze Button"], [], []])
    options = [R.decode(c) for c in R.second_options(game, 0)]
    named = {(m, t, CARDS.names[c]) for m, t, c in options}
    assert (R.M_DISCARD, 0, "Snooze Button") in named               # a Block may only be discarded (Z3.4)
    assert not any(m != R.M_DISCARD and c == N("Snooze Button") for m, t, c in options)
    assert (R.M_ELEMENT, 1, "Cake") in named                        # Cake (thing, fantasy) after Knight
    assert not any(m == R.M_ELEMENT and t == 2 for m, t, c in options)    # seat 3 has no dream (Z6.1)
    assert {t for m, t, c in options if m == R.M_WAKE} == {1}       # one opponent with a dream (Z9.2)
    assert {t for m, t, c in options if m == R.M_FORCE and c == N("Sweet Dreams")} == {R.SLOT * 1 + 0}   # Knight, the only context card
    assert {t for m, t, c in options if m == R.M_FORCE and c == N("Cold Sweat")} == {0, 1}              # started dreams (Z12.1)
    banned = game_with(players=3, dreams=[["Beach"], ["Knight"], []], hands=[["Garbage Truck"], [], []])
    banned.banned = [1, 0, 0]                                       # greedy/no-wake-up
    assert all(R.decode(c)[0] == R.M_DISCARD for c in R.second_options(banned, 0))


class Recorder:
    """Answers blocks from a table (seat -> choice) and records who was asked."""

    def __init__(self, answers, asked):
        self.answers, self.asked = answers, asked

    def choose(self, game, seat, kind, options, info):
        self.asked.append(seat)
        return self.answers[seat]


def test_blocks_are_asked_in_turn_order_after_the_player_and_cannot_be_blocked():
    """Z13.2, Z13.3: seats 3, 4 then 1 are asked when seat 2 acts; the first Block ends the asking."""
    def position():
        game = game_with(players=4, active=1, dreams=[["Beach"], ["Mom"], ["Dad"], ["Knight"]],
                         hands=[["Do Not Disturb"], ["Car Alarm"], ["Snooze Button"], ["Snooze Button"]])
        return game

    asked: list[int] = []
    game = position()
    game.agents = [Recorder({0: R.PASS, 2: R.PASS, 3: R.PASS}, asked)] * 4
    R.do_second(game, 1, R.encode(R.M_WAKE, 0, N("Car Alarm")))
    assert asked == [2, 3, 0]                                       # nobody blocked: all four woke
    assert all(not d.cards for d in game.dreams)

    asked.clear()
    game = position()
    game.agents = [Recorder({0: R.PASS, 2: R.PASS, 3: N("Snooze Button")}, asked)] * 4
    R.do_second(game, 1, R.encode(R.M_WAKE, 0, N("Car Alarm")))
    assert asked == [2, 3]                                          # seat 4 blocked; seat 1 never asked
    assert all(d.cards for d in game.dreams)
    assert game.discard[N("Car Alarm")] == 1 and game.discard[N("Snooze Button")] == 1
    assert game.stats["blocked"][1][0] == 1 and game.stats["played"][3][3] == 1


def test_a_block_of_the_wrong_kind_is_not_offered():
    """Z13.1: Earplugs cancel Forces only; with no fitting Block the seat is not asked (Z18.1)."""
    asked: list[int] = []
    game = game_with(dreams=[["Beach"], ["Mom"]], hands=[["Garbage Truck"], ["Earplugs"]])
    game.agents = [Recorder({1: N("Earplugs")}, asked)] * 2
    R.do_second(game, 0, R.encode(R.M_WAKE, 1, N("Garbage Truck")))
    assert asked == [] and not game.dreams[1].cards


def test_wake_all_scores_everyone_before_the_forty_check():
    """Z15.2: both pass 40 at once, the higher total wins (not the player of the card)."""
    game = game_with(dreams=[["Beach", "Mom", "Swimming", "Cake", "Kitchen"],
                             ["Castle", "Talking Cat", "Flying", "Magic Sword", "Knight"]],
                     hands=[["Car Alarm"], []], scores=[35, 38])
    game.agents = [GreedyAgent()] * 2
    R.do_second(game, 0, R.encode(R.M_WAKE, 0, N("Car Alarm")))
    assert game.score == [46, 51] and game.over and game.winners == [1] and game.end == 1


def test_equal_totals_share_the_win_at_morning():
    """Z16.2: equal highest totals share; Z4.1 the drawing player stops at the last card."""
    game = game_with(dreams=[["Beach", "Mom"], ["Office"]], hands=[["Spider", "Falling"], []],
                     deck=["Knife"], scores=[20, 24])
    game.agents = [GreedyAgent()] * 2
    R.play_turn(game)
    assert game.score == [25, 25] and game.winners == [0, 1] and game.end == 2
    assert sum(game.hands[0]) == 3 and game.deck == []


def test_the_search_pool_is_what_the_seat_cannot_see():
    """Z17.2: the cards redealt are the deck and the other hands (and the removed ones), sizes kept."""
    game = R.new_game(parse_setup(3, "base"), 5, 0)
    world = sample_world(game, 0, GameRng(1, 1))
    assert world.hands[0] == game.hands[0]
    assert [sum(h) for h in world.hands] == [sum(h) for h in game.hands]
    assert len(world.deck) == len(game.deck)
    hidden = [sum(x) for x in zip(game.hands[1], game.hands[2])]
    # the redealt cards are drawn from deck + other hands + the 2 removed Wake Ups
    pool = [CARDS.count[c] - game.hands[0][c] for c in range(len(CARDS))]
    got = [a + b + world.deck.count(c) for c, (a, b) in enumerate(zip(world.hands[1], world.hands[2]))]
    assert all(0 <= g <= p for g, p in zip(got, pool)) and sum(pool) - sum(got) == 2
    assert hidden != [a + b for a, b in zip(world.hands[1], world.hands[2])]
