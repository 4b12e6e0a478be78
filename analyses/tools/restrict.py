"""Restricted play (``dreamscape restrict``): how much does each dream type matter?

After Jaffe et al., "Evaluating competitive game balance with restricted
play" (AIIDE 2012). For each dream type in the deck and each restriction
(never *buy* a card showing the type; never *perform* it, see
:mod:`simcore.games.dreamscape.bots.restricted`), one seat plays the restricted bot against the
unrestricted bot in every other seat. Every seat takes the restricted role in
turn, on the same ``games`` deals; the unrestricted run (the bot in every
seat) plays those deals too, so the *loss* (the bot's win rate in a seat
minus the restricted bot's win rate in the same seat, same deals) has a
paired t interval over the games x seats (:func:`analyses.stats.intervals.paired_difference`).

A large loss means the type is essential to the bot's play; a type whose
loss is 2x the next largest (interval above 0) is flagged *dominant*, one
whose interval holds 0 *irrelevant* (no measurable loss at this sample).

:func:`restrict_table` returns the polars frame; :func:`save_restrict` /
:func:`load_restrict` keep it in a study folder (``restrict.parquet`` and
``restrict.json``), where the report finds it.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import polars as pl

from analyses.stats.intervals import paired_difference, wilson
from simcore.games.dreamscape.cards import CODES, NAMES
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.variants import check_variant_fits, parse_variant
from simcore.games.dreamscape.bots.restricted import RESTRICTIONS, restricted

RESTRICT_FILE = "restrict.parquet"
RESTRICT_META = "restrict.json"
DOMINANT_RATIO = 2.0  # a loss at least this many times the next largest one "dwarfs the others"
COLUMNS = {
    "strategy": pl.Utf8, "players": pl.Int64, "variant": pl.Utf8, "restriction": pl.Utf8, "type": pl.Utf8,
    "type_name": pl.Utf8, "games": pl.Int64, "win": pl.Float64, "win_low": pl.Float64, "win_high": pl.Float64,
    "base_win": pl.Float64, "base_low": pl.Float64, "base_high": pl.Float64,
    "loss": pl.Float64, "loss_low": pl.Float64, "loss_high": pl.Float64, "rank": pl.Int64, "flag": pl.Utf8,
}


def restrict_table(
    strategy: str,
    players: Sequence[int],
    variants: Sequence[str] = ("base",),
    restrictions: Sequence[str] = RESTRICTIONS,
    games: int = 1000,
    seed: int = 1,
    chunk_size: int = 500,
    progress: Callable[[int], None] | None = None,
) -> pl.DataFrame:
    """The restricted-play table (columns :data:`COLUMNS`), one row per player count, variant, restriction, type.

    Parameters
    ----------
    strategy : str
        A registered expert, linear or function strategy (:func:`simcore.games.dreamscape.bots.restricted.restricted`).
    players : sequence of int
        Player counts, 2 to 4.
    variants : sequence of str
        Variant texts; each is measured for the dream types its deck holds
        (``CD:ID+RD:ED+SD:PS`` holds the three expansion types).
    restrictions : sequence of str
        "buy" and/or "perform".
    games : int
        Deals per seat; a row pools ``games`` x players (seat, deal) pairs.
    seed : int
        Game g of every run deals from stream (seed, g).
    progress : callable(n_games), optional
        Called with the games just played.
    """
    rows = []
    for p in players:
        for text in variants:
            variant = parse_variant(text)
            check_variant_fits(variant, p)
            config = SimConfig(p, variant.options, variant.deck())
            base = _wins(config, games, seed, [strategy] * p, chunk_size, progress)
            b = wilson(float(base.sum()), games * p)
            for what in restrictions:
                block = []
                for t in config.deck.types_in_play:
                    name = restricted(strategy, t, what, p, variant.options)  # an expert plays this config's table
                    mine = np.concatenate([
                        _wins(config, games, seed, [name if s == seat else strategy for s in range(p)],
                              chunk_size, progress)[:, seat]
                        for seat in range(p)
                    ])
                    own = base.T.reshape(-1)  # seat 0's games, then seat 1's ...: the same (seat, deal) order
                    w = wilson(float(mine.sum()), mine.size)
                    d = paired_difference(own, mine)
                    block.append({
                        "strategy": strategy, "players": p, "variant": variant.name, "restriction": what,
                        "type": CODES[t], "type_name": NAMES[t], "games": games,
                        "win": w.value, "win_low": w.low, "win_high": w.high,
                        "base_win": b.value, "base_low": b.low, "base_high": b.high,
                        "loss": d.value, "loss_low": d.low, "loss_high": d.high,
                    })
                rows.extend(rank_and_flag(block))
    return pl.DataFrame(rows, schema=COLUMNS)


def rank_and_flag(block: list[dict]) -> list[dict]:
    """Rank one restriction's types by loss (1 = largest) and flag dominant / irrelevant ones.

    Dominant: the largest loss, its interval above 0, at least :data:`DOMINANT_RATIO`
    times the second largest (or the second is not above 0). Irrelevant: the interval holds 0.
    """
    order = sorted(block, key=lambda r: -r["loss"])
    for i, r in enumerate(order):
        r["rank"] = i + 1
        r["flag"] = "irrelevant" if r["loss_low"] <= 0.0 <= r["loss_high"] else ""
    if order and order[0]["loss_low"] > 0.0:
        second = order[1]["loss"] if len(order) > 1 else 0.0
        if second <= 0.0 or order[0]["loss"] >= DOMINANT_RATIO * second:
            order[0]["flag"] = "dominant"
    return order


def _wins(config: SimConfig, games: int, seed: int, seats: list[str], chunk_size: int, progress) -> np.ndarray:
    parts = []

    def keep(part) -> None:
        parts.append(part.win)
        if progress is not None:
            progress(part.n_games)

    simulate(config, games, seed, seats, chunk_size=chunk_size, on_chunk=keep, keep=False)
    return np.concatenate(parts) if parts else np.zeros((0, config.players))


def games_needed(players: Sequence[int], variants: Sequence[str], restrictions: Sequence[str], games: int) -> int:
    """Games :func:`restrict_table` plays (for a progress bar)."""
    total = 0
    for p in players:
        for text in variants:
            n_types = len(parse_variant(text).deck().types_in_play)
            total += games * (1 + p * n_types * len(restrictions))
    return total


def restrict_data(frame: pl.DataFrame, seconds: float | None = None, seed: int | None = None) -> dict:
    """The frame as the ``--json`` dict: how it was made and one row per cell."""
    first = frame.row(0, named=True) if frame.height else {}
    return {
        "strategy": first.get("strategy"), "seed": seed, "games_per_seat": first.get("games"),
        "seconds": seconds, "rows": frame.to_dicts(),
        "dominant": [f"{r['players']}p {r['variant']} {r['restriction']} {r['type']}"
                     for r in frame.filter(pl.col("flag") == "dominant").iter_rows(named=True)],
    }


def save_restrict(folder: str | Path, frame: pl.DataFrame, meta: dict) -> Path:
    """Write the table (and how it was made) into a study folder; returns the table's path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / RESTRICT_FILE
    frame.write_parquet(path)
    (folder / RESTRICT_META).write_text(json.dumps({k: v for k, v in meta.items() if k != "rows"}, indent=2) + "\n")
    return path


def load_restrict(folder: str | Path) -> pl.DataFrame | None:
    """The restricted-play table kept in a study folder, or None."""
    path = Path(folder) / RESTRICT_FILE
    return pl.read_parquet(path) if path.is_file() else None


def timed_restrict(*args, **kwargs) -> tuple[pl.DataFrame, float]:
    """:func:`restrict_table` and its wall time in seconds."""
    t0 = time.perf_counter()
    frame = restrict_table(*args, **kwargs)
    return frame, time.perf_counter() - t0

