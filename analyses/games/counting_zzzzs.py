"""Counting Zzzzs balance questions (issue #28): tables with 95% intervals from per-game results.

Every function takes ``rows``, the study's per-game rows (one row per game and seat, as
``analyses.study.gamechunks.game_rows_frame`` writes them: ``config``, ``game``, ``seat``, ``strategy``, ``win``
and every array of :func:`simcore.games.counting_zzzzs.play.play_games` as columns: ``turns``, ``end``,
``score``, ``dreams``, ``dream_elements``, ``woke_0..3``, ``played_0..3``, ``blocked_0..3``,
``element_scored_0..E-1``), and ``configs``, one row per configuration: ``config`` (its id), ``variant``,
``players``, ``strategies`` (list of str, one per seat). :func:`frame_of_results` builds both from
play_games dicts directly.

Intervals come from the lab's one statistics module (:mod:`analyses.stats.intervals`), as every game's:
Wilson's interval for proportions, Student's t for means and for paired differences (restricted play,
same deal on the same game index), Welch's t for the difference of two independent groups (card
attribution).
"""
from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import polars as pl

from analyses.games import LabWing
from analyses.stats.intervals import mean_ci, unpaired_difference, wilson
from analyses.study.folder import check_study
from analyses.study.model import StudyError
from simcore.games.counting_zzzzs import GAME
from simcore.games.counting_zzzzs.cards import load_cards, read_cards
from simcore.games.counting_zzzzs.common import ACTION_TYPES, RULEBOOK_REMOVED
from simcore.games.counting_zzzzs.config import removed_in


def frame_of_results(results: list[tuple[dict, str, int, list[str]]],
                     elements: bool = True) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(rows, configs) from ``(play_games result, variant, players, strategies)`` tuples (tests, scripts).

    ``elements=False`` leaves out the ``element_scored_i`` columns (one per element card: most of a row),
    for configurations whose card attribution is not asked; counts are kept as int16."""
    from simcore.games.counting_zzzzs import Setup, seat_wins

    frames, meta = [], []
    for i, (result, variant, players, strategies) in enumerate(results):
        config = f"{variant}__{players}p__{'-'.join(strategies)}__{i}"
        n = result["game"].shape[0]
        win = seat_wins(result, Setup(players))
        cols: dict[str, object] = {"config": [config] * (n * players),
                                   "game": np.repeat(result["game"], players),
                                   "seat": np.tile(np.arange(players, dtype=np.int8), n),
                                   "strategy": list(np.tile(np.array(strategies, dtype=object), n)),
                                   "win": win.reshape(-1)}
        for key, a in result.items():
            if key in ("game", "win") or (key == "element_scored" and not elements):
                continue
            a = np.asarray(a)
            if a.ndim == 1:
                cols[key] = np.repeat(a, players).astype(np.int16)
            elif a.ndim == 2:
                cols[key] = a.reshape(-1).astype(np.int16)
            else:
                for j in range(a.shape[2]):
                    cols[f"{key}_{j}"] = a[:, :, j].reshape(-1).astype(np.int16)
        frames.append(pl.DataFrame(cols))
        meta.append({"config": config, "variant": variant, "players": players, "strategies": list(strategies)})
    return pl.concat(frames, how="diagonal"), pl.DataFrame(meta)


def _with_meta(rows: pl.DataFrame, configs: pl.DataFrame) -> pl.DataFrame:
    return rows.join(configs.select("config", "variant", "players", "strategies"), on="config", how="inner")


def _removed(variant: str, players: int) -> int:
    return removed_in(variant, players)


def first_player(rows: pl.DataFrame, configs: pl.DataFrame) -> pl.DataFrame:
    """Seat 1's win share against the fair 1/players, per configuration where every seat plays one bot."""
    out = []
    for c in configs.iter_rows(named=True):
        if len(set(c["strategies"])) != 1:
            continue
        r = rows.filter((pl.col("config") == c["config"]) & (pl.col("seat") == 0))
        if r.height == 0:
            continue
        rate, lo, hi = wilson(float(r["win"].sum()), r.height)
        p = c["players"]
        out.append({"players": p, "variant": c["variant"], "bot": c["strategies"][0], "games": r.height,
                    "seat1_win": rate, "low": lo, "high": hi, "fair": 1 / p, "advantage": rate - 1 / p,
                    "advantage_low": lo - 1 / p, "advantage_high": hi - 1 / p})
    return pl.DataFrame(out)


