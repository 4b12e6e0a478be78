"""What Project Dreamscape's bots were adapted to, and the search player that measures how far they are (#41).

The wing's two hooks (:class:`analyses.games.GameWing`): :func:`training_status` and
:func:`distance_search`. :func:`training_status` reads what is shipped today: ``expert``'s
tables and ``strong``'s values are fitted per (players, Sleep Token, shifting tokens) to the
printed rules and the default deck (``simcore/games/dreamscape/bots/data/``). It is one function so that
it can be re-pointed at the bots' own account of their training once they keep one
(``simcore/games/dreamscape/bots/training.py``).
"""
from __future__ import annotations

from simcore.games import TrainingStatus

# The heuristic bots: hand-set terms over the engine's features of the position (bots/builtins.py).
HEURISTICS = ("greedy", "greedy-hook", "greedy-hook-kinds", "chain", "economist", "spoiler")
LINEAR_TUNED = (3, "base")  # linear_default.toml: tuned by CMA-ES for 3 players, base game (its header)
DISTANCE_SEARCH = "search:{bot}@8:late"  # the one-seat search over the bot: late game, 8 playouts


def _changes(setup) -> list[str]:
    """What in ``setup`` lies outside every shipped fit: knobs (R2.3, R8.2, ...), swaps (R1.4), a deck file."""
    v = setup.variant
    out = list(v.options.knob_tokens())
    if v.removed:
        out.append(f"swap {'+'.join(t for t in v.name.split('+') if ':' in t and not t.startswith('knob:'))}")
    if setup.cards is not None and not _default_deck(setup.cards):
        out.append("the deck (a deck file)")
    return out


def _default_deck(spec) -> bool:
    """Whether a deck file holds the default deck's composition (R1.3), whatever its name."""
    from simcore.games.dreamscape.decks import default_spec

    default = default_spec()
    return dict(spec.base) == dict(default.base) and dict(spec.expansion) == dict(default.expansion)


def _key(setup) -> tuple[int, bool, bool]:
    o = setup.variant.options
    return setup.players, bool(o.sleep_token), bool(o.shifting_tokens)


def _key_text(key) -> str:
    players, sleep, shifting = key
    rules = "+".join(t for t, on in (("sleep-token", sleep), ("shifting-tokens", shifting)) if on) or "base"
    return f"{players}p-{rules}"


def training_status(setup, bot: str) -> TrainingStatus | None:
    """``bot``'s training status on ``setup`` (None: a bot of the user's, whose training the lab does not know).

    * ``expert``: fitted where a shipped table has the configuration's key and nothing else changed
      (no knob, swap or deck file), else out of distribution (it plays the table of the key anyway);
    * ``strong``: as expert, and it needs a shipped value of its own key (solo plays the expert table);
      without one it plays the base game's value of the same player count: out of distribution;
    * ``linear`` and ``rollout`` (linear playouts): weights tuned for 3 players, base game;
    * the heuristics (greedy, chain, economist, spoiler): hand-set terms over the engine's features of
      the rules as played, nothing fitted: rule-aware, except under a knob, whose numbers those features
      assume printed (the buy outlook's k-th cheapest slot costs k, R2.3): out of distribution;
    * ``random`` and the search players: rule-aware (uniform over the legal choices; playouts of the
      rules as set).
    """
    from simcore.games.dreamscape.bots import expert, strong

    changes = _changes(setup)
    key = _key(setup)
    moved = f"changes {', '.join(changes)}" if changes else ""
    if bot == "random":
        return TrainingStatus("rule-aware", "uniform over the legal choices; nothing fitted")
    if bot.startswith("search:"):
        return TrainingStatus("rule-aware", "its playouts play the rules as set")
    if bot in ("linear", "rollout"):
        if (setup.players, setup.variant.name) == LINEAR_TUNED and not changes:
            return TrainingStatus("fitted", "weights tuned for 3 players, base game")
        return TrainingStatus("out-of-distribution", "weights tuned for 3 players, base game")
    if bot in HEURISTICS:
        if setup.variant.options.knob_tokens():
            return TrainingStatus("out-of-distribution", "hand-set terms over features that assume the printed "
                                                         "rule numbers; this game " + moved)
        return TrainingStatus("rule-aware", "hand-set terms over the engine's features of the rules as played")
    if bot not in ("expert", "strong"):
        return None
    tables = {expert.shipped_key(p) for p in expert.SHIPPED_DIR.glob("*.toml")}
    if key not in tables:
        return TrainingStatus("out-of-distribution", f"no table fitted to {_key_text(key)}")
    if changes:
        return TrainingStatus("out-of-distribution", f"tables fitted to the printed rules and deck ({_key_text(key)}); "
                                                     f"this game {moved}")
    if bot == "strong" and setup.players > 1 and key not in set(strong.shipped_values()):
        base = (setup.players, False, False)
        return TrainingStatus("out-of-distribution", f"no value fitted to {_key_text(key)}: plays the "
                                                     f"{_key_text(base)} value")
    return TrainingStatus("fitted", f"the shipped {_key_text(key)} {'value' if bot == 'strong' else 'table'}")


def distance_search(setup, bot: str) -> str | None:
    """``search:BOT@8:late`` (the issue's measure; late-game search is the cheap one), or None for a bot that is
    itself a search player."""
    if bot.startswith("search:"):
        return None
    return DISTANCE_SEARCH.format(bot=bot)
