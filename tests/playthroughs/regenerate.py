"""Regenerate the stored playthroughs: ``python tests/playthroughs/regenerate.py`` (from the checkout).

Each file is one whole seeded game recorded from the fast engine (format in
tests/playthrough_lib.py); tests/test_playthroughs.py replays every file on
both engines and names the first difference.

When is regenerating legitimate? Only after a deliberate, reviewed change
that is meant to change games: a rules interpretation (shared/rules), the
random stream (simcore/rng.py, simcore/fast_rng.py), the order in which an
engine lists a decision's options, or a bot's scoring or weights. Then
regenerate, read the diff of the files (one decision per line: the first
changed line is where the games part) and commit it with the change that
explains it. Never regenerate to make a failing playthrough test pass
without knowing why it failed: that is exactly the regression the files
exist to catch. Pass file names (stems) to regenerate only those.

The configurations (seed chosen among 1-12 for a short file) cover 1-4
seats, both rules options and both together, swap decks, and the bots
greedy, random, linear, chain, economist, spoiler and rollout.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: playthrough_lib
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout: simcore, strategies

from playthrough_lib import FOLDER, dumps, record  # noqa: E402


def _cfg(deck, players, sleep_token, shifting_tokens, seed, bots, game=0):
    return {
        "deck": deck,
        "players": players,
        "options": {"sleep_token": sleep_token, "shifting_tokens": shifting_tokens},
        "seed": seed,
        "game": game,
        "bots": bots,
    }


PLAYTHROUGHS = {
    "1p-greedy-base": (
        _cfg([], 1, False, False, 5, ["greedy"]),
        "Virtual Dreaming (R10), base rules and deck, greedy bot.",
    ),
    "1p-linear-both-options-FF-ID": (
        _cfg(["FF:ID"], 1, True, True, 12, ["linear"]),
        "Virtual Dreaming with Sleep Token and shifting tokens, swap FF:ID, linear bot.",
    ),
    "2p-greedy-vs-linear-sleep-token": (
        _cfg([], 2, True, False, 5, ["greedy", "linear"]),
        "Two players, Sleep Token (R9), greedy against linear.",
    ),
    "2p-chain-shifting-tokens-NT-ED": (
        _cfg(["NT:ED"], 2, False, True, 3, ["chain", "chain"]),
        "Two chain builders, shifting tokens (R6.8 variant), swap NT:ED.",
    ),
    "2p-random-vs-greedy-base": (
        _cfg([], 2, False, False, 11, ["random", "greedy"]),
        "Two players, base game, random against greedy (both bots exist on both engines).",
    ),
    "3p-linear-base": (
        _cfg([], 3, False, False, 7, ["linear", "linear", "linear"]),
        "Three tuned linear bots, base game.",
    ),
    "3p-economist-sleep-token-FF-ID": (
        _cfg(["FF:ID"], 3, True, False, 2, ["economist", "linear", "economist"]),
        "Three players, Sleep Token, swap FF:ID, economists around a linear bot.",
    ),
    "3p-rollout-vs-linear-shifting-tokens": (
        _cfg([], 3, False, True, 10, ["rollout", "linear", "linear"]),
        "Three players, shifting tokens, the flat Monte Carlo bot against two linear bots.",
    ),
    "4p-linear-both-options": (
        _cfg([], 4, True, True, 11, ["linear", "linear", "linear", "linear"]),
        "Four linear bots, Sleep Token and shifting tokens.",
    ),
    "4p-mixed-bots-triple-swap": (
        _cfg(["CD:ID", "RD:ED", "SD:PS"], 4, False, False, 1, ["spoiler", "greedy", "chain", "linear"]),
        "Four different bots, triple swap CD:ID+RD:ED+SD:PS (every expansion type).",
    ),
}


def main(names: list[str]) -> None:
    unknown = set(names) - set(PLAYTHROUGHS)
    if unknown:
        raise SystemExit(f"unknown playthrough(s): {', '.join(sorted(unknown))}")
    FOLDER.mkdir(exist_ok=True)
    for name in names or PLAYTHROUGHS:
        config, description = PLAYTHROUGHS[name]
        play = record(config, description)
        (FOLDER / f"{name}.json").write_text(dumps(play), "utf-8")
        print(f"{name}: {len(play['decisions'])} decisions")


if __name__ == "__main__":
    main(sys.argv[1:])
