"""Names of the afterstate feature slots a strategy receives (``features[DELTA]`` ...).

The slots and their meaning are documented in :mod:`simcore.fast.layout`;
this module re-exports them without the ``F_`` prefix so a strategy file
needs nothing from the engine's internals.
"""
from simcore.fast import layout as _layout

N_FEATURES: int = _layout.N_FEATURES
NAMES: dict[int, str] = {}
for _name in dir(_layout):
    if _name.startswith("F_"):
        globals()[_name[2:]] = getattr(_layout, _name)
        NAMES[getattr(_layout, _name)] = _name[2:].lower()
del _name
