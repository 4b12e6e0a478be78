"""Hand-worked scenarios (scenarios/*.json, format in scenarios/FORMAT.md) on either engine.

A scenario fixes a position between rounds, gives the bids that follow, and says what the position must
be afterwards. Both engines are driven the same way: the engine lists the legal bids, a scripted bid
marked ``"illegal": true`` must be refused (and changes nothing), the game stops at the first bid the
script has no answer for, and a common snapshot is compared.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from . import reference
from .common import GoofspielError, MAX_CARDS, load_cards, parse_setup


class ScenarioFail(Exception):
    """The scenario failed: one line."""


def load(path) -> dict:
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except FileNotFoundError:
        raise ScenarioFail(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ScenarioFail(f"{path}: not a readable JSON file ({str(exc).splitlines()[0]})") from None
    if not isinstance(data, dict) or not isinstance(data.get("setup"), dict):
        raise ScenarioFail(f"{path}: needs an object with a \"setup\"")
    return data


def build_reference(data: dict) -> reference.Game:
    """A reference Game between two rounds, from a scenario's setup."""
    s = data["setup"]
    try:
        cards = load_cards(s["cards"]) if "cards" in s else None
        setup = parse_setup(s.get("players", 2), s.get("variant", "base"), cards)
    except GoofspielError as exc:
        raise ScenarioFail(str(exc)) from None
    values = setup.values
    prizes = [int(v) for v in s.get("prizes", values)]
    hands = s.get("hands", [list(values)] * setup.players)
    if len(hands) != setup.players:
        raise ScenarioFail(f"setup needs {setup.players} hands")
    for what, cards_ in [("prizes", prizes)] + [(f"hand {i + 1}", h) for i, h in enumerate(hands)]:
        if len(cards_) != len(prizes) or len(set(cards_)) != len(cards_) or not set(cards_) <= set(values):
            raise ScenarioFail(f"{what}: {len(prizes)} distinct cards of {list(values)} (one per prize left), "
                               f"got {cards_}")
    game = reference.Game(setup, prizes, [sorted(int(v) for v in h) for h in hands],
                          [int(v) for v in s.get("scores", [0] * setup.players)], int(s.get("pile", 0)),
                          int(s.get("discarded", 0)), len(values) - len(prizes))
    if len(game.scores) != setup.players:
        raise ScenarioFail(f"scores: one per seat ({setup.players})")
    return game


class ScenarioAgent:
    """The reference engine's scripted seats: the scenario's bids, checked against the engine's options."""

    def __init__(self, choices: list[dict]) -> None:
        self.choices = list(choices)

    def bid(self, game, seat, options):
        while self.choices:
            entry = self.choices.pop(0)
            if entry.get("seat") != seat:
                raise ScenarioFail(f"expected seat {entry.get('seat')!r}'s bid, the engine asks seat {seat}")
            bid = entry.get("bid")
            legal = bid in options and isinstance(bid, int) and not isinstance(bid, bool)
            if legal and entry.get("illegal"):
                raise ScenarioFail(f"seat {seat} bid {bid!r} was accepted but is marked illegal")
            if not legal and not entry.get("illegal"):
                raise ScenarioFail(f"seat {seat} bid {bid!r} was refused as illegal")
            if legal:
                return bid
        raise reference.Pending(seat)


def snapshot_reference(game: reference.Game, pending) -> dict:
    return {
        "pending": pending, "game_over": game.over,
        "winners": [s for s, w in enumerate(game.winners) if w] if game.over else None,
        "rounds": game.rounds, "prizes": list(game.prizes), "pile": game.pile, "discarded": game.discarded,
        "scores": list(game.scores), "hands": [list(h) for h in game.hands],
    }


def run_reference(data: dict) -> dict:
    game = build_reference(data)
    agent = ScenarioAgent(data.get("choices", []))
    game.agents = [agent] * game.players
    pending = None
    try:
        reference.play_game(game)
    except reference.Pending as p:
        pending = p.seat
    if agent.choices:
        raise ScenarioFail(f"{len(agent.choices)} bid(s) left over when the game ended")
    return snapshot_reference(game, pending)


