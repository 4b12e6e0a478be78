"""Counting Zzzzs: the Wake Up removal of Z2.2 (public in the rulebook's rules, face down with the variant
hidden-removal) and the rulebook's numbers as knobs (Z19), on both engines.

The removal is recorded by both engines and is read by the search bot only when it is public; the knobs
are refused with one line when out of range, unknown or given twice for one number, and both engines play
identical games with them. Hand-worked scenarios (scenarios 16-22) and their broken copies are run by
tests/test_cz_engines.py with every other scenario.
"""
from __future__ import annotations

import numpy as np
import pytest

from simcore.games.counting_zzzzs import CZError, load_cards, parse_setup, play_games, variant_name
from simcore.games.counting_zzzzs import reference as R
from simcore.games.counting_zzzzs.bots import sample_world, search_choice, unseen_counts
from simcore.games.counting_zzzzs.play import fast_engine
from simcore.games.counting_zzzzs.scenario import fast_state
from simcore.rng import GameRng

CARDS = load_cards(None)
WAKE_UP_ROWS = [c for c in range(len(CARDS)) if not CARDS.element[c] and CARDS.kind[c] == 0]


def shuffled_removal(players: int, seed: int, game: int, removed: int) -> list[int]:
    """The removed Wake Up rows as Z2.2 words it: the first ``removed`` Wake Ups of the shuffled deck."""
    order = [c for c in range(len(CARDS)) for _ in range(CARDS.count[c])]
    GameRng(seed, game).shuffle(order)
    wake_ups = [c for c in order if c in WAKE_UP_ROWS]
    return [wake_ups[:removed].count(c) for c in range(len(CARDS))]


@pytest.mark.parametrize("players, variant", [(2, "base"), (3, "base"), (4, "remove=3"), (2, "hidden-removal")])
def test_both_engines_record_the_removed_wake_ups(players, variant):
    setup = parse_setup(players, variant)
    fast_engine()
    from simcore.games.counting_zzzzs import fast_state as F
    for seed, game in ((7, 3), (1, 0), (42, 9)):
        want = shuffled_removal(players, seed, game, setup.removed)
        assert sum(want) == setup.removed
        assert R.new_game(setup, seed, game).removed == want
        from simcore.fast_rng import seed_key
        st = np.zeros(F.SIZE, np.int64)
        F.new_game(st, F.card_table(CARDS), F.rules_array(setup), seed_key(seed), game)
        assert list(st[F.REMOVED:F.REMOVED + len(CARDS)]) == want


def hidden_in_world(world, seat: int) -> list[int]:
    """Per card row, the copies the sampled world put where the seat cannot see (other hands, deck)."""
    out = [0] * len(world.cards)
    for c in world.deck:
        out[c] += 1
    for s in range(world.players):
        if s != seat:
            out = [a + b for a, b in zip(out, world.hands[s])]
    return out


def test_a_public_removal_is_never_sampled_into_a_hand_or_the_deck():
    """Z2.2, Z17.2: the rulebook's removal is public, so every sampled world keeps the removed Wake Ups out."""
    game = R.new_game(parse_setup(2, "base"), 5, 1)
    removed = game.removed
    assert sum(removed) == 4
    for k in range(30):
        world = sample_world(game, 0, GameRng(9, k))
        hidden = hidden_in_world(world, 0)
        for c in WAKE_UP_ROWS:
            # every copy is in the seat's own hand, the removed ones, or hidden: never a removed copy hidden
            assert hidden[c] == CARDS.count[c] - game.hands[0][c] - removed[c], CARDS.names[c]


def test_a_hidden_removal_is_sampled_with_the_other_hidden_cards():
    """hidden-removal: the removed Wake Ups are unseen, so some sampled worlds deal one of them."""
    game = R.new_game(parse_setup(2, "hidden-removal"), 5, 1)
    assert sum(game.removed) == 4
    over = 0
    for k in range(30):
        world = sample_world(game, 0, GameRng(9, k))
        hidden = hidden_in_world(world, 0)
        over += any(hidden[c] > CARDS.count[c] - game.hands[0][c] - game.removed[c] for c in WAKE_UP_ROWS)
    assert over > 0
    unseen = unseen_counts(game, 0)
    assert sum(unseen) == sum(game.hands[1]) + len(game.deck) + 4


