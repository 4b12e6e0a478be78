"""Variant comparison against a baseline, paired on common random numbers.

Game ``g`` of every configuration of a study is dealt from the random stream
``(seed, g)`` and breaks its ties on a separate decision stream of ``(seed,
g)`` (:mod:`simcore.rng`), so game ``g`` of two variants of one deck starts
from the same shuffle and the same decision stream: the same luck, as far as
the variants let the games stay alike. A difference between variants is then
best measured game by game: the paired interval (Student t on the per-game
differences) removes the luck the two variants share. It is narrower than
the unpaired (Welch) interval of two independent samples, given alongside,
when a variant leaves the games alike for long (shifting tokens: about half
as wide) and about as wide when it changes them at once (Sleep Token); see
README "Paired comparisons".
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from analyses.study.model import RunConfig, StudyError
from analyses.stats.intervals import Estimate, mean_ci, sample_variance, welch_from_moments
from analyses.study.folder import finished_configs, has_games, read_manifest, scan_games, seat_totals, to_output
from analyses.tools.gameplay import as_game
from analyses.tools.seats import seat_spread, winning_score
from analyses.games import recorded_game
from simcore.games import Game, GameError

METRICS = ("seat_spread", "first_seat_win", "winning_score", "game_length")
# How every game's comparison table names and writes each metric (a rate in points of percent, or a mean).
METRIC_COLUMNS = {
    "seat_spread": {"label": "seat spread", "format": "pct"},
    "first_seat_win": {"label": "seat 1 wins", "format": "pct"},
    "winning_score": {"label": "winning score", "format": ".2f"},
    "game_length": {"label": "game length", "format": ".2f"},
}
# Per-game length columns a game may report, in the order they are looked for (Project Dreamscape's study
# rows call it "length", a game played through the generic study chunks "turns").
LENGTH_COLUMNS = ("length", "turns")


def folder_game(folder: str | Path) -> Game:
    """The game a study folder played (a folder that names none played the default game)."""
    return as_game(recorded_game(read_manifest(folder).meta.get("game")))


def canonical_variant(game: Game, players: int, text: str) -> str:
    """The game's canonical name of a variant text at ``players`` seats (the text itself when the game rejects it)."""
    try:
        return game.variant_name(game.parse_setup(players, text, None))
    except game.errors:
        return text


def comparison_variants(game: Game | str | None, players: int, variants: Sequence[str] | None = None,
                        baseline: str | None = None) -> list[str]:
    """The canonical variants a comparison plays at ``players`` seats, the baseline first, each once.

    ``variants`` None: the game picks them (its declared ``variants``; a game
    without them is a GameError naming the capability). ``baseline`` None: the
    first variant. Fewer than two different variants is a GameError.
    """
    the_game = as_game(game)
    if variants is None:
        the_game.need("variants", "compare")
        variants = the_game.variants(players)
    names = [the_game.variant_name(the_game.setup(players, v)) for v in variants]
    if baseline is not None:
        base = the_game.variant_name(the_game.setup(players, baseline))
        names = [base] + [n for n in names if n != base]
    names = list(dict.fromkeys(names))
    if len(names) < 2:
        raise GameError("compare needs at least two different variants")
    return names


def comparison_groups(folder: str | Path, baseline: str | None = None) -> list[tuple[RunConfig, list[RunConfig]]]:
    """(baseline config, other configs) for every players+strategies played in two or more variants.

    The baseline is ``baseline`` when given (groups without it are left out),
    else ``base`` when the group has it, else the group's first variant.
    Variants are matched by the folder's game's canonical names.
    """
    game = folder_game(folder)
    groups: dict[tuple, list[RunConfig]] = {}
    for c in finished_configs(folder):
        groups.setdefault((c.players, c.strategies), []).append(c)
    out = []
    for (players, _), members in groups.items():
        if len({c.variant for c in members}) < 2:
            continue
        names = [canonical_variant(game, players, c.variant) for c in members]
        if baseline:
            wanted = canonical_variant(game, players, baseline)
            if wanted not in names:
                continue
            base = members[names.index(wanted)]
        else:
            base = members[names.index("base")] if "base" in names else members[0]
        out.append((base, [c for c in members if c.id != base.id]))
    if baseline and not out:
        raise StudyError(f"{folder}: no configuration compares against baseline {baseline!r}")
    return out


