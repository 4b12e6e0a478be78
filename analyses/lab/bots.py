"""Bots against bots: tournament, exploit, train, tune; and restricted play and seat fixes (fix-seats)."""
from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from analyses.lab.common import (LabInputError, check_players, claimed, check_study_numbers, deal, default_out, default_players,
                                 game_of, prepare, run_study_plan, writable_file, writable_folder)
from analyses.lab.errors import ParameterError, parameter_error
from analyses.lab.validate import check_arguments
from analyses.lab.whatif import bot_notes
from analyses.study.progress import progress_bar
from analyses.games import DEFAULT_GAME, need_hook, wing_of


def chunk_player(the, cards: Path | None = None):
    """A tournament's play function for ``the``: one seating's games through the game's study chunks."""
    from analyses.study.chunks import play_chunk
    from analyses.study.model import ChunkTask, RunConfig

    game = deal(the, cards)["game"]

    def play(players: int, variant: str, seating: tuple[str, ...], seed: int, first: int, games: int) -> dict:
        result = play_chunk(ChunkTask(RunConfig(variant, players, tuple(seating)), seed, first, games, game))
        win = np.asarray(result["win"], dtype=np.float64)
        # a game without one score per seat (Pleasant Dreams: a shared win) is scored by its win credit
        score = np.asarray(result.get("score", win))
        return {"win": win, "score": score if score.shape == win.shape else win}

    return play


def tournament_data(game: str = DEFAULT_GAME, strategies: Sequence[str] | None = None, players: int | None = None,
                    variant: str = "base", games: int = 2000, seed: int = 1, out: Path | None = None,
                    chunk_size: int = 50_000, aggregate_only: bool = False, backend: str = "local",
                    scheduler: str | None = None, workers: int | None = None, progress: bool | None = None,
                    interrupts: bool = False, cards: Path | None = None, distance: bool = True) -> dict:
    """Round robin of strategies, seats rotated on duplicate deals: standings, payoff matrix, flags (row dicts).

    ``strategies`` default to the game's own tournament field, else its built-in bots;
    ``out``: also a study folder (one configuration per seating), resumed when it exists.
    ``distance``: on a changed game, also each bot's distance from search (``bot_notes``; their
    training status either way, :mod:`analyses.lab.whatif`).
    """
    check_arguments(locals())  # the command line's bounds, named by parameter
    from analyses.study.model import RunConfig
    from analyses.study.studyfile import StudyPlan
    from analyses.tools.tournament import run_tournament, schedule, tournament_from_study

    the = game_of(game)
    players = default_players(the) if players is None else players
    low = min(c for c in the.seat_counts if c > 1) if max(the.seat_counts) > 1 else 2
    check_players(the, players, 2, f"a tournament needs {{players}} {low} to {max(the.seat_counts)}")
    check_study_numbers(games, None, 1, chunk_size, workers)
    setup = the.setup(players, variant, cards)
    variant = the.variant_name(setup)
    field = wing_of(the).tournament_field
    specs = list(strategies or (field() if field is not None else sorted(the.strategies())))
    prepare(the, progress, interrupts=interrupts)
    load = wing_of(the).load_bots
    names = list(load(specs)) if load is not None else [the.check_strategy(s, setup) for s in specs]
    if len(set(names)) < 2:
        raise ParameterError("a tournament needs at least two different strategies",
                             "a tournament needs at least two different --strategy values")
    if out is not None:
        configs = [RunConfig(variant, players, seating) for seating in schedule(list(dict.fromkeys(specs)), players)]
        plan = StudyPlan(configs, games=games, seed=seed, chunk_size=chunk_size, aggregate_only=aggregate_only,
                         kind="tournament", **deal(the, cards))
        run_study_plan(the, plan, Path(out), backend, scheduler, workers)
        result = tournament_from_study(out, players, variant)
    else:
        if aggregate_only or backend != "local":
            raise ParameterError("aggregate_only and backend write a study folder: give out=DIR",
                                 "--aggregate-only and --backend write a study folder: add --out DIR")
        from analyses.lab.common import warm

        warm(the, "local")
        with progress_bar(len(schedule(names, players)) * games, "games", leave=False) as bar:
            result = run_tournament(names, players, variant, games, seed, play=chunk_player(the, cards),
                                    progress=bar.update)
    deck, deck_cards = the.deck_of(setup) if the.deck_of is not None else ("base", None)
    return {
        "game": the.name, "title": the.title, "players": players, "variant": variant, "deck": deck,
        "deck_cards": deck_cards, "games_per_seating": result.games_per_seating,
        "seed": seed, "standings": result.standings.to_dicts(), "payoff": result.payoff.to_dicts(),
        "dominant": result.dominant, "cycles": [list(c) for c in result.cycles],
        **({"folder": str(out)} if out is not None else {}),
        "bot_notes": bot_notes(the, [(setup, cards, [the.check_strategy(s, setup) for s in specs])], distance, seed),
    }


