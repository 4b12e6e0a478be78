"""Names of the afterstate feature slots a strategy receives (``features[DELTA]`` ...).

The slots and their meaning are documented in :mod:`simcore.games.dreamscape.fast.layout`;
this module re-exports them without the ``F_`` prefix so a strategy file
needs nothing from the engine's internals. ``NAMES`` maps every named slot to
the lower-case name a linear weights file uses (``delta``, ``budget_after``,
``perform_FF`` ... ``perform_PS`` for the one-hot of the performed type,
``card_FF`` ... ``card_PS`` for the types of the card an option names).
"""
from simcore.games.dreamscape.cards import CODES as _CODES
from simcore.games.dreamscape.fast import layout as _layout

N_FEATURES: int = _layout.N_FEATURES
NAMES: dict[int, str] = {}
for _name in dir(_layout):
    if _name.startswith("F_"):
        globals()[_name[2:]] = getattr(_layout, _name)
        if _name not in ("F_PERFORM_BASE", "F_CARD_BASE"):
            NAMES[getattr(_layout, _name)] = _name[2:].lower()
for _t, _code in enumerate(_CODES):
    NAMES[_layout.F_PERFORM_BASE + _t] = f"perform_{_code}"
    NAMES[_layout.F_CARD_BASE + _t] = f"card_{_code}"
del _name, _t, _code
