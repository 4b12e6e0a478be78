"""Study files of games behind the plug-in interface (``game = "pleasant-dreams"``).

The same runner as Project Dreamscape's study files (:func:`analyses.study.studyfile.run_plan`)
plays them; only what a configuration is comes from the game. A file::

    game = "pleasant-dreams"
    name = "Pleasant Dreams balance study"
    seed = 1
    games = 20000              # per configuration (or a group's own games)
    chunk_size = 10000
    # cards = "my_cards.toml"  # a card list, relative to this file (--cards overrides it)

    [[configs]]                # a cross product: variants x players x strategy
    label = "first player"
    players = 2
    variants = ["base", "lucid"]
    strategy = ["random", "threshold"]     # each bot on every seat, one configuration per bot

    [[configs]]
    label = "action cards"
    players = 2
    variants = ["lucid"]
    restrict = "threshold"     # restricted play: the bot vs itself with /no-ACTION, every action and seat
    actions = ["mirror"]       # default: every action type of the game

    [[configs]]
    players = 2
    strategies = ["threshold", "random"]   # one per seat

    [solver]                   # solver_gap of each bot (the report's "how close to the solver")
    strategies = ["random", "threshold"]
    variants = ["base"]
    players = 2
    positions = 200

:func:`load_any_study_file` reads either kind of file.
"""
from __future__ import annotations

from pathlib import Path

from analyses.study.gamechunks import cards_text, load_game
from analyses.study.model import MAX_CHUNK_SIZE, GameDeal, RunConfig, StudyError
from analyses.stats.precision import DEFAULT_MAX_GAMES
from analyses.study.studyfile import DEFAULT_CHUNK, DEFAULT_GAMES, PlanPart, StudyPlan, text_list, whole_number
from simcore.files import parse_toml, read_text_file
from analyses.games import DEFAULT_GAME, wing_of
from simcore.games import CAPABILITIES
from simcore.rng import MAX_SEED

DATA = Path(__file__).resolve().parents[1] / "data"
TOP_KEYS = {"game", "name", "seed", "games", "precision", "max_games", "chunk_size", "aggregate_only", "cards",
            "configs", "solver"}
GROUP_KEYS = {"label", "games", "players", "variant", "variants", "strategy", "strategies", "restrict", "actions"}
SOLVER_KEYS = {"strategies", "variants", "players", "positions"}


def file_game(path: str | Path) -> str:
    """The ``game`` a study file names (the default game when it names none)."""
    path = Path(path)
    text = read_text_file(path, "study file", StudyError)
    data = parse_toml(text, str(path), StudyError)  # nesting and integer-length limits: one line
    game = data.get("game", DEFAULT_GAME)
    if not isinstance(game, str):
        raise StudyError(f"{path}: game must be a text, e.g. \"pleasant-dreams\"")
    return game


def load_any_study_file(path: str | Path, seed: int | None = None, cards: str | Path | None = None) -> StudyPlan:
    """A study file of any game (its ``game`` key): read by its wing's ``load_study_file``, or the lab's reader."""
    read = wing_of(file_game(path)).load_study_file or load_game_study_file
    return read(path, seed=seed, cards=cards)


def game_study_file(game, quick: bool = False) -> Path:
    """The default study file of ``game`` (``dreamscape study --game NAME [--quick]``); StudyError when it has none."""
    path = game.study_plans.get("quick" if quick else "main")
    if path is None:
        raise StudyError(f"{game.title} has no default study: give --config FILE.toml")
    return Path(path)


def _ints(data: dict, key: str, where: str, default: list[int]) -> list[int]:
    value = data.get(key, default)
    value = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(value, list) or not value or not all(isinstance(p, int) and not isinstance(p, bool) for p in value):
        raise StudyError(f"{where}: {key} must be a whole number or a list of them, got {data.get(key)!r}")
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
    unknown = set(group) - GROUP_KEYS
    if unknown:
        raise StudyError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(GROUP_KEYS))})")
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


def load_game_study_file(path: str | Path, seed: int | None = None, cards: str | Path | None = None) -> StudyPlan:
    """Read another game's study file (see the module docstring); ``seed`` and ``cards`` override the file's."""
    path = Path(path)
    text = read_text_file(path, "study file", StudyError)
    data = parse_toml(text, str(path), StudyError)  # nesting and integer-length limits: one line
    where = str(path)
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise StudyError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(TOP_KEYS))})")
    game = load_game(file_game(path))
    if cards is None and "cards" in data:
        if not isinstance(data["cards"], str):
            raise StudyError(f"{where}: cards must be the path of a card file")
        cards = Path(data["cards"]) if Path(data["cards"]).is_absolute() else path.parent / data["cards"]
    try:
        card_list = game.load_cards(cards) if cards is not None else None
    except game.errors as exc:
        raise StudyError(f"{where}: cards: {exc}") from None
    name = data.get("name", path.stem)
    if not isinstance(name, str):
        raise StudyError(f"{where}: name must be a text")
    games = whole_number(data, "games", where, 1)
    precision = data.get("precision")
    if precision is not None:
        if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision < 0.5:
            raise StudyError(f"{where}: precision = {precision!r}: expected a number between 0 and 0.5, e.g. 0.01")
        precision = float(precision)
    agg = data.get("aggregate_only", False)
    if not isinstance(agg, bool):
        raise StudyError(f"{where}: aggregate_only must be true or false")
    groups = data.get("configs")
    if not isinstance(groups, list) or not groups or not all(isinstance(g, dict) for g in groups):
        raise StudyError(f"{where}: configs must be one or more [[configs]] tables")
    configs: dict[str, RunConfig] = {}
    config_games: dict[str, int] = {}
    parts: list[PlanPart] = []
    left_out: list[str] = []
    for i, group in enumerate(groups, start=1):
        label = f"{where}: [[configs]] #{i}"
        part_label = group.get("label", f"group {i}")
        if not isinstance(part_label, str):
            raise StudyError(f"{label}: label must be a text")
        part_games = whole_number(group, "games", label, 1)
        group_configs = _group(game, {k: v for k, v in group.items() if k not in ("label", "games")}, label, card_list,
                               left_out)
        for c in group_configs:
            config_games[c.id] = max(config_games.get(c.id, 0), part_games or games or DEFAULT_GAMES)
        new = [c for c in group_configs if c.id not in configs]
        configs.update((c.id, c) for c in new)
        parts.append(PlanPart(part_label, new, part_games))
    file_seed = whole_number(data, "seed", where, 0, MAX_SEED)
    meta = {"study_file": str(path)}
    solver = _solver(game, data.get("solver"), where)
    if solver is not None:
        meta["solver"] = solver
    if left_out:
        meta["left_out"] = list(dict.fromkeys(left_out))  # the configurations the given deck cannot play
    plan = StudyPlan(configs=list(configs.values()), games=games, precision=precision,
                     max_games=whole_number(data, "max_games", where, 1) or DEFAULT_MAX_GAMES,
                     seed=seed if seed is not None else (file_seed if file_seed is not None else 1),
                     chunk_size=whole_number(data, "chunk_size", where, 1, MAX_CHUNK_SIZE) or DEFAULT_CHUNK,
                     aggregate_only=agg, name=name, kind="file", meta=meta,
                     config_games={} if precision is not None else config_games,
                     parts=[p for p in parts if p.configs], game=GameDeal(game.name, cards_text(cards)))
    return plan.check()
