"""Restricted play (``dreamscape restrict``): how much does each restriction cost a bot?

After Jaffe et al., "Evaluating competitive game balance with restricted
play" (AIIDE 2012). For any game that declares restricted play
(``game.restrictions(setup)`` names what a bot may be forbidden,
``game.restrict(bot, restriction, setup)`` gives the spec of the bot under it:
Project Dreamscape ``buy:FF`` / ``perform:ID``, never buy or never perform one
dream type, :mod:`simcore.games.dreamscape.bots.restricted`; Pleasant Dreams
``no-mirror``, never use one action card), one seat plays the restricted bot
against the unrestricted bot in every other seat. Every seat takes the
restricted role in turn, on the same ``games`` deals; the unrestricted run (the
bot in every seat) plays those deals too, so the *loss* (the bot's win rate in
a seat minus the restricted bot's win rate in the same seat, same deals) has a
paired t interval over the games x seats (:func:`analyses.stats.intervals.paired_difference`).

A restriction's name splits into a kind and the thing forbidden at its first
``:`` or ``-`` (``buy:FF`` is kind ``buy``, type ``FF``; ``no-mirror`` is kind
``no``, type ``mirror``): the table's ``restriction`` and ``type`` columns, and
the types of one kind are ranked against each other. ``type_name`` is the
type's readable name when the game's own analyses name it
(its wing's ``restriction_names`` hook), else the type.

A large loss means the type is essential to the bot's play; a type whose
loss is 2x the next largest (interval above 0) is flagged *dominant*, one
whose interval holds 0 *irrelevant* (no measurable loss at this sample).

:func:`restrict_table` returns the polars frame; :func:`save_restrict` /
:func:`load_restrict` keep it in a study folder (``restrict.parquet`` and
``restrict.json``), where the report finds it.
"""
from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import polars as pl

from analyses.stats.intervals import paired_difference, wilson
from analyses.tools.gameplay import as_game, check_counts, seat_win_credits
from simcore.games import Game, GameError

RESTRICT_FILE = "restrict.parquet"
RESTRICT_META = "restrict.json"
DOMINANT_RATIO = 2.0  # a loss at least this many times the next largest one "dwarfs the others"
COLUMNS = {
    "strategy": pl.Utf8, "players": pl.Int64, "variant": pl.Utf8, "restriction": pl.Utf8, "type": pl.Utf8,
    "type_name": pl.Utf8, "games": pl.Int64, "win": pl.Float64, "win_low": pl.Float64, "win_high": pl.Float64,
    "base_win": pl.Float64, "base_low": pl.Float64, "base_high": pl.Float64,
    "loss": pl.Float64, "loss_low": pl.Float64, "loss_high": pl.Float64, "rank": pl.Int64, "flag": pl.Utf8,
}


def restriction_parts(restriction: str) -> tuple[str, str]:
    """(kind, type) of a restriction's name, split at its first ``:`` or ``-`` (no separator: the name twice)."""
    parts = re.split(r"[:-]", restriction, maxsplit=1)
    return (parts[0], parts[1]) if len(parts) == 2 else (restriction, restriction)


def select_restrictions(game: Game, setup, wanted: Sequence[str] | None) -> list[str]:
    """The game's restrictions named by ``wanted`` (full names or kinds), in the order asked, each once.

    None: every restriction of the game. A name that is neither a restriction
    of the setup nor a kind of one is a GameError listing the known ones.
    """
    known = list(game.restrictions(setup))
    if wanted is None:
        return known
    out: list[str] = []
    for w in wanted:
        hits = [r for r in known if r == w or restriction_parts(r)[0] == w]
        if not hits:
            kinds = list(dict.fromkeys(restriction_parts(r)[0] for r in known))
            raise GameError(f"unknown restriction {w!r} for {game.title} (kinds: {', '.join(kinds)}; "
                            f"restrictions: {', '.join(known)})")
        out += [r for r in hits if r not in out]
    return out


