"""Hand-worked scenarios (scenarios/*.json, format in scenarios/FORMAT.md) on either engine.

A scenario fixes a position at the start of a turn, answers the decisions that follow, and says what the
position must be afterwards. Both engines are driven the same way: the engine checks each scripted answer
(an entry marked ``"illegal": true`` must be refused and change nothing), the game stops at the first
decision the script has no answer for, and one snapshot format is compared with ``expect``.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from simcore.files import parse_json, read_text_file

from . import reference as R
from .cards import load_cards
from .common import CZError, THEMES
from .config import parse_setup

ILLEGAL = -999                  # a code no decision accepts (malformed answers)
END_WORDS = {0: None, 1: "forty", 2: "morning"}


class ScenarioFail(Exception):
    """The scenario failed: one line."""


def row(cards, text) -> int:
    if not isinstance(text, str) or text not in cards.names:
        raise ScenarioFail(f"unknown card {text!r}")
    return cards.names.index(text)


def load(path) -> dict:
    if not Path(path).exists() and not Path(path).is_symlink():
        raise ScenarioFail(f"{path}: no such file")
    # size and nesting limits (simcore.files); one line naming the file
    data = parse_json(read_text_file(path, "scenario file", ScenarioFail), str(path), ScenarioFail)
    if not isinstance(data, dict) or not isinstance(data.get("setup"), dict):
        raise ScenarioFail(f"{path}: needs an object with a \"setup\"")
    return data


def build_reference(data: dict, base: Path | None = None) -> R.Game:
    """A reference Game at the start of the active seat's turn, from a scenario's setup (a deck order is
    dealt by the reference engine, Z2.2, Z2.3)."""
    game, order = build_start(data, base)
    if order is not None:
        R.deal(game, order)
    return game


def deck_order(cards, order) -> list[int]:
    """``setup.deck_order``: every copy of the card file once, top first (the shuffled deck of Z2.1)."""
    if not isinstance(order, list):
        raise ScenarioFail("setup.deck_order must be a list of card names, top first")
    rows = [row(cards, t) for t in order]
    for c in range(len(cards)):
        if rows.count(c) != cards.count[c]:
            raise ScenarioFail(f"setup.deck_order must hold every copy of the card file once: "
                               f"{cards.names[c]!r} {rows.count(c)} times, the file has {cards.count[c]}")
    return rows


def build_start(data: dict, base: Path | None = None) -> tuple[R.Game, list[int] | None]:
    """The scenario's position before any engine runs, and its deck order when the setup gives one (the
    game is then still to be dealt, by each engine's own deal)."""
    s = data["setup"]
    cards = load_cards((base / s["cards"]) if base and "cards" in s else s.get("cards"))
    players = s.get("players", 2)
    setup = parse_setup(players, s.get("variant", "base"), cards)
    order = None
    if "deck_order" in s:
        clash = [k for k in ("deck", "discard", "removed", "seats", "active", "turns") if k in s]
        if clash:
            raise ScenarioFail(f"setup.deck_order is the start of a game: no setup.{clash[0]} beside it")
        order = deck_order(cards, s["deck_order"])
        return R.blank_game(setup), order
    seats = s.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        raise ScenarioFail(f"setup needs {players} seats")
    game = R.blank_game(setup)
    game.deck = [row(cards, t) for t in s.get("deck", [])]
    for t in s.get("removed", []):                                # Z2.2: the Wake Ups taken out at setup
        c = row(cards, t)
        if cards.element[c] or cards.kind[c] != R.WAKE_UP:
            raise ScenarioFail(f"setup.removed: {t!r} is not a Wake Up (Z2.2 removes only Wake Ups)")
        game.removed[c] += 1
    for t in s.get("discard", []):
        game.discard[row(cards, t)] += 1
    for i, seat in enumerate(seats):
        for t in seat.get("hand", []):
            game.hands[i][row(cards, t)] += 1
        dream = game.dreams[i]
        for t in seat.get("dream", []):
            card, _, force = t.partition("^")                    # "Teacher^Sweet Dreams": forced (Z11.1)
            c = row(cards, card)
            dream.cards.append(c)
            if force:
                f = row(cards, force)
                dream.forced.append(R.FORCED_POS if cards.effect[f] == 0 else R.FORCED_NEG)
                dream.force_card.append(f)
            else:
                dream.forced.append(R.UNFORCED)
                dream.force_card.append(-1)
        if seat.get("placeholder"):
            f = row(cards, seat["placeholder"])
            dream.holder_card, dream.holder_theme = f, cards.effect[f] - R.FORCE_THEME0
        game.score[i] = int(seat.get("score", 0))
    game.active = int(s.get("active", 0))
    game.turns = int(s.get("turns", 0))
    return game, order


