"""The reference engine, rule by rule (interpretations R2-R11).

Positions are built with simcore.games.dreamscape.notation.state_from_setup; every expected value
is worked out by hand from interpretations.md (the reasoning is in each docstring).
"""
from __future__ import annotations

import json
from collections import Counter

import pytest

from simcore.games.dreamscape.cards import parse_card
from simcore.games.dreamscape.decks import build_deck
from simcore.games.dreamscape.notation import dump_state, state_from_setup
from simcore.games.dreamscape.reference import Game, IllegalChoice, setup_state
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import TURN_CAP, Options
from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS


# ----------------------------------------------------------------------------- helpers


def game(dreamscape, seats, deck=(), discard=(), active=0, **setup):
    return Game(state_from_setup({
        "sleep_deck": list(deck), "dreamscape": list(dreamscape), "discard": list(discard),
        "active": active, "seats": seats, **setup}))


def play(g: Game, *steps):
    """Answer decisions in order, checking each pending kind (and seat when given)."""
    for step in steps:
        kind, choice = step[0], step[1]
        assert g.pending is not None, f"game over, expected {kind}"
        assert g.pending.kind == kind, f"pending {g.pending.kind}, expected {kind}"
        if len(step) > 2:
            assert g.pending.seat == step[2], f"{kind} asked to seat {g.pending.seat}, expected {step[2]}"
        g.apply(choice, kind)


def view(g: Game) -> dict:
    return dump_state(g.state)


def seat(g: Game, i: int) -> dict:
    return view(g)["seats"][i]


def same(cards_a, cards_b) -> bool:
    """Compare card lists by pair of types (orientation free)."""
    norm = lambda xs: [None if x is None else (x.startswith("~"), frozenset(parse_card(x.lstrip("~")))) for x in xs]
    return norm(cards_a) == norm(cards_b)


DECK = ["IS/LD", "LD/SD", "NT/CD", "SD/PR", "FF/RD"]


# ----------------------------------------------------------------------------- R2 set-up


def test_r2_2_r2_3_setup_deals_in_seat_order_then_fills_5_to_1():
    """R2.2: seat 0, 1, 2 each get one card from the top; R2.3: positions 5, 4, 3, 2, 1 are
    filled in that order from the top. With order = card ids 11, 10, ..., 0 (top first):
    seats get 11, 10, 9; position 5 gets 8, 4 gets 7, 3 gets 6, 2 gets 5, 1 gets 4; deck 3, 2, 1, 0."""
    codes = ["FF/IS", "FF/NT", "FF/LD", "FF/PR", "FF/RD", "FF/CD", "FF/SD",
             "IS/NT", "IS/LD", "IS/PR", "IS/RD", "IS/CD"]
    cards = [parse_card(c) for c in codes]
    order = list(range(11, -1, -1))
    s = setup_state(cards, order, 3)
    assert [st.deep_sleep for st in s.seats] == [[11], [10], [9]]
    assert [st.spent for st in s.seats] == [0, 0, 0]
    assert s.dreamscape == [4, 5, 6, 7, 8]
    assert s.face_down == [False] * 5
    assert s.sleep_deck == [3, 2, 1, 0]
    assert s.costs == [1, 2, 3, 4, 5]
    assert s.active == 0 and s.discard == []
    assert all(st.rem == [] and st.reserved == [] for st in s.seats)


def test_r2_solo_setup_one_seat():
    cards = [parse_card(c) for c in ["FF/IS", "FF/NT", "FF/LD", "FF/PR", "FF/RD", "FF/CD", "FF/SD"]]
    s = setup_state(cards, [6, 0, 1, 2, 3, 4, 5], 1)
    assert s.seats[0].deep_sleep == [6]
    assert s.dreamscape == [4, 3, 2, 1, 0]
    assert s.sleep_deck == [5]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_r2_game_new_deals_every_card_once(players):
    deck = build_deck()
    g = Game.new(deck, players, GameRng(11))
    s = g.state
    assert len(s.sleep_deck) == 52 - players - 5
    assert [st.z for st in s.seats] == [1] * players
    assert None not in s.dreamscape and not any(s.face_down)
    ids = s.sleep_deck + s.dreamscape + [c for st in s.seats for c in st.deep_sleep]
    assert sorted(ids) == list(range(52))
    assert Counter(frozenset(s.cards[i]) for i in ids) == Counter(frozenset(c) for c in deck.cards)
    assert s.active == 0  # R2.4
    assert g.pending.kind == "take_z" and g.pending.seat == 0


def test_r2_same_seed_same_game_different_seed_different_shuffle():
    deck = build_deck()
    a, b, c = (Game.new(deck, 2, GameRng(seed)) for seed in (5, 5, 6))
    assert view(a) == view(b)
    assert a.state.sleep_deck != c.state.sleep_deck


def test_r2_1_players_out_of_range():
    with pytest.raises(ValueError):
        Game.new(build_deck(), 5, GameRng(1))
    with pytest.raises(ValueError):
        Game.new(build_deck(), 0, GameRng(1))


# ----------------------------------------------------------------------------- protocol


