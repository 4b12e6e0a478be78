"""Pleasant Dreams' balance analyses of a study folder, every rate with its 95% interval.

What a study folder of ``dreamscape study --game pleasant-dreams`` holds is read
back from its configurations (variant and strategies), whatever file made it:

* **first player**: 2-player games with one bot on both seats: seat 1's win
  rate (Wilson interval) against a fair 50%;
* **action cards** (restricted play, Jaffe et al. 2012): a seat of ``BOT/no-ACTION``
  against ``BOT`` on the same deals as the ``BOT`` vs ``BOT`` games: the win rate
  the card is worth to the seat (paired by game, both seats pooled);
* **holding** (Lucid Dreams games): the win rate of a seat dealt the card against
  one not dealt it (Welch interval: different games);
* **expansion**: the same bot in base and Lucid Dreams games (paired by game):
  seat 1's win rate and the game length;
* **difficulty**: the starting wakefulness 1..4, solo (the chance of staying asleep;
  difficulty is a solo rule, P2.2) and, labelled as a variant the rulebook does not
  define, 2 players with both seats starting there (seat 1's rate, length);
* **solo challenge**, two readings of "How many action cards do you need if you
  start on a wakefulness of 4?" (P7.3, P7.5): N random cards of the 16 (the study's
  ``start=4+actions=N`` configurations) and, as the rulebook asks, the best N cards
  chosen by the player (``solo_choice.json``, :func:`write_solo_choice`: every set
  searched, the best measured on other deals);
* **solver**: ``solver_gap.json``, written by the study (:func:`write_solver_gap`).

Every function returns plain row dicts (what ``--json`` prints).
"""
from __future__ import annotations

import dataclasses
import json
import math
import sys
from pathlib import Path

import numpy as np
import polars as pl

from analyses.games import LabWing, extension_loaders
from analyses.study.gamechunks import load_game
from analyses.study.model import GameDeal, StudyError
from analyses.stats.intervals import paired_difference, unpaired_difference, wilson
from analyses.study.folder import MANIFEST, check_study, finished_configs, load_manifest, scan_games, seat_totals, write_atomic
from simcore.games.pleasant_dreams import ACTION_TYPES as PD_ACTIONS, GAME as ENGINE_GAME, NAME as PD_NAME

SOLVER_FILE = "solver_gap.json"
CHOICE_FILE = "solo_choice.json"
CHOICE_MAX_CARDS = 6             # the chosen-cards search goes on past the random rows' N up to this

# How to bring a bot of one's own (`dreamscape strategies --game pleasant-dreams`).
STRATEGY_NOTE = "A suffix /no-ACTION (repeatable) keeps a bot from ever using that action card (restricted play), e.g. threshold/no-mirror."


def split_strategy(spec: str) -> tuple[str, tuple[str, ...]]:
    """``threshold/no-mirror/no-barrier`` -> (``threshold``, (``mirror``, ``barrier``))."""
    parts = spec.split("/")
    return parts[0], tuple(p[3:] for p in parts[1:] if p.startswith("no-"))


def _describe(game, c) -> dict:
    setup = game.parse_setup(c.players, c.variant, None)
    bots = [split_strategy(s) for s in c.strategies]
    return {"config": c.id, "variant": c.variant, "players": c.players, "strategies": c.strategies,
            "expansion": bool(setup.expansion), "start": int(setup.start), "actions": int(setup.actions),
            "public_backs": bool(getattr(setup, "public_backs", False)), "hand": getattr(setup, "hand", None) is not None,
            "bots": bots}


def _r(e) -> tuple[float, float, float]:
    return float(e.value), float(e.low), float(e.high)


