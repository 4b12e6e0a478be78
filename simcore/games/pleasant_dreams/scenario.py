"""Hand-worked scenarios (scenarios/*.json, format in scenarios/FORMAT.md) on either engine.

A scenario fixes a position at the start of a turn, answers the decisions that follow, and says what
the position must be afterwards. Both engines are driven the same way: the scripted answers are checked
for legality by the engine (an entry marked ``"illegal": true`` must be refused and change nothing), the
game stops at the first decision the script has no answer for, and a common snapshot is compared.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from simcore.files import parse_json, read_text_file

from . import reference
from .common import ACTION_TYPES, CardList, PDError, load_cards, parse_setup

KIND_NAMES = reference.KINDS
TURN_WORDS = {"mirror": reference.TURN_MIRROR, "premonition": reference.TURN_PREMONITION}
RESOLVE_WORDS = {"resolve": reference.RESOLVE, "barrier": reference.USE_BARRIER,
                 "shimmer": reference.USE_SHIMMER, "suppress": reference.USE_SUPPRESSION}
ILLEGAL = -999                  # a code no decision accepts (malformed answers)


class ScenarioFail(Exception):
    """The scenario failed: one line."""


def parse_face(cards: CardList, text, taken: set[int] | None = None) -> tuple[int, int]:
    """"Name" = front showing, "~Name" = back showing (flip cards only). With ``taken`` (the copies already
    placed in the setup), the next unused copy of a repeated name (P1.5); one copy too many is an error."""
    if not isinstance(text, str):
        raise ScenarioFail(f"card {text!r} is not a card name")
    side = 1 if text.startswith("~") else 0
    name = text[1:] if side else text
    if name not in cards.names:
        raise ScenarioFail(f"unknown card {name!r}")
    copies = [c for c, n in enumerate(cards.names) if n == name]
    if taken is not None:
        free = [c for c in copies if c not in taken]
        if not free:
            raise ScenarioFail(f"{name!r} appears more often than the card list has copies ({len(copies)})")
        taken.add(free[0])
        copies = free
    card = copies[0]
    if side and not cards.flip[card]:
        raise ScenarioFail(f"{name!r} is an equal card; it has no separate back (~)")
    return card, side


def face_text(cards: CardList, card: int, side: int) -> str:
    return ("~" if side else "") + cards.names[card]


def load(path) -> dict:
    if not Path(path).exists() and not Path(path).is_symlink():
        raise ScenarioFail(f"{path}: no such file")
    # size and nesting limits (simcore.files); one line naming the file
    data = parse_json(read_text_file(path, "scenario file", ScenarioFail), str(path), ScenarioFail)
    if not isinstance(data, dict) or not isinstance(data.get("setup"), dict):
        raise ScenarioFail(f"{path}: needs an object with a \"setup\"")
    return data


def build_reference(data: dict) -> reference.Game:
    """A reference Game at the start of the active seat's turn, from a scenario's setup."""
    s = data["setup"]
    cards = load_cards(s["cards"]) if "cards" in s else load_cards(None)
    players = s.get("players", 2)
    try:
        setup = parse_setup(players, s.get("variant", "base"), cards)
    except PDError as exc:
        raise ScenarioFail(str(exc)) from None
    if "deal" in s:                                  # the engine's own deal of one game (P2, P7.2; FORMAT.md)
        deal = s["deal"]
        if set(s) - {"players", "variant", "cards", "deal"} or not isinstance(deal, dict) or set(deal) != {"seed", "game"}:
            raise ScenarioFail("a dealt setup has only players, variant, cards and deal: {\"seed\": S, \"game\": G}")
        return reference.new_game(setup, int(deal["seed"]), int(deal["game"]))
    seats = s.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        raise ScenarioFail(f"setup needs {players} seats")
    deck = []
    taken: set[int] = set()
    known = s.get("deck_known", [0] * len(s.get("deck", [])))
    for text, k in zip(s.get("deck", []), known):
        deck.append(reference.Slot(*parse_face(cards, text, taken), int(k)))
    held = []
    for seat in seats:
        h = [0] * len(ACTION_TYPES)
        for a in seat.get("actions", []):
            if a not in ACTION_TYPES:
                raise ScenarioFail(f"unknown action card {a!r}")
            h[ACTION_TYPES.index(a)] += 1
        held.append(h)
    game = reference.Game(setup, cards, deck, [int(seat.get("wake", setup.start)) for seat in seats], held,
                          [list(h) for h in held], [[0] * len(ACTION_TYPES) for _ in seats], [0] * players,
                          [[parse_face(cards, t, taken) for t in seat.get("aside", [])] for seat in seats],
                          [parse_face(cards, t, taken) for t in s.get("discard", [])])
    # P9.5: a back showing in the setup was seen (a flip shows the card, rulebook l. 91-92); "backs_seen"
    # names more; the public-backs variant knows them all.
    game.back_seen = [setup.public_backs] * len(cards)
    for card, side in [(x.card, x.side) for x in deck] + [f for a in game.aside for f in a] + game.discard:
        if side:
            game.back_seen[card] = True
    for name in s.get("backs_seen", []):
        if name not in cards.names:
            raise ScenarioFail(f"backs_seen: unknown card {name!r}")
        for c, n in enumerate(cards.names):
            if n == name:
                game.back_seen[c] = True
    game.active = int(s.get("active", 0))
    game.turns = int(s.get("turns", 0))
    return game


def encode(kind: str, choice, options=None):
    """A scenario's answer as the engines' choice code (compass: None or an order; recurring: a tuple)."""
    if kind == "turn":
        if isinstance(choice, str):
            return TURN_WORDS.get(choice, ILLEGAL)
        return choice if isinstance(choice, int) and not isinstance(choice, bool) else ILLEGAL
    if kind == "deep_sleep":
        return int(choice) if isinstance(choice, bool) else ILLEGAL
    if kind == "resolve":
        return RESOLVE_WORDS.get(choice, ILLEGAL) if isinstance(choice, str) else ILLEGAL
    if kind == "flip":
        return {"discard": 0, "flip": 1}.get(choice, ILLEGAL) if isinstance(choice, str) else ILLEGAL
    if kind == "place":
        return choice if isinstance(choice, int) and not isinstance(choice, bool) else ILLEGAL
    if kind == "compass":
        if choice is False:
            return None
        return tuple(choice) if isinstance(choice, list) and all(isinstance(i, int) for i in choice) else ILLEGAL
    if kind == "recurring":
        return tuple(choice) if isinstance(choice, list) and all(isinstance(i, int) for i in choice) else ILLEGAL
    return ILLEGAL


def is_legal(kind: str, code, options) -> bool:
    if kind == "compass":
        return code is None or (code != ILLEGAL and sorted(code) == list(range(options)))
    if kind == "recurring":
        return code != ILLEGAL and len(set(code)) == len(code) and all(0 <= i < options for i in code)
    return code in options


class ScenarioAgent:
    """The reference engine's scripted seat: the scenario's answers, checked for legality."""

    def __init__(self, choices: list[dict]) -> None:
        self.choices = list(choices)

    def choose(self, game, kind, options, info):
        while self.choices:
            entry = self.choices.pop(0)
            if entry.get("decision") != kind:
                raise ScenarioFail(f"expected decision {entry.get('decision')!r}, the engine asks {kind!r}")
            code = encode(kind, entry.get("choice"))
            legal = is_legal(kind, code, options)
            if legal and entry.get("illegal"):
                raise ScenarioFail(f"{kind} {entry.get('choice')!r} was accepted but is marked illegal")
            if not legal and not entry.get("illegal"):
                raise ScenarioFail(f"{kind} {entry.get('choice')!r} was refused as illegal")
            if legal:
                return tuple(sorted(code)) if kind == "recurring" else code
        raise reference.Pending(kind)


def snapshot_reference(game: reference.Game, pending) -> dict:
    c = game.cards
    return {
        "pending": pending, "game_over": game.over, "winner": game.winner if game.over else None,
        "active": game.active, "turns": game.turns,
        "deck": [face_text(c, s.card, s.side) for s in game.deck],
        "deck_known": [s.known for s in game.deck], "deck_count": len(game.deck),
        "discard": [face_text(c, *x) for x in game.discard],
        "flow": [face_text(c, *x) for x in game.flow],
        "backs_seen": sorted({c.names[i] for i, b in enumerate(game.back_seen) if b and c.flip[i]}),
        "seats": [{"wake": game.wake[s],
                   "actions": [a for t, a in enumerate(ACTION_TYPES) for _ in range(game.held[s][t])],
                   "used": [a for t, a in enumerate(ACTION_TYPES) for _ in range(game.used[s][t])],
                   "aside": [face_text(c, *x) for x in game.aside[s]]} for s in range(game.players)],
    }


def run_reference(data: dict) -> dict:
    game = build_reference(data)
    game.agents = [ScenarioAgent(data.get("choices", []))] * game.players
    agent = game.agents[0]
    pending = None
    try:
        reference.play_game(game)
    except reference.Pending as p:
        pending = p.kind
    if agent.choices:
        raise ScenarioFail(f"{len(agent.choices)} choice(s) left over when the game ended")
    return snapshot_reference(game, pending)


def fast_state(game: reference.Game) -> np.ndarray:
    """The fast engine's state array for a reference Game (scripted mode)."""
    from . import fast as F
    st = np.zeros(F.SIZE, np.int64)
    st[F.PLAYERS] = game.players
    st[F.NCARDS] = len(game.cards)
    st[F.ACTIVE] = game.active
    st[F.TURNS] = game.turns
    st[F.WINNER] = -1
    st[F.MODE] = F.MODE_SCRIPT
    st[F.DECK_N] = len(game.deck)
    F.set_knobs(st, F.knob_array(game.setup))        # P11: the rules knobs of the scenario's variant
    for i, slot in enumerate(game.deck):
        st[F.DECK_CARD + i], st[F.DECK_SIDE + i], st[F.DECK_KNOWN + i] = slot.card, slot.side, slot.known
    for s in range(game.players):
        st[F.WAKE + s] = game.wake[s]
        st[F.BANNED + s] = game.banned[s]
        for t in range(len(ACTION_TYPES)):
            st[F.HELD + s * F.NA + t] = game.held[s][t]
            st[F.DEALT + s * F.NA + t] = game.dealt[s][t]
            st[F.USED + s * F.NA + t] = game.used[s][t]
        st[F.ASIDE_N + s] = len(game.aside[s])
        for j, (card, side) in enumerate(game.aside[s]):
            st[F.ASIDE_CARD + s * F.DCAP + j], st[F.ASIDE_SIDE + s * F.DCAP + j] = card, side
    for card, seen in enumerate(game.back_seen):
        st[F.BACK_SEEN + card] = int(seen)
    st[F.DISCARD_N] = len(game.discard)
    for j, (card, side) in enumerate(game.discard):
        st[F.DISCARD_CARD + j], st[F.DISCARD_SIDE + j] = card, side
    return st