def test_illegal_choice_leaves_state_unchanged():
    """R5.2 'stop' before any purchase, an unaffordable position, a wrong kind: all refused."""
    g = game(["FF/IS", "NT/LD", "PR/RD", "CD/SD", "IS/NT"],
             [{"rem": [], "deep_sleep": ["LD/PR", "SD/RD"]}, {"rem": [], "deep_sleep": ["RD/CD"]}], deck=DECK)
    play(g, ("take_z", False))
    before = json.dumps(view(g), sort_keys=True)
    pending = g.pending
    assert pending.kind == "buy"
    for bad, kind in [("stop", "buy"), ({"position": 3}, "buy"), ({"position": 9}, "buy"),
                      ({"reserved": 0}, "buy"), (True, "take_z"), ({"position": 1}, "perform"), ("FF", None)]:
        with pytest.raises(IllegalChoice):
            g.apply(bad, kind)
        assert json.dumps(view(g), sort_keys=True) == before
        assert g.pending == pending
    assert g.history == [("take_z", False)]
    g.apply({"position": 2}, "buy")  # still playable afterwards
    assert g.pending.kind == "perform"


def test_r5_2_stop_offered_only_after_a_purchase():
    g = game(["FF/IS", "NT/LD", "PR/RD", "CD/SD", "IS/NT"],
             [{"rem": [], "deep_sleep": ["LD/PR", "SD/RD", "FF/CD"]}, {"rem": [], "deep_sleep": ["RD/CD"]}], deck=DECK)
    play(g, ("take_z", False))
    assert "stop" not in g.pending.choices
    assert sorted(c["position"] for c in g.pending.choices) == [1, 2, 3]  # budget 3
    play(g, ("buy", {"position": 1}), ("perform", "IS"), ("interrupted_sleep", 5))
    assert g.pending.kind == "buy"
    assert "stop" in g.pending.choices
    assert sorted(c["position"] for c in g.pending.choices if c != "stop") == [2]  # budget 2


def test_apply_after_game_over_raises():
    g = game([None] * 5, [{"rem": [], "deep_sleep": ["FF/IS"]}, {"rem": [], "deep_sleep": ["NT/LD"]}])
    assert g.over and g.pending is None
    with pytest.raises(IllegalChoice):
        g.apply(True)


def test_game_copy_replays_to_the_same_decision():
    g = Game.new(build_deck(), 3, GameRng(21), Options(sleep_token=True))
    rng = GameRng(99)
    for _ in range(40):
        g.apply(REFERENCE_BOTS["random"].choose(g.state, g.pending, rng))
    twin = g.copy()
    assert view(twin) == view(g)
    assert twin.pending == g.pending
    assert twin.history == g.history
    choice = g.pending.choices[0]
    twin.apply(choice)
    assert len(twin.history) == len(g.history) + 1  # independent
    g.apply(choice)
    assert view(twin) == view(g) and twin.pending == g.pending


def test_r8_4_safety_cap_aborts_without_winner():
    s = state_from_setup({"sleep_deck": DECK, "dreamscape": ["FF/IS", "NT/LD", "PR/RD", "CD/SD", "IS/NT"],
                          "seats": [{"deep_sleep": ["LD/PR"]}, {"deep_sleep": ["RD/CD"]}]})
    s.turns_played = TURN_CAP
    g = Game(s)
    assert g.over and g.state.aborted and g.state.winners == []


# ----------------------------------------------------------------------------- R3, R4, R5


def test_r4_1_take_z_arrives_unspent_and_pays_at_once():
    """1 Z + the taken Z = budget 2: position 2 becomes affordable (R3.1)."""
    g = game(["FF/IS", "NT/LD", "PR/RD", "CD/SD", "IS/NT"],
             [{"rem": [], "deep_sleep": ["LD/PR"]}, {"rem": [], "deep_sleep": ["RD/CD"]}], deck=DECK)
    play(g, ("take_z", True, 0))
    assert seat(g, 0)["z"] == 2 and seat(g, 0)["spent"] == 0
    assert same(seat(g, 0)["deep_sleep"], ["LD/PR", "IS/LD"])
    assert sorted(c["position"] for c in g.pending.choices) == [1, 2]


def test_r5_5_bought_position_stays_empty_until_phase_3():
    g = game(["FF/IS", "NT/LD", "PR/RD", "CD/SD", "IS/NT"],
             [{"rem": [], "deep_sleep": ["LD/PR", "SD/RD", "FF/CD"]}, {"rem": [], "deep_sleep": ["RD/CD"]}], deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 2}), ("perform", "NT"))
    assert view(g)["dreamscape"][1] is None
    assert view(g)["sleep_deck_count"] == 5
    assert seat(g, 0)["spent"] == 2


# ----------------------------------------------------------------------------- the dream types alone

TWO = [{"rem": [], "deep_sleep": ["LD/RD"]}, {"rem": [], "deep_sleep": ["IS/SD"]}]


