"""The games this lab can study, each a package of the same shape behind one interface.

Project Dreamscape (:mod:`simcore.games.dreamscape`), Pleasant Dreams
(:mod:`simcore.games.pleasant_dreams`) and Counting Zzzzs
(:mod:`simcore.games.counting_zzzzs`). :class:`Game` is what the lab asks of a game, in
the style of TAG's per-game ForwardModel/Parameters and pgx's shared API: everything the
study pipeline, the analyses and the command line need from a game, and nothing about
how the game plays. Each game package offers its ``GAME``.

Nothing here knows a game by name, nor lists the games: they are registered from
above, by the lab (:mod:`analyses.games`: the entry-point group ``dreamscape.games``,
whose targets are the games' lab wings in ``analyses/games/<game>``).

Beyond the parts every game has, a game *declares* what else it can do
(:data:`CAPABILITIES`): a search player, restricted play, variants to compare,
a trainer, solo score bands, its own analyses, its default studies. A tool asks for
the capability it needs with :meth:`Game.need`; a game without it is one line naming
what is missing (the command line's exit 2). Capabilities that live in the upper
layers are declared by the game's lab wing (:attr:`Game.extensions`), so this layer
neither imports nor names any of them; what the lab calls of the upper layers (card
swaps, the rules-knob search, the report, ...) is a typed hook of the wing
(:class:`analyses.games.LabWing`).

A game's ``setup`` is its own frozen object (TAG's Parameters) with at least
``players``; ``play_games`` returns a dict of NumPy arrays indexed by game
first, with at least ``"game"`` (int64, the absolute game index) and
``"turns"``; :attr:`Game.seat_wins` turns it into the (games, seats) win
credit every game shares (1 for the winner, 1/k for k shared winners, 0 for a
loss; solo: 1 when the player won). Game ``g`` plays from the streams of
:mod:`simcore.rng` for ``(seed, g)``, so results do not depend on how games are
cut into calls, nor on the engine.

Importing this module imports no game.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

ENGINES = ("reference", "fast")


class GameError(ValueError):
    """Bad input to a game (unknown game, strategy, variant or card file): a one-line message."""


TRAINING_KINDS = ("fitted", "rule-aware", "out-of-distribution")


class TrainingStatus(NamedTuple):
    """What a bot's play on a setup was adapted to (a game wing's ``training_status`` hook, issue #41).

    ``kind``: ``fitted`` (its numbers were fitted to exactly this rule set and deck), ``rule-aware``
    (nothing fitted to one rule set: it reads the rules as set, e.g. a search over playouts of the game
    as played) or ``out-of-distribution`` (fitted elsewhere: the shipped rules, another variant);
    ``detail``: one short clause saying why, for people.
    """

    kind: str
    detail: str


# Every optional capability a game may declare, with the words a missing one is named by.
CAPABILITIES = {
    "variants": "rules variants to compare",
    "search": "search player",
    "restrictions": "restricted play (bots that may not take an action)",
    "trainer": "trainer for its bots",
    "tuner": "tuner for its bots' weights",
    "solo_bands": "solo score bands",
    "analyses": "analyses of its own",
}


@dataclass(frozen=True)
class Game:
    """One game behind the lab's plug-in interface.

    Attributes
    ----------
    name, title : str
        ``--game`` name (``pleasant-dreams``) and the name people read.
    seat_counts : tuple of int
        The player counts the game supports (1 = solo).
    default_strategy : str
        The bot a command uses when no ``--strategy`` is given.
    scenarios_dir : Path or None
        The game's hand-worked rules scenarios (``dreamscape conformance`` without a path).
    errors : tuple of exception types
        What the game raises for bad input (each a one-line message).
    strategies : callable () -> {name: description}
        The built-in bots.
    load_cards : callable (path or None) -> cards
        A card file (``--cards``; None: the game's default cards).
    parse_setup : callable (players, variant, cards or None) -> setup
        A configuration from a player count and the game's variant notation.
    variant_name : callable (setup) -> str
        The canonical variant text of a setup (``parse_setup`` round-trips it).
    check_strategy : callable (spec, setup) -> str
        The canonical strategy spec, or one of ``errors``.
    play_games : callable (setup, strategies, seed, first_game, n_games, *, engine) -> dict of arrays
        Games ``first_game ..`` on the ``fast`` or ``reference`` engine (identical results). A game
        that declares :attr:`study_tables` also takes ``tables=True`` (a study's chunk, fast engine):
        its result then holds ``"tables"``, ``{table: {column: array}}`` as declared.
    seat_wins : callable (result, setup) -> float64 (games, seats)
        The win credit of every seat in every game.
    check_scenario : callable (path, engine) -> str or None
        One rules scenario on one engine: None when it passes, else a one-line failure.
    narrate : callable (setup, strategies, seed, game) -> list of str
        One game told for people (seats numbered from 1).
    reference_strategies : callable (setup) -> tuple of str
        The bots both engines play (the engines' differential sample).
    """

    name: str
    title: str
    seat_counts: tuple[int, ...]
    default_strategy: str
    scenarios_dir: Path | None
    errors: tuple[type[Exception], ...]
    strategies: Callable[[], Mapping[str, str]]
    load_cards: Callable[[Any], Any]
    parse_setup: Callable[..., Any]
    variant_name: Callable[[Any], str]
    check_strategy: Callable[[str, Any], str]
    play_games: Callable[..., dict]
    seat_wins: Callable[[dict, Any], np.ndarray]
    check_scenario: Callable[[Any, str], str | None]
    narrate: Callable[..., list[str]]
    reference_strategies: Callable[[Any], tuple[str, ...]]
    # --- declared capabilities (None or empty: the game does not have it) ------------------------
    variants: Callable[[int], tuple[str, ...]] | None = None
    """The rules variants a comparison may set side by side, per player count (the first is the baseline)."""
    search: Callable[[str, int, str | None], str] | None = None
    """``(bot, playouts, phases)`` -> the strategy spec of a seat that searches over ``bot``."""
    restrictions: Callable[[Any], tuple[str, ...]] | None = None
    """``setup`` -> what a bot may be forbidden, each a short name (``no-mirror``, ``buy:FF``)."""
    restrict: Callable[[str, str, Any], str] | None = None
    """``(bot, restriction, setup)`` -> the spec of ``bot`` playing under ``restriction``."""
    study_plans: Mapping[str, Path] = field(default_factory=dict)
    """The game's default study files: ``main`` (``dreamscape study --game NAME``) and ``quick``."""
    study_tables: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """What a study records of each chunk beyond the lab's own sums, as tables of named, typed columns:
    ``{table: ((column, dtype), ...)}`` in file order (dtype a NumPy name, or ``str`` for text). Every table
    has a ``seat`` column (int8); the lab writes each one the result of ``play_games(..., tables=True)``
    holds as the chunk file of that name, with ``config`` in front and each seat's ``strategy`` after
    ``seat``. ``agg`` and ``games`` replace the lab's own per-chunk sums and per-game rows (which the lab
    otherwise sums from the arrays of ``play_games``); ``agg`` keeps the lab's columns ``n``, ``sum_win``,
    ``sum2_win`` and ``sum_winx_J``, and ``band_K`` where the game has score bands. Empty: the lab's own."""
    extensions: Mapping[str, Callable[[], Any]] = field(default_factory=dict)
    """Capability -> a loader of what implements it for this game in an upper layer (its module or object):
    the game declares it (:meth:`has`, :meth:`need`). Filled in by the game's lab wing (:mod:`analyses.games`),
    never by the game package itself."""
    columns: Mapping[str, Any] = field(default_factory=dict)
    """What the game's ``simulate`` table shows beyond the seat, strategy and win rate, as data that one
    formatter prints for every game: ``seat`` and ``game`` are tuples of ``(key, label, format)`` (a key
    of the summary, the name a designer reads, ``.2f``/``pct``/``,d``), with an optional fourth item
    ``(array, value)`` for the share of games whose per-game ``array`` equals ``value``; ``solo_win``
    names the solo player's win (``stays asleep``)."""
    deck_of: Callable[[Any], tuple[str, int]] | None = None
    """``setup`` -> the deck it plays, as its name (the card file's, or ``base``) and its card count."""

    def has(self, capability: str) -> bool:
        """Whether the game declares ``capability`` (a key of :data:`CAPABILITIES`)."""
        if capability not in CAPABILITIES:
            raise KeyError(capability)
        if capability in self.extensions:
            return True
        return bool(getattr(self, capability, None))

    def need(self, capability: str, command: str) -> None:
        """GameError naming the missing capability when the game lacks what ``command`` needs."""
        if not self.has(capability):
            raise GameError(f"{self.title} has no {CAPABILITIES[capability]}, which `dreamscape {command}` needs")

    def setup(self, players: int, variant: str = "base", cards_file: str | Path | None = None):
        """A setup from a player count, variant text and card file (None: the default cards)."""
        if players not in self.seat_counts:
            counts = ", ".join(map(str, self.seat_counts))
            raise GameError(f"{self.title} is played by {counts} player(s), got {players}")
        cards = self.load_cards(cards_file) if cards_file is not None else None
        return self.parse_setup(players, variant, cards)

    def seat_strategies(self, specs: Sequence[str] | None, setup) -> tuple[str, ...]:
        """One canonical strategy per seat from ``--strategy`` values (one for all, or one per seat)."""
        specs = list(specs or [self.default_strategy])
        players = setup.players
        if len(specs) not in (1, players):
            raise GameError(f"give one --strategy per seat ({players}) or one for all, got {len(specs)}")
        out = [self.check_strategy(spec, setup) for spec in specs]
        return tuple(out * players if len(out) == 1 else out)


def winner_wins(result: dict, setup) -> np.ndarray:
    """Win credit from a ``winner`` seat per game (-1: nobody won, e.g. the solo player woke up)."""
    winner = np.asarray(result["winner"]).astype(np.int64)
    seats = np.arange(setup.players)
    return (winner[:, None] == seats[None, :]).astype(np.float64)


def shared_wins(result: dict, setup) -> np.ndarray:
    """Win credit from a ``winners`` flag per seat and game: 1/k for each of k seats sharing the win, 0 without."""
    winners = np.asarray(result["winners"]).astype(np.float64)
    return winners / np.maximum(winners.sum(axis=1, keepdims=True), 1.0)


def game_of_package(pkg) -> Game:
    """A :class:`Game` from a game package with the contract's module-level API (NAME, play_games, ...)."""
    errors = tuple(e for e in (getattr(pkg, "PDError", None), getattr(pkg, "GameError", None)) if e is not None)
    return Game(
        name=pkg.NAME,
        title=pkg.TITLE,
        seat_counts=tuple(pkg.SEAT_COUNTS),
        default_strategy=pkg.DEFAULT_STRATEGY,
        scenarios_dir=Path(pkg.SCENARIOS_DIR),
        errors=errors + (GameError,),
        strategies=lambda: dict(pkg.STRATEGIES),
        load_cards=pkg.load_cards,
        parse_setup=pkg.parse_setup,
        variant_name=pkg.variant_name,
        check_strategy=pkg.check_strategy,
        play_games=pkg.play_games,
        seat_wins=winner_wins,
        check_scenario=pkg.check_scenario,
        narrate=pkg.narrate,
        reference_strategies=lambda setup: tuple(pkg.STRATEGIES),
        variants=getattr(pkg, "variants", None),
        search=getattr(pkg, "search_strategy", None),
        restrictions=getattr(pkg, "restrictions", None),
        restrict=getattr(pkg, "restrict_strategy", None),
        study_plans=dict(getattr(pkg, "STUDY_PLANS", {})),
        study_tables=dict(getattr(pkg, "STUDY_TABLES", {})),
        columns=dict(getattr(pkg, "COLUMNS", {})),
        deck_of=getattr(pkg, "deck_of", None),
    )
