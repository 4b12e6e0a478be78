"""The linear bot: an option's score is a weighted sum of its afterstate features.

Weights live in a TOML file, keyed by feature name (``simcore.games.dreamscape.bots.features``)::

    name = "my weights"
    [weights]
    delta = 1.0          # immediate change of own score
    budget_after = 0.25  # Z cards left to spend

Missing features weigh 0. ``--strategy linear:FILE.toml`` plays it;
``dreamscape tune`` writes such a file.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from simcore.files import as_weight, parse_toml, read_text_file, shown, write_file
from simcore.games.dreamscape.fast.strategies import register_linear
from simcore.games.dreamscape.bots.errors import StrategyError
from simcore.games.dreamscape.bots.features import N_FEATURES, NAMES

FEATURE_INDEX = {name: i for i, name in NAMES.items()}


def weights_from_mapping(mapping: dict, source: str) -> np.ndarray:
    """The weight vector of a ``[weights]`` table (feature name -> number; missing names weigh 0).

    ``source`` names the table's origin in the StrategyError of a bad entry.
    """
    if not isinstance(mapping, dict):
        raise StrategyError(f"{source}: [weights] must be a table of feature = number")
    w = np.zeros(N_FEATURES)
    for key, value in mapping.items():
        if key not in FEATURE_INDEX:
            raise StrategyError(f"{source}: unknown feature {shown(key)} (known: {', '.join(sorted(FEATURE_INDEX))})")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise StrategyError(f"{source}: weight of {key} must be a number, got {shown(value)}")
        weight = as_weight(value)
        if not math.isfinite(weight):  # TOML writes nan and inf as floats; a score must stay finite
            raise StrategyError(f"{source}: weight of {key} must be a finite number, got {shown(value)}")
        w[FEATURE_INDEX[key]] = weight
    return w


def read_weights(path: str | Path) -> tuple[str, np.ndarray]:
    """(name, weight vector) of a weights file; StrategyError in one line if it cannot be used."""
    path = Path(path)
    text = read_text_file(path, "linear weights file", StrategyError)
    data = parse_toml(text, f"linear weights file {path}", StrategyError)  # nesting and integer-length limits
    if "weights" not in data:
        raise StrategyError(f"linear weights file {path} has no [weights] table")
    # a key outside [weights] (a misplaced weight, a table header typo like [weights.x]) would otherwise be
    # dropped without a word and the bot would play with that weight at 0
    unknown = sorted(set(data) - {"name", "weights"})
    if unknown:
        raise StrategyError(f"linear weights file {path}: unknown key {shown(unknown[0])} outside [weights] "
                            "(a weights file has only name = \"...\" and a [weights] table)")
    return str(data.get("name", path.stem)), weights_from_mapping(data["weights"], str(path))


def write_weights(path: str | Path, weights: np.ndarray, name: str, comment: str = "") -> None:
    """Write a weights file :func:`read_weights` reads back (non-zero weights only, ``comment`` as # lines)."""
    lines = [f"# {line}" for line in comment.splitlines()] if comment else []
    lines += [f'name = "{name}"', "", "[weights]"]
    for i, value in enumerate(weights):
        if value != 0.0 and i in NAMES:
            lines.append(f"{NAMES[i]} = {float(value):.6g}")
    text = ("\n".join(lines) + "\n").encode("utf-8")
    write_file(path, lambda fh: fh.write(text), "weights file", StrategyError)  # whole or not at all, one-line errors


def load_linear(path_text: str) -> str:
    """Register the linear bot of a weights file; returns its strategy name."""
    name, weights = read_weights(path_text)
    registered = f"linear:{path_text}"
    # The engine scores dot(weights, features) itself (no strategy call, nothing to compile).
    register_linear(registered, weights, f"linear bot '{name}' ({path_text})")
    return registered