def test_r6_1_floating_free_moves_and_performs():
    """Buy FF/SD onto [PR/NT, RD/CD]; pull index 0 (PR/NT): [RD/CD, FF/SD, PR/NT]; its PR gains IS/LD."""
    g = game(["FF/SD", "IS/PR", "NT/LD", "SD/RD", "CD/IS"],
             [{"rem": ["PR/NT", "RD/CD"], "deep_sleep": ["LD/RD"]}, {"rem": [], "deep_sleep": ["IS/SD"]}], deck=DECK)
    play(g, ("take_z", False), ("perform", "FF"))
    assert g.pending.kind == "floating_free" and list(g.pending.choices) == [0, 1]
    play(g, ("floating_free", 0))
    assert g.pending.kind == "perform" and set(g.pending.choices) == {"PR", "NT"}
    play(g, ("perform", "PR"))
    s0 = seat(g, 0)
    assert same(s0["rem"], ["RD/CD", "FF/SD", "PR/NT"])
    assert s0["z"] == 2
    assert g.pending.kind == "take_z" and g.pending.seat == 1  # budget 1, position 1 empty


def test_r6_2_interrupted_sleep_flips_face_down_and_r5_4_buying_it():
    """IS flips position 2 down; buying it (cost 2) adds an unspent Z, no perform, no REM card."""
    g = game(["IS/FF", "CD/SD", "NT/LD", "PR/RD", "LD/CD"],
             [{"rem": [], "deep_sleep": ["FF/CD", "PR/SD", "RD/LD"]}, {"rem": [], "deep_sleep": ["IS/SD"]}], deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 1}), ("perform", "IS"), ("interrupted_sleep", 2))
    assert view(g)["dreamscape"][1] == "~CD/SD"
    play(g, ("buy", {"position": 2}))
    s0 = seat(g, 0)
    assert same(s0["rem"], ["IS/FF"]) and s0["z"] == 4
    # 3 spent of 4: 1 unspent, positions 1 and 2 empty: nothing affordable, turn over
    assert g.pending.kind == "take_z" and g.pending.seat == 1


def test_r6_3_night_terror_discards_opponents_top_z():
    g = game(["NT/FF", "IS/PR", "LD/SD", "RD/CD", "SD/IS"],
             [{"rem": [], "deep_sleep": ["FF/CD"]}, {"rem": [], "deep_sleep": ["CD/PR"]},
              {"rem": [], "deep_sleep": ["LD/NT", "PR/SD", "SD/CD"]}], deck=DECK)
    play(g, ("take_z", False), ("perform", "NT"))
    assert g.pending.kind == "night_terror" and sorted(g.pending.choices) == [1, 2]
    play(g, ("night_terror", 2))
    assert same(view(g)["discard"], ["SD/CD"])
    assert seat(g, 2)["z"] == 2 and seat(g, 1)["z"] == 1 and seat(g, 0)["z"] == 1


def test_r6_4_lucid_dreaming_reserve_ready_next_turn_for_1():
    """Reserve CD/FF (cost 5). Not buyable this turn; after Phase 3 it is ready and costs 1."""
    g = game(["LD/PR", "IS/CD", "NT/SD", "RD/IS", "CD/FF"],
             [{"rem": [], "deep_sleep": ["FF/NT"]}, {"rem": [], "deep_sleep": ["SD/PR"]}],
             deck=["FF/IS", "IS/NT", "NT/PR", "PR/RD", "RD/CD", "CD/SD"])
    play(g, ("take_z", False), ("perform", "LD"), ("lucid_dreaming", 5))
    assert same(seat(g, 0)["reserved"], ["CD/FF"])
    # Phase 3: IS/CD, NT/SD, RD/IS slide to 1-3; 5 <- FF/IS, 4 <- IS/NT.
    # Seat 1: 1 Z, no reserve of its own: position 1 (IS/CD) is bought automatically (R11).
    play(g, ("take_z", False, 1), ("perform", "IS", 1), ("interrupted_sleep", 5, 1))
    # Phase 3: NT/SD, RD/IS, IS/NT, ~FF/IS slide to 1-4; 5 <- NT/PR.
    play(g, ("take_z", False, 0))
    assert same(view(g)["dreamscape"], ["NT/SD", "RD/IS", "IS/NT", "~FF/IS", "NT/PR"])
    assert {"reserved": 0} in g.pending.choices
    play(g, ("buy", {"reserved": 0}))
    assert same(seat(g, 0)["rem"], ["LD/PR", "CD/FF"]) and seat(g, 0)["reserved"] == []
    assert seat(g, 0)["spent"] == 1


def test_r6_5_perfect_respite_gains_unspent_z():
    g = game(["PR/SD", "IS/NT", "LD/CD", "RD/FF", "CD/NT"],
             [{"rem": [], "deep_sleep": ["FF/NT"]}, {"rem": [], "deep_sleep": ["SD/PR"]}], deck=DECK)
    play(g, ("take_z", False), ("perform", "PR"))
    # 2 Z, 1 spent: budget 1, position 1 empty -> turn ends, deck lost IS/LD and LD/SD refilled position 5
    s0 = seat(g, 0)
    assert s0["z"] == 2 and same(s0["deep_sleep"], ["FF/NT", "IS/LD"])
    assert same(view(g)["sleep_deck"], DECK[2:])


