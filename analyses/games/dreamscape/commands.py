"""Project Dreamscape's own steps of the lab's commands, the hooks of its lab wing.

The lab (:mod:`analyses.lab`) plays every game the same way; where Project
Dreamscape has more to say than the generic step, its wing
(:data:`analyses.games.dreamscape.WING`, an :class:`analyses.games.GameWing`) offers
these functions and the lab uses them: its engine compiles on first use (announced), a simulation's summary has
scores, Z cards and the deck, a scenario that cannot be loaded is told apart
from one that fails, and its swap decks can be listed.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path


def prepare_engine(notice: Callable[[str], None], interrupts: bool = False) -> None:
    """Announce a game loop's compile (a cold numba cache) before it starts, and a strategy's when it compiles.

    Only the game loop a run needs compiles, on its first use, between a line
    with its estimate and a line with the time it took
    (:func:`analyses.games.dreamscape.warmup.loop_notice`). ``interrupts``: the process
    is a console command, so Ctrl-C also stops numba code
    (:func:`simcore.interrupts.install`).
    """
    from analyses.games.dreamscape.warmup import STRATEGY_NOTICE, loop_notice
    from simcore.games.dreamscape.bots.guard import set_compile_notice as set_guard_notice
    from simcore.games.dreamscape.fast.runner import set_loop_notice
    from simcore.games.dreamscape.fast.strategies import set_compile_notice

    if interrupts:
        from simcore import interrupts as handlers

        handlers.install()
    set_compile_notice(None)  # the built-ins' small callbacks compile (a few seconds, once) without a line each
    set_guard_notice(None)
    import simcore.games.dreamscape.bots.builtins  # noqa: F401

    set_loop_notice(loop_notice(notice))
    set_compile_notice(lambda where: notice(STRATEGY_NOTICE.format(where)))
    set_guard_notice(lambda where: notice(STRATEGY_NOTICE.format(where)))


def warm_local(backend: str, scheduler: str | None, notice: Callable[[str], None]) -> None:
    """Load (or compile) the game loops before a run's progress bar starts, so it counts play only.

    The loops are the main study's (:data:`analyses.games.dreamscape.warmup.MAIN_LOOPS`);
    a cached one only loads. Locally the study starts playing once the plain
    loop is ready and the search loop compiles in the background
    (:func:`analyses.games.dreamscape.warmup.warm_study`). A local Dask cluster's workers
    share this machine's numba cache: every loop is compiled here first, so
    they only load it. Workers of a running scheduler may have a cold cache of
    their own: say so, since their compile is silent.
    """
    from analyses.games.dreamscape.warmup import MAIN_LOOPS, WORKER_NOTICE, engine_compiled, warm_study, warm_up

    if backend == "dask" and scheduler is not None:
        notice(WORKER_NOTICE)
    elif backend == "local":
        warm_study(notice, MAIN_LOOPS)
    elif backend == "dask" and not engine_compiled(MAIN_LOOPS):
        warm_up(notice, MAIN_LOOPS)


def load_bots(specs: Iterable[str]) -> list[str]:
    """The fast engine's registered names of strategy specs (``linear:FILE.toml`` -> its name)."""
    from simcore.games import GameError
    from simcore.games.dreamscape.bots.api import StrategyError, load_strategy

    try:
        return [load_strategy(spec) for spec in specs]
    except StrategyError as exc:
        raise GameError(str(exc)) from None


def simulate_summary(setup, seats, games: int, seed: int, chunk_size: int,
                     progress: Callable[[int, int], None] | None = None) -> dict:
    """``dreamscape simulate`` without a folder: per seat win rate, score, Z and turns, and the run's time.

    Totals are kept chunk by chunk (:class:`analyses.games.dreamscape.runsummary.RunTotals`),
    so memory stays one chunk's however many games; the kernels are loaded
    first, so the time and games/s count play only.
    """
    from analyses.games.dreamscape.runsummary import RunTotals
    from analyses.games.dreamscape.warmup import warm_run
    from simcore.games.dreamscape.fast import SimConfig, simulate

    names = load_bots(seats)
    deck = setup.deck()
    config = SimConfig(players=setup.players, options=setup.variant.options, deck=deck)
    warm_run(config, names)
    t0 = time.perf_counter()
    totals = RunTotals(setup.players, names)
    simulate(config, games, seed, names, chunk_size=chunk_size, on_chunk=totals.add, keep=False, progress=progress)
    seconds = time.perf_counter() - t0
    summary = totals.summary()
    summary.update({"players": setup.players, "variant": setup.variant.name, "deck": deck.label,
                    "deck_cards": len(deck), "seed": seed, "seconds": round(seconds, 4),
                    "games_per_s": round(games / seconds, 1) if seconds else None})
    return summary


