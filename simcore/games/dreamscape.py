"""Project Dreamscape behind the plug-in interface (:class:`simcore.games.Game`).

A thin wrapper: it plays through the existing engines (:mod:`simcore.fast`,
:mod:`simcore.reference`) without changing them, so Project Dreamscape's
numbers and speed are the same whether a command goes through this adapter or
not. The setup is the player count, a variant (:mod:`simcore.variants`) and a
deck composition (``--deck``/``--cards``, :mod:`simcore.decks`).

The bots live one layer up (``strategies``), so this module cannot import
them: :func:`use_strategies` receives the loader, the bot table and the
reference engine's bots from :mod:`strategies.games`, which the pipeline
imports before it plays (the same way :mod:`simcore.fast.differential` takes
its reference bots as a parameter).
"""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.cards import CardError
from simcore.decks import DeckError, DeckSpec, default_spec, load_spec
from simcore.games import Game, GameError
from simcore.rng import GameRng
from simcore.rules import MAX_PLAYERS, MIN_PLAYERS, KnobError
from simcore.variants import Variant, VariantError, check_variant_fits, parse_variant

NAME = "dreamscape"
TITLE = "Project Dreamscape"
SEAT_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
DEFAULT_STRATEGY = "greedy"
# The shared rules scenarios sit beside the project (../shared/conformance); the project's own in tests/.
SCENARIOS_DIR = Path(__file__).resolve().parents[2] / "tests" / "scenarios"


@dataclass(frozen=True)
class Setup:
    """A Project Dreamscape configuration: seats, variant (rules options and swaps) and deck composition."""

    players: int
    variant: Variant
    cards: DeckSpec | None = None  # None: the default deck (R1.3)

    def deck(self):
        return self.variant.deck(self.cards)


@dataclass
class _Hooks:
    load: Callable[[str], str] | None = None          # --strategy value -> registered fast-engine name
    table: Callable[[], list[tuple[str, str]]] | None = None
    reference_bots: Mapping | None = None              # name -> object with choose(state, decision, rng)


_HOOKS = _Hooks()


def use_strategies(load: Callable[[str], str], table: Callable[[], list[tuple[str, str]]], reference_bots: Mapping) -> None:
    """Give the adapter Project Dreamscape's bots (called by :mod:`strategies.games`)."""
    _HOOKS.load, _HOOKS.table, _HOOKS.reference_bots = load, table, reference_bots


def _need_hooks() -> _Hooks:
    if _HOOKS.load is None:
        raise GameError("Project Dreamscape's bots are not loaded: import strategies.games first")
    return _HOOKS


def load_cards(path: str | os.PathLike | None = None) -> DeckSpec:
    """A deck composition file (R1.3 format); None: the default deck."""
    return default_spec() if path is None else load_spec(Path(path))


