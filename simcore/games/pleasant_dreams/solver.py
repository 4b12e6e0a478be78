"""An exact solver for small Pleasant Dreams positions: expectimax over what the player to move can know.

A position is a reference Game at the start of a seat's turn. The *worlds* are every order of the deck
cards that seat cannot place (P9.1; the contents are public, P9.2), all equally likely. The solver
maximizes the seat's win chance over all its decisions (every option: flow sizes, start-of-turn cards,
flips, positions, every Dream Compass order, every Recurring Dreams subset), taking each decision once
per *information set*: the worlds are split by what the seat observes at that decision (the showing top
card, Premonition, its own placings, the cards that come out), never by what it cannot see. The
opponent (two players) plays the threshold bot, which is deterministic, so worlds are the only chance.
The value is exact: (worlds won under the best information-respecting policy) / (worlds).

The engine is the reference engine itself, replayed from the root with a script of the seat's choices
(its callback design cannot snapshot a half-played turn); positions with few cards stay cheap.
"""
from __future__ import annotations

import itertools
import math

from simcore.rng import GameRng

from . import reference as R
from .bots import parse_bot
from .common import PDError, Setup

DEFAULT_MAX_CARDS = 5


class Probe(Exception):
    """The replay reached a decision of the solving seat beyond its script."""

    def __init__(self, kind, options, key) -> None:
        super().__init__(kind)
        self.kind, self.options, self.key = kind, options, key


def observation(game: R.Game, seat: int, kind: str, options, info: dict) -> tuple:
    """Everything ``seat`` sees at a decision (P9): the deck with unknown slots hidden, the rest public."""
    deck = tuple((s.card, s.side) if R.knows(game, seat, i) else None for i, s in enumerate(game.deck))
    return (kind, repr(options), info.get("card"), info.get("side"), deck, tuple(game.flow),
            tuple(game.discard), tuple(game.wake), tuple(map(tuple, game.held)), tuple(map(tuple, game.aside)),
            game.active, game.turns)


class ProbeAgent:
    """The solving seat in a replay: plays its script, then stops at the next decision."""

    def __init__(self, seat: int, script: list) -> None:
        self.seat, self.script, self.pos = seat, script, 0

    def choose(self, game, kind, options, info):
        if self.pos < len(self.script):
            self.pos += 1
            return self.script[self.pos - 1]
        raise Probe(kind, options, observation(game, self.seat, kind, options, info))


def expand(kind: str, options) -> list:
    """Every legal answer: list kinds as given; compass None + every order; recurring every subset."""
    if kind == "compass":
        return [None] + list(itertools.permutations(range(options)))
    if kind == "recurring":
        return [c for k in range(options + 1) for c in itertools.combinations(range(options), k)]
    return list(options)


def worlds(game: R.Game, seat: int) -> list[R.Game]:
    """Every order of the cards in the slots ``seat`` cannot place, each as a copy of the game."""
    slots = [i for i in range(len(game.deck)) if not R.knows(game, seat, i)]
    contents = [(game.deck[i].card, game.deck[i].side, game.deck[i].known) for i in slots]
    out = []
    for perm in itertools.permutations(contents):
        w = game.copy()
        for i, (c, s, k) in zip(slots, perm):
            w.deck[i] = R.Slot(c, s, k)
        out.append(w)
    return out


def won(game: R.Game, seat: int) -> int:
    return int(game.winner == (0 if game.players == 1 else seat))


def replay(root: R.Game, seat: int, script: list):
    """Play ``script`` for ``seat`` (threshold for the opponent) from ``root``: (outcome, None) at the
    end of the game, or (None, Probe) at the seat's next unscripted decision."""
    game = root.copy()
    agents = [R.ThresholdAgent()] * game.players
    agents[seat] = ProbeAgent(seat, script)
    game.agents = agents
    try:
        R.play_game(game)
    except Probe as probe:
        return None, probe
    return won(game, seat), None