def fast_state(game: reference.Game, vals: np.ndarray) -> np.ndarray:
    """The fast engine's state array for a reference Game (scripted mode)."""
    from . import fast as F
    st = np.zeros(F.SIZE, np.int64)
    n = len(vals)
    st[F.PLAYERS], st[F.NCARDS], st[F.ROUNDS], st[F.CARRY] = game.players, n, game.rounds, game.setup.carry
    st[F.PILE], st[F.DISCARDED], st[F.MODE] = game.pile, game.discarded, F.MODE_SCRIPT
    st[F.PRIZES + game.rounds:F.PRIZES + n] = game.prizes
    for s in range(game.players):
        st[F.SCORE + s] = game.scores[s]
        for i, v in enumerate(vals):
            st[F.HELD + s * MAX_CARDS + i] = int(v in game.hands[s])
    return st


def run_fast(data: dict) -> dict:
    from . import fast as F
    game = build_reference(data)                     # the setup's parsing, shared; state copied to arrays
    choices = data.get("choices", [])
    script = np.zeros((len(choices), F.SC_WIDTH), np.int64)
    for r, entry in enumerate(choices):
        seat, bid = entry.get("seat"), entry.get("bid")
        ok = lambda x: isinstance(x, int) and not isinstance(x, bool)
        script[r] = (seat if ok(seat) else -1, bid if ok(bid) else -1, -1, 0)
    vals = F.suit_array(game.setup)
    st = fast_state(game, vals)
    F.play_game(st, vals, np.zeros(1, np.uint64), script, np.zeros((0, F.TR_WIDTH), np.int64))
    for r, entry in enumerate(choices):
        asked = script[r, F.SC_ASKED]
        if asked < 0:
            raise ScenarioFail(f"{len(choices) - r} bid(s) left over when the game ended")
        if asked != entry.get("seat"):
            raise ScenarioFail(f"expected seat {entry.get('seat')!r}'s bid, the engine asks seat {asked}")
        if script[r, F.SC_OK] and entry.get("illegal"):
            raise ScenarioFail(f"seat {asked} bid {entry.get('bid')!r} was accepted but is marked illegal")
        if not script[r, F.SC_OK] and not entry.get("illegal"):
            raise ScenarioFail(f"seat {asked} bid {entry.get('bid')!r} was refused as illegal")
    p, n = game.players, len(vals)
    over = bool(st[F.OVER])
    return {
        "pending": int(st[F.PENDING]) if st[F.STOP] else None, "game_over": over,
        "winners": [s for s in range(p) if st[F.WINNERS + s]] if over else None,
        "rounds": int(st[F.ROUNDS]), "prizes": [int(v) for v in st[F.PRIZES + st[F.ROUNDS]:F.PRIZES + n]],
        "pile": int(st[F.PILE]), "discarded": int(st[F.DISCARDED]),
        "scores": [int(st[F.SCORE + s]) for s in range(p)],
        "hands": [[int(v) for i, v in enumerate(vals) if st[F.HELD + s * MAX_CARDS + i]] for s in range(p)],
    }


def compare(expect: dict, got: dict) -> str | None:
    for key, want in expect.items():
        if key not in got:
            return f"expect: unknown field {key!r}"
        if got[key] != want:
            return f"{key}: expected {want!r}, got {got[key]!r}"
    return None


def check_scenario(path: str | os.PathLike, engine: str) -> str | None:
    """Play the scenario at ``path`` on ``engine`` ("reference" or "fast"): None = passed, else one line."""
    if engine not in ("fast", "reference"):
        raise GoofspielError(f"engine must be 'fast' or 'reference', not {engine!r}")
    try:
        data = load(path)
        got = run_reference(data) if engine == "reference" else run_fast(data)
        return compare(data.get("expect", {}), got)
    except (ScenarioFail, GoofspielError) as exc:
        return str(exc)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return f"malformed scenario ({type(exc).__name__}: {exc})"
