"""Differential test: the fast engine plays exactly like the reference engine, for every built-in bot.

For every seat count 1-4, every option combination (sleep_token x
shifting_tokens) and several swap decks, game g of a run plays on both engines
from the same streams (the deal (seed, g) and its decision stream); the decision sequence (kind, seat, option
list, chosen option) and the final state (every zone, counts, scores,
winners, turns) must be identical. A failure names the game, the step and the
first differing field.

random and greedy exist on both engines: each engine's own bots choose. The
bots that exist only on the fast engine (chain, economist, spoiler, linear,
rollout) are checked by replay: the fast engine's recorded choices are
played into the reference engine, which must ask the same decisions (kind,
seat, option list) and reach the same final position.

The default run plays a few games per configuration (the rollout bot, slow,
one game per seat count); the full sample (``-m slow``) plays 2,000 games per
configuration for random and greedy and 200 for each fast-only bot, on all cores.
"""
from __future__ import annotations

import itertools
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers chain, economist, spoiler, linear, rollout
from simcore.games.dreamscape.decks import deck_from_swap_texts
from simcore.games.dreamscape.fast.differential import compare_game
from simcore.games.dreamscape.rules import Options
from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS

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
FAST_ONLY_BOTS = ["chain", "economist", "spoiler", "linear", "expert", "rollout", "strong", "sharp"]
ALL_BUILTIN = ["random", "greedy", *FAST_ONLY_BOTS]


def _cid(cfg):
    deck, players, opt = cfg
    return f"{deck}-{players}p-{opt.label()}"


def _run(deck_name, players, options, bot, seed, games):
    deck = deck_from_swap_texts(DECKS[deck_name])
    names = bot if isinstance(bot, str) else list(bot[:players])
    failures = []
    for g in games:
        report = compare_game(deck, players, options, seed, g, names, REFERENCE_BOTS)
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
    from simcore.games.dreamscape.fast import differential as d

    deck = deck_from_swap_texts([])
    real = d.play_traced

    def wrong_seed(deck, players, options, seed, game, strategies, **kw):
        return real(deck, players, options, seed + 1, game, strategies, **kw)

    d.play_traced = wrong_seed
    try:
        report = d.compare_game(deck, 3, Options(), 1, 0, "random", REFERENCE_BOTS)
    finally:
        d.play_traced = real
    assert report is not None and "game 0" in report and "decision" in report


def test_every_builtin_bot_is_covered():
    """The differential covers every bot the package registers (a fresh process: tests register others)."""
    import subprocess
    import sys

    code = (
        "import simcore.games.dreamscape.bots.builtins\n"
        "from simcore.games.dreamscape.fast.strategies import strategy_names\n"
        "print(' '.join(strategy_names()))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    builtin = {n for n in out if "-hook" not in n}  # the hooks replay random/greedy (timing aids)
    assert "linear" in builtin and "rollout" in builtin
    assert builtin <= set(ALL_BUILTIN), f"not covered: {sorted(builtin - set(ALL_BUILTIN))}"
    assert not set(FAST_ONLY_BOTS) & set(REFERENCE_BOTS)


# The fast-only bots: per bot and seat count one configuration (options and
# deck rotate so every option set and a swap deck appear for each bot).
FAST_ONLY_CONFIGS = [
    (bot, list(DECKS)[(players + i) % len(DECKS)], players, OPTIONS[(players + i) % len(OPTIONS)])
    for i, bot in enumerate(FAST_ONLY_BOTS)
    for players in (1, 2, 3, 4)
]


@pytest.mark.parametrize(
    "bot,deck,players,opt", FAST_ONLY_CONFIGS, ids=[f"{b}-{d}-{p}p-{o.label()}" for b, d, p, o in FAST_ONLY_CONFIGS]
)
def test_fast_only_bot_replays_identically_on_reference(bot, deck, players, opt):
    games = range(1) if bot == "rollout" else range(3)
    failures = _run(deck, players, opt, bot, seed=20261121, games=games)
    assert not failures, "\n".join(failures)


def test_mixed_table_of_fast_only_and_reference_bots_replays_identically():
    """A table mixing bots of both kinds is replayed (the reference bots would draw a different stream)."""
    failures = _run("NT:ED+LD:PS", 4, Options(True, False), ("linear", "greedy", "chain", "economist"), 5, range(3))
    failures += _run("base", 3, Options(False, True), ("spoiler", "random", "economist"), 5, range(3))
    assert not failures, "\n".join(failures)


def test_a_replayed_choice_that_differs_is_reported():
    """Replay is not vacuous: changing one recorded choice of a fast-only bot is caught."""
    from simcore.games.dreamscape.fast import differential as d

    deck = deck_from_swap_texts([])
    real = d.decode_trace

    def one_changed(meta, opts):
        out = real(meta, opts)
        for i, (kind, seat, choices, chosen) in enumerate(out):
            if kind == "buy" and len(choices) >= 2:
                other = next(c for c in choices if c != chosen)
                out[i] = (kind, seat, choices, other)
                break
        return out

    d.decode_trace = one_changed
    try:
        report = d.compare_game(deck, 3, Options(), 1, 0, "economist", REFERENCE_BOTS)
    finally:
        d.decode_trace = real
    assert report is not None and "game 0" in report


@pytest.mark.slow
@pytest.mark.parametrize("cfg", CONFIGS, ids=_cid)
def test_fast_engine_plays_like_reference_full_sample(cfg):
    """2,000 games per configuration for random and greedy, 200 per fast-only bot (rollout 20), over all cores."""
    deck, players, opt = cfg
    n, workers = 2000, os.cpu_count() or 1
    jobs = []
    with ProcessPoolExecutor(workers) as pool:
        for bot in BOTS[:2]:
            for w in range(workers):
                jobs.append(pool.submit(_run, deck, players, opt, bot, 7, range(w, n, workers)))
        for bot in FAST_ONLY_BOTS:
            m = 20 if bot == "rollout" else 200
            for w in range(workers):
                jobs.append(pool.submit(_run, deck, players, opt, bot, 7, range(w, m, workers)))
        failures = [f for j in jobs for f in j.result()]
    assert not failures, "\n".join(failures[:10])
