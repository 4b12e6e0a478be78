"""Study plans: what a study plays, from command-line flags or a designer's TOML file.

A :class:`StudyPlan` is a list of configurations (variant x players x
strategy per seat) with a game count or a precision; :func:`run_plan` writes
it to a study folder (resuming one that exists). A study file is TOML::

    name = "Sleep Token at every table size"
    seed = 1
    precision = 0.01          # or: games = 20000
    max_games = 200000        # cap per configuration with precision
    chunk_size = 10000
    aggregate_only = false
    # deck = "my_deck.toml"   # a deck composition, relative to this file

    [[configs]]               # any number of groups; each is a cross product
    variants = ["base", "sleep-token"]
    players = [2, 3, 4]
    strategy = "greedy"       # one bot for every seat

    [[configs]]
    players = 3
    strategies = ["linear", "greedy", "greedy"]   # one per seat

    [[configs]]
    players = 3
    tournament = ["greedy", "chain", "linear"]    # every seating of every group

    [[configs]]
    swaps = "single"          # swap decks (all, none, single, double, triple, or patterns like FF:*)
    options = "base"          # option sets for the swap decks (all, base, sleep-token, ...)
    players = 2
    strategy = "linear"

    [[configs]]
    players = 1               # solo: R10.5 bands
    variants = ["base"]
    strategy = "greedy"

    [[configs]]
    label = "skill"           # a name for the group (progress lines, the manifest)
    games = 2000              # this group's games per configuration (not with precision)
    players = [2, 4]
    rotate = ["linear", "chain"]   # one linear seat among chain bots, in every seat in turn

Group keys may also stand at the top level (one group). Configurations come
in the order the groups list them (within a group: variants, then player
counts, then strategies or seatings); a configuration listed twice is played
once, with the most games any of its groups asks for. Any problem raises
:class:`~analyses.study.model.StudyError` with one line naming the file and the key.

The main study of ``dreamscape study`` is such a file too:
:data:`MAIN_STUDY` (``--quick``: :data:`MAIN_STUDY_QUICK`).
"""
from __future__ import annotations

import hashlib
import sys
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from analyses.study.model import MAX_CHUNK_SIZE, GameDeal, RunConfig, StudyError
from simcore.games.dreamscape import STUDY_PLANS
from analyses.stats.precision import DEFAULT_MAX_GAMES, run_to_precision
from analyses.games.dreamscape.recheck import Recheck, recheck_configs
from analyses.study.folder import Study
from analyses.games.dreamscape.sweep import sweep_variants
from analyses.tools.tournament import schedule
from simcore.games.dreamscape.decks import DeckError, DeckSpec, load_spec
from simcore.files import parse_toml, read_text_file
from simcore.rng import MAX_GAMES, MAX_SEED
from simcore.games.dreamscape.variants import VariantError, check_variant_fits, parse_variant

DEFAULT_GAMES = 10_000
DEFAULT_CHUNK = 50_000
DATA = Path(__file__).resolve().parents[1] / "data"
EXAMPLE = DATA / "example_study.toml"
# The main study and its quick version: Project Dreamscape's default studies (its package's studies/).
MAIN_STUDY, MAIN_STUDY_QUICK = STUDY_PLANS["main"], STUDY_PLANS["quick"]

TOP_KEYS = {"name", "seed", "games", "precision", "max_games", "chunk_size", "aggregate_only", "deck", "configs",
            "recheck"}
RECHECK_KEYS = {"label", "strategy", "games", "players"}
GROUP_KEYS = {"label", "games", "variant", "variants", "swaps", "options", "players", "strategy", "strategies",
              "tournament", "rotate"}


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
    deck_spec: DeckSpec | None = None
    name: str = ""
    kind: str = "custom"
    meta: dict = field(default_factory=dict)
    config_games: dict[str, int] = field(default_factory=dict)
    parts: list[PlanPart] = field(default_factory=list)
    game: GameDeal = GameDeal.default()  # the game it plays (simcore.games), with its cards
    recheck: list[Recheck] = field(default_factory=list)  # headline swap decks again under other bots (analyses.games.dreamscape.recheck)

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
                "config_games": self.config_games, "deck": repr(self.deck_spec)}
        if self.game != GameDeal.default():  # the default game's fingerprints stay as they were
            data["game"] = [self.game.game, self.game.cards]
        if self.recheck:  # studies without [[recheck]] keep the fingerprints they had
            data["recheck"] = [[r.strategy, r.games] + ([list(r.players)] if r.players is not None else [])
                               for r in self.recheck]
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
             chunk_fn: Callable | None = None) -> Study:
    """Write ``plan`` to the study folder ``out`` (resuming it if it exists) and play it."""
    plan.check()
    meta = {"name": plan.name, "kind": plan.kind, **plan.meta}
    if plan.parts:
        meta["parts"] = [{"label": p.label, "configs": len(p.configs), "games": p.games or plan.games or DEFAULT_GAMES}
                         for p in plan.parts]
    if plan.precision is not None:
        meta.update({"precision": plan.precision, "max_games": plan.max_games})
    with Study(out, plan.configs, 0, plan.seed, plan.chunk_size, plan.aggregate_only, command=command,
               deck_spec=plan.deck_spec, meta=meta, plan=plan.fingerprint(), game=plan.game) as study:  # the folder's writer lock
        if plan.precision is not None:
            run_to_precision(study, plan.precision, plan.max_games, first_round=plan.games, chunk_fn=chunk_fn,
                             progress=progress, backend=backend)
        else:
            for c in study.configs:  # a resumed study never shrinks a target (Study.set_target)
                study.set_target(c, plan.games_of(c))
            study.save()
            study.run(chunk_fn, progress=progress, backend=backend)
    if plan.recheck:
        study = _run_recheck(plan, out, command, backend, progress, chunk_fn, meta) or study
    return study


