"""Turn-by-turn narration of one reference-engine game, for `dreamscape play`.

Seats are numbered from 1 (seat 1 plays first), as in every table and report.
"""
from __future__ import annotations

from collections.abc import Iterator

from simcore.decks import Deck
from simcore.notation import position_text
from simcore.reference import Game, GameState
from simcore.rng import GameRng
from simcore.rules import N_POSITIONS, Options, solo_band
from strategies.reference_bots import REFERENCE_BOTS


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
