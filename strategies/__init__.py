"""Strategies: plug-in scoring functions for the fast engine, and the reference bots.

``from strategies import strategy, features`` gives the decorator and the
feature slot names; both load the fast engine lazily, so importing this
package for the reference bots alone stays cheap.
"""
from __future__ import annotations

import importlib


def __getattr__(name: str):
    if name == "strategy":
        return importlib.import_module("simcore.games.dreamscape.bots.api").strategy
    if name == "features":
        return importlib.import_module("simcore.games.dreamscape.bots.features")
    raise AttributeError(f"module 'strategies' has no attribute {name!r}")