def script_rows(entries: list[tuple[str, object]]) -> np.ndarray:
    """Script rows for the fast engine from (kind, choice code) pairs (codes as the reference's)."""
    from . import fast as F
    script = np.zeros((len(entries), F.SC_WIDTH), np.int64)
    for r, (kind, code) in enumerate(entries):
        if kind == "compass":
            if code is None:
                script[r, F.SC_CHOICE] = 0
            elif code == ILLEGAL or len(code) > 8:
                script[r, F.SC_CHOICE] = ILLEGAL
            else:
                script[r, F.SC_CHOICE] = 1
                script[r, F.SC_LEN] = len(code)
                script[r, F.SC_ORDER:F.SC_ORDER + len(code)] = code
        elif kind == "recurring":
            ok = code != ILLEGAL and len(set(code)) == len(code) and all(0 <= i < 30 for i in code)
            script[r, F.SC_CHOICE] = sum(1 << i for i in code) if ok else ILLEGAL
        else:
            script[r, F.SC_CHOICE] = code if isinstance(code, int) else ILLEGAL
        script[r, F.SC_KIND] = -1
    return script


def play_fast_scripted(game: reference.Game, entries: list[tuple[str, object]]):
    """Play ``game`` on the fast engine answering every asked decision from ``entries``: (st, script)."""
    from . import fast as F
    st = fast_state(game)
    script = script_rows(entries)
    F.play_game(st, F.card_array(game.setup), np.zeros(1, np.uint64), script)
    return st, script


