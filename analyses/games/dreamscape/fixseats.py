"""Seat compensation search (``dreamscape fix-seats``): the smallest rules change that evens the seats.

The search space is rules knobs of :data:`simcore.games.dreamscape.rules.KNOBS`, in families
(:data:`FAMILIES`, chosen with ``search``): ``seats`` (start-z and bonus per seat, z-penalty,
max-buys, remove; the default), ``costs`` (R2.3: each position's cost within 2 of its printed
value), ``chain`` (R8.2: the points of runs of 2 to 6 cards, never falling) and ``copies`` (R1.3:
the copies of one card of the deck file, 0 to 3). Optuna's TPE sampler
(seeded, so a run is reproducible) proposes settings; each trial plays
``games`` games of the knob variant with the bot on every seat, on the same
deals every trial (common random numbers: settings are compared on equal
luck), and scores

* feasible (seat spread <= target and mean game length within +-10% of the
  unmodified game's): the size of the change, the number of knob values
  moved off the rulebook plus a tenth of how far they moved, so the search
  prefers the fewest and smallest changes;
* infeasible: 100 + the spread's excess over the target (points) + 100 x
  the length's excess beyond +-10%, so it still steers towards feasibility.

The best distinct feasible settings (fewest changes first), and the
unmodified game, are then re-verified on fresh deals (another seed) as a
study in the output folder (:func:`analyses.study.studyfile.run_plan`); the
"Suggested fixes" table (:func:`fixes_table`) reads their seat win rates
(Wilson intervals) and lengths (t intervals) from it. The seat spread's
interval is a normal interval for the difference of the top and bottom
seats' win rates with the covariance of one game's exclusive win credits
(-p_i p_j); it ignores that the two seats were picked as the extremes.

The bots judge positions by the printed score (see :mod:`simcore.games.dreamscape.bots.restricted`
and README): z-penalty and bonus change who wins, not how the bots play.
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl

from analyses.stats.intervals import Z_95
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.cards import card_code
from simcore.games.dreamscape.decks import default_spec
from simcore.games.dreamscape.rules import DEFAULT_COSTS, KNOBS, RULEBOOK_CHAIN
from simcore.games.dreamscape.variants import parse_variant

FIXES_FILE = "fixseats.parquet"
FIXES_META = "fixseats.json"
LENGTH_TOLERANCE = 0.10  # mean game length within +-10% of the unmodified game
VERIFY_SEED_OFFSET = 1_000_003  # fresh deals for the verification (a different seed)
MAX_BUYS_CHOICES = (0, 1, 2, 3)  # 0 = no limit (the rulebook)
SEARCH_RANGES = {"start_z": (0, 3), "bonus": (0, 10), "z_penalty": (0, 3), "removed": (0, 12)}
# The knob families fix-seats can search (--search), "seats" the former whole space and the default.
FAMILIES = ("seats", "costs", "chain", "copies")
COST_REACH = 2  # costs: each position within 2 of its printed cost (R2.3), and 1..10 (the knob's range)
CHAIN_RUNS = (2, 3, 4, 5, 6)  # chain: the runs whose points are searched; longer runs keep R8.2's steps
CHAIN_FIRST = (0, 6)  # points of a run of 2
CHAIN_STEP = (0, 4)  # then each longer run adds 0..4 (never falling, R8.2)
COPIES_RANGE = (0, 3)  # copies: the searched card's copies (the printed deck has 1 or 2, R1.3)
NO_CARD = "none"


def parse_search(text: str | None) -> tuple[str, ...]:
    """``--search`` as knob families, in :data:`FAMILIES` order; ``all`` is every family; raises ValueError in one line.

    The message starts after the parameter's name (the lab puts ``search`` or ``--search`` before it).
    """
    if text is None or not str(text).strip():
        return ("seats",)
    names = [t.strip() for t in str(text).split(",") if t.strip()]
    if names == ["all"]:
        return FAMILIES
    unknown = [n for n in names if n not in FAMILIES]
    if unknown or not names:
        raise ValueError(f"{text!r}: unknown knob family {unknown[0] if unknown else text!r} "
                         f"(known: {', '.join(FAMILIES)}, or all)")
    return tuple(f for f in FAMILIES if f in names)


def check_search(families: tuple[str, ...], base: str) -> None:
    """Refuse a family the base variant fixes (ValueError, one line): the costs with shifting-tokens (R6.8's variant)."""
    if "costs" in families and parse_variant(base).options.shifting_tokens:
        raise ValueError(f"costs with the variant {base}: shifting-tokens moves the printed cost tokens "
                         "(R6.8); a knob combined with a variant that fixes the same number")


def copy_cards() -> list[str]:
    """The cards the copies family may change: the default deck file's base cards (R1.3), by code."""
    return [card_code(card) for card, _ in default_spec().base]


def _printed_copies(code: str) -> int:
    return next(n for card, n in default_spec().base if card_code(card) == code)


def searched_costs(params: dict) -> tuple[int, ...]:
    return tuple(params.get(f"cost_{p}", DEFAULT_COSTS[p - 1]) for p in range(1, 6))


def searched_chain(params: dict) -> tuple[int, ...]:
    """Points of runs 2..6 from the chain family's parameters (the printed chart without them)."""
    if "chain_2" not in params:
        return RULEBOOK_CHAIN[: len(CHAIN_RUNS)]
    points = [params["chain_2"]]
    for length in CHAIN_RUNS[1:]:
        points.append(points[-1] + params[f"chain_step_{length}"])
    return tuple(points)


def base_variant(setup) -> str:
    """The variant ``fix-seats`` starts from: one without knobs (the search sets them), else one line."""
    from simcore.games import GameError

    if setup.variant.options.has_knobs:
        raise GameError(f"--variant {setup.variant.name}: give the game without knobs; fix-seats searches the knobs")
    return setup.variant.name


def knob_tokens(params: dict, players: int) -> list[str]:
    """Optuna's parameters as variant tokens (knobs at their defaults are left out)."""
    start = [params.get(f"start_z_{s}", 1) for s in range(players)]
    bonus = [0] + [params.get(f"bonus_{s}", 0) for s in range(1, players)]
    tokens = []
    if any(v != 1 for v in start):
        tokens.append("knob:start-z=" + ",".join(map(str, start)))
    if any(bonus):
        tokens.append("knob:bonus=" + ",".join(map(str, bonus)))
    if params.get("z_penalty", 1) != 1:
        tokens.append(f"knob:z-penalty={params['z_penalty']}")
    if params.get("max_buys", 0):
        tokens.append(f"knob:max-buys={params['max_buys']}")
    if params.get("removed", 0):
        tokens.append(f"knob:remove={params['removed']}")
    costs = searched_costs(params)
    if costs != DEFAULT_COSTS:
        tokens.append("knob:costs=" + ",".join(map(str, costs)))
    chain = searched_chain(params)
    if chain != RULEBOOK_CHAIN[: len(CHAIN_RUNS)]:
        tokens.append("knob:chain=" + ",".join(map(str, chain)))
    card = params.get("copies_card", NO_CARD)
    if card != NO_CARD and params["copies_n"] != _printed_copies(card):
        tokens.append(f"knob:copies={card}:{params['copies_n']}")
    return tokens


def with_knobs(base_variant: str, tokens: list[str]) -> str:
    """The canonical variant name of ``base_variant`` plus knob tokens."""
    base = parse_variant(base_variant).name
    text = "+".join(([] if base == "base" else [base]) + tokens) or "base"
    return parse_variant(text).name


def change_size(params: dict, players: int) -> float:
    """Knob values moved off the rulebook, plus a tenth of how far they moved."""
    defaults = {k.field: k.default for k in KNOBS}
    moved, distance = 0, 0.0
    for s in range(players):
        d = abs(params.get(f"start_z_{s}", 1) - 1)
        moved, distance = moved + (d > 0), distance + d
    for s in range(1, players):
        d = params.get(f"bonus_{s}", 0)
        moved, distance = moved + (d > 0), distance + d
    for field in ("z_penalty", "removed"):
        d = abs(params.get(field, defaults[field]) - defaults[field])
        moved, distance = moved + (d > 0), distance + d
    if params.get("max_buys", 0):
        moved, distance = moved + 1, distance + (6 - params["max_buys"])  # a tighter limit is a bigger change
    # A chain change counts the run-of-2 points and each step moved (chain=3 raises every run by 1: one change).
    printed_chain = [RULEBOOK_CHAIN[0]] + [RULEBOOK_CHAIN[i + 1] - RULEBOOK_CHAIN[i] for i in range(len(CHAIN_RUNS) - 1)]
    chain = searched_chain(params)
    chain_moves = [chain[0]] + [chain[i + 1] - chain[i] for i in range(len(CHAIN_RUNS) - 1)]
    for new, old in [*zip(searched_costs(params), DEFAULT_COSTS), *zip(chain_moves, printed_chain)]:
        moved, distance = moved + (new != old), distance + abs(new - old)
    card = params.get("copies_card", NO_CARD)
    if card != NO_CARD:
        d = abs(params["copies_n"] - _printed_copies(card))
        moved, distance = moved + (d > 0), distance + d
    return moved + 0.1 * distance


def measure(variant: str, players: int, strategy: str, games: int, seed: int, chunk_size: int = 500) -> dict:
    """Seat win rates, spread (points) and mean length of ``games`` games of ``variant``."""
    v = parse_variant(variant)
    r = simulate(SimConfig(players, v.options, v.deck()), games, seed, strategy, chunk_size=chunk_size)
    rates = r.win.mean(axis=0)
    return {"rates": rates, "spread": 100.0 * float(rates.max() - rates.min()), "length": float(r.length.mean())}


def search(
    players: int,
    variant: str = "base",
    strategy: str = "expert",
    target: float = 5.0,
    trials: int = 40,
    games: int = 1000,
    seed: int = 1,
    progress: Callable[[int, dict], None] | None = None,
    families: tuple[str, ...] = ("seats",),
) -> tuple[dict, list[dict]]:
    """Optuna search over the knob ``families``; returns (the unmodified game's measure, every trial as a dict, best first).

    Each trial dict: variant, params, spread, length, length_ratio, feasible, change, objective.
    """
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    base = measure(variant, players, strategy, games, seed)
    trials_out: list[dict] = []

    def objective(trial) -> float:
        params = {}
        if "seats" in families:
            for s in range(players):
                params[f"start_z_{s}"] = trial.suggest_int(f"start_z_{s}", *SEARCH_RANGES["start_z"])
            for s in range(1, players):  # seat 1's bonus stays 0: adding the same to every seat changes nothing
                params[f"bonus_{s}"] = trial.suggest_int(f"bonus_{s}", *SEARCH_RANGES["bonus"])
            params["z_penalty"] = trial.suggest_int("z_penalty", *SEARCH_RANGES["z_penalty"])
            params["max_buys"] = trial.suggest_categorical("max_buys", MAX_BUYS_CHOICES)
            params["removed"] = trial.suggest_int("removed", *SEARCH_RANGES["removed"])
        if "costs" in families:
            for p, printed in enumerate(DEFAULT_COSTS, start=1):
                params[f"cost_{p}"] = trial.suggest_int(f"cost_{p}", max(1, printed - COST_REACH), printed + COST_REACH)
        if "chain" in families:
            params["chain_2"] = trial.suggest_int("chain_2", *CHAIN_FIRST)
            for length in CHAIN_RUNS[1:]:
                params[f"chain_step_{length}"] = trial.suggest_int(f"chain_step_{length}", *CHAIN_STEP)
        if "copies" in families:
            params["copies_card"] = trial.suggest_categorical("copies_card", [NO_CARD, *copy_cards()])
            params["copies_n"] = trial.suggest_int("copies_n", *COPIES_RANGE)
        name = with_knobs(variant, knob_tokens(params, players))
        m = measure(name, players, strategy, games, seed)
        ratio = m["length"] / base["length"]
        length_excess = max(0.0, abs(ratio - 1.0) - LENGTH_TOLERANCE)
        feasible = m["spread"] <= target and length_excess == 0.0
        size = change_size(params, players)
        value = size if feasible else 100.0 + max(0.0, m["spread"] - target) + 100.0 * length_excess
        row = {"variant": name, "params": params, "spread": m["spread"], "length": m["length"],
               "length_ratio": ratio, "feasible": feasible, "change": size, "objective": value}
        trials_out.append(row)
        if progress is not None:
            progress(games, row)
        return value

    # multivariate: the seats' knobs act together (a bonus for seat 3 matters with seat 1's start-z)
    sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(20, trials), multivariate=True)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    # The printed game first: it is the smallest change, and feasible when the game is already fair enough.
    printed: dict = {}
    if "seats" in families:
        printed |= ({f"start_z_{s}": 1 for s in range(players)} | {f"bonus_{s}": 0 for s in range(1, players)}
                    | {"z_penalty": 1, "max_buys": 0, "removed": 0})
    if "costs" in families:
        printed |= {f"cost_{p}": c for p, c in enumerate(DEFAULT_COSTS, start=1)}
    if "chain" in families:
        printed |= {"chain_2": RULEBOOK_CHAIN[0]} | {
            f"chain_step_{n}": RULEBOOK_CHAIN[i + 1] - RULEBOOK_CHAIN[i] for i, n in enumerate(CHAIN_RUNS[1:])}
    if "copies" in families:
        printed |= {"copies_card": NO_CARD, "copies_n": 1}
    study.enqueue_trial(printed)
    study.optimize(objective, n_trials=trials)
    return base, sorted(trials_out, key=lambda r: (r["objective"], r["spread"]))


