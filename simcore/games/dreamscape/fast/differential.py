"""Differential check: the fast engine against the reference engine, game by game.

:func:`compare_game` plays game ``g`` of run ``seed`` on both engines and
returns None when they agree on every asked decision (kind, seat, option
list, and the chosen option where the reference chooses too) and on the final
state, or a one-line mismatch report naming the game, the step and the first
differing field.

Two ways to drive the reference engine:

* every seat's bot has a reference twin (``reference_bots``, a mapping of
  name -> object with ``choose(state, decision, rng)``, such as
  ``simcore.games.dreamscape.bots.reference_bots.REFERENCE_BOTS``): the reference bots choose,
  on the game's decision stream, so the choices themselves are compared;
* otherwise (bots that exist only on the fast engine: chain, economist,
  linear, rollout...): the fast engine's recorded choices are replayed into
  the reference engine, which must ask exactly the same decisions with the
  same options and reach the same final position.

The bots are a parameter (this module sits in simcore, below strategies).
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from simcore.games.dreamscape.decks import Deck
from simcore.games.dreamscape.fast.bridge import decode_trace, dump_fast_state, play_traced
from simcore.games.dreamscape.notation import dump_state
from simcore.games.dreamscape.reference import Game, IllegalChoice
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import Options


def reference_game(
    deck: Deck, players: int, options: Options, seed: int, game: int, strategies: list[str], reference_bots: Mapping
):
    """Play a game on the reference engine with reference bots; returns (final state dump, decisions).

    The deal stream ``GameRng(seed, game)`` shuffles; the bots decide on the
    decision stream ``GameRng.decisions(seed, game)``, as the fast engine does.
    """
    g = Game.new(deck, players, GameRng(seed, game), options)
    rng = GameRng.decisions(seed, game)
    decisions = []
    while not g.over:
        d = g.pending
        choice = reference_bots[strategies[d.seat]].choose(g.state, d, rng)
        decisions.append((d.kind, d.seat, [plain(c) for c in d.choices], plain(choice)))
        g.apply(choice)
    return dump_state(g.state), decisions


def replay_game(deck: Deck, players: int, options: Options, seed: int, game: int, choices: list):
    """Replay given choices on the reference engine (dealt from the stream (seed, game)).

    Returns (final state dump, decisions asked); stops early, with the
    decisions so far, when the choices run out or the game ends first.
    """
    g = Game.new(deck, players, GameRng(seed, game), options)
    decisions = []
    for choice in choices:
        if g.over:
            break
        d = g.pending
        decisions.append((d.kind, d.seat, [plain(c) for c in d.choices], plain(choice)))
        try:
            g.apply(choice, d.kind)
        except IllegalChoice:  # the option lists differ: the comparison names this step
            return dump_state(g.state), decisions
    if not g.over and len(decisions) == len(choices):  # a decision the fast engine never asked
        d = g.pending
        decisions.append((d.kind, d.seat, [plain(c) for c in d.choices], None))
    return dump_state(g.state), decisions


def plain(value: Any) -> Any:
    """A choice as plain JSON values (tuples become lists)."""
    return json.loads(json.dumps(value))


def first_diff(a: Any, b: Any, path: str = "") -> str | None:
    """The first difference between two JSON-like values, as ``path: a != b``, or None."""
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return f"{path or 'value'}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: missing on one side"
            d = first_diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        return None
    return None if a == b else f"{path or 'value'}: {a!r} != {b!r}"


def compare_game(
    deck: Deck,
    players: int,
    options: Options,
    seed: int,
    game: int,
    strategies,
    reference_bots: Mapping | None = None,
) -> str | None:
    """None if both engines play game (seed, game) identically, else the first difference.

    ``strategies`` is one bot name for every seat or one per seat; the
    reference bots choose when every seat's bot is in ``reference_bots``,
    otherwise the fast engine's choices are replayed (see the module docstring).
    """
    names = [strategies] * players if isinstance(strategies, str) else list(strategies)
    st, meta, opts = play_traced(deck, players, options, seed, game, names)
    fast_dec = [(k, s, plain(c), plain(x)) for k, s, c, x in decode_trace(meta, opts)]
    by_bots = reference_bots is not None and all(n in reference_bots for n in names)
    if by_bots:
        ref_state, ref_dec = reference_game(deck, players, options, seed, game, names, reference_bots)
        fields = ("kind", "seat", "choices", "choice")
    else:
        ref_state, ref_dec = replay_game(deck, players, options, seed, game, [x for *_, x in fast_dec])
        fields = ("kind", "seat", "choices")
    where = f"game {game} (seed {seed}, {players}p, {options.label()}, {deck.label}, {'/'.join(names)})"
    for step, (r, f) in enumerate(zip(ref_dec, fast_dec)):
        for field, a, b in zip(fields, r, f):
            d = first_diff(a, b, field)
            if d:
                return f"{where}: decision {step}: reference vs fast {d}"
    if len(ref_dec) != len(fast_dec):
        return f"{where}: reference asked {len(ref_dec)} decisions, fast {len(fast_dec)}"
    fast_state = dump_fast_state(st, deck)
    for s in fast_state["seats"]:
        cached = s.pop("_cached_score")
        if cached != s["score"]:
            return f"{where}: fast engine's cached chain points are stale ({cached} vs {s['score']})"
    d = first_diff(ref_state, fast_state, "state")
    if d:
        return f"{where}: final {d}"
    return None
