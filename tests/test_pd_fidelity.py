"""Pleasant Dreams as its rulebook says (issue #27): repeated cards (P1.5), what a seat knows after a
secret insertion (P9.4), hidden backs (P1.4, P9.5), the solo challenge with chosen cards (P7.5) and the
difficulty variant (P2.2). Expected values are worked out by hand from the rulebook
(../shared/rules/pleasant-dreams-rulebook.md, line numbers cited) and interpretations.md."""
from __future__ import annotations

import numpy as np
import pytest

from simcore.games import pleasant_dreams as pd
from simcore.games.pleasant_dreams import reference as R
from simcore.games.pleasant_dreams import scenario as SC

CARDS = pd.load_cards()


# ---------------------------------------------------------------- P1.5 a count per card (rulebook lines 79-98)

def two_bears(tmp_path, extra=""):
    f = tmp_path / "cards.toml"
    f.write_text("[[card]]\nname = 'The Bear'\nsymbol = 'flip'\nfront = -1\nback = 1\ncount = 2\n"
                 "[[card]]\nname = 'The Music Box'\nsymbol = 'equal'\nvalue = 2\n" + extra)
    return f


def test_a_count_gives_copies_of_one_card(tmp_path):
    cards = pd.load_cards(two_bears(tmp_path))
    assert cards.names == ("The Bear", "The Bear", "The Music Box")
    assert cards.front == (-1, -1, 2) and cards.back == (1, 1, 2) and cards.flip == (True, True, False)


@pytest.mark.parametrize("count, fragment", [("0", "count must be"), ("'2'", "count must be"), ("true", "count must be"),
                                             ("31", "count must be"), ("29", "more than 30 cards")])
def test_bad_counts_are_one_line_errors(tmp_path, count, fragment):
    f = tmp_path / "cards.toml"
    f.write_text(f"[[card]]\nname = 'A'\nsymbol = 'equal'\nvalue = 1\ncount = {count}\n"
                 "[[card]]\nname = 'B'\nsymbol = 'flip'\nfront = 1\nback = -1\ncount = 2\n")
    with pytest.raises(pd.PDError) as err:
        pd.load_cards(f)
    assert fragment in str(err.value) and "\n" not in str(err.value)


def test_repeated_cards_play_the_same_on_both_engines(tmp_path):
    cards = pd.load_cards(two_bears(tmp_path, "[[card]]\nname = 'The Storm'\nsymbol = 'equal'\nvalue = 1\ncount = 3\n"))
    assert len(cards) == 6
    for players in (1, 2):
        setup = pd.parse_setup(players, "lucid", cards)
        ref = pd.play_games(setup, ["threshold"] * players, 8, 0, 80, engine="reference")
        fast = pd.play_games(setup, ["threshold"] * players, 8, 0, 80, engine="fast")
        for k in ref:
            assert np.array_equal(ref[k], fast[k]), k


def test_scenario_places_each_copy_once(tmp_path):
    f = two_bears(tmp_path)
    seats = [{"wake": 1}, {"wake": 1}]
    g = SC.build_reference({"setup": {"cards": str(f), "deck": ["The Bear", "~The Bear"], "seats": seats}})
    assert [(s.card, s.side) for s in g.deck] == [(0, 0), (1, 1)]
    with pytest.raises(SC.ScenarioFail, match="more often than the card list has copies"):
        SC.build_reference({"setup": {"cards": str(f), "deck": ["The Bear", "The Bear"], "discard": ["The Bear"],
                                      "seats": seats}})


# ---------------------------------------------------------------- P9.4, P9.5: decisions read only what the seat may know

def record_positions(players, variant, games, seed=21):
    """Reference games (threshold against random): a copy of every position at a "turn" decision."""
    setup = pd.parse_setup(players, variant)
    out = []

    class Recorder:
        def __init__(self, agent):
            self.agent = agent

        def choose(self, game, kind, options, info):
            if kind == "turn":
                out.append((game.copy(), list(options)))
            return self.agent.choose(game, kind, options, info)

    for g in range(games):
        game = R.new_game(setup, seed, g)
        rng = R.GameRng.decisions(seed, g)
        game.agents = [Recorder(R.ThresholdAgent()), Recorder(R.RandomAgent(rng))][:players]
        R.play_game(game)
    return out


