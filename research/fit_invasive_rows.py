"""Fit the expert table's ``invasive_dreaming`` rows on search labels from decks that hold Invasive Dreaming.

    python -m research.fit_invasive_rows --players 3 --variant PR:ID --variant FF:ID --variant NT:ID \
        --variant CD:ID --games 600 --playouts 8 --seed 11 --out FILE.toml

The printed deck has no Invasive Dreaming card (an expansion type, R1.4), so the shipped tables' rows for its
decision (R6.9: which opponent, which Dreamscape card) were never fitted: they are the linear bot's weights,
which prefer the opponent with the *lowest* score (``target_gap`` -0.985). Here every seat plays
``search:expert@K:early+mid+late:invasive_dreaming`` (it searches the Invasive Dreaming decisions of the whole
game and plays the shipped table at every other), every searched decision is kept
(:func:`simcore.games.dreamscape.fast.runner.collect_search`; decisions of more than 8 options are not kept),
and the trainer's own fit (:func:`analyses.games.dreamscape.train.fit_table`: ridge on the options' features
centred within their decision, per phase) gives the three rows. The file holds those rows only; the bot
overlays them on the shipped table of the player count (:mod:`simcore.games.dreamscape.bots.expert`).
Seeds of the fit are not the seeds of the measurement (seed 1). Same seed, same file.
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


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--variant", action="append", required=True)
    p.add_argument("--games", type=int, default=600, help="self-play games per variant")
    p.add_argument("--playouts", type=int, default=8)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--out", type=Path, required=True)
    a = p.parse_args(argv)

    import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers expert
    from analyses.games.dreamscape.train import fit_table
    from simcore.games.dreamscape.bots.api import load_strategy
    from simcore.games.dreamscape.bots.expert import PHASES, empty_table, row_index, shipped_tables, write_table
    from simcore.games.dreamscape.bots.features import N_FEATURES
    from simcore.games.dreamscape.fast import SimConfig
    from simcore.games.dreamscape.fast.isearch import REC_DECISION, REC_KIND
    from simcore.games.dreamscape.fast.runner import collect_search
    from simcore.games.dreamscape.rules import DECISION_ID
    from simcore.games.dreamscape.variants import parse_variant

    kind = DECISION_ID["invasive_dreaming"]
    searcher = load_strategy(f"search:expert@{a.playouts}:early+mid+late:invasive_dreaming")
    parts, offset, t0 = [], 0, time.perf_counter()
    for text in a.variant:
        variant = parse_variant(text)
        config = SimConfig(a.players, variant.options, variant.deck())
        rec, _, skipped = collect_search(config, a.games, a.seed, [searcher] * a.players)
        rec = rec[rec[:, REC_KIND] == kind].copy()
        rec[:, REC_DECISION] += offset  # decisions of different runs stay apart
        offset = int(rec[:, REC_DECISION].max()) + 1 if rec.shape[0] else offset
        parts.append(rec)
        print(f"{text}: {len(np.unique(rec[:, REC_DECISION])):,} decisions kept, {skipped:,} not "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    records = np.concatenate(parts)
    previous = shipped_tables()[(a.players, False, False)][1]
    fitted = fit_table(records, previous)
    rows = empty_table()
    for phase in PHASES:
        base = row_index("invasive_dreaming", phase) * N_FEATURES
        rows[base : base + N_FEATURES] = fitted[base : base + N_FEATURES]
    command = "python -m research.fit_invasive_rows " + " ".join(argv if argv is not None else sys.argv[1:])
    write_table(a.out, rows, {"name": f"expert-{a.players}p-invasive-dreaming-rows", "players": a.players,
                              "variant": "base", "overlay": True},
                comment=f"Fitted by `{command}`\n{records.shape[0]:,} option rows of "
                        f"{len(np.unique(records[:, REC_DECISION])):,} Invasive Dreaming decisions; "
                        f"{time.perf_counter() - t0:.0f} s")
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
