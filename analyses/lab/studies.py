"""Study folders: compare, sweep, solo, the main study (and a designer's study file), and reading a folder back.

Every function here writes (or resumes) one study folder and returns it; its
numbers are read back with :func:`open_study` (or ``dreamscape summarize``).
The main study's orchestration, once in ``reports.main_study``, is
:func:`run_study`: the lab plays the study, and the game's declared report
(its wing's ``report`` hook, :attr:`analyses.games.LabWing.report`) writes the report.
"""
from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

import polars as pl

from analyses.lab.common import (FolderOptions, LabInputError, claimed, check_players, check_study_numbers, deal,
                                 default_players, game_of, prepare, run_study_plan, stderr_line, writable_folder)
from analyses.lab.errors import ParameterError, parameter_error
from analyses.lab.validate import check_arguments
from analyses.study.model import GameDeal, RunConfig, StudyError
from analyses.study.studyfile import StudyPlan
from analyses.games import DEFAULT_GAME, need_hook, wing_of

# --------------------------------------------------------------------------- the study-folder options


def _folder_options(options: FolderOptions | None, **given) -> FolderOptions:
    return (options or FolderOptions(**given)).check()


def _plan(the, opts: FolderOptions, configs: list[RunConfig], cards, kind: str, games, precision, max_games,
          aggregate_only, meta: dict | None = None) -> StudyPlan:
    return StudyPlan(configs, games=games, precision=precision, max_games=max_games, seed=opts.seed,
                     chunk_size=opts.chunk_size, aggregate_only=aggregate_only, kind=kind, meta=meta or {},
                     **deal(the, cards))


def _run(the, plan: StudyPlan, folder: Path, opts: FolderOptions, played=None) -> Path:
    run_study_plan(the, plan, folder, opts.backend, opts.scheduler, opts.workers, played=played)
    return folder


# --------------------------------------------------------------------------- compare, sweep, solo


def compare_folder(game: str = DEFAULT_GAME, variants: Sequence[str] | None = None, baseline: str | None = None,
                   players: Sequence[int] | None = None, strategies: Sequence[str] | None = None,
                   games: int | None = None, precision: float | None = None, max_games: int = 1_000_000,
                   aggregate_only: bool = False, cards: Path | None = None,
                   options: FolderOptions | None = None, one_variant: bool = False, played=None, **folder) -> Path:
    """Play variants on the same deals (common random numbers) into a study folder; returns the folder.

    ``variants`` default to the rules variants the game declares for comparison;
    the baseline is ``baseline``, else the first. Needs the game's ``variants``.
    ``one_variant``: a single variant is enough (decks are what is compared, :func:`compare_decks_folders`).
    ``played``: called with the play's wall time once the engine is ready (:func:`analyses.lab.common.run_study_plan`).
    """
    check_arguments(locals())  # the command line's bounds, named by parameter
    the = game_of(game)
    the.need("variants", "compare")
    opts = _folder_options(options, **folder)
    counts = [check_players(the, p) for p in (players or [default_players(the)])]
    check_study_numbers(games, precision, max_games)
    wanted = list(variants or the.variants(counts[0]))
    if baseline is not None:
        wanted = [baseline] + [v for v in wanted if v != baseline]
    names = list(dict.fromkeys(the.variant_name(the.setup(counts[0], v, cards)) for v in wanted))
    if len(names) < (1 if one_variant else 2):
        raise ParameterError("compare needs at least two different variants (variants=[A, B])",
                             "compare needs at least two different variants (--variant A --variant B)")
    if strategies and len(strategies) > 1 and len(counts) > 1:
        raise ParameterError("with several players give one of strategies for all seats",
                             "with several --players give one --strategy for all seats")
    prepare(the, opts.progress, interrupts=opts.interrupts)
    configs = []
    for p in counts:
        seats = the.seat_strategies(strategies, the.setup(p, names[0], cards))
        configs += [RunConfig(the.variant_name(the.setup(p, name, cards)), p, seats) for name in names]
    plan = _plan(the, opts, configs, cards, "compare", games, precision, max_games, aggregate_only,
                 {"baseline": names[0]})
    folder = opts.folder("compare", "+".join(map(str, counts)) + "p", "-vs-".join(names), seats[0])
    return _run(the, plan, folder, opts, played)


