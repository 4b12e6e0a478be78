"""The numba cache guard (simcore.games.dreamscape.fast.cache): an edit in any file the kernels read drops the cache."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from simcore.games.dreamscape.fast import cache


def test_dependencies_are_every_kernel_module_and_the_rule_files():
    names = {p.name for p in cache.dependency_files()}
    kernel_modules = {"jit.py", "layout.py", "scratch.py", "zones.py", "chains.py", "features.py", "decisions.py",
                      "script.py", "prefix.py", "kernels.py", "search.py", "isearch.py", "batch.py", "strategies.py",
                      "encoding.py", "value.py", "value_games.py"}
    # the rule files, and the random streams every game's fast engine shares (simcore/fast_rng.py)
    assert kernel_modules | {"rules.py", "scoring.py", "cards.py", "fast_rng.py"} <= names
    # every module that compiles with numba is guarded; pure-Python drivers are not stamp roots
    for path in Path(cache.__file__).parent.glob("*.py"):
        uses_numba = "@kernel" in path.read_text() or "@njit" in path.read_text() or "cfunc(" in path.read_text()
        if uses_numba:
            assert path.name in names, path.name


def test_the_bots_kernels_are_stamped_with_the_layout_they_freeze():
    """The bug this guards: restricted bots froze fast/layout.py's offsets and kept them after it changed."""
    game = cache.HERE.parent  # simcore/games/dreamscape
    deps = set(cache.dependency_files(cache.BOTS))
    for kernel in ("bots/restricted.py", "bots/builtins.py", "bots/guard.py"):  # the bots' modules numba compiles
        assert game / kernel in deps
    for read in ("fast/layout.py", "fast/strategies.py", "fast/scratch.py", "rules.py", "cards.py"):
        assert game / read in deps  # imported by restricted.py: its offsets and kinds are frozen in


def test_every_folder_of_cached_kernels_is_guarded():
    """Every project folder whose modules numba caches is stamped with what its kernels read.

    The engines' folders are checked at run time (their import left a current stamp); scripts outside
    the package are checked to call the guard before they import numba.
    """
    from simcore import numba_cache
    from simcore.games.counting_zzzzs.play import fast_engine
    from simcore.games.pleasant_dreams import fast as pd_fast  # noqa: F401 - its import runs its guard
    import simcore.games.dreamscape.bots.restricted  # noqa: F401

    fast_engine()
    root = numba_cache.PROJECT_ROOT
    cached = [p for top in ("simcore", "research", "templates") for p in (root / top).rglob("*.py")
              if "cache=True" in p.read_text(encoding="utf-8") or "@kernel" in p.read_text(encoding="utf-8")]
    # a cached module that imports no project file needs no stamp: numba's own check of its file suffices
    reads_others = {p for p in cached if numba_cache.dependency_closure([p]) != [p.resolve()]}
    folders = {p.parent for p in reads_others}
    assert root / "simcore/interrupts.py" in cached and root / "simcore/interrupts.py" not in reads_others
    assert {root / "simcore", root / "simcore/games/dreamscape/fast", root / "simcore/games/dreamscape/bots",
            root / "simcore/games/pleasant_dreams", root / "simcore/games/counting_zzzzs"} <= folders
    for folder in sorted(folders):
        if folder.is_relative_to(root / "simcore"):
            stamp = Path(numba_cache.numba_cache_dir(folder)) / numba_cache.STAMP_NAME
            kernels = [p for p in sorted(folder.glob("*.py")) if numba_cache.compiles_kernels(p)]
            expected = numba_cache.digest_of(numba_cache.dependency_closure(kernels))
            assert stamp.read_text(encoding="ascii") == expected, folder
        else:
            for script in reads_others & set(folder.glob("*.py")):
                text = script.read_text(encoding="utf-8")
                assert "guard_kernels(Path(__file__)" in text, script
                assert text.index("guard_kernels(Path(__file__)") < text.index("from numba import"), script


def test_imports_are_followed_to_the_files_they_name(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib/__init__.py").write_text("from lib.unread import X\n")  # an __init__ is read, not followed
    (tmp_path / "lib/consts.py").write_text("K = 1\n")
    (tmp_path / "lib/deep.py").write_text("from .consts import K\n")
    (tmp_path / "lib/unread.py").write_text("X = 0\n")
    (tmp_path / "game").mkdir()
    (tmp_path / "game/rules.py").write_text("import lib.deep\nimport numpy\n")  # numpy: not a project file
    (tmp_path / "game/kern.py").write_text("from numba import njit\nfrom . import rules\nfrom lib import consts\n")
    from simcore import numba_cache

    direct = numba_cache.imported_project_files(tmp_path / "game/kern.py", tmp_path)
    assert direct == {(tmp_path / "game/rules.py").resolve(), (tmp_path / "lib/__init__.py").resolve(),
                      (tmp_path / "lib/consts.py").resolve()}
    closure = {p.relative_to(tmp_path.resolve()).as_posix()
               for p in numba_cache.dependency_closure([tmp_path / "game/kern.py"], tmp_path)}
    assert closure == {"game/kern.py", "game/rules.py", "lib/__init__.py", "lib/consts.py", "lib/deep.py"}


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


@pytest.mark.parametrize("where", ["same package", "other package"])
def test_a_cached_kernel_sees_an_edited_constant_of_another_file(where, tmp_path):
    """End to end with numba: without the guard the cached kernel keeps the old constant.

    "other package" is the stale-bots case: the constant lives in another folder, which the guard
    finds only by following the kernel's imports.
    """
    lib = "pkg" if where == "same package" else "lib"
    for name in {"pkg", lib}:
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("")
    (tmp_path / "pkg/__init__.py").write_text(textwrap.dedent(f"""
        import os
        from pathlib import Path
        from simcore.numba_cache import guard_kernels
        if not os.environ.get("NO_GUARD"):
            guard_kernels(Path(__file__).parent, root=Path({str(tmp_path)!r}))
    """))
    (tmp_path / "pkg/kern.py").write_text(textwrap.dedent(f"""
        from numba import njit
        from {lib}.consts import K

        @njit(cache=True)
        def f():
            return K
    """))
    # the project root (the folder holding pyproject.toml), so the child imports simcore as the tests do
    root = next(p for p in Path(cache.__file__).resolve().parents if (p / "pyproject.toml").exists())

    def run(k: int, guard: bool = True) -> int:
        (tmp_path / lib / "consts.py").write_text(f"K = {k}\n")
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
    assert list((tmp_path / "pkg/__pycache__").glob("kern.*.nbi"))  # the kernel was cached at all


def test_the_import_reader_finds_every_import_python_itself_sees():
    """The guard reads imports with patterns (fast at every start); ast, Python's own parser, is the reference."""
    import ast

    from simcore import numba_cache

    root = numba_cache.PROJECT_ROOT

    def by_ast(path: Path) -> set[Path]:
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                pairs = [(root, alias.name, []) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = path.resolve().parents[node.level - 1] if node.level else root
                pairs = [(base, node.module or "", [alias.name for alias in node.names])]
            else:
                continue
            for base, dotted, names in pairs:
                target = base.joinpath(*dotted.split(".")) if dotted else base
                found |= {p for p in (target.with_suffix(".py"), target / "__init__.py") if dotted and p.is_file()}
                found |= {target / f"{name}.py" for name in names if (target / f"{name}.py").is_file()}
        return {p.resolve() for p in found}

    files = [p for top in ("simcore", "research", "templates") for p in (root / top).rglob("*.py")]
    assert len(files) > 100
    for path in files:
        assert by_ast(path) <= numba_cache.imported_project_files(path), path
