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

import glob
import hashlib
import os
import re
import types
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
STAMP_NAME = "fast-engine.deps-stamp"


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


def numba_cache_dir(package_dir: Path = HERE) -> str | None:
    """The directory numba caches ``package_dir``'s kernels in (NUMBA_CACHE_DIR and locators honoured)."""
    try:
        from numba.core.caching import FunctionCache

        # numba picks the directory from the defining file: a probe "defined" in package_dir
        code = _probe.__code__.replace(co_filename=str(package_dir / "__init__.py"))
        probe = types.FunctionType(code, {}, "_probe")
        return FunctionCache(probe)._cache_path  # noqa: SLF001 - numba keeps the resolved path here
    except Exception:  # pragma: no cover - numba internals moved, or no writable cache dir
        return None


def drop_stale_cache(
    package_dir: Path = HERE, deps: list[Path] | None = None, cache_dir: str | None = None
) -> bool:
    """Drop the numba cache of ``package_dir``'s modules if any dependency changed since the last stamp.

    Parameters
    ----------
    package_dir : Path
        The package whose modules' caches are guarded (every ``*.py`` in it).
    deps : list of Path, optional
        The files hashed into the stamp (default :func:`dependency_files`).
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
    digest = digest_of(dependency_files(package_dir) if deps is None else deps)
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