def tournament(game: str = DEFAULT_GAME, players: int | None = None, strategies: Sequence[str] | None = None,
               games: int = 2000, seed: int = 1, **options) -> dict:
    """:func:`tournament_data` with ``standings`` and ``payoff`` as polars DataFrames (one row per strategy)."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    data = tournament_data(game, strategies, players, games=games, seed=seed, **options)
    return {**data, "standings": pl.DataFrame(data["standings"]), "payoff": pl.DataFrame(data["payoff"])}


def exploit(game: str = DEFAULT_GAME, strategy: str | None = None, players: int | Sequence[int] | None = None,
            variants: Sequence[str] | None = None, games: int = 1000, playouts: int | Sequence[int] = 8,
            phases: str | None = None,
            seed: int = 1, chunk_size: int = 500, out: Path | None = None, progress: bool | None = None,
            interrupts: bool = False) -> dict:
    """How strong is a bot? Per player count, variant and seat, the win rate the search player gains over it."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    from analyses.tools.exploit import DEFAULT_PLAYERS

    the = game_of(game)
    the.need("search", "exploit")
    run = wing_of(the).exploit or generic_exploit
    players = [players] if isinstance(players, int) else players  # one count, or several
    counts = list(dict.fromkeys(players or [p for p in DEFAULT_PLAYERS if p in the.seat_counts]
                                or [p for p in the.seat_counts if p > 1]))
    for p in counts:
        check_players(the, p, 2, "exploit needs {players} 2 to 4 (a seat needs an opponent to exploit)")
    check_study_numbers(games, None, 1, chunk_size)
    playouts = sorted(set([playouts] if isinstance(playouts, int) else (playouts or [8])))
    if playouts[0] < 1:
        raise parameter_error("playouts", f"must be at least 1, got {playouts[0]}")
    prepare(the, progress, interrupts=interrupts)
    if out is not None:
        writable_folder(Path(out))
    # the baseline and the first rules variant of the game (Project Dreamscape: base, sleep-token)
    variants = list(variants or (the.variants(counts[0])[:2] if the.has("variants") else ["base"]))
    with table_folder(out, the):
        data = run(strategy or the.default_strategy, counts, variants, games, playouts, phases, seed, chunk_size, out,
                   game=the)
    return {"game": the.name, "title": the.title, **data}


def table_folder(out: Path | None, the):
    """A tool's table is kept in a study of the same game (its report has a page for it), or a new folder."""
    from analyses.study.folder import TABLE_KINDS

    return claimed(out, the, TABLE_KINDS)


