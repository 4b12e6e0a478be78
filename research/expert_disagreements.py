"""Where does the late-game searcher in one seat play differently from ``expert``, and what does it cost the table?

    python -m research.expert_disagreements --players 3 --variant PR:ID --seat 3 --games 200 --seed 1 \
        [--strategy expert:FILE.toml] [--json FILE]

The seat plays ``search:BOT@K:late`` (every other seat the bot), as in ``dreamscape exploit``'s cell, and
every searched decision is kept (:func:`simcore.games.dreamscape.fast.runner.collect_search`: each option's
afterstate features and mean playout value; decisions with more than 8 options are not kept). Per decision
kind: decisions per game, how often the table's pick (its highest score; ties: the first option, as the engine
picks) is not the searcher's, and the playout value the table's pick gives up against the searcher's
(win credit + margin / 1000, per decision and per game). Then, for the kinds that matter, the mean feature
difference (searcher's pick minus table's pick) where they differ, over the features that differ most, and
which dream types the two picks name (``perform_XX`` / ``card_XX``). Same seed, same numbers.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--strategy", default="expert")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--variant", default="base")
    p.add_argument("--seat", type=int, required=True)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--playouts", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--top", type=int, default=8, help="features shown per kind")
    p.add_argument("--examples", default="", help="KIND:N: print the first N decisions of KIND where the picks differ")
    p.add_argument("--json", type=Path, default=None)
    a = p.parse_args(argv)

    import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers expert
    from research.diagnostics import decision_starts, table_scores
    from simcore.games.dreamscape.bots.api import load_strategy
    from simcore.games.dreamscape.bots.expert import FEATURE_INDEX, config_key, read_table, shipped_tables
    from simcore.games.dreamscape.bots.features import N_FEATURES, NAMES
    from simcore.games.dreamscape.fast import SimConfig
    from simcore.games.dreamscape.fast.isearch import (REC_CHOSEN, REC_DECISION, REC_FEATURES, REC_KIND, REC_N,
                                                       REC_SEAT, REC_VALUE)
    from simcore.games.dreamscape.fast.runner import collect_search
    from simcore.games.dreamscape.rules import DECISION_KINDS
    from simcore.games.dreamscape.variants import parse_variant

    variant = parse_variant(a.variant)
    config = SimConfig(a.players, variant.options, variant.deck())
    if a.strategy == "expert":
        table = shipped_tables()[config_key(a.players, variant.options)][1]
    else:
        table = read_table(a.strategy.split(":", 1)[1])[1]
    bot = load_strategy(a.strategy)
    seats = [bot] * a.players
    seats[a.seat - 1] = load_strategy(f"search:{a.strategy}@{a.playouts}:late")
    rec, _, skipped = collect_search(config, a.games, a.seed, seats)
    rec = rec[rec[:, REC_SEAT] == a.seat - 1]
    scores = table_scores(rec, table)
    dec = rec[:, REC_DECISION]
    starts = decision_starts(dec)
    ends = np.r_[starts[1:], rec.shape[0]]
    out = {"command": "python -m research.expert_disagreements " + " ".join(argv if argv is not None else sys.argv[1:]),
           "games": a.games, "skipped_decisions": int(skipped), "kinds": {}}
    print(f"{a.players} players, {a.variant}, seat {a.seat}: {len(starts):,} searched decisions kept "
          f"({skipped:,} not kept), {a.games} games")
    print(f"{'kind':20s} {'per game':>8s} {'differ':>7s} {'loss/dec':>9s} {'loss/game':>9s}")
    per_kind: dict[int, list] = {}
    for s, e in zip(starts, ends):
        t = s + int(np.argmax(scores[s:e]))  # the first of the top-scored (the engine's pick on ties)
        c = s + int(np.flatnonzero(rec[s:e, REC_CHOSEN] > 0)[0])
        per_kind.setdefault(int(rec[s, REC_KIND]), []).append((t, c))
    feats = rec[:, REC_FEATURES : REC_FEATURES + N_FEATURES]
    for kind in sorted(per_kind, key=lambda k: -len(per_kind[k])):
        pairs = per_kind[kind]
        t_idx = np.array([t for t, _ in pairs])
        c_idx = np.array([c for _, c in pairs])
        differ = t_idx != c_idx
        loss = rec[c_idx, REC_VALUE] - rec[t_idx, REC_VALUE]
        name = DECISION_KINDS[kind]
        row = {"decisions_per_game": len(pairs) / a.games, "differ": float(differ.mean()),
               "loss_per_decision": float(loss.mean()), "loss_per_game": float(loss.sum() / a.games)}
        print(f"{name:20s} {row['decisions_per_game']:8.2f} {100 * row['differ']:6.1f}% {row['loss_per_decision']:9.4f} "
              f"{row['loss_per_game']:9.4f}")
        if differ.sum() >= 5:
            d = feats[c_idx[differ]] - feats[t_idx[differ]]
            mean = d.mean(axis=0)
            order = np.argsort(-np.abs(mean))[: a.top]
            row["feature_diff"] = {NAMES.get(int(j), str(j)): float(mean[j]) for j in order}
            row["searcher_types"] = {NAMES[j]: float(feats[c_idx[differ], j].mean()) for j in range(N_FEATURES)
                                     if NAMES.get(j, "").startswith(("perform_", "card_"))
                                     and feats[c_idx[differ], j].any()}
            row["table_types"] = {NAMES[j]: float(feats[t_idx[differ], j].mean()) for j in range(N_FEATURES)
                                  if NAMES.get(j, "").startswith(("perform_", "card_"))
                                  and feats[t_idx[differ], j].any()}
        out["kinds"][name] = row
    for name, row in out["kinds"].items():
        if "feature_diff" in row and row["loss_per_game"] > 0.01:
            print(f"\n{name}: searcher's pick minus table's pick, where they differ")
            print("  " + ", ".join(f"{k} {v:+.2f}" for k, v in row["feature_diff"].items()))
            print("  searcher names: " + ", ".join(f"{k} {v:.2f}" for k, v in row["searcher_types"].items()))
            print("  table names:    " + ", ".join(f"{k} {v:.2f}" for k, v in row["table_types"].items()))
    if a.examples:
        kname, _, count = a.examples.partition(":")
        shown = ("target_is_leader", "target_gap", "target_z", "leader_deny", "pos_cost", "next_gain", "score_now",
                 "best_opp", "deck_left")
        k = DECISION_KINDS.index(kname)
        out["examples"] = []
        print(f"\n{kname}: the first {count} decisions where the table's pick is not the searcher's "
              f"(value: mean playout outcome; features: {', '.join(shown)})")
        for t, c in [pc for pc in per_kind.get(k, []) if pc[0] != pc[1]][: int(count or 5)]:
            s0 = int(np.flatnonzero(dec == dec[t])[0])
            ex = {"options": int(rec[t, REC_N]), "table": {}, "searcher": {}}
            for who, i in (("table", t), ("searcher", c)):
                ex[who] = {"option": int(i - s0), "value": round(float(rec[i, REC_VALUE]), 4),
                           **{n: float(feats[i, FEATURE_INDEX[n]]) for n in shown}}
                print(f"  {who:8s} option {i - s0} of {int(rec[t, REC_N])}: value {rec[i, REC_VALUE]:+.3f}  "
                      + "  ".join(f"{n} {feats[i, FEATURE_INDEX[n]]:g}" for n in shown))
            print()
            out["examples"].append(ex)
    if a.json is not None:
        a.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