def folder_metrics(folder: str | Path) -> tuple[str, ...]:
    """The metrics a study folder's games give: win-based always, length and winning score when reported.

    ``game_length`` needs a per-game length (:data:`LENGTH_COLUMNS`), ``winning_score``
    the winning-score sums of a game that reports scores (``sum_ws``).
    """
    columns = set(seat_totals(folder).columns)
    out = ["seat_spread", "first_seat_win"]
    if "sum_ws" in columns:
        out.append("winning_score")
    if length_column(columns) is not None:
        out.append("game_length")
    return tuple(m for m in METRICS if m in out)


def length_column(total_columns) -> str | None:
    """The per-game length column of a folder from its seat totals' columns (``sum_length`` -> ``length``)."""
    return next((c for c in LENGTH_COLUMNS if f"sum_{c}" in total_columns), None)


def _moments(rows: list[dict], metrics: Sequence[str], length: str | None) -> dict[str, tuple[float, float, float]]:
    """(sum, sum of squares, n) of every metric's per-game value, from one configuration's seat totals."""
    rows = sorted(rows, key=lambda r: r["seat"])
    first = rows[0]
    _, _, _, spread = seat_spread(rows) if len(rows) > 1 else (None, 0, 0, (0.0, 0.0, float(first["n"])))
    out = {
        "seat_spread": spread,
        "first_seat_win": (first["sum_win"], first["sum2_win"], float(first["n"])),
    }
    if "winning_score" in metrics:
        _, ws_total, ws_total2, ws_n = winning_score(rows)
        out["winning_score"] = (ws_total, ws_total2, ws_n)
    if length is not None:
        out["game_length"] = (first[f"sum_{length}"], first[f"sum2_{length}"], float(first["n"]))
    return out


def _per_game(folder, configs: list[RunConfig], seats: dict[str, tuple[int, int]], metrics: Sequence[str],
              length: str | None) -> dict[str, dict[str, np.ndarray]]:
    """Per-game metric values of each configuration (games in order), for paired differences."""
    scored = "winning_score" in metrics
    columns = ["game", "seat", "win"] + (["score", "aborted"] if scored else []) + ([length] if length else [])
    out = {}
    for c in configs:  # one configuration's rows at a time: memory stays at one configuration's games
        part = scan_games(folder, [c.id]).select(columns).collect().sort(["game", "seat"])
        p = c.players
        n = part.height // p
        win = part["win"].to_numpy().reshape(n, p)
        best, worst = seats[c.id]
        values = {
            "game": part["game"].to_numpy().reshape(n, p)[:, 0].copy(),
            "seat_spread": win[:, best] - win[:, worst],
            "first_seat_win": win[:, 0].copy(),
        }
        if scored:
            score = part["score"].to_numpy().astype(np.float64).reshape(n, p)
            aborted = part["aborted"].to_numpy().reshape(n, p)[:, 0]
            ws = (win * score).sum(axis=1)
            ws[aborted] = np.nan  # aborted games have no winner (R8.4)
            values["winning_score"] = ws
        if length is not None:
            values["game_length"] = part[length].to_numpy().astype(np.float64).reshape(n, p)[:, 0].copy()
        out[c.id] = values
        del part, win
    return out


