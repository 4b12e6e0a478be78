"""Goofspiel's lab wing: its :data:`~goofspiel.GAME` and the one hook of the lab it fills in.

The lab finds a game through the entry point ``dreamscape.games`` (``pyproject.toml``), whose target is a
lab wing (:class:`analyses.games.LabWing`): the game and the game's own step of the lab's commands where
it has more to say than the generic one. Goofspiel fills in one hook, :func:`printed_game`: what a designer
may change of the printed game on the what-if page (``dreamscape ui``). Every other hook is left None, the
lab's generic step (the ``LabWing`` docstring lists them all, with their arguments).
"""
from __future__ import annotations

from analyses.games import LabWing, PrintedParts, rules_knobs

from . import GAME
from .common import CARDS_FILE


def printed_game() -> PrintedParts:
    """The knobs and card file the what-if page offers to change.

    Knobs: none. A game whose variants take rules knobs written ``knob:TOKEN=VALUE`` lists each one here as
    ``(token, rule id, what, printed value, range, meaning)``, read from its own table of printed numbers, so
    the page and that table cannot disagree (Project Dreamscape: ``simcore/games/dreamscape/numbers.py``).
    Goofspiel's one changeable number, the suit's length (G1.3), is its variant ``cards=N``, which the page
    takes as a variant. Card file: the shipped suit (G1.1), which an uploaded card file is compared with.
    """
    return PrintedParts(knobs=rules_knobs([]), card_file=CARDS_FILE)


WING = LabWing(game=GAME, printed_game=printed_game)

__all__ = ["WING", "printed_game"]