def restrict(game: str = DEFAULT_GAME, strategy: str | None = None, players: int | Sequence[int] | None = None,
             variants: Sequence[str] | None = None, restrictions: Sequence[str] | None = None, games: int = 500,
             seed: int = 1, chunk_size: int = 500, out: Path | None = None, progress: bool | None = None,
             interrupts: bool = False, distance: bool = True) -> dict:
    """Restricted play: how much a seat loses when its bot may never take one kind of action.

    ``distance``: on a changed game (any variant but the baseline), also the bot's distance from search
    (``bot_notes``; its training status either way, :mod:`analyses.lab.whatif`)."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    the = game_of(game)
    the.need("restrictions", "restrict")
    run = wing_of(the).restrict or generic_restrict
    prepare(the, progress, interrupts=interrupts)
    players = [players] if isinstance(players, int) else players  # one count, or several
    counts = list(dict.fromkeys(players or [default_players(the)]))
    for p in counts:
        check_players(the, p, 2, "restrict needs {players} 2 to 4 (a restricted seat plays against others)")
    check_study_numbers(games, None, 1, chunk_size)
    if out is not None:
        writable_folder(Path(out))
    with table_folder(out, the):
        data = run(strategy or the.default_strategy, counts, list(variants or ["base"]),
                   list(restrictions or []) or None, games, seed, chunk_size, out, game=the)
    bot = strategy or the.default_strategy
    configs = [(the.setup(p, v), None, [bot]) for p in counts for v in list(variants or ["base"])]
    return {"game": the.name, "title": the.title, **data, "bot_notes": bot_notes(the, configs, distance, seed)}


def generic_exploit(bot: str, counts: list[int], variants: list[str], games: int, playouts: list[int],
                    phases: str | None, seed: int, chunk_size: int, out: Path | None, *, game) -> dict:
    """``dreamscape exploit`` of any game with a search player: per seat, what ``game.search(bot, K)`` gains over ``bot``.

    Several K (``--playouts 4 --playouts 8 --playouts 16``) also give the budget
    ladder: what each doubling gains (``doubling`` rows, kept beside the table).
    """
    from analyses.study.folder import lock_folder
    from analyses.study.progress import progress_bar
    from analyses.tools.exploit import exploit_data, exploit_tables, games_needed, save_doubling, save_exploit

    setup = game.setup(counts[0], variants[0])
    name = game.check_strategy(bot, setup)
    for k in playouts:
        game.check_strategy(game.search(name, k, phases), setup)
    release = lock_folder(out) if out is not None else (lambda: None)  # another writer is named now, not after the games
    try:
        total = games_needed(counts, variants, games, game=game, budgets=len(playouts))
        with progress_bar(total, "games", leave=False) as bar:
            t0 = time.perf_counter()
            frame, doubling = exploit_tables(name, None, counts, variants, games, seed, chunk_size, progress=bar.update,
                                             game=game, playouts=playouts, phases=phases)
            seconds = time.perf_counter() - t0
        data = exploit_data(frame, seconds, seed, doubling)
        if out is not None:
            save_exploit(out, frame, data)
            if doubling.height:
                save_doubling(out, doubling)
            data["folder"] = str(out)
    finally:
        release()
    return data


def generic_restrict(bot: str, counts: list[int], variants: list[str], kinds: list[str] | None, games: int, seed: int,
                     chunk_size: int, out: Path | None, *, game) -> dict:
    """``dreamscape restrict`` of any game with restricted play: what a seat loses under each restriction."""
    from analyses.study.progress import progress_bar
    from analyses.tools.restrict import games_needed, restrict_data, save_restrict, timed_restrict

    game.check_strategy(bot, game.setup(counts[0], variants[0]))
    with progress_bar(games_needed(counts, variants, kinds, games, game=game), "games", leave=False) as bar:
        frame, seconds = timed_restrict(bot, counts, variants, kinds, games, seed, chunk_size, progress=bar.update,
                                        game=game)
    data = restrict_data(frame, seconds, seed)
    if out is not None:
        save_restrict(out, frame, data)
        data["folder"] = str(out)
    return data


def train(game: str = DEFAULT_GAME, out: Path | None = None, players: int = 3, variant: str | None = None,
          deck: Path | None = None, iterations: int = 4, games: int | None = None, playouts: int = 8,
          check_games: int = 2000, seed: int = 1, progress: bool | None = None, interrupts: bool = False,
          strategy: str = "expert", table: Path | None = None) -> dict:
    """Train an expert table by expert iteration (needs the game's ``trainer``); the table goes to ``out``.

    The defaults (4 iterations of 1,000 self-play games, K = 8) are the recipe measured to bring a refitted table's
    distance from search in a knob-changed game back to the base game's (docs/research/2026-11-28-refits-for-changed-games.md);
    the shipped tables were made at a smaller one (research/train_expert.sh), which left more."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    if strategy != "expert":
        raise parameter_error("strategy", f"trains expert or strong, got {strategy!r}")
    if table is not None:  # the table strong's value learns from; an expert table is trained, not given
        raise parameter_error("table", "is for --strategy strong (the expert table whose self-play its value learns from)")
    games = 1000 if games is None else games
    the = game_of(game)
    the.need("trainer", "train")
    check_players(the, players)
    if iterations < 1 or games < 1 or playouts < 1 or check_games < 0:
        raise ParameterError("iterations, games and playouts must be at least 1, check_games at least 0",
                             "--iterations, --games and --playouts must be at least 1, --check-games at least 0")
    setup = the.setup(players, variant or "base", deck)
    name = the.variant_name(setup)
    if out is None:
        out = default_out("expert", f"{players}p", name, suffix=".toml")
        writable_file(out)  # a file named like the default folder: one line (issue #44), not FileExistsError
        out.parent.mkdir(parents=True, exist_ok=True)
    out = writable_file(Path(out))
    prepare(the, progress, interrupts=interrupts)  # after the checks: bad input gets its one line first
    deck_part = f" --deck {deck}" if deck else ""
    command = (f"dreamscape train --players {players} --variant {name}{deck_part} --iterations {iterations} "
               f"--games {games} --playouts {playouts} --check-games {check_games} --seed {seed} --out {out}")
    return wing_of(the).train(setup, out, iterations, games, playouts, check_games, seed, command)


def train_strong(game: str = DEFAULT_GAME, out: Path | None = None, players: int = 3, variant: str | None = None,
                 deck: Path | None = None, games: int | None = None, trees: int = 100, leaves: int = 63, seed: int = 1,
                 progress: bool | None = None, interrupts: bool = False, table: Path | None = None) -> dict:
    """Train the strong bot's value of a position (needs the game's ``train_strong``); the file goes to ``out``.
    ``table``: learn from that expert table's self-play (a table refitted to the same changed game), not the shipped
    table's; play the value beside it as ``strong:VALUE.npz+expert:TABLE.toml``."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    the = game_of(game)
    run = wing_of(the).train_strong
    if run is None:
        raise LabInputError(f"{the.title} has no strong bot to train (train --strategy expert trains its tables)")
    check_players(the, players, 2, "the strong bot's value needs {players} 2 to 4 (solo has no opponent to beat: "
                                   "strong plays the expert table there)")
    games = 120_000 if games is None else games
    if games < HOLD_OUT_GROUPS or trees < 1 or leaves < 2:
        raise ParameterError(f"games must be at least {HOLD_OUT_GROUPS}, trees at least 1, leaves at least 2",
                             f"--games must be at least {HOLD_OUT_GROUPS}, --trees at least 1, --leaves at least 2")
    setup = the.setup(players, variant or "base", deck)
    name = the.variant_name(setup)
    if out is None:
        out = default_out("strong", f"{players}p", name, suffix=".npz")
        writable_file(out)  # a file named like the default folder: one line (issue #44), not FileExistsError
        out.parent.mkdir(parents=True, exist_ok=True)
    out = writable_file(Path(out))
    prepare(the, progress, interrupts=interrupts)
    deck_part = f" --deck {deck}" if deck else ""
    if table is not None:
        the.check_strategy(f"expert:{table}", setup)  # a table that cannot be read: one line, before any game
    table_part = f" --table {table}" if table is not None else ""
    command = (f"dreamscape train --strategy strong --players {players} --variant {name}{deck_part} --games {games} "
               f"--trees {trees} --leaves {leaves} --seed {seed}{table_part} --out {out}")
    return run(setup, out, games, trees, leaves, seed, command, table=table)


HOLD_OUT_GROUPS = 20  # the value holds out every tenth game: at least two held-out games


def tune(game: str = DEFAULT_GAME, out: Path | None = None, players: int = 3, variant: str | None = None,
         budget: int = 200, games_per_eval: int = 3000, field: str = "greedy,chain,economist,spoiler", seed: int = 1,
         progress: bool | None = None, interrupts: bool = False) -> dict:
    """Optimise the linear bot's weights by CMA-ES against a field of bots (needs the game's ``tuner``)."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    the = game_of(game)
    the.need("tuner", "tune")
    prepare(the, progress, interrupts=interrupts)
    check_players(the, players, 2, "tuning needs opponents: {players} must be 2 to 4")
    if budget < 1 or games_per_eval < 1:
        raise ParameterError("budget and games_per_eval must be at least 1", "--budget and --games-per-eval must be at least 1")
    setup = the.setup(players, variant or "base")
    opponents = [name.strip() for name in field.split(",") if name.strip()]
    if not opponents:
        raise parameter_error("field", f"{field!r} names no opponent; give strategies separated by commas, e.g. greedy,chain")
    for spec in opponents:
        the.check_strategy(spec, setup)
    if out is None:
        out = default_out("tuned", f"{players}p", the.variant_name(setup), suffix=".toml")
        writable_file(out)  # a file named like the default folder: one line (issue #44), not FileExistsError
        out.parent.mkdir(parents=True, exist_ok=True)
    out = Path(out)
    if not out.parent.exists():
        raise parameter_error("out", f"{out}: folder {out.parent} does not exist")
    writable_file(out)  # before the tuning budget is spent, not after
    return wing_of(the).tune(setup, opponents, budget, games_per_eval, seed, out)


