"""Project Dreamscape's strategies shipped to Dask workers, and a worker's engine readied.

Its wing's ``strategy_shipping`` hook (:class:`analyses.games.StrategyShipping`, :data:`SHIPPING`):
a Dask backend (:mod:`analyses.study.backends`) sends the recipes of the study's strategies with its
tasks, so strategy files need not exist on the workers and decorated names resolve there too.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analyses.study.model import ChunkTask, RunConfig, StudyError

_INSTALLED: dict[str, str] = {}  # strategy name -> fingerprint of the recipe installed in this process
_SOURCE_MODULES: dict[str, str] = {}  # module name -> sha of the source executed in this process


def engine_cache_stats(dispatcher=None) -> dict[str, int]:
    """``cache_hits`` / ``cache_misses`` (compilations) of the engine kernel in this process."""
    if dispatcher is None:
        from simcore.games.dreamscape.fast.batch import run_chunk as dispatcher
    stats = dispatcher.stats
    return {"cache_hits": int(sum(stats.cache_hits.values())), "cache_misses": int(sum(stats.cache_misses.values()))}


# # A study's configurations name registered strategies: built-ins, linear:FILE
# bots, strategies of user files (by spec or by the name their @strategy
# decorator gave them). The driver describes each as a recipe (where its
# function comes from, its engine mode, weights, decision kinds); a worker
# rebuilds the same registration before its first chunk, so strategy files
# need not exist on the workers and decorated names resolve there too.


@dataclass(frozen=True)
class StrategyRecipe:
    """How to register one strategy exactly as this process has it."""

    name: str
    kind: str  # "import" (importable by module name) | "source" (a user file's text) | "pickle" (by value)
    module: str
    qualname: str
    source: str | None  # the file's text for kind "source"
    filename: str  # file name only (for tracebacks in the worker)
    payload: bytes | None  # kind "pickle": the function pickled by value (cloudpickle)
    code: str  # hash of the function's bytecode, constants and names
    mode: int
    weights: bytes
    playouts: int
    policy: int
    decides: int | None
    description: str

    @property
    def fingerprint(self) -> str:
        h = hashlib.sha256()
        for part in (self.kind, self.module, self.qualname, self.source or "", self.code, str(self.mode),
                     str(self.playouts), str(self.policy), str(self.decides)):
            h.update(part.encode())
            h.update(b"\0")
        h.update(self.weights)
        return h.hexdigest()


def strategy_recipe(name: str) -> StrategyRecipe | None:
    """The recipe of a strategy registered in this process (None if it is not registered)."""
    import numpy as np

    import simcore.games.dreamscape.bots.builtins  # noqa: F401 - built-ins registered, as load_strategy does
    from simcore.games.dreamscape.fast import strategies as fs

    try:
        compiled = fs.get_strategy(name)
    except KeyError:
        return None
    from simcore.games.dreamscape.bots.guard import source_function

    py = source_function(compiled)  # a user strategy's own function, not its guard's
    if py is None:  # pragma: no cover - numba internals moved
        return None
    module = sys.modules.get(py.__module__)
    module_file = getattr(module, "__file__", None)
    payload = source = None
    if module is not None and py.__module__ != "__main__" and _importable(py.__module__):
        kind = "import"
    elif py.__module__ != "__main__" and module_file and Path(module_file).is_file():
        kind, source = "source", Path(module_file).read_text("utf-8")
    else:  # a script's or notebook's own function: sent by value
        try:
            import cloudpickle

            kind, payload = "pickle", cloudpickle.dumps(py)
        except Exception:  # noqa: BLE001 - not picklable: the chunk function must load it itself
            return None
    weights, playouts, policy = fs.get_params(name)
    decides = fs.get_decides(name) if hasattr(fs, "get_decides") else None
    return StrategyRecipe(
        name=name,
        kind=kind,
        module=py.__module__,
        qualname=py.__qualname__,
        source=source,
        filename=Path(module_file).name if module_file else "",
        payload=payload,
        code=_code_hash(py.__code__),
        mode=int(fs.get_mode(name)),
        weights=np.ascontiguousarray(weights, dtype=np.float64).tobytes(),
        playouts=int(playouts),
        policy=int(policy),
        decides=None if decides is None else int(decides),
        description=fs.describe(name),
    )


def strategy_recipes(specs) -> dict[str, StrategyRecipe]:
    """Recipes of the ``--strategy`` values ``specs``, keyed by spec, loading them here first.

    A spec is what a :class:`~analyses.study.model.RunConfig` holds (``greedy``,
    ``linear:FILE.toml``, ``path/to/bot.py:function``); its recipe describes
    the strategy it registers here (for a file whose ``@strategy`` decorator
    names it, under that name). Specs whose strategy cannot be described (a
    function defined interactively) are left out: the chunk function loads
    them in the worker itself.
    """
    out = {}
    for spec in sorted(set(specs)):
        from simcore.games.dreamscape.bots.api import load_strategies  # numba loads with the first strategy

        (name,) = load_strategies([spec])
        recipe = strategy_recipe(name)
        if recipe is not None:
            out[spec] = recipe
    return out


def _code_hash(code) -> str:
    """Hash of a code object's bytecode, names and constants (nested functions too), not its location."""
    h = hashlib.sha256(code.co_code)
    h.update(repr(code.co_names).encode())
    for const in code.co_consts:
        h.update((_code_hash(const) if hasattr(const, "co_code") else repr(const)).encode())
    return h.hexdigest()


