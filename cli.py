"""`dreamscape`: the balance lab's command line.

Every command parses its options (shared option definitions below), calls one
function of the lab's Python API (:mod:`analyses.lab`), which validates, plays
and returns plain results, and prints them (tables from :mod:`reports.tables`,
or ``--json``). No command knows a game by name: what a game can do is its
declared capabilities (:meth:`simcore.games.Game.need`). Bad input ends with
one line naming the problem and exit code 2, never a traceback; a full disk is
bad input too (free space, run the same command again: it resumes).
"""
from __future__ import annotations

import errno
import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

try:  # typer 0.28 (pinned in pyproject.toml) vendors click as typer._click
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - older typer on top of click
    from click.exceptions import ClickException, NoArgsIsHelpError
from typer.core import TyperGroup

from simcore.faults import StrategyFault
from simcore.files import error_line
from analyses.games import DEFAULT_GAME, game_input_errors, game_names, get_game
from analyses.spare import wants_spare  # warm start: which commands a spare takes (light: no lab, no engine)
from simcore.rng import MAX_GAMES, MAX_SEED

DISK_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)  # a study folder's write that failed: it resumes
_PROCESS = {"console": False}  # set when the app runs as a program: it owns the process (Ctrl-C handlers)


def lab():
    """The lab's API (:mod:`analyses.lab`), loaded by the first command that plays, not by ``--help``."""
    import analyses.lab as module

    return module


def input_errors() -> tuple[type[Exception], ...]:
    """Every error that means bad input: the lab's, a study folder's and every loaded game's own."""
    from analyses.lab.common import LabInputError
    from analyses.study.model import StudyError

    return (LabInputError, StudyError, *game_input_errors())


class Interrupted(Exception):
    """Ctrl-C during a command (typer would turn the KeyboardInterrupt into a silent exit 130)."""


class OneLineErrors(TyperGroup):
    """Usage errors and bad input become one line and exit code 2, Ctrl-C one line and 130."""

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
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var, standalone_mode=False, **extra)
        except NoArgsIsHelpError as exc:
            typer.echo(exc.format_message())
            rv = 0
        except ClickException as exc:
            typer.echo(f"{prog}: error: {exc.format_message()}", err=True)
            rv = exc.exit_code
        except (ValueError, StrategyFault, OSError) as exc:
            if isinstance(exc, OSError) and exc.errno not in DISK_FULL or isinstance(exc, ValueError) \
                    and not isinstance(exc, input_errors()):
                raise  # anything else is a bug: its traceback
            typer.echo(f"{prog}: error: {one_line(exc)}", err=True)
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


def one_line(exc: Exception) -> str:
    """The line of an input error, cut to a readable length; a failed study write names the file and says resume."""
    from analyses.lab.validate import command_line_error  # the option a user typed, not the lab's parameter
    return error_line(command_line_error(exc))


app = typer.Typer(
    cls=OneLineErrors,
    help="Balance lab for tabletop card games: simulations, variant comparisons, bot studies and designer reports "
         f"({', '.join(game_names())}).",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
)
PLAY, STUDIES, BOTS, FIXES, SETUP = "Play and simulate", "Studies and reports", "Bots", "Fixes", "Setup"


# ----------------------------------------------------------------------------- shared options


def option(kind, *names: str, **details):
    """``Annotated[kind, typer.Option(*names, **details)]``: an option's type and definition in one expression."""
    return Annotated[kind, typer.Option(*names, **details)]


def _game_option(value: str | None) -> str | None:
    """``--game`` is read first (eager): an unknown game fails before anything else, in one line."""
    if value is not None:
        get_game(value)
    return value


GameOpt = option(str, "--game", is_eager=True, callback=_game_option, help=f"The game: {' or '.join(game_names())} (default {DEFAULT_GAME}).")
AnyGameOpt = option(Optional[str], "--game", is_eager=True, callback=_game_option,
    help=f"The game: {' or '.join(game_names())} (default {DEFAULT_GAME}, or the --config file's / the folder's).")
