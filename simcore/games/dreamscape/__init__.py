"""Project Dreamscape (Undine Studios, 1-4 players), the lab's first game, as a game package.

The package has the shape of every game here (TAG's ForwardModel/GameState/Parameters,
pgx's arrays): rules data (:mod:`.cards`, :mod:`.rules`, :mod:`.scoring`,
:mod:`.variants`, :mod:`.decks`, ``data/``), the readable reference engine
(:mod:`.reference`), the numba engine that mirrors it (:mod:`.fast`), its bots
(:mod:`.bots`), its hand-worked scenarios (``scenarios/``, the shared ones are in
``../shared/conformance``) and :data:`GAME`, what the lab sees of it. The rules as
played are ``../shared/rules/interpretations.md`` (rule ids R1..R11, cited in code).

The setup is the player count, a variant (:mod:`.variants`) and a deck composition
(``--deck``/``--cards``, :mod:`.decks`). Importing this package compiles nothing:
numba loads on the first game played.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS
from simcore.games.dreamscape.bots.errors import StrategyError
from simcore.games.dreamscape.cards import CardError
from simcore.games.dreamscape.decks import DeckError, DeckSpec, default_spec, load_spec
from simcore.games import Game, GameError
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import MAX_PLAYERS, MIN_PLAYERS, KnobError
from simcore.games.dreamscape.study_tables import STUDY_TABLES  # what a study records (play_games(tables=True))
from simcore.games.dreamscape.variants import Variant, VariantError, check_variant_fits, parse_variant

NAME = "dreamscape"
TITLE = "Project Dreamscape"
SEAT_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
DEFAULT_STRATEGY = "expert"  # the main study's bot: every command's default, so a quick question matches the report
PACKAGE_DIR = Path(__file__).resolve().parent
# The rules options a comparison sets side by side (R9 Sleep Token, R6.8 shifting tokens); the first is the baseline.
RULES_OPTIONS = ("base", "sleep-token", "shifting-tokens", "sleep-token+shifting-tokens")
# The project's own hand-worked scenarios, installed with the package (the shared ones sit in ../shared/conformance).
SCENARIOS_DIR = Path(__file__).resolve().parent / "scenarios"


@dataclass(frozen=True)
class Setup:
    """A Project Dreamscape configuration: seats, variant (rules options and swaps) and deck composition."""

    players: int
    variant: Variant
    cards: DeckSpec | None = None  # None: the default deck (R1.3)

    def deck(self):
        return self.variant.deck(self.cards)


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
    from .bots.api import strategy_table  # numba loads with the bots, not with the registry

    return dict(strategy_table())


def check_strategy(spec: str, setup: Setup) -> str:
    """``spec`` loaded once (a bad one raises GameError with the loader's one line)."""
    from .bots.api import load_strategy

    try:
        load_strategy(spec)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    return spec


def reference_strategies(setup: Setup) -> tuple[str, ...]:
    return tuple(sorted(REFERENCE_BOTS))


def play_games(setup: Setup, strategies: Sequence[str], seed: int, first_game: int, n_games: int,
               *, engine: str = "fast", tables: bool = False) -> dict[str, np.ndarray]:
    """Games ``first_game ..`` of run ``seed``: ``game``, ``win`` (credit, R8.3), ``score``, ``turns``, ``aborted``.

    ``engine="fast"`` plays exactly what ``dreamscape simulate`` plays; ``"reference"``
    plays the reference engine with its own bots (random and greedy), which the
    differential tests hold equal to the fast engine.

    ``tables=True`` (a study's chunk, fast engine only): also ``"tables"``, what a study records of
    the games (:data:`STUDY_TABLES`, :mod:`.study_tables`); each strategy spec is then loaded once
    per process, as every chunk of a study plays the same bots.
    """
    if len(strategies) != setup.players:
        raise GameError(f"give one strategy per seat ({setup.players}), got {len(strategies)}")
    if engine == "fast":
        from simcore.games.dreamscape.fast import SimConfig, iter_chunks  # numba loads on first play, not with the registry

        from .bots.api import load_strategies, load_strategy

        names = load_strategies(strategies) if tables else [load_strategy(s) for s in strategies]
        config = SimConfig(players=setup.players, options=setup.variant.options, deck=setup.deck())
        parts = list(iter_chunks(config, n_games, seed, names, chunk_size=max(n_games, 1), first_game=first_game))
        if tables:
            from simcore.games.dreamscape.fast.runner import SimResult

            from .study_tables import study_result

            if not parts:
                raise GameError("a study's chunk plays at least one game")
            return study_result(parts[0] if len(parts) == 1 else SimResult.concat(parts))
        score = np.concatenate([p.score for p in parts]) if parts else np.zeros((0, setup.players), np.int32)
        return {
            "game": np.arange(first_game, first_game + n_games, dtype=np.int64),
            "win": np.concatenate([p.win for p in parts]) if parts else np.zeros((0, setup.players)),
            "score": score,
            "turns": np.concatenate([p.length for p in parts]) if parts else np.zeros(0, np.int32),
            "aborted": np.concatenate([p.aborted for p in parts]) if parts else np.zeros(0, bool),
        }
    if tables:
        raise GameError("a study's tables come from the fast engine only (engine='fast')")
    if engine != "reference":
        raise GameError(f"engine must be reference or fast, got {engine!r}")
    unknown = [s for s in strategies if s not in REFERENCE_BOTS]
    if unknown:
        raise GameError(f"the reference engine plays {', '.join(sorted(REFERENCE_BOTS))} only, got {unknown[0]!r}")
    from simcore.games.dreamscape.reference import Game as RefGame

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
            game.apply(REFERENCE_BOTS[strategies[d.seat]].choose(game.state, d, rng))
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
    from simcore.games.dreamscape.conformance import run_scenario_file

    result = run_scenario_file(Path(path), engine)
    return None if result.passed else result.reason


def narrate(setup: Setup, strategies: Sequence[str], seed: int, game: int) -> list[str]:
    """Game ``game`` of run ``seed`` as the reference engine tells it (its own log), then the final scores.

    ``dreamscape play`` prints the fuller narration of :mod:`reports.games.dreamscape.narrate`
    (the table after every turn); this is the interface's short form.
    """
    unknown = [s for s in strategies if s not in REFERENCE_BOTS]
    if unknown:
        raise GameError(f"narration plays {', '.join(sorted(REFERENCE_BOTS))} only, got {unknown[0]!r}")
    from simcore.games.dreamscape.reference import Game as RefGame

    g = RefGame.new(setup.deck(), setup.players, GameRng(seed, game), setup.variant.options)
    rng = GameRng.decisions(seed, game)
    while not g.over:
        d = g.pending
        g.apply(REFERENCE_BOTS[strategies[d.seat]].choose(g.state, d, rng))
    s = g.state
    lines = [f"{TITLE}: {setup.players} player(s), variant {setup.variant.name}, seed {seed}, game {game}"]
    lines += list(s.log)
    lines += [f"Seat {k + 1} ({strategies[k]}): {s.final_score(k)}" for k in range(setup.players)]
    return lines


def variants(players: int) -> tuple[str, ...]:
    """The rules options a comparison sets side by side at ``players`` seats (every one fits every count)."""
    return RULES_OPTIONS


def search_strategy(bot: str, playouts: int, phases: str | None = None) -> str:
    """The spec of a seat that searches over ``bot``: ``search:BOT@K`` (``:late`` searches the late game only)."""
    return f"search:{bot}@{playouts}" + (f":{phases}" if phases else "")


def restrictions(setup: Setup) -> tuple[str, ...]:
    """What a bot may be forbidden: buying, or performing, one dream type in play (``buy:FF``, ``perform:ID``)."""
    from .bots.restricted import RESTRICTIONS
    from .cards import CODES

    return tuple(f"{what}:{CODES[t]}" for what in RESTRICTIONS for t in setup.deck().types_in_play)


def restrict_strategy(bot: str, restriction: str, setup: Setup) -> str:
    """``bot`` under ``restriction`` (``buy:FF``), registered with the fast engine; returns its name."""
    from .bots.api import load_strategy
    from .bots.restricted import restricted
    from .cards import type_from_code

    if restriction not in restrictions(setup):
        raise GameError(f"unknown restriction {restriction!r} (known: {', '.join(restrictions(setup))})")
    what, code = restriction.split(":")
    return restricted(load_strategy(bot), int(type_from_code(code)), what, setup.players, setup.variant.options)


STUDY_PLANS = {"main": PACKAGE_DIR / "studies" / "main.toml", "quick": PACKAGE_DIR / "studies" / "quick.toml"}


# The simulate table's columns beyond seat, strategy and win rate (simcore.games.Game.columns).
COLUMNS = {
    "seat": (("mean_score", "score", ".2f"), ("mean_z", "Z cards", ".2f"), ("mean_turns", "turns", ".2f")),
    "game": (("mean_game_length", "turns", ".2f"), ("aborted", "aborted games", ",d")),
}


def deck_of(setup: Setup) -> tuple[str, int]:
    """The deck a setup plays: ``base`` or its swaps (R1.4) for the default composition, else the deck file
    it came from (with its swaps), and its card count."""
    deck = setup.deck()
    if setup.cards is None or setup.cards.source == "default deck":
        return deck.label, len(deck)
    return (setup.cards.source if deck.label == "base" else f"{setup.cards.source} {deck.label}"), len(deck)


GAME = Game(
    name=NAME,
    title=TITLE,
    seat_counts=SEAT_COUNTS,
    default_strategy=DEFAULT_STRATEGY,
    scenarios_dir=SCENARIOS_DIR,
    errors=(GameError, VariantError, DeckError, CardError, KnobError, StrategyError),
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
    variants=variants,
    search=search_strategy,
    restrictions=restrictions,
    restrict=restrict_strategy,
    study_plans=STUDY_PLANS,
    study_tables=STUDY_TABLES,
    columns=COLUMNS,
    deck_of=deck_of,
)
