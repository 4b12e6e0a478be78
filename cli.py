"""`dreamscape`: the balance lab's command line.

Commands stay thin: they parse and validate options, then delegate to plain
functions in ``simcore``, ``strategies``, ``analyses`` and ``reports``. Bad
input ends with one line naming the problem and exit code 2, never a traceback.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

try:  # typer >= 0.29 vendors click
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - older typer on top of click
    from click.exceptions import ClickException, NoArgsIsHelpError
from typer.core import TyperGroup

from simcore.cards import CardError
from simcore.decks import Deck, DeckError, DeckSpec, all_swap_decks, default_spec, deck_from_swap_texts, load_spec
from simcore.rules import MAX_PLAYERS, MIN_PLAYERS, Options
from simcore.variants import VariantError
from analyses.study import StudyError


class UserInputError(Exception):
    """Bad input from the user: reported as one line, exit code 2."""


class OneLineErrors(TyperGroup):
    """Turns usage errors and our own input errors into one line and exit code 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        prog = prog_name or "dreamscape"
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
        except (UserInputError, DeckError, CardError, VariantError, StudyError) as exc:
            typer.echo(f"{prog}: error: {exc}", err=True)
            rv = 2
        except (KeyboardInterrupt, typer.Abort):
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
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="Random seed; the same seed gives the same game.")]
SleepTokenOpt = Annotated[bool, typer.Option("--sleep-token", help="Play the Sleep Token variant (R9).")]
ShiftingTokensOpt = Annotated[
    bool, typer.Option("--shifting-tokens", help="Shifting Dreams moves the cost tokens instead (R6.8 variant).")
]
SwapOpt = Annotated[
    Optional[list[str]],
    typer.Option("--swap", help="Controlled Study swap REMOVED:ADDED, e.g. FF:ID (repeatable, at most 3; R1.4)."),
]
DeckOpt = Annotated[
    Optional[Path], typer.Option("--deck", help="A deck composition TOML file (format of the default deck, R1.3).")
]


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
    paths: Annotated[list[Path], typer.Argument(help="Scenario files or folders of *.json scenarios.")],
) -> None:
    """Play rules scenarios (shared/conformance/FORMAT.md) and check their expected positions.

    Exit code 0 when all pass, 1 when any fails, 2 when any file could not be
    loaded as a scenario (it is listed as a failure with the reason).
    """
    from simcore.conformance import run_scenario_file, scenario_files

    passed = failed = malformed = 0
    for path in scenario_files(paths):
        result = run_scenario_file(path)
        malformed += result.malformed
        if result.passed:
            passed += 1
            typer.echo(f"PASS {result.name}")
        else:
            failed += 1
            typer.echo(f"FAIL {result.name}: {result.reason}")
    typer.echo(f"{passed} passed, {failed} failed")
    if malformed:
        raise typer.Exit(2)
    if failed or not passed:
        raise typer.Exit(1)


# ----------------------------------------------------------------------------- play


@app.command()
def play(
    players: PlayersOpt = 3,
    seed: SeedOpt = 1,
    sleep_token: SleepTokenOpt = False,
    shifting_tokens: ShiftingTokensOpt = False,
    swap: SwapOpt = None,
    deck: DeckOpt = None,
    strategy: Annotated[
        Optional[list[str]],
        typer.Option("--strategy", help="Bot per seat (repeatable) or one for all: random, greedy."),
    ] = None,
) -> None:
    """Play one game on the reference engine and narrate it turn by turn."""
    from reports.narrate import narrate_game
    from strategies.reference_bots import REFERENCE_BOTS

    check_players(players)
    the_deck = resolve_deck(deck, swap)
    bots = resolve_strategies(strategy, players, REFERENCE_BOTS)
    for line in narrate_game(the_deck, players, seed, Options(sleep_token, shifting_tokens), bots):
        typer.echo(line)


# ----------------------------------------------------------------------------- decks


@app.command()
def decks(
    deck: DeckOpt = None,
    swaps: Annotated[
        str, typer.Option("--swaps", help="Which swap decks to list: all, none, single, double or triple.")
    ] = "all",
) -> None:
    """List the Controlled Study decks (R1.4) with their size and cards per dream type."""
    from simcore.cards import CODES

    sizes = {"all": None, "none": 0, "single": 1, "double": 2, "triple": 3}
    if swaps not in sizes:
        raise UserInputError(f"--swaps must be one of {', '.join(sizes)}, got {swaps!r}")
    spec = load_spec(deck) if deck else default_spec()
    typer.echo(f"{'deck':<24}{'cards':>6}  " + " ".join(f"{c:>3}" for c in CODES))
    count = 0
    for d in all_swap_decks(spec):
        if sizes[swaps] is not None and len(d.removed) != sizes[swaps]:
            continue
        count += 1
        counts = d.type_counts()
        typer.echo(f"{d.label:<24}{len(d):>6}  " + " ".join(f"{n:>3}" for n in counts))
    typer.echo(f"{count} deck(s) from {spec.source}")


