"""The main job, ``dreamscape study``: a default balance study and its report in one folder.

What the default study plays (every configuration in one study folder, seed 1;
game g of every configuration plays random stream (seed, g), so variants are
compared on the same deals):

* **rules options**: 2, 3 and 4 players x base, Sleep Token, shifting tokens
  and both, the tuned ``linear`` bot on every seat (12 configurations);
* **single swaps**: the same 12 x every Controlled Study deck with exactly one
  swap (R1.4: 8 base types x 3 expansion types = 24 decks), 288 configurations;
* **skill against luck**: one ``linear`` seat among ``chain`` bots, seats
  rotated, for every player count and rules option (the 3-player base game is
  covered by the tournament, so it is left out here: a second set of tables in
  the same player count and variant would join the tournament);
* **tournament**: round robin of random, greedy, chain, economist, spoiler and
  linear in 3-player base games, every seating of every group of three on the
  same deals. ``rollout`` (about 1,000 games/s) is left out of the default;
* **solo**: ``linear`` and ``greedy`` in Virtual Dreaming (R10) under the four
  rules options, for the R10.5 score bands.

Sizes (games per configuration) are in :data:`FULL` and :data:`QUICK`; the quick
study plays the single swaps under the base rules only (245 configurations,
406,000 games against 461 and 10,900,000).

Sizing (measured 2026-11-21 on the 2-core development machine while other
jobs kept its load average at 4-7): the full study took 10 min 26 s, 568 s of
simulation at 19,200 games/s (the linear bot ran at 21,000-22,500 games/s,
against 83,000 in the README's bench on the quiet machine) and 47-55 s of
report (``compare_variants`` alone 48 s). From the quiet throughputs (linear
75-83k games/s, the mixed tables about 50k, solo over 150k) the engine needs
about 150 s, writing the chunks about 40 s and the report about 25 s: about
4 minutes, 4.5 with a cold numba cache. The quick study took 38 s under the
same load (28 s simulation, 9 s report).
"""
from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from analyses.model import RunConfig, StudyError
from analyses.study import MANIFEST, Study, load_manifest
from simcore.decks import all_swap_sets, swap_label

OPTIONS = ("base", "sleep-token", "shifting-tokens", "sleep-token+shifting-tokens")
PLAYERS = (2, 3, 4)
BALANCE_BOT = "linear"
SKILL_BOTS = ("linear", "chain")  # the stronger bot sits once among the weaker ones
TOURNAMENT_BOTS = ("random", "greedy", "chain", "economist", "spoiler", "linear")
TOURNAMENT_PLAYERS, TOURNAMENT_VARIANT = 3, "base"
SOLO_BOTS = ("linear", "greedy")
CHUNK = 50_000
QUICK_SWAP_OPTIONS = ("base",)


@dataclass(frozen=True)
class Sizes:
    """Games per configuration of each part of the main study."""

    options: int
    swaps: int
    skill: int
    tournament: int  # per seating
    solo: int


# 10.9M games: about 4 minutes on the quiet 2-core machine (module docstring).
FULL = Sizes(options=200_000, swaps=25_000, skill=20_000, tournament=2_000, solo=50_000)
QUICK = Sizes(options=10_000, swaps=2_000, skill=2_000, tournament=300, solo=5_000)


@dataclass
class Part:
    """One part of a study plan: a label, its configurations and games per configuration."""

    label: str
    configs: list[RunConfig]
    games: int


@dataclass
class Plan:
    """A study in parts with their own game counts (one study folder, one seed, the default deck)."""

    name: str
    seed: int
    parts: list[Part] = field(default_factory=list)
    chunk_size: int = CHUNK

    @property
    def games(self) -> int:
        return sum(len(p.configs) * p.games for p in self.parts)

    @property
    def configs(self) -> list[RunConfig]:
        return [c for p in self.parts for c in p.configs]

    def fingerprint(self) -> str:
        """What was asked for, as a short hash: the same request finds the same folder again."""
        data = {"seed": self.seed, "chunk": self.chunk_size,
                "parts": [[p.label, p.games, [c.id for c in p.configs]] for p in self.parts]}
        return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def single_swap_variants(options: str) -> list[str]:
    """The 24 single-swap variants (R1.4) under one rules option, e.g. ``sleep-token+FF:ID``."""
    out = []
    for removed, added in all_swap_sets(1):
        if not removed:
            continue
        swap = swap_label(removed, added)
        out.append(swap if options == "base" else f"{options}+{swap}")
    return out


