"""Project Dreamscape's own terminal tables (the others are in :mod:`reports.tables`)."""
from __future__ import annotations


def deck_lines(decks, source: str) -> list[str]:
    """``dreamscape decks``: one row per deck, its size and cards per dream type."""
    from simcore.games.dreamscape.cards import CODES

    lines = [f"{'deck':<24}{'cards':>6}  " + " ".join(f"{c:>3}" for c in CODES)]
    for d in decks:
        lines.append(f"{d.label:<24}{len(d):>6}  " + " ".join(f"{n:>3}" for n in d.type_counts()))
    lines.append(f"{len(decks)} deck(s) from {source}")
    return lines
