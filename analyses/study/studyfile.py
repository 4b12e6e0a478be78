"""Study plans and study files: what a study plays, from command-line flags or a designer's TOML file.

A :class:`StudyPlan` is a list of configurations (variant x players x strategy per seat) of one
game (:class:`~analyses.study.model.GameDeal`, with its cards or deck as data) with a game count
or a precision; :func:`run_plan` writes it to a study folder (resuming one that exists).

Every game's study file is read by one reader, :func:`load_study_file`. The lab's keys::

    game = "pleasant-dreams"   # the game (default: the lab's default game, Project Dreamscape)
    name = "Pleasant Dreams balance study"
    seed = 1
    games = 20000              # per configuration (or a group's own games), or:
    # precision = 0.01         # until every rate is this close
    max_games = 200000         # cap per configuration with precision
    chunk_size = 10000
    aggregate_only = false

    [[configs]]                # any number of groups; each is a cross product
    label = "first player"     # a name for the group (progress lines, the manifest)
    games = 2000               # this group's games per configuration
    players = 2
    variants = ["base", "lucid"]
    strategy = ["random", "threshold"]

What a group holds and which other keys a file may have are the game's: its wing's
``study_file`` hook (:class:`analyses.games.StudyFileRules`; Project Dreamscape's decks, swaps,
tournaments, rotations and rechecks: :mod:`analyses.games.dreamscape.studyfile`), or the lab's
rules for every other game (:data:`LAB_RULES`)::

    cards = "my_cards.toml"    # a card list, relative to this file (--cards overrides it)

    [[configs]]
    players = 2
    variants = ["lucid"]
    restrict = "threshold"     # restricted play: the bot vs itself with /no-ACTION, every action and seat
    actions = ["mirror"]       # default: every action type of the game

    [[configs]]
    players = 2
    strategies = ["threshold", "random"]   # one per seat

    [solver]                   # solver_gap of each bot (a game whose report compares its bots with a solver)
    strategies = ["random", "threshold"]
    variants = ["base"]
    players = 2
    positions = 200

Configurations come in the order the groups list them; a configuration listed twice is played
once, with the most games any of its groups asks for. Any problem raises
:class:`~analyses.study.model.StudyError` with one line naming the file and the key.
"""
from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from analyses.games import recorded_game, wing_of
from analyses.stats.precision import DEFAULT_MAX_GAMES, run_to_precision
from analyses.study.folder import Study
from analyses.study.gamechunks import cards_text
from analyses.study.model import MAX_CHUNK_SIZE, GameDeal, RunConfig, StudyError
from simcore.files import parse_toml, read_text_file, shown
from simcore.games import CAPABILITIES
from simcore.rng import MAX_GAMES, MAX_SEED

DEFAULT_GAMES = 10_000
DEFAULT_CHUNK = 50_000
DATA = Path(__file__).resolve().parents[1] / "data"
EXAMPLE = DATA / "example_study.toml"  # a Project Dreamscape study file with every kind of group

# The keys every game's study file has; a game's rules add theirs (StudyFileRules.top_keys).
LAB_KEYS = frozenset({"game", "name", "seed", "games", "precision", "max_games", "chunk_size", "aggregate_only",
                      "configs"})
PART_KEYS = frozenset({"label", "games"})  # the keys of every [[configs]] group; the game's rules read the rest
SOLVER_KEYS = {"strategies", "variants", "players", "positions"}  # the lab's [solver] table


class PlanStage(Protocol):
    """A stage a game's study file adds once the study's own games are played (Project Dreamscape's
    ``[[recheck]]``, :class:`analyses.games.dreamscape.recheck.Recheck`): configurations chosen from the
    finished study, played into the same folder."""

    label: str
    games: int

    def configs(self, folder: Path) -> list[RunConfig]:
        """The configurations it plays, chosen from the finished study in ``folder``."""

    def fingerprint(self) -> list:
        """Its part of the plan's fingerprint."""

    def plan_line(self) -> str:
        """What it plays, for the progress lines before the study starts."""

    def start_line(self, configs: int) -> str:
        """The line when it starts."""


@dataclass
class PlanPart:
    """One group of a study file: its label, configurations and games per configuration (None: the plan's)."""

    label: str
    configs: list[RunConfig]
    games: int | None = None


