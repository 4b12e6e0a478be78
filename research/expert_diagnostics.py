"""Where does the search player's gain over ``expert`` come from? (issue #12: the exploitability target)

Run from the repository root (in the project's venv)::

    python research/expert_diagnostics.py --players 3 --variant base --seed 1

It plays self-play games of ``search:expert@K`` (every seat searches, as
``dreamscape train`` does) and keeps every searched decision. Each test
decision is also labelled twice more on independent playouts: once more at K
(the label noise) and once at a larger K (the better label). Then, held out
(train and test are different games):

1. the label noise ceiling: how often two searches agree on the same decision;
2. models of the search's choice (the shipped expert table, the trainer's
   ridge fit on 100 / 200 / 400 games and on the better labels, LightGBM
   lambdarank, gradient boosting, a small MLP): agreement with the search
   and regret (the best option's value minus the pick's, in win points);
3. the same per decision kind, with the estimated gain of searching that
   kind only (regret difference x decisions per game);
4. the measured gain per kind: a seat that searches only decisions of one
   kind against ``expert`` everywhere else, against expert itself in that
   seat on the same deals (paired intervals).

Same seed, same numbers. Progress on stderr (only on a terminal, or with
``--progress``). Bad input: one line on stderr, exit code 2.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TEST_FIRST_GAME = 1_000_000  # test games come from their own range of game indices of the seed
KIND_SEED_OFFSET = 104_729  # the per-kind games (step 4) play other deals than the training games
BLOCK = 100  # training games are collected (and the ridge curve grows) in blocks of this many
DECISION_OFFSET = 10**9  # decisions of different blocks stay apart


class BadInput(Exception):
    """A problem with the command line (one line on stderr, exit code 2)."""


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--variant", default="base")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--playouts", type=int, default=4, help="K of the search player studied (default 4)")
    p.add_argument("--label-playouts", type=int, default=16, help="K of the better label (default 16)")
    p.add_argument("--train-games", type=int, default=400, help="self-play games to train on (blocks of 100)")
    p.add_argument("--label-train-games", type=int, default=100,
                   help="of those, games also labelled at --label-playouts (the ridge fit on better labels)")
    p.add_argument("--test-games", type=int, default=100, help="held-out self-play games")
    p.add_argument("--kind-games", type=int, default=300, help="games per kind of the measured split (0: skip)")
    p.add_argument("--kind-playouts", type=int, default=None,
                   help="K of the measured split's search player (default --playouts; dreamscape exploit plays K=8)")
    p.add_argument("--seat", type=int, default=1, help="the searching seat of the measured split (from 1)")
    p.add_argument("--models", default=None,
                   help="comma-separated, of expert,ridge,lightgbm,hgb,mlp (default: all; lightgbm when installed)")
    p.add_argument("--data", default=None,
                   help="keep the collected decisions in this .npz file and reuse them when the arguments match")
    p.add_argument("--json", dest="json_out", default=None, help="also write the tables' numbers to this file")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--progress", dest="progress", action="store_true", default=None)
    g.add_argument("--no-progress", dest="progress", action="store_false")

    def error(message: str) -> None:
        raise BadInput(message)

    p.error = error  # one line, exit 2 (main), not argparse's usage block
    a = p.parse_args(argv)
    if not 2 <= a.players <= 4:
        raise BadInput(f"--players must be 2, 3 or 4, got {a.players}")
    if a.kind_playouts is None:
        a.kind_playouts = a.playouts
    for name in ("playouts", "label_playouts", "kind_playouts", "test_games"):
        if getattr(a, name) < 1:
            raise BadInput(f"--{name.replace('_', '-')} must be at least 1, got {getattr(a, name)}")
    if a.train_games < BLOCK or a.train_games % BLOCK:
        raise BadInput(f"--train-games must be a positive multiple of {BLOCK}, got {a.train_games}")
    if a.label_train_games < 0 or a.label_train_games % BLOCK or a.label_train_games > a.train_games:
        raise BadInput(f"--label-train-games must be a multiple of {BLOCK} from 0 to --train-games, "
                       f"got {a.label_train_games}")
    if a.kind_games < 0:
        raise BadInput(f"--kind-games must be 0 or more, got {a.kind_games}")
    if not 1 <= a.seat <= a.players:
        raise BadInput(f"--seat must be 1 to {a.players}, got {a.seat}")
    return a


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse(argv)
        from simcore.games.dreamscape.variants import parse_variant

        try:
            variant = parse_variant(args.variant)
        except Exception as exc:  # noqa: BLE001 - any problem with the text is bad input
            raise BadInput(f"--variant: {exc}") from None
        from research.diagnostics import MODELS

        if args.models is None:
            import importlib.util

            has_lgb = importlib.util.find_spec("lightgbm") is not None  # the optional extra `diagnostics`
            models = [m for m in MODELS if m != "lightgbm" or has_lgb]
        else:
            models = [m.strip() for m in args.models.split(",") if m.strip()]

        unknown = [m for m in models if m not in MODELS]
        if unknown or not models:
            raise BadInput(f"--models: unknown {', '.join(unknown) or '(none)'} (known: {', '.join(MODELS)})")
    except BadInput as exc:
        print(f"expert_diagnostics: {exc}", file=sys.stderr)
        return 2
    data = run(args, variant, models, emit=lambda d, part: print("\n".join(lines(d, part)), flush=True))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


def run(args: argparse.Namespace, variant, models: list[str], emit=None) -> dict:
    """Steps 1-4 (see the module docstring); ``emit(data, part)`` gets the tables of the models ("fit") and of
    the measured split ("kinds") as soon as each is ready."""
    import numpy as np

    from research.diagnostic_games import ALL_KINDS, collect_labelled, play_restricted
    from research.diagnostics import agreement, decision_kinds, decision_starts, fit_scores, regret, with_values
    from analyses.study.progress import progress_bar, set_progress
    from analyses.stats.intervals import paired_difference
    from simcore.games.dreamscape.fast import SimConfig, simulate
    from simcore.games.dreamscape.fast.isearch import REC_CHOSEN, REC_DECISION, REC_VALUE
    from simcore.games.dreamscape.rules import DECISION_KINDS
    from simcore.games.dreamscape.bots.api import load_strategy
    from simcore.games.dreamscape.bots.expert import config_key, shipped_tables

    set_progress(args.progress)
    t_all = time.perf_counter()
    config = SimConfig(args.players, variant.options, variant.deck())
    key = config_key(args.players, variant.options)
    table = shipped_tables()[key][1]
    search = load_strategy(f"search:expert@{args.playouts}")
    p, K, L = args.players, args.playouts, args.label_playouts
    bar = progress_bar(args.train_games + args.test_games, "games")  # grows when the kind runs are known

    def tick():
        """A progress callback for one run: moves the bar by the games done since its last call."""
        last = [0]

        def update(done: int, _total: int) -> None:
            bar.update(done - last[0])
            last[0] = done

        return update

    # 1. the dataset (blocks of BLOCK training games; the first ones also labelled at L)
    t0 = time.perf_counter()
    n_blocks, n_lab = args.train_games // BLOCK, args.label_train_games // BLOCK
    stamp = np.array([p, int(variant.options.sleep_token), int(variant.options.shifting_tokens), args.seed, K, L,
                      args.train_games, args.label_train_games, args.test_games], dtype=np.int64)
    cached = None
    if args.data and Path(args.data).is_file():
        with np.load(args.data) as f:
            if "variant" in f.files and str(f["variant"]) == args.variant and np.array_equal(f["stamp"], stamp):
                cached = {k: f[k] for k in f.files}
    if cached is not None:
        bar.update(args.train_games + args.test_games)
        blocks = [cached[f"train{b}"] for b in range(n_blocks)]
        block_labels = [cached[f"label{b}"] if b < n_lab else None for b in range(n_blocks)]
        test, test_ext, skipped = cached["test"], cached["test_extra"], int(cached["skipped"])
        seconds_data = float(cached["seconds"])
    else:
        blocks, block_labels, skipped = [], [], 0
        for b in range(n_blocks):
            labelled = b < n_lab
            rec, ext, _, sk = collect_labelled(config, BLOCK, args.seed, search, (L,) if labelled else (),
                                               first_game=b * BLOCK, progress=tick())
            rec[:, REC_DECISION] += b * DECISION_OFFSET
            blocks.append(rec)
            block_labels.append(ext[:, 0] if labelled else None)
            skipped += sk
        test, test_ext, _, sk = collect_labelled(config, args.test_games, args.seed, search, (K, L),
                                                 first_game=TEST_FIRST_GAME, progress=tick())
        skipped += sk
        seconds_data = time.perf_counter() - t0
        if args.data:
            arrays = {f"train{b}": blocks[b] for b in range(n_blocks)}
            arrays |= {f"label{b}": block_labels[b] for b in range(n_lab)}
            np.savez_compressed(args.data, stamp=stamp, variant=np.array(args.variant), test=test, test_extra=test_ext, skipped=skipped,
                                seconds=seconds_data, **arrays)
    d_test = test[:, REC_DECISION]
    v_k, v_k2, v_l = test[:, REC_VALUE], test_ext[:, 0], test_ext[:, 1]
    search_pick = test[:, REC_CHOSEN]
    kinds = decision_kinds(test)
    starts = decision_starts(d_test)
    counts = np.diff(np.r_[starts, d_test.shape[0]])

    def measures(scores) -> dict:
        """Per decision: agreement with the search, with the better label's best, regrets (both labels)."""
        best_l = (v_l == np.repeat(np.maximum.reduceat(v_l, starts), counts)).astype(float)
        return {
            "agree": agreement(scores, search_pick, d_test),
            "agree_label": agreement(scores, best_l, d_test),
            "regret_k": regret(scores, v_k, d_test),
            "regret_label": regret(scores, v_l, d_test),
        }

    t_fit = time.perf_counter()
    per: dict[str, dict] = {}
    # the searches themselves: the game's K (its pick), an independent K, the larger K
    # (the game's pick scores 1 on its own option; a label's pick scores by that label)
    per[f"search@{K} (the game's)"] = measures(search_pick)
    per[f"search@{K}, other playouts"] = measures(v_k2)
    per[f"search@{L}"] = measures(v_l)
    fits: dict[str, dict] = {}
    train_all = np.concatenate(blocks)
    for m in models:
        if m == "ridge":
            for n in range(1, len(blocks) + 1):
                tr = np.concatenate(blocks[:n])
                f = fit_scores("ridge", tr, test, table, seed=args.seed)
                name = f"ridge, {n * BLOCK} games"
                per[name] = measures(f.test)
                fits[name] = {"train_agree": float(agreement(f.train, tr[:, REC_CHOSEN], tr[:, REC_DECISION]).mean())}
            n_lab = args.label_train_games // BLOCK
            if n_lab:
                tr = np.concatenate(blocks[:n_lab])
                lab = np.concatenate(block_labels[:n_lab])
                f = fit_scores("ridge", with_values(tr, lab), test, table, seed=args.seed)
                name = f"ridge, {n_lab * BLOCK} games, K={L} labels"
                per[name] = measures(f.test)
                fits[name] = {}
            bar.refresh()
            continue
        t1 = time.perf_counter()
        f = fit_scores(m, train_all, test, table, seed=args.seed)
        name = m if m == "expert" else f"{m}, {len(blocks) * BLOCK} games"
        if m == "expert":
            name = "expert (shipped table)"
        per[name] = measures(f.test)
        fits[name] = {"train_agree": float(agreement(f.train, train_all[:, REC_CHOSEN],
                                                     train_all[:, REC_DECISION]).mean()),
                      "fit_seconds": round(time.perf_counter() - t1, 1)}
    overall = {name: {k: float(v.mean()) for k, v in ms.items()} | fits.get(name, {}) for name, ms in per.items()}

    # per kind: decisions per game and seat, and the estimated gain of searching that kind
    present = [k for k in np.unique(kinds)]
    by_kind = []
    best_model = max((n for n in per if n.split(",")[0] in ("lightgbm", "hgb", "mlp")),
                     key=lambda n: overall[n]["regret_label"] * -1, default=None)
    ridge_name = next((n for n in per if n == f"ridge, {len(blocks) * BLOCK} games"), None)
    for k in present:
        mask = kinds == k
        row = {
            "kind": DECISION_KINDS[k], "id": int(k),
            "per_game_seat": float(mask.sum() / (args.test_games * p)),
            "ceiling": float(per[f"search@{K}, other playouts"]["agree"][mask].mean()),
        }
        for label, name in (("expert", "expert (shipped table)"), ("ridge", ridge_name), ("best", best_model),
                            ("search", f"search@{K} (the game's)")):
            if name in per:
                row[f"{label}_agree"] = float(per[name]["agree"][mask].mean())
                row[f"{label}_regret"] = float(per[name]["regret_label"][mask].mean())
        if "expert_regret" in row:
            row["est_gain"] = (row["expert_regret"] - row["search_regret"]) * row["per_game_seat"]
        by_kind.append(row)

    data = {
        "players": p, "variant": args.variant, "seed": args.seed, "playouts": K, "label_playouts": L,
        "train_games": args.train_games, "test_games": args.test_games, "label_train_games": args.label_train_games,
        "train_decisions": int(np.unique(train_all[:, REC_DECISION]).shape[0]),
        "test_decisions": int(starts.shape[0]), "seconds_data": round(seconds_data, 1), "not_kept": skipped,
        "overall": overall, "by_kind": by_kind, "seconds_fit": round(time.perf_counter() - t_fit, 1),
    }
    if emit is not None:
        bar.clear()
        emit(data, "fit")

    # 4. measured: a seat that searches one kind only, on the same deals
    kind_rows = []
    seat = args.seat - 1
    seconds_kinds = 0.0
    if args.kind_games:
        t2 = time.perf_counter()
        g, kseed = args.kind_games, args.seed + KIND_SEED_OFFSET
        names = ["expert"] * p
        names[seat] = load_strategy(f"search:expert@{args.kind_playouts}")
        base = simulate(config, g, kseed, ["expert"] * p, chunk_size=g).win[:, seat]
        runs = [("every kind", ALL_KINDS)] + [(DECISION_KINDS[k], 1 << int(k)) for k in present]
        bar.total = args.train_games + args.test_games + g * (len(runs) + 1)
        bar.update(g)
        for label, bit in runs:
            masks = [0] * p
            masks[seat] = bit
            win = play_restricted(config, g, kseed, names, masks, progress=tick())[:, seat]
            est = paired_difference(win, base)
            kind_rows.append({"kinds": label, "win": float(win.mean()), "expert_win": float(base.mean()),
                              "gain": est.value, "low": est.low, "high": est.high})
        seconds_kinds = time.perf_counter() - t2
    bar.close()
    data |= {"kind_games": args.kind_games, "kind_playouts": args.kind_playouts, "seat": args.seat, "kind_runs": kind_rows,
             "seconds_kinds": round(seconds_kinds, 1), "seconds": round(time.perf_counter() - t_all, 1)}
    if emit is not None:
        emit(data, "kinds")
    return data