def encode_choice(cards, kind: str, choice) -> int:
    """A scenario's answer as the engines' option code (ILLEGAL when malformed)."""
    try:
        if kind == "element":
            return row(cards, choice)
        if kind in ("extra", "block") and choice == "pass":
            return R.PASS
        if kind == "block":
            return row(cards, choice)
        if not isinstance(choice, dict):
            return ILLEGAL
        seat = int(choice.get("seat", 0))
        if kind == "extra":
            return R.encode(R.M_ELEMENT, seat, row(cards, choice["element"]))
        for word, move in (("discard", R.M_DISCARD), ("element", R.M_ELEMENT), ("wake", R.M_WAKE),
                           ("bender", R.M_BENDER), ("force", R.M_FORCE)):
            if word in choice:
                c = row(cards, choice[word])
                if move == R.M_FORCE and "position" in choice:
                    return R.encode(move, R.SLOT * seat + int(choice["position"]) - 1, c)
                return R.encode(move, seat if move in (R.M_ELEMENT, R.M_WAKE, R.M_FORCE) else 0, c)
    except (ScenarioFail, KeyError, TypeError, ValueError):
        return ILLEGAL
    return ILLEGAL


class ScenarioAgent:
    """The reference engine's scripted seats: the scenario's answers, checked for legality."""

    def __init__(self, cards, choices: list[dict]) -> None:
        self.cards = cards
        self.choices = list(choices)

    def choose(self, game, seat, kind, options, info):
        while self.choices:
            entry = self.choices.pop(0)
            check_entry(entry, kind, seat)
            code = encode_choice(self.cards, kind, entry.get("choice"))
            legal = code in options
            if legal and entry.get("illegal"):
                raise ScenarioFail(f"{kind} {entry.get('choice')!r} was accepted but is marked illegal")
            if not legal and not entry.get("illegal"):
                raise ScenarioFail(f"{kind} {entry.get('choice')!r} was refused as illegal")
            if legal:
                return code
        raise R.Pending(kind, seat)


def check_entry(entry: dict, kind: str, seat: int) -> None:
    if entry.get("decision") != kind:
        raise ScenarioFail(f"expected decision {entry.get('decision')!r}, the engine asks {kind!r}")
    if "seat" in entry and entry["seat"] != seat:
        raise ScenarioFail(f"expected seat {entry['seat']} to decide {kind}, the engine asks seat {seat}")


def names_of(cards, counts) -> list[str]:
    return [cards.names[c] for c in range(len(cards)) for _ in range(counts[c])]


def dream_text(cards, card: int, force: int) -> str:
    return cards.names[card] + (f"^{cards.names[force]}" if force >= 0 else "")


def snapshot_reference(game: R.Game, pending) -> dict:
    from .bots import unseen_counts
    c = game.cards
    return {
        "removed": names_of(c, game.removed),
        "pending": pending[0] if pending else None, "pending_seat": pending[1] if pending else None,
        "game_over": game.over, "winners": game.winners if game.over else None, "end": END_WORDS[game.end],
        "active": game.active, "turns": game.turns, "deck": [c.names[x] for x in game.deck],
        "deck_count": len(game.deck), "discard": names_of(c, game.discard),
        "seats": [{"hand": names_of(c, game.hands[s]),
                   "dream": [dream_text(c, x, f) for x, f in zip(game.dreams[s].cards, game.dreams[s].force_card)],
                   "placeholder": c.names[game.dreams[s].holder_card] if game.dreams[s].holder_card >= 0 else None,
                   "score": game.score[s], "unseen": names_of(c, unseen_counts(game, s))}
                  for s in range(game.players)],
    }


