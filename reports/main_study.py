"""The main job, ``dreamscape study``: a balance study and its report in one folder.

The main study is a study file like any designer's (:mod:`analyses.study.studyfile`):
``simcore/games/dreamscape/studies/main.toml`` (``--quick``: ``main_study_quick.toml``),
run by the one study runner, :func:`analyses.study.studyfile.run_plan`. What it plays:

* **rules options**: 2, 3 and 4 players x base, Sleep Token, shifting tokens
  and both, the ``expert`` bot on every seat (12 configurations);
* **single swaps**: the same 12 x every Controlled Study deck with exactly one
  swap (R1.4: 8 base types x 3 expansion types = 24 decks), 288 configurations;
* **skill against luck**: one ``expert`` seat among ``linear`` bots, seats
  rotated, for every player count and rules option but the 3-player base game
  (the tournament's);
* **tournament**: round robin of random, greedy, chain, economist, spoiler,
  linear and expert in 3-player base games, every seating of every group of three;
* **ladder**: a 2-player round robin of the same bots in base games, both
  seatings of every pair on the same deals, read as head-to-head steps from
  the weakest bot to the strongest (:mod:`analyses.tools.ladder`, 40 configurations:
  expert against linear is skill against luck's already);
* **bot strength**: ``search:expert@8:late`` (the search player over expert in
  the last third of the game, where search gains most) in one seat against ``expert`` in the
  others, in every seat of 2, 3 and 4 players x base and Sleep Token (18 cells
  of 300 games), paired game by game with the all-expert games of the rules
  options: the report's page "How strong were the bots?"
  (:func:`analyses.tools.exploit.exploit_from_study`) and the ladder's last step;
* **solo**: ``expert``, ``greedy`` and ``linear`` in Virtual Dreaming (R10) under
  the four rules options, for the R10.5 score bands;
* **skill levels**: the rules options again under ``linear`` (12
  configurations) and, for base and Sleep Token, under ``search:expert@4:late``
  (6 configurations of 400 games; every seat searches the last third of the
  game, where searching gains most over expert), so that :mod:`reports.robust` can mark
  each seat and rules-option finding robust or dependent on the bot;
* **skill levels: headline swaps** (``[[recheck]]``, :mod:`analyses.games.dreamscape.recheck`):
  once the swaps are played, the decks the swap findings quote (per player
  count the largest fall and the largest rise of seat spread) are played again
  under ``linear`` (20,000 games) and ``search:expert@4:late`` (400 games), so that
  the swap findings are checked at every skill level too.

631 configurations and 11,727,800 games; the quick study plays the single
swaps under the base rules only, the search level in 3-player games only and
the bot-strength cells of 2- and 3-player base games, with fewer games (398
configurations, 517,700 games). Sizing: see the README ("The main job").
"""
from __future__ import annotations

import sys
import time
from datetime import date
from pathlib import Path

from analyses.study.model import StudyError
from analyses.study.folder import MANIFEST, load_manifest
from analyses.study.studyfile import MAIN_STUDY, MAIN_STUDY_QUICK, StudyPlan, load_study_file, run_plan
from analyses.study.gamechunks import load_game
from analyses.study.model import GameDeal
from reports.games import build_any_report
from simcore.games import DEFAULT_GAME


def main_plan(quick: bool = False, seed: int = 1) -> StudyPlan:
    """The main study's plan (``dreamscape study``), or the quick one's."""
    return load_study_file(MAIN_STUDY_QUICK if quick else MAIN_STUDY, seed=seed)


# ============================================================================ folders


def _same_request(folder: Path, fingerprint: str) -> bool | None:
    """True: the folder holds this request; False: another one; None: no study there yet."""
    if not (folder / MANIFEST).is_file():
        # The writer lock (.lock) alone does not make a folder someone else's.
        return None if not folder.exists() or not any(not p.name.startswith(".") for p in folder.iterdir()) else False
    try:
        return request_of(load_manifest(folder)) == fingerprint
    except StudyError:
        return False


