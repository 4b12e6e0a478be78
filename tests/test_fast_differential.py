"""Differential test: the fast engine plays exactly like the reference engine.

For every seat count 1-4, every option combination (sleep_token x
shifting_tokens) and several swap decks, game g of a run plays on both engines
from the same stream (seed, g) with the same bots; the decision sequence
(kind, seat, option list, chosen option) and the final state (every zone,
counts, scores, winners, turns) must be identical. A failure names the game,
the step and the first differing field.

The default run plays a few games per configuration; the full sample
(``-m slow``) plays 2,000 games per configuration and bot, on all cores.
"""
from __future__ import annotations

import itertools
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from simcore.decks import deck_from_swap_texts
from simcore.fast.differential import compare_game
from simcore.rules import Options

DECKS = {
    "base": [],
    "FF:ID": ["FF:ID"],
    "NT:ED+LD:PS": ["NT:ED", "LD:PS"],
    "CD:ID+RD:ED+SD:PS": ["CD:ID", "RD:ED", "SD:PS"],
}
OPTIONS = [Options(st, sh) for st, sh in itertools.product([False, True], [False, True])]
CONFIGS = [
    (deck, players, opt)
    for deck in DECKS
    for players in (1, 2, 3, 4)
    for opt in OPTIONS
]
BOTS = ["random", "greedy", ("greedy", "random", "random", "greedy")]


def _cid(cfg):
    deck, players, opt = cfg
    return f"{deck}-{players}p-{opt.label()}"


def _run(deck_name, players, options, bot, seed, games):
    deck = deck_from_swap_texts(DECKS[deck_name])
    names = bot if isinstance(bot, str) else list(bot[:players])
    failures = []
    for g in games:
        report = compare_game(deck, players, options, seed, g, names)
        if report:
            failures.append(report)
            if len(failures) >= 3:
                break
    return failures


@pytest.mark.parametrize("cfg", CONFIGS, ids=_cid)
def test_fast_engine_plays_like_reference(cfg):
    deck, players, opt = cfg
    failures = []
    for bot in BOTS:
        failures += _run(deck, players, opt, bot, seed=20261121, games=range(3))
    assert not failures, "\n".join(failures)


def test_a_real_difference_is_reported_with_game_step_and_field():
    """The checker is not vacuous: a different seed on one side is caught at once."""
    from simcore.fast import differential as d

    deck = deck_from_swap_texts([])
    real = d.play_traced

    def wrong_seed(deck, players, options, seed, game, strategies, **kw):
        return real(deck, players, options, seed + 1, game, strategies, **kw)

    d.play_traced = wrong_seed
    try:
        report = d.compare_game(deck, 3, Options(), 1, 0, "random")
    finally:
        d.play_traced = real
    assert report is not None and "game 0" in report and "decision" in report


@pytest.mark.slow
@pytest.mark.parametrize("cfg", CONFIGS, ids=_cid)
def test_fast_engine_plays_like_reference_full_sample(cfg):
    """2,000 games per configuration and bot, split over all cores."""
    deck, players, opt = cfg
    n, workers = 2000, os.cpu_count() or 1
    jobs = []
    with ProcessPoolExecutor(workers) as pool:
        for bot in BOTS[:2]:
            for w in range(workers):
                jobs.append(pool.submit(_run, deck, players, opt, bot, 7, range(w, n, workers)))
        failures = [f for j in jobs for f in j.result()]
    assert not failures, "\n".join(failures[:10])
