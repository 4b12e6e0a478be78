"""The bot notation the card games share: ``NAME``, ``search@K``, then any number of ``/no-ACTION``.

Pleasant Dreams and Counting Zzzzs name their bots the same way (three bots, the third a search
player with a budget K, each of which may be forbidden action types); each game keeps its own bot
names, action types, budgets and error class (a :class:`BotNotation`), and this module reads and
writes the text.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from simcore.files import shown

SEARCH = 2  # the kind of the search player: the third bot name


def parse_bot_spec(spec: str, bots: Sequence[str], actions: Sequence[str], error: type[Exception],
                   default_budget: int, max_budget: int) -> tuple[int, int, int]:
    """``(kind, budget, banned)`` of a spec: the bot's index in ``bots``, K (0 but for search), a bit per banned action.

    Raises ``error`` with one line naming the problem.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise error(f"strategy is empty ({', '.join(bots[:SEARCH])}, {bots[SEARCH]}@K)")
    head, *restrictions = spec.strip().split("/")
    name, at, budget_text = head.partition("@")
    if name not in bots:
        raise error(f"strategy {shown(spec)}: unknown bot {name!r} (known: {', '.join(bots)})")
    kind = list(bots).index(name)
    budget = 0
    if kind == SEARCH:
        budget = default_budget
        if at:
            # isdecimal() alone lets superscript and other scripts' digits through ("search@²"), which int() refuses
            if not (budget_text.isascii() and budget_text.isdecimal()) or len(budget_text) > len(str(max_budget)) \
                    or not 1 <= int(budget_text) <= max_budget:
                raise error(f"strategy {shown(spec)}: K in {bots[SEARCH]}@K must be 1 to {max_budget}")
            budget = int(budget_text)
    elif at:
        raise error(f"strategy {shown(spec)}: {name} takes no budget @K")
    banned = 0
    for r in restrictions:
        if not r.startswith("no-") or r[3:] not in actions:
            raise error(f"strategy {shown(spec)}: restriction {r!r} is not /no-ACTION (actions: {', '.join(actions)})")
        banned |= 1 << list(actions).index(r[3:])
    return kind, budget, banned


def bot_spec_text(bots: Sequence[str], actions: Sequence[str], kind: int, budget: int, banned: int) -> str:
    """The canonical spec of a parsed bot (``search@8/no-mirror``); parse_bot_spec reads it back."""
    name = bots[kind] + (f"@{budget}" if kind == SEARCH else "")
    return name + "".join(f"/no-{a}" for i, a in enumerate(actions) if banned >> i & 1)


def check_play_args(setup, setup_type: type, strategies, seed: int, first_game: int, n_games: int, engine: str,
                    error: type[Exception]) -> None:
    """Check a card game's ``play_games`` arguments (its setup, one strategy per seat, the game range, the engine)."""
    from simcore.rng import MAX_GAMES, MAX_SEED

    if not isinstance(setup, setup_type) or setup.cards is None:
        raise error("play_games needs a Setup from parse_setup")
    if isinstance(strategies, str) or not hasattr(strategies, "__len__") or len(strategies) != setup.players:
        raise error(f"need {setup.players} strategies (one per seat), got {strategies!r}")
    for name, v, hi in (("seed", seed, MAX_SEED), ("first_game", first_game, MAX_GAMES),
                        ("n_games", n_games, MAX_GAMES)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= hi:
            raise error(f"{name} must be a whole number from 0 to {hi}, not {v!r}")
    if first_game + n_games > MAX_GAMES:
        raise error(f"games beyond index {MAX_GAMES} are not allowed")
    if engine not in ("fast", "reference"):
        raise error(f"engine must be 'fast' or 'reference', not {engine!r}")


@dataclass(frozen=True)
class BotNotation:
    """One card game's bot notation: its bot names (the third the search player), action types,
    search budgets, error class and Setup type."""

    bots: tuple[str, ...]
    actions: tuple[str, ...]
    error: type[Exception]
    setup_type: type
    default_budget: int
    max_budget: int

    def parse(self, spec: str) -> Bot:
        """A Bot from a spec (``NAME``, ``search@K``, then any number of ``/no-ACTION``); the game's error naming the problem."""
        return Bot(*parse_bot_spec(spec, self.bots, self.actions, self.error, self.default_budget, self.max_budget),
                   notation=self)

    def check_strategy(self, spec: str, setup) -> str:
        """The canonical form of a strategy spec, or the game's error (one line)."""
        if not isinstance(setup, self.setup_type):
            raise self.error("check_strategy needs a Setup from parse_setup")
        return self.parse(spec).spec

    def check_run(self, setup, strategies, seed: int, first_game: int, n_games: int, engine: str) -> list[Bot]:
        """Check ``play_games``' arguments; the parsed bots, one per seat."""
        check_play_args(setup, self.setup_type, strategies, seed, first_game, n_games, engine, self.error)
        return [self.parse(s) for s in strategies]


@dataclass(frozen=True)
class Bot:
    """A parsed strategy spec: kind (index in the notation's bots), search budget K, banned actions (bit mask)."""

    kind: int
    budget: int
    banned: int
    notation: BotNotation = field(repr=False, compare=False)

    @property
    def spec(self) -> str:
        return bot_spec_text(self.notation.bots, self.notation.actions, self.kind, self.budget, self.banned)