def disguise(game, seat, rng):
    """The same position as ``seat`` sees it: every slot it cannot place reshuffled (P9.4) and every back no
    one has seen given another value (P9.5)."""
    other = game.copy()
    slots = [i for i in range(len(other.deck)) if not R.knows(other, seat, i)]
    contents = [other.deck[i] for i in slots]
    rng.shuffle(contents)
    for i, slot in zip(slots, contents):
        other.deck[i] = R.Slot(slot.card, slot.side, slot.known)
    c = other.cards
    back = tuple(b if not f or other.back_seen[k] else int(rng.integers(-5, 6)) for k, (f, b) in
                 enumerate(zip(c.flip, c.back)))
    other.cards = pd.CardList(c.names, c.flip, c.front, back, c.source)
    other.setup = pd.Setup(other.setup.players, other.setup.expansion, other.setup.start, other.setup.actions,
                           other.cards, other.setup.public_backs, other.setup.hand)
    return other


def fast_turn(game, seat, bot, budget=2, seed=3):
    from simcore.games.pleasant_dreams import fast as F
    st = SC.fast_state(game)
    st[F.ACTIVE] = seat
    cd = np.array([[int(f) for f in game.cards.flip], list(game.cards.front), list(game.cards.back)], np.int64)
    F.turn_options(st, seat)
    if bot == "threshold":
        return int(F.threshold_turn(st, cd, seat))
    if bot == "random":
        rng = np.array([seed], np.uint64)
        return int(F.random_choice(st, rng, F.K_TURN))
    rng = np.array([seed], np.uint64)
    return int(F.search_turn(st, cd, seat, rng, budget))


def ref_turn(game, seat, options, bot, budget=2, seed=3):
    if bot == "threshold":
        return R.threshold_turn(game, seat, options)
    if bot == "random":
        return R.random_choice(R.GameRng(seed, 0), "turn", options)
    return R.search_turn(game, seat, options, R.GameRng(seed, 0), budget)


POSITIONS = None


def positions():
    global POSITIONS
    if POSITIONS is None:
        POSITIONS = record_positions(2, "lucid", 40) + record_positions(2, "base", 20) + record_positions(1, "lucid", 10)
    return POSITIONS


def test_positions_include_secret_insertions_and_unseen_backs():
    # The test below is only as good as its positions: some must follow an opponent's secret insertion
    # below cards the seat had seen, and some must have backs no one has seen in the deck.
    after_insertion = unseen_back = 0
    for game, _ in positions():
        seat = game.active
        if any(s.known & (1 << (1 - seat)) and not s.known & (1 << seat) for s in game.deck[1:]) and game.players == 2:
            after_insertion += 1
        if any(game.cards.flip[s.card] and s.side == 0 and not game.back_seen[s.card] for s in game.deck):
            unseen_back += 1
    assert after_insertion >= 20 and unseen_back >= 100


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("bot", ["random", "threshold", "search"])
def test_reshuffling_what_a_seat_cannot_know_changes_no_choice(engine, bot):
    # P9.4, P9.5: every bot and the search player choose the same at a position and at any copy of it that
    # differs only where the seat cannot see (positions after secret insertions included) and in unseen backs.
    rng = np.random.default_rng(4)
    cases = positions() if bot != "search" else positions()[::12]
    for game, options in cases:
        seat = game.active
        for _ in range(2 if bot != "search" else 1):
            other = disguise(game, seat, rng)
            if engine == "reference":
                assert ref_turn(game, seat, options, bot) == ref_turn(other, seat, options, bot)
            else:
                assert fast_turn(game, seat, bot) == fast_turn(other, seat, bot)