# ----------------------------------------------------------------------------- simulate


StrategyOpt = Annotated[
    Optional[list[str]],
    typer.Option(
        "--strategy",
        help="Strategy per seat (repeatable) or one for all: a built-in name (see `dreamscape strategies`), "
        "path/to/bot.py:function, package.module:function or linear:FILE.toml.",
    ),
]


def resolve_fast_strategies(specs: list[str] | None, players: int) -> list[str]:
    """Load every ``--strategy`` value; one per seat, or one for all seats."""
    from strategies.api import StrategyError, load_strategy

    specs = specs or ["greedy"]
    if len(specs) not in (1, players):
        raise UserInputError(f"give one --strategy per seat ({players}) or one for all, got {len(specs)}")
    try:
        names = [load_strategy(spec) for spec in specs]
    except StrategyError as exc:
        raise UserInputError(str(exc)) from None
    return names * players if len(names) == 1 else names


@app.command()
def simulate(
    players: PlayersOpt = 3,
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games to play.")] = 100_000,
    seed: SeedOpt = 1,
    sleep_token: SleepTokenOpt = False,
    shifting_tokens: ShiftingTokensOpt = False,
    swap: SwapOpt = None,
    deck: DeckOpt = None,
    strategy: StrategyOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
    chunk_size: Annotated[int, typer.Option("--chunk-size", help="Games per parallel chunk (results do not depend on it).")] = 50_000,
    out: Annotated[
        Optional[Path],
        typer.Option("--out", help="Write a study folder (per-game parquet + manifest); re-running resumes it."),
    ] = None,
) -> None:
    """Play many games of one configuration on the fast engine and summarise them per seat."""
    import json
    import time

    from simcore.fast import SimConfig, simulate as run_simulation, summarize
    from simcore.variants import variant_from_flags

    check_players(players)
    if games < 1:
        raise UserInputError(f"--games must be at least 1, got {games}")
    if chunk_size < 1:
        raise UserInputError(f"--chunk-size must be at least 1, got {chunk_size}")
    variant = variant_from_flags(sleep_token, shifting_tokens, swap)
    the_deck = resolve_deck(deck, swap)
    names = resolve_fast_strategies(strategy, players)
    if out is not None:
        if deck is not None:
            raise UserInputError("--deck cannot be combined with --out yet (study folders use the default deck)")
        from analyses.study import RunConfig, Study

        study = Study(out, [RunConfig(variant.name, players, tuple(names))], games, seed, chunk_size,
                      command=" ".join(["dreamscape", *sys.argv[1:]]))
        study.run(progress=True)
        summarize_study(out, as_json)
        return
    config = SimConfig(players=players, options=variant.options, deck=the_deck)
    with progress_bar(games, "games") as bar:
        t0 = time.perf_counter()
        result = run_simulation(config, games, seed, names, chunk_size=chunk_size, progress=lambda done, total: bar.update(done - bar.n))
        seconds = time.perf_counter() - t0
    summary = summarize(result, names)
    summary.update({"players": players, "variant": variant.name, "deck": the_deck.label, "deck_cards": len(the_deck),
                    "seed": seed, "seconds": round(seconds, 4), "games_per_s": round(games / seconds, 1) if seconds else None})
    if as_json:
        typer.echo(json.dumps(summary))
        return
    for line in simulation_lines(summary):
        typer.echo(line)


def simulation_lines(summary: dict) -> list[str]:
    """The per-seat table of a simulation summary, with 95% Wilson intervals."""
    mode = "solo" if summary["players"] == 1 else f"{summary['players']} players"
    lines = [
        f"{mode}, rules {summary['variant']}, deck {summary['deck']} ({summary['deck_cards']} cards), "
        f"{summary['games']:,} games, seed {summary['seed']}, {summary['seconds']:.2f} s ({summary['games_per_s']:,.0f} games/s)",
        f"{'seat':<5}{'strategy':<16}{'win rate (95% CI)':<26}{'mean score':>11}{'mean Z':>8}{'mean turns':>12}",
    ]
    for s in summary["seats"]:
        lo, hi = s["win_ci"]
        rate = f"{100 * s['win_rate']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"
        lines.append(f"{s['seat']:<5}{s['strategy']:<16}{rate:<26}{s['mean_score']:>11.2f}{s['mean_z']:>8.2f}{s['mean_turns']:>12.2f}")
    lines.append(f"mean game length {summary['mean_game_length']:.2f} turns; aborted games: {summary['aborted']}")
    return lines