def study_rows(folder: str | Path) -> list[dict]:
    """One row per finished configuration: what it is (setup, bots) and per seat games, win rate and interval."""
    folder = Path(folder)
    m = load_manifest(folder)
    game = load_game(GameDeal.of_meta(m.meta).game)
    totals = seat_totals(folder)
    rows = []
    for c in finished_configs(folder):
        d = _describe(game, c)
        seats = totals.filter(pl.col("config") == c.id).sort("seat")
        n = int(seats["n"][0])
        d["games"] = n
        d["turns"] = float(seats["sum_turns"][0]) / n if "sum_turns" in seats.columns else float("nan")
        d["seat_rates"] = [_r(wilson(float(w), n)) for w in seats["sum_win"].to_list()]
        rows.append(d)
    return rows


def _same_bot(d: dict) -> str | None:
    """The bot when every seat plays it unrestricted, else None."""
    names = {b for b, r in d["bots"] if not r}
    return names.pop() if len(names) == 1 and all(not r for _, r in d["bots"]) else None


def _printed_numbers(d: dict) -> bool:
    """The configuration plays the rulebook's numbers (P11): no rules knob but the starting wakefulness, which
    the difficulty rows read. A knob-changed game is another game, kept out of the tables of the printed one."""
    from simcore.games.pleasant_dreams.common import KNOBS, parse_setup

    setup = parse_setup(d["players"], d["variant"])
    return all(getattr(setup, k.field) == k.default for k in KNOBS if k.token != "start")


def first_player_rows(rows: list[dict]) -> list[dict]:
    out = []
    for d in rows:
        bot = _same_bot(d)
        if d["players"] != 2 or bot is None or (d["start"], d["actions"]) != (1, -1):  # other starts: difficulty
            continue
        if not _printed_numbers(d):
            continue
        rate, low, high = d["seat_rates"][0]
        out.append({"variant": d["variant"], "strategy": bot, "games": d["games"], "rate": rate, "low": low,
                    "high": high, "turns": d["turns"], "significant": not low <= 0.5 <= high})
    return out


def _wins(folder: Path, config: str) -> pl.DataFrame:
    return scan_games(folder, [config]).select("game", "seat", "win").collect().sort(["game", "seat"])


def action_value_rows(folder: str | Path, rows: list[dict]) -> list[dict]:
    """Restricted play: per (variant, bot, action) the win rate the card is worth to a seat, paired by game."""
    folder = Path(folder)
    base = {(d["variant"], d["players"], _same_bot(d)): d for d in rows if _same_bot(d)}
    groups: dict[tuple, list[tuple[dict, int]]] = {}
    for d in rows:
        restricted = [(k, b, r) for k, (b, r) in enumerate(d["bots"]) if r]
        if len(restricted) != 1 or len(restricted[0][2]) != 1:
            continue
        k, bot, (action,) = restricted[0]
        if any(b != bot or r for j, (b, r) in enumerate(d["bots"]) if j != k):
            continue
        groups.setdefault((d["variant"], d["players"], bot, action), []).append((d, k))
    out = []
    for (variant, players, bot, action), items in sorted(groups.items()):
        ref = base.get((variant, players, bot))
        if ref is None:
            continue
        ref_wins = _wins(folder, ref["config"])
        with_card, without = [], []
        for d, seat in items:
            w = _wins(folder, d["config"]).filter(pl.col("seat") == seat)
            r = ref_wins.filter(pl.col("seat") == seat).join(w, on=["game", "seat"], suffix="_restricted")
            with_card.append(r["win"].to_numpy())
            without.append(r["win_restricted"].to_numpy())
        a, b = np.concatenate(with_card), np.concatenate(without)
        if a.size < 2:
            continue
        value, low, high = _r(paired_difference(a, b))
        out.append({"variant": variant, "players": players, "strategy": bot, "action": action, "games": int(a.size),
                    "with": float(a.mean()), "without": float(b.mean()), "value": value, "low": low, "high": high,
                    "significant": not low <= 0.0 <= high})
    return sorted(out, key=lambda r: (r["variant"], r["strategy"], -r["value"]))


