"""Playing one chunk of games: the default chunk function of every backend.

:func:`play_chunk` is module-level and driven by a picklable
:class:`~analyses.model.ChunkTask` only, so a Dask worker can run it.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from analyses.model import ChunkTask
from simcore.decks import DeckSpec
from simcore.variants import parse_variant

ChunkFn = Callable[[ChunkTask], object]  # -> SimResult

_STRATEGY_NAMES: dict[str, str] = {}
_DECKS: dict[tuple, object] = {}


def load_strategies(specs: Iterable[str]) -> list[str]:
    """Load (in this process) and return the registered names of ``--strategy`` values."""
    out = []
    for spec in specs:
        name = _STRATEGY_NAMES.get(spec)
        if name is None:
            from strategies.api import load_strategy  # numba loads with the first strategy, not with the study modules

            name = _STRATEGY_NAMES[spec] = load_strategy(spec)
        out.append(name)
    return out


def config_deck(variant: str, deck_spec: DeckSpec | None = None):
    """The deck a configuration plays (cached per variant and composition)."""
    key = (variant, deck_spec)
    deck = _DECKS.get(key)
    if deck is None:
        deck = _DECKS[key] = parse_variant(variant).deck(deck_spec)
    return deck


def play_chunk(task: ChunkTask):
    """Play one chunk on the fast engine.

    Strategy specs that are not built in (``path.py:func``,
    ``linear:FILE.toml``) are loaded in the process that runs the chunk.
    """
    from simcore.fast import SimConfig, iter_chunks  # numba loads with the first chunk, not with the study modules

    config = task.config
    names = load_strategies(config.strategies)
    variant = parse_variant(config.variant)
    sim = SimConfig(players=config.players, options=variant.options, deck=config_deck(config.variant, task.deck_spec))
    (result,) = list(iter_chunks(sim, task.games, task.seed, names, chunk_size=max(task.games, 1), first_game=task.first))
    return result