@dataclass
class StudyPlan:
    """What a study plays: configurations, and games or a precision.

    ``config_games`` gives some configurations their own game count (a study
    file's groups with ``games``); the others play ``games``.
    """

    configs: list[RunConfig]
    games: int | None = None
    precision: float | None = None
    max_games: int = DEFAULT_MAX_GAMES
    seed: int = 1
    chunk_size: int = DEFAULT_CHUNK
    aggregate_only: bool = False
    name: str = ""
    kind: str = "custom"
    meta: dict = field(default_factory=dict)
    config_games: dict[str, int] = field(default_factory=dict)
    parts: list[PlanPart] = field(default_factory=list)
    game: GameDeal = GameDeal.default()  # the game it plays (simcore.games), with its cards or deck, as data
    stages: list[PlanStage] = field(default_factory=list)  # played once the study's games are (PlanStage)

    def games_of(self, config: RunConfig) -> int:
        """Games ``config`` plays (with a precision: of the first round)."""
        return self.config_games.get(config.id, self.games or DEFAULT_GAMES)

    @property
    def total_games(self) -> int:
        """Games of the whole plan (with a precision: of the first round)."""
        return sum(self.games_of(c) for c in self.configs)

    def fingerprint(self) -> str:
        """What the plan asks for, as a short hash: the same request finds the same folder again."""
        data = {"seed": self.seed, "chunk": self.chunk_size, "precision": self.precision, "max": self.max_games,
                "games": self.games, "agg": self.aggregate_only, "configs": [c.id for c in self.configs],
                "config_games": self.config_games, "deck": self.game.deck or "None"}
        if self.game.named != GameDeal.default().named:  # the default game's fingerprints stay as they were
            data["game"] = [self.game.game, self.game.cards]
        if self.stages:  # plans without stages keep the fingerprints they had (the key: the first stage's name)
            data["recheck"] = [s.fingerprint() for s in self.stages]
        return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    def check(self) -> "StudyPlan":
        if not self.configs:
            raise StudyError("the study has no configuration to play")
        if not 0 <= self.seed <= MAX_SEED:
            raise StudyError(f"seed must be 0 to 2**64-1, got {self.seed}")
        if self.games is not None and not 1 <= self.games <= MAX_GAMES:
            raise StudyError(f"games must be 1 to {MAX_GAMES:,}, got {self.games}")
        if any(not 1 <= g <= MAX_GAMES for g in self.config_games.values()):
            bad = next(g for g in self.config_games.values() if not 1 <= g <= MAX_GAMES)
            raise StudyError(f"games must be 1 to {MAX_GAMES:,}, got {bad}")
        if self.config_games and self.precision is not None:
            raise StudyError("games per group need a fixed game count: give games or precision, not both")
        if self.precision is not None and not 0 < self.precision < 0.5:
            raise StudyError(f"precision must be between 0 and 0.5, got {self.precision}")
        if not 1 <= self.max_games <= MAX_GAMES:
            raise StudyError(f"max_games must be 1 to {MAX_GAMES:,}, got {self.max_games}")
        if not 1 <= self.chunk_size <= MAX_CHUNK_SIZE:
            raise StudyError(f"chunk_size must be 1 to {MAX_CHUNK_SIZE:,}, got {self.chunk_size}")
        return self


def run_plan(plan: StudyPlan, out: str | Path, command: str = "", backend=None, progress=True,
             chunk_fn: Callable | None = None, restart_changed: bool = False) -> Study:
    """Write ``plan`` to the study folder ``out`` (resuming it if it exists) and play it.

    ``restart_changed``: configurations whose bots' recorded rows changed are played again instead of
    refused (:mod:`analyses.study.botrows`)."""
    plan.check()
    meta = {"name": plan.name, "kind": plan.kind, **plan.meta}
    if plan.parts:
        meta["parts"] = [{"label": p.label, "configs": len(p.configs), "games": p.games or plan.games or DEFAULT_GAMES}
                         for p in plan.parts]
    if plan.precision is not None:
        meta.update({"precision": plan.precision, "max_games": plan.max_games})
    with Study(out, plan.configs, 0, plan.seed, plan.chunk_size, plan.aggregate_only, command=command,
               meta=meta, plan=plan.fingerprint(), game=plan.game,
               restart_changed=restart_changed) as study:  # the folder's writer lock
        if plan.precision is not None:
            run_to_precision(study, plan.precision, plan.max_games, first_round=plan.games, chunk_fn=chunk_fn,
                             progress=progress, backend=backend)
        else:
            for c in study.configs:  # a resumed study never shrinks a target (Study.set_target)
                study.set_target(c, plan.games_of(c))
            study.save()
            study.run(chunk_fn, progress=progress, backend=backend)
    if plan.stages:
        study = _run_stages(plan, out, command, backend, progress, chunk_fn, meta, restart_changed) or study
    return study