def conformance(paths: list[Path] | None, engine: str) -> dict:
    """The scenarios of ``paths`` on ``engine`` (reference, fast or both): rows, counts, malformed files.

    A file that cannot be loaded as a scenario is a failure with its reason
    and counts as ``malformed`` (the command's exit code 2).
    """
    from simcore.games import GameError
    from simcore.games.dreamscape import SCENARIOS_DIR
    from simcore.games.dreamscape.conformance import ENGINE_CHOICES, run_scenario_file, scenario_files

    if engine not in ENGINE_CHOICES:
        raise GameError(f"--engine must be one of {', '.join(ENGINE_CHOICES)}, got {engine!r}")
    if not paths:  # the game's own, installed with it, as for every game (the shared ones: ../shared/conformance)
        paths = [SCENARIOS_DIR]
    files = list(scenario_files(paths))
    if not files:
        raise GameError(f"no scenario (*.json) found in {', '.join(str(p) for p in paths)}")
    rows = []
    for path in files:
        result = run_scenario_file(path, engine)
        rows.append({"name": result.name, "file": str(path), "passed": bool(result.passed),
                     "reason": None if result.passed else result.reason, "malformed": bool(result.malformed)})
    return {"engine": engine, "scenarios": rows}


def warm_up(say: Callable[[str], None]) -> dict:
    """``dreamscape warmup``: the engine and every built-in strategy compiled (or loaded) once."""
    from analyses.games.dreamscape.warmup import MAIN_LOOPS, engine_compiled, warm_up as warm

    already = engine_compiled(MAIN_LOOPS)
    return {"seconds": warm(say=say), "already_compiled": already}


def bench(quick: bool, say: Callable[[str], None]) -> dict:
    """``dreamscape bench``: games/s of both engines and the fast engine's cold and warm start."""
    from analyses.games.dreamscape.bench import GREEDY_HOOK, GREEDY_HOOK_KINDS, run_bench  # registers the bots timed

    bots = (GREEDY_HOOK, GREEDY_HOOK_KINDS, "chain", "economist", "spoiler", "linear", "expert")
    return run_bench(quick=quick, hook_strategies=bots, progress=say)


STRATEGY_NOTE = (
    "Your own: --strategy path/to/bot.py:function, package.module:function, linear:FILE.toml, expert:FILE.toml or "
    "strong:FILE.npz; search:NAME or search:NAME@K searches every decision with K playouts per option (default 8) "
    "played by NAME (search:strong: the strong bot plays the playouts from the next turn on); "
    "search:NAME@K:late searches the last third of the game only (:mid+late, :early alike)")


def strategy_rows() -> list[tuple[str, str]]:
    """The built-in strategies in the order ``dreamscape strategies`` lists them."""
    from simcore.games.dreamscape.bots.api import strategy_table

    return list(strategy_table())


def tournament_field() -> list[str]:
    """The bots a tournament plays when none is named: the heuristic bots and the random baseline."""
    return ["random", "greedy", "chain", "economist", "spoiler"]


def exploit(bot: str, counts: list[int], variants: list[str], games: int, playouts: list[int], phases: str | None,
            seed: int, chunk_size: int, out: Path | None, *, game) -> dict:
    """``dreamscape exploit``: per seat, the win rate ``search:BOT@K`` gains over ``bot`` on the same deals.

    Project Dreamscape's checks (a search player is not a bot to measure; the
    variant names canonical), then the generic command.
    """
    from analyses.lab.bots import generic_exploit
    from simcore.games import GameError
    from simcore.games.dreamscape.variants import parse_variant

    variants = list(dict.fromkeys(parse_variant(v).name for v in variants))
    if bot.startswith("search:"):
        raise GameError(f"--strategy {bot}: give the bot itself; exploit plays search:NAME against it")
    return generic_exploit(bot, counts, variants, games, playouts, phases, seed, chunk_size, out, game=game)


def restrict(bot: str, counts: list[int], variants: list[str], kinds: list[str] | None, games: int, seed: int,
             chunk_size: int, out: Path | None, *, game=None) -> dict:
    """``dreamscape restrict``: how much a seat loses when its bot may never buy (or perform) one dream type."""
    from analyses.study.progress import progress_bar
    from analyses.tools.restrict import games_needed, restrict_data, save_restrict, timed_restrict
    from simcore.games import GameError
    from simcore.games.dreamscape.bots.api import StrategyError, load_strategy
    from simcore.games.dreamscape.bots.restricted import RESTRICTIONS, restricted
    from simcore.games.dreamscape.variants import check_variant_fits, parse_variant

    variants = list(dict.fromkeys(parse_variant(v).name for v in variants))
    for v in variants:
        for p in counts:
            check_variant_fits(parse_variant(v), p)
    kinds = list(dict.fromkeys(kinds or RESTRICTIONS))
    for k in kinds:
        if k not in RESTRICTIONS:
            raise GameError(f"--restriction must be one of {', '.join(RESTRICTIONS)}, got {k!r}")
    try:
        name = load_strategy(bot)
        restricted(name, 0, kinds[0], counts[0], parse_variant(variants[0]).options)  # a bot that cannot be restricted
    except StrategyError as exc:
        raise GameError(str(exc)) from None
    with progress_bar(games_needed(counts, variants, kinds, games), "games", leave=False) as bar:
        frame, seconds = timed_restrict(name, counts, variants, kinds, games, seed, chunk_size, progress=bar.update)
    data = restrict_data(frame, seconds, seed)
    if out is not None:
        save_restrict(out, frame, data)
        data["folder"] = str(out)
    return data