def test_r6_6_recurring_dream_replays_the_card_beneath():
    g = game(["RD/SD", "IS/NT", "LD/CD", "NT/FF", "CD/NT"],
             [{"rem": ["PR/LD"], "deep_sleep": ["FF/NT"]}, {"rem": [], "deep_sleep": ["SD/PR"]}], deck=DECK)
    play(g, ("take_z", False), ("perform", "RD"))
    assert g.pending.kind == "perform" and set(g.pending.choices) == {"PR", "LD"}
    play(g, ("perform", "PR"))
    assert seat(g, 0)["z"] == 2


def test_r6_6_r6_12_identity_not_pair_same_pair_cards_both_perform():
    """Two physical RD/PR cards: the bought one's RD replays the other (a different card, R6.12
    tracks identity), whose RD replays PR/NT beneath it: PR gains a Z."""
    g = game(["RD/PR", "IS/NT", "LD/CD", "NT/FF", "CD/NT"],
             [{"rem": ["PR/NT", "RD/PR"], "deep_sleep": ["FF/SD"]}, {"rem": [], "deep_sleep": ["SD/PR"]}], deck=DECK)
    play(g, ("take_z", False), ("perform", "RD"), ("perform", "RD"), ("perform", "PR"))
    assert seat(g, 0)["z"] == 2


def test_r6_7_collective_dream_copies_and_stack_effects_hit_own_stack():
    """Seat 0 copies seat 1's FF/IS top card and performs Floating Free: it pulls from seat 0's
    OWN stack [SD/PR, CD/LD]: SD/PR to the top, whose PR gains a Z. Seat 1's stack is untouched."""
    g = game(["CD/LD", "IS/NT", "LD/SD", "NT/FF", "CD/NT"],
             [{"rem": ["SD/PR"], "deep_sleep": ["FF/NT"]}, {"rem": ["NT/RD", "FF/IS"], "deep_sleep": ["SD/RD"]}],
             deck=DECK)
    play(g, ("take_z", False), ("perform", "CD"), ("perform", "FF"))
    # own stack [SD/PR, CD/LD]: the only pull is index 0 (R11: no question)
    assert g.pending.kind == "perform" and set(g.pending.choices) == {"SD", "PR"}
    play(g, ("perform", "PR"))
    assert same(seat(g, 0)["rem"], ["CD/LD", "SD/PR"]) and seat(g, 0)["z"] == 2
    assert same(seat(g, 1)["rem"], ["NT/RD", "FF/IS"])


def test_r6_8_shifting_dreams_any_of_120_orders_is_legal():
    """After buying position 1 the row holds 4 distinct cards and one empty position: 120
    distinct outcomes are offered; the identity order is legal too."""
    g = game(["SD/FF", "IS/CD", "NT/LD", "PR/RD", "LD/CD"],
             [{"rem": [], "deep_sleep": ["CD/SD", "IS/PR"]}, {"rem": [], "deep_sleep": ["NT/PR"]}], deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 1}), ("perform", "SD"))
    assert g.pending.kind == "shifting_dreams"
    assert len(g.pending.choices) == 120
    for bad in ([1, 2, 3, 4], [1, 1, 2, 3, 4], [0, 1, 2, 3, 4], "12345"):
        with pytest.raises(IllegalChoice):
            g.apply(bad, "shifting_dreams")
    play(g, ("shifting_dreams", [3, 1, 5, 2, 4]))
    # position p takes old position order[p-1]: 1<-3 NT/LD, 2<-1 empty, 3<-5 LD/CD, 4<-2 IS/CD, 5<-4 PR/RD
    assert same(view(g)["dreamscape"], ["NT/LD", None, "LD/CD", "IS/CD", "PR/RD"])
    # budget 1: position 1 (NT/LD) is affordable
    assert {"position": 1} in g.pending.choices


def test_r6_8_shifting_dreams_duplicate_outcomes_still_accept_all_orders():
    """Two empty positions: only 60 distinct outcomes, but every one of the 120 orders is legal."""
    g = game(["SD/FF", None, "NT/LD", "PR/RD", "LD/CD"],
             [{"rem": [], "deep_sleep": ["CD/SD"]}, {"rem": [], "deep_sleep": ["NT/PR"]}], deck=DECK)
    play(g, ("take_z", False), ("perform", "SD"))
    assert len(g.pending.choices) == 60
    assert g.pending.is_legal([2, 1, 3, 4, 5]) and g.pending.is_legal([1, 2, 3, 4, 5])


def test_r6_8_variant_shifting_tokens_offers_all_120_cost_orders():
    g = game(["SD/FF", "IS/CD", "NT/LD", "PR/RD", "LD/CD"],
             [{"rem": [], "deep_sleep": ["CD/SD", "IS/PR"]}, {"rem": [], "deep_sleep": ["NT/PR"]}],
             deck=DECK, options={"shifting_tokens": True})
    play(g, ("take_z", False), ("buy", {"position": 1}), ("perform", "SD"))
    assert g.pending.kind == "shifting_tokens" and len(g.pending.choices) == 120
    play(g, ("shifting_tokens", [2, 5, 4, 3, 1]))
    assert view(g)["costs"] == [2, 5, 4, 3, 1]
    # budget 1: only position 5 (cost 1, LD/CD) is affordable
    assert [c for c in g.pending.choices if c != "stop"] == [{"position": 5}]


