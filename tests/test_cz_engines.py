"""Counting Zzzzs on both engines: bit-identical games for every bot and player count (the differential), the
hand-worked scenarios on both engines with every broken copy failing, and the search bot's choices unchanged
when the cards its seat cannot see are reshuffled (Z17.2)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simcore.games.counting_zzzzs import SCENARIOS_DIR, check_scenario, parse_setup, play_games
from simcore.games.counting_zzzzs import reference as R
from simcore.games.counting_zzzzs.bots import GreedyAgent, search_choice
from simcore.games.counting_zzzzs.play import fast_engine
from simcore.games.counting_zzzzs.scenario import fast_state
from simcore.rng import GameRng

BROKEN = Path(__file__).resolve().parent / "cz_broken"
SCENARIOS = sorted(SCENARIOS_DIR.glob("*.json"))


def same(a: dict, b: dict) -> None:
    assert set(a) == set(b)
    for key in a:
        assert a[key].dtype == b[key].dtype, key
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bots", [["random"], ["greedy"], ["greedy/no-block", "random", "greedy/no-wake-up", "random"]])
def test_reference_and_fast_play_identical_games(players, bots):
    setup = parse_setup(players, "base")
    seats = (bots * players)[:players]
    for seed in (1, 2, 99):
        ref = play_games(setup, seats, seed, 10, 12, engine="reference")
        same(play_games(setup, seats, seed, 10, 12, engine="fast"), ref)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_search_plays_identically_on_both_engines(players):
    setup = parse_setup(players, "base")
    seats = ["search@2"] + ["greedy", "random", "greedy"][:players - 1]
    ref = play_games(setup, seats, 5, 0, 2, engine="reference")
    same(play_games(setup, seats, 5, 0, 2, engine="fast"), ref)


def test_other_variants_and_decks_play_identically(tmp_path):
    text = (SCENARIOS_DIR.parent / "cards.toml").read_text(encoding="utf-8")
    deck = tmp_path / "mine.toml"
    deck.write_text(text.replace("count = 4", "count = 9").replace('value = "neutral"', 'value = "+3/-3"'), "utf-8")
    from simcore.games.counting_zzzzs import load_cards
    for setup in (parse_setup(4, "remove=4"), parse_setup(2, "remove=0"), parse_setup(3, "base", load_cards(deck))):
        seats = ["greedy", "random", "greedy", "random"][:setup.players]
        same(play_games(setup, seats, 3, 0, 15, engine="fast"), play_games(setup, seats, 3, 0, 15, engine="reference"))


TANGLED = (('["+2 with Cooking"]', '["+2 with Cooking", "+1 with Mom", "-2 with Beach"]'),   # Mom names itself
           ('["+2 with Beach"]', '["+2 with Beach", "+1 with Mom"]'))      # two cards name Beach, two Mom


def tangled_deck(tmp_path):
    """The shipped deck with modifiers the fast engine's running tallies must get right: a card naming itself
    (it needs another copy) and cards named by several modifiers, with three copies of every single card."""
    from simcore.games.counting_zzzzs import load_cards
    text = (SCENARIOS_DIR.parent / "cards.toml").read_text(encoding="utf-8")
    for old, new in TANGLED:
        assert old in text
        text = text.replace(old, new)
    deck = tmp_path / "tangled.toml"
    deck.write_text(text.replace("count = 1\n", "count = 3\n"), "utf-8")
    return load_cards(deck)


def test_fast_dream_points_match_the_reference(tmp_path):
    """fast_state.dream_points reads a dream's worth off running tallies: the dream as it is, with one more
    card and with one context card forced must each equal reference.dream_points of that dream (Z14)."""
    import random

    from simcore.games.counting_zzzzs import fast_state as FS
    cards = tangled_deck(tmp_path)
    fast_engine()
    cd = FS.card_table(cards)
    elements = [c for c in range(len(cards)) if cards.element[c]]
    named = [cards.names.index(n) for n in ("Mom", "Beach", "Cooking")] * 6   # the named cards, often
    rng = random.Random(5)
    checked = 0
    for _ in range(400):
        game = R.blank_game(parse_setup(2, "remove=0", cards))
        d = game.dreams[0]
        for _ in range(rng.randrange(0, 10)):
            c = rng.choice(elements + named)
            d.cards.append(c)
            d.forced.append(rng.choice([R.UNFORCED, R.FORCED_POS, R.FORCED_NEG]) if cards.polarity[c] == R.CONTEXT
                            else R.UNFORCED)
            d.force_card.append(-1)
        st = fast_state(game)
        assert FS.dream_points(st, cd, 0, -1, -1, -1) == R.dream_points(cards, d)
        extra = rng.choice(elements + named)
        more = d.copy()
        more.cards.append(extra)
        more.forced.append(R.UNFORCED)
        more.force_card.append(-1)
        assert FS.dream_points(st, cd, 0, extra, -1, -1) == R.dream_points(cards, more)
        free = [i for i, c in enumerate(d.cards) if cards.polarity[c] == R.CONTEXT and d.forced[i] == R.UNFORCED]
        if free:
            i, f = rng.choice(free), rng.choice([R.FORCED_POS, R.FORCED_NEG])
            forced = d.copy()
            forced.forced[i] = f
            assert FS.dream_points(st, cd, 0, -1, i, f) == R.dream_points(cards, forced)
            checked += 1
    assert checked > 50


def test_tangled_modifiers_play_identically(tmp_path):
    setup = parse_setup(3, "base", tangled_deck(tmp_path))
    seats = ["greedy", "random", "greedy/no-block"]
    same(play_games(setup, seats, 4, 0, 20, engine="fast"), play_games(setup, seats, 4, 0, 20, engine="reference"))


def test_results_are_consistent():
    setup = parse_setup(3, "base")
    r = play_games(setup, ["greedy"] * 3, 8, 0, 400)
    assert set(np.unique(r["end"])) <= {1, 2}
    morning = r["end"] == 2
    np.testing.assert_array_equal(r["deck_left"][morning], 0)          # Z4.1: morning = the last card pulled
    assert (r["score"].max(axis=1)[~morning] >= 40).all()              # Z15.1
    best = r["score"].max(axis=1, keepdims=True)
    np.testing.assert_array_equal(r["winners"], (r["score"] == best).astype(np.int8))   # Z15.2, Z16.2
    assert (r["dream_elements"] >= r["dreams"]).all() and (r["dream_elements"] <= 10 * r["dreams"]).all()
    np.testing.assert_array_equal(r["woke"].sum(axis=2), r["dreams"])
    assert (r["element_scored"].sum(axis=2) <= r["dream_elements"]).all()


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_scenarios_pass(path, engine):
    assert check_scenario(path, engine) is None


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_broken_copies_fail_for_their_wrong_value(path, engine):
    import json
    broken = BROKEN / f"{path.stem}-broken.json"
    field = json.loads(broken.read_text())["broken"].split("expect.")[1]
    reason = check_scenario(broken, engine)
    assert reason is not None
    assert field.split("[")[0].split(".")[0] in reason, reason


def test_every_scenario_topic_is_covered():
    topics = ["context-more-positive", "context-more-negative", "context-equal", "modifier", "short-dream",
              "ten-elements", "stuck-discards-hand", "block-cancels-wake-up", "force-placeholder", "forty", "morning",
              "removal-public", "removal-hidden", "knob-goal", "knob-hand", "knob-min-dream", "knob-max-dream", "knob-remove"]
    names = " ".join(p.stem for p in SCENARIOS)
    assert all(t in names for t in topics)
    assert sorted(p.stem + "-broken" for p in SCENARIOS) == sorted(p.stem for p in BROKEN.glob("*.json"))


# ----------------------------------------------------------------------------- Z17.2: hidden cards

class StopAt(GreedyAgent):
    """Greedy until seat 0's n-th second play, where the game stops (the position to search)."""

    def __init__(self, n):
        self.n = n

    def choose(self, game, seat, kind, options, info):
        if kind == "second" and seat == 0:
            self.n -= 1
            if self.n == 0:
                raise R.Pending(kind, seat)
        return super().choose(game, seat, kind, options, info)