def _run_recheck(plan: StudyPlan, out, command, backend, progress, chunk_fn, meta) -> Study | None:
    """The ``[[recheck]]`` stage: the headline swap decks of the finished study under other bots (analyses.games.dreamscape.recheck).

    None when the study played no single swap (nothing to replay).
    """
    stages = recheck_configs(out, plan.recheck)
    if not any(configs for _, configs in stages):
        return None
    parts = list(meta.get("parts") or [{"label": "study", "configs": len(plan.configs), "games": plan.games}])
    parts += [{"label": r.label, "configs": len(configs), "games": r.games} for r, configs in stages]
    everything = [c for _, configs in stages for c in configs]
    with Study(out, everything, 0, plan.seed, plan.chunk_size, plan.aggregate_only, command=command,
               deck_spec=plan.deck_spec, meta={**meta, "parts": parts}, plan=plan.fingerprint(), game=plan.game) as study:
        for r, configs in stages:
            if progress and configs:
                print(f"  {r.label}: {len(configs)} configurations x {r.games:,} games "
                      f"(the decks the swap findings quote, {r.strategy} on every seat)", file=sys.stderr)
            for c in configs:
                study.set_target(c, r.games)
        study.save()
        study.run(chunk_fn, progress=progress, backend=backend)
    return study


# ----------------------------------------------------------------------------- building configurations


def canonical_variant(text: str) -> str:
    """The canonical name of a variant text (raises VariantError for a bad token)."""
    return parse_variant(text).name


def check_strategies(specs: list[str]) -> None:
    """Load every strategy spec once here, so a bad one fails before the study starts."""
    from simcore.games.dreamscape.bots.api import StrategyError

    try:
        from simcore.games.dreamscape.bots.api import load_strategies  # numba loads with the first strategy

        load_strategies(specs)
    except StrategyError as exc:
        raise StudyError(str(exc)) from None


def rotations(strong: str, weak: str, players: int) -> list[tuple[str, ...]]:
    """One ``strong`` seat among ``weak`` ones, in every seat: (strong, weak, weak), (weak, strong, weak), ..."""
    return [tuple(strong if s == k else weak for s in range(players)) for k in range(players)]


def configs_for(variants: list[str], players: list[int], strategies: list[str] | None = None,
                seats: list[str] | None = None, tournament: list[str] | None = None,
                rotate: list[str] | None = None) -> list[RunConfig]:
    """The cross product variants x players x (one strategy for all, one per seat, tournament seatings,
    or one ``rotate[0]`` seat among ``rotate[1]`` bots in every seat)."""
    out: list[RunConfig] = []
    for variant in variants:
        name = canonical_variant(variant)
        for p in players:
            if not 1 <= p <= 4:
                raise StudyError(f"players must be 1 to 4, got {p}")
            check_variant_fits(parse_variant(name), p)  # a per-seat knob must fit the seat count
            if tournament:
                if p < 2:
                    raise StudyError("a tournament needs 2 to 4 players")
                if len(set(tournament)) < 2:
                    raise StudyError("a tournament needs at least two different strategies")
                out.extend(RunConfig(name, p, seating) for seating in schedule(tournament, p))
            elif rotate:
                if len(rotate) != 2 or rotate[0] == rotate[1]:
                    raise StudyError(f"rotate is two different bots [stronger, weaker], got {rotate}")
                if p < 2:
                    raise StudyError("rotate needs 2 to 4 players")
                out.extend(RunConfig(name, p, seating) for seating in rotations(rotate[0], rotate[1], p))
            elif seats:
                if len(seats) != p:
                    raise StudyError(f"{len(seats)} strategies for {p} seats: give one per seat or one for all")
                out.append(RunConfig(name, p, tuple(seats)))
            else:
                for s in strategies or ["greedy"]:
                    out.append(RunConfig(name, p, (s,) * p))
    return list(dict((c.id, c) for c in out).values())


