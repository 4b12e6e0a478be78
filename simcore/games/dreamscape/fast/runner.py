"""Batch runner of the fast engine: many games, per-game result arrays, summaries.

Game ``g`` of a run seeded ``seed`` plays from its own two streams, the deal
(:func:`simcore.fast_rng.stream_state`) and the decisions
(:func:`simcore.fast_rng.decision_state`), so results are identical for any
thread count and any chunking. Games of a chunk run in parallel (``prange``);
memory is bounded by the chunk size when the caller aggregates chunk by chunk
(:func:`iter_chunks`, or ``simulate(..., on_chunk=..., keep=False)``).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from simcore.games.dreamscape.decks import Deck, build_deck, check_deck_fits, deck_family
from simcore.games.dreamscape.fast.batch import chunk_kernel, chunk_loop, collect_chunk, run_chunk, run_chunk_rollout, run_chunk_search
from simcore.games.dreamscape.fast.faults import clear_fault, raise_fault
from simcore.games.dreamscape.fast.isearch import REC_DECISION, REC_WIDTH
from simcore.games.dreamscape.fast.layout import MAX_SEATS, N_FEATURES, N_TYPES, knob_vector
from simcore.fast_rng import seed_key
from simcore.games.dreamscape.fast.scratch import (
    EXPERT_WIDTH, LOOK_NESTED, LOOK_OFF, LOOK_VALUE, MD_DECIDES, MD_LOOKAHEAD, MD_PLAYOUTS, MD_POLICY, MD_RELEASED, MD_SCORE,
    MD_SKIP, MODE_EXPERT, N_MD, strong_released,
)
from simcore.games.dreamscape.cards import CODES
from simcore.games.dreamscape.fast.strategies import cached_entries, get_record, weights_for
from simcore.games.dreamscape.rules import MAX_PLAYERS, MIN_PLAYERS, Options


@dataclass(frozen=True)
class SimConfig:
    """One configuration: number of seats, rules options and the deck."""

    players: int
    options: Options = Options()
    deck: Deck = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.deck is None:
            object.__setattr__(self, "deck", build_deck())
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {self.players}")
        self.options.check_fits(self.players)  # KnobError: a per-seat knob of the wrong length
        check_deck_fits(self.deck, self.players, self.options.setup_cards(self.players))


@dataclass
class SimResult:
    """Per-game results (arrays indexed by game, then seat, then dream type).

    Attributes
    ----------
    first_game : int
        Index of the first game held (chunks of a run hold consecutive games).
    score, z, turns : int32[n, players]
        Final score (R8.2), Z cards and turns taken per seat.
    win : float64[n, players]
        Win credit: 1/k for each of k shared winners (R8.3), 0 in aborted games.
    length : int32[n]
        Turns played in the game.
    aborted : bool[n]
        The R8.4 safety cap ended the game.
    performed : int32[n, players, 11]
        Times each seat performed each dream type (every type chosen at a
        ``perform``, including performances that then do nothing).
    chain_by_type : int32[n, players, 11]
        Chain points of each type in each seat's final REM stack
        (:func:`simcore.games.dreamscape.scoring.chain_points_by_type`).
    held : int8[n, players, n_cards] or None
        1 where deck card c (the deck's card order) ends in the seat's REM stack.
    card_labels : list of str
        Each deck card's label, e.g. ``"FF/IS"`` (R1.3 notation), by card id.
    """

    players: int
    strategies: list[str]
    first_game: int
    score: np.ndarray
    z: np.ndarray
    turns: np.ndarray
    win: np.ndarray
    length: np.ndarray
    aborted: np.ndarray
    performed: np.ndarray
    chain_by_type: np.ndarray
    held: np.ndarray | None = None
    card_labels: list[str] = field(default_factory=list)

    @property
    def n_games(self) -> int:
        return int(self.length.shape[0])

    @staticmethod
    def concat(parts: Sequence["SimResult"]) -> "SimResult":
        first = parts[0]
        cat = lambda name: np.concatenate([getattr(p, name) for p in parts])  # noqa: E731
        return SimResult(
            players=first.players,
            strategies=first.strategies,
            first_game=first.first_game,
            score=cat("score"),
            z=cat("z"),
            turns=cat("turns"),
            win=cat("win"),
            length=cat("length"),
            aborted=cat("aborted"),
            performed=cat("performed"),
            chain_by_type=cat("chain_by_type"),
            held=cat("held") if first.held is not None else None,
            card_labels=first.card_labels,
        )


# ============================================================================ Python API


def deck_arrays(deck: Deck) -> tuple[np.ndarray, np.ndarray]:
    """The deck's two type columns (card id -> first type, second type), as stored."""
    a = np.array([c[0] for c in deck.cards], dtype=np.int32)
    b = np.array([c[1] for c in deck.cards], dtype=np.int32)
    return a, b


def resolve_strategies(strategies: str | Sequence[str], players: int) -> list[str]:
    """One strategy name per seat ("greedy" for all, or a list with one per seat)."""
    names = [strategies] * players if isinstance(strategies, str) else list(strategies)
    if len(names) == 1 and players > 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"give one strategy for all seats or one per seat ({players}), got {len(names)}")
    for name in names:
        get_record(name)  # raises with the known names
    return names


