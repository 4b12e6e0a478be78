"""Words every game's charts share: player counts (seats are numbered from 1 in everything a designer reads)."""
from __future__ import annotations


def players_label(players: int) -> str:
    """1 -> ``"solo"``, 3 -> ``"3-player"``."""
    return "solo" if players == 1 else f"{players}-player"