def _run_stages(plan: StudyPlan, out, command, backend, progress, chunk_fn, meta,
                restart_changed: bool = False) -> Study | None:
    """The plan's later stages (:class:`PlanStage`), each on the configurations the finished study gives it.

    None when they play nothing (Project Dreamscape's rechecks of a study that played no single swap).
    """
    stages = [(stage, stage.configs(out)) for stage in plan.stages]
    if not any(configs for _, configs in stages):
        return None
    parts = list(meta.get("parts") or [{"label": "study", "configs": len(plan.configs), "games": plan.games}])
    parts += [{"label": r.label, "configs": len(configs), "games": r.games} for r, configs in stages]
    everything = [c for _, configs in stages for c in configs]
    with Study(out, everything, 0, plan.seed, plan.chunk_size, plan.aggregate_only, command=command,
               meta={**meta, "parts": parts}, plan=plan.fingerprint(), game=plan.game,
               restart_changed=restart_changed) as study:
        for r, configs in stages:
            if progress and configs:
                print(f"  {r.start_line(len(configs))}", file=sys.stderr)
            for c in configs:
                study.set_target(c, r.games)
        study.save()
        study.run(chunk_fn, progress=progress, backend=backend)
    return study


# ----------------------------------------------------------------------------- TOML values


def whole_number(data: dict, key: str, where: str, low: int = 0, high: int = MAX_GAMES) -> int | None:
    """``data[key]`` as a whole number in ``low..high`` (None when absent), else one StudyError line."""
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StudyError(f"{where}: {key} = {shown(value)}: expected a whole number from {low:,} to {high:,}")
    return value


def text_list(data: dict, key: str, where: str) -> list[str] | None:
    """``data[key]`` as a non-empty list of texts (one text counts as a list of one; None when absent)."""
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise StudyError(f"{where}: {key} must be a text or a non-empty list of texts, got {shown(value)}")
    return value


def _ints(data: dict, key: str, where: str, default: list[int]) -> list[int]:
    value = data.get(key, default)
    value = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(value, list) or not value or not all(isinstance(p, int) and not isinstance(p, bool) for p in value):
        raise StudyError(f"{where}: {key} must be a whole number or a list of them, got {shown(data.get(key))}")
    return value


def restricted_seatings(game, bot: str, actions: list[str] | None, players: int, setup) -> list[tuple[str, ...]]:
    """The baseline (bot on every seat), then one seat at a time playing ``bot`` under ``no-ACTION``, every action.

    ``actions`` None: every restriction the game declares for ``setup`` (its ``restrictions``
    capability); the restricted spec is the game's own (its ``restrict``).
    """
    if not game.has("restrictions"):
        raise StudyError(f"restrict: {game.title} has no {CAPABILITIES['restrictions']}")
    names = list(game.restrictions(setup)) if actions is None else [f"no-{a}" for a in actions]
    out = [(bot,) * players]
    for name in names:
        spec = game.restrict(bot, name, setup)
        for seat in range(players):
            out.append(tuple(spec if s == seat else bot for s in range(players)))
    return out


def _group(game, group: dict, where: str, cards, left_out: list[str] | None = None) -> list[RunConfig]:
    variants = (text_list(group, "variant", where) or []) + (text_list(group, "variants", where) or []) or ["base"]
    players = _ints(group, "players", where, [game.seat_counts[-1]])
    given = [k for k in ("strategy", "strategies", "restrict") if k in group]
    if len(given) > 1:
        raise StudyError(f"{where}: give only one of strategy, strategies, restrict (got {', '.join(given)})")
    if "actions" in group and "restrict" not in group:
        raise StudyError(f"{where}: actions go with restrict = \"BOT\"")
    out: list[RunConfig] = []
    try:
        for variant in variants:
            for p in players:
                try:
                    setup = game.setup(p, variant) if cards is None else game.parse_setup(p, variant, cards)
                except game.errors as exc:
                    # a variant the game's own cards play but the given deck cannot (remove=6 of a deck with
                    # 4 Wake Ups): left out with one line, not a refused study (issue #44)
                    if cards is None or left_out is None:
                        raise
                    game.setup(p, variant)
                    left_out.append(f"{variant} at {p} players left out: {exc}")
                    continue
                name = game.variant_name(setup)
                if "strategies" in group:
                    seatings = [tuple(text_list(group, "strategies", where))]
                    if len(seatings[0]) != p:
                        raise StudyError(f"{len(seatings[0])} strategies for {p} seats: give one per seat")
                elif "restrict" in group:
                    bot = text_list(group, "restrict", where)
                    if len(bot) != 1:
                        raise StudyError("restrict names one bot")
                    seatings = restricted_seatings(game, bot[0], text_list(group, "actions", where), p, setup)
                else:
                    seatings = [(s,) * p for s in (text_list(group, "strategy", where) or [game.default_strategy])]
                for seating in seatings:
                    out.append(RunConfig(name, p, tuple(game.check_strategy(s, setup) for s in seating)))
    except game.errors as exc:
        raise StudyError(f"{where}: {exc}") from None
    return out