def strategy_args(names: Sequence[str], players: int | None = None, options: Options | None = None,
                  deck: Deck | None = None) -> list:
    """The engine kernels' strategy arguments for one strategy name per seat.

    ``run_chunk`` and ``play_one`` (:mod:`simcore.games.dreamscape.fast.batch`) take them
    after the game's seed key and game index, in this order.

    Parameters
    ----------
    names : sequence of str
        One registered strategy name per seat (1 to MAX_SEATS).
    players, options : optional
        The configuration played: an expert bot plays its table for it
        (:func:`simcore.games.dreamscape.fast.strategies.weights_for`); None: the default table.
    deck : optional
        The deck played: a strong bot plays its single-swap value in a single-swap deck
        (:func:`~simcore.games.dreamscape.decks.deck_family`); None: the value of the players and options.

    Returns
    -------
    list
        MAX_SEATS compiled strategy functions (unused seats repeat the first
        seat's, any valid function will do), then ``modes`` int64[N_MD,
        MAX_SEATS] (rows: score mode, rollout policy mode, playouts per
        option, bit mask of the decision kinds the strategy is called at,
        the game phases a search player does not search) and
        ``weights`` float64[MAX_SEATS, N_FEATURES] (linear weights or a
        linear rollout policy; EXPERT_WIDTH columns when a seat plays or
        searches with an expert table), one column / row per seat.
    """
    records = [get_record(n) for n in names]
    fns = [r.compiled for r in records]
    modes = np.zeros((N_MD, MAX_SEATS), dtype=np.int64)
    expert = any(MODE_EXPERT in (r.mode, r.policy) for r in records)
    opts = options if options is not None else Options()
    family = deck_family(deck, opts)
    rows = [weights_for(r, players, opts.sleep_token, opts.shifting_tokens, family) for r in records]
    # a strong seat's row carries its value's trees behind the expert table (simcore.games.dreamscape.fast.value)
    width = max([EXPERT_WIDTH if expert else N_FEATURES] + [w.shape[0] for w in rows])
    weights = np.zeros((MAX_SEATS, width), dtype=np.float64)
    for s, (r, w) in enumerate(zip(records, rows)):
        modes[MD_SCORE, s] = r.mode
        modes[MD_POLICY, s] = r.policy
        modes[MD_PLAYOUTS, s] = r.playouts
        modes[MD_DECIDES, s] = r.decides
        modes[MD_SKIP, s] = r.skip
        modes[MD_LOOKAHEAD, s] = r.lookahead
        if r.lookahead in (LOOK_VALUE, LOOK_NESTED):  # strong itself, or the strong seats of a search's playouts
            released = strong_released(players, opts.sleep_token, opts.shifting_tokens)
            modes[MD_RELEASED, s] = released
            if r.lookahead == LOOK_VALUE:
                modes[MD_SKIP, s] &= ~released
        if r.lookahead != LOOK_OFF and w.shape[0] <= EXPERT_WIDTH:  # strong without a value here (solo): expert's table
            if r.lookahead == LOOK_VALUE:
                modes[MD_SCORE, s], modes[MD_PLAYOUTS, s], modes[MD_SKIP, s] = MODE_EXPERT, 0, 0
            modes[MD_LOOKAHEAD, s] = LOOK_OFF
        weights[s, : w.shape[0]] = w
    return fns + [fns[0]] * (MAX_SEATS - len(fns)) + [modes, weights]  # unused seats: any valid function


def card_labels(deck: Deck) -> list[str]:
    """Each deck card's label by card id, e.g. ``"FF/IS"``."""
    return [f"{CODES[a]}/{CODES[b]}" for a, b in deck.cards]


def _alloc(n: int, players: int, n_cards: int) -> tuple[np.ndarray, ...]:
    return (
        np.zeros((n, players), np.int32),
        np.zeros((n, players), np.int32),
        np.zeros((n, players), np.int32),
        np.zeros((n, players), np.float64),
        np.zeros(n, np.int32),
        np.zeros(n, np.bool_),
        np.zeros((n, players, N_TYPES), np.int32),
        np.zeros((n, players, N_TYPES), np.int32),
        np.zeros((n, players, n_cards), np.int8),
    )


