"""The solo challenge as the rulebook asks it (rule P7.5; rulebook line 186: "How many action cards do you
need if you start on a wakefulness of 4?"): the player *chooses* its cards, so for each N the answer is
the best set of N of the 16 action cards, found by search over the sets.

The search space: a set of N cards from the 16 is a multiset of the 8 types with at most 2 of each (the two
copies of a type are alike), so N = 4 has 266 sets instead of C(16, 4) = 1820 labelled ones. The search
screens every set on the same deals (common random numbers: game g of every set is the same deck), keeps
the best few and replays them on more deals, and then measures the chosen set on deals it was not chosen
on (game indices from MEASURE_FROM), so the reported rate carries no selection bias.
"""
from __future__ import annotations

from itertools import combinations_with_replacement

from .common import ACTION_TYPES, COPIES_PER_ACTION, PDError, hand_text, parse_setup

MEASURE_FROM = 1_000_000         # the measuring deals: game indices no screening or confirming run uses


def hands(n: int) -> list[tuple[int, ...]]:
    """Every set of n action cards of the 16, as a count per type (at most 2 each), in a fixed order."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= len(ACTION_TYPES) * COPIES_PER_ACTION:
        raise PDError(f"a hand has 0 to 16 cards, not {n!r}")
    out = []
    for combo in combinations_with_replacement(range(len(ACTION_TYPES)), n):
        counts = [0] * len(ACTION_TYPES)
        for t in combo:
            counts[t] += 1
        if max(counts, default=0) <= COPIES_PER_ACTION:
            out.append(tuple(counts))
    return out


def variant_of(start: int, hand: tuple[int, ...]) -> str:
    """The variant notation of a solo game from ``start`` holding ``hand`` (no cards: actions=0)."""
    return f"start={start}+" + (f"hand={hand_text(hand)}" if sum(hand) else "actions=0")


def solo_wins(variant: str, strategy: str, seed: int, first_game: int, games: int, cards=None) -> int:
    """Games won (stayed asleep) by the solo player in ``variant`` on deals first_game.. (fast engine)."""
    from .play import play_games
    setup = parse_setup(1, variant, cards)
    return int((play_games(setup, [strategy], seed, first_game, games)["winner"] == 0).sum())


def best_hand(n: int, *, start: int = 4, strategy: str = "threshold", seed: int = 1, screen: int = 2000,
              finalists: int = 8, confirm: int = 10000, measure: int = 50000, cards=None) -> dict:
    """The best set of ``n`` cards for the solo player from wakefulness ``start``: screened on deals
    0..screen-1, the best ``finalists`` replayed on 0..confirm-1, the winner measured on ``measure`` fresh
    deals. Ties go to the earlier set in :func:`hands` order."""
    for name, v in (("screen", screen), ("finalists", finalists), ("confirm", confirm), ("measure", measure)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise PDError(f"{name} must be a whole number of at least 1, not {v!r}")
    candidates = hands(n)
    scored = [(solo_wins(variant_of(start, h), strategy, seed, 0, screen, cards), -i, h)
              for i, h in enumerate(candidates)]
    top = sorted(scored, reverse=True)[:finalists]
    confirmed = [(solo_wins(variant_of(start, h), strategy, seed, 0, confirm, cards), i, h) for _, i, h in top]
    wins, _, best = max(confirmed)
    measured = solo_wins(variant_of(start, best), strategy, seed, MEASURE_FROM, measure, cards)
    return {"actions": n, "hand": hand_text(best), "variant": variant_of(start, best), "sets": len(candidates),
            "screen_games": screen, "confirm_games": confirm, "confirm_rate": wins / confirm,
            "runner_up": hand_text(sorted(confirmed)[-2][2]) if len(confirmed) > 1 else None,
            "wins": measured, "games": measure}