def holding_rows(folder: str | Path, rows: list[dict], actions: tuple[str, ...]) -> list[dict]:
    """Lucid Dreams games, one bot on every seat: win rate of a seat dealt each card against one not dealt it."""
    folder = Path(folder)
    out = []
    for d in rows:
        bot = _same_bot(d)
        if bot is None or not d["expansion"] or d["players"] != 2 or not _printed_numbers(d):
            continue
        cols = [f"dealt_{i}" for i in range(len(actions))]
        frame = scan_games(folder, [d["config"]]).select("win", *cols).collect()
        for i, action in enumerate(actions):
            held = frame.filter(pl.col(f"dealt_{i}") > 0)["win"].to_numpy()
            not_held = frame.filter(pl.col(f"dealt_{i}") == 0)["win"].to_numpy()
            if held.size < 2 or not_held.size < 2:
                continue
            diff, low, high = _r(unpaired_difference(held, not_held))
            out.append({"variant": d["variant"], "strategy": bot, "action": action, "seats_holding": int(held.size),
                        "rate_holding": float(held.mean()), "rate_not": float(not_held.mean()), "difference": diff,
                        "low": low, "high": high, "significant": not low <= 0.0 <= high})
    return sorted(out, key=lambda r: (r["variant"], r["strategy"], -r["difference"]))


def _paired_configs(folder: Path, a: dict, b: dict, column: str, seat: int = 0) -> tuple:
    def values(d):
        lf = scan_games(folder, [d["config"]]).filter(pl.col("seat") == seat).select("game", column)
        return lf.collect().sort("game")

    j = values(a).join(values(b), on="game", suffix="_b")
    return j[f"{column}_b"].to_numpy(), j[column].to_numpy()


def expansion_rows(folder: str | Path, rows: list[dict]) -> list[dict]:
    """The same bot in base and Lucid Dreams games on the same game indices: seat 1's win rate and game length."""
    folder = Path(folder)
    out = []
    for d in rows:
        bot = _same_bot(d)
        if bot is None or d["expansion"] or d["players"] != 2 or not _printed_numbers(d):
            continue
        twin = next((e for e in rows if _same_bot(e) == bot and e["expansion"] and e["players"] == 2 and _printed_numbers(e)
                     and (e["start"], e["actions"], e.get("public_backs")) ==
                     (d["start"], d["actions"], d.get("public_backs"))), None)
        if twin is None:
            continue
        lucid, base = _paired_configs(folder, d, twin, "win")
        c_win = _r(paired_difference(lucid, base))
        lucid_t, base_t = _paired_configs(folder, d, twin, "turns")
        c_len = _r(paired_difference(lucid_t, base_t))
        out.append({"strategy": bot, "base_variant": d["variant"], "lucid_variant": twin["variant"],
                    "games": int(base.size), "base_rate": float(base.mean()), "lucid_rate": float(lucid.mean()),
                    "change": c_win[0], "low": c_win[1], "high": c_win[2],
                    "base_turns": float(base_t.mean()), "lucid_turns": float(lucid_t.mean()),
                    "turns_change": c_len[0], "turns_low": c_len[1], "turns_high": c_len[2],
                    "significant": not c_win[1] <= 0.0 <= c_win[2]})
    return out


def difficulty_rows(rows: list[dict]) -> list[dict]:
    """Starting wakefulness 1..4 (base game, the rules' action cards): seat 1's win rate (solo: staying asleep)."""
    out = []
    for d in rows:
        bot = _same_bot(d)
        if bot is None or d["expansion"] or d["actions"] != -1 or d.get("public_backs") or d.get("hand"):
            continue
        if not _printed_numbers(d):
            continue
        rate, low, high = d["seat_rates"][0]
        # P2.2: difficulty is a solo rule (rulebook lines 135-140); 2 players above 1 is a variant
        out.append({"players": d["players"], "strategy": bot, "start": d["start"], "games": d["games"],
                    "rate": rate, "low": low, "high": high, "turns": d["turns"],
                    "rulebook": d["players"] == 1 or d["start"] == 1})
    # A difficulty level needs another level to be compared with: keep bots played at two or more starts.
    out = [r for r in out if sum(1 for s in out if (s["players"], s["strategy"]) == (r["players"], r["strategy"])) > 1]
    return sorted(out, key=lambda r: (r["players"], r["strategy"], r["start"]))


