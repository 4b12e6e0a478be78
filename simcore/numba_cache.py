"""Guard of numba's on-disk cache against edits in other files, for every game's fast engine.

numba re-validates a cached kernel only against the file that defines it, but a
fast engine's kernels inline kernels and freeze constants from other files (its
layout, its rules, the shared random streams). An edit of one of those would leave
cached machine code silently stale. :func:`drop_stale_cache` therefore keeps a
stamp (a hash of every source file the kernels read) next to the package's cache
and drops the cache files of every module of the package when the stamp changed,
so the next call recompiles.

Which files the kernels read is not listed by hand: a hand list once missed the
bots' kernels, which froze the layout's offsets and played other bots after the
layout changed. :func:`guard_kernels` follows the kernel modules' imports through
the project (:func:`dependency_closure`) and stamps each guarded folder with all
of them. Each engine calls it once, before it imports a kernel module (Project
Dreamscape: :mod:`simcore.games.dreamscape.fast.cache`; Pleasant Dreams: its
``fast``; Counting Zzzzs: its ``play.fast_engine``). Imports nothing of any engine.
"""
from __future__ import annotations

import glob
import hashlib
import os
import re
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


#: the project's root: the folder that holds the top-level packages (simcore/, research/, templates/...)
PROJECT_ROOT = Path(__file__).resolve().parent.parent

_KERNEL_IMPORT = re.compile(r"^\s*(from numba\b|import numba\b|from \S+\.jit import)", flags=re.MULTILINE)


_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w., \t]+)", flags=re.MULTILINE)
_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", flags=re.MULTILINE)


def compiles_kernels(path: Path) -> bool:
    """True for a module numba compiles: it imports numba, or a game's kernel decorator (a ``.jit`` module).

    Pure-Python drivers beside the kernels are left out of a folder's stamp roots, so editing one of
    them does not force a recompile (unless a kernel imports it, see :func:`dependency_closure`).
    """
    return _KERNEL_IMPORT.search(path.read_text(encoding="utf-8")) is not None


def imported_project_files(path: Path, root: Path = PROJECT_ROOT) -> set[Path]:
    """The project files ``path`` imports (absolute imports under ``root``, relative ones beside the file).

    A relative import is resolved from the file's own folder, so a game package kept outside the
    project (a copy of the template) is followed too; a from-import's names count when they are modules.
    """
    text = path.read_text(encoding="utf-8")
    found: set[Path] = set()

    def add(base: Path, dotted: str, names: list[str]) -> None:
        target = base.joinpath(*dotted.split(".")) if dotted else base
        for candidate in (target.with_suffix(".py"), target / "__init__.py"):
            if dotted and candidate.is_file():
                found.add(candidate)
        if not dotted and (target / "__init__.py").is_file():
            found.add(target / "__init__.py")
        for name in names:  # ``from pkg import module``
            if (target / f"{name}.py").is_file():
                found.add(target / f"{name}.py")

    # read with patterns, not ast: every process start runs the guard, and parsing the engine's
    # thirty files took seconds; an import line quoted in a docstring only adds a file to the stamp
    for match in _IMPORT.finditer(text):
        for dotted in match.group(1).split(","):
            dotted = dotted.split(" as ")[0].strip()
            if dotted:
                add(root, dotted, [])
    for match in _FROM_IMPORT.finditer(text):
        module, names = match.group(1), match.group(2).strip("() \n")
        names_list = [n.split(" as ")[0].strip() for n in re.split(r"[,\s]+(?=\w)", names.replace("\\", " "))]
        names_list = [n.strip(", #") for n in names_list if n.strip(", ")]
        level = len(module) - len(module.lstrip("."))
        if level:
            add(path.resolve().parents[level - 1], module[level:], names_list)
        else:
            add(root, module, names_list)
    return {p.resolve() for p in found}


def dependency_closure(files: Iterable[Path], root: Path = PROJECT_ROOT) -> list[Path]:
    """``files`` and every project file they import, transitively, sorted.

    A package's ``__init__.py`` counts as read (it may define what a kernel imports) but its own
    imports are not followed: an engine's ``__init__`` re-exports its Python drivers, which no
    kernel reads, and following them would tie every kernel to every driver of the project.
    """
    seen: set[Path] = set()
    # this guard is imported by kernel modules only to run it: no kernel reads it, and an edit of it
    # must not recompile every engine
    guard = Path(__file__).resolve()
    todo = [Path(f).resolve() for f in files if Path(f).resolve() != guard]
    while todo:
        path = todo.pop()
        if path in seen or path == guard:
            continue
        seen.add(path)
        if path.name != "__init__.py":
            todo.extend(imported_project_files(path, root) - seen)
    return sorted(seen)


def guard_kernels(package_dir: Path, extra: Iterable[Path] = (), root: Path = PROJECT_ROOT) -> bool:
    """:func:`drop_stale_cache` of ``package_dir`` with every file its kernel modules read (and ``extra``)."""
    kernels = [p for p in sorted(Path(package_dir).glob("*.py")) if compiles_kernels(p)]
    return drop_stale_cache(Path(package_dir), dependency_closure([*kernels, *extra], root))


def _probe() -> None:  # stands in for a kernel of the guarded package when asking numba where it caches
    pass


def numba_cache_dir(package_dir: Path) -> str | None:
    """The directory numba caches ``package_dir``'s kernels in (NUMBA_CACHE_DIR and locators honoured)."""
    try:
        from numba.core.caching import FunctionCache

        # numba picks the directory from the defining file: a probe "defined" in package_dir (any file of
        # the folder: a namespace package such as the bots' has no __init__.py, and numba wants a real file)
        init = package_dir / "__init__.py"
        defining = init if init.is_file() else min(package_dir.glob("*.py"), default=init)
        code = _probe.__code__.replace(co_filename=str(defining))
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