def progress_bar(total: int, unit: str):
    """A progress bar on stderr (games/s and ETA); stdout stays clean for --json."""
    from tqdm.auto import tqdm

    return tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, dynamic_ncols=True, mininterval=0.5, leave=False)


# ----------------------------------------------------------------------------- summarize


@app.command()
def summarize(
    folder: Annotated[Path, typer.Argument(help="A study folder written by simulate --out (or another study command).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Summarise a study folder: win rate per seat with 95% intervals, scores, game length."""
    summarize_study(folder, as_json)


def summarize_study(folder: Path, as_json: bool) -> None:
    import json

    from analyses.balance import game_lengths, seat_advantage

    seats = seat_advantage(folder)
    lengths = game_lengths(folder)
    if as_json:
        typer.echo(json.dumps({"seats": seats.to_dicts(), "game_length": lengths.to_dicts()}))
        return
    for config in seats["config"].unique(maintain_order=True).to_list():
        part = seats.filter(seats["config"] == config)
        first = part.row(0, named=True)
        length = lengths.filter(lengths["config"] == config).row(0, named=True)
        mode = "solo" if first["players"] == 1 else f"{first['players']} players"
        typer.echo(f"{mode}, variant {first['variant']}, {first['games']:,} games; mean game length "
                   f"{length['mean_length']:.2f} turns ({length['length_low']:.2f}-{length['length_high']:.2f})")
        typer.echo(f"  {'seat':<5}{'strategy':<16}{'win rate (95% CI)':<26}{'vs fair':>9}{'mean score':>12}{'mean Z':>8}")
        for r in part.iter_rows(named=True):
            rate = f"{100 * r['win_rate']:.1f}% ({100 * r['win_low']:.1f}-{100 * r['win_high']:.1f}%)"
            flag = "*" if r["significant"] else " "
            typer.echo(f"  {r['seat']:<5}{r['strategy']:<16}{rate:<26}{100 * r['lift']:>+8.1f}%{flag}{r['mean_score']:>11.2f}{r['mean_z']:>8.2f}")
    typer.echo("* the 95% interval excludes the fair share 1/players")


# ----------------------------------------------------------------------------- bench


@app.command()
def bench(
    as_json: Annotated[bool, typer.Option("--json", help="Print the measurements as one JSON object.")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="Fewer games per row (a rough check in a few seconds).")] = False,
) -> None:
    """Measure games/s of the fast and reference engines, and the fast engine's cold and warm start."""
    import json

    import strategies.builtins  # noqa: F401 - registers the heuristic bots timed below
    from simcore.fast.bench import bench_lines, run_bench

    bots = ("greedy-hook", "greedy-hook-kinds", "chain", "economist", "spoiler", "linear")
    report = run_bench(quick=quick, hook_strategies=bots, progress=lambda line: typer.echo(line, err=True))
    if as_json:
        typer.echo(json.dumps(report))
        return
    for line in bench_lines(report):
        typer.echo(line)


# ----------------------------------------------------------------------------- strategies


@app.command()
def strategies() -> None:
    """List the built-in strategies with a one-line description each."""
    from strategies.api import strategy_table

    rows = strategy_table()
    width = max(len(name) for name, _ in rows) + 2
    for name, description in rows:
        typer.echo(f"{name:<{width}}{description}")
    typer.echo("Your own: --strategy path/to/bot.py:function, package.module:function or linear:FILE.toml")


# ----------------------------------------------------------------------------- tune


@app.command()
def tune(
    out: Annotated[Path, typer.Option("--out", help="Where to write the tuned weights (TOML; play them with --strategy linear:FILE).")],
    players: PlayersOpt = 3,
    sleep_token: SleepTokenOpt = False,
    shifting_tokens: ShiftingTokensOpt = False,
    swap: SwapOpt = None,
    budget: Annotated[int, typer.Option("--budget", help="Candidate weight vectors to evaluate (CMA-ES evaluations).")] = 200,
    games_per_eval: Annotated[int, typer.Option("--games-per-eval", help="Games per candidate, seats rotated.")] = 3000,
    field: Annotated[str, typer.Option("--field", help="Comma-separated opponents the linear bot is tuned against.")] = "greedy,chain,economist,spoiler",
    seed: SeedOpt = 1,
) -> None:
    """Optimise the linear bot's weights by CMA-ES against a field of bots (seats rotated)."""
    from strategies.linear import write_weights
    from strategies.tuner import tune as run_tune
    from simcore.variants import variant_from_flags

    check_players(players)
    if players < 2:
        raise UserInputError("tuning needs opponents: --players must be 2 to 4")
    if budget < 1 or games_per_eval < 1:
        raise UserInputError("--budget and --games-per-eval must be at least 1")
    variant = variant_from_flags(sleep_token, shifting_tokens, swap)
    opponents = [name.strip() for name in field.split(",") if name.strip()]
    resolve_fast_strategies(opponents, len(opponents))
    if not out.parent.exists():
        raise UserInputError(f"--out {out}: folder {out.parent} does not exist")
    with progress_bar(budget, "eval") as bar:
        def step(n: int, best: float) -> None:
            bar.update(n)
            bar.set_postfix_str(f"best win rate {100 * best:.1f}%")
        result = run_tune(players, variant.name, opponents, budget, games_per_eval, seed, progress=step)
    comment = (
        f"Tuned by `dreamscape tune`: {players} players, variant {variant.name}, field {', '.join(opponents)},\n"
        f"seed {seed}, {result.evaluations} evaluations of {games_per_eval} games; best mean win credit {result.fitness:.4f}"
    )
    write_weights(out, result.weights, f"tuned-{players}p-{variant.name}", comment)
    typer.echo(f"wrote {out}: best mean win credit {100 * result.fitness:.1f}% (fair share {100 / players:.1f}%) after {result.evaluations} evaluations")


# ----------------------------------------------------------------------------- tournament


@app.command()
def tournament(
    strategy: StrategyOpt = None,
    players: PlayersOpt = 3,
    variant: Annotated[str, typer.Option("--variant", help="Variant: base or tokens like sleep-token+FF:ID.")] = "base",
    games: Annotated[int, typer.Option("--games", "-n", help="Games per seating (every seating of every group plays the same deals).")] = 2000,
    seed: SeedOpt = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print standings, payoff matrix and flags as JSON.")] = False,
) -> None:
    """Round robin of strategies with seats rotated on duplicate deals: standings, payoff matrix, ratings."""
    import json

    from analyses.tournament import run_tournament, schedule
    from simcore.variants import parse_variant

    check_players(players)
    if players < 2:
        raise UserInputError("a tournament needs --players 2 to 4")
    if games < 1:
        raise UserInputError(f"--games must be at least 1, got {games}")
    parse_variant(variant)
    specs = strategy or ["random", "greedy", "chain", "economist", "spoiler"]
    names = resolve_fast_strategies(specs, len(specs))
    if len(set(names)) < 2:
        raise UserInputError("a tournament needs at least two different --strategy values")
    total = len(schedule(names, players)) * games
    with progress_bar(total, "games") as bar:
        result = run_tournament(names, players, variant, games, seed, progress=bar.update)
    if as_json:
        typer.echo(json.dumps({
            "players": players, "variant": variant, "games_per_seating": games, "seed": seed,
            "standings": result.standings.to_dicts(), "payoff": result.payoff.to_dicts(),
            "dominant": result.dominant, "cycles": [list(c) for c in result.cycles],
        }))
        return
    for line in tournament_lines(result):
        typer.echo(line)


def tournament_lines(result) -> list[str]:
    fair = 100 / result.players
    lines = [
        f"{result.players} players, variant {result.variant}, {result.games_per_seating:,} games per seating "
        f"(fair share {fair:.1f}%)",
        f"{'rank':<6}{'strategy':<24}{'win rate (95% CI)':<26}{'lift':>8}{'mean score':>12}{'rating':>9}",
    ]
    for i, row in enumerate(result.standings.iter_rows(named=True), start=1):
        rate = f"{100 * row['win_rate']:.1f}% ({100 * row['win_low']:.1f}-{100 * row['win_high']:.1f}%)"
        lines.append(f"{i:<6}{row['strategy']:<24}{rate:<26}{100 * row['lift']:>+7.1f}%{row['mean_score']:>12.2f}{row['rating']:>9.2f}")
    lines.append("dominant strategy: " + (result.dominant or "none"))
    lines.append("cycles: " + ("; ".join(" > ".join(c) + f" > {c[0]}" for c in result.cycles) if result.cycles else "none"))
    return lines


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