def test_the_reshuffle_test_can_fail():
    # Power check: reshuffling slots the seat DOES know (here: every slot below the top), or changing backs
    # once they count as seen (the public-backs variant, P9.5), does change some threshold choices.
    rng = np.random.default_rng(5)
    moved = revealed = 0
    for game, options in positions():
        seat = game.active
        other = game.copy()
        rest = other.deck[1:]
        rng.shuffle(rest)
        other.deck[1:] = [R.Slot(s.card, s.side, s.known) for s in rest]
        moved += R.threshold_turn(game, seat, options) != R.threshold_turn(other, seat, options)
        seen, other = game.copy(), disguise(game, seat, rng)
        seen.back_seen = [True] * len(seen.cards)
        other.back_seen = [True] * len(other.cards)
        other.deck = [R.Slot(s.card, s.side, s.known) for s in game.deck]
        revealed += R.threshold_turn(seen, seat, options) != R.threshold_turn(other, seat, options)
    assert moved >= 5 and revealed >= 5


# ---------------------------------------------------------------- the new hand-worked scenarios and their broken copies

# Each new scenario (worked by hand in its description) with a broken copy: the expectation of a wrong
# reading, which must fail on both engines.
BROKEN = {
    # the leak of issue #27: seat 1 still knowing The Spider and The Shadow exactly
    "17-secret-insertion-below-seen-cards": {"deck_known": [3, 2, 3, 0, 3]},
    # a Barrier that turned the card over, or no Barrier on a cross card at all
    "18-barrier-on-a-cross-card": {"deck": ["The Moon", "The Spider", "The Lullaby"]},
    # the flipped Bear at the bottom instead of the centre: it would resolve first
    "19-solo-win": {"discard": ["~The Bear", "The Spider", "The Moon"]},
    # the second Mirror refused, or the backs counted as seen
    "20-second-mirror": {"backs_seen": ["The Bear", "The Falling Dream"]},
    # Recurring Dreams in solo sending the card to the bottom
    "21-recurring-dreams-solo": {"deck": ["The Storm", "The Calm Sea", "The Spider"]},
    # the set-aside card resolving before the Deep Sleep card
    "22-deep-sleep-with-suppression": {"discard": ["The Shadow", "The Teddy Bear", "The Moon"]},
    # Dream Compass before Deep Sleep (it could not reorder the Deep Sleep card: the seat wakes)
    "23-compass-with-deep-sleep": {"game_over": True},
    # a seat dealt two Barriers using only one
    "24-lucid-deal-two-of-a-kind": {"seats": [{"actions": ["barrier"]}, {}]},
}


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("name", sorted(BROKEN))
def test_new_scenario_passes_and_its_broken_copy_fails(tmp_path, engine, name):
    import json
    path = pd.SCENARIOS_DIR / f"{name}.json"
    assert pd.check_scenario(path, engine) is None
    data = json.loads(path.read_text())
    data["expect"].update(BROKEN[name])
    broken = tmp_path / f"{name}-broken.json"
    broken.write_text(json.dumps(data))
    result = pd.check_scenario(broken, engine)
    assert result is not None and "\n" not in result


def test_new_scenarios_cite_the_new_rules():
    import json
    rules = set()
    for name in BROKEN:
        rules |= set(json.loads((pd.SCENARIOS_DIR / f"{name}.json").read_text())["rules"])
    assert {"P9.4", "P9.5", "P8.2", "P6.3", "P8.6", "P8.8", "P8.3", "P8.5", "P8.7", "P7.2"} <= rules


# ---------------------------------------------------------------- P9.5 when a back is seen

def test_backs_are_unseen_until_shown_and_public_in_the_variant():
    # P1.4, P9.5: a new game knows no back; the public-backs variant knows them all.
    g = R.new_game(pd.parse_setup(2), 3, 1)
    assert not any(g.back_seen)
    g = R.new_game(pd.parse_setup(2, "public-backs"), 3, 1)
    assert all(g.back_seen)
    assert pd.variant_name(pd.parse_setup(2, "public-backs+lucid")) == "lucid+public-backs"


def test_mirror_shows_only_the_new_top_back():
    # P8.6 + P4.4: after a Mirror the deck shows its backs, but only the top one is in view.
    g = SC.build_reference({"setup": {"deck": ["The Bear", "The Lullaby", "The Kite"], "seats": [{"wake": 1},
                                                                                                  {"wake": 1}]}})
    g.held[0][pd.common.MIRROR] = 1
    R.use_mirror(g, 0)
    seen = {CARDS.names[c] for c, b in enumerate(g.back_seen) if b}
    assert seen == {"The Kite"}
    # a bot at this point counts the Lullaby's and the Bear's backs as 0 (UNSEEN_BACK), the Kite's as +1
    assert [R.seen_value(g, s.card, s.side) for s in g.deck] == [1, 0, 0]


