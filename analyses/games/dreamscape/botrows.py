"""What every bot of a study configuration plays, as a digest a study folder records (issue #42).

A study folder's chunks say which strategy names played, not what those names played: the expert
table, strong's fitted rows and value and a strategy file's code change between versions of the lab.
The wing's ``bot_rows`` hook (:func:`bot_rows`) gives, per bot of a configuration, the digest that
:mod:`analyses.study.botrows` records in the manifest when the configuration is first played, checks
before a resume adds games, and compares with the code when a report reads the folder.

**The digest of a bot** (:func:`bot_digest`) is :func:`analyses.games.dreamscape.kept.row_digest`: the
sha256 of the whole engine row the bot plays in the configuration, as the engine looks it up
(:func:`simcore.games.dreamscape.fast.strategies.weights_for`, by players, rules options and deck
family): for ``expert`` its table there, for ``strong`` that table with its fitted rows and then its
value, for a linear bot its weights. A search player (``search:BOT@K[:PHASES]``) is digested by its
base bot: its own K and phases are in its name, its playouts are engine code. A strategy that is not
built in (a strategy file, ``linear:FILE.toml``, ``expert:FILE.toml``, ``strong:FILE.npz``) also
carries the fingerprint of the recipe that ships it to Dask workers
(:attr:`analyses.games.dreamscape.shipping.StrategyRecipe.fingerprint`: its source text, bytecode,
engine mode and weights), so an edited strategy file is a different bot.
"""
from __future__ import annotations

import hashlib

from analyses.study.model import RunConfig


def base_bot(spec: str) -> str:
    """The bot a search player searches over (``search:strong@8:late`` -> ``strong``); any other spec itself."""
    while spec.startswith("search:"):
        inner = spec[len("search:"):]
        spec = inner.rsplit("@", 1)[0] if "@" in inner else inner
    return spec


def bot_digest(spec: str, players: int, variant: str, deck: dict | None = None) -> str:
    """The digest of what the strategy ``spec`` plays in this configuration (see the module's docstring)."""
    from analyses.games.dreamscape.kept import row_digest
    from analyses.games.dreamscape.shipping import strategy_recipe
    from simcore.games.dreamscape.bots.api import load_strategy
    from simcore.games.dreamscape.fast.strategies import is_builtin

    name = load_strategy(base_bot(spec))
    row = row_digest(name, int(players), str(variant), deck)
    if is_builtin(name):
        return row
    recipe = strategy_recipe(name)
    if recipe is None:  # a function defined at the prompt: its row is all that can be told
        return row
    return hashlib.sha256(f"{row}:{recipe.fingerprint}".encode()).hexdigest()


def bot_rows(config: RunConfig, deck: dict | None = None) -> dict[str, str]:
    """``{strategy: digest}`` of every bot of ``config`` (each once, in seat order): the wing's ``bot_rows`` hook."""
    return {spec: bot_digest(spec, config.players, config.variant, deck) for spec in dict.fromkeys(config.strategies)}
