"""`dreamscape`: the balance lab's command line.

Commands stay thin: they parse and validate options, then delegate to plain
functions in ``simcore``, ``strategies``, ``analyses`` and ``reports``. Bad
input ends with one line naming the problem and exit code 2, never a traceback.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

try:  # typer 0.28 (pinned in pyproject.toml) vendors click as typer._click
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - older typer on top of click
    from click.exceptions import ClickException, NoArgsIsHelpError
from typer.core import TyperGroup

from simcore.games.dreamscape.cards import CardError
from simcore.faults import StrategyFault
from simcore.games.dreamscape.decks import Deck, DeckError, DeckSpec, all_swap_decks, default_spec, deck_from_swap_texts, load_spec
from simcore.files import check_output_file, check_output_folder
from simcore.games import DEFAULT_GAME, GAME_NAMES, GameError, game_input_errors
from simcore.rng import MAX_GAMES, MAX_SEED
from simcore.games.dreamscape.rules import MAX_PLAYERS, MIN_PLAYERS, KnobError, Options
from simcore.games.dreamscape.variants import VariantError
from analyses.study.model import MAX_CHUNK_SIZE, StudyError
from analyses.study.progress import progress_bar, set_progress


class UserInputError(Exception):
    """Bad input from the user: reported as one line, exit code 2."""


class Interrupted(Exception):
    """Ctrl-C during a command (typer would turn the KeyboardInterrupt into a silent exit 130)."""


class OneLineErrors(TyperGroup):
    """Turns usage errors and our own input errors into one line and exit code 2, Ctrl-C into one line and 130."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted() from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        prog = prog_name or "dreamscape"
        if args is None:  # run as a program (its arguments from sys.argv), not called by a test with its own
            _PROCESS["console"] = True
        try:
            rv = super().main(
                args=args, prog_name=prog_name, complete_var=complete_var, standalone_mode=False, **extra
            )
        except NoArgsIsHelpError as exc:
            typer.echo(exc.format_message())
            rv = 0
        except ClickException as exc:
            typer.echo(f"{prog}: error: {exc.format_message()}", err=True)
            rv = exc.exit_code
        except (UserInputError, DeckError, CardError, VariantError, KnobError, StudyError, StrategyFault,
                GameError) as exc:
            typer.echo(f"{prog}: error: {exc}", err=True)
            rv = 2
        except ValueError as exc:  # a game's own input error (e.g. Pleasant Dreams' PDError); anything else is a bug
            if not isinstance(exc, game_input_errors()):
                raise
            typer.echo(f"{prog}: error: {exc}", err=True)
            rv = 2
        except (Interrupted, KeyboardInterrupt, typer.Abort):
            interrupts = sys.modules.get("simcore.interrupts")
            if interrupts is not None:  # Python got control: no hard stop after the grace period
                interrupts.cancel_deadline()
            typer.echo(f"{prog}: interrupted", err=True)
            rv = 130
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=OneLineErrors,
    help="Project Dreamscape balance lab: rules engine, simulations and balance reports.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


# ----------------------------------------------------------------------------- shared options

PlayersOpt = Annotated[int, typer.Option("--players", "-p", help="Number of players, 1 (solo Virtual Dreaming) to 4.")]
GamePlayersOpt = Annotated[Optional[int], typer.Option(
    "--players", "-p", help="Number of players: Project Dreamscape 1 (solo Virtual Dreaming) to 4, default 3; "
                            "Pleasant Dreams 1 (solo) or 2, default 2.")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", min=0, max=MAX_SEED,
                                       help="Random seed, 0 to 2**64-1; the same seed gives the same game.")]
SleepTokenOpt = Annotated[bool, typer.Option("--sleep-token", help="Play the Sleep Token variant (R9).")]
ShiftingTokensOpt = Annotated[
    bool, typer.Option("--shifting-tokens", help="Shifting Dreams moves the cost tokens instead (R6.8 variant).")
]
SwapOpt = Annotated[
    Optional[list[str]],
    typer.Option("--swap", help="Controlled Study swap REMOVED:ADDED, e.g. FF:ID (repeatable, at most 3; R1.4)."),
]
DeckOpt = Annotated[
    Optional[Path], typer.Option("--deck", help="A deck composition TOML file (format of the default deck, R1.3; "
                                                 "each card 0 to 256 copies, at most 256 cards in all).")
]


GAME_COMMANDS = "simulate, play, conformance, strategies, study, summarize and report"
_GAME_COMMAND_NAMES = {"simulate", "play", "conformance", "strategies", "study", "summarize", "report", "warmup"}


_ONLY_DREAMSCAPE_HINTS = {
    "decks": " (its card list is a --cards file)",
    "sweep": " (Pleasant Dreams has no swap decks)",
    "solo": "; its solo challenge: simulate --game pleasant-dreams --players 1 --variant start=4+actions=N, or study",
    "restrict": "; its restricted play (BOT/no-ACTION per action card) runs in `dreamscape study --game pleasant-dreams`",
    "fix-seats": " (fix-seats searches Project Dreamscape's rules knobs)",
}


def _game_option(ctx: typer.Context, value: str | None) -> str | None:
    """``--game`` is read first (eager): an unknown game, or a command without meaning for it, fails before anything else."""
    if value is None or value == DEFAULT_GAME:
        return value
    title = pick_game(value).title  # an unknown name: one line naming the games
    name = ctx.info_name or ""
    if name not in _GAME_COMMAND_NAMES:
        raise UserInputError(f"`dreamscape {name}` is for Project Dreamscape only; {title} supports {GAME_COMMANDS}"
                             f"{_ONLY_DREAMSCAPE_HINTS.get(name, '')}")
    return value


GameOpt = Annotated[
    str, typer.Option("--game", is_eager=True, callback=_game_option,
                      help=f"The game: {' or '.join(GAME_NAMES)} (default {DEFAULT_GAME}).")
]
CardsOpt = Annotated[
    Optional[Path], typer.Option("--cards", help="Another game's card list (TOML, the format of its shipped "
                                                  "cards.toml); for Project Dreamscape the same as --deck.")
]


def pick_game(name: str):
    """The game of ``--game`` with its bots loaded (one line naming the games when unknown)."""
    from simcore.games import get_game

    return get_game(name)


def dreamscape_only(game: str, command: str) -> None:
    """Refuse another game than Project Dreamscape for a command that has no meaning for it (exit 2).

    ``--game`` refuses it first (eagerly, :func:`_game_option`); this is the same check for direct calls.
    """
    if game == DEFAULT_GAME:
        return
    title = pick_game(game).title
    raise UserInputError(f"`dreamscape {command}` is for Project Dreamscape only; {title} supports "
                         f"{GAME_COMMANDS}{_ONLY_DREAMSCAPE_HINTS.get(command, '')}")


def only_flags(game: str, **given) -> None:
    """Refuse Project Dreamscape's own flags (e.g. --sleep-token) with another game."""
    used = [name for name, value in given.items() if value]
    if used:
        raise UserInputError(f"{', '.join(used)} {'is' if len(used) == 1 else 'are'} Project Dreamscape's; "
                             f"not with --game {game}")


def deck_or_cards(deck: Path | None, cards: Path | None) -> Path | None:
    """Project Dreamscape: ``--cards`` is another name of ``--deck`` (not both)."""
    if deck is not None and cards is not None:
        raise UserInputError("give --deck or --cards, not both")
    return deck if deck is not None else cards


