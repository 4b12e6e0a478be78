"""``dreamscape train --strategy strong``: the strong bot's value from expert self-play (issue #26).

Two steps, both reproducible from the seed:

1. **Games.** ``games`` expert self-play games of the configuration
   (:func:`simcore.games.dreamscape.fast.value_games.value_chunk`: the same
   games ``simulate`` plays with ``--strategy expert``); at each turn start
   with at most ``deck_at_most`` cards left in the Sleep Deck, one row per
   seat: its view of the position and its win credit at the end. About half a
   minute for 120,000 games of 3 players on 2 cores.
2. **Fit.** scikit-learn's ``HistGradientBoostingRegressor`` (``trees``
   boosting rounds of at most ``leaves`` leaves, squared error, no early
   stopping, ``random_state=seed``) on the rows of every game but each tenth;
   the tenth games' rows are held out and their R² reported. Minutes on 2 cores.

The file's ``meta["versions"]`` records the libraries that made it (:func:`trainer_versions`:
scikit-learn, whose trees the same rows and seed give only in the same version, numpy, numba, which
plays the games, and Python), so a value that cannot be made again says why.

Why win credit from plain expert games and not search labels: the value is
asked at the end of a turn the strong bot looks ahead to, and what it needs
there is who wins from that position; expert self-play gives that in seconds,
where search labels cost hours (docs/research/2026-11-26-turn-lookahead.md).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import simcore.games.dreamscape.bots.builtins  # noqa: F401  (registers expert, the self-play bot)
from simcore.fast_rng import seed_key
from simcore.rng import game_stream_state, mix64
from simcore.games.dreamscape.bots.api import load_strategy
from simcore.games.dreamscape.bots.strong import ValueModel
from simcore.games.dreamscape.decks import Deck, all_swap_sets, build_deck
from simcore.games.dreamscape.fast.faults import clear_fault, raise_fault
from simcore.games.dreamscape.fast.layout import knob_vector
from simcore.games.dreamscape.fast.runner import deck_arrays, strategy_args
from simcore.games.dreamscape.fast.value import N_VIEW
from simcore.games.dreamscape.fast.value_games import value_chunk
from simcore.games.dreamscape.rules import Options

ROWS_PER_GAME = 200  # turn starts x seats kept per game; a late game has far fewer (the rest is counted)
HOLD_OUT = 10  # every tenth game's rows are held out of the fit


@dataclass
class ValueRows:
    """The training rows: ``enc`` float32[R, N_VIEW], ``seat`` int8[R], ``win`` float32[R], ``game`` int64[R]."""

    enc: np.ndarray
    seat: np.ndarray
    win: np.ndarray
    game: np.ndarray
    dropped: int  # turn starts past ROWS_PER_GAME in a game (0 in practice)
    seconds: float


def single_swap_decks() -> tuple[Deck, ...]:
    """The Controlled Study's single-swap decks (R1.4), in :func:`~simcore.games.dreamscape.decks.all_swap_sets`
    order: removed base type FF, IS, NT, LD, PR, RD, CD, SD (outer), added ID, ED, PS (inner); 24 decks."""
    return tuple(build_deck(None, removed, added) for removed, added in all_swap_sets(1) if removed)


def swap_family_draw(seed: int, game: int, n_decks: int) -> int:
    """Which of ``n_decks`` decks training game ``game`` of run ``seed`` is played with (the swap family).

    Games come in blocks of :data:`SWAP_FAMILY_BLOCK` consecutive games, and block ``b = game // 50`` draws its
    deck from a stream of its own, keyed by (seed, b) like a game's two streams (:mod:`simcore.rng`) but salted
    apart from both: ``x = mix64(game_stream_state(seed, b) ^ SWAP_FAMILY_SALT)``, then the multiply-shift on
    the high 32 bits that :func:`simcore.fast_rng.below` uses, ``((x >> 32) * n_decks) >> 32``. Game ``g``'s
    deal and decisions are its own streams (seed, g), whatever the deck. Why blocks: the engine's kernel
    plays consecutive games of one deck per call, and a call per game cost 15 times the games' own time.
    """
    x = mix64(game_stream_state(seed, game // SWAP_FAMILY_BLOCK) ^ SWAP_FAMILY_SALT)
    return ((x >> 32) * n_decks) >> 32


# Keys the swap family's deck draw off the block's stream start: an arbitrary fixed 64-bit constant, not the
# decision stream's salt, so the draw is independent of both streams of the games.
SWAP_FAMILY_SALT = 0x3C6EF372FE94F82B
SWAP_FAMILY_BLOCK = 50  # consecutive games dealt from one deck: 800 blocks in 40,000 games, about 33 a deck
SINGLE_SWAPS = "single-swaps"  # the deck family a value can be trained across (value_rows' ``deck``)


def value_rows(players: int, options: Options, deck: Deck | str, games: int, seed: int, deck_at_most: int = 20,
               chunk_size: int = 1000, progress: Callable[[int, int], None] | None = None,
               bot: str = "expert") -> ValueRows:
    """Step 1: the rows of ``games`` expert self-play games (same seed, same rows, whatever the chunk size).

    ``bot``: the self-play bot, ``expert`` (the shipped table of the rules options) or ``expert:TABLE.toml`` (a
    table refitted to a changed game, which ``strong:VALUE.npz+expert:TABLE.toml`` then plays beside the value).

    ``deck`` is one deck, or :data:`SINGLE_SWAPS`: then game ``g`` is played with the single-swap deck
    ``single_swap_decks()[swap_family_draw(seed, g, 24)]`` (its deal and decisions are game ``g``'s streams,
    whatever the deck), so a value learns the swap family rather than one deck.
    """
    if isinstance(deck, str) and deck != SINGLE_SWAPS:
        raise ValueError(f"deck must be a Deck or {SINGLE_SWAPS!r}, got {deck!r}")
    t0 = time.perf_counter()
    if bot != "expert":
        if not bot.startswith("expert:"):
            raise ValueError(f"the self-play bot is expert or expert:TABLE.toml, not {bot!r}")
        bot = load_strategy(bot)  # registers the table (StrategyError, one line, for a file that cannot be read)
    fns = strategy_args([bot] * players, players, options)
    family = single_swap_decks() if isinstance(deck, str) else (deck,)
    arrays = [deck_arrays(d) for d in family]
    knobs = knob_vector(options, players)
    key = seed_key(seed)
    encs, seats, wins, ids, dropped = [], [], [], [], 0
    clear_fault()
    done = 0
    while done < games:
        n = min(chunk_size, games - done)
        enc = np.zeros((n, ROWS_PER_GAME, N_VIEW), np.float32)
        seat = np.zeros((n, ROWS_PER_GAME), np.int8)
        win = np.zeros((n, ROWS_PER_GAME), np.float32)
        n_rows = np.zeros(n, np.int64)
        # one call per run of games of one deck (the kernel plays consecutive games of one deck): the whole
        # chunk for one deck, each block's part of the chunk for the swap family
        lo = 0
        while lo < n:
            one = len(arrays) == 1
            hi = n if one else min(n, ((done + lo) // SWAP_FAMILY_BLOCK + 1) * SWAP_FAMILY_BLOCK - done)
            a, b = arrays[0 if one else swap_family_draw(seed, done + lo, len(arrays))]
            value_chunk(a, b, players, bool(options.sleep_token), bool(options.shifting_tokens), knobs, key,
                        done + lo, *fns, deck_at_most, enc[lo:hi], seat[lo:hi], win[lo:hi], n_rows[lo:hi])
            lo = hi
        raise_fault()
        kept = np.minimum(n_rows, ROWS_PER_GAME)
        dropped += int((n_rows - kept).sum())
        mask = np.arange(ROWS_PER_GAME)[None, :] < kept[:, None]
        encs.append(enc[mask])
        seats.append(seat[mask])
        wins.append(win[mask])
        ids.append(np.repeat(np.arange(done, done + n, dtype=np.int64), kept))
        done += n
        if progress is not None:
            progress(done, games)
    return ValueRows(np.concatenate(encs), np.concatenate(seats), np.concatenate(wins), np.concatenate(ids),
                     dropped, time.perf_counter() - t0)


def fit_value(rows: ValueRows, trees: int, leaves: int, learning_rate: float, seed: int,
              progress: Callable[[int, int], None] | None = None) -> tuple[object, dict]:
    """Step 2: the fitted regressor and its figures (rows, held-out R², seconds)."""
    from sklearn.ensemble import HistGradientBoostingRegressor

    held = rows.game % HOLD_OUT == 0
    if held.all() or not held.any():
        raise ValueError(f"the value needs games from at least two groups of {HOLD_OUT} (got {rows.game.size} rows)")
    t0 = time.perf_counter()
    model = HistGradientBoostingRegressor(max_iter=trees, learning_rate=learning_rate, max_leaf_nodes=leaves,
                                          early_stopping=False, random_state=seed)
    model.fit(rows.enc[~held], rows.win[~held])
    seconds = time.perf_counter() - t0
    pred = model.predict(rows.enc[held])
    truth = rows.win[held].astype(np.float64)
    var = float(np.var(truth))
    mse = float(np.mean((pred - truth) ** 2))
    if progress is not None:
        progress(trees, trees)
    return model, {"rows": int(rows.game.size), "fit_rows": int((~held).sum()), "held_out_rows": int(held.sum()),
                   "held_out_r2": 1.0 - mse / var if var > 0 else 0.0, "held_out_mse": mse, "fit_seconds": seconds}


TRAINER_LIBRARIES = ("scikit-learn", "numpy", "numba", "scipy")


def trainer_versions() -> dict[str, str]:
    """The versions of the libraries a value is made with (a library not installed is left out)."""
    import platform
    from importlib import metadata

    out = {"python": platform.python_version()}
    for dist in TRAINER_LIBRARIES:
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return out


def better_fit(rows: ValueRows, settings: list[tuple[int, int, float]], seed: int,
               progress: Callable[[int, int], None] | None = None) -> tuple[object, dict, list[dict]]:
    """Step 2 with several settings (trees, leaves, learning rate) on the same rows: the fit whose held-out
    games it predicts best (the smallest held-out squared error; the first on a tie), its figures, and every
    fit's settings and held-out figures in order (``kept`` marks the one returned)."""
    fits, tried = [], []
    for trees, leaves, learning_rate in settings:
        model, figures = fit_value(rows, trees, leaves, learning_rate, seed, progress)
        fits.append((model, figures))
        tried.append({"trees": trees, "leaves": leaves, "learning_rate": learning_rate,
                      "held_out_mse": figures["held_out_mse"], "held_out_r2": figures["held_out_r2"]})
    best = min(range(len(fits)), key=lambda i: (fits[i][1]["held_out_mse"], i))
    for i, row in enumerate(tried):
        row["kept"] = i == best
    return fits[best][0], fits[best][1], tried