def game_shape(rows: pl.DataFrame, configs: pl.DataFrame) -> pl.DataFrame:
    """Per configuration (one bot on every seat): Wake Ups removed, game length in turns and rounds
    (turns / players), dream length (elements per ended dream) and the share of games ended at 40
    points (else morning), each with its interval."""
    out = []
    for c in configs.iter_rows(named=True):
        if len(set(c["strategies"])) != 1:
            continue
        g = rows.filter(pl.col("config") == c["config"])
        if g.height == 0:
            continue
        p = c["players"]
        # sorted by game: group_by's own order varies from run to run, and the means below would then
        # add the same numbers in another order (another last digit)
        per_game = g.group_by("game").agg(pl.col("turns").first(), pl.col("end").first(),
                                          pl.col("dreams").sum(), pl.col("dream_elements").sum()).sort("game")
        turns = per_game["turns"].to_numpy()
        t, tlo, thi = mean_ci(turns)
        length = per_game["dream_elements"].to_numpy() / np.maximum(per_game["dreams"].to_numpy(), 1)
        d, dlo, dhi = mean_ci(length)
        f, flo, fhi = wilson(float((per_game["end"].to_numpy() == 1).sum()), per_game.height)
        out.append({"players": p, "variant": c["variant"], "removed": _removed(c["variant"], p),
                    "rulebook": _removed(c["variant"], p) == RULEBOOK_REMOVED[p], "bot": c["strategies"][0],
                    "games": per_game.height, "turns": t, "turns_low": tlo, "turns_high": thi,
                    "rounds": t / p, "rounds_low": tlo / p, "rounds_high": thi / p,
                    "dream_length": d, "dream_length_low": dlo, "dream_length_high": dhi,
                    "forty_share": f, "forty_low": flo, "forty_high": fhi})
    return pl.DataFrame(out)


def balance_rule(shape: pl.DataFrame, bot: str = "greedy") -> pl.DataFrame:
    """Does the rulebook's removal (4 / 2 / 0 Wake Ups with 2 / 3 / 4 players) even out the player counts?

    For every removal policy the table of :func:`game_shape` can form (the rulebook's, and the same N for
    every count), the spread (largest minus smallest across player counts) of rounds and of dream length;
    a smaller spread evens them out more. ``shape`` must hold every player count for each policy.
    """
    s = shape.filter(pl.col("bot") == bot)
    counts = sorted(set(s["players"].to_list()))
    policies = {"rulebook": {p: RULEBOOK_REMOVED[p] for p in counts}}
    for n in sorted(set(s["removed"].to_list())):
        policies[f"remove {n} always"] = {p: n for p in counts}
    out = []
    for name, policy in policies.items():
        picked = [s.filter((pl.col("players") == p) & (pl.col("removed") == n)) for p, n in policy.items()]
        if any(x.height == 0 for x in picked):
            continue
        rounds = [x["rounds"][0] for x in picked]
        dreams = [x["dream_length"][0] for x in picked]
        out.append({"policy": name, "removed": " / ".join(str(policy[p]) for p in counts),
                    "rounds": " / ".join(f"{r:.1f}" for r in rounds), "rounds_spread": max(rounds) - min(rounds),
                    "dream_length": " / ".join(f"{d:.2f}" for d in dreams),
                    "dream_length_spread": max(dreams) - min(dreams)})
    return pl.DataFrame(out).sort("rounds_spread") if out else pl.DataFrame(out)