PlayersOpt = option(Optional[int], "--players", "-p", help="Number of players (1: solo); default 3 where the game allows it, else its largest.")
PlayerCountsOpt = option(Optional[list[int]], "--players", "-p", help="Player count (repeatable).")
SeedOpt = option(int, "--seed", "-s", min=0, max=MAX_SEED, help="Random seed, 0 to 2**64-1; the same seed gives the same games.")
SleepTokenOpt = option(bool, "--sleep-token", help="Play the Sleep Token variant (R9).")
ShiftingTokensOpt = option(bool, "--shifting-tokens", help="Shifting Dreams moves the cost tokens instead (R6.8 variant).")
SwapOpt = option(Optional[list[str]], "--swap", help="Controlled Study swap REMOVED:ADDED, e.g. FF:ID (repeatable, at most 3; R1.4).")
DeckOpt = option(Optional[Path], "--deck", help="A deck composition TOML file (format of the default deck, R1.3; each card 0 to 256 copies, "
                   "at most 256 cards in all).")
CardsOpt = option(Optional[Path], "--cards", help="The game's card list (TOML, the format of its shipped cards); for Project Dreamscape "
                    "the same as --deck.")
VariantOpt = option(Optional[str], "--variant", help="Variant as one text: base or tokens like sleep-token+FF:ID (Pleasant Dreams: lucid, "
                      "start=N, actions=N, hand=A,B,.., public-backs joined by +).")
VariantsOpt = option(Optional[list[str]], "--variant", help="A variant (repeatable).")
StrategyOpt = option(Optional[list[str]], "--strategy", help="Strategy per seat (repeatable) or one for all (default: the game's default bot, see "
                       "`dreamscape strategies`): a built-in name, path/to/bot.py:function, package.module:function, "
                       "linear:FILE.toml or expert:FILE.toml.")
BotOpt = option(Optional[str], "--strategy", help="The bot (default: the game's default bot).")
JsonOpt = option(bool, "--json", help="Print the result as one JSON object (seats counted from 0).")
ProgressOpt = option(Optional[bool], "--progress/--no-progress", help="Draw progress bars on stderr (default: only when stderr is a terminal).")
# The study-folder option block: every command that writes a study folder takes these, with this meaning.
OutOpt = option(Optional[Path], "--out", help="The study folder to write (default: one under out/ named after the question); re-running the "
                  "command resumes it.")
BackendOpt = option(str, "--backend", help="Where chunks are played: local (this machine) or dask.")
SchedulerOpt = option(Optional[str], "--scheduler", help="With --backend dask: the scheduler address (default: a local cluster).")
WorkersOpt = option(Optional[int], "--workers", min=1, help="With --backend dask and no --scheduler: workers of the local cluster.")
ChunkOpt = option(int, "--chunk-size", min=1, max=1_000_000, help="Games per chunk, 1 to 1,000,000 (results do not depend on it).")
GamesOpt = option(Optional[int], "--games", "-n", min=1, max=MAX_GAMES,
    help="Games per configuration, 1 to 10**12 (default 10,000; with --precision: the first round).")
PrecisionOpt = option(Optional[float], "--precision", help="Play until every reported rate's 95% interval half-width is at most this, e.g. 0.01.")
MaxGamesOpt = option(int, "--max-games", min=1, max=MAX_GAMES, help="With --precision: at most this many games per configuration.")
TableOutOpt = option(Optional[Path], "--out", help="Also keep the table in this study folder (its report gets a page).")
WroteJsonOpt = option(bool, "--json", help="Print what it wrote (folder, report, charts) as JSON.")
FolderGameOpt = option(Optional[str], "--game", help="Check that the folder holds this game (default: whichever it holds).")
AggregateOpt = option(bool, "--aggregate-only", help="Keep per-chunk sums only, no per-game rows (large studies; no paired intervals).")
NoDistanceOpt = option(bool, "--no-distance", help="On a changed game, skip the bots' distance from search (a few hundred search games).")


def folder(out, backend="local", scheduler=None, workers=None, seed=1, chunk_size=50_000, progress=None) -> dict:
    """The study-folder option block as the lab's keyword arguments (:class:`analyses.lab.FolderOptions`)."""
    return {"options": lab().FolderOptions(out, backend, scheduler, workers, seed, chunk_size, progress,
                                           _PROCESS["console"])}


def echo(lines) -> None:
    for line in lines:
        typer.echo(line)