def compare_variants(folder: str | Path, baseline: str | None = None, pandas: bool = False):
    """Each variant against the baseline, per players and strategies, for up to four metrics, for any game.

    The folder's game (its manifest) canonicalises the variants; the metrics
    are those its games give (:func:`folder_metrics`): the win-based ones from
    the seats' win credits always, ``game_length`` from the game's per-game
    length, ``winning_score`` when the game reports scores.

    Columns: players, strategies, baseline, variant, metric, baseline_value,
    variant_value, diff, diff_low, diff_high, unpaired_low, unpaired_high,
    paired, games, significant.

    Metrics: ``seat_spread`` (best seat's win rate minus the worst seat's; each
    variant keeps its own best and worst seat, the per-game contrast is the
    difference of those two seats' win credits), ``first_seat_win`` (seat 0's
    win rate), ``winning_score`` (the game's highest score, non-aborted games)
    and ``game_length`` (turns); solo groups get only the last two (those the game reports). With per-game rows ``baseline_value`` /
    ``variant_value`` are the means over the games both played (so
    ``variant_value - baseline_value == diff``; without them, over all games). With per-game rows, ``diff`` is the mean
    per-game difference (variant - baseline) over the games both played (the
    same game index = the same random stream), ``diff_low``/``diff_high`` its
    95% paired t interval and ``paired`` is True; ``games`` counts those
    games. ``unpaired_low``/``unpaired_high`` is Welch's interval of the same
    difference treating the two variants as independent samples. An
    ``--aggregate-only`` study has no per-game rows: ``diff`` is the difference
    of the values, its interval the unpaired one, ``paired`` is False.
    ``significant``: the reported interval excludes 0.
    """
    groups = comparison_groups(folder, baseline)
    if not groups:
        return to_output(pl.DataFrame(schema=_SCHEMA), pandas)
    totals = seat_totals(folder)
    metrics = folder_metrics(folder)
    length = length_column(totals.columns)
    by_config: dict[str, list[dict]] = {}
    for r in totals.iter_rows(named=True):
        by_config.setdefault(r["config"], []).append(r)
    paired = has_games(folder)
    every = {c.id: c for base, others in groups for c in (base, *others)}
    seats = {}
    for c in every.values():
        _, best, worst, _ = seat_spread(by_config[c.id]) if c.players > 1 else (None, 0, 0, None)
        seats[c.id] = (best, worst)
    games = _per_game(folder, list(every.values()), seats, metrics, length) if paired else {}
    rows = []
    for base, others in groups:
        moments = {c.id: _moments(by_config[c.id], metrics, length) for c in (base, *others)}
        for other in others:
            for metric in metrics:
                if metric in ("seat_spread", "first_seat_win") and base.players == 1:
                    continue  # solo: one seat, which always "wins"
                sa, s2a, na = moments[base.id][metric]
                sb, s2b, nb = moments[other.id][metric]
                va, vb = (sa / na if na else float("nan")), (sb / nb if nb else float("nan"))
                unpaired = welch_from_moments(vb, sample_variance(sb, s2b, nb), nb, va, sample_variance(sa, s2a, na), na)
                if paired:
                    # values over the games both played, so value - value = diff in every sentence quoting them
                    est, n, va, vb = _paired(games[base.id], games[other.id], metric)
                else:
                    est, n = unpaired, int(min(na, nb))
                rows.append({
                    "players": base.players, "strategies": base.label, "baseline": base.variant, "variant": other.variant,
                    "metric": metric, "baseline_value": va, "variant_value": vb, "diff": est.value,
                    "diff_low": est.low, "diff_high": est.high, "unpaired_low": unpaired.low, "unpaired_high": unpaired.high,
                    "paired": paired, "games": n, "significant": not (est.low <= 0.0 <= est.high),
                })
    return to_output(pl.DataFrame(rows, schema=_SCHEMA), pandas)


def _paired(a: dict[str, np.ndarray], b: dict[str, np.ndarray], metric: str) -> tuple[Estimate, int, float, float]:
    """Paired t estimate of mean(b - a) over the games both played, its n, and the two means over them."""
    common, ia, ib = np.intersect1d(a["game"], b["game"], assume_unique=True, return_indices=True)
    xa, xb = a[metric][ia], b[metric][ib]
    keep = ~(np.isnan(xa) | np.isnan(xb))
    xa, xb = xa[keep], xb[keep]
    if xa.size == 0:
        nan = float("nan")
        return Estimate(nan, nan, nan), 0, nan, nan
    return mean_ci(xb - xa), int(xa.size), float(xa.mean()), float(xb.mean())