def run_reference(data: dict, base: Path | None) -> dict:
    game = build_reference(data, base)
    agent = ScenarioAgent(game.cards, data.get("choices", []))
    game.agents = [agent] * game.players
    pending = None
    try:
        R.play_game(game)
    except R.Pending as p:
        pending = (p.kind, p.seat)
    if agent.choices:
        raise ScenarioFail(f"{len(agent.choices)} choice(s) left over when the game ended")
    return snapshot_reference(game, pending)


def fast_state(game: R.Game) -> np.ndarray:
    """The fast engine's state array for a reference Game (scripted mode)."""
    from . import fast_state as F
    st = np.zeros(F.SIZE, np.int64)
    F.start_state(st, F.rules_array(game.setup), len(game.cards))
    st[F.ACTIVE], st[F.TURNS] = game.active, game.turns
    st[F.MODE] = F.MODE_SCRIPT
    for c, n in enumerate(game.removed):
        st[F.REMOVED + c] = n
    st[F.DECK_END] = len(game.deck)
    st[F.DECK:F.DECK + len(game.deck)] = game.deck
    for c, n in enumerate(game.discard):
        st[F.DISC + c] = n
    for s in range(F.MP):
        st[F.HOLDER_THEME + s] = st[F.HOLDER_CARD + s] = -1
    for s in range(game.players):
        st[F.SCORE + s] = game.score[s]
        st[F.BANNED + s] = game.banned[s]
        held = [c for c, n in enumerate(game.hands[s]) if n]
        if len(held) > F.HCAP:
            raise ScenarioFail(f"seat {s} holds {len(held)} different cards, at most {F.HCAP}")
        for c, n in enumerate(game.hands[s]):
            st[F.HAND + s * F.MT + c] = n
        st[F.HAND_N + s] = sum(game.hands[s])
        st[F.HELD_N + s] = len(held)
        st[F.HELD + s * F.HCAP:F.HELD + s * F.HCAP + len(held)] = held
        d = game.dreams[s]
        st[F.DREAM_N + s] = len(d.cards)
        for i, (c, f, fc) in enumerate(zip(d.cards, d.forced, d.force_card)):
            k = s * F.DREAM_CAP + i
            st[F.DREAM_CARD + k], st[F.DREAM_FORCED + k], st[F.DREAM_FCARD + k] = c, f, fc
        st[F.HOLDER_THEME + s], st[F.HOLDER_CARD + s] = d.holder_theme, d.holder_card
    cd = F.card_table(game.cards)
    F.recount_dreams(st, cd)                                 # the dreams' running tallies (dream_points)
    # each dream's points as the fast engine scores them: a dream woken without a change is scored from this
    # value, so taking it from the reference engine would leave the fast engine's scoring untested
    for s in range(game.players):
        st[F.DREAM_PTS + s] = F.dream_points(st, cd, s, -1, -1, -1)
    return st


def run_fast(data: dict, base: Path | None) -> dict:
    from .play import fast_engine
    fast_engine()                                         # the numba cache guard, before the kernels load
    from . import fast_state as F
    from .fast import play_game
    game, order = build_start(data, base)                 # the setup's parsing, shared; state copied to arrays
    cards = game.cards
    choices = data.get("choices", [])
    script = np.zeros((len(choices), F.SC_WIDTH), np.int64)
    for r, e in enumerate(choices):
        kind = e.get("decision")
        script[r, F.SC_CHOICE] = encode_choice(cards, kind, e.get("choice")) if kind in R.KINDS else ILLEGAL
        script[r, F.SC_KIND] = -1
    st = fast_state(game)
    if order is not None:
        F.deal(st, F.card_table(cards), np.array(order, np.int64))     # the fast engine's own deal (Z2.2, Z2.3)
    play_game(st, F.card_table(cards), np.zeros(1, np.uint64), script, F.new_work())
    for r, entry in enumerate(choices):
        if script[r, F.SC_KIND] < 0:
            raise ScenarioFail(f"{len(choices) - r} choice(s) left over when the game ended")
        kind = R.KINDS[script[r, F.SC_KIND]]
        check_entry(entry, kind, int(script[r, F.SC_SEAT]))
        if script[r, F.SC_OK] and entry.get("illegal"):
            raise ScenarioFail(f"{kind} {entry.get('choice')!r} was accepted but is marked illegal")
        if not script[r, F.SC_OK] and not entry.get("illegal"):
            raise ScenarioFail(f"{kind} {entry.get('choice')!r} was refused as illegal")
    return snapshot_fast(game, st)