def position(seed: int, n: int) -> R.Game:
    game = R.new_game(parse_setup(3, "base"), seed, 0)
    game.agents = [StopAt(n)] * 3
    try:
        R.play_game(game)
    except R.Pending:
        return game
    pytest.skip("the game ended first")


def reshuffled(game: R.Game, seed: int) -> R.Game:
    """The same position with the other hands and the deck redealt among themselves (sizes kept)."""
    other = game.copy()
    pool = list(other.deck) + [c for s in (1, 2) for c in range(len(game.cards)) for _ in range(game.hands[s][c])]
    GameRng(seed, 0).shuffle(pool)
    k = 0
    for s in (1, 2):
        size = sum(game.hands[s])
        other.hands[s] = [pool[k:k + size].count(c) for c in range(len(game.cards))]
        k += size
    other.deck = pool[k:]
    return other


def fast_search(game: R.Game, kind: str, budget: int) -> int:
    fast_engine()
    from simcore.games.counting_zzzzs import fast as F
    from simcore.games.counting_zzzzs import fast_state as FS
    cd = FS.card_table(game.cards)
    st = fast_state(game)
    st[FS.MODE] = FS.MODE_BOTS
    F.second_options(st, cd, 0)
    rng = np.array([GameRng.decisions(3, 4).state], dtype=np.uint64)
    script = np.zeros((0, FS.SC_WIDTH), np.int64)
    return int(F.search_choice(st, cd, rng, script, FS.new_work(), 0, FS.K_SECOND, budget))