def test_r6_9_invasive_dreaming_swap_and_opponent_acts():
    """Seat 1's top PR/CD swaps with NT/LD at 3; seat 1 decides and performs LD: it reserves."""
    g = game(["ID/FF", "SD/RD", "NT/LD", "CD/IS", "PR/ED"],
             [{"rem": [], "deep_sleep": ["FF/CD", "SD/NT", "RD/PR"]}, {"rem": ["LD/SD", "PR/CD"], "deep_sleep": ["IS/FF"]}],
             deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 1}), ("perform", "ID"))
    assert g.pending.kind == "invasive_dreaming"
    assert sorted((c["seat"], c["position"]) for c in g.pending.choices) == [(1, 2), (1, 3), (1, 4), (1, 5)]
    play(g, ("invasive_dreaming", {"seat": 1, "position": 3}))
    assert same(seat(g, 1)["rem"], ["LD/SD", "NT/LD"])
    assert view(g)["dreamscape"][2] == "PR/CD" or same([view(g)["dreamscape"][2]], ["PR/CD"])
    assert g.pending.kind == "perform" and g.pending.seat == 1
    play(g, ("perform", "LD", 1), ("lucid_dreaming", 3, 1))
    assert same(seat(g, 1)["reserved"], ["PR/CD"]) and seat(g, 0)["reserved"] == []


def test_r6_9_night_terror_spent_only_for_the_swapped_in_card():
    """Seat 0 (4 Z) pays 1 for ID/FF: 1 spent, 3 unspent. Seat 1 gets FF/IS on its stack
    [NT/LD, FF/IS] and performs FF: the only pull (index 0) puts NT/LD on top; its Night Terror
    targets seat 0, but NT/LD is not the swapped-in card, so night_terror_spent is NOT asked and
    an unspent Z goes: seat 0 has 3 Z, 1 spent, 2 unspent -> position 2 (cost 2) is affordable."""
    g = game(["ID/FF", "SD/RD", "FF/IS", "CD/IS", "PR/ED"],
             [{"rem": [], "deep_sleep": ["FF/CD", "SD/NT", "RD/PR", "LD/CD"]},
              {"rem": ["NT/LD", "PR/SD"], "deep_sleep": ["IS/FF"]}], deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 1}), ("perform", "ID"),
         ("invasive_dreaming", {"seat": 1, "position": 3}), ("perform", "FF", 1), ("perform", "NT", 1))
    assert g.pending.kind == "buy" and g.pending.seat == 0
    s0 = seat(g, 0)
    assert s0["z"] == 3 and s0["spent"] == 1
    assert same(view(g)["discard"], ["LD/CD"])
    assert same(seat(g, 1)["rem"], ["FF/IS", "NT/LD"])
    assert {"position": 2} in g.pending.choices


def test_r6_9_night_terror_on_swapped_in_card_asks_and_spent_one_goes():
    """Same start, but the swapped-in card is NT/LD itself: the invader (1 spent, 3 unspent) is
    asked and gives up a spent Z: 3 Z, 0 spent."""
    g = game(["ID/FF", "SD/RD", "NT/LD", "CD/IS", "PR/ED"],
             [{"rem": [], "deep_sleep": ["FF/CD", "SD/NT", "RD/PR", "LD/CD"]},
              {"rem": ["PR/SD"], "deep_sleep": ["IS/FF"]}], deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 1}), ("perform", "ID"),
         ("invasive_dreaming", {"seat": 1, "position": 3}), ("perform", "NT", 1))
    assert g.pending.kind == "night_terror_spent" and g.pending.seat == 0
    play(g, ("night_terror_spent", True))
    s0 = seat(g, 0)
    assert s0["z"] == 3 and s0["spent"] == 0


def test_r6_10_empowered_dreaming_performs_as_own_then_discards():
    """ED takes FF/NT from position 3 and performs Floating Free on seat 0's OWN stack
    [PR/IS, ED/SD]: pulls PR/IS (only choice) and performs its PR. FF/NT ends on the discard pile."""
    g = game(["ED/SD", "IS/CD", "FF/NT", "RD/LD", "CD/SD"],
             [{"rem": ["PR/IS"], "deep_sleep": ["FF/CD"]}, {"rem": ["LD/NT"], "deep_sleep": ["SD/RD"]}], deck=DECK)
    play(g, ("take_z", False), ("perform", "ED"), ("empowered_dreaming", 3), ("perform", "FF"), ("perform", "PR"))
    assert same(seat(g, 0)["rem"], ["ED/SD", "PR/IS"]) and seat(g, 0)["z"] == 2
    assert same(view(g)["discard"], ["FF/NT"])
    assert same(seat(g, 1)["rem"], ["LD/NT"])


