"""The two numba decorators every rule, feature, decision and search kernel uses.

The kernels allocate nothing and run without NRT reference counting: with it,
every call of a small kernel paid atomic incref/decref pairs on its array
arguments, which dominated the run time. Kernels that allocate (``new_work``,
``new_state``, the batch drivers) use plain ``njit(cache=True)`` instead.

Every module of kernels caches its machine code on disk (``cache=True``);
:mod:`simcore.games.dreamscape.fast.cache` keeps those caches honest across files.
"""
from __future__ import annotations

from numba import njit

kernel = njit(cache=True, _nrt=False, error_model="numpy")
inline_kernel = njit(inline="always", cache=True, _nrt=False, error_model="numpy")
# A kernel made at import time by a factory around hooks (isearch.search_loop) is not cached on
# its own: numba caches a function by its place in a file, and the factory makes one per set of
# hooks. The cached entry points that call it hold its machine code, so nothing compiles twice.
hooked_kernel = njit(_nrt=False, error_model="numpy")