def _importable(module_name: str) -> bool:
    if module_name.startswith("dreamscape_user_strategy_"):
        return False
    try:
        return importlib.util.find_spec(module_name) is not None
    except (ImportError, ValueError):
        return False


def install_strategies(recipes: dict[str, StrategyRecipe]) -> None:
    """Register every recipe's strategy in this process unless it is already exactly so.

    The strategy is registered under the driver's name and, when the spec is
    another text (a decorated function of a file), under the spec too, so
    that loading the spec here finds it without reading any file.
    """
    for spec, recipe in recipes.items():
        fp = recipe.fingerprint
        if _INSTALLED.get(spec) == fp:
            continue
        for name in dict.fromkeys((recipe.name, spec)):
            here = strategy_recipe(name)
            if here is None or here.fingerprint != fp:
                _register_recipe(recipe, as_name=name)
                here = strategy_recipe(name)
                if here is None or here.fingerprint != fp:
                    raise StudyError(
                        f"strategy {spec!r} could not be set up in Dask worker pid {os.getpid()} as the driver has it"
                    )
        _INSTALLED[spec] = fp


def _register_recipe(recipe: StrategyRecipe, as_name: str) -> None:
    import numpy as np
    from numba.core.ccallback import CFunc

    from simcore.games.dreamscape.fast import strategies as fs

    if as_name != recipe.name and recipe.name in fs.strategy_names():
        fn: Any = fs.get_strategy(recipe.name)  # an alias: the compiled function itself, no recompiling
    else:
        fn = _recipe_function(recipe)
        if as_name in fs.strategy_names():  # the module's decorator may have registered it just now
            here = strategy_recipe(as_name)
            if here is not None and here.fingerprint == recipe.fingerprint:
                return
    kwargs = {}
    if recipe.decides is not None and recipe.decides != getattr(fs, "ALL_KINDS", None):
        kwargs["decides"] = [k for k in range(recipe.decides.bit_length()) if recipe.decides >> k & 1]
    weights = np.frombuffer(recipe.weights, dtype=np.float64).copy()
    if not isinstance(fn, CFunc):  # a user's function: guarded in the worker as in the driver
        from simcore.games.dreamscape.bots.guard import guard_strategy

        fn = guard_strategy(as_name, fn)
    fs.register(as_name, fn, recipe.description, mode=recipe.mode, weights=weights,  # the driver's record, exactly
                playouts=recipe.playouts, policy=recipe.policy, **kwargs)


def _recipe_function(recipe: StrategyRecipe):
    if recipe.kind == "pickle":
        import cloudpickle

        return cloudpickle.loads(recipe.payload)
    fn: Any = _recipe_module(recipe)
    for part in recipe.qualname.split("."):
        fn = getattr(fn, part)
    return fn


def _recipe_module(recipe: StrategyRecipe):
    if recipe.kind == "import":
        return importlib.import_module(recipe.module)
    sha = hashlib.sha256(recipe.source.encode()).hexdigest()
    if _SOURCE_MODULES.get(recipe.module) == sha and recipe.module in sys.modules:
        return sys.modules[recipe.module]
    folder = Path(tempfile.gettempdir()) / "dreamscape-strategies" / sha[:16]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (recipe.filename or "strategy.py")
    if not path.is_file():
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(recipe.source, "utf-8")
        os.replace(tmp, path)
    spec = importlib.util.spec_from_file_location(recipe.module, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[recipe.module] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(recipe.module, None)
        raise
    _SOURCE_MODULES[recipe.module] = sha
    return module


def warm_worker() -> dict:
    """Load (or compile) the engine in this worker with one game; its kernel's cache counts."""
    from analyses.study.chunks import play_chunk
    from simcore.games.dreamscape.fast.batch import run_chunk

    play_chunk(ChunkTask(RunConfig("base", 2, ("greedy", "greedy")), 0, 0, 1))
    return engine_cache_stats(run_chunk)


class DreamscapeShipping:
    """Project Dreamscape's :class:`analyses.games.StrategyShipping`."""

    recipes = staticmethod(lambda specs: strategy_recipes(specs))
    install = staticmethod(lambda recipes: install_strategies(recipes))
    warm_worker = staticmethod(warm_worker)


SHIPPING = DreamscapeShipping()