def train(setup, out: Path, iterations: int, games: int, playouts: int, check_games: int, seed: int,
          command: str) -> dict:
    """``dreamscape train``: expert iteration from the linear bot's weights; the table is written to ``out``."""
    import os
    import platform

    from analyses.games.dreamscape.train import train as run_train, train_comment, train_data
    from analyses.study.progress import progress_bar
    from simcore.games.dreamscape.bots.builtins import LINEAR_WEIGHTS
    from simcore.games.dreamscape.bots.expert import write_table

    deck = setup.deck()
    with progress_bar(iterations * games, "games") as bar:
        result = run_train(setup.players, setup.variant.options, deck, LINEAR_WEIGHTS, iterations=iterations,
                           games=games, playouts=playouts, seed=seed, check_games=check_games,
                           progress=lambda done, total: bar.update(done - bar.n))
    name = setup.variant.name
    data = train_data(result, setup.players, name, deck.label, seed, playouts, str(out))
    machine = f"{os.cpu_count()} cores ({platform.machine()}, Python {platform.python_version()})"
    write_table(out, result.table, {"name": f"expert-{setup.players}p-{name}", "players": setup.players,
                                    "variant": name}, train_comment(data, command, machine))
    return data


def train_strong(setup, out: Path, games: int, trees: int, leaves: int, seed: int, command: str,
                 table: Path | None = None) -> dict:
    """``dreamscape train --strategy strong``: the strong bot's value from expert self-play, written to ``out``
    (``table``: the self-play of that expert table, ``--table``)."""
    import os
    import platform

    from analyses.games.dreamscape.train_strong import train_strong as run_train
    from analyses.lab.common import stderr_line
    from analyses.study.progress import progress_bar
    from simcore.games.dreamscape.bots.strong import write_value

    deck = setup.deck()
    name = setup.variant.name
    with progress_bar(games, "games") as bar:
        def step(what: str, done: int, total: int) -> None:
            if what == "games":
                bar.update(done - bar.n)
                if done == total:
                    stderr_line(f"fitting {trees} trees to the games' late turn starts (a few minutes on 2 cores)")
        model = run_train(setup.players, setup.variant.options, name, deck, games, seed, trees, leaves, progress=step,
                          bot=f"expert:{table}" if table is not None else "expert")
    model.meta["command"] = command
    model.meta["machine"] = f"{os.cpu_count()} cores ({platform.machine()}, Python {platform.python_version()})"
    write_value(out, model)
    keys = ("players", "variant", "deck", "games", "seed", "leaves", "learning_rate", "rows", "held_out_rows",
            "held_out_r2", "games_seconds", "fit_seconds", "seconds")
    return {"strategy": "strong", **{k: model.meta[k] for k in keys}, "trees": model.n_trees,
            "out": str(out), "command": command}


def tune(setup, field: list[str], budget: int, games_per_eval: int, seed: int, out: Path) -> dict:
    """``dreamscape tune``: the linear bot's weights by CMA-ES against ``field`` (seats rotated), written to ``out``."""
    from analyses.study.progress import progress_bar
    from analyses.games.dreamscape.warmup import warm_run
    from simcore.games.dreamscape.bots.features import NAMES
    from simcore.games.dreamscape.bots.linear import write_weights
    from simcore.games.dreamscape.bots.tuner import tune as run_tune
    from simcore.games.dreamscape.fast import SimConfig

    load_bots(field)
    warm_run(SimConfig(players=3), ["greedy"])
    players, variant = setup.players, setup.variant.name
    with progress_bar(budget, "eval", leave=False) as bar:
        def step(n: int, best: float) -> None:
            bar.update(n)
            bar.set_postfix_str(f"best win rate {100 * best:.1f}%")
        result = run_tune(players, variant, field, budget, games_per_eval, seed, progress=step)
    comment = (
        f"Tuned by `dreamscape tune`: {players} players, variant {variant}, field {', '.join(field)},\n"
        f"seed {seed}, {result.evaluations} evaluations of {games_per_eval} games; best mean win credit {result.fitness:.4f}"
    )
    write_weights(out, result.weights, f"tuned-{players}p-{variant}", comment)
    return {"out": str(out), "players": players, "variant": variant, "field": field, "seed": seed,
            "evaluations": result.evaluations, "games_per_eval": games_per_eval, "best_win_credit": result.fitness,
            "fair_share": 1 / players,
            "weights": {NAMES[i]: float(w) for i, w in enumerate(result.weights) if i in NAMES and w != 0.0}}
