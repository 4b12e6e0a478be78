"""Property tests over random legal play on the reference engine.

For every seat count (1-4), each option combination (sleep_token, shifting_tokens)
and a sample of Controlled Study swap decks (R1.4), games are played to the end
by the reference bots (seeds drawn by hypothesis) or by hypothesis choosing every
decision itself. At every step:

* every physical card is in exactly one place (Sleep Deck, Dreamscape, discard
  pile, a REM stack, a Deep Sleep stack, a reserve) -- except, while an effect
  resolves, the card Empowered Dreaming has taken out of the Dreamscape and is
  performing (R6.10: taken out, performed, *then* discarded); such a card must
  have left the Dreamscape and must be back (on the discard pile) by the next
  buy / take_z / sleep_token / solo_discard_order decision or the game's end;
* no seat holds fewer than 1 Z card (R3.2); 0 <= spent <= z (R3.1), and only
  the active seat has spent cards (R7.3; other seats' reserves may be unready:
  an invaded seat can reserve during another seat's turn, R6.9 + R6.4);
* cost tokens are always 1..5 in some order (R2.3, R6.8);
* a pending decision has two or more distinct legal choices (R11).

At the end: the game ended at R7.2/R10.4 without the R8.4 cap, the deck could
not refill the slid Dreamscape, turns are uneven at most by one in seat order
(R8.1), reserves are gone (R8.3), each score equals an independent recomputation
of R8.2 from the REM stack (and simcore.games.dreamscape.scoring agrees), and the winners follow R8.3.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simcore.games.dreamscape.cards import N_TYPES
from simcore.games.dreamscape.decks import all_swap_decks, build_deck
from simcore.games.dreamscape.reference import Game
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import TURN_CAP, Options
from simcore.games.dreamscape.scoring import final_score
from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS

ALL_DECKS = list(all_swap_decks())
BASE = build_deck()
OPTIONS = [Options(False, False), Options(True, False), Options(False, True), Options(True, True)]
MAX_STEPS = 20_000  # far above any real game (a few hundred decisions)

# R8.2 chart, typed in from the rulebook / interpretations (independent of simcore.games.dreamscape.scoring).
CHART = [0, 0, 2, 4, 6, 8, 10, 13, 16, 20, 24, 29, 34, 40, 46, 53, 60, 68, 76]


def chart(n: int) -> int:
    if n < len(CHART):
        return CHART[n]
    pts, step, k = CHART[-1], 8, len(CHART) - 1
    while k < n:  # +8, +9, +9, +10, ... after 18 -> 76 (steps in pairs)
        k += 1
        step_here = 8 + (k - 17) // 2
        pts += step_here
    return pts


def my_score(cards, rem, z) -> int:
    total = 0
    for t in range(N_TYPES):
        run = 0
        for c in list(rem) + [None]:
            if c is not None and t in cards[c]:
                run += 1
            else:
                total += chart(run)
                run = 0
    return total - z


TURN_LEVEL = {"buy", "take_z", "sleep_token", "solo_discard_order"}


class Checker:
    """Invariants at every step; remembers the Dreamscape to follow R6.10's card in hand."""

    def __init__(self, g: Game) -> None:
        self.prev_row: set[int] = set()
        self.limbo: set[int] = set()
        self(g)

    def __call__(self, g: Game) -> None:
        s = g.state
        places = list(s.sleep_deck) + [c for c in s.dreamscape if c is not None] + list(s.discard)
        for seat in s.seats:
            places += seat.rem + seat.deep_sleep + seat.reserved
        assert len(places) == len(set(places)), "a card is in two places"
        missing = set(range(len(s.cards))) - set(places)
        assert set(places) <= set(range(len(s.cards)))
        if missing:
            assert g.pending is not None and g.pending.kind not in TURN_LEVEL, (
                f"cards {sorted(missing)} are in no place at a {g.pending and g.pending.kind} decision")
            assert missing <= self.limbo | self.prev_row, "a card vanished from somewhere else than the Dreamscape"
            assert len(missing) <= 1 + len(self.limbo)
        self.limbo = missing
        self.prev_row = {c for c in s.dreamscape if c is not None}
        check_invariants(g)


def check_invariants(g: Game) -> None:
    s = g.state
    for seat in s.seats:
        assert seat.z >= 1, "R3.2: a seat went below 1 Z card"
        assert 0 <= seat.spent <= seat.z, "R3.1: spent out of range"
        assert len(seat.ready) == len(seat.reserved)
    if not s.game_over:
        for i, seat in enumerate(s.seats):
            if i != s.active:
                assert seat.spent == 0, "R7.3: only the active seat has spent Z cards"
    assert sorted(s.costs) == [1, 2, 3, 4, 5]
    d = g.pending
    if d is not None:
        assert not s.game_over
        keys = {json.dumps(c, sort_keys=True) for c in d.choices}
        assert len(d.choices) >= 2 and len(keys) == len(d.choices), "R11: a decision needs 2+ distinct options"
        assert 0 <= d.seat < len(s.seats)
    else:
        assert s.game_over