def rotations(strong: str, weak: str, players: int) -> list[tuple[str, ...]]:
    """One ``strong`` seat among ``weak`` ones, in every seat: (strong, weak, weak), (weak, strong, weak), ..."""
    return [tuple(strong if s == k else weak for s in range(players)) for k in range(players)]


def main_plan(quick: bool = False, seed: int = 1) -> Plan:
    """The default balance study (``dreamscape study``), or its quick version."""
    from analyses.tournament import schedule

    size = QUICK if quick else FULL
    bot = BALANCE_BOT
    options = [RunConfig(o, p, (bot,) * p) for p in PLAYERS for o in OPTIONS]
    swap_options = QUICK_SWAP_OPTIONS if quick else OPTIONS  # the quick study: swaps under the base rules only
    swaps = [RunConfig(v, p, (bot,) * p) for p in PLAYERS for o in swap_options for v in single_swap_variants(o)]
    skill = [RunConfig(o, p, seating) for p in PLAYERS for o in OPTIONS
             if (p, o) != (TOURNAMENT_PLAYERS, TOURNAMENT_VARIANT)
             for seating in rotations(*SKILL_BOTS, p)]
    tournament = [RunConfig(TOURNAMENT_VARIANT, TOURNAMENT_PLAYERS, seating)
                  for seating in schedule(TOURNAMENT_BOTS, TOURNAMENT_PLAYERS)]
    solo = [RunConfig(o, 1, (b,)) for b in SOLO_BOTS for o in OPTIONS]
    return Plan(
        name="main study (quick)" if quick else "main study",
        seed=seed,
        parts=[
            Part("rules options", options, size.options),
            Part("single swaps", swaps, size.swaps),
            Part("skill against luck", skill, size.skill),
            Part("tournament", tournament, size.tournament),
            Part("solo", solo, size.solo),
        ],
    )


def plan_from_file(path: str | Path, seed: int | None = None):
    """A designer's study TOML file as an :class:`analyses.studyfile.StudyPlan` (``seed`` overrides the file's)."""
    from analyses.studyfile import load_study_file

    return load_study_file(path, seed=seed)


def fingerprint(plan) -> str:
    """What a plan asks for, as a short hash: the same request finds the same folder again."""
    if isinstance(plan, Plan):
        return plan.fingerprint()
    data = {"seed": plan.seed, "chunk": plan.chunk_size, "precision": plan.precision, "max": plan.max_games,
            "games": plan.games, "agg": plan.aggregate_only, "configs": [c.id for c in plan.configs],
            "deck": repr(plan.deck_spec)}
    return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


# ============================================================================ folders


def _same_request(folder: Path, fingerprint: str) -> bool | None:
    """True: the folder holds this request; False: another one; None: no study there yet."""
    if not (folder / MANIFEST).is_file():
        return None if not folder.exists() or not any(folder.iterdir()) else False
    try:
        return load_manifest(folder).meta.get("request") == fingerprint
    except StudyError:
        return False


def default_folder(plan, quick: bool, config: str | Path | None, root: Path = Path("out")) -> Path:
    """``out/study-<date>[-quick|-<file>][-seed<S>]``; a folder holding another request gets a ``-2``, ``-3``... suffix."""
    stem = f"study-{date.today().isoformat()}"
    if config is not None:
        stem += f"-{Path(config).stem}"
    elif quick:
        stem += "-quick"
    if config is None and plan.seed != 1:
        stem += f"-seed{plan.seed}"
    fp = fingerprint(plan)
    for k in range(1, 1000):
        folder = root / (stem if k == 1 else f"{stem}-{k}")
        if _same_request(folder, fp) in (True, None):
            return folder
    raise StudyError(f"{root}: too many study folders named {stem}-*")