def emit(data: dict, as_json: bool, lines: str, ready: bool = False, seats_from_one: bool = False) -> None:
    """Print a lab result: one JSON object, or the table ``reports.tables.<lines>`` lays out."""
    if as_json:
        from analyses.study.runsummary import json_ready

        if seats_from_one:  # JSON counts seats from 0 (README, "Output conventions"); these tables from 1
            data = {**data, **{k: [{**r, "seat": r["seat"] - 1} for r in data[k]] for k in ("rows", "doubling") if k in data}}
        typer.echo(json.dumps(json_ready(data) if ready else data))
        return
    import reports.tables as tables

    echo(getattr(tables, lines)(data))


def print_summary(folder: Path, as_json: bool) -> None:
    """Print the summary of a study folder (every analysis it has data for)."""
    from reports.tables import summary_output

    echo(summary_output(folder, as_json))


# ----------------------------------------------------------------------------- play and simulate


@app.command(rich_help_panel=PLAY)
def play(
    players: PlayersOpt = None,
    seed: SeedOpt = 1,
    sleep_token: SleepTokenOpt = False,
    shifting_tokens: ShiftingTokensOpt = False,
    swap: SwapOpt = None,
    deck: DeckOpt = None,
    strategy: option(Optional[list[str]], "--strategy", help="Bot per seat (repeatable) or one for all: the reference engine's bots.") = None,
    game: GameOpt = DEFAULT_GAME,
    variant: VariantOpt = None,
    cards: CardsOpt = None,
    as_json: option(bool, "--json", help="Print the game's record (set-up, every turn's decisions "
                                                          "and events, final scores) as one JSON object.") = False,
) -> None:
    """Play one game on the reference engine and narrate it turn by turn."""
    from reports.narrate import narration

    the, setup, bots = lab().play_setup(game, players, strategy, variant=variant, cards=cards,
                                        sleep_token=sleep_token, shifting_tokens=shifting_tokens, swaps=swap, deck=deck)
    record, lines = narration(the, setup, bots, seed, as_json)
    if as_json:
        typer.echo(json.dumps(record))
        return
    echo(lines)


@app.command(rich_help_panel=PLAY)
def simulate(
    players: PlayersOpt = None,
    games: option(int, "--games", "-n", min=1, max=MAX_GAMES, help="Number of games to play, 1 to "
                                       "10**12 (with --precision: of the first round).") = 100_000,
    seed: SeedOpt = 1,
    sleep_token: SleepTokenOpt = False,
    shifting_tokens: ShiftingTokensOpt = False,
    swap: SwapOpt = None,
    variant: VariantOpt = None,
    deck: DeckOpt = None,
    strategy: StrategyOpt = None,
    as_json: JsonOpt = False,
    chunk_size: ChunkOpt = 50_000,
    out: option(Optional[Path], "--out", help="Also write a study folder (per-chunk parquet + "
                                                "manifest.json); re-running the command resumes it.") = None,
    precision: PrecisionOpt = None,
    max_games: MaxGamesOpt = 1_000_000,
    aggregate_only: AggregateOpt = False,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
    cards: CardsOpt = None,
    no_distance: NoDistanceOpt = False,
) -> None:
    """Play many games of one configuration on the fast engine and summarise them per seat."""
    summary = lab().simulate_summary(
        game, players, games, variant=variant, strategies=strategy, cards=cards, deck=deck, sleep_token=sleep_token,
        shifting_tokens=shifting_tokens, swaps=swap, precision=precision, max_games=max_games, distance=not no_distance,
        aggregate_only=aggregate_only, **folder(out, backend, scheduler, workers, seed, chunk_size, progress))
    from reports.tables import simulation_output

    echo(simulation_output(summary, as_json))


