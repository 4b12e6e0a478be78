"""The strong bot's inputs (simcore/games/dreamscape/fast/encoding.py) on positions worked out by hand (#42 item 5).

The position: a 3-player base game right after setup (R2), where the rulebook fixes almost everything a seat
may know, then the same position with one more Z card in seat 3's Deep Sleep stack. What each input must be
follows from the rules, not from the encoder:

* R2.2: every seat holds one face-down Z card; R8.2: a seat's score is its chain points (none yet) minus its
  Z cards, so -1 each;
* R2.3: the five Dreamscape positions are filled face up and position k carries cost k;
* R1.2, R1.3: every card shows two different types, and each of the eight base types is on exactly 13 of the
  52 cards, none on an expansion type: what the Dreamscape shows plus what is unseen is 13 of each base type;
* unseen: 52 - 5 face-up cards = 47 (the Sleep Deck's 44 and the three Z cards: face down, even to their
  owner), 44 of them still in the Sleep Deck;
* turn order: the deciding seat is relative seat 0, the seat after it relative seat 1 (R2.4).
"""
from __future__ import annotations

import numpy as np

from simcore.fast_rng import seed_key, stream_state
from simcore.games.dreamscape.decks import deck_from_swap_texts
from simcore.games.dreamscape.fast.batch import start_game
from simcore.games.dreamscape.fast.encoding import (ENC_GAME_AT, ENC_POS, ENC_POS_AT, ENC_SEAT, ENC_UNSEEN_AT, N_ENC,
                                                     encode_position)
from simcore.games.dreamscape.fast.layout import H_DECK_PTR, N_TYPES, S_Z_LEN, knob_vector, off_deck, off_z, seat_base
from simcore.games.dreamscape.fast.runner import deck_arrays
from simcore.games.dreamscape.rules import Options

BASE_TYPES = 8


def _setup(players: int = 3, game: int = 0) -> np.ndarray:
    a, b = deck_arrays(deck_from_swap_texts([]))
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = stream_state(seed_key(5), game)
    return start_game(a, b, players, False, False, knob_vector(Options(), players), rng)


def _encode(st, seat) -> np.ndarray:
    out = np.full(N_ENC + 3, 9.0)
    encode_position(st, seat, out, 1)  # written at an offset: nothing outside its N_ENC values is touched
    assert out[0] == 9.0 and np.all(out[N_ENC + 1:] == 9.0)
    return out[1:N_ENC + 1]


def _seat_part(x, relative):
    o = relative * ENC_SEAT
    return x[o:o + ENC_SEAT]


def test_every_input_of_a_position_right_after_setup():
    for game in range(3):
        st = _setup(game=game)
        for seat in range(3):
            x = _encode(st, seat)
            for relative in range(3):  # score -1 (one Z card), lead 0, 1 Z card, nothing spent, reserved or played
                assert list(_seat_part(x, relative)) == [-1, 0, 1, 0, 0, 0] + [0] * N_TYPES
            assert not _seat_part(x, 3).any()  # a fourth seat the game does not have
            shown = np.zeros(N_TYPES)
            for position in range(5):
                p = x[ENC_POS_AT + position * ENC_POS:ENC_POS_AT + (position + 1) * ENC_POS]
                assert list(p[:3]) == [1, 0, position + 1]  # occupied, face up, cost k on position k
                hot = p[3:]
                assert set(hot.tolist()) <= {0.0, 1.0} and hot.sum() == 2 and not hot[BASE_TYPES:].any()
                shown += hot
            unseen = x[ENC_UNSEEN_AT:ENC_UNSEEN_AT + N_TYPES]
            assert x[ENC_UNSEEN_AT + N_TYPES] == 47 and unseen.sum() == 2 * 47
            assert list(shown + unseen) == [13] * BASE_TYPES + [0] * (N_TYPES - BASE_TYPES)
            game_part = x[ENC_GAME_AT:]
            assert list(game_part) == [44, 44 / 52, 0, 0, 1 if seat == 0 else 0, 0, 0, 1, 0]


def test_another_z_card_in_seat_three_is_seen_from_each_seat_in_turn_order():
    st = _setup()
    before = _encode(st, 0)
    # seat 3 (index 2) takes the Sleep Deck's top card as a second face-down Z card
    top = off_deck(st) + st[H_DECK_PTR]
    st[off_z(st, 2) + 1] = st[top]
    st[H_DECK_PTR] += 1
    st[seat_base(2) + S_Z_LEN] = 2
    for seat, relative in ((0, 2), (1, 1), (2, 0)):  # seat 3 is two seats after seat 1, one after seat 2
        x = _encode(st, seat)
        own = -2 if seat == 2 else -1
        assert list(_seat_part(x, relative)[:6]) == [-2, -2 - own, 2, 0, 0, 0]
        for other in {0, 1, 2} - {relative}:
            assert list(_seat_part(x, other)[:6]) == [-1, -1 - own, 1, 0, 0, 0]
        assert x[ENC_UNSEEN_AT + N_TYPES] == 47  # from the Sleep Deck to a Deep Sleep stack: unseen all the same
        assert x[ENC_GAME_AT] == 43 and x[ENC_GAME_AT + 1] == 43 / 52
    x = _encode(st, 0)
    # which card moved is nobody's to know: the unseen counts do not change
    assert np.array_equal(x[ENC_UNSEEN_AT:ENC_GAME_AT], before[ENC_UNSEEN_AT:ENC_GAME_AT])
