"""The sharp bot (issue #42, item 4): strong plus a linear correction per decision kind.

``sharp`` plays exactly as ``strong`` (:mod:`simcore.games.dreamscape.bots.strong`: a one-turn lookahead in
the late game on a learned value), except that at the decision kinds its correction covers an option's
end-of-turn value is ``value + coef[kind] . view``: the same 163-input view strong's value reads
(:func:`simcore.games.dreamscape.fast.value.encode_view`), so the engine has it at hand. An option whose turn
ends the game keeps its outcome, as in strong.

The correction was fitted by ``research/expert_iteration.py fit LABELS --inputs view --only-kinds
lucid_dreaming,interrupted_sleep --save FILE`` on labels from search of strong's own late decisions (32
playouts of ``search:strong`` per option, 520 strong self-play games, 3 players base): a pairwise logistic
ranking per kind on the differences between each option and strong's pick, kept per kind where it lowered the
regret on validation games, and shipped at those two kinds only: the fit also kept perform, where it did not
lower the held-out regret and lost games head to head (docs/research/2026-11-28-expert-iteration.md,
docs/research/2026-11-28-sharp.md).

Files (``.npz``, numpy arrays, no pickle), ``simcore/games/dreamscape/bots/data/sharp/3p-base.npz``::

    kinds   int64[K]           the corrected decision kinds (ids of rules.DECISION_KINDS, rising)
    coef    float64[K, N_VIEW] each kind's coefficient of each view input
    meta    str                JSON: format, players, variant, inputs, the sha256 of the arrays, the sha256 of
                               the strong value it corrects (``strong value``), and how it was fitted

A correction applies only where strong plays the very value it was fitted on (same sha256): in every other
configuration (other player counts, rules options, the single-swap decks' values) ``sharp`` plays strong's
row unchanged, i.e. exactly strong's games, which :func:`corrected_configurations` and the bots list say.
A file that cannot be read, misses an array, has the wrong shapes, unknown kinds, non-finite numbers or a
checksum that does not match is refused with one line (:class:`StrategyError`).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np

from simcore.files import write_file
from simcore.games.dreamscape.bots.errors import StrategyError
from simcore.games.dreamscape.bots.strong import WORLDS, StrongTables, read_npz, read_value, shipped_values, STAND_IN
from simcore.games.dreamscape.fast.strategies import get_record, register_strong
from simcore.games.dreamscape.fast.value import N_KINDS, N_VIEW, pack_correction
from simcore.games.dreamscape.variants import parse_variant

SHIPPED_DIR = Path(__file__).with_name("data") / "sharp"
FORMAT = 1
MAX_BYTES = 16 * 1024 * 1024  # a correction of every kind is about 20 kB


class Correction:
    """A fitted correction: kind id -> N_VIEW coefficients, and its description (``meta``)."""

    def __init__(self, kinds, coef, meta: dict):
        self.kinds = np.ascontiguousarray(kinds, dtype=np.int64)
        self.coef = np.ascontiguousarray(coef, dtype=np.float64).reshape(len(self.kinds), N_VIEW)
        self.meta = dict(meta)

    def digest(self) -> str:
        """sha256 over the arrays (what ``meta["sha256"]`` keeps)."""
        h = hashlib.sha256()
        for name, a in (("kinds", self.kinds), ("coef", self.coef)):
            h.update(name.encode())
            h.update(np.ascontiguousarray(a).tobytes())
        return h.hexdigest()

    def by_kind(self) -> dict[int, np.ndarray]:
        return {int(k): self.coef[i] for i, k in enumerate(self.kinds)}

    def packed(self) -> np.ndarray:
        """The engine's block behind strong's trees (:func:`simcore.games.dreamscape.fast.value.pack_correction`)."""
        return pack_correction(self.by_kind())

    def term(self, kind: int, view) -> float:
        """The correction of ``kind`` at ``view``, summed as the engine sums it (input order, from 0.0)."""
        where = np.flatnonzero(self.kinds == kind)
        if where.size == 0:
            return 0.0
        coef = self.coef[where[0]]
        total = 0.0
        for j in range(N_VIEW):
            total += float(coef[j]) * float(view[j])
        return total


def write_correction(path: str | Path, correction: Correction) -> None:
    """Write ``correction`` (meta gets the format, inputs and checksum), whole or not at all."""
    meta = dict(correction.meta, format=FORMAT, inputs=N_VIEW, sha256=correction.digest())
    write_file(Path(path), lambda fh: np.savez_compressed(
        fh, kinds=correction.kinds, coef=correction.coef, meta=np.array(json.dumps(meta, sort_keys=True))),
        "sharp correction file", StrategyError)


def read_correction(path: str | Path) -> Correction:
    """The correction of a sharp file; StrategyError in one line if it cannot be used (module docstring)."""
    path = Path(path)
    what = f"sharp correction file {path}"
    arrays, meta = read_npz(path, what, ("kinds", "coef"), "correction file", FORMAT, MAX_BYTES)
    kinds, coef = arrays["kinds"], arrays["coef"]
    if kinds.ndim != 1 or kinds.dtype.kind not in "iu":
        raise StrategyError(f"{what}: kinds must be one row of whole numbers")
    if coef.dtype.kind != "f" or coef.shape != (kinds.shape[0], N_VIEW):
        raise StrategyError(f"{what}: coef must be {kinds.shape[0]} rows of {N_VIEW} numbers, got shape {coef.shape}")
    if np.any((kinds < 0) | (kinds >= N_KINDS)) or np.any(np.diff(kinds) <= 0):
        raise StrategyError(f"{what}: kinds must be distinct decision kind ids 0..{N_KINDS - 1}, rising")
    if not np.all(np.isfinite(coef)):
        raise StrategyError(f"{what}: coef has a value that is not a finite number")
    correction = Correction(kinds, coef, meta)
    if correction.digest() != meta.get("sha256"):
        raise StrategyError(f"{what}: the checksum does not match its arrays (the file was changed or damaged)")
    return correction


def shipped_key(path: Path) -> tuple[int, bool, bool]:
    """The configuration a shipped file's name gives (``3p-base.npz``: 3 players, base rules)."""
    players, _, variant = path.stem.partition("p-")
    options = parse_variant(variant).options
    return int(players), bool(options.sleep_token), bool(options.shifting_tokens)