def test_the_fast_engine_samples_the_same_unseen_cards():
    fast_engine()
    from simcore.games.counting_zzzzs import fast as F
    from simcore.games.counting_zzzzs import fast_state as FS
    for variant in ("base", "hidden-removal"):
        game = R.new_game(parse_setup(2, variant), 5, 1)
        st = fast_state(game)
        for seat in (0, 1):
            unseen = np.zeros(FS.MT, np.int64)
            F.unseen_counts(st, FS.card_table(CARDS), seat, unseen)
            assert list(unseen[:len(CARDS)]) == unseen_counts(game, seat)


class StopAtSecond:
    """Greedy until seat 1's n-th second play, where the game stops (the position to search)."""

    def __init__(self, n):
        from simcore.games.counting_zzzzs.bots import GreedyAgent
        self.n, self.greedy = n, GreedyAgent()

    def choose(self, game, seat, kind, options, info):
        if kind == "second" and seat == 0:
            self.n -= 1
            if self.n == 0:
                raise R.Pending(kind, seat)
        return self.greedy.choose(game, seat, kind, options, info)


def test_with_hidden_removal_the_search_ignores_which_wake_ups_were_removed():
    """Z17.2: swapping a removed Wake Up with a hidden card of the deck changes nothing the seat may know,
    so the search bot chooses the same, on both engines."""
    game = R.new_game(parse_setup(2, "hidden-removal"), 3, 2)
    game.agents = [StopAtSecond(4)] * 2
    with pytest.raises(R.Pending):
        R.play_game(game)
    options = R.second_options(game, 0)
    assert len(options) > 2
    moved = game.copy()
    out = next(c for c in WAKE_UP_ROWS if moved.removed[c])
    i = next(i for i, c in enumerate(moved.deck) if c != out)
    moved.removed[out] -= 1
    moved.removed[moved.deck[i]] += 1           # the bookkeeping of a removal that could have been
    moved.deck[i] = out
    choice = search_choice(game, 0, "second", options, GameRng.decisions(3, 4), 4)
    assert search_choice(moved, 0, "second", options, GameRng.decisions(3, 4), 4) == choice


@pytest.mark.parametrize("variant", ["hidden-removal", "knob:goal=25", "knob:hand=4", "knob:hand=7+knob:max-dream=12",
                                     "knob:min-dream=3+knob:max-dream=7", "knob:remove=6+hidden-removal"])
def test_both_engines_play_identical_games_with_knobs(variant):
    for players in (2, 3):
        setup = parse_setup(players, variant)
        seats = ["greedy", "random", "greedy"][:players]
        ref = play_games(setup, seats, 3, 0, 10, engine="reference")
        fast = play_games(setup, seats, 3, 0, 10, engine="fast")
        for key in ref:
            np.testing.assert_array_equal(fast[key], ref[key], err_msg=key)


def test_search_plays_identically_on_both_engines_with_knobs():
    setup = parse_setup(3, "knob:min-dream=4+knob:goal=30")
    seats = ["search@2", "greedy", "random"]
    ref = play_games(setup, seats, 5, 0, 2, engine="reference")
    fast = play_games(setup, seats, 5, 0, 2, engine="fast")
    for key in ref:
        np.testing.assert_array_equal(fast[key], ref[key], err_msg=key)


def test_a_knob_at_its_rulebook_value_is_the_printed_game():
    for text in ("knob:goal=40", "knob:hand=5+knob:min-dream=5+knob:max-dream=10"):
        assert parse_setup(3, text) == parse_setup(3, "base")
        assert variant_name(parse_setup(3, text)) == "base"
    assert parse_setup(2, "knob:remove=4") == parse_setup(2, "base")
    assert parse_setup(4, "knob:remove=2") == parse_setup(4, "remove=2")


