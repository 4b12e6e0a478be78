"""Project Dreamscape's deck records: a ``--deck`` composition as the study manifest keeps it, and back.

A study's chunks are played and filed by the lab's one study path (:mod:`analyses.study.gamechunks`):
the game's ``play_games(..., tables=True)`` returns the tables it records
(:mod:`simcore.games.dreamscape.study_tables`). A ``--deck`` composition travels in the task's
:class:`~analyses.study.model.GameDeal` as the manifest's deck record (:func:`deck_record`), which the
wing's ``deck_of_record`` hook reads back in the process that plays the chunk.
"""
from __future__ import annotations

from analyses.study.model import ChunkTask
from simcore.games.dreamscape.cards import card_code, parse_card
from simcore.games.dreamscape.decks import DeckSpec

_SPECS: dict[str, DeckSpec] = {}


def deck_record(spec: DeckSpec) -> dict:
    """A deck composition as the manifest's JSON record (card order kept: it fixes the card ids, R1.3)."""
    return {
        "name": spec.name,
        "source": spec.source,
        "base": [[card_code(c), int(n)] for c, n in spec.base],
        "expansion": [[card_code(c), int(n)] for c, n in spec.expansion],
    }


def deck_of_record(data: dict) -> DeckSpec:
    """The composition of a manifest's deck record; ValueError when it is damaged."""
    try:
        return DeckSpec(
            name=str(data["name"]),
            base=tuple((parse_card(k), int(n)) for k, n in data["base"]),
            expansion=tuple((parse_card(k), int(n)) for k, n in data["expansion"]),
            source=str(data.get("source", "study manifest")),
        )
    except Exception as exc:  # noqa: BLE001 - any damage is a damaged manifest
        raise ValueError(f"damaged deck ({type(exc).__name__}: {exc})") from None


def task_deck(task: ChunkTask) -> DeckSpec | None:
    """The composition a task plays (None: the default deck), read once per process from its deal's record."""
    text = task.game.deck
    if text is None:
        return None
    spec = _SPECS.get(text)
    if spec is None:
        spec = _SPECS[text] = deck_of_record(task.game.deck_record)
    return spec