@pytest.mark.parametrize("seed, n", [(1, 3), (2, 6), (4, 9)])
def test_search_choices_ignore_where_the_hidden_cards_are(seed, n):
    game = position(seed, n)
    options = R.second_options(game, 0)
    assert len(options) > 2
    moved = [reshuffled(game, k) for k in (11, 12)]
    assert all(m.deck != game.deck or m.hands[1] != game.hands[1] for m in moved)   # the hidden cards did move
    assert all(m.hands[0] == game.hands[0] for m in moved)
    choice = search_choice(game, 0, "second", options, GameRng.decisions(3, 4), 4)
    assert [search_choice(m, 0, "second", options, GameRng.decisions(3, 4), 4) for m in moved] == [choice, choice]
    assert [fast_search(g, "second", 4) for g in [game] + moved] == [choice] * 3


def peeking_choice(game: R.Game, seat: int, options: list[int]) -> int:
    """A bot built to peek (the positive control): it picks by the next seat's hand and the deck's top card,
    which its seat cannot see (Z17.2)."""
    other = (seat + 1) % len(game.hands)
    secret = sum(k * n for k, n in enumerate(game.hands[other])) + (game.deck[0] if game.deck else 0)
    return options[secret % len(options)]


@pytest.mark.parametrize("seed, n", [(1, 3), (2, 6), (4, 9)])
def test_greedy_ignores_where_the_hidden_cards_are(seed, n):
    game = position(seed, n)
    options = R.second_options(game, 0)
    choice = GreedyAgent().choose(game, 0, "second", options, None)
    moved = [reshuffled(game, k) for k in range(20, 30)]
    assert [GreedyAgent().choose(m, 0, "second", options, None) for m in moved] == [choice] * len(moved)


def test_the_hidden_cards_check_catches_a_bot_that_peeks():
    """The same reshuffles that leave search and greedy alone change a peeking bot's choice."""
    caught = 0
    for seed, n in [(1, 3), (2, 6), (4, 9)]:
        game = position(seed, n)
        options = R.second_options(game, 0)
        mine = peeking_choice(game, 0, options)
        caught += any(peeking_choice(m, 0, options) != mine for m in (reshuffled(game, k) for k in range(20, 30)))
    assert caught == 3
