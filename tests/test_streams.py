"""Two random streams per game: the deal and the decisions, on both engines.

Game g of a run seeded s is dealt from the deal stream ``GameRng(s, g)`` and
breaks every tie on the decision stream ``GameRng.decisions(s, g)``. So game g
of every variant of one deck starts from the same deal, and the decision draws
start at ``decision_stream_state(s, g)`` whatever the deck's size (with one
stream they started where the shuffle of C cards stopped, C - 1 draws later).

The uniform random bot makes this observable: every decision with n options
is a tie broken by ``below(n)``, so its chosen option indices are exactly the
decision stream's draws, one per asked decision.
"""
from __future__ import annotations

import pytest

from simcore.games.dreamscape.decks import deck_from_swap_texts
from simcore.games.dreamscape.fast.batch import start_game
from simcore.games.dreamscape.fast.layout import knob_vector
from simcore.games.dreamscape.fast.bridge import decode_trace, dump_fast_state, play_traced
from simcore.games.dreamscape.fast.differential import reference_game
from simcore.fast_rng import new_stream
from simcore.games.dreamscape.fast.runner import deck_arrays
from simcore.games.dreamscape.notation import dump_state
from simcore.games.dreamscape.reference import Game
from simcore.rng import GameRng, decision_stream_state, game_stream_state
from simcore.games.dreamscape.rules import Options
from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS

# three deck sizes: base, one swap, two swaps
DECKS = [[], ["FF:ID"], ["NT:ED", "LD:PS"]]
VARIANTS = [Options(), Options(sleep_token=True), Options(shifting_tokens=True)]


def _drawn_indices(seed: int, game: int, option_counts: list[int]) -> list[int]:
    """The indices the random bot must pick: one below(n) per decision on the decision stream."""
    rng = GameRng.decisions(seed, game)
    return [rng.below(n) for n in option_counts]


def test_deck_sizes_differ():
    """Guard: the decks below really have different sizes (else the size test proves nothing)."""
    assert len({len(deck_from_swap_texts(d)) for d in DECKS}) == len(DECKS)


@pytest.mark.parametrize("seed,game", [(0, 0), (7, 3), (20261121, 41)])
def test_decision_stream_is_keyed_apart_from_the_deal_stream(seed, game):
    assert GameRng.decisions(seed, game).state == decision_stream_state(seed, game)
    assert GameRng(seed, game).state == game_stream_state(seed, game)
    assert decision_stream_state(seed, game) != game_stream_state(seed, game)
    assert decision_stream_state(seed, game) != decision_stream_state(seed, game + 1)
    assert decision_stream_state(seed, game) != decision_stream_state(seed + 1, game)


@pytest.mark.parametrize("swaps", DECKS, ids=lambda d: "+".join(d) or "base")
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: o.label())
@pytest.mark.parametrize("players", [2, 3])
def test_random_bot_choices_are_the_decision_stream_on_both_engines(swaps, options, players):
    """After the deal, both engines decide from decision_stream_state(seed, g), whatever the deck."""
    deck = deck_from_swap_texts(swaps)
    seed, game = 31, 5
    st, meta, opts = play_traced(deck, players, options, seed, game, ["random"] * players)
    fast = [(len(c), c.index(x)) for _, _, c, x in decode_trace(meta, opts)]
    assert len(fast) > 20
    assert [i for _, i in fast] == _drawn_indices(seed, game, [n for n, _ in fast])

    _, ref = reference_game(deck, players, options, seed, game, ["random"] * players, REFERENCE_BOTS)
    picked = [(len(c), c.index(x)) for _, _, c, x in ref]
    assert picked == fast


@pytest.mark.parametrize("swaps", DECKS, ids=lambda d: "+".join(d) or "base")
@pytest.mark.parametrize("players", [1, 4])
def test_every_variant_of_a_deck_starts_from_the_same_deal_on_both_engines(swaps, players):
    deck = deck_from_swap_texts(swaps)
    seed, game = 77, 9
    a, b = deck_arrays(deck)
    zones = ("sleep_deck", "dreamscape", "costs", "seats")
    deals = []
    for options in VARIANTS:
        ref = dump_state(Game.new(deck, players, GameRng(seed, game), options).state)
        st = start_game(a, b, players, options.sleep_token, options.shifting_tokens, knob_vector(options, players), new_stream(seed, game))
        fast = dump_fast_state(st, deck)
        for seat in fast["seats"]:
            del seat["_cached_score"]
        assert {k: fast[k] for k in zones} == {k: ref[k] for k in zones}
        deals.append({k: ref[k] for k in zones})
    assert all(d == deals[0] for d in deals)
    # and the deal is the deal stream's shuffle (R2.2: seat 0's Z card is the top card)
    order = list(range(len(deck)))
    GameRng(seed, game).shuffle(order)
    g = Game.new(deck, players, GameRng(seed, game))
    assert deals[0]["seats"][0]["deep_sleep"] == [g.state.code(order[0])]
