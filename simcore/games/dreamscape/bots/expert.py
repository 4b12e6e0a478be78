"""The expert bot: a linear model of the afterstate features per decision kind and game phase.

An option of a ``kind`` decision scores ``dot(table[kind, phase], features)``,
where the phase is early / mid / late by the fraction of the Sleep Deck left
(more than 2/3, more than 1/3, the rest). The engine computes it itself
(``Mode.EXPERT``), so the bot costs about what ``linear`` costs. The tables
are trained by ``dreamscape train`` (:mod:`analyses.games.dreamscape.train`): expert iteration,
the search player's option values distilled into the table.

Files (TOML), one table each::

    name = "expert-3p-base"
    players = 3
    variant = "base"

    [buy.early]          # decision kind . phase
    delta = 0.0123       # feature name (simcore.games.dreamscape.bots.features.NAMES) = weight
    ...

Missing kinds, phases or features weigh 0. ``--strategy expert`` plays the
shipped table of the configuration being played (``simcore/games/dreamscape/bots/data/expert/``,
one per player count and rules option); ``--strategy expert:FILE.toml`` plays
one file's table everywhere.

A shipped table may have a rows file of the same name in ``data/expert/rows/``: weights fitted where no game
of the printed deck reads (an expansion type's decision rows and its ``card_``/``perform_`` slots, R1.4),
overlaid on the table when ``expert`` plays it (:func:`overlay_rows`). ``expert:FILE.toml`` plays the file
alone.
"""
from __future__ import annotations

import math
from functools import partial
from pathlib import Path

import numpy as np

from simcore.files import as_weight, read_toml_file, shown, write_file
from simcore.games.dreamscape.fast.scratch import EXPERT_PHASES, EXPERT_ROWS, EXPERT_WIDTH
from simcore.games.dreamscape.fast.strategies import register_expert
from simcore.games.dreamscape.cards import CODES, EXPANSION_TYPES
from simcore.games.dreamscape.rules import DECISION_ID, DECISION_KINDS, Options
from simcore.games.dreamscape.variants import parse_variant
from simcore.games.dreamscape.bots.errors import StrategyError
from simcore.games.dreamscape.bots.features import N_FEATURES, NAMES

PHASES = ("early", "mid", "late")
assert len(PHASES) == EXPERT_PHASES
FEATURE_INDEX = {name: i for i, name in NAMES.items()}
SHIPPED_DIR = Path(__file__).with_name("data") / "expert"
# Weights fitted where the printed deck never reads (the expansion types', R1.4: :func:`never_read_by_printed_deck`),
# overlaid on the shipped table of the same file name (``rows/3p-base.toml`` on 3p-base.toml). Every game of the
# printed deck plays as before (docs/research/2026-11-28-expert-changed-games.md).
ROWS_DIR = SHIPPED_DIR / "rows"
DEFAULT_KEY = (3, False, False)  # played where no shipped table fits (e.g. a solo game without its own)


def row_index(kind: str | int, phase: str | int) -> int:
    """The table row of a decision kind (name or id) and phase (name or 0..2)."""
    k = DECISION_ID[kind] if isinstance(kind, str) else int(kind)
    p = PHASES.index(phase) if isinstance(phase, str) else int(phase)
    return k * EXPERT_PHASES + p


def empty_table() -> np.ndarray:
    """A table of zeros (every option ties: the bot plays like ``random``)."""
    return np.zeros(EXPERT_WIDTH)


def table_from_linear(weights: np.ndarray) -> np.ndarray:
    """The table that plays exactly as the linear bot of ``weights`` (every row the same)."""
    return np.tile(np.asarray(weights, dtype=np.float64), EXPERT_ROWS)


def config_key(players: int, options: Options) -> tuple[int, bool, bool]:
    """The key of a configuration's table: (players, sleep_token, shifting_tokens)."""
    return int(players), bool(options.sleep_token), bool(options.shifting_tokens)


def variant_of(options: Options) -> str:
    """The rules option's variant text (``base``, ``sleep-token``, ...)."""
    return options.label()


def read_table(path: str | Path) -> tuple[dict, np.ndarray]:
    """(header fields, table) of an expert file; StrategyError in one line if it cannot be used."""
    path = Path(path)
    # size, nesting and integer-length limits, a pipe read once (simcore.files); one line naming the file
    data = read_toml_file(path, "expert file", StrategyError, label=f"expert file {path}")
    table = empty_table()
    header = {}
    for key, value in data.items():
        if not isinstance(value, dict):
            header[key] = value
            continue
        if key not in DECISION_ID:
            raise StrategyError(f"expert file {path}: unknown decision kind [{shown(key)[1:-1]}] (known: {', '.join(DECISION_KINDS)})")
        for phase, weights in value.items():
            if phase not in PHASES or not isinstance(weights, dict):
                raise StrategyError(f"expert file {path}: [{key}.{shown(phase)[1:-1]}] is not a phase table (phases: {', '.join(PHASES)})")
            base = row_index(key, phase) * N_FEATURES
            for name, w in weights.items():
                if name not in FEATURE_INDEX:
                    raise StrategyError(f"expert file {path}: [{key}.{phase}] unknown feature {shown(name)}")
                if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(as_weight(w)):
                    raise StrategyError(f"expert file {path}: [{key}.{phase}] {name} must be a finite number, "
                                        f"got {shown(w)}")
                table[base + FEATURE_INDEX[name]] = as_weight(w)
    if not header.get("name"):
        header["name"] = path.stem
    return header, table


