"""Counting Zzzzs' lab wing: the game of :mod:`simcore.games.counting_zzzzs`, found by the lab's registry.

Every step of the lab's commands is the generic one; its report is registered like every game's
(the entry-point group ``dreamscape.reports``).
"""
from __future__ import annotations

from analyses.games import LabWing
from simcore.games.counting_zzzzs import GAME

WING = LabWing(game=GAME)
