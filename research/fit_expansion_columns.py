"""Fit the expert table's weights of the expansion types' slots (``card_ID``, ``perform_ID`` ...), the rest held fixed.

    python -m research.fit_expansion_columns --players 3 --variant PR:ID --variant NT:ID --variant CD:ID \
        --games 300 --playouts 4 --seed 12 --rows ROWS.toml --out ROWS.toml

The printed deck has none of the expansion types (Invasive Dreaming, Empowered Dreaming, Paradigm Shift, R1.4),
so a shipped table's weights of their one-hot slots (``card_XX``, ``perform_XX``) were never fitted: they are 0,
and a purchase or a performance of such a card scores as if that type were worth nothing. Every seat plays
``search:expert@K`` in decks that hold them (the shipped table with ``--rows`` overlaid, as the bot plays it),
every searched decision is kept, and per decision kind and phase the expansion slots' weights are fitted by
ridge on what the fixed weights leave unexplained (outcome and slots centred within the decision, as
:func:`analyses.games.dreamscape.train.fit_table` centres them). The decision kinds only an expansion type asks
(``invasive_dreaming`` ...) are not fitted here (``research/fit_invasive_rows.py`` fits them whole); their rows
are taken from ``--rows``. A kind and phase with fewer than the trainer's MIN_ROWS option rows takes the kind's
fit over all phases, and a kind with fewer none. Since these slots are 0 in every game of the printed deck,
0 x weight adds exactly 0.0 there. Same seed, same file.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

EXPANSION_CODES = ("ID", "ED", "PS")
EXPANSION_DECISIONS = ("invasive_dreaming", "empowered_dreaming", "paradigm_shift")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--variant", action="append", required=True)
    p.add_argument("--games", type=int, default=300, help="self-play games per variant")
    p.add_argument("--playouts", type=int, default=4)
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--rows", type=Path, required=True, help="rows file whose expansion decisions are kept")
    p.add_argument("--out", type=Path, required=True)
    a = p.parse_args(argv)

    from sklearn.linear_model import Ridge

    import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers expert
    from analyses.games.dreamscape.train import MIN_ROWS, RIDGE_ALPHA, centred, phase_of
    from simcore.games.dreamscape.bots.api import load_strategy
    from simcore.games.dreamscape.bots.expert import (PHASES, overlay_rows, read_table, row_index, shipped_tables,
                                                       write_table)
    from simcore.games.dreamscape.bots.features import N_FEATURES, NAMES
    from simcore.games.dreamscape.fast import SimConfig
    from simcore.games.dreamscape.fast.isearch import REC_DECISION, REC_FEATURES, REC_KIND
    from simcore.games.dreamscape.fast.layout import F_DECK_FRACTION
    from simcore.games.dreamscape.fast.runner import collect_search
    from simcore.games.dreamscape.rules import DECISION_ID, DECISION_KINDS
    from simcore.games.dreamscape.variants import parse_variant

    header, rows = read_table(a.rows)
    base = shipped_tables()[(a.players, False, False)][1]  # already with the shipped rows file, if any
    table = overlay_rows(base, rows)
    tmp = a.out.with_suffix(".playing.toml")
    write_table(tmp, table, {"name": "expansion-fit", "players": a.players, "variant": "base"})
    bot = load_strategy(f"expert:{tmp}")
    searcher = load_strategy(f"search:{bot}@{a.playouts}")
    parts, offset, t0 = [], 0, time.perf_counter()
    for text in a.variant:
        variant = parse_variant(text)
        config = SimConfig(a.players, variant.options, variant.deck())
        rec, _, skipped = collect_search(config, a.games, a.seed, [searcher] * a.players)
        rec[:, REC_DECISION] += offset
        offset = int(rec[:, REC_DECISION].max()) + 1 if rec.shape[0] else offset
        parts.append(rec)
        print(f"{text}: {len(np.unique(rec[:, REC_DECISION])):,} decisions kept, {skipped:,} not "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    records = np.concatenate(parts)
    xc, yc = centred(records)
    kind = records[:, REC_KIND].astype(np.int64)
    phase = phase_of(records[:, REC_FEATURES + F_DECK_FRACTION])
    free = [j for j, n in NAMES.items() if n.split("_", 1)[-1] in EXPANSION_CODES and n.startswith(("card_", "perform_"))]
    free = sorted(free)
    out = rows.copy()
    fitted = []
    for k, kname in enumerate(DECISION_KINDS):
        if kname in EXPANSION_DECISIONS:
            continue
        of_kind = kind == k
        if of_kind.sum() < MIN_ROWS:
            continue

        def fit(mask, k=k):
            w_rows = np.array([table[row_index(k, int(ph)) * N_FEATURES:][:N_FEATURES] for ph in phase[mask]])
            resid = yc[mask] - np.einsum("ij,ij->i", xc[mask], w_rows)
            x = xc[mask][:, free]
            if not np.any(x):
                return None
            return Ridge(alpha=RIDGE_ALPHA, fit_intercept=False).fit(x, resid).coef_

        pooled = fit(of_kind)
        if pooled is None:
            continue
        for ph in range(len(PHASES)):
            mask = of_kind & (phase == ph)
            w = fit(mask) if mask.sum() >= MIN_ROWS else pooled
            w = pooled if w is None else w
            start = row_index(k, ph) * N_FEATURES
            for j, v in zip(free, w):
                if v != 0.0:
                    out[start + j] = v
                    fitted.append(f"{kname}.{PHASES[ph]}.{NAMES[j]}")
    command = "python -m research.fit_expansion_columns " + " ".join(argv if argv is not None else sys.argv[1:])
    comment = (f"Expansion-type slots fitted by `{command}`\n{records.shape[0]:,} option rows; "
               f"{time.perf_counter() - t0:.0f} s\nThe rows of the expansion decisions come from {a.rows.name}:")
    old = [line[2:] for line in a.rows.read_text().splitlines() if line.startswith("# ")]
    write_table(a.out, out, header, comment="\n".join([comment] + old))
    tmp.unlink()
    print(f"wrote {a.out}: {len(fitted)} weights fitted")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