# ----------------------------------------------------------------------------- TOML files


def whole_number(data: dict, key: str, where: str, low: int = 0, high: int = MAX_GAMES) -> int | None:
    """``data[key]`` as a whole number in ``low..high`` (None when absent), else one StudyError line."""
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StudyError(f"{where}: {key} = {value!r}: expected a whole number from {low:,} to {high:,}")
    return value


def text_list(data: dict, key: str, where: str) -> list[str] | None:
    """``data[key]`` as a non-empty list of texts (one text counts as a list of one; None when absent)."""
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise StudyError(f"{where}: {key} must be a text or a non-empty list of texts, got {value!r}")
    return value


def _group_configs(group: dict, where: str, spec: DeckSpec | None) -> list[RunConfig]:
    unknown = set(group) - GROUP_KEYS
    if unknown:
        raise StudyError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(GROUP_KEYS))})")
    variants = (text_list(group, "variant", where) or []) + (text_list(group, "variants", where) or [])
    if "swaps" in group or "options" in group:
        swaps, options = group.get("swaps", "none"), group.get("options", "base")
        if not isinstance(swaps, str) or not isinstance(options, str):
            raise StudyError(f"{where}: swaps and options must be texts like \"single\" and \"all\"")
        try:
            variants += sweep_variants(swaps, options, spec)
        except StudyError as exc:
            raise StudyError(f"{where}: {exc}") from None
    variants = variants or ["base"]
    players = group.get("players", 3)
    players = [players] if isinstance(players, int) and not isinstance(players, bool) else players
    if not isinstance(players, list) or not players or not all(isinstance(p, int) and not isinstance(p, bool) for p in players):
        raise StudyError(f"{where}: players must be a whole number or a list of them, got {group.get('players')!r}")
    given = [k for k in ("strategy", "strategies", "tournament", "rotate") if k in group]
    if len(given) > 1:
        raise StudyError(f"{where}: give only one of strategy, strategies, tournament, rotate (got {', '.join(given)})")
    one = text_list(group, "strategy", where)
    if one is not None and len(one) != 1:
        raise StudyError(f"{where}: strategy is one bot for every seat; use strategies = [...] for one per seat")
    seats = text_list(group, "strategies", where)
    tournament = text_list(group, "tournament", where)
    rotate = text_list(group, "rotate", where)
    try:
        check_strategies(list(dict.fromkeys((one or []) + (seats or []) + (tournament or []) + (rotate or []))))
        return configs_for(variants, players, one, seats, tournament, rotate)
    except (VariantError, StudyError) as exc:
        raise StudyError(f"{where}: {exc}") from None


def _rechecks(tables, where: str) -> list[Recheck]:
    """The ``[[recheck]]`` tables of a study file (analyses.games.dreamscape.recheck), checked."""
    if tables is None:
        return []
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise StudyError(f"{where}: recheck must be one or more [[recheck]] tables")
    out = []
    for i, t in enumerate(tables, start=1):
        label = f"{where}: [[recheck]] #{i}"
        unknown = set(t) - RECHECK_KEYS
        if unknown:
            raise StudyError(f"{label}: unknown key(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(RECHECK_KEYS))})")
        strategy = t.get("strategy")
        if not isinstance(strategy, str) or not strategy:
            raise StudyError(f"{label}: strategy must name one bot, e.g. strategy = \"linear\"")
        games = whole_number(t, "games", label, 1)
        if games is None:
            raise StudyError(f"{label}: games is missing (games per deck)")
        name = t.get("label", f"recheck {i}")
        if not isinstance(name, str):
            raise StudyError(f"{label}: label must be a text")
        players = t.get("players")
        if players is not None:
            players = [players] if isinstance(players, int) and not isinstance(players, bool) else players
            if not isinstance(players, list) or not players or not all(
                    isinstance(p, int) and not isinstance(p, bool) and 2 <= p <= 4 for p in players):
                raise StudyError(f"{label}: players must be a player count from 2 to 4 or a list of them, "
                                 f"got {t.get('players')!r}")
            players = tuple(dict.fromkeys(players))
        check_strategies([strategy])
        out.append(Recheck(name, strategy, games, players))
    return out