def action_kinds(rows: pl.DataFrame, configs: pl.DataFrame) -> pl.DataFrame:
    """Restricted play: how much a seat loses when its bot never plays one action kind (BOT/no-ACTION).

    Paired on the game index against the configuration where every seat plays BOT (same deal): the mean of
    the per-game difference of that seat's win credit, with its interval, per action kind and player count
    (seats pooled: the mean over seats of each seat's paired difference).
    """
    out = []
    meta = list(configs.iter_rows(named=True))
    for c in meta:
        restricted = [(s, x) for s, x in enumerate(c["strategies"]) if "/no-" in x]
        if len(restricted) != 1:
            continue
        seat, spec = restricted[0]
        bot, action = spec.split("/no-")[0], spec.split("/no-")[1]
        base = [b for b in meta if b["players"] == c["players"] and b["variant"] == c["variant"]
                and b["strategies"] == [bot] * c["players"]]
        if not base or action not in ACTION_TYPES:
            continue
        a = rows.filter((pl.col("config") == c["config"]) & (pl.col("seat") == seat)).select("game", "win")
        b = rows.filter((pl.col("config") == base[0]["config"]) & (pl.col("seat") == seat)).select("game", "win")
        both = a.join(b, on="game", suffix="_full")
        out.append({"players": c["players"], "action": action, "seat": seat + 1,
                    "diff": (both["win"] - both["win_full"]).to_numpy()})
    table = []
    for (p, action), group in _group(out, ("players", "action")).items():
        diffs = np.concatenate([g["diff"] for g in group])
        m, lo, hi = mean_ci(diffs)
        table.append({"players": p, "action": action, "seat_games": diffs.size, "win_change": m, "low": lo,
                      "high": hi})
    return pl.DataFrame(table).sort(["players", "win_change"]) if table else pl.DataFrame(table)


def _group(items: list[dict], keys: tuple[str, ...]) -> dict:
    out: dict = {}
    for item in items:
        out.setdefault(tuple(item[k] for k in keys), []).append(item)
    return out


def element_cards(rows: pl.DataFrame, names: list[str], min_seats: int = 30) -> pl.DataFrame:
    """Card attribution: for each element card, the win rate of seats that scored it in a dream against
    those that did not (same configurations pooled), the difference with its interval, and how often it
    is scored. Cards scored by fewer than ``min_seats`` seat-games are left out."""
    out = []
    for i, name in enumerate(names):
        col = f"element_scored_{i}"
        if col not in rows.columns:
            continue
        sub = rows.filter(pl.col(col).is_not_null())          # configurations that kept the card columns
        win = sub["win"].to_numpy()
        had = sub[col].to_numpy() > 0
        k = int(had.sum())
        if k < min_seats or had.size - k < min_seats:
            continue
        w1, w0 = win[had], win[~had]
        diff, low, high = unpaired_difference(w1, w0)
        out.append({"card": name, "scored_share": k / had.size, "win_with": float(w1.mean()),
                    "win_without": float(w0.mean()), "difference": diff, "low": low, "high": high})
    return pl.DataFrame(out).sort("difference", descending=True) if out else pl.DataFrame(out)


def bot_strength(rows: pl.DataFrame, configs: pl.DataFrame) -> pl.DataFrame:
    """Mixed tables: each bot's win share in each seat against the fair 1/players, with its interval."""
    out = []
    for c in configs.iter_rows(named=True):
        if len(set(c["strategies"])) == 1 or any("/no-" in s for s in c["strategies"]):
            continue
        for seat, bot in enumerate(c["strategies"]):
            r = rows.filter((pl.col("config") == c["config"]) & (pl.col("seat") == seat))
            rate, lo, hi = wilson(float(r["win"].sum()), r.height)
            out.append({"players": c["players"], "table": " / ".join(c["strategies"]), "seat": seat + 1,
                        "bot": bot, "games": r.height, "win": rate, "low": lo, "high": hi,
                        "fair": 1 / c["players"]})
    return pl.DataFrame(out)


def training_status(setup, bot: str):
    """Counting Zzzzs' bots fit nothing to a rule set, and read every rule number from the position: random is
    uniform; greedy scores each option by the change it makes to every dream's worth with the goal, the
    dream sizes and the hand as set (Z17.1; the knobs of Z2.3, Z8.1, Z14.1, Z15.1 are read from the state, not
    the printed numbers); search@K samples the hidden cards and plays them out with greedy. Rule-aware."""
    from simcore.games import TrainingStatus

    what = {"random": "uniform over the legal choices", "greedy": "scores options with the rule numbers as set",
            "search": "samples the hidden cards, greedy playouts of the rules as set"}
    return TrainingStatus("rule-aware", what.get(bot.partition("@")[0].partition("/")[0], "reads the position")
                          + "; nothing fitted")