def write_table(path: str | Path, table: np.ndarray, header: dict, comment: str = "") -> None:
    """Write a file :func:`read_table` reads back (non-zero weights only; ``comment`` as # lines)."""
    lines = [f"# {line}" for line in comment.splitlines()] if comment else []
    for key, value in header.items():
        lines.append(f"{key} = {_toml_value(value)}")
    for kind in DECISION_KINDS:
        for phase in PHASES:
            base = row_index(kind, phase) * N_FEATURES
            row = table[base : base + N_FEATURES]
            if not np.any(row):
                continue
            lines += ["", f"[{kind}.{phase}]"]
            lines += [f"{NAMES[j]} = {float(row[j])!r}" for j in range(N_FEATURES) if row[j] != 0.0 and j in NAMES]
    text = ("\n".join(lines) + "\n").encode("utf-8")
    write_file(path, lambda fh: fh.write(text), "expert file", StrategyError)  # whole or not at all, one-line errors


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


# The decisions only an expansion type asks (R6.9 Invasive Dreaming, R6.10 Empowered Dreaming, R6.11 Paradigm
# Shift; the expansion types are never in the printed deck, R1.4).
EXPANSION_DECISIONS = ("invasive_dreaming", "empowered_dreaming", "paradigm_shift")


def never_read_by_printed_deck() -> np.ndarray:
    """Mask of the table weights no game of the printed deck reads (R1.3, R1.4): every weight of the
    :data:`EXPANSION_DECISIONS`' rows (never asked), and in every row the ``card_XX`` / ``perform_XX`` slots of
    the expansion types (always 0 there, and 0.0 x weight adds exactly 0.0 to an option's score)."""
    mask = np.zeros(EXPERT_WIDTH, dtype=bool)
    for kind in EXPANSION_DECISIONS:
        start = row_index(kind, 0) * N_FEATURES
        mask[start : start + len(PHASES) * N_FEATURES] = True
    slots = [FEATURE_INDEX[f"{prefix}_{CODES[t]}"] for t in EXPANSION_TYPES for prefix in ("card", "perform")]
    for row in range(EXPERT_WIDTH // N_FEATURES):
        mask[[row * N_FEATURES + j for j in slots]] = True
    return mask


def overlay_rows(table: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``table`` with the weights ``rows`` fits among those :func:`never_read_by_printed_deck` marks.

    A file gives a weight of 0 to whatever it leaves out, so what counts as fitted is: the whole rows of an
    expansion decision where ``rows`` weighs any of them (a fitted row's zeros are fitted zeros), and
    elsewhere each marked slot ``rows`` weighs. Everything else keeps the table's weight.
    """
    out = table.copy()
    mask = never_read_by_printed_deck() & (rows != 0.0)
    width = len(PHASES) * N_FEATURES
    for kind in EXPANSION_DECISIONS:
        start = row_index(kind, 0) * N_FEATURES
        if np.any(rows[start : start + width]):
            mask[start : start + width] = True
    out[mask] = rows[mask]
    return out


def shipped_table(path: Path) -> np.ndarray:
    """The table the shipped ``expert`` plays for one shipped file: the file, with its fitted rows
    (``ROWS_DIR / path.name``) overlaid where there are any."""
    table = read_table(path)[1]
    rows = ROWS_DIR / path.name
    return overlay_rows(table, read_table(rows)[1]) if rows.exists() else table


def shipped_tables() -> dict[tuple[int, bool, bool], tuple[Path, np.ndarray]]:
    """The shipped tables by configuration key (files ``simcore/games/dreamscape/bots/data/expert/*.toml``,
    with their fitted rows overlaid: :func:`shipped_table`)."""
    out = {}
    for path in sorted(SHIPPED_DIR.glob("*.toml")):
        header, _ = read_table(path)
        options = parse_variant(str(header.get("variant", "base"))).options
        out[config_key(int(header["players"]), options)] = (path, shipped_table(path))
    return out


def shipped_key(path: Path) -> tuple[int, bool, bool]:
    """The configuration key a shipped file's name gives (``3p-sleep-token.toml``: 3 players, Sleep Token).

    Registration goes by the name, without reading the file (:func:`register_shipped`);
    tests/test_expert.py checks that every file's header says the same.
    """
    players, _, variant = path.stem.partition("p-")
    return config_key(int(players), parse_variant(variant).options)


def table_of(path: Path) -> np.ndarray:
    """The table of one shipped file, its fitted rows overlaid (read when a run first plays it)."""
    return shipped_table(path)


def register_shipped() -> bool:
    """Register ``expert`` with the shipped tables (False when none is shipped).

    Each file is read the first time its configuration is played, not here: every
    command registers the built-ins at start-up (issue #17, start fast).
    """
    tables = {shipped_key(path): partial(table_of, path) for path in sorted(SHIPPED_DIR.glob("*.toml"))}
    if not tables:
        return False
    default = DEFAULT_KEY if DEFAULT_KEY in tables else sorted(tables)[0]
    register_expert("expert", tables, default, builtin=True,
                    description=f"expert bot: search distilled per decision kind and phase ({len(tables)} tables, one "
                                "per player count and rules option); yours: expert:FILE.toml")
    return True


def load_expert(path_text: str) -> str:
    """Register the expert bot of one table file (played in every configuration); returns its name."""
    _, table = read_table(path_text)
    name = f"expert:{path_text}"
    register_expert(name, {DEFAULT_KEY: table}, DEFAULT_KEY, f"expert table {path_text}")
    return name
