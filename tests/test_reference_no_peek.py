"""Project Dreamscape's reference bots read nothing their seat cannot know (#42 item 5), with a positive control.

At every decision of whole reference-engine games, the cards no seat can see (the Sleep Deck, and every Deep
Sleep stack: Z cards stay face down, even to their owner, R2.2, R3.3) are dealt again among those places, each
place keeping its size, and every reference bot must score every choice the same. A bot built to peek (it
weighs its first choice by the top card of the Sleep Deck or by the bottom Z card of a seat's stack) must be
caught by the same redeal. No Sleep Token: its red side turns a Z card face up at the start of a turn, after
which that card is known.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest

from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS, ReferenceBot
from simcore.games.dreamscape.decks import build_deck
from simcore.games.dreamscape.reference import Game
from simcore.games.dreamscape.rules import Options
from simcore.rng import GameRng

GAMES = 3


def unknown_redealt(state, rng):
    """A copy of ``state`` with the Sleep Deck and every Deep Sleep stack dealt again among themselves."""
    other = copy.deepcopy(state)
    places = [other.sleep_deck] + [seat.deep_sleep for seat in other.seats]
    pool = [card for place in places for card in place]
    rng.shuffle(pool)
    at = 0
    for place in places:
        place[:] = pool[at:at + len(place)]
        at += len(place)
    return other


def decisions(players, options):
    """Every pending decision of GAMES greedy games: (state, decision)."""
    deck = build_deck()
    for g in range(GAMES):
        game = Game.new(deck, players, GameRng(11, g), options)
        rng = GameRng.decisions(11, g)
        while game.pending is not None:
            d = game.pending
            yield game.state, d
            game.apply(REFERENCE_BOTS["greedy"].choose(game.state, d, rng), d.kind)


def scores(bot, state, d):
    return [bot.score(state, d, c) for c in d.choices]


def changed_scores(bot) -> tuple[int, int]:
    """(decisions, decisions whose scores the redeal changed) over 2-4 player games, base and shifting tokens."""
    rng = np.random.default_rng(3)
    seen = changed = 0
    for players, options in ((2, Options()), (3, Options(False, True)), (4, Options())):
        for state, d in decisions(players, options):
            seen += 1
            changed += scores(bot, state, d) != scores(bot, unknown_redealt(state, rng), d)
    return seen, changed


@pytest.mark.parametrize("name", sorted(REFERENCE_BOTS))
def test_no_reference_bot_reads_the_cards_its_seat_cannot_see(name):
    seen, changed = changed_scores(REFERENCE_BOTS[name])
    assert seen >= 100 and changed == 0


def _top_of_the_sleep_deck(state, d, c):
    return float(state.sleep_deck[0]) if state.sleep_deck and c == d.choices[0] else 0.0


def _bottom_z_of_the_next_seat(state, d, c):
    stack = state.seats[(d.seat + 1) % len(state.seats)].deep_sleep
    return float(stack[0]) if stack and c == d.choices[0] else 0.0


@pytest.mark.parametrize("peek", [_top_of_the_sleep_deck, _bottom_z_of_the_next_seat])
def test_the_redeal_catches_a_bot_that_peeks(peek):
    seen, changed = changed_scores(ReferenceBot("peek", peek, "a bot built to peek"))
    assert changed >= seen // 2