# ============================================================================ running


def _say(progress: bool, text: str) -> None:
    if progress:
        print(text, file=sys.stderr, flush=True)


def run_plan(plan: Plan, folder: Path, progress: bool = True, backend=None, command: str = "") -> Study:
    """Create or resume the study folder of ``plan`` and play every missing chunk."""
    meta = {"name": plan.name, "request": plan.fingerprint(),
            "parts": [{"label": p.label, "configs": len(p.configs), "games": p.games} for p in plan.parts]}
    for part in plan.parts:  # record every part's configurations and game targets
        Study(folder, part.configs, part.games, seed=plan.seed, chunk_size=plan.chunk_size, command=command, meta=meta)
    study = Study(folder, plan.configs, 0, seed=plan.seed, chunk_size=plan.chunk_size, command=command, meta=meta)
    study.run(progress=progress, backend=backend)
    return study


def run_main_study(out=None, quick: bool = False, config=None, seed: int = 1, progress: bool = True, backend=None) -> Path:
    """Run the main balance study (or a designer's study file) and write its report into the folder.

    Parameters
    ----------
    out : path, optional
        The study folder. Default ``out/study-<YYYY-MM-DD>`` (``-quick`` for the
        quick study, ``-<file stem>`` for a study file, ``-seed<S>`` for another
        seed); an existing folder of the same request is resumed (finished
        chunks are kept), so re-running the command after an interruption, or
        after it finished, costs only the missing games and the report. A
        default folder holding another request is left alone: the next free
        ``-2``, ``-3``... name is used instead.
    quick : bool
        The small version (:data:`QUICK`, about 1M games).
    config : path, optional
        A designer's study TOML file (``analyses/studyfile.py``) instead of the main study.
    seed : int
        The study's seed (for a study file it overrides the file's ``seed``).
    progress : bool
        Progress bar (games/s, ETA) and phase lines on stderr.
    backend : optional
        Where chunks are played (:mod:`analyses.backends`); this process by default.

    Returns
    -------
    Path
        The study folder; the report is ``report.pdf`` inside, the charts ``charts/*.png``.

    Raises
    ------
    analyses.study.StudyError
        A bad study file, or ``out`` holds a study with another seed or deck.
    """
    from reports.pdf import build_report

    plan = plan_from_file(config, seed) if config is not None else main_plan(quick, seed)
    folder = Path(out) if out is not None else default_folder(plan, quick, config)
    command = "dreamscape study" + (" --quick" if quick else "") + (f" --config {config}" if config else "") + \
        (f" --seed {seed}" if seed != 1 else "") + (f" --out {out}" if out is not None else "")
    t0 = time.perf_counter()
    if isinstance(plan, Plan):
        _say(progress, f"{plan.name}: {len(plan.configs):,} configurations, {plan.games:,} games, seed {plan.seed} -> {folder}")
        for part in plan.parts:
            _say(progress, f"  {part.label}: {len(part.configs):,} configurations x {part.games:,} games")
        run_plan(plan, folder, progress=progress, backend=backend, command=command)
    else:
        from analyses.studyfile import run_plan as run_file_plan

        amount = (f"until every rate is within \u00b1{plan.precision} (at most {plan.max_games:,} games each)"
                  if plan.precision is not None else f"{plan.games or 0:,} games each")
        _say(progress, f"{plan.name or Path(config).stem}: {len(plan.configs):,} configurations, {amount}, "
                       f"seed {plan.seed} -> {folder}")
        plan.meta["request"] = fingerprint(plan)
        run_file_plan(plan, folder, command=command, backend=backend, progress=progress)
    t1 = time.perf_counter()
    _say(progress, f"simulation done in {t1 - t0:.0f} s; writing the report")
    files = build_report(folder)
    where = files.pngs[0].parent if files.pngs else folder
    _say(progress, f"report: {files.pdf} ({len(files.pages)} pages; {len(files.pngs)} charts in {where}) in "
                   f"{time.perf_counter() - t1:.0f} s")
    return folder