def test_r6_11_paradigm_shift_discards_slides_and_draws_most_expensive_first():
    """Discard 4 then 2; NT/LD (3) and LD/PR (5) slide to 1 and 2; draw IS/LD into 5, LD/SD into 4."""
    g = game(["PS/FF", "SD/RD", "NT/LD", "CD/IS", "LD/PR"],
             [{"rem": [], "deep_sleep": ["FF/CD", "IS/LD", "RD/NT"]}, {"rem": [], "deep_sleep": ["RD/SD"]}], deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 1}), ("perform", "PS"))
    choices = g.pending.choices
    assert [] in choices and [4, 2] in choices and [2, 4] in choices and [2, 2] not in choices
    assert len(choices) == 1 + 4 + 12
    play(g, ("paradigm_shift", [4, 2]))
    v = view(g)
    assert same(v["discard"], ["CD/IS", "SD/RD"])
    assert same(v["dreamscape"], ["NT/LD", "LD/PR", None, "LD/SD", "IS/LD"])
    assert same(v["sleep_deck"], DECK[2:])


# ----------------------------------------------------------------------------- combinations and phase 3


def test_r6_12_collective_dream_copy_of_collective_dream_on_three_seats():
    """3 seats: seat 0 copies seat 1's CD/PR and performs its CD: it may copy seat 2's top
    (seat 1's top is CD/PR, already performed, but seat 1 is still a legal target); copying
    seat 2's PR/LD and performing PR gains a Z."""
    g = game(["CD/NT", "IS/NT", "LD/SD", "NT/FF", "RD/NT"],
             [{"rem": [], "deep_sleep": ["FF/SD"]}, {"rem": ["CD/PR"], "deep_sleep": ["SD/PR"]},
              {"rem": ["PR/LD"], "deep_sleep": ["IS/RD"]}], deck=DECK)
    play(g, ("take_z", False), ("perform", "CD"), ("collective_dream", 1), ("perform", "CD"),
         ("collective_dream", 2), ("perform", "PR"))
    assert seat(g, 0)["z"] == 2


def test_r7_phase_3_resets_spent_readies_reserves_passes_turn():
    g = game(["LD/PR", "IS/CD", "NT/SD", "RD/IS", "CD/FF"],
             [{"rem": [], "deep_sleep": ["FF/NT", "PR/SD"]}, {"rem": [], "deep_sleep": ["SD/PR"]},
              {"rem": [], "deep_sleep": ["CD/RD"]}], deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 1}), ("perform", "LD"), ("lucid_dreaming", 4))
    # budget 1 and position 1 empty: Phase 2 ends by itself
    v = view(g)
    assert v["active"] == 1 and g.pending.seat == 1
    assert v["seats"][0]["spent"] == 0 and same(v["seats"][0]["reserved"], ["RD/IS"])
    assert g.state.seats[0].ready == [True]
    # slide IS/CD, NT/SD, CD/FF to 1-3; fill 5 then 4 from the deck
    assert same(v["dreamscape"], ["IS/CD", "NT/SD", "CD/FF", "LD/SD", "IS/LD"])


def test_r9_sleep_token_choices():
    """Discard offered only while holding 2+ Z."""
    one = game(["FF/IS", "NT/LD", "PR/RD", "CD/SD", "IS/NT"],
               [{"rem": [], "deep_sleep": ["LD/PR"]}, {"rem": [], "deep_sleep": ["RD/CD"]}], deck=DECK,
               options={"sleep_token": True})
    assert one.pending.kind == "sleep_token" and sorted(one.pending.choices) == ["pass", "point"]
    two = game(["FF/IS", "NT/LD", "PR/RD", "CD/SD", "IS/NT"],
               [{"rem": [], "deep_sleep": ["LD/PR", "SD/FF"]}, {"rem": [], "deep_sleep": ["RD/CD"]}], deck=DECK,
               options={"sleep_token": True})
    assert sorted(two.pending.choices) == ["discard", "pass", "point"]


def test_r9_token_point_lasts_only_this_turn():
    """Point taken but not needed (1 Z buys position 1): at seat 0's next turn the budget is its Z only."""
    g = game(["NT/IS", "NT/LD", "PR/RD", "CD/SD", "IS/NT"],
             [{"rem": [], "deep_sleep": ["LD/PR"]}, {"rem": [], "deep_sleep": ["RD/CD"]}], deck=DECK,
             options={"sleep_token": True})
    play(g, ("sleep_token", "point"), ("take_z", False))
    # budget 2: positions 1 and 2
    assert sorted(c["position"] for c in g.pending.choices) == [1, 2]
    play(g, ("buy", {"position": 1}), ("perform", "NT"))
    # token point still there: budget 1 -> position... 1 is empty; position 2 costs 2 > 1: stop only -> turn ends
    assert g.pending.kind == "sleep_token" and g.pending.seat == 1
    play(g, ("sleep_token", "pass"), ("take_z", False), ("perform", "NT"), ("sleep_token", "pass", 0), ("take_z", False))
    # seat 0 has 1 Z and no token point: only position 1 -> automatic buy, pending perform
    assert g.pending.kind == "perform" and g.pending.seat == 0


def test_r10_solo_collective_with_empty_discard_does_nothing():
    g = game(["CD/IS", "NT/LD", "PR/RD", "CD/SD", "IS/NT"], [{"rem": [], "deep_sleep": ["LD/PR"]}], deck=DECK)
    play(g, ("take_z", False), ("perform", "CD"))
    assert g.pending.kind == "solo_discard_order"
    assert len(g.pending.choices) == 24  # 4 face-up cards: 4! orders
    assert seat(g, 0)["z"] == 1 and view(g)["discard"] == []


