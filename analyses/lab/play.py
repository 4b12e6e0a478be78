"""Playing and checking one configuration: simulate, play's set-up, conformance, decks, strategies, warm-up, bench."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import polars as pl

from analyses.lab.common import (FolderOptions, LabInputError, check_players, check_study_numbers, deal, default_players, game_of, one_cards,
                                 prepare, rules_flags, run_study_plan, stderr_line, variant_text)
from analyses.lab.errors import ParameterError, parameter_error
from analyses.lab.validate import check_arguments
from analyses.lab.whatif import bot_notes
from analyses.study.progress import progress_bar
from analyses.games import DEFAULT_GAME, need_hook, wing_of


def setup_of(game, players: int | None = None, variant: str | None = None, cards: Path | None = None, *,
             sleep_token: bool = False, shifting_tokens: bool = False, swaps: Sequence[str] | None = None,
             deck: Path | None = None):
    """A game's set-up from the command line's words: player count, variant (or rules flags) and card file.

    Returns ``(setup, cards)``: the set-up and the one card file in use (``--deck`` or ``--cards``).
    """
    rules_flags(game, {"--sleep-token": sleep_token, "--shifting-tokens": shifting_tokens, "--swap": swaps,
                       "--deck": deck})
    cards = one_cards(deck, cards)
    text = variant_text(variant, {"--sleep-token": sleep_token, "--shifting-tokens": shifting_tokens}, swaps)
    players = check_players(game, default_players(game) if players is None else players)
    return game.setup(players, "base" if text is None else text, cards), cards


def simulate_summary(game: str = DEFAULT_GAME, players: int | None = None, games: int = 100_000, seed: int = 1, *,
                     variant: str | None = None, strategies: Sequence[str] | None = None, cards: Path | None = None,
                     deck: Path | None = None, sleep_token: bool = False, shifting_tokens: bool = False,
                     swaps: Sequence[str] | None = None, chunk_size: int = 50_000, out: Path | None = None,
                     precision: float | None = None, max_games: int = 1_000_000, aggregate_only: bool = False,
                     backend: str = "local", scheduler: str | None = None, workers: int | None = None,
                     progress: bool | None = None, interrupts: bool = False, options: FolderOptions | None = None,
                     distance: bool = True) -> dict:
    """Play ``games`` games of one configuration on the fast engine; the per-seat summary (``dreamscape simulate``).

    Parameters
    ----------
    game, players, variant, cards
        The configuration (default players: 3 where the game allows it, else its largest count).
    strategies : list of str, optional
        One strategy spec per seat, or one for all (default: the game's ``default_strategy``).
    out : Path, optional
        A study folder to write (resumed when it exists); the returned summary is then read back from the
        folder (the same layout, with ``folder``; the folder's own tables: :func:`analyses.lab.open_study`).
    precision, max_games, aggregate_only, backend, scheduler, workers
        Study-folder options (they need ``out``).
    options : FolderOptions, optional
        The study-folder option block as one object (the command line's); it replaces
        ``out``, ``backend``, ``scheduler``, ``workers``, ``seed``, ``chunk_size`` and ``progress``.
    distance : bool
        On a changed game (a knob, a rules variant, a swap, a deck file): also measure each bot's distance
        from search (a few hundred more games; :mod:`analyses.lab.whatif`); its training status is named
        either way, under ``bot_notes``.

    Returns
    -------
    dict
        ``seats`` (one row per seat: strategy, win rate and its 95% interval, means), the run's
        totals, ``seconds`` and ``games_per_s`` (the same as ``dreamscape simulate --json``).
    """
    check_arguments(locals())  # the command line's bounds, named by parameter
    if options is not None:
        out, backend, scheduler, workers = options.out, options.backend, options.scheduler, options.workers
        seed, chunk_size, progress, interrupts = options.seed, options.chunk_size, options.progress, options.interrupts
    the = game_of(game)
    check_study_numbers(games, precision, max_games, chunk_size, workers)
    setup, cards = setup_of(the, players, variant, cards, sleep_token=sleep_token, shifting_tokens=shifting_tokens,
                            swaps=swaps, deck=deck)
    prepare(the, progress, interrupts=interrupts)
    seats = the.seat_strategies(strategies, setup)
    if out is not None:
        from analyses.study.model import RunConfig
        from analyses.study.studyfile import StudyPlan

        plan = StudyPlan([RunConfig(the.variant_name(setup), setup.players, seats)], games=games, precision=precision,
                         max_games=max_games, seed=seed, chunk_size=chunk_size, aggregate_only=aggregate_only,
                         kind="simulate", **deal(the, cards))
        clock: list[float] = []
        run_study_plan(the, plan, Path(out), backend, scheduler, workers, played=clock.append)
        summary = folder_simulation(the, setup, Path(out), sum(clock))
        return {**described(the, setup, summary), "folder": str(out),
                "bot_notes": bot_notes(the, [(setup, cards, seats)], distance, seed)}
    if precision is not None or aggregate_only or backend != "local":
        raise ParameterError("precision, aggregate_only and backend write a study folder: give out=DIR",
                             "--precision, --aggregate-only and --backend write a study folder: add --out DIR")
    summarize = wing_of(the).simulate_summary
    with progress_bar(games, "games", leave=False) as bar:
        step = lambda done, total: bar.update(done - bar.n)  # noqa: E731
        if summarize is not None:
            summary = summarize(setup, seats, games, seed, chunk_size, progress=step)
        else:
            from analyses.study.gamechunks import simulate_game

            shares = {c[0]: c[3] for c in the.columns.get("game", ()) if len(c) > 3}
            summary = simulate_game(the, setup, seats, games, seed, chunk_size, progress=step, shares=shares)
    return {**described(the, setup, summary), "bot_notes": bot_notes(the, [(setup, cards, seats)], distance, seed)}


def folder_simulation(the, setup, folder: Path, seconds: float) -> dict:
    """``simulate --out``'s table from the study folder it wrote: the simulate layout (issue #40), every number
    read back from the folder's per-chunk sums (a game's declared column ``mean_X``: ``sum_X`` / games; a
    share of games: its per-game rows, absent from an aggregate-only folder), ``seconds`` the play's wall time."""
    import math

    import polars as pl

    from analyses.stats.intervals import wilson
    from analyses.study.folder import read_manifest, scan_games, seat_totals

    rows = seat_totals(folder).sort("seat").to_dicts()
    n = int(rows[0]["n"]) if rows else 0

    def mean(row: dict, key: str) -> float:
        name = key.removeprefix("mean_")
        for column in (f"sum_{name}", f"sum_{name.removeprefix('game_')}"):
            if column in row:
                return row[column] / n if n else math.nan
        return float(row[key]) if key in row else math.nan  # a count kept as it is (aborted games)

    seats = []
    for row in rows:
        est = wilson(float(row["sum_win"]), n)
        seats.append({"seat": int(row["seat"]), "strategy": row["strategy"], "win_rate": est.value,
                      "win_ci": [est.low, est.high], **{c[0]: mean(row, c[0]) for c in the.columns.get("seat", ())}})
    out = {"players": setup.players, "variant": the.variant_name(setup), "games": n, "seed": read_manifest(folder).seed,
           "seats": seats, "seconds": round(seconds, 4), "games_per_s": round(n / seconds, 1) if seconds > 0 else None}
    for c in the.columns.get("game", ()):
        if len(c) > 3 and not read_manifest(folder).aggregate_only:
            array, value = c[3]
            first = scan_games(folder).filter(pl.col("seat") == 0).select(pl.col(array) == value).collect()
            out[c[0]] = float(first.to_series().mean()) if first.height else math.nan
        else:
            out[c[0]] = mean(rows[0], c[0]) if rows and len(c) <= 3 else math.nan
    return out


class _SetupFields(dict):
    """A setup's fields by name, for str.format_map of a column label."""

    def __init__(self, setup) -> None:
        super().__init__()
        self.setup = setup

    def __missing__(self, key: str):
        return getattr(self.setup, key)


def described(the, setup, summary: dict) -> dict:
    """A simulation summary with what its table shows for every game alike: the game, the deck actually
    played (name and card count) and the game's own columns (:attr:`simcore.games.Game.columns`)."""
    deck, cards = the.deck_of(setup) if the.deck_of is not None else ("base", None)
    # a label may name a rules number with {field} (a Setup field), so that it says what was played: Counting
    # Zzzzs' "ends at {goal} points" reads 40 in the rulebook's game and 30 with knob:goal=30
    fields = _SetupFields(setup)
    columns = {part: [{"key": c[0], "label": c[1].format_map(fields), "format": c[2]} for c in the.columns.get(part, ())]
               for part in ("seat", "game")}
    solo_win = the.columns.get("solo_win")
    return {"game": the.name, "title": the.title, **summary, "deck": deck, "deck_cards": cards,
            "columns": {**columns, **({"solo_win": solo_win} if solo_win else {})}}


def simulate(game: str = DEFAULT_GAME, players: int | None = None, games: int = 100_000, seed: int = 1,
             **options) -> pl.DataFrame:
    """:func:`simulate_summary` as a polars DataFrame: one row per seat, seats counted from 1 (as the command line).

    Every scalar of the run (game count, variant, seed, ...) is a column of every row;
    ``win_rate`` is a fraction (0-1; the command line prints it in percent) and
    ``win_low``/``win_high`` its 95% interval.
    """
    check_arguments(locals())  # the command line's bounds, named by parameter
    summary = simulate_summary(game, players, games, seed, **options)
    if summary.get("folder"):  # written to a study folder: its seat table
        from analyses.lab.studies import open_study

        return open_study(summary["folder"]).seats
    return seat_frame(summary)


def seat_frame(summary: dict) -> pl.DataFrame:
    """The seat rows of a summary dict, with its scalars as columns and the interval split in two.

    The summary's seats are indexes from 0 (``simulate --json``); the frame counts them from 1, as the
    command line's table does (``seat`` 1 plays first). On a changed game every row also has its bot's
    ``training`` status (and ``training_detail``) and its ``distance_search``, ``distance`` (the one-seat
    search gain), ``distance_low`` and ``distance_high``.
    """
    scalars = {k: v for k, v in summary.items() if k != "seats" and not isinstance(v, (list, dict))}
    notes = {n["strategy"]: n for n in summary.get("bot_notes") or []}
    rows = []
    for seat in summary["seats"]:
        row = {k: v for k, v in seat.items() if not isinstance(v, (list, dict))}
        low, high = seat["win_ci"]
        note = notes.get(seat["strategy"])
        if note is not None:
            row.update({"training": note["training"], "training_detail": note["training_detail"],
                        "distance_search": note["search"], "distance": note["gain"], "distance_low": note["gain_low"],
                        "distance_high": note["gain_high"]})
        rows.append({**scalars, **row, "seat": seat["seat"] + 1, "win_low": low, "win_high": high})
    return pl.DataFrame(rows)


def conformance(game: str = DEFAULT_GAME, paths: Sequence[Path] | None = None, engine: str = "both") -> dict:
    """Play rules scenarios on one or both engines: ``scenarios`` (name, file, passed, reason), counts.

    A game's own scenario runner is used when it has one (it tells a file that
    cannot be loaded from a failing one: ``malformed``); otherwise each engine
    plays each file through :meth:`simcore.games.Game.check_scenario`, by default
    the game's own scenarios.
    """
    check_arguments(locals())  # the command line's bounds, named by parameter
    the = game_of(game)
    runner = wing_of(the).conformance
    if runner is not None:
        data = runner(list(paths or []), engine)
    else:
        data = generic_conformance(the, paths, engine)
    rows = data["scenarios"]
    passed = sum(r["passed"] for r in rows)
    return {"game": the.name, **data, "passed": passed, "failed": len(rows) - passed,
            "malformed": sum(bool(r.get("malformed")) for r in rows)}


def generic_conformance(the, paths: Sequence[Path] | None, engine: str) -> dict:
    """Each scenario file on each engine through the game's ``check_scenario``."""
    from simcore.games import ENGINES

    choices = (*ENGINES, "both")
    if engine not in choices:
        raise parameter_error("engine", f"must be one of {', '.join(choices)}, got {engine!r}")
    files = scenario_files(paths or [the.scenarios_dir])
    if not files:
        raise LabInputError(f"no scenario (*.json) found in {', '.join(str(p) for p in paths or [])}")
    engines = ENGINES if engine == "both" else (engine,)
    rows = []
    for path in files:
        bad = [(one, r) for one in engines if (r := the.check_scenario(path, one)) is not None]
        reason = "; ".join(f"{one}: {r}" for one, r in bad) or None
        rows.append({"name": path.stem, "file": str(path), "passed": not bad, "reason": reason})
    return {"engine": engine, "scenarios": rows}


def scenario_files(paths: Sequence[Path]) -> list[Path]:
    """Files as given; folders give their ``*.json`` files, subfolders too, in name order."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            out += sorted((p for p in path.rglob("*.json") if p.is_file()), key=lambda p: p.relative_to(path).parts)
        else:
            out.append(path)
    return out


def decks(game: str = DEFAULT_GAME, deck: Path | None = None, swaps: str = "all") -> dict:
    """The game's swap decks (Project Dreamscape: the Controlled Study decks, R1.4): ``source``, ``rows``, ``decks``."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    the = game_of(game)
    swapper = need_hook(the, "card_swaps", "decks")
    return swapper.swap_deck_table(the.load_cards(deck), swaps)


def strategies(game: str = DEFAULT_GAME) -> dict:
    """The game's built-in strategies: ``default`` (every command's bot) and ``strategies`` (name, description)."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    the = game_of(game)
    listed = wing_of(the).strategy_rows
    rows = listed() if listed is not None else sorted(the.strategies().items())
    return {"game": the.name, "title": the.title, "default": the.default_strategy,
            "strategies": [{"name": n, "description": d} for n, d in rows], "note": wing_of(the).strategy_note}


def warmup(game: str = DEFAULT_GAME, say: Callable[[str], None] = stderr_line) -> dict:
    """Compile the game's fast engine (and bots) into numba's cache once; how long it took."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    import time

    the = game_of(game)
    warm = wing_of(the).warm_up
    if warm is not None:
        return {"game": the.name, **warm(say)}
    from analyses.study.gamechunks import warm_game
    from analyses.study.warmup import game_engine_compiled, possessive, ready_game_engine

    t0 = time.perf_counter()
    already = game_engine_compiled(the)
    ready_game_engine(the, say)  # the same two lines as any command that compiles it
    warm_game(the)  # and every built-in bot at every seat count, loaded
    seconds = time.perf_counter() - t0
    say(f"{possessive(the.title)} fast engine ready in {seconds:.1f} s (cached for every later run)")
    return {"game": the.name, "seconds": seconds, "already_compiled": already}


def bench(game: str = DEFAULT_GAME, quick: bool = False, say: Callable[[str], None] = stderr_line) -> dict:
    """Games/s of the game's engines and its cold and warm start (a game with its own benchmark)."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    the = game_of(game)
    measure = wing_of(the).bench
    if measure is not None:  # a game with more to time than its engines (Project Dreamscape: the strategy hook)
        return {"game": the.name, "title": the.title, **measure(quick, say)}
    from analyses.tools.bench import run_bench

    # --quick: the bots both engines play, less a search player (hundreds of games/s would take minutes)
    bots = [s for s in the.reference_strategies(the.setup(max(the.seat_counts))) if not s.startswith("search")]
    return {"game": the.name, "title": the.title,
            **run_bench(game=the, quick=quick, strategies=bots if quick else None, progress=say)}


def play_setup(game: str = DEFAULT_GAME, players: int | None = None, strategies: Sequence[str] | None = None,
               **setup_words):
    """``(game, setup, bots)`` of ``dreamscape play``: the bots are the reference engine's (the narrated game)."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    the = game_of(game)
    setup, _ = setup_of(the, players, **setup_words)
    known = the.reference_strategies(setup)
    if the.default_strategy in known:  # the reference engine plays every bot of the game
        return the, setup, the.seat_strategies(strategies, setup)
    specs = list(strategies or [known[0]])
    for spec in specs:
        if spec not in known:
            raise LabInputError(f"unknown strategy {spec!r} (known: {', '.join(sorted(known))})")
    if len(specs) not in (1, setup.players):
        raise ParameterError(f"give one of strategies per seat ({setup.players}) or one for all, got {len(specs)}",
                             f"give one --strategy per seat ({setup.players}) or one for all, got {len(specs)}")
    return the, setup, tuple(specs * setup.players if len(specs) == 1 else specs)
