"""Turn-by-turn narration of one reference-engine game, for `dreamscape play`, and its record (`play --json`).

Seats are numbered from 1 (seat 1 plays first), as in every table and report;
the record, like all JSON, keeps the seat index (``"seat": 0`` is seat 1).
"""
from __future__ import annotations

from collections.abc import Iterator

from simcore.games.dreamscape.decks import Deck
from simcore.games.dreamscape.notation import position_text
from simcore.games.dreamscape.reference import Game, GameState
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import N_POSITIONS, Options, solo_band
from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def table_lines(s: GameState) -> list[str]:
    """The Dreamscape, the Sleep Deck and every seat's area, as a designer reads them."""
    cells = []
    for p in range(1, N_POSITIONS + 1):
        text = position_text(s, p) or "(empty)"
        cells.append(f"{p}:{text} ${s.costs[p - 1]}")
    lines = [
        f"  Dreamscape   {'  '.join(cells)}",
        f"  Sleep Deck   {_cards(len(s.sleep_deck))}   Discard pile {_cards(len(s.discard))}",
    ]
    for i, st in enumerate(s.seats):
        rem = " ".join(s.code(c) for c in st.rem) or "(empty)"
        reserved = ", ".join(s.code(c) for c in st.reserved) or "none"
        lines.append(
            f"  Seat {i + 1}: Z {st.z:>2}  score {s.score(i):>3}  reserved {reserved}  REM (bottom->top) {rem}"
        )
    return lines


def narrate_game(deck: Deck, players: int, seed: int, options: Options, bots: list[str]) -> Iterator[str]:
    """Play one game with the named reference bots and yield the narration line by line."""
    game = Game.new(deck, players, GameRng(seed), options)
    rng = GameRng.decisions(seed)  # the bots' tie-breaks: game 0's decision stream
    s = game.state
    chunks: list[str] = []
    printed = 0

    def turn_end(state: GameState) -> None:
        nonlocal printed
        chunks.extend(state.log[printed:])
        printed = len(state.log)
        chunks.extend(table_lines(state))

    s.on_turn_end = turn_end
    mode = "solo (Virtual Dreaming)" if players == 1 else f"{players} players"
    yield f"Project Dreamscape: {mode}, rules {options.label()}, deck {deck.label} ({len(deck)} cards from {deck.source}), seed {seed}"
    yield "Bots: " + ", ".join(f"seat {i} {name}" for i, name in enumerate(bots, start=1))
    yield "Set-up (R2): one Z card dealt to each seat, the Dreamscape filled from position 5 down to 1."
    yield from table_lines(s)
    while not game.over:
        d = game.pending
        choice = REFERENCE_BOTS[bots[d.seat]].choose(s, d, rng)
        game.apply(choice)
        yield from chunks
        chunks.clear()
    chunks.extend(s.log[printed:])
    yield from chunks
    yield ""
    yield "Final scores (R8.2: chain points - Z cards):"
    for i, st in enumerate(s.seats):
        extra = f", band {solo_band(s.final_score(i))} (R10.5)" if players == 1 else ""
        yield f"  Seat {i + 1} ({bots[i]}): {s.final_score(i)} with {st.z} Z cards after {s.seat_turns[i]} turns{extra}"
    if s.aborted:
        yield "The game was aborted at the safety cap (R8.4): no winner."
    else:
        yield "Winner(s): " + ", ".join(f"seat {w + 1}" for w in s.winners) + (" (shared win)" if len(s.winners) > 1 else "")


def table_record(s: GameState) -> dict:
    """The table as :func:`table_lines` shows it, as data: positions 1-5 (``~`` marks a face-down card)."""
    return {
        "dreamscape": [{"position": p, "card": position_text(s, p), "cost": s.costs[p - 1]}
                       for p in range(1, N_POSITIONS + 1)],
        "sleep_deck": len(s.sleep_deck),
        "discard": len(s.discard),
        "seats": [{"seat": i, "z": st.z, "score": s.score(i), "reserved": [s.code(c) for c in st.reserved],
                   "rem": [s.code(c) for c in st.rem]} for i, st in enumerate(s.seats)],
    }


def game_record(deck: Deck, players: int, seed: int, options: Options, bots: list[str]) -> dict:
    """The game :func:`narrate_game` tells, as one JSON-ready record (seats as indexes from 0).

    ``setup`` and every turn's ``after`` are the tables of the narration; a turn's
    ``decisions`` are the bots' choices (R11: only where two or more were legal,
    ``choice`` as in conformance/FORMAT.md) and its ``events`` what happened,
    one per narrated line (the engine's structured log).
    """
    game = Game.new(deck, players, GameRng(seed), options, events=True)
    rng = GameRng.decisions(seed)  # the same decision stream as narrate_game
    s = game.state
    turns: list[dict] = []

    def turn_end(state: GameState) -> None:
        take_events()  # a turn without decisions (R11) ends inside the same apply as the one before it
        turns[-1]["after"] = table_record(state)

    def take_events() -> None:
        for event in s.events:
            if event["event"] == "turn":
                turns.append({"turn": event["turn"], "seat": event["seat"], "decisions": [], "events": []})
            else:
                turns[-1]["events"].append(event)
        s.events.clear()

    s.on_turn_end = turn_end
    setup = table_record(s)  # before the first decision, as the narration's set-up table
    take_events()
    while not game.over:
        d = game.pending
        choice = REFERENCE_BOTS[bots[d.seat]].choose(s, d, rng)
        turns[-1]["decisions"].append({"kind": d.kind, "seat": d.seat,
                                       "card": None if d.card is None else s.code(d.card),
                                       "options": len(d.choices), "choice": choice})
        game.apply(choice)
        take_events()
    return {
        "game": "dreamscape",
        "players": players,
        "rules": options.label(),
        "deck": deck.label,
        "deck_cards": len(deck),
        "deck_source": str(deck.source),
        "seed": seed,
        "seats": [{"seat": i, "strategy": name} for i, name in enumerate(bots)],
        "setup": setup,
        "turns": turns,
        "final": {
            "aborted": s.aborted,
            "winners": [] if s.aborted else list(s.winners),
            "seats": [{"seat": i, "strategy": bots[i], "score": s.final_score(i), "z": st.z, "turns": s.seat_turns[i],
                       **({"band": solo_band(s.final_score(i))} if players == 1 else {})}
                      for i, st in enumerate(s.seats)],
        },
    }


def play_narration(setup, bots, seed: int, as_json: bool) -> tuple[dict | None, list[str]]:
    """``dreamscape play`` of a Project Dreamscape set-up: game 0 of ``seed`` with the table after every turn
    (:func:`narrate_game`), or its record (:func:`game_record`) with ``as_json``."""
    args = (setup.deck(), setup.players, seed, setup.variant.options, list(bots))
    return (game_record(*args) if as_json else None), ([] if as_json else list(narrate_game(*args)))