def printed_game():
    """What a designer may change of the printed game: every rules knob of its numbers table (docs/guide/knobs.md,
    :mod:`simcore.games.counting_zzzzs.numbers`; Z2.2, Z2.3, Z8.1, Z14.1, Z15.1) and its card file (``cards.toml``, which ``--cards`` replaces)."""
    from analyses.games import PrintedParts, rules_knobs
    from simcore.games.counting_zzzzs.common import CARDS_FILE
    from simcore.games.counting_zzzzs.numbers import rulebook_numbers

    knobs = rules_knobs((n.status.removeprefix("knob:"), n.rule, n.what, n.value, n.range, n.meaning)
                        for n in rulebook_numbers() if n.status.startswith("knob:"))
    return PrintedParts(knobs, CARDS_FILE)


# Counting Zzzzs' lab wing (the entry-point group dreamscape.games): its game, found by the lab's registry.
# Every step of the lab's commands is the generic one; its report is registered like every game's
# (the entry-point group dreamscape.reports).
# --------------------------------------------------------------------------- a study folder's report tables


def read_counting_zzzzs(folder) -> tuple[pl.DataFrame, pl.DataFrame, list[str], object, str | None]:
    """A checked Counting Zzzzs study folder's per-game rows, configurations, element card names, manifest and card text."""
    folder = Path(folder)
    manifest = check_study(folder)   # every chunk as recorded, or one line
    text = manifest.meta.get("cards")
    cards = read_cards(tomllib.loads(text), "the study's card file") if text else load_cards(None)
    names = [n for n, e in zip(cards.names, cards.element) if e]
    configs, frames = [], []
    for c in manifest.configs:
        files = sorted((folder / "chunks" / c.id).glob("games-*.parquet"))
        if not files:
            continue
        # a card's column only ever asks "did this seat score it?" (element_cards): one bit instead of a
        # 32-bit count keeps a full study's 2 million seat rows x one column per element card under 1 GB
        frames.append(pl.concat([pl.read_parquet(f).with_columns(pl.col(r"^element_scored_\d+$") > 0)
                                 for f in files], how="diagonal"))
        configs.append({"config": c.id, "variant": c.variant, "players": c.players, "strategies": list(c.strategies)})
    if not frames:
        raise StudyError(f"{folder}: no per-game rows (a study kept with --aggregate-only has none to analyse)")
    return pl.concat(frames, how="diagonal"), pl.DataFrame(configs), names, manifest, text


def counting_zzzzs_tables(rows: pl.DataFrame, configs: pl.DataFrame, names: list[str]) -> dict[str, pl.DataFrame]:
    """Every table of a Counting Zzzzs report (:mod:`analyses.games.counting_zzzzs`); seats counted from 1."""
    shape = game_shape(rows, configs)
    base = configs.filter(pl.col("variant") == "base")["config"].to_list()
    return {"first_player": first_player(rows, configs.filter(pl.col("variant") == "base")),
            "game_shape": shape, "balance_rule": balance_rule(shape),
            "action_kinds": action_kinds(rows, configs),
            "element_cards": element_cards(rows.filter(pl.col("config").is_in(base)), names),
            "bot_strength": bot_strength(rows, configs)}


def report_tables(folder) -> dict:
    """Every table of a study folder's report, seats counted from 1 (``lab.open_study(folder).tables``)."""
    rows, configs, names, _, _ = read_counting_zzzzs(folder)
    return counting_zzzzs_tables(rows, configs, names)


def charts():
    """Counting Zzzzs' charts of the Python API (matplotlib is loaded only when a chart is asked for)."""
    from analyses.games import counting_zzzzs_plot

    return counting_zzzzs_plot


def figures(tables) -> dict:
    """Every chart of the report from :func:`report_tables`, by page in report order."""
    return charts().figures(tables)


# Counting Zzzzs' lab wing (the entry-point group dreamscape.games): its game, found by the lab's registry.
# Every step of the lab's commands is the generic one but its charts and report tables; its report is
# registered like every game's (the entry-point group dreamscape.reports).
WING = LabWing(game=GAME, training_status=training_status, charts=charts, report_tables=report_tables,
               figures=figures, printed_game=printed_game)
