"""The docs' table of a rulebook's printed numbers (docs/guide/knobs.md), written once for every game.

Each game lists its numbers (its ``numbers.rulebook_numbers()``: rows with ``rule``, ``what``, ``value``,
``status`` — "knob:TOKEN", "card file", another status text, or "" — ``range`` and ``meaning``).
"""
from __future__ import annotations

from collections.abc import Iterable


def markdown_table(numbers: Iterable) -> str:
    """One game's knob table: a row per printed number, its status written the same way for every game."""
    lines = [
        "| rule | number | rulebook value | status | range | meaning |",
        "|---|---|---|---|---|---|",
    ]
    for n in numbers:
        status = f"`{n.status}`" if n.status.startswith("knob:") else \
            "the card file (`--cards`)" if n.status == "card file" else n.status or "not a knob"
        lines.append(f"| {n.rule} | {n.what} | {n.value} | {status} | {n.range} | {n.meaning} |")
    return "\n".join(lines) + "\n"