ProgressOpt = Annotated[
    Optional[bool],
    typer.Option("--progress/--no-progress", help="Draw progress bars on stderr (default: only when stderr is a terminal)."),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print the result as one JSON object (seats counted from 0, see README).")]
_NOTICES: set[str] = set()
# Set when the app runs as a program: it owns the process (a test calling the app keeps its signal handlers).
_PROCESS = {"console": False}


def notice(line: str) -> None:
    """One line on stderr, at most once per command (e.g. that the engine must compile first)."""
    if line not in _NOTICES:
        _NOTICES.add(line)
        typer.echo(line, err=True)


def prepare_engine(progress: bool | None) -> None:
    """Apply ``--progress/--no-progress`` and announce compilation on stderr before it starts.

    The engine's compile (a cold numba cache) is announced here, a user
    strategy's when it is loaded (:func:`simcore.games.dreamscape.fast.strategies.set_compile_notice`).
    Ctrl-C from here on also stops numba code (:func:`simcore.interrupts.install`).
    """
    from analyses.study.warmup import COMPILE_NOTICE, STRATEGY_NOTICE, engine_compiled
    from simcore import interrupts
    from simcore.games.dreamscape.fast.strategies import set_compile_notice
    from simcore.games.dreamscape.bots.guard import set_compile_notice as set_guard_notice

    if _PROCESS["console"]:  # the process is ours: Ctrl-C stops numba code too (within interrupts.GRACE_SECONDS)
        interrupts.install()
    set_progress(progress)
    if not engine_compiled():  # a cold cache: one line, and the built-in strategies compile under it too
        notice(COMPILE_NOTICE)
        set_compile_notice(None)
        set_guard_notice(None)
        import simcore.games.dreamscape.bots.builtins  # noqa: F401 - compiles the built-ins' callbacks now, silently
    set_compile_notice(lambda where: notice(STRATEGY_NOTICE.format(where)))
    set_guard_notice(lambda where: notice(STRATEGY_NOTICE.format(where)))


def seat_indexes(data: dict) -> dict:
    """``data`` for ``--json`` when its table rows number seats for people (exploit, fix-seats: seat 1 first).

    JSON keeps one convention (README, "Output conventions"): ``"seat"`` is the
    seat's index, 0 for the first player.
    """
    return {**data, "rows": [{**row, "seat": row["seat"] - 1} for row in data["rows"]]}


def writable_folder(path: Path, option: str) -> Path:
    """``path`` can be written as a folder (it may not exist yet), else one line and exit 2, before any work."""
    check_output_folder(path, option, UserInputError)
    return path


def writable_file(path: Path, option: str) -> Path:
    """``path`` can be written as a file, else one line and exit 2, before any work."""
    check_output_file(path, option, UserInputError)
    return path


def check_players(players: int) -> int:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise UserInputError(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {players}")
    return players


def resolve_deck(deck_file: Path | None, swaps: list[str] | None) -> Deck:
    """The deck for ``--deck`` and ``--swap`` options (validated, R1.3/R1.4)."""
    spec: DeckSpec = load_spec(deck_file) if deck_file else default_spec()
    return deck_from_swap_texts(swaps or [], spec)


def resolve_strategies(names: list[str] | None, players: int, known: dict) -> list[str]:
    """One strategy per seat, or one for all seats."""
    names = names or ["greedy"]
    for name in names:
        if name not in known:
            raise UserInputError(f"unknown strategy {name!r} (known: {', '.join(sorted(known))})")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise UserInputError(f"give one --strategy per seat ({players}) or one for all, got {len(names)}")
    return names


# ----------------------------------------------------------------------------- conformance


@app.command()
def conformance(
    paths: Annotated[Optional[list[Path]], typer.Argument(
        help="Scenario files or folders (searched recursively) of *.json scenarios (another game: default its own).")] = None,
    engine: Annotated[
        str, typer.Option("--engine", help="Engine(s) to play the scenarios on: reference, fast or both.")
    ] = "both",
    as_json: JsonFlag = False,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Play rules scenarios (shared/conformance/FORMAT.md) and check their expected positions.

    One line per scenario (a failure names the engine), then ``N passed, M
    failed``. With ``--engine both`` a scenario passes only if it passes on
    each engine. Exit code 0 when all pass, 1 when any fails, 2 when any file
    could not be loaded as a scenario (it is listed as a failure with the
    reason) or no scenario was found.
    """
    from simcore.games.dreamscape.conformance import ENGINE_CHOICES, run_scenario_file, scenario_files

    if engine not in ENGINE_CHOICES:
        raise UserInputError(f"--engine must be one of {', '.join(ENGINE_CHOICES)}, got {engine!r}")
    if game != DEFAULT_GAME:
        game_conformance(pick_game(game), paths, engine, as_json)
        return
    if not paths:
        raise UserInputError("give scenario files or folders (e.g. ../shared/conformance)")
    files = list(scenario_files(paths))
    if not files:
        raise UserInputError(f"no scenario (*.json) found in {', '.join(str(p) for p in paths)}")
    passed = failed = malformed = 0
    rows = []
    for path in files:
        result = run_scenario_file(path, engine)
        malformed += result.malformed
        rows.append({"name": result.name, "file": str(path), "passed": bool(result.passed),
                     "reason": None if result.passed else result.reason, "malformed": bool(result.malformed)})
        if result.passed:
            passed += 1
        else:
            failed += 1
        if not as_json:
            typer.echo(f"PASS {result.name}" if result.passed else f"FAIL {result.name}: {result.reason}")
    if as_json:
        import json

        typer.echo(json.dumps({"engine": engine, "passed": passed, "failed": failed, "scenarios": rows}))
    else:
        typer.echo(f"{passed} passed, {failed} failed")
    if malformed:
        raise typer.Exit(2)
    if failed:
        raise typer.Exit(1)


def game_conformance(the_game, paths: list[Path] | None, engine: str, as_json: bool) -> None:
    """``conformance --game NAME``: the game's scenarios (default its own folder) on one or both engines."""
    from simcore.games.dreamscape.conformance import scenario_files

    paths = paths or [the_game.scenarios_dir]
    files = list(scenario_files(paths))
    if not files:
        raise UserInputError(f"no scenario (*.json) found in {', '.join(str(p) for p in paths)}")
    engines = ("reference", "fast") if engine == "both" else (engine,)
    passed = failed = 0
    rows = []
    for path in files:
        reasons = [(one, the_game.check_scenario(path, one)) for one in engines]
        bad = [(one, r) for one, r in reasons if r is not None]
        reason = "; ".join(f"{one}: {r}" for one, r in bad) or None
        rows.append({"name": path.stem, "file": str(path), "passed": not bad, "reason": reason})
        passed, failed = passed + (not bad), failed + bool(bad)
        if not as_json:
            typer.echo(f"PASS {path.stem}" if not bad else f"FAIL {path.stem}: {reason}")
    if as_json:
        import json

        typer.echo(json.dumps({"game": the_game.name, "engine": engine, "passed": passed, "failed": failed,
                               "scenarios": rows}))
    else:
        typer.echo(f"{passed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)


# ----------------------------------------------------------------------------- play


@app.command()
def play(
    players: GamePlayersOpt = None,
    seed: SeedOpt = 1,
    sleep_token: SleepTokenOpt = False,
    shifting_tokens: ShiftingTokensOpt = False,
    swap: SwapOpt = None,
    deck: DeckOpt = None,
    strategy: Annotated[
        Optional[list[str]],
        typer.Option("--strategy", help="Bot per seat (repeatable) or one for all: random, greedy."),
    ] = None,
    game: GameOpt = DEFAULT_GAME,
    variant: Annotated[Optional[str], typer.Option(
        "--variant", help="Another game's variant (Pleasant Dreams: base, lucid, start=N, actions=N joined by +).")] = None,
    cards: CardsOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the game's record (set-up, every turn's decisions "
                                                          "and events, final scores) as one JSON object.")] = False,
) -> None:
    """Play one game on the reference engine and narrate it turn by turn."""
    import json

    from reports.narrate import game_record, narrate_game
    from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS

    if game != DEFAULT_GAME:
        only_flags(game, **{"--sleep-token": sleep_token, "--shifting-tokens": shifting_tokens, "--swap": swap,
                            "--deck": deck})
        the_game = pick_game(game)
        setup = the_game.setup(players or the_game.seat_counts[-1], variant or "base", cards)
        bots = the_game.seat_strategies(strategy, setup)
        lines = the_game.narrate(setup, bots, seed, 0)
        if as_json:
            typer.echo(json.dumps(another_game_record(the_game, setup, bots, seed, lines)))
            return
        for line in lines:
            typer.echo(line)
        return
    if variant is not None:
        raise UserInputError("play takes Project Dreamscape's rules as --sleep-token/--shifting-tokens/--swap flags")
    deck = deck_or_cards(deck, cards)
    players = 3 if players is None else players
    check_players(players)
    the_deck = resolve_deck(deck, swap)
    bots = resolve_strategies(strategy, players, REFERENCE_BOTS)
    if as_json:
        typer.echo(json.dumps(game_record(the_deck, players, seed, Options(sleep_token, shifting_tokens), bots)))
        return
    for line in narrate_game(the_deck, players, seed, Options(sleep_token, shifting_tokens), bots):
        typer.echo(line)


def another_game_record(the_game, setup, bots: tuple[str, ...], seed: int, lines: list[str]) -> dict:
    """``play --json --game NAME``: the game's result through the plug-in interface, and its narration.

    The same game 0 of ``seed`` that ``narrate`` tells, played again on the
    reference engine by ``play_games`` (both engines' per-game results).
    """
    from analyses.study.runsummary import json_ready

    result = the_game.play_games(setup, bots, seed, 0, 1, engine="reference")
    wins = the_game.seat_wins(result, setup)[0]
    return json_ready({
        "game": the_game.name, "players": setup.players, "variant": the_game.variant_name(setup), "seed": seed,
        "seats": [{"seat": i, "strategy": name, "win": float(wins[i])} for i, name in enumerate(bots)],
        "result": {key: values[0].tolist() for key, values in result.items()},
        "narration": list(lines),
    })


# ----------------------------------------------------------------------------- decks


@app.command()
def decks(
    deck: DeckOpt = None,
    swaps: Annotated[
        str, typer.Option("--swaps", help="Which swap decks to list: all, none, single, double or triple.")
    ] = "all",
    as_json: JsonFlag = False,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """List the Controlled Study decks (R1.4) with their size and cards per dream type."""
    dreamscape_only(game, "decks")
    from reports.tables import deck_lines

    sizes = {"all": None, "none": 0, "single": 1, "double": 2, "triple": 3}
    if swaps not in sizes:
        raise UserInputError(f"--swaps must be one of {', '.join(sizes)}, got {swaps!r}")
    spec = load_spec(deck) if deck else default_spec()
    chosen = [d for d in all_swap_decks(spec) if sizes[swaps] is None or len(d.removed) == sizes[swaps]]
    if as_json:
        import json

        from simcore.games.dreamscape.cards import CODES

        rows = [{"deck": d.label, "cards": len(d), "removed": [CODES[t] for t in sorted(d.removed)],
                 "added": [CODES[t] for t in sorted(d.added)],
                 "type_counts": dict(zip(CODES, (int(n) for n in d.type_counts())))} for d in chosen]
        typer.echo(json.dumps({"source": str(spec.source), "decks": rows}, default=str))
        return
    for line in deck_lines(chosen, spec.source):
        typer.echo(line)


# ----------------------------------------------------------------------------- simulate


StrategyOpt = Annotated[
    Optional[list[str]],
    typer.Option(
        "--strategy",
        help="Strategy per seat (repeatable) or one for all: a built-in name (see `dreamscape strategies`), "
        "path/to/bot.py:function, package.module:function, linear:FILE.toml or expert:FILE.toml.",
    ),
]
VariantOpt = Annotated[
    Optional[str],
    typer.Option("--variant", help="Variant as one text: base or tokens like sleep-token+FF:ID (instead of the flags)."),
]
OutOpt = Annotated[
    Optional[Path],
    typer.Option("--out", help="The study folder to write (per-chunk parquet + manifest.json); re-running the command resumes it."),
]
PrecisionOpt = Annotated[
    Optional[float],
    typer.Option("--precision", help="Play until every reported rate's 95% interval half-width is at most this, e.g. 0.01."),
]
MaxGamesOpt = Annotated[
    int, typer.Option("--max-games", min=1, max=MAX_GAMES,
                      help="With --precision: at most this many games per configuration (1 to 10**12).")
]
AggregateOpt = Annotated[
    bool,
    typer.Option("--aggregate-only", help="Keep per-chunk sums only, no per-game rows (large studies; no paired intervals or distributions)."),
]
ChunkOpt = Annotated[int, typer.Option("--chunk-size", min=1, max=MAX_CHUNK_SIZE,
                                        help="Games per chunk, 1 to 1,000,000 (results do not depend on it).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")]
BackendOpt = Annotated[str, typer.Option("--backend", help="Where chunks are played: local (this machine) or dask.")]
SchedulerOpt = Annotated[
    Optional[str], typer.Option("--scheduler", help="With --backend dask: the scheduler address (default: a local cluster).")
]
WorkersOpt = Annotated[
    Optional[int], typer.Option("--workers", min=1, help="With --backend dask and no --scheduler: workers of the local cluster.")
]


def resolve_fast_strategies(specs: list[str] | None, players: int) -> list[str]:
    """Load every ``--strategy`` value; one per seat, or one for all seats."""
    from simcore.games.dreamscape.bots.api import StrategyError, load_strategy

    specs = specs or ["greedy"]
    if len(specs) not in (1, players):
        raise UserInputError(f"give one --strategy per seat ({players}) or one for all, got {len(specs)}")
    try:
        names = [load_strategy(spec) for spec in specs]
    except StrategyError as exc:
        raise UserInputError(str(exc)) from None
    return names * players if len(names) == 1 else names


def seat_specs(specs: list[str] | None, players: int, default: str = "greedy") -> tuple[str, ...]:
    """The ``--strategy`` values per seat (validated by loading them here), as a study records them."""
    specs = list(specs or [default])
    resolve_fast_strategies(specs, players)
    return tuple(specs * players if len(specs) == 1 else specs)


def check_study_numbers(games: int | None, precision: float | None, max_games: int, chunk_size: int) -> None:
    if games is not None and games < 1:
        raise UserInputError(f"--games must be at least 1, got {games}")
    if precision is not None and not 0 < precision < 0.5:
        raise UserInputError(f"--precision must be between 0 and 0.5 (a rate's half-width, e.g. 0.01), got {precision}")
    if max_games < 1:
        raise UserInputError(f"--max-games must be at least 1, got {max_games}")
    if chunk_size < 1:
        raise UserInputError(f"--chunk-size must be at least 1, got {chunk_size}")


def the_variant(variant: str | None, sleep_token: bool = False, shifting_tokens: bool = False, swaps: list[str] | None = None):
    """The variant of ``--variant`` or of the ``--sleep-token --shifting-tokens --swap`` flags (not both)."""
    from simcore.games.dreamscape.variants import parse_variant, variant_from_flags

    if variant is not None:
        if sleep_token or shifting_tokens or swaps:
            raise UserInputError("give --variant or the --sleep-token/--shifting-tokens/--swap flags, not both")
        return parse_variant(variant)
    return variant_from_flags(sleep_token, shifting_tokens, swaps)


def command_line() -> str:
    return " ".join(["dreamscape", *sys.argv[1:]])


def run_study_plan(plan, out: Path, backend: str, scheduler: str | None, workers: int | None):
    """Play a study plan into ``out`` on the chosen backend (closed afterwards)."""
    from analyses.study.backends import make_backend
    from analyses.study.studyfile import run_plan

    if workers is not None and workers < 1:
        raise UserInputError(f"--workers must be at least 1, got {workers}")
    writable_folder(out, "--out")
    if plan.game is None:  # Project Dreamscape's engine; another game compiles on its first chunk
        warm_local(backend, scheduler)
    engine = make_backend(backend, scheduler, workers)
    try:
        return run_plan(plan, out, command=command_line(), backend=engine, progress=True)
    finally:
        engine.close()


def warm_local(backend: str, scheduler: str | None = None) -> None:
    """Load (or compile) the kernels before a run's progress bar starts, so it counts play only.

    A local Dask cluster's workers share this machine's numba cache: compiling here first
    (announced by :func:`prepare_engine`) means they only load it. Workers of a running
    scheduler may have a cold cache of their own: say so, since their compile is silent.
    """
    if backend == "dask" and scheduler is not None:
        from analyses.study.warmup import WORKER_NOTICE

        notice(WORKER_NOTICE)
    elif backend in ("local", "dask"):
        from analyses.study.warmup import warm_run
        from simcore.games.dreamscape.fast import SimConfig

        warm_run(SimConfig(players=3), ["greedy"])


def print_summary(folder: Path, as_json: bool) -> None:
    """Print the summary of a study folder (every analysis it has data for)."""
    from reports.tables import summary_output

    for line in summary_output(folder, as_json):
        typer.echo(line)


@app.command()
def simulate(
    players: GamePlayersOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_GAMES,
                                       help="Number of games to play, 1 to 10**12 (with --precision: of the first round).")] = 100_000,
    seed: SeedOpt = 1,
    sleep_token: SleepTokenOpt = False,
    shifting_tokens: ShiftingTokensOpt = False,
    swap: SwapOpt = None,
    variant: VariantOpt = None,
    deck: DeckOpt = None,
    strategy: StrategyOpt = None,
    as_json: JsonOpt = False,
    chunk_size: ChunkOpt = 50_000,
    out: OutOpt = None,
    precision: PrecisionOpt = None,
    max_games: MaxGamesOpt = 1_000_000,
    aggregate_only: AggregateOpt = False,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
    cards: CardsOpt = None,
) -> None:
    """Play many games of one configuration on the fast engine and summarise them per seat."""
    if game != DEFAULT_GAME:
        only_flags(game, **{"--sleep-token": sleep_token, "--shifting-tokens": shifting_tokens, "--swap": swap,
                            "--deck": deck})
        check_study_numbers(games, precision, max_games, chunk_size)
        game_simulate(pick_game(game), players, variant, cards, strategy, games, seed, chunk_size, out, precision,
                      max_games, aggregate_only, backend, scheduler, workers, as_json, progress)
        return
    deck = deck_or_cards(deck, cards)
    players = 3 if players is None else players
    prepare_engine(progress)
    import json
    import time

    from analyses.study.runsummary import RunTotals
    from analyses.study.warmup import warm_run
    from reports.tables import simulation_lines
    from simcore.games.dreamscape.fast import SimConfig, simulate as run_simulation

    check_players(players)
    check_study_numbers(games, precision, max_games, chunk_size)
    the = the_variant(variant, sleep_token, shifting_tokens, swap)
    spec = load_spec(deck) if deck else None
    the_deck = the.deck(spec)
    names = resolve_fast_strategies(strategy, players)
    if out is not None:
        from analyses.study.model import RunConfig
        from analyses.study.studyfile import StudyPlan

        plan = StudyPlan([RunConfig(the.name, players, seat_specs(strategy, players))], games=games, precision=precision,
                         max_games=max_games, seed=seed, chunk_size=chunk_size, aggregate_only=aggregate_only,
                         deck_spec=spec, kind="simulate")
        run_study_plan(plan, out, backend, scheduler, workers)
        print_summary(out, as_json)
        return
    if precision is not None or aggregate_only or backend != "local":
        raise UserInputError("--precision, --aggregate-only and --backend write a study folder: add --out DIR")
    config = SimConfig(players=players, options=the.options, deck=the_deck)
    warm_run(config, names)  # load or compile first: the bar, time and games/s count play only
    with progress_bar(games, "games", leave=False) as bar:
        t0 = time.perf_counter()
        totals = RunTotals(players, names)  # chunk by chunk: memory stays one chunk's, however many games
        run_simulation(config, games, seed, names, chunk_size=chunk_size, on_chunk=totals.add, keep=False,
                       progress=lambda done, total: bar.update(done - bar.n))
        seconds = time.perf_counter() - t0
    summary = totals.summary()
    summary.update({"players": players, "variant": the.name, "deck": the_deck.label, "deck_cards": len(the_deck),
                    "seed": seed, "seconds": round(seconds, 4), "games_per_s": round(games / seconds, 1) if seconds else None})
    if as_json:
        typer.echo(json.dumps(summary))
        return
    for line in simulation_lines(summary):
        typer.echo(line)


def game_simulate(the_game, players, variant, cards, strategy, games, seed, chunk_size, out, precision, max_games,
                  aggregate_only, backend, scheduler, workers, as_json, progress) -> None:
    """``simulate --game NAME``: the game's fast engine, per seat win rates with intervals (``--out``: a study folder)."""
    import json

    from analyses.study.gamechunks import cards_text, simulate_game
    from analyses.study.model import GameDeal, RunConfig
    from reports.tables import game_simulation_lines

    set_progress(progress)
    setup = the_game.setup(players or the_game.seat_counts[-1], variant or "base", cards)
    seats = the_game.seat_strategies(strategy, setup)
    if out is not None:
        from analyses.study.studyfile import StudyPlan

        plan = StudyPlan([RunConfig(the_game.variant_name(setup), setup.players, seats)], games=games,
                         precision=precision, max_games=max_games, seed=seed, chunk_size=chunk_size,
                         aggregate_only=aggregate_only, kind="simulate", game=GameDeal(the_game.name, cards_text(cards)))
        run_study_plan(plan, out, backend, scheduler, workers)
        print_summary(out, as_json)
        return
    if precision is not None or aggregate_only or backend != "local":
        raise UserInputError("--precision, --aggregate-only and --backend write a study folder: add --out DIR")
    with progress_bar(games, "games", leave=False) as bar:
        summary = simulate_game(the_game, setup, seats, games, seed, chunk_size,
                                progress=lambda done, total: bar.update(done - bar.n))
    if as_json:
        typer.echo(json.dumps(summary))
        return
    for line in game_simulation_lines(summary):
        typer.echo(line)


# ----------------------------------------------------------------------------- studies


GamesOpt = Annotated[
    Optional[int],
    typer.Option("--games", "-n", min=1, max=MAX_GAMES,
                 help="Games per configuration, 1 to 10**12 (default 10,000; with --precision: the first round)."),
]


@app.command()
def compare(
    variant: Annotated[list[str], typer.Option("--variant", help="A variant to compare (repeatable): base, sleep-token+FF:ID, ...")],
    out: Annotated[Path, typer.Option("--out", help="The study folder to write; re-running the command resumes it.")],
    baseline: Annotated[Optional[str], typer.Option("--baseline", help="The variant the others are compared with (default: base, or the first).")] = None,
    players: Annotated[Optional[list[int]], typer.Option("--players", "-p", help="Player count (repeatable; default 3).")] = None,
    strategy: StrategyOpt = None,
    games: GamesOpt = None,
    precision: PrecisionOpt = None,
    max_games: MaxGamesOpt = 1_000_000,
    seed: SeedOpt = 1,
    chunk_size: ChunkOpt = 50_000,
    aggregate_only: AggregateOpt = False,
    deck: DeckOpt = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    as_json: JsonOpt = False,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Compare variants on the same deals (common random numbers): paired differences against a baseline."""
    dreamscape_only(game, "compare")
    prepare_engine(progress)
    from analyses.study.model import RunConfig
    from analyses.study.studyfile import StudyPlan
    from simcore.games.dreamscape.variants import parse_variant

    counts = [check_players(p) for p in (players or [3])]
    check_study_numbers(games, precision, max_games, chunk_size)
    names = [parse_variant(v).name for v in variant]
    if baseline is not None:
        base = parse_variant(baseline).name
        names = [base] + [n for n in names if n != base]
    names = list(dict.fromkeys(names))
    if len(names) < 2:
        raise UserInputError("compare needs at least two different variants (--variant A --variant B)")
    if strategy and len(strategy) > 1 and len(counts) > 1:
        raise UserInputError("with several --players give one --strategy for all seats")
    spec = load_spec(deck) if deck else None
    configs = []
    for p in counts:
        seats = seat_specs(strategy, p)
        for name in names:
            parse_variant(name).deck(spec)
            configs.append(RunConfig(name, p, seats))
    plan = StudyPlan(configs, games=games, precision=precision, max_games=max_games, seed=seed, chunk_size=chunk_size,
                     aggregate_only=aggregate_only, deck_spec=spec, kind="compare", meta={"baseline": names[0]})
    run_study_plan(plan, out, backend, scheduler, workers)
    print_summary(out, as_json)


@app.command()
def sweep(
    out: Annotated[Path, typer.Option("--out", help="The study folder to write; re-running the command resumes it.")],
    swaps: Annotated[str, typer.Option("--swaps", help="Swap decks: all (165), none, single, double, triple, or patterns like FF:*, *NT:*, *:ID* (comma-separated); the base deck is always included.")] = "all",
    players: Annotated[Optional[list[int]], typer.Option("--players", "-p", help="Player count (repeatable; default 2, 3 and 4).")] = None,
    options: Annotated[str, typer.Option("--options", help="Rules option sets: all, base, sleep-token, shifting-tokens, sleep-token+shifting-tokens (comma-separated).")] = "all",
    strategy: Annotated[Optional[list[str]], typer.Option("--strategy", help="The bot for every seat (default linear); repeat for one sweep per bot.")] = None,
    precision: Annotated[Optional[float], typer.Option("--precision", help="95% half-width every seat win rate must reach (default 0.01 unless --games).")] = None,
    games: Annotated[Optional[int], typer.Option("--games", "-n", min=1, max=MAX_GAMES,
                                                 help="A fixed number of games per configuration instead of --precision (1 to 10**12).")] = None,
    max_games: MaxGamesOpt = 200_000,
    seed: SeedOpt = 1,
    chunk_size: ChunkOpt = 5_000,
    aggregate_only: Annotated[bool, typer.Option("--aggregate-only/--keep-games", help="Keep per-chunk sums only (default) or also per-game rows.")] = True,
    deck: DeckOpt = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    as_json: JsonOpt = False,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Sweep the Controlled Study swap decks (R1.4) x player counts x option sets: seat spread, winning score, length, strongest type."""
    dreamscape_only(game, "sweep")
    prepare_engine(progress)
    from analyses.study.studyfile import StudyPlan, configs_for
    from analyses.games.dreamscape.sweep import sweep_variants

    counts = [check_players(p) for p in (players or [2, 3, 4])]
    if 1 in counts:
        raise UserInputError("the sweep compares seats: --players must be 2 to 4 (use `dreamscape solo` for one player)")
    if precision is None and games is None:
        precision = 0.01
    check_study_numbers(games, precision, max_games, chunk_size)
    spec = load_spec(deck) if deck else None
    variants = sweep_variants(swaps, options, spec)
    bots = list(dict.fromkeys(strategy or ["linear"]))
    for bot in bots:
        seat_specs([bot], 1)
    plan = StudyPlan(configs_for(variants, counts, bots), games=games, precision=precision, max_games=max_games, seed=seed,
                     chunk_size=chunk_size, aggregate_only=aggregate_only, deck_spec=spec, kind="sweep",
                     meta={"swaps": swaps, "options": options})
    run_study_plan(plan, out, backend, scheduler, workers)
    print_summary(out, as_json)


@app.command()
def solo(
    out: Annotated[Path, typer.Option("--out", help="The study folder to write; re-running the command resumes it.")],
    strategy: Annotated[Optional[list[str]], typer.Option("--strategy", help="A bot to play solo (repeatable; default greedy).")] = None,
    variant: Annotated[Optional[list[str]], typer.Option("--variant", help="A variant (repeatable; default base).")] = None,
    games: GamesOpt = None,
    precision: PrecisionOpt = None,
    max_games: MaxGamesOpt = 1_000_000,
    seed: SeedOpt = 1,
    chunk_size: ChunkOpt = 50_000,
    aggregate_only: AggregateOpt = False,
    deck: DeckOpt = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    as_json: JsonOpt = False,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Virtual Dreaming (solo, R10): the rulebook's score bands (R10.5) per strategy and variant."""
    dreamscape_only(game, "solo")
    prepare_engine(progress)
    from analyses.study.studyfile import StudyPlan, configs_for
    from simcore.games.dreamscape.variants import parse_variant

    check_study_numbers(games, precision, max_games, chunk_size)
    spec = load_spec(deck) if deck else None
    variants = [parse_variant(v).name for v in (variant or ["base"])]
    for v in variants:
        parse_variant(v).deck(spec)
    bots = list(dict.fromkeys(strategy or ["greedy"]))
    for bot in bots:
        seat_specs([bot], 1)
    plan = StudyPlan(configs_for(variants, [1], bots), games=games, precision=precision, max_games=max_games, seed=seed,
                     chunk_size=chunk_size, aggregate_only=aggregate_only, deck_spec=spec, kind="solo")
    run_study_plan(plan, out, backend, scheduler, workers)
    print_summary(out, as_json)


# ----------------------------------------------------------------------------- summarize, report, study


@app.command()
def summarize(
    folder: Annotated[Path, typer.Argument(help="A study folder written by simulate --out, compare, sweep, tournament --out or solo.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    game: Annotated[Optional[str], typer.Option("--game", help="Check that the folder holds this game "
                                                               "(default: whichever it holds).")] = None,
) -> None:
    """Summarise a study folder: every analysis it has data for (seats, variants, sweep, types, tournament, skill, solo)."""
    check_folder_game(folder, game)
    print_summary(folder, as_json)


def check_folder_game(folder: Path, game: str | None) -> None:
    """``--game`` on a command that reads a study folder: it must be the folder's game."""
    if game is None:
        return
    from analyses.study.folder import folder_game

    pick_game(game)  # an unknown name is named first
    held = folder_game(folder)
    if held != game:
        raise UserInputError(f"{folder} holds a study of {held}, not {game}")


@app.command()
def report(
    folder: Annotated[Path, typer.Argument(help="A study folder.")],
    pdf: Annotated[Optional[Path], typer.Option("--pdf", help="Where to write the PDF (default: report.pdf in the folder).")] = None,
    png_dir: Annotated[Optional[Path], typer.Option("--png-dir", help="Where to write one PNG per chart (default: in the folder).")] = None,
    game: Annotated[Optional[str], typer.Option("--game", help="Check that the folder holds this game "
                                                               "(default: whichever it holds).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what it wrote (folder, report, charts) as one JSON object.")] = False,
) -> None:
    """Write a designer's report of a study folder: a PDF with findings and charts, and one PNG per chart."""
    from analyses.study.folder import check_study

    check_study(folder)  # a damaged or missing chunk is named here, before any chart is drawn
    check_folder_game(folder, game)
    writable_file(pdf if pdf is not None else folder / "report.pdf", "--pdf")
    writable_folder(png_dir if png_dir is not None else folder / "charts", "--png-dir")
    from analyses.study.folder import folder_game

    try:
        if folder_game(folder) == DEFAULT_GAME:
            from reports import build_report
        else:
            from reports.games import build_any_report as build_report
    except ImportError as exc:
        raise UserInputError(f"reports are not available in this installation ({exc})") from None
    result = build_report(folder, pdf=pdf, png_dir=png_dir)
    if as_json:  # the shape of study --json: what was written
        import json

        typer.echo(json.dumps({"folder": str(folder), "report": str(result.pdf),
                               "charts": [str(png) for png in result.pngs]}))
        return
    typer.echo(f"wrote {result.pdf}")
    for png in result.pngs:
        typer.echo(f"wrote {png}")


@app.command()
def study(
    quick: Annotated[bool, typer.Option("--quick", help="A small version of the main study (under a minute).")] = False,
    config: Annotated[Optional[Path], typer.Option("--config", help="A study file (TOML, see analyses/data/example_study.toml) instead of the main study.")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="The study folder (default out/study-<date>); re-running resumes it.")] = None,
    seed: SeedOpt = 1,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what it wrote (folder, report, charts) as one JSON object.")] = False,
    progress: ProgressOpt = None,
    game: Annotated[Optional[str], typer.Option(
        "--game", is_eager=True, callback=_game_option,
        help=f"The game: {' or '.join(GAME_NAMES)} (default {DEFAULT_GAME}, or the --config file's).")] = None,
    cards: CardsOpt = None,
) -> None:
    """The main job: run a balance study (or your own --config) and write its report."""
    from analyses.study.backends import make_backend
    from analyses.study.gameplan import file_game

    if config is not None and game is not None and file_game(config) != game:
        raise UserInputError(f"{config} is a study of {file_game(config)}, not {game}")
    study_game = file_game(config) if config is not None else (game or DEFAULT_GAME)
    if study_game == DEFAULT_GAME:
        if cards is not None:
            raise UserInputError("--cards is for another game's study (Project Dreamscape's study files name their deck)")
        prepare_engine(progress)
    else:
        set_progress(progress)
    if config is not None:
        from analyses.study.gameplan import load_any_study_file

        load_any_study_file(config, seed=seed, cards=cards)  # a bad file fails here, with one line
    if workers is not None and workers < 1:
        raise UserInputError(f"--workers must be at least 1, got {workers}")
    writable_folder(out if out is not None else Path("out"), "--out")
    try:
        from reports.main_study import run_main_study
    except ImportError as exc:
        raise UserInputError(f"the main study is not available in this installation ({exc})") from None
    if study_game == DEFAULT_GAME:
        warm_local(backend, scheduler)
    engine = make_backend(backend, scheduler, workers)
    try:
        another = {} if study_game == DEFAULT_GAME else {"game": study_game, "cards": cards}
        folder = run_main_study(out=out, quick=quick, config=config, seed=seed, progress=True, backend=engine, **another)
    finally:
        engine.close()
    report_pdf = Path(folder) / "report.pdf"
    if as_json:
        import json

        typer.echo(json.dumps({"folder": str(folder), "report": str(report_pdf) if report_pdf.exists() else None,
                               "charts": sorted(str(p) for p in (Path(folder) / "charts").glob("*.png"))}))
        return
    typer.echo(f"study folder {folder}")
    if report_pdf.exists():
        typer.echo(f"report {report_pdf}")


# ----------------------------------------------------------------------------- warmup


@app.command()
def warmup(
    game: GameOpt = DEFAULT_GAME,
    as_json: Annotated[bool, typer.Option("--json", help="Print how long it took (and whether the engine was "
                                                          "compiled already) as one JSON object.")] = False,
) -> None:
    """Compile the fast engine and the built-in strategies into numba's cache once (1-3 minutes on 2 cores).

    Every later command loads them in about a second. ``python3 dev.py setup``
    runs this after installing; a command that still has to compile says so
    in one line on stderr first. ``--game NAME``: that game's fast engine.
    """
    import json

    from analyses.study.warmup import engine_compiled, warm_up

    if game != DEFAULT_GAME:
        import time

        from analyses.study.gamechunks import warm_game

        t0 = time.perf_counter()
        typer.echo(f"compiling {pick_game(game).title}'s fast engine once (a minute or two on 2 cores)…", err=True)
        warm_game(pick_game(game))
        seconds = time.perf_counter() - t0
        typer.echo(f"ready in {seconds:.0f} s", err=True)
        if as_json:
            typer.echo(json.dumps({"game": game, "seconds": round(seconds, 3), "already_compiled": None}))
        return

    already = engine_compiled()
    seconds = warm_up(say=lambda line: typer.echo(line, err=True))
    if as_json:  # the lines above stay on stderr; stdout carries only this
        typer.echo(json.dumps({"game": game, "seconds": round(seconds, 3), "already_compiled": already}))


# ----------------------------------------------------------------------------- bench


@app.command()
def bench(
    as_json: Annotated[bool, typer.Option("--json", help="Print the measurements as one JSON object.")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="Fewer games per row (a rough check in a few seconds).")] = False,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Measure games/s of the fast and reference engines, and the fast engine's cold and warm start."""
    dreamscape_only(game, "bench")
    import json

    import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers the heuristic bots timed below
    from analyses.tools.bench import bench_lines, run_bench

    bots = ("greedy-hook", "greedy-hook-kinds", "chain", "economist", "spoiler", "linear", "expert")
    report = run_bench(quick=quick, hook_strategies=bots, progress=lambda line: typer.echo(line, err=True))
    if as_json:
        typer.echo(json.dumps(report))
        return
    for line in bench_lines(report):
        typer.echo(line)


# ----------------------------------------------------------------------------- strategies


@app.command()
def strategies(as_json: JsonFlag = False, game: GameOpt = DEFAULT_GAME) -> None:
    """List the built-in strategies with a one-line description each."""
    from reports.tables import game_strategy_lines, strategy_lines
    from simcore.games.dreamscape.bots.api import strategy_table

    if game != DEFAULT_GAME:
        the_game = pick_game(game)
        rows = sorted(the_game.strategies().items())
        if as_json:
            import json

            typer.echo(json.dumps({"game": the_game.name, "default": the_game.default_strategy,
                                   "strategies": [{"name": n, "description": d} for n, d in rows]}))
            return
        for line in game_strategy_lines(the_game.title, the_game.default_strategy, rows):
            typer.echo(line)
        return
    if as_json:
        import json

        typer.echo(json.dumps({"strategies": [{"name": n, "description": d} for n, d in strategy_table()]}))
        return
    for line in strategy_lines(strategy_table()):
        typer.echo(line)


# ----------------------------------------------------------------------------- tune


@app.command()
def tune(
    out: Annotated[Path, typer.Option("--out", help="Where to write the tuned weights (TOML; play them with --strategy linear:FILE).")],
    players: PlayersOpt = 3,
    sleep_token: SleepTokenOpt = False,
    shifting_tokens: ShiftingTokensOpt = False,
    swap: SwapOpt = None,
    budget: Annotated[int, typer.Option("--budget", min=1, max=1_000_000,
                                        help="Candidate weight vectors to evaluate (CMA-ES evaluations), 1 to 1,000,000.")] = 200,
    games_per_eval: Annotated[int, typer.Option("--games-per-eval", min=1, max=MAX_GAMES,
                                                help="Games per candidate, seats rotated (1 to 10**12).")] = 3000,
    field: Annotated[str, typer.Option("--field", help="Comma-separated opponents the linear bot is tuned against.")] = "greedy,chain,economist,spoiler",
    seed: SeedOpt = 1,
    as_json: JsonFlag = False,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Optimise the linear bot's weights by CMA-ES against a field of bots (seats rotated)."""
    dreamscape_only(game, "tune")
    prepare_engine(progress)
    from simcore.games.dreamscape.bots.linear import write_weights
    from simcore.games.dreamscape.bots.tuner import tune as run_tune
    from simcore.games.dreamscape.variants import variant_from_flags

    check_players(players)
    if players < 2:
        raise UserInputError("tuning needs opponents: --players must be 2 to 4")
    if budget < 1 or games_per_eval < 1:
        raise UserInputError("--budget and --games-per-eval must be at least 1")
    variant = variant_from_flags(sleep_token, shifting_tokens, swap)
    opponents = [name.strip() for name in field.split(",") if name.strip()]
    if not opponents:
        raise UserInputError(f"--field {field!r} names no opponent; give strategies separated by commas, e.g. greedy,chain")
    resolve_fast_strategies(opponents, len(opponents))
    if not out.parent.exists():
        raise UserInputError(f"--out {out}: folder {out.parent} does not exist")
    writable_file(out, "--out")  # before the tuning budget is spent, not after
    warm_local("local")
    with progress_bar(budget, "eval", leave=False) as bar:
        def step(n: int, best: float) -> None:
            bar.update(n)
            bar.set_postfix_str(f"best win rate {100 * best:.1f}%")
        result = run_tune(players, variant.name, opponents, budget, games_per_eval, seed, progress=step)
    comment = (
        f"Tuned by `dreamscape tune`: {players} players, variant {variant.name}, field {', '.join(opponents)},\n"
        f"seed {seed}, {result.evaluations} evaluations of {games_per_eval} games; best mean win credit {result.fitness:.4f}"
    )
    write_weights(out, result.weights, f"tuned-{players}p-{variant.name}", comment)
    if as_json:
        import json

        from simcore.games.dreamscape.bots.features import NAMES

        typer.echo(json.dumps({
            "out": str(out), "players": players, "variant": variant.name, "field": opponents, "seed": seed,
            "evaluations": result.evaluations, "games_per_eval": games_per_eval, "best_win_credit": result.fitness,
            "fair_share": 1 / players,
            "weights": {NAMES[i]: float(w) for i, w in enumerate(result.weights) if i in NAMES and w != 0.0},
        }))
        return
    typer.echo(f"wrote {out}: best mean win credit {100 * result.fitness:.1f}% (fair share {100 / players:.1f}%) after {result.evaluations} evaluations")


@app.command()
def train(
    out: Annotated[Path, typer.Option("--out", help="Where to write the trained table (TOML; play it with --strategy expert:FILE).")],
    players: PlayersOpt = 3,
    variant: VariantOpt = None,
    deck: DeckOpt = None,
    iterations: Annotated[int, typer.Option("--iterations", help="Expert iterations (self-play, then a fit).")] = 3,
    games: Annotated[int, typer.Option("--games", "-n", help="Self-play games per iteration (every seat searches).")] = 400,
    playouts: Annotated[int, typer.Option("--playouts", "-k", help="Playouts per option of the search player in self-play (K).")] = 4,
    check_games: Annotated[int, typer.Option("--check-games", help="Games per seat of the check after each iteration (0: keep the last table).")] = 2000,
    seed: SeedOpt = 1,
    as_json: JsonFlag = False,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Train an expert table by expert iteration: the search player's choices distilled into a fast bot."""
    dreamscape_only(game, "train")
    import json
    import platform

    from analyses.games.dreamscape.train import train as run_train, train_comment, train_data
    from simcore.games.dreamscape.bots.builtins import LINEAR_WEIGHTS
    from simcore.games.dreamscape.bots.expert import write_table

    check_players(players)
    if iterations < 1 or games < 1 or playouts < 1 or check_games < 0:
        raise UserInputError("--iterations, --games and --playouts must be at least 1, --check-games at least 0")
    the = the_variant(variant)
    spec = load_spec(deck) if deck else None
    the_deck = the.deck(spec)
    writable_file(out, "--out")
    prepare_engine(progress)  # after the checks: bad input gets its one line before any compile notice
    with progress_bar(iterations * games, "games") as bar:
        result = run_train(players, the.options, the_deck, LINEAR_WEIGHTS, iterations=iterations, games=games,
                           playouts=playouts, seed=seed, check_games=check_games,
                           progress=lambda done, total: bar.update(done - bar.n))
    data = train_data(result, players, the.name, the_deck.label, seed, playouts, str(out))
    machine = f"{os.cpu_count()} cores ({platform.machine()}, Python {platform.python_version()})"
    write_table(out, result.table, {"name": f"expert-{players}p-{the.name}", "players": players, "variant": the.name},
                train_comment(data, train_command(players, the.name, deck, iterations, games, playouts, check_games, seed, out),
                              machine))
    if as_json:
        typer.echo(json.dumps(data))
        return
    from reports.tables import train_lines

    for line in train_lines(data):
        typer.echo(line)


def train_command(players, variant, deck, iterations, games, playouts, check_games, seed, out) -> str:
    """The command that trains the same table again (written into the table's header)."""
    deck_part = f" --deck {deck}" if deck else ""
    return (f"dreamscape train --players {players} --variant {variant}{deck_part} --iterations {iterations} "
            f"--games {games} --playouts {playouts} --check-games {check_games} --seed {seed} --out {out}")


# ----------------------------------------------------------------------------- tournament


@app.command()
def tournament(
    strategy: StrategyOpt = None,
    players: PlayersOpt = 3,
    variant: Annotated[str, typer.Option("--variant", help="Variant: base or tokens like sleep-token+FF:ID.")] = "base",
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_GAMES,
                                       help="Games per seating, 1 to 10**12 (every seating of every group plays the same deals).")] = 2000,
    seed: SeedOpt = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print standings, payoff matrix and flags as JSON.")] = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Also write a study folder (one configuration per seating); re-running resumes it.")] = None,
    chunk_size: ChunkOpt = 50_000,
    aggregate_only: AggregateOpt = False,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Round robin of strategies with seats rotated on duplicate deals: standings, payoff matrix, ratings."""
    dreamscape_only(game, "tournament")
    prepare_engine(progress)
    import json

    from analyses.tools.tournament import run_tournament, schedule
    from simcore.games.dreamscape.variants import parse_variant

    check_players(players)
    if players < 2:
        raise UserInputError("a tournament needs --players 2 to 4")
    check_study_numbers(games, None, 1, chunk_size)
    variant = parse_variant(variant).name
    specs = strategy or ["random", "greedy", "chain", "economist", "spoiler"]
    names = resolve_fast_strategies(specs, len(specs))
    if len(set(names)) < 2:
        raise UserInputError("a tournament needs at least two different --strategy values")
    if out is not None:
        from analyses.study.studyfile import StudyPlan, configs_for
        from analyses.tools.tournament import tournament_from_study

        plan = StudyPlan(configs_for([variant], [players], tournament=list(dict.fromkeys(specs))), games=games, seed=seed,
                         chunk_size=chunk_size, aggregate_only=aggregate_only, kind="tournament")
        run_study_plan(plan, out, backend, scheduler, workers)
        result = tournament_from_study(out, players, variant)
    else:
        if aggregate_only or backend != "local":
            raise UserInputError("--aggregate-only and --backend write a study folder: add --out DIR")
        total = len(schedule(names, players)) * games
        warm_local("local")
        with progress_bar(total, "games", leave=False) as bar:
            result = run_tournament(names, players, variant, games, seed, progress=bar.update)
    data = {
        "players": players, "variant": variant, "games_per_seating": result.games_per_seating, "seed": seed,
        "standings": result.standings.to_dicts(), "payoff": result.payoff.to_dicts(),
        "dominant": result.dominant, "cycles": [list(c) for c in result.cycles],
        **({"folder": str(out)} if out is not None else {}),
    }
    if as_json:
        from analyses.study.runsummary import json_ready

        typer.echo(json.dumps(json_ready(data)))
        return
    from reports.tables import tournament_lines

    for line in tournament_lines(data):
        typer.echo(line)


@app.command()
def exploit(
    strategy: Annotated[str, typer.Option("--strategy", help="The bot to measure (any --strategy value but a search or rollout player).")],
    players: Annotated[Optional[list[int]], typer.Option("--players", "-p", help="Player count, 2 to 4 (repeatable; default 2, 3, 4).")] = None,
    variant: Annotated[Optional[list[str]], typer.Option("--variant", help="Variant (repeatable; default base and sleep-token).")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_GAMES,
                                       help="Games per cell (player count x variant x seat), 1 to 10**12.")] = 1000,
    playouts: Annotated[int, typer.Option("--playouts", "-k", help="Playouts per option of the search player (K of search:NAME@K).")] = 8,
    phases: Annotated[Optional[str], typer.Option(
        "--phases", help="Game phases the search player searches (early, mid, late joined with +, e.g. late: "
                         "search:NAME@K:late); default every decision.")] = None,
    seed: SeedOpt = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the table as JSON.")] = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Also keep the table in this study folder (its report gets a page).")] = None,
    chunk_size: ChunkOpt = 500,
    game: GameOpt = DEFAULT_GAME,
    progress: ProgressOpt = None,
) -> None:
    """How strong is a bot? Per seat, the win rate search:NAME gains over NAME on the same deals."""
    dreamscape_only(game, "exploit")
    import json

    from analyses.tools.exploit import DEFAULT_PLAYERS, DEFAULT_VARIANTS, exploit_data, save_exploit, timed_exploit
    from simcore.games.dreamscape.variants import parse_variant
    from simcore.games.dreamscape.bots.api import StrategyError, load_strategy

    counts = list(dict.fromkeys(players or DEFAULT_PLAYERS))
    for p in counts:
        check_players(p)
        if p < 2:
            raise UserInputError("exploit needs --players 2 to 4 (a seat needs an opponent to exploit)")
    variants = list(dict.fromkeys(parse_variant(v).name for v in (variant or DEFAULT_VARIANTS)))
    check_study_numbers(games, None, 1, chunk_size)
    if playouts < 1:
        raise UserInputError(f"--playouts must be at least 1, got {playouts}")
    if strategy.startswith("search:"):
        raise UserInputError(f"--strategy {strategy}: give the bot itself; exploit plays search:NAME against it")
    prepare_engine(progress)
    try:
        name = load_strategy(strategy)
        search = load_strategy(f"search:{name}@{playouts}" + (f":{phases}" if phases else ""))
    except StrategyError as exc:
        raise UserInputError(str(exc)) from None
    release = lambda: None  # noqa: E731
    if out is not None:
        from analyses.study.folder import lock_folder

        writable_folder(out, "--out")
        release = lock_folder(out)  # another writer is named now, not after the games
    try:
        total = sum((p + 1) * games for p in counts) * len(variants)
        with progress_bar(total, "games", leave=False) as bar:
            frame, seconds = timed_exploit(name, search, counts, variants, games, seed, chunk_size, progress=bar.update)
        data = exploit_data(frame, seconds, seed)
        if out is not None:
            save_exploit(out, frame, data)
            data["folder"] = str(out)
    finally:
        release()
    if as_json:
        from analyses.study.summary import json_ready

        typer.echo(json.dumps(json_ready(seat_indexes(data))))
        return
    from reports.tables import exploit_lines

    for line in exploit_lines(data):
        typer.echo(line)


@app.command()
def restrict(
    players: Annotated[Optional[list[int]], typer.Option("--players", "-p", help="Player count, 2 to 4 (repeatable; default 3).")] = None,
    variant: Annotated[Optional[list[str]], typer.Option("--variant", help="Variant (repeatable; default base). CD:ID+RD:ED+SD:PS holds the 3 expansion types.")] = None,
    strategy: Annotated[str, typer.Option("--strategy", help="The bot: expert, expert:FILE.toml, linear, linear:FILE.toml or a function strategy.")] = "expert",
    restriction: Annotated[Optional[list[str]], typer.Option("--restriction", help="buy and/or perform (repeatable; default both).")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Deals per seat and type (each row pools games x players).")] = 500,
    seed: SeedOpt = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the table as JSON.")] = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Also keep the table in this study folder (its report gets a page).")] = None,
    chunk_size: ChunkOpt = 500,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Restricted play: how much a seat loses when its bot may never buy (or never perform) one dream type."""
    dreamscape_only(game, "restrict")
    import json

    from analyses.tools.restrict import games_needed, restrict_data, save_restrict, timed_restrict
    from simcore.games.dreamscape.variants import check_variant_fits, parse_variant
    from simcore.games.dreamscape.bots.api import StrategyError, load_strategy
    from simcore.games.dreamscape.bots.restricted import RESTRICTIONS, restricted

    prepare_engine(progress)
    counts = list(dict.fromkeys(players or [3]))
    for p in counts:
        check_players(p)
        if p < 2:
            raise UserInputError("restrict needs --players 2 to 4 (a restricted seat plays against others)")
    variants = list(dict.fromkeys(parse_variant(v).name for v in (variant or ["base"])))
    for v in variants:
        for p in counts:
            check_variant_fits(parse_variant(v), p)
    kinds = list(dict.fromkeys(restriction or RESTRICTIONS))
    for k in kinds:
        if k not in RESTRICTIONS:
            raise UserInputError(f"--restriction must be one of {', '.join(RESTRICTIONS)}, got {k!r}")
    check_study_numbers(games, None, 1, chunk_size)
    try:
        name = load_strategy(strategy)
        restricted(name, 0, kinds[0], counts[0], parse_variant(variants[0]).options)  # fails early for a bot that cannot be restricted
    except StrategyError as exc:
        raise UserInputError(str(exc)) from None
    with progress_bar(games_needed(counts, variants, kinds, games), "games", leave=False) as bar:
        frame, seconds = timed_restrict(name, counts, variants, kinds, games, seed, chunk_size, progress=bar.update)
    data = restrict_data(frame, seconds, seed)
    if out is not None:
        save_restrict(out, frame, data)
        data["folder"] = str(out)
    if as_json:
        from analyses.study.summary import json_ready

        typer.echo(json.dumps(json_ready(data)))
        return
    from reports.tables import restrict_lines

    for line in restrict_lines(data):
        typer.echo(line)


@app.command("fix-seats")
def fix_seats(
    players: PlayersOpt = 3,
    variant: VariantOpt = None,
    strategy: Annotated[str, typer.Option("--strategy", help="The bot on every seat (any fast strategy; default expert).")] = "expert",
    target: Annotated[float, typer.Option("--target", help="Seat spread to reach: top minus bottom seat win rate, in points.")] = 5.0,
    trials: Annotated[int, typer.Option("--trials", help="Knob settings the optimiser tries (600 met the 5-point target for 2-4 players with expert).")] = 600,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per trial (the same deals every trial).")] = 2000,
    verify: Annotated[int, typer.Option("--verify", help="Games per verified candidate, on fresh deals.")] = 10000,
    candidates: Annotated[int, typer.Option("--candidates", help="Best distinct settings to verify.")] = 5,
    seed: SeedOpt = 1,
    out: Annotated[Optional[Path], typer.Option("--out", help="Study folder to write (default out/fix-seats-<P>p).")] = None,
    as_json: JsonFlag = False,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Search rules knobs for the smallest change that brings the seat spread under --target (optuna TPE)."""
    dreamscape_only(game, "fix-seats")
    import json

    from analyses.games.dreamscape.fixseats import best_candidates, fixes_table, save_fixes, search
    from analyses.study.model import RunConfig
    from analyses.study.studyfile import StudyPlan
    from analyses.study.summary import json_ready
    from simcore.games.dreamscape.variants import check_variant_fits, parse_variant
    from simcore.games.dreamscape.bots.api import StrategyError, load_strategy

    prepare_engine(progress)
    check_players(players)
    if players < 2:
        raise UserInputError("fix-seats needs --players 2 to 4 (one seat has no seat advantage)")
    the = parse_variant(variant or "base")
    if the.options.has_knobs:
        raise UserInputError(f"--variant {the.name}: give the game without knobs; fix-seats searches the knobs")
    check_variant_fits(the, players)
    for flag, value, low in (("--trials", trials, 1), ("--games", games, 10), ("--verify", verify, 10), ("--candidates", candidates, 1)):
        if value < low:
            raise UserInputError(f"{flag} must be at least {low}, got {value}")
    if not 0 < target < 100:
        raise UserInputError(f"--target must be between 0 and 100 points, got {target}")
    try:
        name = load_strategy(strategy)
    except StrategyError as exc:
        raise UserInputError(str(exc)) from None
    folder = out or Path("out") / f"fix-seats-{players}p"
    with progress_bar(games * (trials + 1), "games", leave=False) as bar:
        def step(n: int, row: dict) -> None:
            bar.update(n)
            bar.set_postfix_str(f"spread {row['spread']:.1f} pts", refresh=False)

        bar.update(games)  # the unmodified game's measure comes first
        base, tried = search(players, the.name, name, target, trials, games, seed, progress=step)
    picks = best_candidates([r for r in tried if r["variant"] != the.name], candidates)
    seats = (name,) * players
    plan = StudyPlan([RunConfig(v, players, seats) for v in [the.name, *picks]], games=verify,
                     seed=seed + 1_000_003, kind="fix-seats",
                     meta={"target": target, "trials": trials, "games_per_trial": games, "search_seed": seed})
    run_study_plan(plan, folder, "local", None, None)
    frame = fixes_table(folder, the.name, picks, target)
    data = {"players": players, "variant": the.name, "strategy": name, "target": target, "seed": seed,
            "trials": trials, "games_per_trial": games, "verify_games": verify, "folder": str(folder),
            "search_base": {"spread": base["spread"], "length": base["length"]},
            "tried": [{k: r[k] for k in ("variant", "spread", "length_ratio", "feasible", "change")} for r in tried],
            "rows": frame.to_dicts()}
    save_fixes(folder, frame, {k: v for k, v in data.items() if k != "rows"})
    if as_json:
        typer.echo(json.dumps(json_ready(seat_indexes(data))))
        return
    from reports.tables import fix_lines

    for line in fix_lines(data):
        typer.echo(line)


# ----------------------------------------------------------------------------- warm start (simcore.warmstart)

PROJECT_ROOT = Path(__file__).resolve().parent
SPARE_ENTRY = "import cli; cli.serve_spare()"
_NO_SPARE_COMMANDS = {"server"}


def wants_spare(argv: list[str]) -> bool:
    """Commands hand over to a spare; help and the ``server`` command itself run here."""
    if not argv or argv[0].startswith("-") or argv[0] in _NO_SPARE_COMMANDS:
        return False
    return not any(a in ("--help", "-h") for a in argv)


def warm_spare() -> None:
    """What a spare loads before it waits: the CLI, the engine and the built-in strategies, by playing one game."""
    import contextlib
    import io

    from simcore import interrupts  # noqa: F401 - its native Ctrl-C handlers load from numba's cache

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        app(args=["simulate", "--players", "3", "--games", "1", "--seed", "0", "--json"], standalone_mode=False)
    _NOTICES.clear()  # the command the spare runs says its own notices


def serve_spare() -> None:
    """Entry of a spare process (started by :func:`simcore.warmstart.start_spare`): wait for one command, run it."""
    from simcore import warmstart

    warmstart.serve_one(PROJECT_ROOT, warm_spare, lambda argv: app(), SPARE_ENTRY)


@app.command()
def server(
    stop: Annotated[bool, typer.Option("--stop", help="End every waiting spare process of this user.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the state as one JSON object.")] = False,
) -> None:
    """Warm start: whether a spare process waits with the engine loaded for the next command.

    After a command that played games, a spare process loads the engine in the
    background and waits; the next command hands itself to it and starts at
    once. A spare serves one command and exits after 15 idle minutes
    (``DREAMSCAPE_SERVER_IDLE`` seconds). ``DREAMSCAPE_SERVER=off`` turns warm
    start off; ``--stop`` ends the spares now.
    """
    import json

    from simcore import warmstart

    stopped = warmstart.stop_spares() if stop else 0
    key = warmstart.source_key(PROJECT_ROOT)
    found = [dict(s, current=s["key"] == key) for s in warmstart.spares()]
    data = {"enabled": warmstart.enabled(), "folder": str(warmstart.socket_folder()), "stopped": stopped,
            "spares": found}
    if as_json:
        typer.echo(json.dumps(data))
        return
    from reports.tables import server_lines

    for line in server_lines(data):
        typer.echo(line)


def main() -> None:  # pragma: no cover - console entry point (tests/test_warmstart.py runs it in subprocesses)
    argv = sys.argv[1:]
    if not wants_spare(argv):
        app()
        return
    from simcore import warmstart

    if not warmstart.enabled():
        app()
        return
    code = warmstart.hand_over(PROJECT_ROOT, sys.argv)
    if code is not None:
        sys.exit(code)
    try:
        app()
    finally:  # a spare loads while the user reads this command's answer, for the next command
        warmstart.start_spare(PROJECT_ROOT, SPARE_ENTRY)


if __name__ == "__main__":  # pragma: no cover
    main()