def restrict_table(
    strategy: str,
    players: Sequence[int],
    variants: Sequence[str] = ("base",),
    restrictions: Sequence[str] | None = None,
    games: int = 1000,
    seed: int = 1,
    chunk_size: int = 500,
    progress: Callable[[int], None] | None = None,
    *,
    game: Game | str | None = None,
) -> pl.DataFrame:
    """The restricted-play table (columns :data:`COLUMNS`), one row per player count, variant, restriction.

    Parameters
    ----------
    strategy : str
        The bot (a strategy spec of the game that ``game.restrict`` accepts: Project
        Dreamscape's expert, linear or function strategies; Pleasant Dreams' bots).
    players : sequence of int
        Player counts, each a seat count of the game with 2 or more seats.
    variants : sequence of str
        The game's variant texts; each is measured for the restrictions its setup
        has (Project Dreamscape ``CD:ID+RD:ED+SD:PS`` holds the three expansion types).
    restrictions : sequence of str, optional
        Kinds (``buy``, ``perform``, ``no``) and/or full restriction names
        (``buy:FF``, ``no-mirror``); default every restriction of the game.
    games : int
        Deals per seat; a row pools ``games`` x players (seat, deal) pairs.
    seed : int
        Game g of every run deals from stream (seed, g).
    chunk_size : int
        Games per ``play_games`` call (results do not depend on it).
    progress : callable(n_games), optional
        Called with the games just played.
    game : Game or str, optional
        The game (default: the default game); it must declare restricted play (``restrictions``).

    Raises
    ------
    GameError
        The game has no restricted play, or a player count, variant, restriction or strategy it does not know.
    """
    the_game = as_game(game)
    the_game.need("restrictions", "restrict")
    counts = check_counts(the_game, players, 2, "restrict")
    names = type_names(the_game)
    rows = []
    for p in counts:
        for text in variants:
            setup = the_game.setup(p, text)
            bot = the_game.check_strategy(strategy, setup)
            chosen = select_restrictions(the_game, setup, restrictions)
            base = seat_win_credits(the_game, setup, [bot] * p, games, seed, chunk_size, progress)
            b = wilson(float(base.sum()), games * p)
            blocks: dict[str, list[dict]] = {}  # one block per kind, ranked within itself
            for restriction in chosen:
                kind, item = restriction_parts(restriction)
                name = the_game.restrict(bot, restriction, setup)
                mine = np.concatenate([
                    seat_win_credits(the_game, setup, [name if s == seat else bot for s in range(p)],
                                     games, seed, chunk_size, progress)[:, seat]
                    for seat in range(p)
                ])
                own = base.T.reshape(-1)  # seat 0's games, then seat 1's ...: the same (seat, deal) order
                w = wilson(float(mine.sum()), mine.size)
                d = paired_difference(own, mine)
                blocks.setdefault(kind, []).append({
                    "strategy": bot, "players": p, "variant": the_game.variant_name(setup), "restriction": kind,
                    "type": item, "type_name": names.get(item, item), "games": games,
                    "win": w.value, "win_low": w.low, "win_high": w.high,
                    "base_win": b.value, "base_low": b.low, "base_high": b.high,
                    "loss": d.value, "loss_low": d.low, "loss_high": d.high,
                })
            for block in blocks.values():
                rows.extend(rank_and_flag(block))
    return pl.DataFrame(rows, schema=COLUMNS)


def type_names(game: Game) -> dict[str, str]:
    """Readable names of the restricted types, from the game's wing when it gives them (``restriction_names``)."""
    from analyses.games import wing_of

    names = wing_of(game).restriction_names
    return dict(names()) if names is not None else {}


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


def games_needed(players: Sequence[int], variants: Sequence[str], restrictions: Sequence[str] | None, games: int,
                 game: Game | str | None = None) -> int:
    """Games :func:`restrict_table` plays (for a progress bar)."""
    the_game = as_game(game)
    total = 0
    for p in players:
        for text in variants:
            n = len(select_restrictions(the_game, the_game.setup(p, text), restrictions))
            total += games * (1 + p * n)
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

