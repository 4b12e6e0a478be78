"""The strong bot's value across the single-swap decks (issue #41 item 2: a value for every configuration the main
study reads strong in, the headline swap decks among them).

What is checked against what was worked out independently:
* which decks count as one Controlled Study swap of the printed deck under the base rules (R1.4): one swap, the
  printed composition (R1.3), no rules option, no knob; two swaps, a card file of other cards, Sleep Token or a
  knob are not;
* the value a configuration plays: the family's own value in a single-swap deck, the players' and options' value
  (or nothing) in every other deck, two swaps included;
* the trainer's deck draw (one per block of 50 games) against SplitMix64 worked by hand (simcore/rng.py's
  arithmetic, written out again here), the same draw for the same seed, and each game's rows the rows that game
  gives when played with its drawn deck alone (its deal and decisions are its own streams whatever the deck).
"""
from __future__ import annotations

import numpy as np
import pytest

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers expert and strong
from analyses.games.dreamscape.train_strong import (SINGLE_SWAPS, SWAP_FAMILY_BLOCK, SWAP_FAMILY_SALT,
                                                    single_swap_decks, swap_family_draw, value_rows)
from simcore.games.dreamscape.bots.strong import StrongTables, ValueModel, shipped_values
from simcore.games.dreamscape.decks import (SINGLE_SWAP, DeckSpec, build_deck, deck_family, deck_from_swap_texts,
                                            default_spec)
from simcore.games.dreamscape.fast.runner import strategy_args
from simcore.games.dreamscape.fast.value import VALUE_AT
from simcore.games.dreamscape.rules import Options

M64 = (1 << 64) - 1


def _forest(leaf: float) -> ValueModel:
    """One tree: a single leaf (a value that is ``0.5 + leaf`` everywhere), told apart by its leaf."""
    return ValueModel([-1], [0.0], [0], [0], [leaf], [0], [0.5], {"players": 3})


# ------------------------------------------------------------------ which decks are a single swap


def test_only_one_swap_of_the_printed_deck_under_the_base_rules_is_the_single_swap_family():
    assert deck_family(deck_from_swap_texts(["PR:ID"]), Options()) == SINGLE_SWAP
    assert deck_family(deck_from_swap_texts(["FF:PS"])) == SINGLE_SWAP
    assert deck_family(deck_from_swap_texts([]), Options()) is None  # the printed deck: no swap
    assert deck_family(deck_from_swap_texts(["PR:ID", "NT:ED"]), Options()) is None  # two swaps
    assert deck_family(deck_from_swap_texts(["PR:ID"]), Options(True, False)) is None  # Sleep Token (R4.3)
    assert deck_family(deck_from_swap_texts(["PR:ID"]), Options(False, True)) is None  # shifting tokens
    assert deck_family(deck_from_swap_texts(["PR:ID"]), Options(chain=(3, 6, 9))) is None  # a knob
    spec = default_spec()
    other = DeckSpec(spec.name, spec.base[:-1], spec.expansion, source="mine.toml")  # one base card fewer
    assert deck_family(build_deck(other, [4], [8]), Options()) is None
    same = DeckSpec(spec.name, spec.base, spec.expansion, source="copy.toml")  # the printed cards, from a file
    assert deck_family(build_deck(same, [4], [8]), Options()) == SINGLE_SWAP


def test_the_family_is_the_24_single_swaps_in_the_studys_order():
    decks = single_swap_decks()
    assert len(decks) == 24  # R1.4: 8 base types x 3 expansion types
    assert [d.label for d in decks[:4]] == ["FF:ID", "FF:ED", "FF:PS", "IS:ID"]
    assert decks[-1].label == "SD:PS" and len({d.label for d in decks}) == 24
    assert all(deck_family(d) == SINGLE_SWAP for d in decks)


# ------------------------------------------------------------------ the value played


def test_a_single_swap_deck_plays_the_familys_value_and_a_two_swap_deck_never_does():
    base, family = _forest(0.25), _forest(-0.25)
    tables = StrongTables({(3, False, False): base, (3, False, False, SINGLE_SWAP): family})
    assert tables.value_for((3, False, False, SINGLE_SWAP)) is family
    assert tables.value_for((3, False, False)) is base  # no family: the printed deck, two swaps, a card file
    assert tables.value_for((3, True, False, SINGLE_SWAP)) is None  # no value of that rules option: none
    assert tables.value_for((2, False, False, SINGLE_SWAP)) is None  # nor of another player count
    # the rows the engine gets: the expert table of the rules options, then the family's one tree
    assert tables[(3, False, False, SINGLE_SWAP)][VALUE_AT] == 1
    assert np.array_equal(tables[(3, False, False, SINGLE_SWAP)][:VALUE_AT], tables[(3, False, False)][:VALUE_AT])
    assert not np.array_equal(tables[(3, False, False, SINGLE_SWAP)], tables[(3, False, False)])
    # a user's one file plays in every deck of its player count, whatever the family
    user = StrongTables({(3, False, False): base}, only_players=3, source="strong file v.npz")
    assert user.value_for((3, False, False, SINGLE_SWAP)) is base


