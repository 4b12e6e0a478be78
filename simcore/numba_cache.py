"""Guard of numba's on-disk cache against edits in other files, for every game's fast engine.

numba re-validates a cached kernel only against the file that defines it, but a
fast engine's kernels inline kernels and freeze constants from other files (its
layout, its rules, the shared random streams). An edit of one of those would leave
cached machine code silently stale. :func:`drop_stale_cache` therefore keeps a
stamp (a hash of every source file the kernels read) next to the package's cache
and drops the cache files of every module of the package when the stamp changed,
so the next call recompiles. Each engine calls it once, before it imports a kernel
module (Project Dreamscape: :mod:`simcore.games.dreamscape.fast.cache`; Counting
Zzzzs: its ``play.fast_engine``). Imports nothing of any engine.
"""
from __future__ import annotations

import glob
import hashlib
import os
import types
from collections.abc import Iterable
from pathlib import Path

STAMP_NAME = "fast-engine.deps-stamp"


def digest_of(files: Iterable[Path]) -> str:
    """sha256 over the files' names and contents, in the given order."""
    h = hashlib.sha256()
    for path in files:
        h.update(path.name.encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


def _probe() -> None:  # stands in for a kernel of the guarded package when asking numba where it caches
    pass


def numba_cache_dir(package_dir: Path) -> str | None:
    """The directory numba caches ``package_dir``'s kernels in (NUMBA_CACHE_DIR and locators honoured)."""
    try:
        from numba.core.caching import FunctionCache

        # numba picks the directory from the defining file: a probe "defined" in package_dir
        code = _probe.__code__.replace(co_filename=str(package_dir / "__init__.py"))
        probe = types.FunctionType(code, {}, "_probe")
        return FunctionCache(probe)._cache_path  # noqa: SLF001 - numba keeps the resolved path here
    except Exception:  # pragma: no cover - numba internals moved, or no writable cache dir
        return None


def drop_stale_cache(package_dir: Path, deps: list[Path], cache_dir: str | None = None) -> bool:
    """Drop the numba cache of ``package_dir``'s modules if any dependency changed since the last stamp.

    Parameters
    ----------
    package_dir : Path
        The package whose modules' caches are guarded (every ``*.py`` in it).
    deps : list of Path
        The files hashed into the stamp: every source file the package's kernels read.
    cache_dir : str, optional
        Where numba caches them (default :func:`numba_cache_dir`).

    Returns
    -------
    bool
        True when cache files were dropped (the stamp was missing or stale).
    """
    if cache_dir is None:
        cache_dir = numba_cache_dir(package_dir)
        if cache_dir is None:  # pragma: no cover
            return False
    digest = digest_of(deps)
    stamp = os.path.join(cache_dir, STAMP_NAME)
    try:
        with open(stamp, encoding="ascii") as fh:
            if fh.read() == digest:
                return False
    except OSError:
        pass
    try:
        os.makedirs(cache_dir, exist_ok=True)
        for module in package_dir.glob("*.py"):
            for path in glob.glob(os.path.join(glob.escape(cache_dir), glob.escape(module.stem) + ".*.nb[ic]")):
                os.remove(path)
        with open(stamp, "w", encoding="ascii") as fh:
            fh.write(digest)
    except OSError:  # pragma: no cover - read-only cache: numba copes on its own
        return False
    return True