def test_r10_4_solo_phase_3_refills_and_stays_on_seat_0():
    """Discard order 2,3,4,5; the row is empty; refill 5..1 from the 5-card deck; same seat plays."""
    g = game(["CD/IS", "NT/LD", "PR/RD", "CD/SD", "IS/NT"], [{"rem": [], "deep_sleep": ["LD/PR"]}], deck=DECK)
    play(g, ("take_z", False), ("perform", "CD"), ("solo_discard_order", [2, 3, 4, 5]))
    # The next turn starts at once: empty deck, so no take_z; 1 Z buys position 1 (FF/RD) without asking.
    v = view(g)
    assert same(v["discard"], ["NT/LD", "PR/RD", "CD/SD", "IS/NT"])
    assert same(v["dreamscape"], [None] + list(reversed(DECK))[1:])
    assert same(v["seats"][0]["rem"], ["CD/IS", "FF/RD"])
    assert g.pending.kind == "perform" and set(g.pending.choices) == {"FF", "RD"}
    assert v["sleep_deck_count"] == 0 and v["active"] == 0 and not v["game_over"]


def test_r6_12_opponents_performances_inside_invasion_share_the_purchase():
    """Seat 0 buys ID/FF and swaps CD/IS onto seat 1's stack. Seat 1 performs Collective Dream:
    the only target is seat 0, whose top card is ID/FF, already performed in this purchase
    (R6.12: the opponent's performances belong to the same purchase): nothing, nothing asked."""
    g = game(["ID/FF", "CD/IS", "NT/LD", "SD/RD", "PR/CD"],
             [{"rem": [], "deep_sleep": ["FF/CD", "IS/PR"]}, {"rem": ["LD/SD"], "deep_sleep": ["RD/NT"]}], deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 1}), ("perform", "ID"),
         ("invasive_dreaming", {"seat": 1, "position": 2}), ("perform", "CD", 1))
    # seat 0: budget 1, position 1 empty, LD/SD at 2 costs 2: the turn ends
    assert g.pending.kind == "take_z" and g.pending.seat == 1
    assert same(seat(g, 1)["rem"], ["CD/IS"]) and same(seat(g, 0)["rem"], ["ID/FF"])
    assert seat(g, 0)["z"] == 2 and seat(g, 1)["z"] == 1


def test_r6_9_invasive_dreaming_takes_a_face_down_card_face_up():
    """R6.9: any Dreamscape position holding a card; the card goes face up onto seat 1's stack
    and seat 1's old top takes the position face up. Seat 1 then flips NT/LD (position 3) down."""
    g = game(["ID/FF", "~CD/IS", "NT/LD", "SD/RD", "PR/CD"],
             [{"rem": [], "deep_sleep": ["FF/CD", "IS/PR"]}, {"rem": ["LD/SD"], "deep_sleep": ["RD/NT"]}], deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 1}), ("perform", "ID"),
         ("invasive_dreaming", {"seat": 1, "position": 2}))
    assert view(g)["dreamscape"][1] in ("LD/SD", "SD/LD")
    play(g, ("perform", "IS", 1), ("interrupted_sleep", 3, 1))
    assert same(seat(g, 1)["rem"], ["CD/IS"])
    # seat 0 budget 1; position 1 empty, the rest cost 2+: turn over. Phase 3 slides the row.
    assert same(view(g)["dreamscape"], ["LD/SD", "~NT/LD", "SD/RD", "PR/CD", "IS/LD"])


def test_r10_3_solo_night_terror_all_spent_lowers_spent_without_asking():
    """Solo, 2 Z both spent on position 2. Night Terror fills the cheapest empty position (2)
    with IS/LD, then discards the top Z SD/RD: no unspent card, so no question and the spent
    count drops to 1 (R3.3). Budget 0: Phase 3 asks for the order of the 5 face-up cards."""
    g = game(["FF/IS", "NT/LD", "PR/RD", "CD/SD", "IS/NT"], [{"rem": [], "deep_sleep": ["LD/PR", "SD/RD"]}], deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 2}), ("perform", "NT"))
    assert g.pending.kind == "solo_discard_order" and len(g.pending.choices) == 120
    v = view(g)
    assert same([v["dreamscape"][1]], ["IS/LD"])
    assert same(v["discard"], ["SD/RD"])
    assert v["seats"][0]["z"] == 1 and v["seats"][0]["spent"] == 1
    assert same(v["sleep_deck"], DECK[1:])


def test_r10_3_solo_night_terror_fills_cheapest_by_cost_tokens():
    """Shifting-tokens costs [5,4,3,2,1]: position 5 is the cheapest. Buying it (cost 1) empties it;
    Night Terror fills position 5 from the deck; the last Z card is kept (R3.2)."""
    g = game(["FF/IS", "CD/LD", "PR/RD", "CD/SD", "NT/PR"], [{"rem": [], "deep_sleep": ["LD/PR"]}], deck=DECK,
             costs=[5, 4, 3, 2, 1], options={"shifting_tokens": True})
    play(g, ("take_z", False), ("perform", "NT"))
    v = view(g)
    assert same(v["dreamscape"], ["FF/IS", "CD/LD", "PR/RD", "CD/SD", "IS/LD"])
    assert v["seats"][0]["z"] == 1 and v["discard"] == []


