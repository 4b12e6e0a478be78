"""Dream-type and card strength: which types and cards go with winning.

Per variant, player count and bot, summed over the study's configurations
that seat the same bot on every seat (multi-player games only: where bots of
different strength meet, the stronger bot's habits would pass for the
types' strength; read from the per-chunk aggregates, so ``--aggregate-only``
studies work too):

* how often each dream type is performed per game (all seats together) and
  its share of all performances;
* the win rate of the seats that performed it *more* than the game's mean
  over seats, with its 95% Wilson interval, against the fair share
  1/players, and the lift (win rate minus fair share);
* the chain points (R8.2) of that type per game at game end.

Per card (pair of types, ``FF/IS``): the win rate of the seats whose REM
stack holds at least one copy at game end, against the fair share.
"""
from __future__ import annotations

from pathlib import Path

import polars as pl

from analyses.stats.intervals import wilson
from analyses.study.folder import SUM_UNITS, configs_frame, finished_configs, scan_pairs, seat_totals, to_output, units
from simcore.games.dreamscape.cards import BASE_TYPES, CODES, NAMES
from simcore.games.dreamscape.variants import VariantError, parse_variant

_TYPE_SCHEMA = {
    "variant": pl.Utf8, "players": pl.Int64, "strategies": pl.Utf8, "type": pl.Utf8, "name": pl.Utf8, "performed_per_game": pl.Float64,
    "pick_share": pl.Float64, "games_more": pl.Int64, "win_rate_more": pl.Float64, "win_low": pl.Float64,
    "win_high": pl.Float64, "fair": pl.Float64, "lift": pl.Float64, "chain_points_per_game": pl.Float64,
    "significant": pl.Boolean,
}


def types_in_play(variant: str) -> list[int]:
    """The dream types of a variant's deck (R1.4): base types minus removed plus added."""
    try:
        v = parse_variant(variant)
    except VariantError:
        return list(range(len(CODES)))
    return sorted((set(BASE_TYPES) - set(v.removed)) | set(v.added))


def one_bot_configs(folder: str | Path) -> list[str]:
    """Ids of the multi-player configurations with the same strategy on every seat."""
    return [c.id for c in finished_configs(folder) if c.players >= 2 and len(set(c.strategies)) == 1]


def type_rows(totals: pl.DataFrame, variant: str, players: int, strategies: str = "") -> list[dict]:
    """Type strength rows of one group of seat totals (any configurations of one variant and player count)."""
    games = int(totals.filter(pl.col("seat") == 0)["n"].sum())
    all_performed = sum(float(totals[f"sum_performed_{c}"].sum()) for c in CODES)
    fair = 1.0 / players
    rows = []
    for t in types_in_play(variant):
        code = CODES[t]
        performed = float(totals[f"sum_performed_{code}"].sum())
        more = int(totals[f"more_{code}"].sum()) if f"more_{code}" in totals.columns else 0
        wins_more = float(totals[f"wins_more_{code}"].sum()) if more else 0.0
        est = wilson(wins_more, more)
        rows.append({
            "variant": variant, "players": players, "strategies": strategies, "type": code, "name": NAMES[t],
            "performed_per_game": performed / games if games else float("nan"),
            "pick_share": performed / all_performed if all_performed else float("nan"),
            "games_more": more, "win_rate_more": est.value, "win_low": est.low, "win_high": est.high,
            "fair": fair, "lift": est.value - fair,
            "chain_points_per_game": float(totals[f"sum_chain_{code}"].sum()) / games if games else float("nan"),
            "significant": bool(more) and not (est.low <= fair <= est.high),
        })
    return rows


def type_strength(folder: str | Path, pandas: bool = False):
    """Dream-type strength per variant and player count (see the module docstring).

    Columns: variant, players, strategies (the bot on every seat), type (code), name, performed_per_game (all
    seats), pick_share (of all performances), games_more (seat-games in which
    the seat performed the type more than the game's mean over seats),
    win_rate_more with win_low/win_high (95% Wilson), fair (1/players), lift
    (win_rate_more - fair), chain_points_per_game (all seats, at game end),
    significant (the interval excludes fair). Types not in the variant's deck
    are left out.
    """
    totals = seat_totals(folder).filter(pl.col("config").is_in(one_bot_configs(folder)))
    rows = []
    for (variant, players, bots), part in totals.group_by(["variant", "players", "strategies"], maintain_order=True):
        rows.extend(type_rows(part, variant, players, bots))
    return to_output(pl.DataFrame(rows, schema=_TYPE_SCHEMA), pandas)


def pair_strength(folder: str | Path, pandas: bool = False):
    """Card strength per variant and player count, from the cards held at game end.

    Columns: variant, players, strategies (the bot on every seat; one-bot
    configurations only, as :func:`type_strength`), card (``FF/IS`` as the deck writes it),
    seat_games (seat-games whose final REM stack held at least one copy),
    held_rate (seat_games / all seat-games), win_rate_held with win_low /
    win_high (95% Wilson), fair (1/players), lift (win_rate_held - fair),
    significant (the interval excludes fair).

    Raises StudyError when the study holds no held-card data.
    """
    keys = ["variant", "players", "strategies"]
    ids = one_bot_configs(folder)
    configs = configs_frame(folder).filter(pl.col("config").is_in(ids))
    pairs = (scan_pairs(folder).filter(pl.col("config").is_in(ids)).group_by(["config", "card"])
             .agg(pl.col("seat_games_held").sum(), units("wins_held").sum()).collect()  # exact: chunk size does not matter
             .join(configs.select(["config", *keys]), on="config"))
    seat_games = (seat_totals(folder).filter(pl.col("config").is_in(ids)).group_by(keys)
                  .agg(pl.col("n").sum().alias("all_seat_games")))
    grouped = (pairs.group_by([*keys, "card"], maintain_order=True)
               .agg(pl.col("seat_games_held").sum(), pl.col("wins_held").sum() / SUM_UNITS)
               .join(seat_games, on=keys))
    rows = []
    for r in grouped.iter_rows(named=True):
        est = wilson(r["wins_held"], r["seat_games_held"])
        fair = 1.0 / r["players"]
        rows.append({
            "variant": r["variant"], "players": r["players"], "strategies": r["strategies"], "card": r["card"],
            "seat_games": r["seat_games_held"],
            "held_rate": r["seat_games_held"] / r["all_seat_games"], "win_rate_held": est.value,
            "win_low": est.low, "win_high": est.high, "fair": fair, "lift": est.value - fair,
            "significant": r["seat_games_held"] > 0 and not (est.low <= fair <= est.high),
        })
    schema = {"variant": pl.Utf8, "players": pl.Int64, "strategies": pl.Utf8, "card": pl.Utf8, "seat_games": pl.Int64, "held_rate": pl.Float64,
              "win_rate_held": pl.Float64, "win_low": pl.Float64, "win_high": pl.Float64, "fair": pl.Float64,
              "lift": pl.Float64, "significant": pl.Boolean}
    out = pl.DataFrame(rows, schema=schema)
    if out.height:
        out = out.sort(["players", "variant", "strategies", "card"])
    return to_output(out, pandas)


__all__ = ["type_strength", "pair_strength", "types_in_play", "type_rows"]