_SCHEMA = {
    "players": pl.Int64, "strategies": pl.Utf8, "baseline": pl.Utf8, "variant": pl.Utf8, "metric": pl.Utf8,
    "baseline_value": pl.Float64, "variant_value": pl.Float64, "diff": pl.Float64, "diff_low": pl.Float64,
    "diff_high": pl.Float64, "unpaired_low": pl.Float64, "unpaired_high": pl.Float64, "paired": pl.Boolean,
    "games": pl.Int64, "significant": pl.Boolean,
}


def compare_decks(folders: Sequence[str | Path], labels: Sequence[str], pandas: bool = False):
    """Each deck against the first, per players, strategies and variant: the deck-against-deck comparison.

    ``folders[i]`` is the study folder that played deck ``labels[i]`` with the
    same seed, variants, players and bots as the others, so game ``g`` of every
    deck is dealt from the same random stream ``(seed, g)`` (:mod:`simcore.rng`)
    and the per-game differences are paired as :func:`compare_variants` pairs
    variants. Columns: those of :func:`compare_variants` (``baseline`` and
    ``variant`` name the two decks) plus ``rules``, the variant both decks
    played. Two folders of the same deck give a difference of exactly 0 on every
    game, hence a zero-width paired interval.
    """
    if len(folders) != len(labels) or len(folders) < 2:
        raise StudyError("compare_decks needs two or more deck folders, one label each")
    game = folder_game(folders[0])
    metrics = [m for m in folder_metrics(folders[0]) if all(m in folder_metrics(f) for f in folders[1:])]
    length = length_column(seat_totals(folders[0]).columns)
    keyed = []
    for folder in folders:
        by_key = {}
        for c in finished_configs(folder):
            by_key[(c.players, c.strategies, canonical_variant(game, c.players, c.variant))] = c
        keyed.append(by_key)
    rows = []
    for key, base in keyed[0].items():
        for folder, label, by_key in zip(folders[1:], labels[1:], keyed[1:]):
            other = by_key.get(key)
            if other is None:
                continue
            rows += _pair_rows((folders[0], base), (folder, other), labels[0], label, metrics, length)
    schema = {**_SCHEMA, "rules": pl.Utf8}
    return to_output(pl.DataFrame(rows, schema=schema), pandas)


def _pair_rows(base: tuple[Path, RunConfig], other: tuple[Path, RunConfig], base_label: str, other_label: str,
               metrics: Sequence[str], length: str | None) -> list[dict]:
    """The rows of one configuration of one folder against one of another folder (same players and bots)."""
    config_rows, moments, values = {}, {}, {}
    paired = has_games(base[0]) and has_games(other[0])
    for side, (folder, c) in (("a", base), ("b", other)):
        config_rows[side] = [r for r in seat_totals(folder).iter_rows(named=True) if r["config"] == c.id]
        _, best, worst, _ = seat_spread(config_rows[side]) if c.players > 1 else (None, 0, 0, None)
        moments[side] = _moments(config_rows[side], metrics, length)
        if paired:
            values[side] = _per_game(folder, [c], {c.id: (best, worst)}, metrics, length)[c.id]
    out = []
    for metric in metrics:
        if metric in ("seat_spread", "first_seat_win") and base[1].players == 1:
            continue  # solo: one seat, which always "wins"
        sa, s2a, na = moments["a"][metric]
        sb, s2b, nb = moments["b"][metric]
        va, vb = (sa / na if na else float("nan")), (sb / nb if nb else float("nan"))
        unpaired = welch_from_moments(vb, sample_variance(sb, s2b, nb), nb, va, sample_variance(sa, s2a, na), na)
        if paired:
            est, n, va, vb = _paired(values["a"], values["b"], metric)
        else:
            est, n = unpaired, int(min(na, nb))
        out.append({
            "players": base[1].players, "strategies": base[1].label, "baseline": base_label, "variant": other_label,
            "metric": metric, "baseline_value": va, "variant_value": vb, "diff": est.value,
            "diff_low": est.low, "diff_high": est.high, "unpaired_low": unpaired.low, "unpaired_high": unpaired.high,
            "paired": paired, "games": n, "significant": not (est.low <= 0.0 <= est.high), "rules": base[1].variant,
        })
    return out