def _solver(game, data, where: str) -> dict | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise StudyError(f"{where}: [solver] must be a table")
    unknown = set(data) - SOLVER_KEYS
    if unknown:
        raise StudyError(f"{where}: [solver]: unknown key(s) {', '.join(sorted(unknown))}")
    bots = text_list(data, "strategies", where) or [game.default_strategy]
    variants = text_list(data, "variants", where) or ["base"]
    players = _ints(data, "players", where, [game.seat_counts[-1]])
    positions = whole_number(data, "positions", where, 1, 1_000_000) or 200
    try:
        for v in variants:
            for p in players:
                setup = game.setup(p, v)
                for b in bots:
                    game.check_strategy(b, setup)
    except game.errors as exc:
        raise StudyError(f"{where}: [solver]: {exc}") from None
    return {"strategies": bots, "variants": variants, "players": players, "positions": positions}


# ----------------------------------------------------------------------------- the lab's rules (every game without its own)


class LabStudyFile:
    """The lab's part of a study file for a game without rules of its own (:class:`analyses.games.StudyFileRules`)."""

    top_keys = frozenset({"cards", "solver"})
    group_keys = frozenset({"players", "variant", "variants", "strategy", "strategies", "restrict", "actions"})
    groups_at_top = False

    def deal(self, game, data: dict, path: Path, where: str, cards):
        """The plan's deal: the game's own cards, the file's ``cards`` or ``--cards`` (its text, as data)."""
        if cards is None and "cards" in data:
            if not isinstance(data["cards"], str):
                raise StudyError(f"{where}: cards must be the path of a card file")
            cards = Path(data["cards"]) if Path(data["cards"]).is_absolute() else path.parent / data["cards"]
        try:
            card_list = game.load_cards(cards) if cards is not None else None
        except game.errors as exc:
            raise StudyError(f"{where}: cards: {exc}") from None
        return GameDeal(game.name, cards_text(cards)), card_list

    def group(self, game, group: dict, where: str, cards, notes: dict) -> list[RunConfig]:
        return _group(game, group, where, cards, notes.setdefault("left_out", []))

    def finish(self, game, plan: "StudyPlan", data: dict, where: str, notes: dict) -> "StudyPlan":
        """Groups' own games are dropped with a precision; the ``[solver]`` table and the left-out lines go to meta."""
        if plan.precision is not None:
            plan.config_games = {}
        plan.parts = [p for p in plan.parts if p.configs]
        solver = _solver(game, data.get("solver"), where)
        if solver is not None:
            plan.meta["solver"] = solver
        if notes.get("left_out"):
            plan.meta["left_out"] = list(dict.fromkeys(notes["left_out"]))  # the configurations the given deck cannot play
        return plan


LAB_RULES = LabStudyFile()


def study_file_rules(game: str):
    """The rules of ``game``'s study files: its wing's ``study_file`` hook, or :data:`LAB_RULES`."""
    own = wing_of(game).study_file
    return own() if own is not None else LAB_RULES


# ----------------------------------------------------------------------------- the one reader


def file_game(path: str | Path) -> str:
    """The ``game`` a study file names (the default game when it names none)."""
    path = Path(path)
    text = read_text_file(path, "study file", StudyError)
    data = parse_toml(text, str(path), StudyError)  # nesting and integer-length limits: one line
    return _game_key(data, str(path))


def _game_key(data: dict, where: str) -> str:
    game = recorded_game(data.get("game"))
    if not isinstance(game, str):
        raise StudyError(f"{where}: game must be a text, e.g. \"pleasant-dreams\"")
    return game


def game_study_file(game, quick: bool = False) -> Path:
    """The default study file of ``game`` (``dreamscape study --game NAME [--quick]``); StudyError when it has none."""
    path = game.study_plans.get("quick" if quick else "main")
    if path is None:
        raise StudyError(f"{game.title} has no default study: give --config FILE.toml")
    return Path(path)