def compare_decks_folders(game: str = DEFAULT_GAME, decks: Sequence[Path] = (), variants: Sequence[str] | None = None,
                          players: Sequence[int] | None = None, strategies: Sequence[str] | None = None,
                          games: int | None = None, precision: float | None = None, max_games: int = 1_000_000,
                          aggregate_only: bool = False, options: FolderOptions | None = None, played=None,
                          **folder) -> list[Path]:
    """Play every deck file under the same variants, players, bots and seed, one study folder each (in order).

    Game ``g`` of every folder is dealt from the random stream ``(seed, g)``, so
    :func:`analyses.tools.compare.compare_decks` pairs the decks game by game.
    ``variants`` default to the base game alone. The folders are
    ``<out>/<n>-<deck file stem>`` (``out`` given, or the default folder of the
    question). Every deck is checked before any game is played.
    """
    the = game_of(game)
    decks = [Path(d) for d in decks]
    if len(decks) < 2:
        raise LabInputError("comparing decks needs two or more deck files")
    for d in decks:
        the.load_cards(d)  # a bad deck is one line (the game's error) before the first deck plays
    opts = _folder_options(options, **folder)
    root = opts.folder("compare", "decks", "-vs-".join(d.stem for d in decks))
    return [compare_folder(game, list(variants or ["base"]), None, players, strategies, games, precision, max_games,
                           aggregate_only, d, replace(opts, out=root / f"{i}-{d.stem}"), one_variant=True,
                           played=played)
            for i, d in enumerate(decks, start=1)]


def compared(game: str = DEFAULT_GAME, cards: Sequence[Path] = (), variants: Sequence[str] | None = None,
             baseline: str | None = None, players: Sequence[int] | None = None,
             strategies: Sequence[str] | None = None, games: int | None = None, precision: float | None = None,
             max_games: int = 1_000_000, aggregate_only: bool = False, options: FolderOptions | None = None,
             distance: bool = True, **folder) -> dict:
    """``dreamscape compare``: play the comparison and return its :func:`comparison_summary`.

    Two or more card files: the decks against the first on the same deals
    (:func:`compare_decks_folders`); else the variants against the baseline,
    with that one card file (or the game's own) (:func:`compare_folder`). ``seconds`` is the wall time
    of the play once the engine is ready (as simulate's). ``distance``: on every changed side also the
    bots' distance from search (``bot_notes``, :mod:`analyses.lab.whatif`; their training status either way).
    """
    opts = _folder_options(options, **folder)
    clock: list[float] = []
    if len(cards) > 1:
        if baseline is not None:
            raise parameter_error("baseline", "names a variant; comparing decks, the first deck is the baseline")
        folders = compare_decks_folders(game, cards, variants, players, strategies, games, precision, max_games,
                                        aggregate_only, opts, played=clock.append)
        summary, sides = comparison_summary(folders, cards), list(zip(folders, cards))
    else:
        one = cards[0] if cards else None
        folder = compare_folder(game, variants, baseline, players, strategies, games, precision, max_games,
                                aggregate_only, one, opts, played=clock.append)
        summary, sides = comparison_summary([folder], [one]), [(folder, one)]
    from analyses.lab.whatif import bot_notes
    from analyses.study.folder import finished_configs

    the = game_of(summary["game"])
    configs = [(the.setup(c.players, c.variant, card), card, c.strategies) for f, card in sides
               for c in finished_configs(f)]
    return {**summary, "seconds": sum(clock) if clock else summary["seconds"],
            "bot_notes": bot_notes(the, configs, distance, opts.seed)}