def snapshot_fast(game: R.Game, st: np.ndarray) -> dict:
    from . import fast_state as F
    from .fast import unseen_counts
    c, p = game.cards, game.players
    nt = len(c)
    over = bool(st[F.OVER])
    cd = F.card_table(c)
    seats = []
    for s in range(p):
        unseen = np.zeros(F.MT, np.int64)
        unseen_counts(st, cd, s, unseen)
        k = s * F.DREAM_CAP
        seats.append({
            "hand": names_of(c, st[F.HAND + s * F.MT:F.HAND + s * F.MT + nt]),
            "dream": [dream_text(c, int(st[F.DREAM_CARD + k + i]), int(st[F.DREAM_FCARD + k + i]))
                      for i in range(st[F.DREAM_N + s])],
            "placeholder": c.names[st[F.HOLDER_CARD + s]] if st[F.HOLDER_CARD + s] >= 0 else None,
            "score": int(st[F.SCORE + s]), "unseen": names_of(c, unseen[:nt])})
    return {
        "removed": names_of(c, st[F.REMOVED:F.REMOVED + nt]),
        "pending": R.KINDS[st[F.PENDING]] if st[F.STOP] else None,
        "pending_seat": int(st[F.PENDING_SEAT]) if st[F.STOP] else None,
        "game_over": over, "winners": [s for s in range(p) if st[F.WINNERS + s]] if over else None,
        "end": END_WORDS[int(st[F.END])], "active": int(st[F.ACTIVE]), "turns": int(st[F.TURNS]),
        "deck": [c.names[x] for x in st[F.DECK + st[F.DECK_POS]:F.DECK + st[F.DECK_END]]],
        "deck_count": int(st[F.DECK_END] - st[F.DECK_POS]),
        "discard": names_of(c, st[F.DISC:F.DISC + nt]), "seats": seats,
    }


def compare(expect: dict, got: dict) -> str | None:
    for key, want in expect.items():
        if key == "seats":
            for s, seat in enumerate(want):
                for k, v in seat.items():
                    if s >= len(got["seats"]) or k not in got["seats"][s]:
                        return f"expect: unknown field seats[{s}].{k}"
                    have = got["seats"][s][k]
                    if k in ("hand", "unseen"):
                        have, v = sorted(have), sorted(v)
                    if have != v:
                        return f"seats[{s}].{k}: expected {v!r}, got {have!r}"
        elif key not in got:
            return f"expect: unknown field {key!r}"
        elif (sorted(got[key]) if key in ("discard", "removed") else got[key]) != \
                (sorted(want) if key in ("discard", "removed") else want):
            return f"{key}: expected {want!r}, got {got[key]!r}"
    return None


def check_scenario(path: str | os.PathLike, engine: str) -> str | None:
    """Play the scenario at ``path`` on ``engine`` ("reference" or "fast"): None = passed, else one line."""
    if engine not in ("fast", "reference"):
        raise CZError(f"engine must be 'fast' or 'reference', not {engine!r}")
    try:
        data = load(path)
        base = Path(path).resolve().parent
        got = run_reference(data, base) if engine == "reference" else run_fast(data, base)
        return compare(data.get("expect", {}), got)
    except ScenarioFail as exc:
        return str(exc)
    except CZError as exc:
        return str(exc)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return f"malformed scenario ({type(exc).__name__}: {exc})"


__all__ = ["check_scenario", "THEMES"]