def play_fast_dealt(setup, deal: dict, entries: list[tuple[str, object]]):
    """Deal game ``deal["game"]`` of ``deal["seed"]`` with the fast engine's new_game, then play it as
    play_fast_scripted does: (st, script)."""
    from simcore.fast_rng import seed_key

    from . import fast as F
    st = np.zeros(F.SIZE, np.int64)
    hand = np.array(setup.hand if setup.hand is not None else (0,) * F.NA, np.int64)
    F.new_game(st, F.card_array(setup), setup.players, setup.start,
               -2 if setup.hand is not None else setup.dealt_at_random(), hand, int(setup.public_backs),
               F.knob_array(setup), seed_key(int(deal["seed"])), int(deal["game"]))
    st[F.MODE] = F.MODE_SCRIPT
    script = script_rows(entries)
    F.play_game(st, F.card_array(setup), np.zeros(1, np.uint64), script)
    return st, script


def run_fast(data: dict) -> dict:
    from . import fast as F
    game = build_reference(data)                     # the setup's parsing, shared; state copied to arrays
    choices = data.get("choices", [])
    entries = [(e.get("decision"), encode(e.get("decision"), e.get("choice"))
                if e.get("decision") in KIND_NAMES else ILLEGAL) for e in choices]
    if "deal" in data["setup"]:                      # the fast engine's own deal, not a copy of the reference's
        st, script = play_fast_dealt(game.setup, data["setup"]["deal"], entries)
    else:
        st, script = play_fast_scripted(game, entries)
    for r, entry in enumerate(choices):
        if script[r, F.SC_KIND] < 0:
            raise ScenarioFail(f"{len(choices) - r} choice(s) left over when the game ended")
        seen = KIND_NAMES[script[r, F.SC_KIND]]
        if seen != entry.get("decision"):
            raise ScenarioFail(f"expected decision {entry.get('decision')!r}, the engine asks {seen!r}")
        if script[r, F.SC_OK] and entry.get("illegal"):
            raise ScenarioFail(f"{seen} {entry.get('choice')!r} was accepted but is marked illegal")
        if not script[r, F.SC_OK] and not entry.get("illegal"):
            raise ScenarioFail(f"{seen} {entry.get('choice')!r} was refused as illegal")
    return snapshot_fast(game, st)