def solo_challenge_rows(rows: list[dict], start: int = 4) -> list[dict]:
    """Solo from wakefulness ``start`` with N action cards: the chance of staying asleep, per bot and N."""
    out = []
    for d in rows:
        bot = _same_bot(d)
        if bot is None or d["players"] != 1 or d["start"] != start or d["actions"] < 0 or not _printed_numbers(d):
            continue
        rate, low, high = d["seat_rates"][0]
        out.append({"strategy": bot, "start": start, "actions": d["actions"], "games": d["games"], "rate": rate,
                    "low": low, "high": high, "reading": "random deal", "hand": None})
    return sorted(out, key=lambda r: (r["strategy"], r["actions"]))


def choice_plan(rows: list[dict], start: int = 4) -> dict | None:
    """What the chosen-cards search plays for a folder: for each bot of its random-deal solo rows, budgets
    scaled to that bot's games, and how far to go: the fast bots through every N of their random rows
    (for the chart) and on until the best set stays asleep more often than not; a search bot (slow: every
    set is played) only until then. None when the folder has no such rows."""
    random_rows = solo_challenge_rows(rows, start)
    if not random_rows:
        return None
    bots = []
    for bot in sorted({r["strategy"] for r in random_rows}):
        mine = [r for r in random_rows if r["strategy"] == bot]
        games = max(r["games"] for r in mine)
        bots.append({"strategy": bot, "screen": max(200, games // 25), "finalists": 8,
                     "confirm": max(1000, games // 5), "measure": games,
                     "through": 0 if bot.startswith("search") else max(r["actions"] for r in mine)})
    return {"start": start, "max_actions": CHOICE_MAX_CARDS, "bots": bots}


def write_solo_choice(folder: str | Path, seed: int, progress=None) -> list[dict]:
    """The solo challenge as asked (P7.5): for each N of the folder's random-deal rows (and on up to
    CHOICE_MAX_CARDS until the best set stays asleep more often than not, interval above 50%), the best
    set of N cards; kept in ``solo_choice.json`` (reused when its plan and seed match)."""
    folder = Path(folder)
    m = load_manifest(folder)
    if m.meta.get("game") != PD_NAME:  # another game's folder has no solo challenge
        return []
    plan = choice_plan(study_rows(folder))
    if plan is None:
        return []
    path = folder / CHOICE_FILE
    if path.is_file():
        held = json.loads(path.read_text("utf-8"))
        if held.get("plan") == plan and held.get("seed") == seed:
            return solo_choice_rows(folder)
    from analyses.study.gamechunks import cards_from_text
    from simcore.games.pleasant_dreams.challenge import best_hand

    cards = cards_from_text(load_game("pleasant-dreams"), m.meta.get("cards"))
    rows = []
    for b in plan["bots"]:
        for n in range(plan["max_actions"] + 1):
            if progress:
                progress(f"solo challenge, chosen cards: best set of {n} for the {b['strategy']} bot")
            r = best_hand(n, start=plan["start"], strategy=b["strategy"], seed=seed, screen=b["screen"],
                          finalists=b["finalists"], confirm=b["confirm"], measure=b["measure"], cards=cards)
            r["strategy"] = b["strategy"]
            rows.append(r)
            if n >= b["through"] and wilson(float(r["wins"]), r["games"]).low > 0.5:
                break
    write_atomic(path, json.dumps({"plan": plan, "seed": seed, "rows": rows}, indent=1).encode())
    return solo_choice_rows(folder)


def solo_choice_rows(folder: str | Path) -> list[dict]:
    """``solo_choice.json`` as rows like solo_challenge_rows' (reading "chosen cards"), with Wilson intervals."""
    path = Path(folder) / CHOICE_FILE
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text("utf-8"))
        out = []
        for r in data["rows"]:
            rate, low, high = _r(wilson(float(r["wins"]), int(r["games"])))
            out.append({"strategy": r["strategy"], "start": data["plan"]["start"], "actions": int(r["actions"]),
                        "games": int(r["games"]), "rate": rate, "low": low, "high": high, "reading": "chosen cards",
                        "hand": r["hand"], "sets": int(r["sets"]), "runner_up": r.get("runner_up"),
                        "screen_games": int(r["screen_games"]), "confirm_games": int(r["confirm_games"])})
    except (ValueError, KeyError, TypeError) as exc:
        raise StudyError(f"{path}: damaged solo-choice file ({exc})") from None
    return sorted(out, key=lambda r: (r["strategy"], r["actions"]))


def solver_rows(folder: str | Path) -> list[dict]:
    path = Path(folder) / SOLVER_FILE
    if not path.is_file():
        return []
    try:
        return list(json.loads(path.read_text("utf-8"))["rows"])
    except (ValueError, KeyError, TypeError) as exc:
        raise StudyError(f"{path}: damaged solver file ({exc})") from None


def write_solver_gap(folder: str | Path, seed: int, progress=None) -> list[dict]:
    """Run the plan's ``[solver]`` (manifest meta) once and keep it in ``solver_gap.json`` (kept when present)."""
    folder = Path(folder)
    write_solo_choice(folder, seed, progress)        # the study's other once-per-folder analysis (P7.5)
    m = load_manifest(folder)
    plan = m.meta.get("solver")
    if not plan:
        return []
    if (folder / SOLVER_FILE).is_file():
        rows = solver_rows(folder)
        if json.loads((folder / SOLVER_FILE).read_text("utf-8")).get("plan") == plan:
            return rows
    from analyses.study.gamechunks import cards_from_text

    game = load_game(m.meta["game"])
    cards = cards_from_text(game, m.meta.get("cards"))
    import importlib

    package = importlib.import_module(f"simcore.games.{game.name.replace('-', '_')}")
    rows = []
    for variant in plan["variants"]:
        for players in plan["players"]:
            setup = game.parse_setup(players, variant, cards)
            for bot in plan["strategies"]:
                if progress:
                    progress(f"solver gap: {bot}, {players} player(s), {variant}, {plan['positions']} positions")
                r = dict(package.solver_gap(setup, bot, seed, plan["positions"]))
                r.update({"variant": game.variant_name(setup), "players": players})
                rows.append(r)
    write_atomic(folder / SOLVER_FILE, json.dumps({"plan": plan, "seed": seed, "rows": rows}, indent=1).encode())
    return rows


def pd_summary(folder: str | Path) -> dict:
    """Every Pleasant Dreams analysis the folder has data for, as row dicts."""
    folder = Path(folder)
    if not (folder / MANIFEST).is_file():
        raise StudyError(f"{folder}: not a study folder (no {MANIFEST})")
    m = load_manifest(folder)
    game = load_game(GameDeal.of_meta(m.meta).game)
    rows = study_rows(folder)
    keeps_games = not m.aggregate_only
    actions = PD_ACTIONS
    out = {
        "game": game.name, "title": game.title, "seed": m.seed, "games": m.total_games(),
        "configurations": len(rows), "first_player": first_player_rows(rows),
        "action_value": action_value_rows(folder, rows) if keeps_games else [],
        "holding": holding_rows(folder, rows, actions) if keeps_games else [],
        "expansion": expansion_rows(folder, rows) if keeps_games else [],
        "difficulty": difficulty_rows(rows), "solo_challenge": solo_challenge_rows(rows),
        "solo_chosen": solo_choice_rows(folder),
        "solver": solver_rows(folder),
        "configs": [{k: v for k, v in r.items() if k != "bots"} for r in rows],
    }
    return json_clean(out)


def json_clean(value):
    """NaN and infinities as None, tuples as lists: strict JSON."""
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, dict):
        return {k: json_clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_clean(v) for v in value]
    if isinstance(value, np.generic):
        return json_clean(value.item())
    return value