def comparison_summary(folders: Sequence[Path], cards: Sequence[Path | None] = (None,),
                       labels: Sequence[str] | None = None) -> dict:
    """What ``dreamscape compare`` prints, the same for every game: its header and one row per side x metric.

    One folder: its variants against its baseline (:func:`analyses.tools.compare.compare_variants`,
    ``cards`` the one card file it played). Several folders: one per card file of ``cards`` (in order),
    each deck against the first (:func:`analyses.tools.compare.compare_decks`, named by ``labels``).
    Header: game, title, players, bots, baseline, variants, each side's deck (name and card count, as
    :attr:`simcore.games.Game.deck_of` names the deck actually played), games, seed, seconds of play.
    """
    from analyses.study.folder import finished_configs, read_manifest
    from analyses.tools.compare import METRIC_COLUMNS, compare_decks, compare_variants, folder_game

    folders = [Path(f) for f in folders]
    the = game_of(folder_game(folders[0]))
    manifests = [read_manifest(f) for f in folders]
    configs = finished_configs(folders[0])
    if len(folders) == 1:
        rows = compare_variants(folders[0]).to_dicts()
        baseline = rows[0]["baseline"] if rows else (manifests[0].meta.get("baseline") or configs[0].variant)
        sides = list(dict.fromkeys([baseline, *(c.variant for c in configs)]))
        decks = [_deck(the, configs[0].players, v, cards[0], v) for v in sides]
    else:
        labels = list(labels or [Path(c).name for c in cards])
        rows = compare_decks(folders, labels).to_dicts()
        baseline, sides = labels[0], labels
        decks = [_deck(the, configs[0].players, configs[0].variant, c, label) for c, label in zip(cards, labels)]
    seconds = sum(r.seconds for m in manifests for recs in m.chunks.values() for r in recs)
    return {"game": the.name, "title": the.title, "compared": "variants" if len(folders) == 1 else "decks",
            "players": sorted({c.players for c in configs}),
            "bots": list(dict.fromkeys(s for c in configs for s in c.strategies)),
            "baseline": baseline, "sides": sides, "variants": list(dict.fromkeys(c.variant for c in configs)),
            "decks": decks, "games": max((r["games"] for r in rows), default=0), "seed": manifests[0].seed,
            "seconds": seconds, "metrics": METRIC_COLUMNS, "folders": [str(f) for f in folders], "rows": rows}


def _deck(the, players: int, variant: str, cards: Path | None, side: str) -> dict:
    """The deck one side of a comparison played: the side's name, the deck's name and card count."""
    deck, count = the.deck_of(the.setup(players, variant, cards)) if the.deck_of is not None else ("base", None)
    if cards is not None:  # the deck file by its name, as the command line gave it, not its whole path
        deck = " ".join(Path(word).name if word.endswith(Path(cards).name) else word for word in deck.split(" "))
    return {"side": side, "deck": deck, "cards": count}


def sweep_folder(game: str = DEFAULT_GAME, swaps: str = "all", players: Sequence[int] | None = None,
                 rules: str = "all", strategies: Sequence[str] | None = None, games: int | None = None,
                 precision: float | None = None, max_games: int = 200_000, aggregate_only: bool = True,
                 cards: Path | None = None, options: FolderOptions | None = None, **folder) -> Path:
    """Sweep the game's swap decks x player counts x rules options into a study folder (needs ``card_swaps``)."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    the = game_of(game)
    swapper = need_hook(the, "card_swaps", "sweep")
    opts = _folder_options(options, **{"chunk_size": 5_000, **folder})
    counts = [check_players(the, p, 2, "the sweep compares seats: {players} must be 2 to 4 (use `dreamscape solo` "
                                       "for one player)") for p in (players or [c for c in the.seat_counts if c > 1])]
    if precision is None and games is None:
        precision = 0.01
    check_study_numbers(games, precision, max_games)
    spec = the.load_cards(cards) if cards is not None else None
    variants = swapper.sweep_variants(swaps, rules, spec)
    bots = list(dict.fromkeys(strategies or [the.default_strategy]))
    prepare(the, opts.progress, interrupts=opts.interrupts)
    configs = [RunConfig(v, p, the.seat_strategies([bot], the.setup(p, v, cards)))
               for v in variants for p in counts for bot in bots]
    plan = _plan(the, opts, configs, cards, "sweep", games, precision, max_games, aggregate_only,
                 {"swaps": swaps, "options": rules})
    folder = opts.folder("sweep", swaps, rules, "+".join(map(str, counts)) + "p", "+".join(bots))
    return _run(the, plan, folder, opts)


def sweep(game: str = DEFAULT_GAME, swaps: str = "all", players: Sequence[int] | None = None, rules: str = "all",
          strategies: Sequence[str] | None = None, games: int | None = None, precision: float | None = None,
          max_games: int = 200_000, aggregate_only: bool = True, cards: Path | None = None,
          options: FolderOptions | None = None, distance: bool = True, **folder) -> dict:
    """``dreamscape sweep``: :func:`sweep_folder`, and the notes of the changed configurations its table shows
    (``bot_notes``: training status and, with ``distance``, distance from search; :mod:`analyses.lab.whatif`)."""
    from analyses.lab.whatif import sweep_notes

    where = sweep_folder(game, swaps, players, rules, strategies, games, precision, max_games, aggregate_only, cards,
                         options, **folder)
    opts = _folder_options(options, **folder)
    rows = summary_data(where).get("sweep") or []
    return {"folder": str(where), "bot_notes": sweep_notes(game_of(game), where, rows, cards, SWEEP_ROWS, distance,
                                                           opts.seed)}


SWEEP_ROWS = 10  # rows per player count a sweep's table shows (reports.tables.MAX_ROWS): the ones given notes


def solo_folder(game: str = DEFAULT_GAME, strategies: Sequence[str] | None = None,
                variants: Sequence[str] | None = None, games: int | None = None, precision: float | None = None,
                max_games: int = 1_000_000, aggregate_only: bool = False, cards: Path | None = None,
                options: FolderOptions | None = None, **folder) -> Path:
    """The solo game's score bands per strategy and variant into a study folder (needs ``solo_bands``)."""
    check_arguments(locals())  # the command line's bounds, named by parameter
    the = game_of(game)
    the.need("solo_bands", "solo")
    opts = _folder_options(options, **folder)
    check_study_numbers(games, precision, max_games)
    names = list(dict.fromkeys(the.variant_name(the.setup(1, v, cards)) for v in (variants or ["base"])))
    bots = list(dict.fromkeys(strategies or [the.default_strategy]))
    for bot in bots:
        the.seat_strategies([bot], the.setup(1, names[0], cards))
    prepare(the, opts.progress, interrupts=opts.interrupts)
    configs = [RunConfig(v, 1, (bot,)) for v in names for bot in bots]
    plan = _plan(the, opts, configs, cards, "solo", games, precision, max_games, aggregate_only)
    folder = opts.folder("solo", "+".join(names), "+".join(bots))
    return _run(the, plan, folder, opts)