def best_candidates(trials: list[dict], k: int) -> list[str]:
    """The ``k`` best distinct variants (feasible first, fewest changes first)."""
    out: list[str] = []
    for r in trials:
        if r["variant"] not in out:
            out.append(r["variant"])
        if len(out) == k:
            break
    return out


def spread_interval(rates: list[float], n: int) -> tuple[float, float, float]:
    """Spread (top - bottom seat win rate) and its 95% normal interval, in rates (see module doc)."""
    hi, lo = max(rates), min(rates)
    var = (hi * (1 - hi) + lo * (1 - lo) + 2 * hi * lo) / max(n, 1)
    half = Z_95 * math.sqrt(var)
    return hi - lo, hi - lo - half, hi - lo + half


def fixes_table(folder: str | Path, baseline: str, candidates: list[str], target: float) -> pl.DataFrame:
    """The "Suggested fixes" table from the verification study in ``folder``: one row per seat per variant."""
    from analyses.games.dreamscape.balance import game_lengths, seat_advantage

    seats = seat_advantage(folder)
    lengths = game_lengths(folder)
    base_len = lengths.filter(pl.col("variant") == baseline).row(0, named=True)
    rows = []
    for rank, name in enumerate([baseline, *candidates]):
        part = seats.filter(pl.col("variant") == name).sort("seat")
        if part.height == 0:
            continue
        n = int(part["games"][0])
        spread, s_low, s_high = spread_interval(part["win_rate"].to_list(), n)
        ln = lengths.filter(pl.col("variant") == name).row(0, named=True)
        for r in part.iter_rows(named=True):
            rows.append({
                "candidate": rank, "variant": name, "players": r["players"], "strategy": r["strategy"],
                "seat": r["seat"] + 1, "games": n,
                "win_rate": r["win_rate"], "win_low": r["win_low"], "win_high": r["win_high"],
                "spread": spread, "spread_low": s_low, "spread_high": s_high, "target": target / 100.0,
                "meets_target": spread <= target / 100.0,
                "mean_length": ln["mean_length"], "length_low": ln["length_low"], "length_high": ln["length_high"],
                "base_length": base_len["mean_length"], "length_change": ln["mean_length"] / base_len["mean_length"] - 1.0,
            })
    return pl.DataFrame(rows)


def save_fixes(folder: str | Path, frame: pl.DataFrame, meta: dict) -> Path:
    """Keep the table (and how it was made) in the study folder; returns the table's path."""
    folder = Path(folder)
    path = folder / FIXES_FILE
    frame.write_parquet(path)
    (folder / FIXES_META).write_text(json.dumps(meta, indent=2, default=_plain) + "\n")
    return path


def load_fixes(folder: str | Path) -> pl.DataFrame | None:
    """The suggested-fixes table kept in a study folder, or None."""
    path = Path(folder) / FIXES_FILE
    return pl.read_parquet(path) if path.is_file() else None


def _plain(x):
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(type(x).__name__)