def shipped_corrections() -> dict[tuple[int, bool, bool], Path]:
    return {shipped_key(p): p for p in sorted(SHIPPED_DIR.glob("*.npz"))}


class SharpTables(Mapping):
    """Sharp's engine rows: strong's row (:class:`StrongTables`), with the correction behind its trees where the
    value strong plays there is the one the correction was fitted on (else strong's row unchanged)."""

    deck_families = True  # as strong: a single-swap deck plays its family's value (and so no correction)

    def __init__(self, strong: StrongTables, corrections: Mapping):
        self.strong = strong
        self.corrections = dict(corrections)
        self.rows: dict[tuple, np.ndarray] = {}

    def correction_for(self, key) -> Correction | None:
        """The correction played in configuration ``key`` (None: sharp plays strong's row there)."""
        rules = (int(key[0]), bool(key[1]), bool(key[2]))
        source = self.corrections.get(rules)
        if source is None:
            return None
        correction = source() if callable(source) else source
        self.corrections[rules] = correction
        value = self.strong.value_for(key)
        if value is None or value.digest() != correction.meta.get("strong value"):
            return None  # strong plays another value here (a swap family's, a stand-in): nothing fitted on it
        return correction

    def __getitem__(self, key) -> np.ndarray:
        key = (int(key[0]), bool(key[1]), bool(key[2])) + tuple(key[3:4])
        if key not in self.rows:
            row = self.strong[key]
            correction = self.correction_for(key)
            if correction is not None:
                row = np.concatenate([row, correction.packed()])
                row.setflags(write=False)
            self.rows[key] = row
        return self.rows[key]

    def __iter__(self) -> Iterator:
        return iter(self.strong)

    def __len__(self) -> int:
        return len(self.strong)

    def get(self, key, default=None):
        return self[key]


def corrected_configurations() -> list[tuple[int, bool, bool]]:
    """The configurations (players, sleep_token, shifting_tokens) where the shipped sharp differs from strong."""
    record = get_record("sharp")
    return [k for k in sorted(record.tables.corrections) if record.tables.correction_for(k) is not None]


def register_shipped() -> bool:
    """Register ``sharp``: strong's shipped values, plus the shipped corrections (read when first played)."""
    values, corrections = shipped_values(), shipped_corrections()
    if not values or not corrections:
        return False
    strong = StrongTables({k: (lambda p=p: read_value(p)) for k, p in values.items()}, stand_ins=STAND_IN)
    tables = SharpTables(strong, {k: (lambda p=p: read_correction(p)) for k, p in corrections.items()})
    # the strength claim: docs/research/2026-11-28-sharp.md (its data file), 3 players base, 95% intervals
    register_strong(
        "sharp", tables, get_record("expert").weights, WORLDS, builtin=True,
        description="sharp bot: strong plus a correction fitted on search's labels at Interrupted Sleep and Lucid "
                    "Dreaming (3p base; strong elsewhere); search:sharp@16:late still gains +10.2 (+5.2 to +15.3) "
                    "and +5.8 (+1.0 to +10.5) points in seats 1 and 2 (over strong +4.9 and +10.1, 400 deals); "
                    "head to head +0.6 (+0.4 to +0.9) points a seat over strong",
    )
    return True