def compare(game: str = DEFAULT_GAME, players: int | Sequence[int] | None = None,
            variants: Sequence[str] | None = None, games: int | None = None, seed: int = 1, **options) -> pl.DataFrame:
    """Variants against the baseline, paired on the same deals: one row per metric and variant.

    The rows of ``dreamscape compare --json``'s ``compare`` table (a rate's ``diff`` as a fraction, the
    command line's percentage points / 100). Without ``out`` the games are played in a folder of their
    own that is gone afterwards: every call plays its own arguments. With ``out`` the study folder is
    kept (and resumed by the same call). See :func:`compare_folder`.
    """
    check_arguments(locals())  # the command line's bounds, named by parameter
    counts = [players] if isinstance(players, int) else players
    opts = options.get("options")
    if options.get("out") is None and (opts is None or opts.out is None):
        # No folder asked for: played into a folder of its own and read back, so that a call never
        # resumes another call's folder (a default one held the first call's games and seed).
        import tempfile

        with tempfile.TemporaryDirectory(prefix="dreamscape-compare-") as scratch:
            folder = Path(scratch) / "compare"
            if opts is not None:
                options = {**options, "options": replace(opts, out=folder)}
            else:
                options = {**options, "out": folder}
            compare_folder(game, variants, players=counts, games=games, seed=seed, **options)
            return pl.DataFrame(summary_data(folder).get("compare", []))
    folder = compare_folder(game, variants, players=counts, games=games, seed=seed, **options)
    data = open_study(folder).data
    return pl.DataFrame(data.get("compare", []))


# --------------------------------------------------------------------------- reading a folder


@dataclass
class LabStudy:
    """A study folder read back: its tables as polars DataFrames, and its summary as ``summarize --json`` prints it.

    Attributes
    ----------
    folder : Path
    configs : DataFrame
        One row per configuration: config, variant, players, strategies.
    seats : DataFrame
        One row per configuration and seat (counted from 1, as the command line): games, win credit
        (``wins``), win rate (``win_rate``, a fraction 0-1) and its 95% Wilson interval (``win_low``, ``win_high``).
    summary : DataFrame
        One row per configuration: games played, and the first seat's win rate against the fair share.
    data : dict
        Every analysis the folder has data for (``dreamscape summarize --json``: its seats are indexes from 0).
    tables
        Every table the folder's report is drawn from, seats counted from 1 (read on first use):
        what the charts of :mod:`analyses.lab.plot` take (:func:`analyses.lab.frames.study_tables`: the game's own reading).
    """

    folder: Path
    configs: pl.DataFrame
    seats: pl.DataFrame
    summary: pl.DataFrame
    data: dict

    @functools.cached_property
    def tables(self):
        from analyses.lab.frames import study_tables

        return study_tables(self.folder)