def load_study_file(path: str | Path, seed: int | None = None, cards: str | Path | None = None) -> StudyPlan:
    """Read any game's study file (see the module docstring); ``seed`` and ``cards`` override the file's."""
    path = Path(path)
    text = read_text_file(path, "study file", StudyError)
    data = parse_toml(text, str(path), StudyError)  # nesting and integer-length limits: one line
    where = str(path)
    game = wing_of(_game_key(data, where)).game
    rules = study_file_rules(game.name)
    top_keys = LAB_KEYS | rules.top_keys
    known = top_keys | (rules.group_keys if rules.groups_at_top else frozenset())
    unknown = set(data) - known
    if unknown:
        raise StudyError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})")
    name = data.get("name", path.stem)
    if not isinstance(name, str):
        raise StudyError(f"{where}: name must be a text")
    games = whole_number(data, "games", where, 1)
    precision = data.get("precision")
    if precision is not None:
        if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision < 0.5:
            raise StudyError(f"{where}: precision = {shown(precision)}: expected a number between 0 and 0.5, e.g. 0.01")
        precision = float(precision)
    max_games = whole_number(data, "max_games", where, 1) or DEFAULT_MAX_GAMES
    chunk = whole_number(data, "chunk_size", where, 1, MAX_CHUNK_SIZE) or DEFAULT_CHUNK
    file_seed = whole_number(data, "seed", where, 0, MAX_SEED)
    agg = data.get("aggregate_only", False)
    if not isinstance(agg, bool):
        raise StudyError(f"{where}: aggregate_only must be true or false")
    deal, cards_read = rules.deal(game, data, path, where, cards)
    groups = data.get("configs")
    top_group = {k: v for k, v in data.items() if k in known - top_keys}
    if groups is None:
        if not top_group and rules.groups_at_top:  # not a default study in disguise: say what is missing
            raise StudyError(f"{where}: no configurations: add [[configs]] groups (variants, players, strategy; "
                             f"see analyses/data/example_study.toml)")
        if not top_group:
            raise StudyError(f"{where}: configs must be one or more [[configs]] tables")
        groups = [top_group]
    elif top_group:
        raise StudyError(f"{where}: put {', '.join(sorted(top_group))} inside the [[configs]] groups")
    if not isinstance(groups, list) or not groups or not all(isinstance(g, dict) for g in groups):
        raise StudyError(f"{where}: configs must be one or more [[configs]] tables")
    in_file = "configs" in data
    group_known = PART_KEYS | rules.group_keys
    notes: dict[str, Any] = {}
    groups_read: list[tuple[str, list[RunConfig], int | None]] = []
    for i, group in enumerate(groups, start=1):
        label = f"{where}: [[configs]] #{i}" if in_file else where
        part_label = group.get("label", f"group {i}") if in_file else group.get("label", name)
        if not isinstance(part_label, str):
            raise StudyError(f"{label}: label must be a text")
        part_games = whole_number(group, "games", label, 1) if in_file else None
        unknown = set(group) - group_known
        if unknown:
            raise StudyError(f"{label}: unknown key(s) {', '.join(sorted(unknown))} "
                             f"(known: {', '.join(sorted(group_known))})")
        group_configs = rules.group(game, {k: v for k, v in group.items() if k not in PART_KEYS}, label, cards_read, notes)
        groups_read.append((part_label, group_configs, part_games))
    configs: dict[str, RunConfig] = {}
    config_games: dict[str, int] = {}  # listed twice: the most games any group asks for
    parts: list[PlanPart] = []  # what each group adds, in order (the game's rules join or drop them)
    for part_label, group_configs, part_games in groups_read:
        for c in group_configs:
            config_games[c.id] = max(config_games.get(c.id, 0), part_games or games or DEFAULT_GAMES)
        new = [c for c in group_configs if c.id not in configs]
        configs.update((c.id, c) for c in new)
        parts.append(PlanPart(part_label, new, part_games))
    plan = StudyPlan(configs=list(configs.values()), games=games, precision=precision, max_games=max_games,
                     seed=seed if seed is not None else (file_seed if file_seed is not None else 1),
                     chunk_size=chunk, aggregate_only=agg, name=name, kind="file", meta={"study_file": str(path)},
                     config_games=config_games, parts=parts, game=deal)
    plan = rules.finish(game, plan, data, where, notes)
    try:
        return plan.check()
    except StudyError as exc:
        raise StudyError(f"{where}: {exc}") from None