def lines(d: dict, part: str = "all") -> list[str]:
    """The tables (win points: 100 x the playout outcome, win credit + score margin / 1000).

    ``part``: "fit" (data, models, per kind), "kinds" (the measured split) or "all".
    """
    out: list[str] = []
    if part in ("fit", "all"):
        out += fit_lines(d)
    if part in ("kinds", "all"):
        out += kind_lines(d)
    return out


def fit_lines(d: dict) -> list[str]:
    """Data, the models held out, the split per decision kind."""
    pct = lambda x: f"{100 * x:5.1f}%"  # noqa: E731
    pts = lambda x: f"{100 * x:6.2f}"  # noqa: E731
    K, L = d["playouts"], d["label_playouts"]
    out = [
        f"Where search's gain comes from: {d['players']} players, {d['variant']}, search:expert@{K} self-play, "
        f"seed {d['seed']}",
        f"  data: {d['train_games']} training games ({d['train_decisions']:,} decisions), {d['test_games']} held-out "
        f"games ({d['test_decisions']:,} decisions, each also labelled on independent playouts at K={K} and "
        f"K={L}); {d['not_kept']:,} decisions not kept (more than 8 options or Shifting orders); "
        f"{d['seconds_data']:.0f} s",
        "",
        "Held out, every decision kind (agreement: picks the option the search took; regret: win points lost)",
        f"  {'model':<34}{'agree w/ search':>16}{'in training':>12}{'agree w/ K=' + str(L):>14}"
        f"{'regret K=' + str(K):>12}{'regret K=' + str(L):>13}",
    ]
    for name, r in d["overall"].items():
        tr = pct(r["train_agree"]) if "train_agree" in r else ""
        out.append(f"  {name:<34}{pct(r['agree']):>16}{tr:>12}{pct(r['agree_label']):>14}"
                   f"{pts(r['regret_k']):>12}{pts(r['regret_label']):>13}")
    out += ["", f"Per decision kind, held out (regret against the K={L} label, win points per decision; "
                f"est. gain = (expert's regret - search@{K}'s) x decisions per game and seat)",
            f"  {'kind':<20}{'per game/seat':>14}{'ceiling':>9}{'expert':>8}{'ridge':>8}{'best NL':>8}"
            f"{'reg expert':>11}{'reg ridge':>10}{'reg NL':>8}{'reg search':>11}{'est. gain':>10}"]
    for r in d["by_kind"]:
        g = lambda key: r.get(key, float("nan"))  # noqa: E731
        out.append(f"  {r['kind']:<20}{r['per_game_seat']:>14.2f}{pct(r['ceiling']):>9}{pct(g('expert_agree')):>8}"
                   f"{pct(g('ridge_agree')):>8}{pct(g('best_agree')):>8}{pts(g('expert_regret')):>11}"
                   f"{pts(g('ridge_regret')):>10}{pts(g('best_regret')):>8}{pts(g('search_regret')):>11}"
                   f"{100 * g('est_gain'):>+10.2f}")
    out.append(f"  models fitted in {d['seconds_fit']:.0f} s")
    return out


def kind_lines(d: dict) -> list[str]:
    """The measured split: the gain of searching one kind only."""
    pct = lambda x: f"{100 * x:5.1f}%"  # noqa: E731
    K = d["kind_playouts"]
    out: list[str] = []
    if d["kind_runs"]:
        out += [f"Measured: seat {d['seat']} searches one kind only (search:expert@{K}), expert everywhere else, "
                    f"vs expert in that seat on the same {d['kind_games']} deals ({d['seconds_kinds']:.0f} s)",
                f"  {'kinds searched':<20}{'win':>8}{'expert':>8}{'gain, points (95% CI)':>26}"]
        for r in d["kind_runs"]:
            out.append(f"  {r['kinds']:<20}{pct(r['win']):>8}{pct(r['expert_win']):>8}"
                       f"{100 * r['gain']:>+9.1f} ({100 * r['low']:+.1f} to {100 * r['high']:+.1f})")
    out.append(f"  {d['seconds']:.0f} s in all")
    return out


if __name__ == "__main__":
    sys.exit(main())