def open_study(folder: str | Path) -> LabStudy:
    """Read a study folder (any game): configurations, per-seat results and the game's own summary."""
    from analyses.stats.intervals import wilson
    from analyses.study.folder import check_study, configs_frame, seat_totals

    folder = Path(folder)
    check_study(folder)
    totals = seat_totals(folder)
    bounds = [wilson(float(w), int(n)) for w, n in zip(totals["sum_win"], totals["n"])]
    seats = totals.select("config", "variant", "players", pl.col("seat") + 1, "strategy", pl.col("n").alias("games"),
                          pl.col("sum_win").alias("wins")).with_columns(
        win_rate=pl.Series([b.value for b in bounds]), win_low=pl.Series([b.low for b in bounds]),
        win_high=pl.Series([b.high for b in bounds]))
    first = seats.filter(pl.col("seat") == 1)
    summary = first.select("config", "variant", "players", "strategy", "games", pl.col("win_rate").alias("first_seat_win"),
                           (1.0 / pl.col("players")).alias("fair_share"))
    return LabStudy(folder, configs_frame(folder), seats, summary, summary_data(folder))


def summary_data(folder: str | Path) -> dict:
    """Every analysis a study folder has data for, as row dicts: the game's own summary, else the lab's."""
    from analyses.study.folder import folder_game

    the = game_of(folder_game(folder))
    summarize = wing_of(the).summary_data
    if summarize is None:  # the generic chunks (Pleasant Dreams, Counting Zzzzs): the summary every folder has
        return seats_summary(folder)
    return summarize(folder)


def seats_summary(folder: str | Path) -> dict:
    """The summary every game's study folder has: its request and each configuration's seats' wins.

    The lab's full summary reads the per-seat columns that Project Dreamscape's own study chunks write
    (``sum_z``, turns): a game played through the generic chunks gets this one (``open_study`` on a
    Counting Zzzzs folder raised KeyError 'sum_z', on a Pleasant Dreams simulate folder 'sum_score').
    """
    from analyses.study.folder import check_study, folder_game, seat_totals

    from analyses.study.folder import study_kinds
    from analyses.tools.compare import compare_variants

    m = check_study(folder)
    totals = seat_totals(folder)
    out = {"folder": str(folder), "game": folder_game(folder), "name": m.meta.get("name", ""), "seed": m.seed,
           "configs": len(m.configs), "games": m.total_games(),
           "seats": totals.select("config", "variant", "players", "seat", "strategy", pl.col("n").alias("games"),
                                  pl.col("sum_win").alias("wins")).to_dicts()}
    if "compare" in study_kinds(folder):  # `compare` (lab.compare) on any game: its paired rows, from the same totals
        out["compare"] = compare_variants(folder).to_dicts()
    return out


def check_folder_game(folder: Path, game: str | None) -> None:
    """``--game`` with a study folder: it must be the folder's game (None: whichever it holds)."""
    if game is None:
        return
    from analyses.study.folder import folder_game

    game_of(game)  # an unknown name is named first
    held = folder_game(folder)
    if held != game:
        raise LabInputError(f"{folder} holds a study of {held}, not {game}")


# --------------------------------------------------------------------------- the main study


def main_plan(quick: bool = False, seed: int = 1) -> StudyPlan:
    """The main study's plan (``dreamscape study``: the default game's), or the quick one's."""
    return study_plan(None, quick, None, seed)


def request_of(m) -> str | None:
    """The plan fingerprint a study folder was made for (its identity; older folders: their meta)."""
    return m.identity.get("plan") or m.meta.get("request")


def _same_request(folder: Path, fingerprint: str) -> bool | None:
    """True: the folder holds this request; False: another one; None: no study there yet."""
    from analyses.study.folder import MANIFEST, load_manifest

    if not (folder / MANIFEST).is_file():
        # The writer lock (.lock) alone does not make a folder someone else's.
        return None if not folder.exists() or not any(not p.name.startswith(".") for p in folder.iterdir()) else False
    try:
        return request_of(load_manifest(folder)) == fingerprint
    except StudyError:
        return False


