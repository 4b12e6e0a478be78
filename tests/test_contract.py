"""The engine contract: rulebook properties every engine must satisfy (pgx style).

One set of tests, parametrised over both engines (the readable reference
engine and the numba fast engine) through a small common adapter: a new game
from (deck, players, options, seed, game index), played to its end with a
choice rule (a bot the engine has), observed as a
:func:`simcore.games.dreamscape.notation.dump_state` dict. The properties come from the
rulebook and shared/rules/interpretations.md, worked out independently of
either engine:

* cards are conserved: every card of the deck ends in exactly one zone
  (R1.3: the deck is the physical cards; no effect creates or destroys one);
* a seat's score is :func:`simcore.games.dreamscape.scoring.final_score` of its REM stack and
  its Z card count (R8.2), and ``z`` is the size of its Deep Sleep;
* the winners are the seats with the best score, and among those the most Z
  cards (R8.3), every seat left tied sharing the win;
* the game ends only when the Sleep Deck cannot fill the empty positions
  (R7.2, R10.4), with every reserve discarded (R8.3) and no R8.4 abort;
* the same (seed, game) gives the same game; other game indices other deals;
* all of this for 1-4 seats, all four option sets and swap decks (R1.4).
"""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Callable

import pytest

from simcore.games.dreamscape.cards import card_code, parse_card
from simcore.games.dreamscape.decks import Deck, deck_from_swap_texts
from simcore.games.dreamscape.notation import dump_state
from simcore.games.dreamscape.reference import Game
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import Options
from simcore.games.dreamscape.scoring import final_score


# ----------------------------------------------------------------------------- the adapter


@dataclass(frozen=True)
class Engine:
    """One engine behind the contract: ``play(deck, players, options, seed, game, bot) -> final dump``."""

    name: str
    bots: tuple[str, ...]
    play: Callable[[Deck, int, Options, int, int, str], dict]


def _play_reference(deck: Deck, players: int, options: Options, seed: int, game: int, bot: str) -> dict:
    from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS

    g = Game.new(deck, players, GameRng(seed, game), options)
    rng = GameRng.decisions(seed, game)
    while not g.over:
        g.apply(REFERENCE_BOTS[bot].choose(g.state, g.pending, rng))
    return dump_state(g.state)


def _play_fast(deck: Deck, players: int, options: Options, seed: int, game: int, bot: str) -> dict:
    import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers the fast-only bots
    from simcore.games.dreamscape.fast.bridge import dump_fast_state, play_traced

    st, _, _ = play_traced(deck, players, options, seed, game, [bot] * players)
    out = dump_fast_state(st, deck)
    for seat in out["seats"]:
        del seat["_cached_score"]  # the fast engine's own cache, not part of dump_state's format
    return out


ENGINES = [
    Engine("reference", ("random", "greedy"), _play_reference),
    Engine("fast", ("random", "greedy", "chain", "linear"), _play_fast),
]
ENGINE_BOTS = [(e, b) for e in ENGINES for b in e.bots]

DECKS = {"base": [], "FF:ID": ["FF:ID"], "CD:ID+RD:ED+SD:PS": ["CD:ID", "RD:ED", "SD:PS"]}
OPTIONS = [Options(st, sh) for st, sh in itertools.product([False, True], [False, True])]
# Every seat count with every option set; the deck rotates so each seat count meets a swap deck.
CONFIGS = [
    (list(DECKS)[(players + i) % len(DECKS)], players, opt)
    for players in (1, 2, 3, 4)
    for i, opt in enumerate(OPTIONS)
]


def _cards(zone: list) -> list[str]:
    """Card texts of a zone as canonical codes (face-down marks and empty positions dropped)."""
    return [card_code(parse_card(c.lstrip("~"))) for c in zone if c is not None]


# ----------------------------------------------------------------------------- properties


@pytest.mark.parametrize("engine,bot", ENGINE_BOTS, ids=[f"{e.name}-{b}" for e, b in ENGINE_BOTS])
@pytest.mark.parametrize("cfg", CONFIGS, ids=[f"{d}-{p}p-{o.label()}" for d, p, o in CONFIGS])
def test_finished_game_obeys_the_rulebook(engine, bot, cfg):
    deck_name, players, options = cfg
    deck = deck_from_swap_texts(DECKS[deck_name])
    end = engine.play(deck, players, options, 11, players, bot)

    # The game ended normally (R7.2 / R10.4), not at the R8.4 cap.
    assert end["game_over"] is True
    assert end["options"] == options.flags()  # the two rules flags (knobs are not in a dump)
    assert len(end["seats"]) == players
    empty = sum(p is None for p in end["dreamscape"])
    assert end["sleep_deck_count"] == len(end["sleep_deck"]) < empty, "R7.2: the deck could still refill"

    # Cards are conserved: the zones hold exactly the deck's cards.
    zones = end["sleep_deck"] + end["dreamscape"] + end["discard"]
    for seat in end["seats"]:
        assert seat["reserved"] == [], "R8.3: unplayed reserves are discarded"
        zones += seat["rem"] + seat["deep_sleep"] + seat["reserved"]
    assert Counter(_cards(zones)) == Counter(card_code(c) for c in deck.cards)
    assert len(_cards(zones)) == len(deck.cards)

    # R8.2: score = chain points of the REM stack - Z cards.
    scores, zs = [], []
    for seat in end["seats"]:
        assert seat["z"] == len(seat["deep_sleep"])
        assert 0 <= seat["spent"] <= seat["z"]
        assert seat["score"] == final_score([parse_card(c) for c in seat["rem"]], seat["z"])
        scores.append(seat["score"])
        zs.append(seat["z"])

    # R8.3: best score, then most Z cards; a remaining tie is shared.
    best = max(scores)
    most_z = max(z for s, z in zip(scores, zs) if s == best)
    assert end["winners"] == [i for i in range(players) if scores[i] == best and zs[i] == most_z]


@pytest.mark.parametrize("engine", ENGINES, ids=[e.name for e in ENGINES])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_same_seed_and_game_give_the_same_game(engine, players):
    deck = deck_from_swap_texts(["FF:ID"])
    options = Options(True, True)
    first = engine.play(deck, players, options, 5, 2, "greedy")
    assert engine.play(deck, players, options, 5, 2, "greedy") == first
    # Other games of the run are other deals (the check above is not comparing constants).
    others = [engine.play(deck, players, options, 5, g, "greedy") for g in (3, 4)]
    assert any(o != first for o in others)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_both_engines_end_in_the_same_position(players):
    """The adapter itself agrees across engines (the differential test checks every decision)."""
    deck = deck_from_swap_texts(["CD:ID", "RD:ED", "SD:PS"])
    for options in OPTIONS:
        ref = ENGINES[0].play(deck, players, options, 3, 0, "greedy")
        fast = ENGINES[1].play(deck, players, options, 3, 0, "greedy")
        assert ref == fast