class Solver:
    """Belief-state expectimax for the seat to move in ``position``; ``policy`` maps (own choices so
    far, observation) to the best choice."""

    def __init__(self, position: R.Game, max_worlds: int = 5040) -> None:
        self.position = position
        self.seat = position.active
        unknown = sum(not R.knows(position, self.seat, i) for i in range(len(position.deck)))
        if math.factorial(unknown) > max_worlds:
            raise PDError(f"position too large for the exact solver: {unknown} unplaced cards")
        self.worlds = worlds(position, self.seat)
        self.policy: dict = {}

    def total(self, items: list[tuple[R.Game, list]]) -> int:
        """Worlds won among ``items`` (world, script) under the best policy from here."""
        won_here = 0
        groups: dict = {}
        for world, script in items:
            outcome, probe = replay(world, self.seat, script)
            if probe is None:
                won_here += outcome
            else:
                groups.setdefault(probe.key, (probe, []))[1].append((world, script))
        for key, (probe, members) in groups.items():
            best, best_choice = -1, None
            for choice in expand(probe.kind, probe.options):
                v = self.total([(w, s + [choice]) for w, s in members])
                if v > best:
                    best, best_choice = v, choice
                if best == len(members):
                    break
            self.policy[(tuple(members[0][1]), key)] = best_choice
            won_here += best
        return won_here

    def value(self) -> float:
        """The seat's exact win chance under the best policy (P9: it sees only what it may know)."""
        return self.total([(w, []) for w in self.worlds]) / len(self.worlds)

    def option_values(self) -> dict:
        """Win chance of each first answer at the pending "turn" decision, the best policy after it."""
        _, probe = replay(self.worlds[0], self.seat, [])
        if probe is None:
            return {}
        return {o: self.total([(w, [o]) for w in self.worlds]) / len(self.worlds)
                for o in expand(probe.kind, probe.options)}


class PolicyAgent:
    """Plays a solved policy (what the solver would do) for one seat; for checking the solver."""

    def __init__(self, solver: Solver) -> None:
        self.solver, self.made = solver, []

    def choose(self, game, kind, options, info):
        key = (tuple(self.made), observation(game, self.solver.seat, kind, options, info))
        choice = self.solver.policy[key]
        self.made.append(choice)
        return choice


def play_policy(solver: Solver, world: R.Game) -> tuple[int, R.Game]:
    """One world played with the solver's policy for the seat to move, threshold for the opponent."""
    game = world.copy()
    agents = [R.ThresholdAgent()] * game.players
    agents[solver.seat] = PolicyAgent(solver)
    game.agents = agents
    R.play_game(game)
    return won(game, solver.seat), game


def sample_positions(setup: Setup, strategy: str, seed: int, count: int, max_cards: int) -> list[R.Game]:
    """The first turn start with at most ``max_cards`` cards in the deck of games 0, 1, 2, ... played
    by ``strategy`` in every seat (games that end earlier give no position)."""
    bot = parse_bot(strategy)
    out = []
    g = 0
    while len(out) < count:
        if g > 50 * count + 100:
            raise PDError(f"{strategy} rarely reaches {max_cards} cards left; no positions")
        game = R.new_game(setup, seed, g, [bot.banned] * setup.players)
        game.agents = [bot_agent(bot, seed, g)] * setup.players
        while not game.over:
            if len(game.deck) <= max_cards:
                out.append(game.copy())
                break
            R.play_turn(game)
        g += 1
    return out


def bot_agent(bot, seed: int, game_index: int):
    rng = GameRng.decisions(seed, game_index)
    if bot.kind == 0:
        return R.RandomAgent(rng)
    if bot.kind == 1:
        return R.ThresholdAgent()
    return R.SearchAgent(rng, bot.budget)


def bot_value(position: R.Game, strategy: str, seed: int, index: int) -> float:
    """The bot's win chance from ``position`` for the seat to move, over the same worlds as the solver
    (opponent: threshold); random and search bots draw from one decision stream per position."""
    bot = parse_bot(strategy)
    seat = position.active
    agent = bot_agent(bot, seed, 10**9 + index)
    total = 0
    ws = worlds(position, seat)
    for w in ws:
        agents = [R.ThresholdAgent()] * w.players
        agents[seat] = agent
        w.agents = agents
        R.play_game(w)
        total += won(w, seat)
    return total / len(ws)


def solver_gap(setup: Setup, strategy: str, seed: int, positions: int, max_cards: int = DEFAULT_MAX_CARDS) -> dict:
    """How close ``strategy`` is to the exact solver on ``positions`` small positions from its own play.

    Returns {"strategy", "positions", "solver_win", "bot_win", "gap", "gap_low", "gap_high",
    "max_cards"}: mean win chances of the seat to move, gap = solver_win - bot_win, with a 95% normal
    interval over the positions.
    """
    if not isinstance(setup, Setup):
        raise PDError("solver_gap needs a Setup from parse_setup")
    spec = parse_bot(strategy).spec
    if isinstance(positions, bool) or not isinstance(positions, int) or not 1 <= positions <= 100_000:
        raise PDError(f"positions must be 1 to 100000, not {positions!r}")
    sample = sample_positions(setup, spec, seed, positions, max_cards)
    sv, bv = [], []
    for i, pos in enumerate(sample):
        sv.append(Solver(pos).value())
        bv.append(bot_value(pos, spec, seed, i))
    diffs = [a - b for a, b in zip(sv, bv)]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return {"strategy": spec, "positions": n, "solver_win": sum(sv) / n, "bot_win": sum(bv) / n,
            "gap": mean, "gap_low": mean - half, "gap_high": mean + half, "max_cards": max_cards}
