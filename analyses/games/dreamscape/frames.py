"""Project Dreamscape's report tables, read once: what its report and its charts in the Python API are drawn from.

:func:`collect` reads a Project Dreamscape study folder once and runs the analyses of
``analyses/`` that apply to it (:func:`analyses.games.dreamscape.summary.study_kinds`: the lab's kinds and the swap sweep), so the
findings and the charts of a report quote the very same DataFrames. An
analysis that has no data in this folder leaves its table ``None`` and its
pages out of the report.

Where a study mixes bots in the same player count and variant (the main
study's balance runs beside its tournament and skill tables), the analyses
keep them apart: dream-type and card strength count one-bot configurations
only, a round robin its mixed seatings only.

:func:`lab_tables` is the Python API's reading of a folder (``lab.open_study(f).tables``, through the
wing's ``report_tables`` hook, :mod:`analyses.lab.frames`), in the command line's conventions: seats counted from 1 (the analyses count from 0, the data's index), rates as
fractions 0-1 (``win_rate``, ``win_low``, ``win_high``; a chart or a table shows them in percent).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from analyses.games.dreamscape import balance
from analyses.tools.compare import compare_variants
from analyses.tools.exploit import exploit_from_study, load_doubling, load_exploit
from analyses.games.dreamscape.fixseats import load_fixes
from analyses.tools.ladder import strength_ladder
from analyses.tools.restrict import load_restrict
from analyses.study.model import StudyError, StudyManifest
from analyses.stats.skill import skill_vs_luck
from analyses.games.dreamscape.solo import solo_bands
from analyses.games.dreamscape.strength import pair_strength, type_strength
from analyses.games.dreamscape.summary import study_kinds
from analyses.study.botrows import RowsReading, read_bot_rows
from analyses.study.folder import check_study
from analyses.games.dreamscape.sweep import swap_sweep
from analyses.lab.frames import seats_from_one
from analyses.tools.tournament import tournament_from_study, tournament_groups

# Ladder order of the built-in levels (others sort after them by name).
LEVEL_ORDER = ("random", "greedy", "chain", "economist", "spoiler", "linear", "expert", "strong", "sharp")
ALL_KINDS = frozenset({"seats", "compare", "sweep", "tournament", "skill", "solo", "types"})


@dataclass
class Tournament:
    """One round robin of a study: its standings and payoff matrix."""

    players: int
    variant: str
    standings: pl.DataFrame  # strategy, games, win_rate, win_low, win_high, lift, mean_score, rating
    payoff: pl.DataFrame  # strategy, opponent, games, win_rate, win_low, win_high
    dominant: str | None = None
    cycles: list = field(default_factory=list)
    games_per_seating: int | None = None

    @property
    def fair(self) -> float:
        return 1.0 / self.players


@dataclass
class StudyTables:
    """Everything a report shows, as tidy polars DataFrames (``None`` = no data).

    Column names are the ones of the analysis functions (``.notes/CONTRACT.md``).
    """

    folder: Path | None = None
    manifest: StudyManifest | None = None
    kinds: set[str] = field(default_factory=set)
    seats: pl.DataFrame | None = None  # analyses.games.dreamscape.balance.seat_advantage
    lengths: pl.DataFrame | None = None  # analyses.games.dreamscape.balance.game_lengths
    score_dist: pl.DataFrame | None = None  # analyses.games.dreamscape.balance.score_distribution
    length_dist: pl.DataFrame | None = None  # analyses.games.dreamscape.balance.length_distribution
    compare: pl.DataFrame | None = None  # analyses.tools.compare.compare_variants
    strength: pl.DataFrame | None = None  # analyses.games.dreamscape.strength.type_strength
    pairs: pl.DataFrame | None = None  # analyses.games.dreamscape.strength.pair_strength
    sweep: pl.DataFrame | None = None  # analyses.games.dreamscape.sweep.swap_sweep
    tournaments: list[Tournament] = field(default_factory=list)  # analyses.tools.tournament.tournament_from_study
    skill: pl.DataFrame | None = None  # analyses.stats.skill.skill_vs_luck
    solo: pl.DataFrame | None = None  # analyses.games.dreamscape.solo.solo_bands
    ladder: pl.DataFrame | None = None  # analyses.tools.ladder.strength_ladder (a 2-player round robin)
    exploit: pl.DataFrame | None = None  # analyses.tools.exploit: kept by `dreamscape exploit --out`, the study's own cells, and kept runs of strong (`source`)
    exploit_missing: list[str] = field(default_factory=list)  # configurations read under strong with no distance measured, one line each
    doubling: pl.DataFrame | None = None  # analyses.tools.exploit: the budget ladder kept by `dreamscape exploit -k 4 -k 8 -k 16 --out`
    restrict: pl.DataFrame | None = None  # analyses.tools.restrict.restrict_table (kept by `dreamscape restrict --out`)
    fixes: pl.DataFrame | None = None  # analyses.games.dreamscape.fixseats.fixes_table (written by `dreamscape fix-seats`)
    bot_rows: RowsReading | None = None  # the bots' recorded rows against the code's (analyses.study.botrows)


def homogeneous(frame: pl.DataFrame | None, column: str = "strategies") -> pl.DataFrame | None:
    """The rows of configurations with the same bot on every seat (``linear`` or ``linear/linear/linear``).

    None stays None; a frame without ``column`` is returned as it is; no such row gives an empty frame.
    """
    if frame is None or column not in frame.columns:
        return frame
    return frame.filter(pl.col(column).map_elements(lambda s: len(set(s.split("/"))) == 1, return_dtype=pl.Boolean))


def main_strategy(frame: pl.DataFrame | None, column: str = "strategies") -> pl.DataFrame | None:
    """Rows of the one bot most rows of a table were played with (every seat the same bot)."""
    if frame is None or column not in frame.columns:
        return frame
    frame = homogeneous(frame, column)
    if frame is None or frame.height == 0:
        return None
    first = frame.with_columns(pl.col(column).str.split("/").list.first().alias("_bot"))
    top = first.group_by("_bot").len().sort(["len", "_bot"], descending=[True, False])["_bot"][0]
    return first.filter(pl.col("_bot") == top).drop("_bot")


def skill_rows(frame: pl.DataFrame | None, limit: int = 24) -> pl.DataFrame | None:
    """The skill pairings worth showing: the pairing(s) played in the most (players, variant) groups.

    A main study plays one pairing (e.g. linear against chain) in every
    variant, and a round robin adds every other pairing in one variant; the
    pairing seen across variants is the one that says how much skill counts.
    """
    if frame is None or frame.height == 0:
        return None
    spread = frame.group_by(["stronger", "weaker"]).agg(pl.struct(["players", "variant"]).n_unique().alias("_n"))
    top = int(spread["_n"].max())
    if top <= 1:
        return frame.head(limit)
    keep = spread.filter(pl.col("_n") == top).select(["stronger", "weaker"])
    return frame.join(keep, on=["stronger", "weaker"], how="semi").head(limit)


def round_robins(t: "StudyTables") -> list[Tournament]:
    """The tournaments worth a page: three or more strategies (two-strategy tables are skill against luck)."""
    return [x for x in t.tournaments if x.standings.height >= 3]


def level_key(bot: str) -> tuple:
    """Ladder order: the built-in levels first, then any other bot; a search over a bot right after it."""
    base = bot.split(":", 1)[1].split("@")[0] if bot.startswith("search:") else bot
    rank = LEVEL_ORDER.index(base) if base in LEVEL_ORDER else len(LEVEL_ORDER)
    return rank, bot.startswith("search:"), bot


def _run(fn: Callable[..., Any], *args, **kwargs) -> Any:
    """``fn(*args)``, or None when the folder has no data for it (StudyError or no rows)."""
    try:
        out = fn(*args, **kwargs)
    except StudyError:
        return None  # no data of that kind in this folder (e.g. an aggregate-only study has no histograms)
    if isinstance(out, pl.DataFrame) and out.height == 0:
        return None
    return out


def _tournaments(raw) -> list[Tournament]:
    """Normalise what ``tournament_from_study`` returns (one result, a list, a dict or None)."""
    if raw is None:
        return []
    if isinstance(raw, dict):
        raw = list(raw.values())
    if not isinstance(raw, (list, tuple)):
        raw = [raw]
    out = []
    for r in raw:
        if r is None or getattr(r, "standings", None) is None or r.standings.height == 0:
            continue
        out.append(Tournament(
            players=int(r.players), variant=str(r.variant), standings=r.standings, payoff=r.payoff,
            dominant=getattr(r, "dominant", None), cycles=list(getattr(r, "cycles", []) or []),
            games_per_seating=getattr(r, "games_per_seating", None),
        ))
    return sorted(out, key=lambda t: (t.players, t.variant))


def collect(folder: str | Path) -> StudyTables:
    """Run every analysis the study folder has data for.

    Raises
    ------
    analyses.study.folder.StudyError
        The folder is not a study folder, is damaged, or holds no finished chunk.
    """
    folder = Path(folder)
    # Every chunk file as recorded first: an analysis below that finds no data leaves its pages out,
    # so a missing or damaged file must be named here, not turned into a shorter report.
    manifest = check_study(folder)
    if not any(manifest.chunks.get(c.id) for c in manifest.configs):
        raise StudyError(f"{folder}: the study has no finished chunk yet")
    t = StudyTables(folder=folder, manifest=manifest, kinds=study_kinds(folder))
    k = t.kinds
    if k & {"seats", "compare", "sweep", "types", "skill", "tournament"}:
        t.seats = _run(balance.seat_advantage, folder)
        t.lengths = _run(balance.game_lengths, folder)
        t.score_dist = _run(balance.score_distribution, folder)
        t.length_dist = _run(balance.length_distribution, folder)
    elif "solo" in k:
        t.lengths = _run(balance.game_lengths, folder)
    if "compare" in k:
        t.compare = _run(compare_variants, folder)
    if "types" in k:
        t.strength = _run(type_strength, folder)
        t.pairs = _run(pair_strength, folder)
    if "sweep" in k:
        t.sweep = _run(swap_sweep, folder)
    if "tournament" in k:
        bots: dict[tuple, set] = {}
        for c in manifest.configs:
            bots.setdefault((c.players, c.variant), set()).update(c.strategies)
        # Two-strategy tables are skill against luck, not a round robin worth a page.
        found = [_run(tournament_from_study, folder, players=p, variant=v)
                 for p, v in tournament_groups(folder) if len(bots.get((p, v), ())) >= 3]
        t.tournaments = _tournaments(found)
        t.ladder = _run(strength_ladder, folder)
    if "skill" in k:
        t.skill = _run(skill_vs_luck, folder)
    if "solo" in k:
        t.solo = _run(solo_bands, folder)
    t.exploit, t.exploit_missing = with_kept_runs(exploit_tables(load_exploit(folder), _run(exploit_from_study, folder)),
                                                  manifest)
    t.doubling = load_doubling(folder)
    t.restrict = load_restrict(folder)
    t.fixes = load_fixes(folder)
    t.bot_rows = read_bot_rows(manifest)
    return t


def exploit_tables(kept: pl.DataFrame | None, played: pl.DataFrame | None) -> pl.DataFrame | None:
    """The study's own exploit cells beside the tables ``dreamscape exploit --out`` kept in its folder.

    The main study plays search over expert itself; the strong bot's cells (search
    over a slower bot) come from a kept run. A kept run of the same bot and search
    player replaces the study's cells of that pair.
    """
    if kept is None or played is None:
        return kept if played is None else played
    own = played.join(kept.select(["strategy", "search"]).unique(), on=["strategy", "search"], how="anti")
    return pl.concat([own, kept.select(own.columns).cast(dict(own.schema))])


THIS_FOLDER = "measured in this study folder"


def with_kept_runs(exploit: pl.DataFrame | None, manifest: StudyManifest) -> tuple[pl.DataFrame | None, list[str]]:
    """The folder's exploit table with a ``source`` column, and the strong bot's kept cells of the configurations
    the study reads under strong without measuring them (:func:`analyses.games.dreamscape.kept.kept_cells`: only
    on the same seed, deck and value); and one line per such configuration left unmeasured (issue #42)."""
    from analyses.games.dreamscape.kept import kept_cells

    own = None if exploit is None else exploit.with_columns(pl.lit(THIS_FOLDER).alias("source"))
    kept, missing = kept_cells(manifest, own)
    if kept is None:
        return own, missing
    return (kept if own is None else pl.concat([own, kept.select(own.columns).cast(dict(own.schema))])), missing


# --------------------------------------------------------------------------- the Python API's conventions


def lab_tables(t: StudyTables) -> StudyTables:
    """The report's tables in the Python API's conventions: every seat counted from 1.

    The seat tables of the analyses count from 0 (``seats``, ``score_dist``); the kept tables of
    ``exploit`` and ``fix-seats`` count from 1 already.
    """
    from dataclasses import replace

    return replace(t, seats=seats_from_one(t.seats), score_dist=seats_from_one(t.score_dist))