def test_premonition_and_flip_show_backs():
    g = SC.build_reference({"setup": {"deck": ["The Moon", "~The Lullaby", "The Bear", "~The Kite"],
                                      "seats": [{"wake": 1, "actions": ["premonition"]}, {"wake": 1}]}})
    g.back_seen = [False] * len(CARDS)          # as if the Lullaby and the Kite had been flipped unseen
    R.use_premonition(g, 0)
    assert {CARDS.names[c] for c, b in enumerate(g.back_seen) if b} == {"The Lullaby"}   # not the 4th card


# ---------------------------------------------------------------- P7.5 the solo challenge with chosen cards

@pytest.mark.parametrize("variant, hand, canonical", [
    ("start=4+hand=shimmer,barrier", {"barrier": 1, "shimmer": 1}, "start=4+hand=barrier,shimmer"),
    ("hand=mirror,mirror", {"mirror": 2}, "hand=mirror,mirror"),
])
def test_hand_notation(variant, hand, canonical):
    s = pd.parse_setup(1, variant)
    assert s.hand == tuple(hand.get(a, 0) for a in pd.ACTION_TYPES)
    assert pd.variant_name(s) == canonical and pd.parse_setup(1, canonical) == s


@pytest.mark.parametrize("players, variant, fragment", [
    (2, "hand=barrier", "needs 1 player"),
    (1, "lucid+hand=barrier", "drop lucid"),
    (1, "actions=2+hand=barrier", "drop lucid and actions"),
    (1, "hand=barrier,barrier,barrier", "more than 2 times"),
    (1, "hand=dance", "unknown action card"),
    (1, "hand=", "unknown action card"),
])
def test_bad_hands(players, variant, fragment):
    with pytest.raises(pd.PDError) as err:
        pd.parse_setup(players, variant)
    assert fragment in str(err.value) and "\n" not in str(err.value)


def test_hand_is_held_and_the_deck_is_the_same_deal():
    # P7.5: exactly the chosen cards; the deck of game g is the same whatever the hand (paired comparisons).
    a = R.new_game(pd.parse_setup(1, "start=4+hand=barrier,shimmer,shimmer"), 9, 4)
    b = R.new_game(pd.parse_setup(1, "start=4+actions=3"), 9, 4)
    assert a.held[0] == [1, 0, 0, 2, 0, 0, 0, 0] and a.wake == [4]
    assert [(s.card, s.side) for s in a.deck] == [(s.card, s.side) for s in b.deck]
    ref = pd.play_games(pd.parse_setup(1, "start=4+hand=barrier,shimmer"), ["threshold"], 2, 0, 50, engine="reference")
    fast = pd.play_games(pd.parse_setup(1, "start=4+hand=barrier,shimmer"), ["threshold"], 2, 0, 50, engine="fast")
    assert all(np.array_equal(ref[k], fast[k]) for k in ref)
    assert (ref["dealt"][:, 0] == [1, 0, 0, 1, 0, 0, 0, 0]).all()


def test_the_sets_searched_are_every_multiset_of_types():
    # 8 types, at most 2 copies each: N=2 is 8 pairs + C(8,2) = 36; N=3 is C(8,3) + 8*7 = 112;
    # N=4 is C(8,4) + 8*C(7,2) + C(8,2) = 70 + 168 + 28 = 266 (against C(16,4) = 1820 labelled sets).
    from simcore.games.pleasant_dreams.challenge import hands
    assert [len(hands(n)) for n in range(5)] == [1, 8, 36, 112, 266]
    assert len(hands(16)) == 1 and hands(16)[0] == (2,) * 8
    assert all(sum(h) == 3 and max(h) <= 2 for h in hands(3)) and len(set(hands(3))) == 112