def default_folder(plan: StudyPlan, quick: bool, config: str | Path | None, root: Path = Path("out")) -> Path:
    """``out/study-<date>[-quick|-<file>][-seed<S>]``; a folder holding another request gets a ``-2``, ``-3``... suffix."""
    stem = f"study-{date.today().isoformat()}"
    if config is not None:
        stem += f"-{Path(config).stem}"
    elif quick:
        stem += "-quick"
    if config is None and plan.seed != 1:
        stem += f"-seed{plan.seed}"
    fp = plan.fingerprint()
    for k in range(1, 1000):
        folder = root / (stem if k == 1 else f"{stem}-{k}")
        if _same_request(folder, fp) in (True, None):
            return folder
    raise StudyError(f"{root}: too many study folders named {stem}-*")


def plan_lines(plan: StudyPlan, folder: Path) -> list[str]:
    """What a study plays, for the progress lines on stderr: a header line and one line per part."""
    if plan.precision is not None:
        amount = f"until every rate is within \u00b1{plan.precision} (at most {plan.max_games:,} games each)"
    elif plan.config_games:
        amount = f"{plan.total_games:,} games"
    else:
        amount = f"{plan.games_of(plan.configs[0]):,} games each"
    lines = [f"{plan.name}: {len(plan.configs):,} configurations, {amount}, seed {plan.seed} -> {folder}"]
    lines += [f"  {part.label}: {len(part.configs):,} configurations x {part.games or plan.games_of(part.configs[0]):,} games"
              for part in plan.parts if part.configs]
    lines += [f"  {stage.plan_line()}" for stage in plan.stages]
    lines += [f"  {line}" for line in plan.meta.get("left_out", [])]  # variants the given deck cannot play
    return lines


def study_plan(game: str | None = None, quick: bool = False, config=None, seed: int = 1, cards=None) -> StudyPlan:
    """The plan ``dreamscape study`` plays: a study file (of any game), or the game's default (quick) study."""
    from analyses.study.studyfile import game_study_file, load_study_file

    path = config if config is not None else game_study_file(game_of(game or DEFAULT_GAME), quick)
    return load_study_file(path, seed=seed, cards=cards)


def study_command(game, quick, config, cards, seed, out) -> str:
    """The ``dreamscape study`` command that asks for the same study (kept in the folder's manifest)."""
    words = [("--game", game), ("--quick", quick), ("--config", config), ("--cards", cards),
             ("--seed", seed if seed != 1 else None), ("--out", out)]
    return "dreamscape study" + "".join(f" {flag}" if value is True else f" {flag} {value}"
                                        for flag, value in words if value not in (None, False))


def run_study(out=None, quick: bool = False, config=None, seed: int = 1, progress: bool = True, backend=None,
              game: str | None = None, cards=None, report: bool = True, restart_changed: bool = False) -> Path:
    """Run the main balance study (or a designer's study file) and write its report into the folder.

    Parameters
    ----------
    out : path, optional
        The study folder. Default ``out/study-<YYYY-MM-DD>`` (``-quick`` for the
        quick study, ``-<file stem>`` for a study file, ``-<game>-study`` for
        another game's default study, ``-seed<S>`` for another seed); an existing
        folder of the same request is resumed (finished chunks are kept). A
        default folder holding another request is left alone: the next free
        ``-2``, ``-3``... name is used instead.
    quick : bool
        The small version of the game's default study.
    config : path, optional
        A designer's study TOML file (it names its game) instead of the default study.
    game : str, optional
        Without ``config``: the game whose default study runs (None: the lab's default game).
    cards : path, optional
        Another game's card list (``--cards``), instead of the file's or the game's own.
    progress : bool
        Progress bar (games/s, ETA) and phase lines on stderr.
    backend : optional
        Where chunks are played (:mod:`analyses.study.backends`); this process by default.
    report : bool
        Write the report (the game's declared ``report``) once the games are played.
    restart_changed : bool
        Play again, from their first game, the configurations of a resumed folder whose bots' recorded
        rows differ from what the code plays now (:mod:`analyses.study.botrows`); without it such a
        resume is refused in one line.

    Returns
    -------
    Path
        The study folder; the report is ``report.pdf`` inside, the charts ``charts/*.png``.
    """
    check_arguments(locals())  # the command line's bounds, named by parameter
    plan = study_plan(game, quick, config, seed, cards)
    # the registry's default game keeps the folder names its studies always had (out/study-<date>[-quick])
    named = config if config is not None else (None if plan.game.named == GameDeal.default().named else f"{plan.game.game}-study")
    folder = Path(out) if out is not None else default_folder(plan, quick, named)
    plan.meta["request"] = plan.fingerprint()
    with claimed(folder, plan.game.game, plan.kind):
        return _run_claimed_study(plan, folder, out, quick, config, seed, cards, game, progress, backend, report,
                                  restart_changed)