def check_end(g: Game) -> None:
    s = g.state
    places = list(s.sleep_deck) + [c for c in s.dreamscape if c is not None] + list(s.discard)
    for seat in s.seats:
        places += seat.rem + seat.deep_sleep + seat.reserved
    assert sorted(places) == list(range(len(s.cards))), "every card in exactly one place at the end"
    assert g.over and g.pending is None
    assert not s.aborted and s.turns_played < TURN_CAP, "R8.4 cap reached"
    # R7.2 / R10.4: the slid Dreamscape could not be refilled
    empty = [p for p in range(1, 6) if s.dreamscape[p - 1] is None]
    assert len(empty) > len(s.sleep_deck)
    cheapest = sorted(range(1, 6), key=lambda p: s.costs[p - 1])
    assert sorted(empty) == sorted(cheapest[5 - len(empty):]), "R7.1: cards slid to the cheapest positions"
    if s.solo:
        assert not any(s.face_down[p - 1] for p in range(1, 6) if s.dreamscape[p - 1] is not None)
    # R8.1 with R2.4/R7.3: seats up to the active one played one more turn than the rest
    t0 = s.seat_turns[0]
    for i, turns in enumerate(s.seat_turns):
        assert turns == (t0 if i <= s.active else t0 - 1)
    assert sum(s.seat_turns) == s.turns_played
    # R8.3: reserves are discarded
    assert all(seat.reserved == [] for seat in s.seats)
    # R8.2 scores
    scores = []
    for i, seat in enumerate(s.seats):
        mine = my_score(s.cards, seat.rem, seat.z)
        assert mine == final_score([s.cards[c] for c in seat.rem], seat.z) == s.score(i)
        scores.append(mine)
    best = max(scores)
    tied = [i for i, x in enumerate(scores) if x == best]
    most_z = max(s.seats[i].z for i in tied)
    assert sorted(s.winners) == [i for i in tied if s.seats[i].z == most_z]


def play_with_bots(deck, players, options, seed, bots) -> Game:
    g = Game.new(deck, players, GameRng(seed, 0), options)
    rng = GameRng.decisions(seed, 0)
    check = Checker(g)
    for _ in range(MAX_STEPS):
        if g.over:
            break
        d = g.pending
        bot = REFERENCE_BOTS[bots[d.seat % len(bots)]]
        g.apply(bot.choose(g.state, d, rng), d.kind)
        check(g)
    check_end(g)
    return g


bots_st = st.lists(st.sampled_from(["random", "greedy"]), min_size=1, max_size=4)
seed_st = st.integers(min_value=0, max_value=2**63 - 1)
deck_st = st.sampled_from(ALL_DECKS)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: o.label())
@pytest.mark.parametrize("players", [1, 2, 3, 4])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seed_st, bots=bots_st)
def test_bot_games_base_deck(players, options, seed, bots):
    play_with_bots(BASE, players, options, seed, bots)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seed_st, bots=bots_st, deck=deck_st, options=st.sampled_from(OPTIONS))
def test_bot_games_swap_decks(players, seed, bots, deck, options):
    play_with_bots(deck, players, options, seed, bots)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: o.label())
@pytest.mark.parametrize("players", [1, 2, 3, 4])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seed=seed_st, deck=deck_st)
def test_hypothesis_chosen_play(players, options, data, seed, deck):
    """Hypothesis picks every decision itself (shrinks to a minimal failing game)."""
    g = Game.new(deck, players, GameRng(seed, 0), options)
    check = Checker(g)
    for _ in range(MAX_STEPS):
        if g.over:
            break
        d = g.pending
        choice = d.choices[data.draw(st.integers(0, len(d.choices) - 1), label=d.kind)]
        g.apply(choice, d.kind)
        check(g)
    check_end(g)


def test_chart_helper_matches_interpretations():
    """Guard for the test's own chart: R8.2 values typed from the rulebook."""
    assert [chart(n) for n in (2, 7, 13, 14, 15, 16, 17, 18)] == [2, 13, 40, 46, 53, 60, 68, 76]


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: o.label())
@pytest.mark.parametrize("players", [1, 2, 3, 4])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seed_st, bots=bots_st, deck=deck_st)
def test_bot_games_large_sample(players, options, seed, bots, deck):
    play_with_bots(deck, players, options, seed, bots)


@pytest.mark.slow
def test_every_swap_deck_plays_to_the_end():
    for i, deck in enumerate(ALL_DECKS):
        for players in (1, 2, 3, 4):
            play_with_bots(deck, players, OPTIONS[i % 4], seed=i * 10 + players, bots=["random", "greedy"])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seed_st, options=st.sampled_from(OPTIONS), deck=deck_st, at=st.floats(0.0, 1.0))
def test_illegal_choices_change_nothing_and_copy_replays(players, options, deck, seed, at):
    """At every decision a choice outside the legal list is refused with the state unchanged;
    at one point in the game Game.copy() reproduces the same position and decision."""
    from simcore.games.dreamscape.notation import dump_state
    from simcore.games.dreamscape.reference import IllegalChoice

    g = Game.new(deck, players, GameRng(seed, 0), options)
    rng = GameRng.decisions(seed, 0)
    copied = False
    step = 0
    while not g.over and step < MAX_STEPS:
        d = g.pending
        before = json.dumps(dump_state(g.state), sort_keys=True)
        for bogus in ({"position": 6}, {"reserved": 99}, 7, "nonsense", None):
            if d.is_legal(bogus):
                continue
            with pytest.raises(IllegalChoice):
                g.apply(bogus, d.kind)
            assert json.dumps(dump_state(g.state), sort_keys=True) == before
            assert g.pending == d
        if not copied and step >= at * 60:
            twin = g.copy()
            assert json.dumps(dump_state(twin.state), sort_keys=True) == before and twin.pending == d
            copied = True
        g.apply(REFERENCE_BOTS["random"].choose(g.state, d, rng), d.kind)
        step += 1
    check_end(g)