@pytest.mark.parametrize("players", [p for p in (2, 3, 4) if (p, False, False, SINGLE_SWAP) in shipped_values()])
def test_the_shipped_strong_plays_its_swap_value_in_one_swap_and_the_base_value_in_two(players):
    from simcore.games.dreamscape.bots.strong import read_value

    files = shipped_values()
    swap_value = read_value(files[(players, False, False, SINGLE_SWAP)])
    base_value = read_value(files[(players, False, False)])
    assert swap_value.meta["deck"] == SINGLE_SWAPS and swap_value.meta["variant"] == "base"

    def row(swaps, options=Options()):
        return strategy_args(["strong"] * players, players, options, deck_from_swap_texts(swaps))[-1][0]

    one, two, printed = row(["PR:ID"]), row(["PR:ID", "NT:ED"]), row([])
    assert np.array_equal(one[VALUE_AT:VALUE_AT + swap_value.packed().shape[0]], swap_value.packed())
    for other in (two, printed):
        assert np.array_equal(other[VALUE_AT:VALUE_AT + base_value.packed().shape[0]], base_value.packed())
    sleep = row(["PR:ID"], Options(True, False))  # a single swap under Sleep Token keeps its rules option's value
    sleep_value = read_value(files[(players, True, False)])
    assert np.array_equal(sleep[VALUE_AT:VALUE_AT + sleep_value.packed().shape[0]], sleep_value.packed())


# ------------------------------------------------------------------ the trainer's draw


def _mix64(z: int) -> int:
    z &= M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def test_the_deck_draw_is_splitmix_of_the_blocks_stream_worked_by_hand():
    seed, game = 1, 260  # game 260 is in block 5 of 50 games (260 // 50)
    start = _mix64((_mix64(seed) + 5 * 0x9E3779B97F4A7C15) & M64)  # stream 5's start (simcore/rng.py)
    x = _mix64(start ^ SWAP_FAMILY_SALT)
    expected = ((x >> 32) * 24) >> 32
    assert SWAP_FAMILY_BLOCK == 50
    assert swap_family_draw(seed, game, 24) == expected
    assert {swap_family_draw(seed, g, 24) for g in range(250, 300)} == {expected}  # the whole block, one deck
    draws = [swap_family_draw(1, 50 * b, 24) for b in range(2400)]
    assert draws == [swap_family_draw(1, 50 * b, 24) for b in range(2400)]  # same seed, same decks
    assert draws != [swap_family_draw(2, 50 * b, 24) for b in range(2400)]  # another seed, other decks
    counts = np.bincount(draws, minlength=24)
    assert counts.min() > 100 * 0.7 and counts.max() < 100 * 1.3  # every deck drawn, about 2400 / 24 times each


def test_each_training_game_gives_the_rows_of_its_drawn_deck_and_the_same_seed_the_same_rows():
    players, seed = 2, 3
    picked = [0, 49, 50, 51, 120, 149]  # both ends of block 0, the start of block 1, inside block 2
    games = picked[-1] + 1
    rows = value_rows(players, Options(), SINGLE_SWAPS, games, seed, chunk_size=33)  # chunks across blocks
    again = value_rows(players, Options(), SINGLE_SWAPS, games, seed, chunk_size=games)
    for name in ("enc", "seat", "win", "game"):
        assert np.array_equal(getattr(rows, name), getattr(again, name)), name
    decks = single_swap_decks()
    assert len({swap_family_draw(seed, g, 24) for g in picked}) > 1  # the blocks drew different decks
    for g in picked:
        alone = value_rows(players, Options(), decks[swap_family_draw(seed, g, 24)], g + 1, seed, chunk_size=g + 1)
        mine, theirs = rows.game == g, alone.game == g
        assert mine.any() and np.array_equal(rows.enc[mine], alone.enc[theirs])
        assert np.array_equal(rows.win[mine], alone.win[theirs])