@app.command(rich_help_panel=PLAY)
def compare(
    variant: option(Optional[list[str]], "--variant", help="A variant to compare (repeatable): base, sleep-token+FF:ID, ... (default: the game's rules variants).") = None,
    out: OutOpt = None,
    baseline: option(Optional[str], "--baseline", help="The variant the others are compared with (default: base, or the first).") = None,
    players: PlayerCountsOpt = None,
    strategy: StrategyOpt = None,
    games: GamesOpt = None,
    precision: PrecisionOpt = None,
    max_games: MaxGamesOpt = 1_000_000,
    seed: SeedOpt = 1,
    chunk_size: ChunkOpt = 50_000,
    aggregate_only: AggregateOpt = False,
    deck: option(Optional[list[Path]], "--deck", help="A deck composition TOML file (R1.3; each card 0 to 256 copies, at most 256 cards in all); repeat it to compare decks on the same deals, the first the baseline.") = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    as_json: JsonOpt = False,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
    cards: option(Optional[list[Path]], "--cards", help="The game's card list (TOML), repeatable as --deck (Project Dreamscape: the same as --deck).") = None,
    no_distance: NoDistanceOpt = False,
) -> None:
    """Compare variants, or decks, on the same deals (common random numbers): paired differences against a baseline."""
    from reports.tables import comparison_output

    echo(comparison_output(lab().compared(game, lab().common.card_files(deck, cards), variant, baseline, players, strategy,
                                          games, precision, max_games, aggregate_only, distance=not no_distance,
                                          **folder(out, backend, scheduler, workers, seed, chunk_size, progress)), as_json))


@app.command(rich_help_panel=PLAY)
def sweep(
    out: OutOpt = None,
    swaps: option(str, "--swaps", help="Swap decks: all (165), none, single, double, triple, or "
                                       "patterns like FF:*, *NT:*, *:ID* (comma-separated); the base deck is always "
                                       "included.") = "all",
    players: PlayerCountsOpt = None,
    options: option(str, "--options", help="Rules option sets: all, base, sleep-token, shifting-tokens, "
                                         "sleep-token+shifting-tokens (comma-separated).") = "all",
    strategy: option(Optional[list[str]], "--strategy", help="The bot for every seat (default: the game's default bot); repeat for one sweep per bot.") = None,
    precision: option(Optional[float], "--precision", help="95% half-width every seat win rate must reach (default 0.01 unless --games).") = None,
    games: option(Optional[int], "--games", "-n", min=1, max=MAX_GAMES, help="A fixed number of games "
                                                 "per configuration instead of --precision (1 to 10**12).") = None,
    max_games: MaxGamesOpt = 200_000,
    seed: SeedOpt = 1,
    chunk_size: ChunkOpt = 5_000,
    aggregate_only: option(bool, "--aggregate-only/--keep-games", help="Keep per-chunk sums only (default) or also per-game rows.") = True,
    deck: DeckOpt = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    as_json: JsonOpt = False,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
    no_distance: NoDistanceOpt = False,
) -> None:
    """Sweep the swap decks (R1.4) x player counts x option sets: seat spread, winning score, length, strongest type."""
    from reports.tables import folder_output

    echo(folder_output(lab().sweep(game, swaps, players, options, strategy, games, precision, max_games, aggregate_only,
                                   deck, distance=not no_distance,
                                   **folder(out, backend, scheduler, workers, seed, chunk_size, progress)), as_json))