# ============================================================================ compiling a game loop, announced

# Seconds each game loop takes to compile on its own: numba compiles on one core, and these are the CPU
# seconds of a cold compile measured 2026-11-27 (plain 81 s, search 139 s, where the whole engine of one
# entry point took 165 s; docs/research/2026-11-27-compile-once-per-loop.md). The rollout loop's was not
# measured on its own: put at the plain loop's plus its playouts. Only used to say how long a compile will
# take, before it starts; the time it took is said after it.
COMPILE_ESTIMATE_S = {"plain": 80.0, "rollout": 110.0, "search": 140.0}
LOOP_KERNELS = {"plain": run_chunk, "rollout": run_chunk_rollout, "search": run_chunk_search}
LOOP_LABELS = {"plain": "game loop", "rollout": "flat Monte Carlo loop", "search": "search loop"}

_LOOP_NOTICE: list[Callable[[str, float, bool], None]] = []
_ANNOUNCED: set[str] = set()


def set_loop_notice(notice: Callable[[str, float, bool], None] | None) -> None:
    """Have ``notice(label, seconds, done)`` called around the compile of a game loop (None: silent).

    Before the compile: ``done`` False and ``seconds`` the estimate
    (:data:`COMPILE_ESTIMATE_S`); after it: ``done`` True and the measured
    seconds. Called at most once per loop and process, and only when the loop
    is not in numba's cache (loading it is not announced).
    """
    _LOOP_NOTICE[:] = [notice] if notice is not None else []


def loop_compiled(loop: str) -> bool:
    """Whether game loop ``loop`` (:data:`CHUNK_LOOPS`) is loaded in this process or in numba's on-disk cache."""
    kernel = LOOP_KERNELS[loop]
    return bool(kernel.signatures) or cached_entries(kernel) > 0


_PENDING: dict[str, Callable[[], None]] = {}


def set_pending_compile(loop: str, wait: Callable[[], None]) -> None:
    """Game loop ``loop`` is being compiled into numba's cache by another process: ``wait()`` before its first run.

    A run needing it then waits for that process and loads its machine code
    instead of compiling the same loop a second time.
    """
    _PENDING[loop] = wait


def _compile_announced(loop: str, kernel, args: tuple, fns: list, players: int, n_cards: int) -> None:
    """Compile ``kernel`` on one throw-away game first, between the two notices, when it is about to compile."""
    if not _LOOP_NOTICE or loop in _ANNOUNCED or kernel.signatures or cached_entries(kernel) > 0:
        return
    import time

    _ANNOUNCED.add(loop)
    say = _LOOP_NOTICE[0]
    say(LOOP_LABELS[loop], COMPILE_ESTIMATE_S[loop], False)
    t0 = time.perf_counter()
    kernel(*args, *fns, *_alloc(1, players, n_cards))  # results thrown away: every game plays from its own streams
    clear_fault()  # a failing user strategy fails again in the chunk itself, where it is reported
    say(LOOP_LABELS[loop], time.perf_counter() - t0, True)


def iter_chunks(
    config: SimConfig,
    n_games: int,
    seed: int,
    strategies: str | Sequence[str],
    *,
    chunk_size: int = 50_000,
    first_game: int = 0,
) -> Iterator[SimResult]:
    """Play games ``first_game .. first_game + n_games - 1`` and yield them chunk by chunk.

    Raises
    ------
    simcore.faults.StrategyFault
        A guarded user strategy raised, returned a non-finite score or indexed
        outside its arrays (:mod:`simcore.games.dreamscape.fast.faults`); the chunk is not yielded.
    """
    if n_games < 0:
        raise ValueError("n_games must be >= 0")
    if chunk_size < 1:
        raise ValueError("chunk_size must be >= 1")
    names = resolve_strategies(strategies, config.players)
    fns = strategy_args(names, config.players, config.options, config.deck)
    a, b = deck_arrays(config.deck)
    labels = card_labels(config.deck)
    key = seed_key(seed)
    knobs = knob_vector(config.options, config.players)
    loop = chunk_loop(fns[-2], config.players)
    run_chunk = chunk_kernel(fns[-2], config.players)  # only the game loop these seats need is compiled
    done = 0
    clear_fault()
    args = (a, b, config.players, bool(config.options.sleep_token), bool(config.options.shifting_tokens), knobs, key)
    wait = _PENDING.pop(loop, None)
    if wait is not None:
        wait()
    _compile_announced(loop, run_chunk, args + (first_game,), fns, config.players, len(a))
    while done < n_games:
        n = min(chunk_size, n_games - done)
        out = _alloc(n, config.players, len(a))
        g0 = first_game + done
        run_chunk(
            a, b, config.players, bool(config.options.sleep_token), bool(config.options.shifting_tokens),
            knobs, key, g0, *fns, *out,
        )
        raise_fault()  # a user strategy failed in this chunk: its games were cut short, none is kept
        yield SimResult(config.players, names, g0, *out, card_labels=labels)
        done += n