def _run_claimed_study(plan, folder: Path, out, quick, config, seed, cards, game, progress, backend, report,
                       restart_changed: bool = False) -> Path:
    """:func:`run_study` once the folder is this study's (held until the report is written)."""
    from analyses.study.botrows import refuse_changed_rows
    from analyses.study.folder import MANIFEST, load_manifest
    from analyses.study.studyfile import run_plan

    if out is not None and (folder / MANIFEST).is_file():  # resume only the same request, name any other
        held = load_manifest(folder)
        if request_of(held) not in (None, plan.meta["request"]):
            raise StudyError(f"{folder}: holds another study (seed {held.seed}, plan {request_of(held)}); this command "
                             f"asks for plan {plan.meta['request']} (another study file, seed or size): use another --out")
    if (folder / MANIFEST).is_file() and not restart_changed:  # a bot whose row changed: refused before the plan's lines
        refuse_changed_rows(folder, load_manifest(folder), plan.configs, plan.games_of)
    say = stderr_line if progress else (lambda line: None)
    t0 = time.perf_counter()
    for line in plan_lines(plan, folder):
        say(line)
    run_plan(plan, folder, command=study_command(game, quick, config, cards, seed, out), backend=backend,
             progress=progress, restart_changed=restart_changed)
    the = game_of(plan.game.game)
    after = wing_of(the).after_study
    if after is not None:  # a game's own work once the games are played (Pleasant Dreams: its solver)
        after(folder, plan, progress=say)
    if report:
        t1 = time.perf_counter()
        say(f"simulation done in {t1 - t0:.0f} s; writing the report")
        files = need_hook(the, "report", "study").build_report(folder)
        where = files.pngs[0].parent if files.pngs else folder
        say(f"report: {files.pdf} ({len(files.pages)} pages; {len(files.pngs)} charts in {where}) in "
            f"{time.perf_counter() - t1:.0f} s")
    return folder


def study(game: str | None = None, quick: bool = False, config: Path | None = None, cards: Path | None = None,
          options: FolderOptions | None = None, restart_changed: bool = False, **folder) -> dict:
    """``dreamscape study``: check the request, run the study on a backend and say what it wrote.

    ``options`` (or its fields as keywords): the study folder (default ``out/study-<date>...``), backend,
    seed, progress. ``restart_changed``: play again the configurations whose bots' rows changed since the
    folder played them (:mod:`analyses.study.botrows`; else such a resume is refused). Returns ``folder``,
    ``report`` (None when none was written) and ``charts``.
    """
    check_arguments(locals())  # the command line's bounds, named by parameter
    opts = (options or FolderOptions(**folder)).check()
    out, seed, backend, scheduler, workers = opts.out, opts.seed, opts.backend, opts.scheduler, opts.workers
    from analyses.study.backends import make_backend
    from analyses.study.studyfile import file_game, load_study_file

    if seed is None:  # no seed asked for: the study file's own (the game's studies say seed = 1)
        seed = study_plan(game, quick, config, None, cards).seed

    if config is not None and game is not None and file_game(config) != game:
        raise LabInputError(f"{config} is a study of {file_game(config)}, not {game}")
    the = game_of(file_game(config) if config is not None else (game or DEFAULT_GAME))
    prepare(the, opts.progress, interrupts=opts.interrupts)
    if config is not None:
        load_study_file(config, seed=seed, cards=cards)  # a bad file fails here, with one line
    writable_folder(Path(out) if out is not None else Path("out"))
    from analyses.lab.common import warm

    warm(the, backend, scheduler)
    engine = make_backend(backend, scheduler, workers)
    try:
        extra = {"game": game, "cards": cards} if (game is not None or cards is not None) else {}
        if restart_changed:  # asked for: the runner's call is otherwise the one it always was
            extra["restart_changed"] = True
        folder = Path(run_study(out=out, quick=quick, config=config, seed=seed, progress=True,
                               backend=engine, **extra))
    finally:
        engine.close()
    report = folder / "report.pdf"
    return {"folder": str(folder), "report": str(report) if report.exists() else None,
            "charts": sorted(str(p) for p in (folder / "charts").glob("*.png"))}

