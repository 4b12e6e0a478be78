"""Guard of numba's on-disk cache of the fast engine against edits in other files.

numba re-validates a cached kernel only against the file that defines it, but
the kernels of every module here inline kernels and freeze constants from the
others (and from :mod:`simcore.games.dreamscape.rules`, :mod:`simcore.games.dreamscape.scoring`,
:mod:`simcore.games.dreamscape.cards`). An edit of, say, a constant in layout.py would leave the
cached machine code of kernels.py silently stale. :func:`drop_stale_cache`
therefore keeps a stamp (a hash of every source file the kernels read) next to
the cache and drops the cache files of every fast-engine module when the
stamp changed, so the next call recompiles.

It runs once, from ``simcore/games/dreamscape/fast/__init__.py``, before any kernel module is
imported (importing this module imports no kernel). Imports nothing of the
fast engine.
"""
from __future__ import annotations

import re
from pathlib import Path

from simcore.numba_cache import STAMP_NAME, digest_of  # noqa: F401 - this engine's guard, re-exported
from simcore.numba_cache import numba_cache_dir as shared_cache_dir
from simcore.numba_cache import drop_stale_cache as shared_drop

HERE = Path(__file__).resolve().parent


def compiles_kernels(path: Path) -> bool:
    """True for a module that numba compiles or freezes into kernels (it imports numba or the decorators).

    The Python drivers beside them (runner, bridge, scenario, differential, this guard) are left
    out, so editing one of them does not force a full recompile.
    """
    text = path.read_text(encoding="utf-8")
    return re.search(r"^from (numba|simcore\.games\.dreamscape\.fast\.jit) import", text, flags=re.MULTILINE) is not None


def dependency_files(package_dir: Path = HERE) -> list[Path]:
    """Every source file the kernels read: the kernel modules here and the rule/scoring/card modules."""
    own = [p for p in sorted(package_dir.glob("*.py")) if compiles_kernels(p)]
    # the random streams (simcore/fast_rng.py) are shared with the other games' fast engines
    return own + [package_dir.parent / name for name in ("rules.py", "scoring.py", "cards.py")] + [
        package_dir.parents[2] / "fast_rng.py"]


def numba_cache_dir(package_dir: Path = HERE) -> str | None:
    """Where numba caches the fast engine's kernels (:func:`simcore.numba_cache.numba_cache_dir`)."""
    return shared_cache_dir(package_dir)


def drop_stale_cache(
    package_dir: Path = HERE, deps: list[Path] | None = None, cache_dir: str | None = None
) -> bool:
    """:func:`simcore.numba_cache.drop_stale_cache` of the fast engine (default: this package, :func:`dependency_files`)."""
    return shared_drop(package_dir, dependency_files(package_dir) if deps is None else deps, cache_dir)