def test_r6_8_shifting_dreams_keeps_each_cards_face():
    g = game(["SD/FF", "~IS/CD", "NT/LD", "PR/RD", "LD/CD"],
             [{"rem": [], "deep_sleep": ["CD/SD", "IS/PR"]}, {"rem": [], "deep_sleep": ["NT/PR"]}], deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 1}), ("perform", "SD"), ("shifting_dreams", [2, 5, 4, 3, 1]))
    assert same(view(g)["dreamscape"], ["~IS/CD", "LD/CD", "PR/RD", "NT/LD", None])


def test_r6_10_nested_empowered_dreaming_discards_inner_card_first():
    """ED/SD bought; its ED takes ED/NT (position 2), whose ED takes PR/LD (position 3): PR gains
    a Z; PR/LD is discarded when its performance ends, then ED/NT: discard [PR/LD, ED/NT]."""
    g = game(["ED/SD", "ED/NT", "PR/LD", "RD/FF", "CD/SD"],
             [{"rem": [], "deep_sleep": ["FF/CD"]}, {"rem": [], "deep_sleep": ["RD/IS"]}], deck=DECK)
    play(g, ("take_z", False), ("perform", "ED"), ("empowered_dreaming", 2), ("perform", "ED"),
         ("empowered_dreaming", 3), ("perform", "PR"))
    v = view(g)
    assert same(v["discard"], ["PR/LD", "ED/NT"])
    assert v["seats"][0]["z"] == 2 and same(v["seats"][0]["rem"], ["ED/SD"])
    # Phase 3: RD/FF, CD/SD slide to 1-2; PR took IS/LD, so 5 <- LD/SD, 4 <- NT/CD, 3 <- SD/PR
    assert same(v["dreamscape"], ["RD/FF", "CD/SD", "SD/PR", "NT/CD", "LD/SD"])


def test_r6_9_night_terror_on_a_third_seat_asks_nothing_about_spent():
    """3 seats: seat 1 performs the swapped-in NT/LD and targets seat 2 (not the invader):
    seat 2 discards its top Z; no night_terror_spent; seat 0 keeps 3 Z (1 spent) and buys on."""
    g = game(["ID/FF", "SD/RD", "NT/LD", "CD/IS", "PR/ED"],
             [{"rem": [], "deep_sleep": ["FF/CD", "SD/NT", "RD/PR"]},
              {"rem": ["PR/SD"], "deep_sleep": ["IS/FF"]},
              {"rem": [], "deep_sleep": ["LD/CD", "CD/RD"]}], deck=DECK)
    play(g, ("take_z", False), ("buy", {"position": 1}), ("perform", "ID"),
         ("invasive_dreaming", {"seat": 1, "position": 3}), ("perform", "NT", 1))
    assert g.pending.kind == "night_terror" and sorted(g.pending.choices) == [0, 2]
    play(g, ("night_terror", 2, 1))
    assert g.pending.kind == "buy" and g.pending.seat == 0
    assert same(view(g)["discard"], ["CD/RD"])
    assert seat(g, 2)["z"] == 1 and seat(g, 0)["z"] == 3 and seat(g, 0)["spent"] == 1


def test_r3_1_r9_unspent_z_first_then_token_point():
    """2 Z + token point. Cost 2: both Z spent, point kept (budget 1). Cost 1: the point pays it."""
    g = game(["NT/SD", "NT/LD", "PR/RD", "CD/FF", "SD/IS"],
             [{"rem": [], "deep_sleep": ["FF/CD", "IS/PR"]}, {"rem": [], "deep_sleep": ["RD/LD"]}], deck=DECK,
             options={"sleep_token": True})
    play(g, ("sleep_token", "point"), ("take_z", False))
    assert sorted(c["position"] for c in g.pending.choices) == [1, 2, 3]  # budget 3
    play(g, ("buy", {"position": 2}), ("perform", "NT"))
    assert g.state.seats[0].spent == 2 and g.state.token_point is True and g.state.budget(0) == 1
    assert sorted(map(json.dumps, g.pending.choices)) == sorted(map(json.dumps, [{"position": 1}, "stop"]))
    play(g, ("buy", {"position": 1}), ("perform", "NT"))
    # nothing left to pay with: the turn ended; seat 0 kept both Z cards
    assert g.pending.seat == 1 and seat(g, 0)["z"] == 2


def test_r3_1_token_point_covers_only_the_shortfall():
    """1 Z + point, cost 2: the Z card and the point are both used; budget 0 ends the turn."""
    g = game(["NT/SD", "NT/LD", "PR/RD", "CD/FF", "SD/IS"],
             [{"rem": [], "deep_sleep": ["FF/CD"]}, {"rem": [], "deep_sleep": ["RD/LD"]}], deck=DECK,
             options={"sleep_token": True})
    play(g, ("sleep_token", "point"), ("take_z", False), ("buy", {"position": 2}))
    assert g.state.seats[0].spent == 1 and g.state.token_point is False and g.state.budget(0) == 0