def after_study(folder: str | Path, plan, progress=None) -> None:
    """Once a study's games are played: the exact solver's distance to each bot, when the study file asks for it."""
    if plan.meta.get("solver"):
        write_solver_gap(folder, plan.seed, progress=progress)



def _analyses():
    return sys.modules[__name__]


# The variant tokens whose rules the bots read from the position (P2.2 start, P7.3 actions, P9 Lucid Dreams ...);
# a token outside these changes a number the threshold bot takes as printed (the wake limit, P3).
READ_FROM_THE_POSITION = ("lucid", "start=", "actions=", "hand=", "public-backs")


def training_status(setup, bot: str):
    """Pleasant Dreams' bots fit nothing to a rule set: random is uniform; threshold sizes its flow from the
    wakefulness and the values of the cards as dealt (card list and variant); search@K samples the hidden deck
    order of the game as set. Rule-aware, unless a variant token changes a number they take as printed."""
    from simcore.games import TrainingStatus

    tokens = [t for t in variant_name_of(setup).split("+") if t != "base"]
    printed = [t for t in tokens if not t.startswith(READ_FROM_THE_POSITION)]
    if printed and not bot.startswith("random"):
        return TrainingStatus("out-of-distribution", f"takes the rulebook's numbers as printed; this game changes "
                                                     f"{', '.join(printed)}")
    what = {"random": "uniform over the legal choices", "threshold": "reads wakefulness and the cards' values as dealt",
            "search": "samples the hidden deck order of the game as set"}
    return TrainingStatus("rule-aware", what.get(bot.partition("@")[0].partition("/")[0], "reads the position as dealt")
                          + "; nothing fitted")


