"""Project Dreamscape's own study-file keys: decks, swaps, tournaments, rotations and rechecks.

The lab reads every game's study file with one reader (:func:`analyses.study.studyfile.load_study_file`:
name, seed, games or precision, chunk size, ``[[configs]]`` groups with their label and games); this
module is the part only Project Dreamscape has, given to the reader through its wing's ``study_file``
hook (:class:`analyses.games.StudyFileRules`, :data:`RULES`)::

    deck = "my_deck.toml"     # a deck composition (R1.3), relative to this file
    players = 3               # one group's keys may stand at the top level of the file

    [[configs]]
    variants = ["base", "sleep-token"]
    players = [2, 3, 4]       # default 3
    strategy = "greedy"       # one bot for every seat (default greedy)
    # strategies = ["linear", "greedy", "greedy"]   one per seat
    # tournament = ["greedy", "chain", "linear"]    every seating (analyses.tools.tournament.schedule)
    # rotate = ["linear", "chain"]                  one linear seat among chain bots, in every seat in turn

    [[configs]]
    swaps = "single"          # swap decks (all, none, single, double, triple, or patterns like FF:*; R1.4)
    options = "base"          # option sets for the swap decks (all, base, sleep-token, ...)

    [[recheck]]               # the headline swap decks again under another bot (analyses.games.dreamscape.recheck)
    strategy = "linear"
    games = 20000

A configuration listed by two groups is played once, with the most games any group gives it;
consecutive groups of one label and game count are one part of the plan.
"""
from __future__ import annotations

from pathlib import Path

from analyses.games.dreamscape.recheck import Recheck
from analyses.games.dreamscape.sweep import sweep_variants
from analyses.study.model import GameDeal, RunConfig, StudyError, deck_text
from analyses.study.studyfile import PlanPart, StudyPlan, text_list, whole_number
from analyses.tools.tournament import schedule
from simcore.games.dreamscape.decks import DeckError, DeckSpec, load_spec
from simcore.games.dreamscape.variants import VariantError, check_variant_fits, parse_variant

RECHECK_KEYS = {"label", "strategy", "games", "players"}
GROUP_KEYS = frozenset({"variant", "variants", "swaps", "options", "players", "strategy", "strategies", "tournament",
                        "rotate"})


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


def group_configs(group: dict, where: str, spec: DeckSpec | None) -> list[RunConfig]:
    """The configurations of one ``[[configs]]`` group (its label and games taken off by the reader)."""
    if not group:
        raise StudyError(f"{where}: names no configuration (give variants, players, strategy, ...)")
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


def rechecks(tables, where: str) -> list[Recheck]:
    """The ``[[recheck]]`` tables of a study file (:mod:`analyses.games.dreamscape.recheck`), checked."""
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


class DreamscapeStudyFile:
    """Project Dreamscape's part of a study file (:class:`analyses.games.StudyFileRules`)."""

    top_keys = frozenset({"deck", "recheck"})
    group_keys = GROUP_KEYS
    groups_at_top = True  # `players = 3` alone is a study of one group

    def deal(self, game, data: dict, path: Path, where: str, cards):
        """The plan's deal: the default deck, the file's ``deck`` (R1.3), or a deck file given on the command line
        (``--cards``, which replaces the file's as every game's card file does: one study file plays two decks on
        the same deals, the what-if page's export of an uploaded deck), as its manifest record."""
        if cards is not None:
            deck_path, named = Path(cards), "--cards"
        elif "deck" not in data:
            return GameDeal(game.name), None
        elif not isinstance(data["deck"], str):
            raise StudyError(f"{where}: deck must be the path of a deck file")
        else:
            deck_path, named = Path(data["deck"]), f"{where}: deck"
            if not deck_path.is_absolute():
                deck_path = path.parent / deck_path
        try:
            spec = load_spec(deck_path)
        except DeckError as exc:
            raise StudyError(f"{named}: {exc}") from None
        from analyses.games.dreamscape.study import deck_record

        return GameDeal(game.name, deck=deck_text(deck_record(spec))), spec

    def group(self, game, group: dict, where: str, cards, notes: dict) -> list[RunConfig]:
        return group_configs(group, where, cards)

    def finish(self, game, plan: StudyPlan, data: dict, where: str, notes: dict) -> StudyPlan:
        """Games per group only when a group gives its own; consecutive groups of one label and game count
        join into one part (no parts for a study of one); the ``[[recheck]]`` stage."""
        if not any(p.games is not None for p in plan.parts):
            plan.config_games = {}
        parts: list[PlanPart] = []
        for part in plan.parts:
            if parts and (parts[-1].label, parts[-1].games) == (part.label, part.games):
                parts[-1].configs.extend(part.configs)
            else:
                parts.append(PlanPart(part.label, list(part.configs), part.games))
        plan.parts = parts if len(parts) > 1 else []
        plan.stages = list(rechecks(data.get("recheck"), where))
        if plan.stages and plan.precision is not None:
            raise StudyError(f"{where}: [[recheck]] needs a fixed game count (games), not precision")
        return plan


RULES = DreamscapeStudyFile()
