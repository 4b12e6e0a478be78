"""Pleasant Dreams' bots: the table of strategies and the strategy-spec parser (NAME, search@K, /no-ACTION).

Every game package has a ``bots`` module with its STRATEGIES, DEFAULT_STRATEGY and check_strategy; the
decision kernels themselves stay in the engines (:mod:`.reference`, :mod:`.fast`), which read a parsed
:class:`Bot`. Rule ids (P7.4 ...) refer to ``interpretations.md``.
"""
from __future__ import annotations

from dataclasses import dataclass

from .common import ACTION_TYPES, PDError, Setup

STRATEGIES = {
    "random": "uniform over the legal choices at every decision",
    "threshold": "flow size from wakefulness and the unseen cards' values; rule-of-thumb use of each action card",
    "search": "search@K: Monte Carlo over the hidden deck order, K sampled orders per choice, threshold playouts",
}
DEFAULT_STRATEGY = "threshold"
DEFAULT_SEARCH_BUDGET = 16
MAX_SEARCH_BUDGET = 10_000


@dataclass(frozen=True)
class Bot:
    """A parsed strategy spec: kind 0 random, 1 threshold, 2 search; budget K; banned action mask."""

    kind: int
    budget: int
    banned: int

    @property
    def spec(self) -> str:
        name = ("random", "threshold", "search")[self.kind]
        if self.kind == 2:
            name += f"@{self.budget}"
        return name + "".join(f"/no-{a}" for i, a in enumerate(ACTION_TYPES) if self.banned >> i & 1)


def parse_bot(spec: str) -> Bot:
    """A Bot from a spec (NAME, search@K, any number of /no-ACTION); PDError naming the problem."""
    if not isinstance(spec, str) or not spec.strip():
        raise PDError("strategy is empty (random, threshold, search@K)")
    head, *restrictions = spec.strip().split("/")
    name, _, budget_text = head.partition("@")
    if name not in STRATEGIES:
        raise PDError(f"strategy {spec!r}: unknown bot {name!r} (known: {', '.join(STRATEGIES)})")
    kind = ("random", "threshold", "search").index(name)
    budget = 0
    if kind == 2:
        budget = DEFAULT_SEARCH_BUDGET
        if budget_text:
            if not budget_text.isdigit() or not 1 <= int(budget_text) <= MAX_SEARCH_BUDGET:
                raise PDError(f"strategy {spec!r}: K in search@K must be 1 to {MAX_SEARCH_BUDGET}")
            budget = int(budget_text)
    elif "@" in head:
        raise PDError(f"strategy {spec!r}: {name} takes no budget @K")
    banned = 0
    for r in restrictions:
        if not r.startswith("no-") or r[3:] not in ACTION_TYPES:
            raise PDError(f"strategy {spec!r}: restriction {r!r} is not /no-ACTION "
                          f"(actions: {', '.join(ACTION_TYPES)})")
        banned |= 1 << ACTION_TYPES.index(r[3:])
    return Bot(kind, budget, banned)


def check_strategy(spec: str, setup: Setup) -> str:
    """The canonical form of a strategy spec, or PDError (one line)."""
    if not isinstance(setup, Setup):
        raise PDError("check_strategy needs a Setup from parse_setup")
    return parse_bot(spec).spec


def check_run(setup: Setup, strategies, seed: int, first_game: int, n_games: int, engine: str) -> list[Bot]:
    """Check play_games' arguments; the parsed bots, one per seat."""
    from simcore.rng import MAX_GAMES, MAX_SEED
    if not isinstance(setup, Setup) or setup.cards is None:
        raise PDError("play_games needs a Setup from parse_setup")
    if isinstance(strategies, str) or not hasattr(strategies, "__len__") or len(strategies) != setup.players:
        raise PDError(f"need {setup.players} strategies (one per seat), got {strategies!r}")
    for name, v, hi in (("seed", seed, MAX_SEED), ("first_game", first_game, MAX_GAMES),
                        ("n_games", n_games, MAX_GAMES)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= hi:
            raise PDError(f"{name} must be a whole number from 0 to {hi}, not {v!r}")
    if first_game + n_games > MAX_GAMES:
        raise PDError(f"games beyond index {MAX_GAMES} are not allowed")
    if engine not in ("fast", "reference"):
        raise PDError(f"engine must be 'fast' or 'reference', not {engine!r}")
    return [parse_bot(s) for s in strategies]