def snapshot_fast(game: reference.Game, st: np.ndarray) -> dict:
    from . import fast as F
    c = game.cards
    p = game.players
    face = lambda base_c, base_s, i: face_text(c, int(st[base_c + i]), int(st[base_s + i]))
    return {
        "pending": KIND_NAMES[st[F.PENDING]] if st[F.STOP] else None,
        "game_over": bool(st[F.OVER]), "winner": int(st[F.WINNER]) if st[F.OVER] else None,
        "active": int(st[F.ACTIVE]), "turns": int(st[F.TURNS]),
        "deck": [face(F.DECK_CARD, F.DECK_SIDE, i) for i in range(st[F.DECK_N])],
        "deck_known": [int(st[F.DECK_KNOWN + i]) for i in range(st[F.DECK_N])],
        "deck_count": int(st[F.DECK_N]),
        "discard": [face(F.DISCARD_CARD, F.DISCARD_SIDE, i) for i in range(st[F.DISCARD_N])],
        "flow": [face(F.FLOW_CARD, F.FLOW_SIDE, i) for i in range(st[F.FLOW_N])],
        "backs_seen": sorted({c.names[i] for i in range(len(c)) if st[F.BACK_SEEN + i] and c.flip[i]}),
        "seats": [{"wake": int(st[F.WAKE + s]),
                   "actions": [a for t, a in enumerate(ACTION_TYPES) for _ in range(st[F.HELD + s * F.NA + t])],
                   "used": [a for t, a in enumerate(ACTION_TYPES) for _ in range(st[F.USED + s * F.NA + t])],
                   "aside": [face(F.ASIDE_CARD + s * F.DCAP, F.ASIDE_SIDE + s * F.DCAP, j)
                             for j in range(st[F.ASIDE_N + s])]} for s in range(p)],
    }


def compare(expect: dict, got: dict) -> str | None:
    for key, want in expect.items():
        if key == "seats":
            for s, seat in enumerate(want):
                for k, v in seat.items():
                    if s >= len(got["seats"]) or k not in got["seats"][s]:
                        return f"expect: unknown field seats[{s}].{k}"
                    if got["seats"][s][k] != v:
                        return f"seats[{s}].{k}: expected {v!r}, got {got['seats'][s][k]!r}"
        elif key not in got:
            return f"expect: unknown field {key!r}"
        elif got[key] != want:
            return f"{key}: expected {want!r}, got {got[key]!r}"
    return None


def check_scenario(path: str | os.PathLike, engine: str) -> str | None:
    """Play the scenario at ``path`` on ``engine`` ("reference" or "fast"): None = passed, else one line."""
    if engine not in ("fast", "reference"):
        raise PDError(f"engine must be 'fast' or 'reference', not {engine!r}")
    try:
        data = load(path)
        got = run_reference(data) if engine == "reference" else run_fast(data)
        return compare(data.get("expect", {}), got)
    except ScenarioFail as exc:
        return str(exc)
    except PDError as exc:
        return str(exc)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return f"malformed scenario ({type(exc).__name__}: {exc})"


def scenario_paths() -> list[Path]:
    from .common import SCENARIOS_DIR
    return sorted(SCENARIOS_DIR.glob("*.json"))
