"""What every result on a changed game adds: its bots' training status and distance from search (issue #41).

Each lab function whose result reads a changed game (a knob, a rules variant, a swap, a deck
file) calls :func:`bot_notes` once its own games are played: one note per changed configuration
and bot (:mod:`analyses.tools.distance`), under the result's ``bot_notes``. ``distance=False``
(the command line's ``--no-distance``) keeps the training status and skips the search games.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from analyses.study.progress import progress_bar
from analyses.tools.distance import DISTANCE_GAMES, changed, distance_search, search_distance, training_status


def deck_label(the, setup) -> str:
    """The deck a setup plays as the result's header names it (name and card count)."""
    if the.deck_of is None:
        return "base"
    name, count = the.deck_of(setup)
    name = " ".join(Path(word).name if word.endswith(".toml") else word for word in name.split(" "))  # a file by its name
    return f"{name} ({count:,} cards)" if count is not None else name


def bot_notes(the, configurations: Iterable[tuple[object, Path | None, Sequence[str]]], distance: bool = True,
              seed: int = 1, games: int = DISTANCE_GAMES) -> list[dict]:
    """The notes of every changed configuration among ``configurations`` (``(setup, card file, its bots)``), per bot.

    Each note: ``players``, ``variant``, ``deck``, ``strategy``, ``training`` (``fitted``, ``rule-aware``,
    ``out-of-distribution`` or None when the game does not say), ``training_detail``, and the distance
    from search: ``search`` (the search player, None when not measured), ``games``, ``gain``,
    ``gain_low``, ``gain_high`` (the one-seat gain in win rate, 0..1, with its 95% paired interval).
    A configuration or bot given twice is noted once.
    """
    todo, seen = [], set()
    for setup, cards, bots in configurations:
        if not changed(the, setup, cards):
            continue
        for bot in dict.fromkeys(bots):
            key = (setup.players, the.variant_name(setup), str(cards), bot)
            if key in seen:
                continue
            seen.add(key)
            status = training_status(the, setup, bot)
            note = {"players": setup.players, "variant": key[1], "deck": deck_label(the, setup), "strategy": bot,
                    "training": status.kind if status is not None else None,
                    "training_detail": status.detail if status is not None else None,
                    "search": distance_search(the, setup, bot) if distance else None,
                    "games": None, "gain": None, "gain_low": None, "gain_high": None}
            note["distance"] = "skipped" if not distance else "none" if note["search"] is None else "measured"
            todo.append((setup, note))
    measured = [(setup, note) for setup, note in todo if note["search"] is not None]
    if measured:
        with progress_bar(2 * games * len(measured), "games", leave=False) as bar:
            for setup, note in measured:
                row = search_distance(the, setup, note["strategy"], note["search"], games, seed, progress=bar.update)
                note.update({k: row[k] for k in ("games", "gain", "gain_low", "gain_high")})
    return [note for _, note in todo]


def shown_sweep_rows(rows: list[dict], limit: int) -> list[dict | None]:
    """The sweep rows a table shows, per player count: most balanced first, the top and bottom ``limit // 2``
    when there are more than ``limit`` (None marks the rows left out); the rows whose bots get notes."""
    shown: list[dict | None] = []
    for players in sorted({r["players"] for r in rows}):
        part = sorted((r for r in rows if r["players"] == players), key=lambda r: r["seat_spread"])
        shown += part if len(part) <= limit else part[:limit // 2] + [None] + part[-(limit // 2):]
    return shown


def sweep_notes(the, folder: Path, sweep_rows: list[dict], cards: Path | None, limit: int, distance: bool = True,
                seed: int = 1) -> list[dict]:
    """The notes of the changed configurations a sweep's table shows (:func:`shown_sweep_rows` of the folder's
    ``sweep_rows``; a full sweep plays 165 decks x 3 player counts x 4 rules options: its distance is measured
    where a row is read)."""
    from analyses.study.folder import finished_configs

    rows = [r for r in shown_sweep_rows(sweep_rows, limit) if r is not None]
    wanted = {(r["variant"], r["players"], r["strategies"]) for r in rows}
    configs = [(the.setup(c.players, c.variant, cards), cards, c.strategies) for c in finished_configs(folder)
               if (c.variant, c.players, c.label) in wanted]
    return bot_notes(the, configs, distance, seed)
