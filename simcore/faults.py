"""The error of a strategy that misbehaves during play (a leaf: imports nothing, cheap to import).

:mod:`simcore.games.dreamscape.fast.faults` raises it after a game in which a user strategy
raised, returned a non-finite score or indexed outside its arrays; the
command line turns it into one line and exit code 2.
"""
from __future__ import annotations


class StrategyFault(RuntimeError):
    """A strategy failed during play; the message names it, the decision kind and the problem in one line."""