def test_knobs_change_the_games_played():
    """The goal decides when a game ends (Z15.1): a lower goal ends more games before morning."""
    base = play_games(parse_setup(3, "base"), ["greedy"] * 3, 1, 0, 200)
    low = play_games(parse_setup(3, "knob:goal=20"), ["greedy"] * 3, 1, 0, 200)
    assert (low["end"] == 1).mean() > (base["end"] == 1).mean()
    won = low["end"] == 1
    assert (low["score"].max(axis=1)[won] >= 20).all()
    short = play_games(parse_setup(3, "knob:max-dream=6+knob:min-dream=3"), ["greedy"] * 3, 1, 0, 200)
    assert (short["dream_elements"] <= 6 * short["dreams"]).all()            # Z8.1: 6 elements end a dream
    assert short["woke"][:, :, 1].sum() > 0                                  # and some dreams end that way
    assert (base["dream_elements"] > 6 * base["dreams"]).any()               # the printed 10 lets them run on


@pytest.mark.parametrize("variant, words", [
    ("knob:goal=4", ["goal", "4", "5..200"]),
    ("knob:goal=201", ["goal", "201", "5..200"]),
    ("knob:hand=1", ["hand", "2..10"]),
    ("knob:hand=five", ["hand", "'five'"]),
    ("knob:max-dream=16", ["max-dream", "2..15"]),
    ("knob:min-dream=0", ["min-dream", "1..15"]),
    ("knob:max-dream=4", ["min-dream 5", "max-dream 4"]),
    ("knob:cost=3", ["unknown knob", "'cost'", "goal"]),
    ("knob:goal", ["goal", "needs a value"]),
    ("knob:goal=30+knob:goal=35", ["knob:goal", "appears twice"]),
    ("remove=2+knob:remove=3", ["remove=N", "knob:remove", "fixes the same number"]),
    ("knob:remove=9", ["only 8 Wake Up"]),
    ("hidden", ["unknown part", "'hidden'"]),
    ("knob:goal=99999999999999999999", ["goal", "not a whole number"]),
])
def test_bad_knobs_are_refused_in_one_line(variant, words):
    with pytest.raises(CZError) as err:
        parse_setup(3, variant)
    text = str(err.value)
    assert "\n" not in text and all(w in text for w in words), text


def test_a_hand_size_that_leaves_no_card_to_draw_is_refused(tmp_path):
    small = load_cards(__import__("pathlib").Path(__file__).resolve().parents[1]
                       / "simcore/games/counting_zzzzs/scenarios/decks/removal.toml")
    assert parse_setup(2, "knob:hand=6", small).hand == 6          # 18 - 4 = 14 cards > 12 dealt (Z4.2)
    with pytest.raises(CZError, match="must have more than 14 cards"):
        parse_setup(2, "knob:hand=7", small)                      # 14 cards, 14 dealt: none left to draw


def test_the_numbers_table_lists_every_knob_once():
    from simcore.games.counting_zzzzs.config import KNOBS
    from simcore.games.counting_zzzzs.numbers import rulebook_numbers
    knobs = [n.status for n in rulebook_numbers() if n.status.startswith("knob:")]
    assert sorted(knobs) == sorted(f"knob:{k.token}" for k in KNOBS)
    by_what = {n.what: n.value for n in rulebook_numbers()}
    # as the rulebook prints them (counting-zzzzs-rulebook.md): 112 element cards, 28 action cards, the 40
    # points, the hand of 5, 5 and 10 elements, 4 / 2 Wake Ups removed with 2 / 3 players
    assert by_what["element cards"] == "112 (28 per kind)"
    assert by_what["action cards"] == "28"
    assert by_what["points that win at once"] == "40"
    assert by_what["hand size (cards dealt, hand refilled to)"] == "5"
    assert by_what["fewest elements that score on waking"] == "5"
    assert by_what["elements that end a dream"] == "10"
    assert by_what["Wake Ups removed before shuffling"] == "4 (2 players), 2 (3 players), 0 (4 players)"


def test_study_tables_read_the_removal_from_any_variant_text():
    """analyses' balance-rule table reads the Wake Ups removed from a configuration's variant text (Z2.2)."""
    from simcore.games.counting_zzzzs.config import removed_in
    assert removed_in("base", 2) == 4 and removed_in("base", 4) == 0            # the rulebook's 4 / 2 / 0
    assert removed_in("hidden-removal+knob:goal=30", 3) == 2
    assert removed_in("remove=6+hidden-removal", 2) == 6
    for players, variant in ((2, "knob:remove=1+knob:hand=4"), (3, "remove=5+knob:goal=30"), (4, "knob:remove=0")):
        setup = parse_setup(players, variant)
        assert removed_in(variant_name(setup), players) == setup.removed