def load_study_file(path: str | Path, seed: int | None = None) -> StudyPlan:
    """Read a designer's study file (see the module docstring); ``seed`` overrides the file's."""
    path = Path(path)
    text = read_text_file(path, "study file", StudyError)
    data = parse_toml(text, str(path), StudyError)  # nesting and integer-length limits: one line
    where = str(path)
    unknown = set(data) - TOP_KEYS - GROUP_KEYS
    if unknown:
        raise StudyError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(TOP_KEYS | GROUP_KEYS))})")
    name = data.get("name", path.stem)
    if not isinstance(name, str):
        raise StudyError(f"{where}: name must be a text")
    games = whole_number(data, "games", where, 1)
    precision = data.get("precision")
    if precision is not None:
        if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision < 0.5:
            raise StudyError(f"{where}: precision = {precision!r}: expected a number between 0 and 0.5, e.g. 0.01")
        precision = float(precision)
    max_games = whole_number(data, "max_games", where, 1) or DEFAULT_MAX_GAMES
    chunk = whole_number(data, "chunk_size", where, 1, MAX_CHUNK_SIZE) or DEFAULT_CHUNK
    file_seed = whole_number(data, "seed", where, 0, MAX_SEED)
    agg = data.get("aggregate_only", False)
    if not isinstance(agg, bool):
        raise StudyError(f"{where}: aggregate_only must be true or false")
    spec = None
    if "deck" in data:
        if not isinstance(data["deck"], str):
            raise StudyError(f"{where}: deck must be the path of a deck file")
        deck_path = Path(data["deck"])
        if not deck_path.is_absolute():
            deck_path = path.parent / deck_path
        try:
            spec = load_spec(deck_path)
        except DeckError as exc:
            raise StudyError(f"{where}: deck: {exc}") from None
    groups = data.get("configs")
    top_group = {k: v for k, v in data.items() if k in GROUP_KEYS - TOP_KEYS}
    if groups is None:
        if not top_group:  # not a default study in disguise: say what is missing
            raise StudyError(f"{where}: no configurations: add [[configs]] groups (variants, players, strategy; "
                             f"see analyses/data/example_study.toml)")
        groups = [top_group]
    elif top_group:
        raise StudyError(f"{where}: put {', '.join(sorted(top_group))} inside the [[configs]] groups")
    if not isinstance(groups, list) or not groups or not all(isinstance(g, dict) for g in groups):
        raise StudyError(f"{where}: configs must be one or more [[configs]] tables")
    configs: dict[str, RunConfig] = {}
    groups_read: list[tuple[str, list[RunConfig], int | None]] = []
    for i, group in enumerate(groups, start=1):
        in_file = "configs" in data
        label = f"{where}: [[configs]] #{i}" if in_file else where
        part_label = group.get("label", f"group {i}") if in_file else group.get("label", name)
        if not isinstance(part_label, str):
            raise StudyError(f"{label}: label must be a text")
        part_games = whole_number(group, "games", label, 1) if in_file else None
        if not set(group) - {"label", "games"}:
            raise StudyError(f"{label}: names no configuration (give variants, players, strategy, ...)")
        group_configs = _group_configs({k: v for k, v in group.items() if k not in ("label", "games")}, label, spec)
        groups_read.append((part_label, group_configs, part_games))
    config_games: dict[str, int] = {}
    if any(g is not None for _, _, g in groups_read):  # listed twice: the most games any group asks for
        for _, group_configs, part_games in groups_read:
            for c in group_configs:
                config_games[c.id] = max(config_games.get(c.id, 0), part_games or games or DEFAULT_GAMES)
    parts: list[PlanPart] = []  # a part: the configurations a group adds; consecutive groups of one label and size join
    for part_label, group_configs, part_games in groups_read:
        new = [c for c in group_configs if c.id not in configs]
        configs.update((c.id, c) for c in new)
        if parts and (parts[-1].label, parts[-1].games) == (part_label, part_games):
            parts[-1].configs.extend(new)
        else:
            parts.append(PlanPart(part_label, new, part_games))
    recheck = _rechecks(data.get("recheck"), where)
    if recheck and precision is not None:
        raise StudyError(f"{where}: [[recheck]] needs a fixed game count (games), not precision")
    plan = StudyPlan(configs=list(configs.values()), games=games, precision=precision, max_games=max_games,
                     seed=seed if seed is not None else (file_seed if file_seed is not None else 1),
                     chunk_size=chunk, aggregate_only=agg, deck_spec=spec, name=name, kind="file",
                     meta={"study_file": str(path)}, config_games=config_games,
                     parts=parts if len(parts) > 1 else [], recheck=recheck)
    try:
        return plan.check()
    except StudyError as exc:
        raise StudyError(f"{where}: {exc}") from None
