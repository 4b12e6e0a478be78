"""Guard of numba's on-disk cache of the fast engine against edits in other files.

numba re-validates a cached kernel only against the file that defines it, but
the kernels of every module here inline kernels and freeze constants from the
others (and from :mod:`simcore.games.dreamscape.rules`, :mod:`simcore.games.dreamscape.scoring`,
:mod:`simcore.games.dreamscape.cards`). An edit of, say, a constant in layout.py would leave the
cached machine code of kernels.py silently stale. :func:`drop_stale_cache`
therefore keeps a stamp (a hash of every source file the kernels read) next to
the cache and drops the cache files of every fast-engine module when the
stamp changed, so the next call recompiles. The bots' folder
(``simcore/games/dreamscape/bots``) is guarded the same way: its restricted bots
and built-in strategies freeze the layout's offsets, and once played other bots
from a stale cache after the layout changed.

It runs once, from ``simcore/games/dreamscape/fast/__init__.py``, before any kernel module is
imported (importing this module imports no kernel). Imports nothing of the
fast engine.
"""
from __future__ import annotations

from pathlib import Path

from simcore.numba_cache import STAMP_NAME, digest_of  # noqa: F401 - this engine's guard, re-exported
from simcore.numba_cache import numba_cache_dir as shared_cache_dir
from simcore.numba_cache import compiles_kernels, dependency_closure
from simcore.numba_cache import drop_stale_cache as shared_drop

HERE = Path(__file__).resolve().parent
#: the bots' kernels (restricted bots, the built-in strategies, the strategy guard) freeze this engine's
#: layout offsets and inline its kernels: guarded with it, or an edit of layout.py leaves them stale
BOTS = HERE.parent / "bots"


def dependency_files(package_dir: Path = HERE) -> list[Path]:
    """Every source file the kernels of ``package_dir`` read (:func:`simcore.numba_cache.dependency_closure`).

    Followed through the imports, not listed by hand: the fast engine's kernel modules, the rule,
    scoring and card modules and the random streams shared with the other games (simcore/fast_rng.py).
    """
    return dependency_closure([p for p in sorted(package_dir.glob("*.py")) if compiles_kernels(p)])


def numba_cache_dir(package_dir: Path = HERE) -> str | None:
    """Where numba caches the fast engine's kernels (:func:`simcore.numba_cache.numba_cache_dir`)."""
    return shared_cache_dir(package_dir)


def drop_stale_cache(
    package_dir: Path = HERE, deps: list[Path] | None = None, cache_dir: str | None = None
) -> bool:
    """:func:`simcore.numba_cache.drop_stale_cache` of the fast engine and of the bots' kernels.

    With no arguments (the engine's import): this package and the bots' folder, each stamped with
    every file its kernels read. With arguments: that one folder (tests, research scripts).
    """
    if deps is not None or cache_dir is not None or package_dir != HERE:
        return shared_drop(package_dir, dependency_files(package_dir) if deps is None else deps, cache_dir)
    dropped = shared_drop(HERE, dependency_files(HERE))
    return shared_drop(BOTS, dependency_files(BOTS)) or dropped
