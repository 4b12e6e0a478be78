"""Deck facts and deck validation (R1.2, R1.3, R1.4, R2.2/R2.3 deck size)."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from simcore.games.dreamscape.cards import BASE_TYPES, CODES, EXPANSION_TYPES, parse_card
from simcore.games.dreamscape.decks import (
    Deck,
    DeckError,
    all_swap_decks,
    all_swap_sets,
    build_deck,
    check_deck_fits,
    deck_from_swap_texts,
    default_spec,
    load_spec,
    parse_spec,
    parse_swap,
    validate_swaps,
)
from simcore.games.dreamscape.reference import Game
from simcore.rng import GameRng

T = {c: i for i, c in enumerate(CODES)}
# R1.3: the default once-only pairs (a perfect matching of the eight base types).
ONCE_PAIRS = [frozenset({T["FF"], T["SD"]}), frozenset({T["IS"], T["CD"]}),
              frozenset({T["NT"], T["PR"]}), frozenset({T["LD"], T["RD"]})]


def pair_counts(cards) -> Counter:
    return Counter(frozenset(c) for c in cards)


# ----------------------------------------------------------------------------- R1.3


def test_r1_3_default_deck_has_52_cards_13_per_base_type():
    deck = build_deck()
    assert len(deck) == 52
    counts = deck.type_counts()
    assert [counts[t] for t in sorted(BASE_TYPES)] == [13] * 8
    assert [counts[t] for t in sorted(EXPANSION_TYPES)] == [0, 0, 0]


def test_r1_3_default_deck_pairs_twice_except_the_perfect_matching_once():
    pc = pair_counts(build_deck().cards)
    for a, b in combinations(sorted(BASE_TYPES), 2):
        want = 1 if frozenset({a, b}) in ONCE_PAIRS else 2
        assert pc[frozenset({a, b})] == want, (CODES[a], CODES[b])
    assert len(pc) == 28


def test_r1_2_every_card_shows_two_different_types():
    spec = default_spec()
    for card, _ in spec.base + spec.expansion:
        assert card[0] != card[1]


def test_r1_3_expansion_deck_has_54_cards():
    spec = default_spec()
    assert sum(n for _, n in spec.expansion) == 54
    pc = Counter()
    for card, n in spec.expansion:
        pc[frozenset(card)] += n
    # every (expansion, base) pair twice (48) and every expansion pair twice (6)
    for e in EXPANSION_TYPES:
        for b in BASE_TYPES:
            assert pc[frozenset({e, b})] == 2
    for a, b in combinations(sorted(EXPANSION_TYPES), 2):
        assert pc[frozenset({a, b})] == 2
    assert sum(pc.values()) == 54
    assert sum(n for _, n in spec.base) == 52


# ----------------------------------------------------------------------------- R1.4


def test_r1_4_there_are_165_distinct_swap_decks():
    sets = list(all_swap_sets())
    assert len(sets) == 1 + 24 + 84 + 56 == 165
    assert len(set(sets)) == 165
    decks = list(all_swap_decks())
    assert len(decks) == 165
    assert len({(d.removed, d.added) for d in decks}) == 165
    by_k = Counter(len(d.removed) for d in decks)
    assert by_k == {0: 1, 1: 24, 2: 84, 3: 56}


def test_r1_4_an_added_type_is_on_exactly_14_cards_in_every_swap_deck():
    for deck in all_swap_decks():
        counts = deck.type_counts()
        for t in deck.added:
            assert counts[t] == 14, (deck.label, CODES[t])
        for t in deck.removed:
            assert counts[t] == 0, (deck.label, CODES[t])
        for t in EXPANSION_TYPES - deck.added:
            assert counts[t] == 0


def _expected_size(removed: frozenset) -> int:
    """By hand: base cards among the 8-k kept types, 2*C(8-k,2) minus the once-pairs
    still whole, plus 2 per (added, kept base) pair and 2 per pair of added types."""
    k = len(removed)
    kept = 8 - k
    whole_once = sum(1 for p in ONCE_PAIRS if not (p & removed))
    return 2 * (kept * (kept - 1) // 2) - whole_once + 2 * k * kept + 2 * (k * (k - 1) // 2)


def test_r1_4_deck_sizes_by_swap_count_worked_by_hand():
    """k=0: 52. k=1: 52-13+14 = 53 always. k=2: 53 when the two removed types form a
    once-only pair (4 removed sets x 3 added sets = 12 decks), else 54 (72 decks).
    k=3: 54 when the removed set holds a once-only pair (4 x 6 = 24), else 55 (32)."""
    sizes = Counter((len(d.removed), len(d)) for d in all_swap_decks())
    assert sizes == {(0, 52): 1, (1, 53): 24, (2, 53): 12, (2, 54): 72, (3, 54): 24, (3, 55): 32}
    for d in all_swap_decks():
        assert len(d) == _expected_size(d.removed)


def test_r1_4_a_base_type_whose_once_partner_is_removed_is_on_14_cards():
    """Removing FF: SD loses its single FF/SD card (13-1) and gains ID/SD x2 = 14;
    every other kept base type loses 2 and gains 2 = 13."""
    deck = deck_from_swap_texts(["FF:ID"])
    counts = deck.type_counts()
    assert counts[T["SD"]] == 14
    for code in ("IS", "NT", "LD", "PR", "RD", "CD"):
        assert counts[T[code]] == 13
    assert counts[T["FF"]] == 0 and counts[T["ID"]] == 14


def test_r1_4_swap_deck_cards_follow_the_rule():
    """Base cards with no removed type + expansion cards wholly in play with an added type."""
    deck = deck_from_swap_texts(["NT:ED", "CD:PS"])
    in_play = (BASE_TYPES - {T["NT"], T["CD"]}) | {T["ED"], T["PS"]}
    for card in deck.cards:
        assert set(card) <= in_play
    pc = pair_counts(deck.cards)
    assert pc[frozenset({T["ED"], T["PS"]})] == 2
    assert pc[frozenset({T["ID"], T["FF"]})] == 0
    assert pc[frozenset({T["ED"], T["FF"]})] == 2
    assert len(deck) == 54  # NT and CD are not a once-only pair


def test_r1_4_swap_pairing_is_a_set_operation():
    a = deck_from_swap_texts(["FF:ID", "NT:ED"])
    b = deck_from_swap_texts(["FF:ED", "NT:ID"])
    assert Counter(a.cards) == Counter(b.cards)
    assert a.label == b.label


# ----------------------------------------------------------------------------- validation


def test_unknown_code_in_a_swap():
    with pytest.raises(DeckError, match="XX"):
        parse_swap("XX:ID")
    with pytest.raises(DeckError, match="QQ"):
        deck_from_swap_texts(["FF:QQ"])


def test_removing_a_non_base_type():
    with pytest.raises(DeckError, match="(?i)remove ID|base type"):
        validate_swaps([T["ID"]], [T["ED"]])


def test_adding_a_base_type():
    with pytest.raises(DeckError, match="(?i)add FF|expansion type"):
        validate_swaps([T["NT"]], [T["FF"]])


def test_unequal_counts():
    with pytest.raises(DeckError, match="one-for-one|removed but"):
        validate_swaps([T["FF"], T["IS"]], [T["ID"]])
    with pytest.raises(DeckError, match="one-for-one|removed but"):
        build_deck(removed=[T["FF"]], added=[])


def test_more_than_three_swaps():
    """Only three expansion types exist, so a fourth swap must fail with a clear message."""
    with pytest.raises(DeckError, match="at most 3 swaps"):
        deck_from_swap_texts(["FF:ID", "IS:ED", "NT:PS", "LD:ID"])
    with pytest.raises(DeckError):
        validate_swaps([0, 1, 2, 3], [8, 9, 10])


def test_a_card_with_two_equal_types_in_a_deck_file():
    with pytest.raises(DeckError, match="FF/FF"):
        parse_spec('[base]\n"FF/FF" = 2\n"IS/NT" = 1\n', source="bad.toml")


def test_unknown_code_in_a_deck_file(tmp_path):
    path = tmp_path / "unknown.toml"
    path.write_text('[base]\n"FF/ZZ" = 2\n')
    with pytest.raises(DeckError) as exc:
        load_spec(path)
    assert "ZZ" in str(exc.value) and "unknown.toml" in str(exc.value)


def test_malformed_deck_toml_file(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('[base\n"FF/IS" = = 2\n')
    with pytest.raises(DeckError) as exc:
        load_spec(path)
    assert "broken.toml" in str(exc.value) and "TOML" in str(exc.value)


def test_missing_deck_file(tmp_path):
    with pytest.raises(DeckError, match="nothing.toml"):
        load_spec(tmp_path / "nothing.toml")


def test_negative_count_in_deck_file():
    with pytest.raises(DeckError, match="FF/IS"):
        parse_spec('[base]\n"FF/IS" = -1\n')


def test_r2_deck_too_small_to_set_up():
    """R2.2/R2.3: one Z card per seat plus five Dreamscape cards."""
    deck = Deck(cards=tuple(parse_card(c) for c in ["FF/IS"] * 6), source="tiny")
    check_deck_fits(deck, 1)  # 1 + 5 = 6: fits exactly
    with pytest.raises(DeckError, match="too small"):
        check_deck_fits(deck, 2)
    with pytest.raises(DeckError, match="too small"):
        Game.new(deck, 2, GameRng(1))
    nine = Deck(cards=tuple(parse_card(c) for c in ["FF/IS"] * 9), source="nine")
    check_deck_fits(nine, 4)
    with pytest.raises(DeckError):
        check_deck_fits(Deck(cards=nine.cards[:8]), 4)


def test_a_designers_own_deck_file_loads(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(
        'name = "my deck"\n'
        '[base]\n"FF/IS" = 3\n"NT/LD" = 4\n"PR/RD" = 2\n"CD/SD" = 1\n'
        '[expansion]\n"ID/FF" = 5\n"ED/PS" = 1\n'
    )
    spec = load_spec(path)
    assert spec.name == "my deck"
    base = build_deck(spec)
    assert len(base) == 10
    assert Counter(frozenset(c) for c in base.cards)[frozenset({T["NT"], T["LD"]})] == 4
    swapped = build_deck(spec, removed=[T["IS"]], added=[T["ID"]])
    # FF/IS x3 removed; ID/FF x5 added (FF kept); ED/PS not in play
    assert len(swapped) == 10 - 3 + 5
    assert swapped.type_counts()[T["ID"]] == 5
    game = Game.new(swapped, 2, GameRng(3))
    assert len(game.state.sleep_deck) == 12 - 2 - 5


def test_default_deck_file_round_trips_through_a_file(tmp_path):
    from importlib import resources
    text = resources.files("simcore.games.dreamscape").joinpath("data/default_deck.toml").read_text("utf-8")
    path = tmp_path / "copy.toml"
    path.write_text(text)
    assert Counter(build_deck(load_spec(path)).cards) == Counter(build_deck().cards)