def simulate(
    config: SimConfig,
    n_games: int,
    seed: int,
    strategies: str | Sequence[str],
    *,
    chunk_size: int = 50_000,
    progress: Callable[[int, int], None] | None = None,
    on_chunk: Callable[[SimResult], None] | None = None,
    keep: bool = True,
) -> SimResult | None:
    """Play ``n_games`` games of one configuration on the fast engine.

    Parameters
    ----------
    config : SimConfig
        Seats, rules options and deck.
    n_games, seed : int
        Game g (0 <= g < n_games) is dealt from stream (seed, g) and decides
        from its decision stream, as the reference engine's ``GameRng(seed, g)``
        and ``GameRng.decisions(seed, g)``.
    strategies : str or list of str
        One registered fast strategy for all seats, or one per seat.
    chunk_size : int
        Games per parallel chunk (results do not depend on it).
    progress : callable(done, total), optional
        Called after every chunk.
    on_chunk : callable(SimResult), optional
        Called with every chunk's results (aggregate here for bounded memory).
    keep : bool
        Return all games' results concatenated (False: return None).
    """
    parts = []
    done = 0
    for part in iter_chunks(config, n_games, seed, strategies, chunk_size=chunk_size):
        done += part.n_games
        if on_chunk is not None:
            on_chunk(part)
        if keep:
            parts.append(part)
        if progress is not None:
            progress(done, n_games)
    if not keep:
        return None
    if not parts:
        names = resolve_strategies(strategies, config.players)
        return SimResult(config.players, names, 0, *_alloc(0, config.players, len(config.deck.cards)),
                         card_labels=card_labels(config.deck))
    return SimResult.concat(parts)


def collect_search(
    config: SimConfig,
    n_games: int,
    seed: int,
    strategies: str | Sequence[str],
    *,
    first_game: int = 0,
    chunk_size: int = 64,
    max_rows: int = 4096,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """Play training games with search seats and keep every search decision (:func:`~simcore.games.dreamscape.fast.batch.collect_chunk`).

    Returns ``(records, wins, skipped)``: one row per option of every kept
    search decision (columns ``simcore.games.dreamscape.fast.isearch.REC_*``, with
    ``REC_DECISION`` numbered across all games and ``REC_SEAT`` the deciding
    seat), the win credits float64[n_games, players], and how many search
    decisions were not kept (more than ``COLLECT_MAX`` options, Shifting
    orders, or no room in ``max_rows`` rows per game). Same seed, same rows,
    whatever the chunk size.
    """
    names = resolve_strategies(strategies, config.players)
    fns = strategy_args(names, config.players, config.options, config.deck)
    a, b = deck_arrays(config.deck)
    knobs = knob_vector(config.options, config.players)
    key = seed_key(seed)
    parts, wins, skipped, next_decision, done = [], [], 0, 0, 0
    clear_fault()
    while done < n_games:
        n = min(chunk_size, n_games - done)
        rec = np.zeros((n, max_rows, REC_WIDTH), np.float64)
        rec_n = np.zeros((n, 2), np.int64)
        win = np.zeros((n, config.players), np.float64)
        collect_chunk(
            a, b, config.players, bool(config.options.sleep_token), bool(config.options.shifting_tokens),
            knobs, key, first_game + done, *fns, rec, rec_n, win,
        )
        raise_fault()  # a user strategy failed (simcore.games.dreamscape.fast.faults): nothing of this chunk is kept
        for i in range(n):
            rows = rec[i, : rec_n[i, 0]].copy()
            if rows.shape[0]:
                rows[:, REC_DECISION] += next_decision
                next_decision = int(rows[-1, REC_DECISION]) + 1
            parts.append(rows)
            skipped += int(rec_n[i, 1])
        wins.append(win)
        done += n
        if progress is not None:
            progress(done, n_games)
    records = np.concatenate(parts) if parts else np.zeros((0, REC_WIDTH))
    return records, np.concatenate(wins) if wins else np.zeros((0, config.players)), skipped