@app.command(rich_help_panel=PLAY)
def solo(
    out: OutOpt = None,
    strategy: option(Optional[list[str]], "--strategy", help="A bot to play solo (repeatable; default: the game's default bot).") = None,
    variant: VariantsOpt = None,
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
    """The solo game's score bands (Virtual Dreaming, R10.5) per strategy and variant."""
    where = lab().solo_folder(game, strategy, variant, games, precision, max_games, aggregate_only, deck,
                              **folder(out, backend, scheduler, workers, seed, chunk_size, progress))
    print_summary(where, as_json)


# ----------------------------------------------------------------------------- studies and reports


@app.command(rich_help_panel=STUDIES)
def study(
    quick: option(bool, "--quick", help="A small version of the main study (under a minute).") = False,
    config: option(Optional[Path], "--config", help="A study file (TOML, see analyses/data/example_study.toml) instead of the main study.") = None,
    out: option(Optional[Path], "--out", help="The study folder (default out/study-<date>); re-running resumes it.") = None,
    seed: option(Optional[int], "--seed", "-s", min=0, max=MAX_SEED, help="Random seed, 0 to 2**64-1; default: the study file's.") = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    as_json: WroteJsonOpt = False,
    progress: ProgressOpt = None,
    game: AnyGameOpt = None,
    cards: CardsOpt = None,
    restart_changed: option(bool, "--restart-changed", help="Play again every configuration of the folder whose bots' rows changed since it was played (else refused).") = False,
) -> None:
    """The main job: run a balance study (or your own --config) and write its report."""
    wrote = lab().study(game, quick, config, cards, **folder(out, backend, scheduler, workers, seed, progress=progress), restart_changed=restart_changed)
    if as_json:
        typer.echo(json.dumps(wrote))
        return
    typer.echo(f"study folder {wrote['folder']}")
    if wrote["report"]:
        typer.echo(f"report {wrote['report']}")


@app.command(rich_help_panel=STUDIES)
def summarize(
    folder: Annotated[Path, typer.Argument(help="A study folder written by simulate --out, compare, sweep, tournament --out, solo or study.")],
    as_json: JsonOpt = False,
    game: FolderGameOpt = None,
) -> None:
    """Summarise a study folder: every analysis it has data for (seats, variants, sweep, types, tournament, skill, solo)."""
    lab().check_folder_game(folder, game)
    print_summary(folder, as_json)


@app.command(rich_help_panel=STUDIES)
def report(
    folder: Annotated[Path, typer.Argument(help="A study folder.")],
    pdf: option(Optional[Path], "--pdf", help="Where to write the PDF (default: report.pdf in the folder).") = None,
    png_dir: option(Optional[Path], "--png-dir", help="Where to write one PNG per chart (default: in the folder).") = None,
    game: FolderGameOpt = None,
    as_json: WroteJsonOpt = False,
) -> None:
    """Write a designer's report of a study folder: a PDF with findings and charts, and one PNG per chart."""
    from reports.games import report_of

    result = report_of(folder, game, pdf, png_dir)
    if as_json:  # the shape of study --json: what was written
        typer.echo(json.dumps({"folder": str(folder), "report": str(result.pdf),
                               "charts": [str(png) for png in result.pngs]}))
        return
    echo([f"wrote {result.pdf}", *(f"wrote {png}" for png in result.pngs)])


@app.command(rich_help_panel=STUDIES)
def certify(
    folder: Annotated[Path, typer.Argument(help="A study folder written by `dreamscape study`.")],
    games: option(Optional[int], "--games", "-n", min=2, max=MAX_GAMES, help="Deals per configuration (default 1,000; at most the study's own).") = None,
    doubling: option(bool, "--doubling", help="Also play the top rung at twice its playouts (K -> 2K): does a verdict change?") = False,
    playouts: option(Optional[int], "--playouts", "-k", min=1, max=10_000, help="K of the top rung (default 16).") = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    as_json: JsonOpt = False,
    progress: ProgressOpt = None,
) -> None:
    """Read a study's headline findings again at a certified top rung above its strongest bot (resumable)."""
    data = lab().certify(folder, games, doubling, backend, scheduler, workers, progress, _PROCESS["console"],
                         " ".join(["dreamscape", *sys.argv[1:]]), playouts)
    emit(data, as_json, "certify_lines", ready=True)


# ----------------------------------------------------------------------------- bots


@app.command(rich_help_panel=BOTS)
def strategies(as_json: JsonOpt = False, game: GameOpt = DEFAULT_GAME) -> None:
    """List the built-in strategies with a one-line description each (the default bot first named)."""
    emit(lab().strategies(game), as_json, "strategy_lines")


@app.command(rich_help_panel=BOTS)
def tournament(
    strategy: StrategyOpt = None,
    players: PlayersOpt = None,
    variant: option(str, "--variant", help="Variant: base or tokens like sleep-token+FF:ID.") = "base",
    games: option(int, "--games", "-n", min=1, max=MAX_GAMES, help="Games per seating, 1 to 10**12 "
                                       "(every seating of every group plays the same deals).") = 2000,
    seed: SeedOpt = 1,
    as_json: JsonOpt = False,
    out: option(Optional[Path], "--out", help="Also write a study folder (one configuration per seating); re-running resumes it.") = None,
    chunk_size: ChunkOpt = 50_000,
    aggregate_only: AggregateOpt = False,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
    no_distance: NoDistanceOpt = False,
) -> None:
    """Round robin of strategies with seats rotated on duplicate deals: standings, payoff matrix, ratings."""
    data = lab().tournament_data(game, strategy, players, variant, games, seed, out, chunk_size, aggregate_only,
                                 backend, scheduler, workers, progress, _PROCESS["console"], distance=not no_distance)
    emit(data, as_json, "tournament_lines", ready=True)


@app.command(rich_help_panel=BOTS)
def exploit(
    strategy: option(str, "--strategy", help="The bot to measure (any --strategy value but a search or rollout player)."),
    players: option(Optional[list[int]], "--players", "-p", help="Player count, 2 to 4 (repeatable; default 2, 3, 4).") = None,
    variant: option(Optional[list[str]], "--variant", help="Variant (repeatable; default base and sleep-token).") = None,
    games: option(int, "--games", "-n", min=1, max=MAX_GAMES, help="Games per cell (player count x variant x seat), 1 to 10**12.") = 1000,
    playouts: option(Optional[list[int]], "--playouts", "-k", min=1, max=10_000, help="Playouts per option of the search player (K of search:NAME@K, 1 to 10,000; default 8). Repeat for the budget ladder: -k 4 -k 8 -k 16 also gives what each doubling gains.") = None,
    phases: option(Optional[str], "--phases", help="Game phases the search player searches (early, mid, late joined with +, e.g. late: "
                         "search:NAME@K:late), optionally with the decision kinds it searches there (late:buy+perform: "
                         "search:NAME@K:late:buy+perform); default every decision.") = None,
    seed: SeedOpt = 1,
    as_json: JsonOpt = False,
    out: TableOutOpt = None,
    chunk_size: ChunkOpt = 500,
    game: GameOpt = DEFAULT_GAME,
    progress: ProgressOpt = None,
) -> None:
    """How strong is a bot? Per seat, the win rate search:NAME gains over NAME on the same deals."""
    data = lab().exploit(game, strategy, players, variant, games, playouts, phases, seed, chunk_size, out, progress,
                         _PROCESS["console"])
    emit(data, as_json, "exploit_lines", ready=True, seats_from_one=True)


@app.command(rich_help_panel=BOTS)
def train(
    out: option(Optional[Path], "--out", help="Where to write it (default out/<strategy>-<P>p-<variant>.toml or .npz).") = None,
    strategy: option(str, "--strategy", help="expert (a table, by expert iteration) or strong (its value).") = "expert",
    players: option(int, "--players", "-p", help="Number of players.") = 3,
    variant: VariantOpt = None,
    deck: DeckOpt = None,
    iterations: option(int, "--iterations", help="expert: expert iterations (self-play, then a fit).") = 4,
    games: option(Optional[int], "--games", "-n", help="Self-play games (expert: 1,000 per iteration; strong: 120,000).") = None,
    playouts: option(int, "--playouts", "-k", min=1, max=10_000, help="expert: playouts per option of the search player in self-play (K, 1 to 10,000).") = 8,
    check_games: option(int, "--check-games", help="expert: games per seat of each iteration's check (0: none).") = 2000,
    trees: option(int, "--trees", help="strong: boosting rounds of the value (trees).") = 100,
    leaves: option(int, "--leaves", help="strong: at most this many leaves per tree.") = 63,
    table: option(Optional[Path], "--table", help="strong: learn from this expert table's self-play (default the shipped table); play strong:VALUE.npz+expert:TABLE.toml.") = None,
    seed: SeedOpt = 1,
    as_json: JsonOpt = False,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Train a bot: an expert table by expert iteration, or the strong bot's value of a position."""
    strong = strategy == "strong"
    data = lab().train_strong(game, out, players, variant, deck, games, trees, leaves, seed, progress, _PROCESS["console"], table) \
        if strong else lab().train(game, out, players, variant, deck, iterations, games, playouts, check_games, seed,
                                   progress, _PROCESS["console"], strategy=strategy, table=table)
    emit(data, as_json, "train_strong_lines" if strong else "train_lines")


@app.command(rich_help_panel=BOTS)
def tune(
    out: option(Optional[Path], "--out", help="Where to write the tuned weights (TOML; play them with --strategy linear:FILE; default "
                      "out/tuned-<P>p-<variant>.toml).") = None,
    players: option(int, "--players", "-p", help="Number of players.") = 3,
    sleep_token: SleepTokenOpt = False,
    shifting_tokens: ShiftingTokensOpt = False,
    swap: SwapOpt = None,
    budget: option(int, "--budget", min=1, max=1_000_000, help="Candidate weight vectors to " "evaluate (CMA-ES evaluations), 1 to 1,000,000.") = 200,
    games_per_eval: option(int, "--games-per-eval", min=1, max=MAX_GAMES, help="Games per candidate, seats rotated (1 to 10**12).") = 3000,
    field: option(str, "--field", help="Comma-separated opponents the linear bot is tuned against.") = "greedy,chain,economist,spoiler",
    seed: SeedOpt = 1,
    as_json: JsonOpt = False,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Optimise the linear bot's weights by CMA-ES against a field of bots (seats rotated)."""
    rules = lab().common.variant_text(None, {"--sleep-token": sleep_token, "--shifting-tokens": shifting_tokens}, swap)
    emit(lab().tune(game, out, players, rules, budget, games_per_eval, field, seed, progress, _PROCESS["console"]), as_json,
         "tune_lines")


# ----------------------------------------------------------------------------- fixes


@app.command(rich_help_panel=FIXES)
def restrict(
    players: option(Optional[list[int]], "--players", "-p", help="Player count, 2 to 4 (repeatable; default 3).") = None,
    variant: option(Optional[list[str]], "--variant", help="Variant (repeatable; default base). CD:ID+RD:ED+SD:PS holds the 3 expansion types.") = None,
    strategy: BotOpt = None,
    restriction: option(Optional[list[str]], "--restriction", help="buy and/or perform (repeatable; default both).") = None,
    games: option(int, "--games", "-n", help="Deals per seat and type (each row pools games x " "players).") = 500,
    seed: SeedOpt = 1,
    as_json: JsonOpt = False,
    out: TableOutOpt = None,
    chunk_size: ChunkOpt = 500,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
    no_distance: NoDistanceOpt = False,
) -> None:
    """Restricted play: how much a seat loses when its bot may never buy (or never perform) one dream type."""
    data = lab().restrict(game, strategy, players, variant, restriction, games, seed, chunk_size, out, progress,
                          _PROCESS["console"], distance=not no_distance)
    emit(data, as_json, "restrict_lines", ready=True)


@app.command("fix-seats", rich_help_panel=FIXES)
def fix_seats(
    players: option(int, "--players", "-p", help="Number of players, 2 to 4.") = 3,
    variant: VariantOpt = None,
    strategy: BotOpt = None,
    target: option(float, "--target", help="Seat spread to reach: top minus bottom seat win rate, in points.") = 5.0,
    trials: option(int, "--trials", help="Knob settings the optimiser tries (600 met the 5-point " "target for 2-4 players with expert).") = 600,
    games: option(int, "--games", "-n", help="Games per trial (the same deals every trial).") = 2000,
    verify: option(int, "--verify", help="Games per verified candidate, on fresh deals.") = 10000,
    candidates: option(int, "--candidates", help="Best distinct settings to verify.") = 5,
    seed: SeedOpt = 1,
    out: option(Optional[Path], "--out", help="Study folder to write (default out/fix-seats-<P>p).") = None,
    search: option(Optional[str], "--search", help="Knob families: seats (default), costs, chain, copies or all.") = None,
    as_json: JsonOpt = False,
    progress: ProgressOpt = None,
    game: GameOpt = DEFAULT_GAME,
    no_distance: NoDistanceOpt = False,
) -> None:
    """Search rules knobs for the smallest change that brings the seat spread under --target (optuna TPE)."""
    data = lab().fix_seats(game, players, variant, strategy, target, trials, games, verify, candidates, seed, out,
                           progress, _PROCESS["console"], search=search, distance=not no_distance)
    emit(data, as_json, "fix_lines", ready=True, seats_from_one=True)


@app.command(rich_help_panel=FIXES)
def decks(
    deck: DeckOpt = None,
    swaps: option(str, "--swaps", help="Which swap decks to list: all, none, single, double or triple.") = "all",
    as_json: JsonOpt = False,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """List the swap decks (the Controlled Study decks, R1.4) with their size and cards per dream type."""
    data = lab().decks(game, deck, swaps)
    if as_json:
        typer.echo(json.dumps({"source": data["source"], "decks": data["rows"]}, default=str))
        return
    from reports.games.dreamscape.tables import deck_lines

    echo(deck_lines(data["decks"], data["source"]))


# ----------------------------------------------------------------------------- setup


@app.command(rich_help_panel=SETUP)
def conformance(
    paths: Annotated[Optional[list[Path]], typer.Argument(help="Scenario files or folders (searched recursively) "
                                                          "of *.json scenarios (default: the game's own).")] = None,
    engine: option(str, "--engine", help="Engine(s) to play the scenarios on: reference, fast or both.") = "both",
    as_json: JsonOpt = False,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Play rules scenarios (shared/conformance/FORMAT.md) and check their expected positions.

    One line per scenario, then ``N passed, M failed``; exit code 1 when any fails, 2 when a file
    could not be loaded as a scenario (listed as a failure with the reason) or none was found.
    """
    data = lab().conformance(game, paths, engine)
    emit({k: v for k, v in data.items() if k != "malformed"} if as_json else data, as_json, "conformance_lines")
    if data["malformed"] or data["failed"]:
        raise typer.Exit(2 if data["malformed"] else 1)


@app.command(rich_help_panel=PLAY)
def ui(port: option(Optional[int], "--port", min=1, max=65535, help="The port on 127.0.0.1 (default: a free one).") = None,
       no_browser: option(bool, "--no-browser", help="Do not open the page in the browser.") = False) -> None:
    """The what-if page: change a knob, variant, swap or card file, and see its paired effect (127.0.0.1 only)."""
    lab().ui.serve(port, not no_browser)


@app.command(rich_help_panel=SETUP)
def warmup(
    game: GameOpt = DEFAULT_GAME,
    as_json: option(bool, "--json", help="Print how long it took (and whether the engine was " "compiled already) as one JSON object.") = False,
) -> None:
    """Compile the fast engine and the built-in strategies into numba's cache once (1-3 minutes on 2 cores).

    Every later command loads them in about a second (``python3 dev.py setup`` runs this).
    """
    data = lab().warmup(game, say=lambda line: typer.echo(line, err=True))
    if as_json:  # the lines above stay on stderr; stdout carries only this
        typer.echo(json.dumps({**data, "seconds": round(data["seconds"], 3)}))


@app.command(rich_help_panel=SETUP)
def bench(
    as_json: JsonOpt = False,
    quick: option(bool, "--quick", help="Fewer games per row (a rough check in a few seconds).") = False,
    game: GameOpt = DEFAULT_GAME,
) -> None:
    """Measure games/s of the fast and reference engines, and the fast engine's cold and warm start."""
    data = lab().bench(game, quick, say=lambda line: typer.echo(line, err=True))
    if as_json:
        typer.echo(json.dumps(data))
        return
    from analyses.tools.bench import bench_lines

    echo(bench_lines(data))


# ----------------------------------------------------------------------------- warm start (simcore.warmstart)

PROJECT_ROOT = Path(__file__).resolve().parent
SPARE_ENTRY = "import cli; cli.serve_spare()"


def serve_spare() -> None:
    """Entry of a spare process (:data:`SPARE_ENTRY`): :func:`analyses.spare.serve_spare` with this app."""
    from analyses.spare import serve_spare as serve

    serve(PROJECT_ROOT, app, SPARE_ENTRY)


@app.command(rich_help_panel=SETUP)
def server(
    stop: option(bool, "--stop", help="End every waiting spare process of this user.") = False,
    as_json: JsonOpt = False,
) -> None:
    """Warm start: whether a spare process waits with the engine loaded for the next command.

    A spare serves one command and exits after 15 idle minutes (``DREAMSCAPE_SERVER_IDLE`` seconds);
    ``DREAMSCAPE_SERVER=off`` turns warm start off; ``--stop`` ends the spares now.
    """
    from simcore import warmstart

    stopped = warmstart.stop_spares() if stop else 0
    key = warmstart.source_key(PROJECT_ROOT)
    found = [dict(s, current=s["key"] == key) for s in warmstart.spares()]
    data = {"enabled": warmstart.enabled(), "folder": str(warmstart.socket_folder()), "stopped": stopped,
            "spares": found}
    emit(data, as_json, "server_lines")


def main() -> None:  # pragma: no cover - console entry point (tests/test_warmstart.py runs it in subprocesses)
    from simcore import warmstart

    warmstart.console(PROJECT_ROOT, app, SPARE_ENTRY, wants_spare(sys.argv[1:]))


if __name__ == "__main__":  # pragma: no cover
    main()
