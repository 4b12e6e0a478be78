"""Differential check: the fast engine against the reference engine, game by game.

:func:`compare_game` plays game ``g`` of run ``seed`` on both engines with the
same bots and returns None when they agree on every decision (kind, seat,
option list, chosen option) and on the final state, or a one-line mismatch
report naming the game, the step and the first differing field.
"""
from __future__ import annotations

import json

from simcore.decks import Deck
from simcore.fast.bridge import decode_trace, dump_fast_state, play_traced
from simcore.notation import dump_state
from simcore.reference import Game
from simcore.rng import GameRng
from simcore.rules import Options


def reference_game(deck: Deck, players: int, options: Options, seed: int, game: int, strategies: list[str]):
    """Play a game on the reference engine; returns (final state dump, decisions)."""
    from strategies.reference_bots import REFERENCE_BOTS

    rng = GameRng(seed, game)
    g = Game.new(deck, players, rng, options)
    decisions = []
    while not g.over:
        d = g.pending
        choice = REFERENCE_BOTS[strategies[d.seat]].choose(g.state, d, rng)
        decisions.append((d.kind, d.seat, [_plain(c) for c in d.choices], _plain(choice)))
        g.apply(choice)
    return dump_state(g.state), decisions


def _plain(value):
    return json.loads(json.dumps(value))


def _first_diff(a, b, path=""):
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return f"{path or 'value'}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: missing on one side"
            d = _first_diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = _first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        return None
    return None if a == b else f"{path or 'value'}: {a!r} != {b!r}"


def compare_game(deck: Deck, players: int, options: Options, seed: int, game: int, strategies) -> str | None:
    """None if both engines play game (seed, game) identically, else the first difference."""
    names = [strategies] * players if isinstance(strategies, str) else list(strategies)
    ref_state, ref_dec = reference_game(deck, players, options, seed, game, names)
    st, meta, opts = play_traced(deck, players, options, seed, game, names)
    fast_dec = [(k, s, _plain(c), _plain(x)) for k, s, c, x in decode_trace(meta, opts)]
    where = f"game {game} (seed {seed}, {players}p, {options.label()}, {deck.label}, {'/'.join(names)})"
    for step, (r, f) in enumerate(zip(ref_dec, fast_dec)):
        for field, a, b in zip(("kind", "seat", "choices", "choice"), r, f):
            d = _first_diff(a, b, field)
            if d:
                return f"{where}: decision {step}: reference vs fast {d}"
    if len(ref_dec) != len(fast_dec):
        return f"{where}: reference asked {len(ref_dec)} decisions, fast {len(fast_dec)}"
    fast_state = dump_fast_state(st, deck)
    for s in fast_state["seats"]:
        cached = s.pop("_cached_score")
        if cached != s["score"]:
            return f"{where}: fast engine's cached chain points are stale ({cached} vs {s['score']})"
    d = _first_diff(ref_state, fast_state, "state")
    if d:
        return f"{where}: final {d}"
    return None