def test_best_hand_is_the_best_set_measured_on_other_deals():
    # With every set a finalist and screen == confirm, the choice is the set with the most wins on deals
    # 0..199 (worked out here set by set), and its rate is measured on deals from MEASURE_FROM.
    from simcore.games.pleasant_dreams import challenge as C
    r = C.best_hand(1, seed=3, screen=200, finalists=8, confirm=200, measure=300)
    wins = {h: C.solo_wins(C.variant_of(4, h), "threshold", 3, 0, 200) for h in C.hands(1)}
    best = max(wins.values())
    first = next(h for h in C.hands(1) if wins[h] == best)
    assert r["hand"] == pd.common.hand_text(first) and r["confirm_rate"] == best / 200 and r["sets"] == 8
    direct = pd.play_games(pd.parse_setup(1, r["variant"]), ["threshold"], 3, C.MEASURE_FROM, 300)
    assert r["wins"] == int((direct["winner"] == 0).sum()) and r["games"] == 300
    with pytest.raises(pd.PDError):
        C.best_hand(1, screen=0)


# ---------------------------------------------------------------- P2.2 difficulty is a solo rule

def test_two_player_difficulty_rows_are_labelled_a_variant():
    from analyses.games.pleasant_dreams import difficulty_rows
    from reports.games.pleasant_dreams import make_findings
    rows = [{"players": p, "bots": [("threshold", ())] * p, "expansion": False, "actions": -1, "start": st,
             "games": 100, "seat_rates": [(0.5, 0.4, 0.6)] * p, "turns": 9.0,
             "variant": "base" if st == 1 else f"start={st}"} for p in (1, 2) for st in (1, 4)]  # as a study's rows
    out = difficulty_rows(rows)
    assert [(r["players"], r["start"], r["rulebook"]) for r in out] == [(1, 1, True), (1, 4, True), (2, 1, True),
                                                                       (2, 4, False)]
    s = {"first_player": [], "action_value": [], "holding": [], "expansion": [], "difficulty": out,
         "solo_challenge": [], "solo_chosen": [], "solver": []}
    texts = [f.text for f in make_findings(s)]
    assert texts[0].startswith("Solo (the rulebook's difficulty levels)")
    assert texts[1].startswith("2-player difficulty variant (not in the rulebook")


# ---------------------------------------------------------------- the study's chosen-cards answer (P7.5)

def test_study_writes_the_chosen_cards_answer(tmp_path, monkeypatch):
    # A small study with solo random-deal rows at start 4 (0 and 2 cards): the chosen-cards search covers
    # N = 0..2 (here capped at 2), its rows equal best_hand run directly with the same budgets, and the
    # findings give both readings.
    import analyses.games.pleasant_dreams as A
    from analyses.study.studyfile import load_study_file
    from analyses.study.studyfile import run_plan
    from reports.games.pleasant_dreams import make_findings
    from simcore.games.pleasant_dreams.challenge import best_hand
    plan = tmp_path / "plan.toml"
    plan.write_text('game = "pleasant-dreams"\nname = "t"\nseed = 6\ngames = 80\nchunk_size = 80\n'
                    '[[configs]]\nplayers = 1\nvariants = ["start=4+actions=0", "start=4+actions=2"]\n'
                    'strategy = "threshold"\n', encoding="utf-8")
    run_plan(load_study_file(plan), tmp_path / "study", progress=False)
    monkeypatch.setattr(A, "CHOICE_MAX_CARDS", 2)
    rows = A.write_solo_choice(tmp_path / "study", 6)
    assert [(r["actions"], r["reading"], r["games"]) for r in rows] == [(0, "chosen cards", 80), (1, "chosen cards", 80),
                                                                       (2, "chosen cards", 80)]
    direct = best_hand(2, seed=6, screen=200, finalists=8, confirm=1000, measure=80)
    assert rows[2]["hand"] == direct["hand"] and rows[2]["rate"] == direct["wins"] / 80
    assert rows[2]["low"] < rows[2]["rate"] < rows[2]["high"]
    s = A.pd_summary(tmp_path / "study")
    assert s["solo_chosen"] == A.json_clean(rows)
    texts = [f.text for f in make_findings(s) if f.topic == "solo"]
    assert texts[0].startswith("As asked (the player chooses its cards") and texts[1].startswith("Random-deal reading")