def parse_setup(players: int, variant: str = "base", cards: DeckSpec | None = None) -> Setup:
    """A setup from a player count (1 to 4) and a variant text (``base``, ``sleep-token+FF:ID``, ...)."""
    if players not in SEAT_COUNTS:
        raise GameError(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {players}")
    v = parse_variant(variant)
    check_variant_fits(v, players)
    setup = Setup(players, v, cards)
    setup.deck()  # a swap the composition cannot make fails here (DeckError)
    return setup


def variant_name(setup: Setup) -> str:
    return setup.variant.name


def strategies() -> dict[str, str]:
    return dict(_need_hooks().table())


def check_strategy(spec: str, setup: Setup) -> str:
    """``spec`` loaded once (a bad one raises GameError with the loader's one line)."""
    try:
        _need_hooks().load(spec)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    return spec


def reference_strategies(setup: Setup) -> tuple[str, ...]:
    return tuple(sorted(_need_hooks().reference_bots))


def play_games(setup: Setup, strategies: Sequence[str], seed: int, first_game: int, n_games: int,
               *, engine: str = "fast") -> dict[str, np.ndarray]:
    """Games ``first_game ..`` of run ``seed``: ``game``, ``win`` (credit, R8.3), ``score``, ``turns``, ``aborted``.

    ``engine="fast"`` plays exactly what ``dreamscape simulate`` plays; ``"reference"``
    plays the reference engine with its own bots (random and greedy), which the
    differential tests hold equal to the fast engine.
    """
    hooks = _need_hooks()
    if len(strategies) != setup.players:
        raise GameError(f"give one strategy per seat ({setup.players}), got {len(strategies)}")
    if engine == "fast":
        from simcore.fast import SimConfig, iter_chunks  # numba loads on first play, not with the registry

        names = [hooks.load(s) for s in strategies]
        config = SimConfig(players=setup.players, options=setup.variant.options, deck=setup.deck())
        parts = list(iter_chunks(config, n_games, seed, names, chunk_size=max(n_games, 1), first_game=first_game))
        score = np.concatenate([p.score for p in parts]) if parts else np.zeros((0, setup.players), np.int32)
        return {
            "game": np.arange(first_game, first_game + n_games, dtype=np.int64),
            "win": np.concatenate([p.win for p in parts]) if parts else np.zeros((0, setup.players)),
            "score": score,
            "turns": np.concatenate([p.length for p in parts]) if parts else np.zeros(0, np.int32),
            "aborted": np.concatenate([p.aborted for p in parts]) if parts else np.zeros(0, bool),
        }
    if engine != "reference":
        raise GameError(f"engine must be reference or fast, got {engine!r}")
    unknown = [s for s in strategies if s not in hooks.reference_bots]
    if unknown:
        raise GameError(f"the reference engine plays {', '.join(sorted(hooks.reference_bots))} only, got {unknown[0]!r}")
    from simcore.reference import Game as RefGame

    deck = setup.deck()
    out = {"game": np.arange(first_game, first_game + n_games, dtype=np.int64),
           "win": np.zeros((n_games, setup.players)), "score": np.zeros((n_games, setup.players), np.int32),
           "turns": np.zeros(n_games, np.int32), "aborted": np.zeros(n_games, bool)}
    for i in range(n_games):
        g = first_game + i
        game = RefGame.new(deck, setup.players, GameRng(seed, g), setup.variant.options)
        rng = GameRng.decisions(seed, g)
        while not game.over:
            d = game.pending
            game.apply(hooks.reference_bots[strategies[d.seat]].choose(game.state, d, rng))
        s = game.state
        out["score"][i] = [s.final_score(k) for k in range(setup.players)]
        out["turns"][i] = s.turns_played
        out["aborted"][i] = bool(s.aborted)
        for w in s.winners:
            out["win"][i, w] = 1.0 / len(s.winners)
    return out


def seat_wins(result: dict, setup: Setup) -> np.ndarray:
    return np.asarray(result["win"], dtype=np.float64)


def check_scenario(path: str | os.PathLike, engine: str) -> str | None:
    from simcore.conformance import run_scenario_file

    result = run_scenario_file(Path(path), engine)
    return None if result.passed else result.reason


def narrate(setup: Setup, strategies: Sequence[str], seed: int, game: int) -> list[str]:
    """Game ``game`` of run ``seed`` as the reference engine tells it (its own log), then the final scores.

    ``dreamscape play`` prints the fuller narration of :mod:`reports.narrate`
    (the table after every turn); this is the interface's short form.
    """
    hooks = _need_hooks()
    unknown = [s for s in strategies if s not in hooks.reference_bots]
    if unknown:
        raise GameError(f"narration plays {', '.join(sorted(hooks.reference_bots))} only, got {unknown[0]!r}")
    from simcore.reference import Game as RefGame

    g = RefGame.new(setup.deck(), setup.players, GameRng(seed, game), setup.variant.options)
    rng = GameRng.decisions(seed, game)
    while not g.over:
        d = g.pending
        g.apply(hooks.reference_bots[strategies[d.seat]].choose(g.state, d, rng))
    s = g.state
    lines = [f"{TITLE}: {setup.players} player(s), variant {setup.variant.name}, seed {seed}, game {game}"]
    lines += list(s.log)
    lines += [f"Seat {k + 1} ({strategies[k]}): {s.final_score(k)}" for k in range(setup.players)]
    return lines


GAME = Game(
    name=NAME,
    title=TITLE,
    seat_counts=SEAT_COUNTS,
    default_strategy=DEFAULT_STRATEGY,
    scenarios_dir=SCENARIOS_DIR,
    errors=(GameError, VariantError, DeckError, CardError, KnobError),
    strategies=strategies,
    load_cards=load_cards,
    parse_setup=parse_setup,
    variant_name=variant_name,
    check_strategy=check_strategy,
    play_games=play_games,
    seat_wins=seat_wins,
    check_scenario=check_scenario,
    narrate=narrate,
    reference_strategies=reference_strategies,
)