def variant_name_of(setup) -> str:
    return ENGINE_GAME.variant_name(setup)
def charts():
    """Pleasant Dreams' charts of the Python API (matplotlib is loaded only when a chart is asked for)."""
    from analyses.games import pleasant_dreams_plot

    return pleasant_dreams_plot


def report_tables(folder) -> dict:
    """A checked study folder's summary, every table of its report (:func:`pd_summary`)."""
    check_study(folder)  # every chunk as recorded, or one line
    return pd_summary(folder)


def figures(tables) -> dict:
    """Every chart of the report from :func:`report_tables`, by page in report order."""
    return charts().figures(tables)


def printed_game():
    """What a designer may change of the printed game: every rules knob of its numbers table (docs/guide/knobs.md,
    :mod:`simcore.games.pleasant_dreams.numbers`; P11) and its card file (``cards.toml``, which ``--cards`` replaces)."""
    from analyses.games import PrintedParts, rules_knobs
    from simcore.games.pleasant_dreams.common import CARDS_FILE
    from simcore.games.pleasant_dreams.numbers import rulebook_numbers

    knobs = rules_knobs((n.status.removeprefix("knob:"), n.rule, n.what, n.value, n.range, n.meaning)
                        for n in rulebook_numbers() if n.status.startswith("knob:"))
    return PrintedParts(knobs, CARDS_FILE)


# Pleasant Dreams' lab wing (the entry-point group dreamscape.games): its game with these analyses
# (after_study: the solver and the solo choice); every command step is the generic one.
WING = LabWing(game=dataclasses.replace(ENGINE_GAME, extensions=extension_loaders(analyses=_analyses)),
               strategy_note=STRATEGY_NOTE, after_study=after_study, training_status=training_status,
               charts=charts, report_tables=report_tables, figures=figures, printed_game=printed_game)
