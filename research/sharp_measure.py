"""How strong is the sharp bot (strong + its correction of the view)? Measurements for docs/research (issue #42).

Run from the repository root in the project's environment::

    python research/sharp_measure.py h2h OUT --games 1500 --seed 21
    python research/sharp_measure.py h2h OUT --games 10000 --seed 22 --only-kinds lucid_dreaming,interrupted_sleep
    python research/sharp_measure.py exploit OUT --bot sharp --games 400 --seed 5 --playouts 16 --seats 1 2
    python research/sharp_measure.py exploit OUT --bot strong --games 400 --seed 5 --playouts 16 --seats 1 2
    python research/sharp_measure.py report OUT DATA.json --fit FIT_OUTPUT.txt

``h2h``: 3 players, base game; the all-strong games, then sharp in each seat in turn (strong in the others) on
the same deals: sharp's win rate in that seat, strong's own in that seat, and the paired gain; and the mean over
the three seatings (each deal's three gains averaged, the interval over the deals). ``--only-kinds``: the
same with a research copy of sharp that keeps its correction at those kinds only (not a shipped bot).
``exploit``: the cells ``dreamscape exploit --strategy BOT -p 3 --variant base -k K --phases late`` plays, seat
by seat (the command plays every seat; the same games, by the same function, ``seat_win_credits``): the bot's
self-play, then ``search:BOT@K:late`` in the seat. Each step's per-game win credits are kept in OUT (one .npy
per step, skipped when present, so a stopped run goes on).
``report``: the JSON the research page's numbers come from (tests/test_docs_data.py checks them), with the
difference of the two bots' gains on the same deals (paired per deal) where both were measured.
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

import numpy as np  # noqa: E402

PLAYERS, VARIANT, CHUNK = 3, "base", 100
# The files' tags as the page names them: the fit as the fit command first kept it (three kinds; the runs of
# `--bot sharp` before the shipped file dropped perform), and the shipped sharp (`--only-kinds` of that fit,
# the same coefficients at those two kinds).
LABELS = {"sharp": "first fit (perform, interrupted_sleep, lucid_dreaming)",
          "sharp~lucid_dreaming+interrupted_sleep": "sharp (interrupted_sleep, lucid_dreaming)"}


def _credits(out: Path, tag: str, seats: list[str], games: int, seed: int) -> np.ndarray:
    """Per-game win credits (games, seats) of one seating, kept as OUT/tag.npy."""
    from analyses.tools.gameplay import as_game, seat_win_credits

    path = out / f"{tag}.npy"
    if path.exists():
        return np.load(path)
    game = as_game(None)
    setup = game.setup(PLAYERS, VARIANT)
    names = [game.check_strategy(s, setup) for s in seats]
    t0 = time.time()
    credit = seat_win_credits(game, setup, names, games, seed, CHUNK)
    np.save(path, credit)
    print(f"{tag}: {games} games, {time.time() - t0:.0f} s", flush=True)
    return credit


def _subset_bot(kinds: list[str]) -> str:
    """A research copy of sharp that keeps the shipped correction at ``kinds`` only (strong's value elsewhere)."""
    import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers strong and sharp
    from simcore.games.dreamscape.bots.sharp import Correction, SharpTables, read_correction, shipped_corrections
    from simcore.games.dreamscape.fast.strategies import get_record, register_strong
    from simcore.games.dreamscape.rules import DECISION_ID

    key = (PLAYERS, False, False)
    full = read_correction(shipped_corrections()[key])
    keep = np.isin(full.kinds, [DECISION_ID[k] for k in kinds])
    name = "sharp-only-" + "-".join(k.replace("_", "") for k in kinds)
    tables = SharpTables(get_record("sharp").tables.strong, {key: Correction(full.kinds[keep], full.coef[keep], full.meta)})
    register_strong(name, tables, get_record("expert").weights)
    return name


def h2h(args) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    bot, tag = "sharp", "sharp"
    if args.only_kinds:
        bot = _subset_bot(args.only_kinds.split(","))
        tag = "sharp~" + args.only_kinds.replace(",", "+")
    _credits(out, f"h2h-strong-{args.seed}-{args.games}", ["strong"] * PLAYERS, args.games, args.seed)
    for seat in range(PLAYERS):
        seats = ["strong"] * PLAYERS
        seats[seat] = bot
        _credits(out, f"h2h-{tag}-seat{seat + 1}-{args.seed}-{args.games}", seats, args.games, args.seed)


def exploit(args) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    bot, tag = args.bot, args.bot
    if args.only_kinds:
        bot = _subset_bot(args.only_kinds.split(","))
        tag = "sharp~" + args.only_kinds.replace(",", "+")
    search = f"search:{bot}@{args.playouts}:late"  # what `dreamscape exploit -k K --phases late` names
    _credits(out, f"exploit-{tag}-{args.seed}-{args.games}", [bot] * PLAYERS, args.games, args.seed)
    for seat in args.seats:
        seats = [bot] * PLAYERS
        seats[seat - 1] = search
        _credits(out, f"exploit-{tag}-k{args.playouts}-seat{seat}-{args.seed}-{args.games}", seats, args.games,
                 args.seed)


def _pts(e) -> list[float]:
    return [round(100 * e.value, 1), round(100 * e.low, 1), round(100 * e.high, 1)]


def report(args) -> None:
    from analyses.stats.intervals import mean_ci, paired_difference, wilson

    out = Path(args.out)
    data: dict = {"players": PLAYERS, "variant": VARIANT, "h2h": []}
    for own_path in sorted(out.glob("h2h-strong-*.npy")):
        _, _, seed, games = own_path.stem.split("-")
        own = np.load(own_path)
        tags = sorted({p.stem.split("-")[1] for p in out.glob(f"h2h-sharp*-seat1-{seed}-{games}.npy")})
        for tag in tags:
            seats, gains = [], []
            for seat in range(PLAYERS):
                mine = np.load(out / f"h2h-{tag}-seat{seat + 1}-{seed}-{games}.npy")[:, seat]
                w = wilson(float(mine.sum()), mine.size)
                seats.append({"seat": seat + 1, "sharp win": _pts(w), "strong win": round(100 * own[:, seat].mean(), 1),
                              "gain": _pts(paired_difference(mine, own[:, seat]))})
                gains.append(mine - own[:, seat])
            data["h2h"].append({"bot": LABELS.get(tag, tag), "seed": int(seed), "deals": int(games),
                                "seats": seats, "mean gain": _pts(mean_ci(np.mean(gains, axis=0)))})
    cells: dict = {}
    for own_path in sorted(out.glob("exploit-*-*-*.npy")):
        parts = own_path.stem.split("-")
        if len(parts) != 4:
            continue
        _, bot, seed, games = parts
        own = np.load(own_path)
        for path in sorted(out.glob(f"exploit-{bot}-k*-seat*-{seed}-{games}.npy")):
            k, seat = path.stem.split("-")[2:4]
            s = int(seat[4:]) - 1
            mine = np.load(path)[:, s]
            cells.setdefault(f"seat {s + 1}", {})[LABELS.get(bot, bot)] = {
                "search": f"search:{bot.split('~')[0]}@{k[1:]}:late", "seed": int(seed), "deals": int(games),
                "gain": _pts(paired_difference(mine, own[:, s])), "_delta": (mine - own[:, s]).tolist()}
    for seat, bots in cells.items():
        for bot in [b for b in bots if b != "strong"]:
            if "strong" in bots:
                a, b = np.array(bots[bot]["_delta"]), np.array(bots["strong"]["_delta"])
                bots[bot]["minus strong"] = _pts(paired_difference(a, b))
        for v in bots.values():
            if isinstance(v, dict):
                v.pop("_delta", None)
    data["exploit"] = cells
    if args.fit:  # the held-out regret table the fit command printed (research/expert_iteration.py fit)
        fit = {}
        for line in Path(args.fit).read_text().splitlines():
            cols = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cols) == 8 and cols[1].isdigit():
                value, low, high = (float(x) for x in cols[5].replace("(", "").replace(")", "").replace("to", "").split())
                fit[cols[0]] = {"decisions": int(cols[1]), "changed": int(cols[2]), "difference": [value, low, high]}
        data["fit"] = fit
    Path(args.data).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(json.dumps(data, indent=1, sort_keys=True))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    h = sub.add_parser("h2h")
    h.add_argument("out")
    h.add_argument("--games", type=int, default=1500)
    h.add_argument("--seed", type=int, default=21)
    h.add_argument("--only-kinds", help="research: sharp's correction at these kinds only (comma-separated names)")
    e = sub.add_parser("exploit")
    e.add_argument("out")
    e.add_argument("--bot", default="sharp")
    e.add_argument("--games", type=int, default=400)
    e.add_argument("--seed", type=int, default=5)
    e.add_argument("--playouts", type=int, default=16)
    e.add_argument("--seats", type=int, nargs="+", default=[1, 2])
    e.add_argument("--only-kinds", help="research: sharp's correction at these kinds only (comma-separated names)")
    r = sub.add_parser("report")
    r.add_argument("out")
    r.add_argument("data")
    r.add_argument("--fit", help="the output of `expert_iteration.py fit` for the shipped correction")
    a = p.parse_args(argv)
    if a.command in ("h2h", "exploit") and a.games < 2:
        p.error("need 2+ games")
    if a.command == "exploit" and (a.playouts < 1 or any(not 1 <= s <= PLAYERS for s in a.seats)):
        p.error(f"need 1+ playouts and seats 1..{PLAYERS}")
    {"h2h": h2h, "exploit": exploit, "report": report}[a.command](a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