def fix_seats(game: str = DEFAULT_GAME, players: int = 3, variant: str | None = None, strategy: str | None = None,
              target: float = 5.0, trials: int = 600, games: int = 2000, verify: int = 10_000, candidates: int = 5,
              seed: int = 1, out: Path | None = None, progress: bool | None = None, interrupts: bool = False,
              search: str | None = None, distance: bool = True) -> dict:
    """Search rules knobs for the smallest change that brings the seat spread under ``target`` (needs ``knobs``).

    ``search``: the knob families to search, comma-separated (the game's ``knobs.FAMILIES``, or ``all``);
    None searches the game's default family. Every verified candidate is a changed game: ``bot_notes`` names
    the bot's training status on each, and (``distance``) its distance from search there
    (:mod:`analyses.lab.whatif`).
    """
    check_arguments(locals())  # the command line's bounds, named by parameter
    from analyses.study.model import RunConfig
    from analyses.study.studyfile import StudyPlan

    the = game_of(game)
    knobs = need_hook(the, "fix_seats", "fix-seats")
    prepare(the, progress, interrupts=interrupts)
    check_players(the, players, 2, "fix-seats needs {players} 2 to 4 (one seat has no seat advantage)")
    base = knobs.base_variant(the.setup(players, variant or "base"))
    try:
        families = knobs.parse_search(search)
        knobs.check_search(families, base)
    except ValueError as exc:
        raise parameter_error("search", str(exc)) from None
    for flag, value, low in (("trials", trials, 1), ("games", games, 10), ("verify", verify, 10),
                             ("candidates", candidates, 1)):
        if value < low:
            raise parameter_error(flag, f"must be at least {low}, got {value}")
    if not 0 < target < 100:
        raise parameter_error("target", f"must be between 0 and 100 points, got {target}")
    load = wing_of(the).load_bots
    name = load([strategy or the.default_strategy])[0]
    folder = Path(out) if out is not None else Path("out") / f"fix-seats-{players}p"
    with claimed(folder, the, "fix-seats"):  # the whole run: the knob search takes minutes before anything is written
        with progress_bar(games * (trials + 1), "games", leave=False) as bar:
            def step(n: int, row: dict) -> None:
                bar.update(n)
                bar.set_postfix_str(f"spread {row['spread']:.1f} pts", refresh=False)

            bar.update(games)  # the unmodified game's measure comes first
            measured, tried = knobs.search(players, base, name, target, trials, games, seed, progress=step,
                                           families=families)
        picks = knobs.best_candidates([r for r in tried if r["variant"] != base], candidates)
        plan = StudyPlan([RunConfig(v, players, (name,) * players) for v in [base, *picks]], games=verify,
                         seed=seed + 1_000_003, kind="fix-seats",
                         meta={"target": target, "trials": trials, "games_per_trial": games, "search_seed": seed,
                               "search": list(families)})
        run_study_plan(the, plan, folder, "local", None, None)
        frame = knobs.fixes_table(folder, base, picks, target)
        data = {"players": players, "variant": base, "strategy": name, "target": target, "seed": seed,
                "search": list(families),
                "trials": trials, "games_per_trial": games, "verify_games": verify, "folder": str(folder),
                "search_base": {"spread": measured["spread"], "length": measured["length"]},
                "tried": [{k: r[k] for k in ("variant", "spread", "length_ratio", "feasible", "change")} for r in tried],
                "rows": frame.to_dicts()}
        knobs.save_fixes(folder, frame, {k: v for k, v in data.items() if k != "rows"})
    configs = [(the.setup(players, v), None, [name]) for v in [base, *picks]]
    return {**data, "bot_notes": bot_notes(the, configs, distance, seed)}