def request_of(m) -> str | None:
    """The plan fingerprint a study folder was made for (its identity; older folders: their meta)."""
    return m.identity.get("plan") or m.meta.get("request")


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


# ============================================================================ running


def _say(progress: bool, text: str) -> None:
    if progress:
        print(text, file=sys.stderr, flush=True)


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
    lines += [f"  {r.label}: {r.strategy} on every seat, {r.games:,} games per deck (the headline swap decks, "
              "chosen once the swaps are played)" for r in plan.recheck]
    return lines


def study_plan(game: str = DEFAULT_GAME, quick: bool = False, config=None, seed: int = 1, cards=None) -> StudyPlan:
    """The plan ``dreamscape study`` plays: a study file (of any game), or the game's default (quick) study."""
    from analyses.study.gameplan import game_study_file, load_any_study_file

    path = config if config is not None else game_study_file(load_game(game), quick)
    return load_any_study_file(path, seed=seed, cards=cards)


def run_main_study(out=None, quick: bool = False, config=None, seed: int = 1, progress: bool = True, backend=None,
                   game: str = DEFAULT_GAME, cards=None) -> Path:
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
        The small version (``simcore/games/dreamscape/studies/quick.toml``).
    config : path, optional
        A designer's study TOML file (``analyses/study/studyfile.py``) instead of the main study.
    seed : int
        The study's seed (it overrides the file's ``seed``).
    game : str
        Without ``config``: the game whose default study runs (``pleasant-dreams``:
        ``simcore/games/pleasant_dreams/study.toml``); a study file names its own game.
    cards : path, optional
        Another game's card list (``--cards``), instead of the file's or the game's own.
    progress : bool
        Progress bar (games/s, ETA) and phase lines on stderr.
    backend : optional
        Where chunks are played (:mod:`analyses.study.backends`); this process by default.

    Returns
    -------
    Path
        The study folder; the report is ``report.pdf`` inside, the charts ``charts/*.png``.

    Raises
    ------
    analyses.study.model.StudyError
        A bad study file, or ``out`` holds a study with another seed or deck.
    """
    plan = study_plan(game, quick, config, seed, cards)
    default_game = plan.game == GameDeal(DEFAULT_GAME)  # its folders keep their names: out/study-<date>[-quick]
    named = config if config is not None or default_game else f"{plan.game.game}-study"
    folder = Path(out) if out is not None else default_folder(plan, quick, named)
    command = "dreamscape study" + (f" --game {game}" if game != DEFAULT_GAME else "") + (" --quick" if quick else "") + \
        (f" --config {config}" if config else "") + (f" --cards {cards}" if cards else "") + \
        (f" --seed {seed}" if seed != 1 else "") + (f" --out {out}" if out is not None else "")
    plan.meta["request"] = plan.fingerprint()
    if out is not None and (folder / MANIFEST).is_file():  # resume only the same request, name any other
        held = load_manifest(folder)
        if request_of(held) not in (None, plan.meta["request"]):
            raise StudyError(f"{folder}: holds another study (seed {held.seed}, plan {request_of(held)}); this command "
                             f"asks for plan {plan.meta['request']} (another study file, seed or size): use another --out")
    t0 = time.perf_counter()
    for line in plan_lines(plan, folder):
        _say(progress, line)
    run_plan(plan, folder, command=command, backend=backend, progress=progress)
    own = load_game(plan.game.game).extension("analyses")
    if hasattr(own, "after_study"):  # a game's own work once the games are played (Pleasant Dreams: its solver)
        own.after_study(folder, plan, progress=(lambda line: _say(progress, line)))
    t1 = time.perf_counter()
    _say(progress, f"simulation done in {t1 - t0:.0f} s; writing the report")
    files = build_any_report(folder)
    where = files.pngs[0].parent if files.pngs else folder
    _say(progress, f"report: {files.pdf} ({len(files.pages)} pages; {len(files.pngs)} charts in {where}) in "
                   f"{time.perf_counter() - t1:.0f} s")
    return folder
