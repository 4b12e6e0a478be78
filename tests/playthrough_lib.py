"""Stored playthroughs (OpenSpiel style): record a seeded game, and replay one on both engines.

A playthrough file (``tests/playthroughs/*.json``) holds one whole game:

``config``
    ``deck`` (swap tokens ``XX:YY``, R1.4), ``players``, ``options``
    (sleep_token, shifting_tokens), ``seed``, ``game`` (the game index: the
    game is dealt from the random stream (seed, game) and decides on its
    decision stream, :mod:`simcore.rng`) and ``bots`` (one per seat).
``decisions``
    every asked decision (2+ options, R11) in order, one per line:
    ``[kind, seat, options, chosen]`` with choices as JSON values of
    shared/conformance/FORMAT.md.
``final``
    the final position in :func:`simcore.games.dreamscape.notation.dump_state` format.

:func:`check` replays a file on both engines: the fast engine plays the bots
(so its choices are checked too), the reference engine answers the stored
choices (and, when every bot has a reference twin, also plays its own bots);
each must ask the same decisions and end in the same position. The first
difference is named.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parent / "playthroughs"


def _setup(config: dict):
    import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers the fast-only bots
    from simcore.games.dreamscape.decks import deck_from_swap_texts
    from simcore.games.dreamscape.rules import Options

    return deck_from_swap_texts(config["deck"]), Options(**config["options"])


def record(config: dict, description: str) -> dict:
    """Play ``config`` on the fast engine and return the playthrough object."""
    from simcore.games.dreamscape.fast.bridge import decode_trace, dump_fast_state, play_traced
    from simcore.games.dreamscape.fast.differential import plain

    deck, options = _setup(config)
    st, meta, opts = play_traced(deck, config["players"], options, config["seed"], config["game"], config["bots"])
    decisions = [[k, s, plain(c), plain(x)] for k, s, c, x in decode_trace(meta, opts)]
    final = dump_fast_state(st, deck)
    for seat in final["seats"]:
        del seat["_cached_score"]
    return {"description": description, "config": config, "decisions": decisions, "final": final}


def dumps(play: dict) -> str:
    """The file text: indented, one decision per line (diffs show the decision that changed)."""
    lines = ["{"]
    lines.append(f'  "description": {json.dumps(play["description"])},')
    lines.append(f'  "config": {json.dumps(play["config"])},')
    lines.append('  "decisions": [')
    body = [f"    {json.dumps(d)}" for d in play["decisions"]]
    lines.append(",\n".join(body))
    lines.append("  ],")
    final = json.dumps(play["final"], indent=2).replace("\n", "\n  ")
    lines.append(f'  "final": {final}')
    lines.append("}")
    return "\n".join(line for line in lines if line) + "\n"


def _first_diff(a: Any, b: Any, path: str) -> str | None:
    from simcore.games.dreamscape.fast.differential import first_diff

    return first_diff(a, b, path)


def check(play: dict) -> list[str]:
    """Differences between the stored playthrough and both engines (empty when both agree)."""
    from simcore.games.dreamscape.fast.differential import reference_game, replay_game
    from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS

    cfg = play["config"]
    deck, options = _setup(cfg)
    want_dec, want_final = play["decisions"], play["final"]
    problems = []

    def compare(engine: str, decisions: list, final: dict, fields: int) -> None:
        for step, (want, got) in enumerate(zip(want_dec, decisions)):
            d = _first_diff(list(want[:fields]), list(got[:fields]), f"decision {step}")
            if d:
                problems.append(f"{engine}: {d}")
                return
        if len(want_dec) != len(decisions):
            problems.append(f"{engine}: {len(decisions)} decisions, the file has {len(want_dec)}")
            return
        d = _first_diff(want_final, final, "final")
        if d:
            problems.append(f"{engine}: {d}")

    fast = record(cfg, play["description"])
    compare("fast", fast["decisions"], fast["final"], 4)
    ref_final, ref_dec = replay_game(deck, cfg["players"], options, cfg["seed"], cfg["game"], [d[3] for d in want_dec])
    compare("reference (replaying the file's choices)", [list(d) for d in ref_dec], ref_final, 3)
    if all(b in REFERENCE_BOTS for b in cfg["bots"]):
        ref_final, ref_dec = reference_game(
            deck, cfg["players"], options, cfg["seed"], cfg["game"], cfg["bots"], REFERENCE_BOTS
        )
        compare("reference (its own bots)", [list(d) for d in ref_dec], ref_final, 4)
    return problems


def files() -> list[Path]:
    return sorted(FOLDER.glob("*.json"))
