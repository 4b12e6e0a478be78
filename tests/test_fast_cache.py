"""The numba cache guard (simcore.games.dreamscape.fast.cache): an edit in any file the kernels read drops the cache."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from simcore.games.dreamscape.fast import cache


def test_dependencies_are_every_kernel_module_and_the_rule_files():
    names = {p.name for p in cache.dependency_files()}
    kernel_modules = {"jit.py", "layout.py", "scratch.py", "zones.py", "chains.py", "features.py", "decisions.py",
                      "script.py", "prefix.py", "kernels.py", "search.py", "isearch.py", "batch.py", "strategies.py",
                      "encoding.py", "value.py", "value_games.py"}
    # the rule files, and the random streams every game's fast engine shares (simcore/fast_rng.py)
    assert names == kernel_modules | {"rules.py", "scoring.py", "cards.py", "fast_rng.py"}
    # every module that compiles with numba is guarded; pure-Python drivers are not
    for path in Path(cache.__file__).parent.glob("*.py"):
        uses_numba = "@kernel" in path.read_text() or "@njit" in path.read_text() or "cfunc(" in path.read_text()
        if uses_numba:
            assert path.name in names, path.name


def test_package_import_left_a_current_stamp():
    stamp = Path(cache.numba_cache_dir()) / cache.STAMP_NAME
    assert stamp.read_text(encoding="ascii") == cache.digest_of(cache.dependency_files())


def _touch(cache_dir: Path, names: list[str]) -> None:
    for name in names:
        (cache_dir / name).write_bytes(b"x")


def test_guard_drops_the_caches_of_every_module_when_one_dependency_changes(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "consts.py").write_text("K = 1\n")
    (pkg / "kern.py").write_text("from pkg.consts import K\n")
    extra = tmp_path / "rules.py"  # a dependency outside the package
    extra.write_text("CAP = 10\n")
    deps = sorted(pkg.glob("*.py")) + [extra]
    cdir = tmp_path / "cache"
    cdir.mkdir()
    files = ["kern.f-3.py311.nbi", "kern.f-3.py311.1.nbc", "consts.g-1.py311.nbi", "other.h-1.py311.nbi"]
    _touch(cdir, files)

    assert cache.drop_stale_cache(pkg, deps, str(cdir))  # no stamp yet: dropped
    assert sorted(os.listdir(cdir)) == sorted([cache.STAMP_NAME, "other.h-1.py311.nbi"])  # not a module of pkg

    _touch(cdir, files)
    assert not cache.drop_stale_cache(pkg, deps, str(cdir))  # nothing changed: kept
    assert set(files) <= set(os.listdir(cdir))

    (pkg / "consts.py").write_text("K = 2\n")  # kern.py itself unchanged
    assert cache.drop_stale_cache(pkg, deps, str(cdir))
    assert sorted(os.listdir(cdir)) == sorted([cache.STAMP_NAME, "other.h-1.py311.nbi"])

    _touch(cdir, files)
    extra.write_text("CAP = 11\n")
    assert cache.drop_stale_cache(pkg, deps, str(cdir))
    assert not (cdir / "kern.f-3.py311.nbi").exists()


def test_a_cached_kernel_sees_an_edited_constant_of_another_file(tmp_path):
    """End to end with numba: without the guard the cached kernel keeps the old constant."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent("""
        import os
        from pathlib import Path
        from simcore.games.dreamscape.fast.cache import drop_stale_cache
        if not os.environ.get("NO_GUARD"):
            here = Path(__file__).parent
            drop_stale_cache(here, sorted(here.glob("*.py")))
    """))
    (pkg / "kern.py").write_text(textwrap.dedent("""
        from numba import njit
        from pkg.consts import K

        @njit(cache=True)
        def f():
            return K
    """))
    # the project root (the folder holding pyproject.toml), so the child imports simcore as the tests do
    root = next(p for p in Path(cache.__file__).resolve().parents if (p / "pyproject.toml").exists())

    def run(k: int, guard: bool = True) -> int:
        (pkg / "consts.py").write_text(f"K = {k}\n")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(root)]))
        env.pop("NUMBA_CACHE_DIR", None)
        if not guard:
            env["NO_GUARD"] = "1"
        out = subprocess.run([sys.executable, "-c", "import pkg.kern as m; print(m.f())"], env=env,
                             capture_output=True, text=True, check=True)
        return int(out.stdout)

    assert run(1) == 1
    assert run(2) == 2  # the guard dropped kern's cache: recompiled with the new constant
    assert run(3, guard=False) == 2  # numba alone loads the stale machine code
    assert list((pkg / "__pycache__").glob("kern.*.nbi"))  # the kernel was cached at all