def train_strong(players: int, options: Options, variant: str, deck: Deck | str, games: int, seed: int, trees: int = 100,
                 leaves: int = 63, learning_rate: float = 0.1, deck_at_most: int = 20,
                 progress: Callable[[str, int, int], None] | None = None,
                 also: tuple[int, int, float] | None = None, bot: str = "expert") -> ValueModel:
    """Games, then the fit: the strong bot's value of one configuration (meta says how it was made).

    ``deck``: one deck, or :data:`SINGLE_SWAPS` (a value for every single-swap deck, :func:`value_rows`).
    ``also``: a second setting (trees, leaves, learning rate) fitted to the same rows; the value kept is the
    better of the two on the held-out games (:func:`better_fit`), and ``meta["fits"]`` lists both.
    """
    t0 = time.perf_counter()
    rows = value_rows(players, options, deck, games, seed, deck_at_most,
                      progress=None if progress is None else (lambda d, t: progress("games", d, t)), bot=bot)
    if rows.game.size == 0:
        raise ValueError("the games reached no late turn start; raise --games")
    fit_progress = None if progress is None else (lambda d, t: progress("fit", d, t))
    tried = None
    if also is None:
        model, figures = fit_value(rows, trees, leaves, learning_rate, seed, fit_progress)
    else:
        model, figures, tried = better_fit(rows, [(trees, leaves, learning_rate), tuple(also)], seed, fit_progress)
        kept = next(t for t in tried if t["kept"])
        leaves, learning_rate = kept["leaves"], kept["learning_rate"]
    meta = {
        "name": f"strong-{players}p-{variant}" + (f"-{deck}" if isinstance(deck, str) else ""), "game": "project-dreamscape", "players": players, "variant": variant,
        "deck": deck if isinstance(deck, str) else deck.label, "games": games, "seed": seed, "deck_at_most": deck_at_most, "leaves": leaves,
        "learning_rate": learning_rate, "games_seconds": round(rows.seconds, 1),
        "seconds": round(time.perf_counter() - t0, 1), "versions": trainer_versions(),
        **{k: (round(v, 4) if isinstance(v, float) else v) for k, v in figures.items()},
    }
    meta["fit_seconds"] = round(figures["fit_seconds"], 1)
    if bot != "expert":
        meta["self_play"] = bot  # the table whose games it learned from (play it beside: strong:VALUE+expert:TABLE)
    if tried is not None:
        meta["fits"] = tried
    return ValueModel.from_sklearn(model, meta)
