"""Should the strong bot look ahead at the kinds it leaves to the expert table? Variants of strong that do.

    python -m research.strong_passed_kinds h2h   --players 3 --variant base --bots strong+cd --games 2000 [--json F]
    python -m research.strong_passed_kinds gain  --players 3 --variant shifting-tokens --seat 1 \
        --bots strong,strong+cd --games 300 [--json F]
    python -m research.strong_passed_kinds speed --players 3 --variant base --bots strong+cd,strong+takez \
        --games 1000 --reps 3 [--json F]
    python -m research.strong_passed_kinds table RUN.json ...   # the research page's tables from the runs' JSON

The strong bot looks ahead one turn with its learned value at every late decision except buy, take Z and
Collective Dream (:data:`simcore.games.dreamscape.fast.scratch.STRONG_PASSED`), which it plays with the
expert table. The mask reaches the engine through the record's ``skip`` field (``register_strong``:
``phase_skip_bits(phases) | STRONG_PASSED``; the search loop reads it as ``modes[MD_SKIP, seat]``), so a
variant that clears some of those bits looks ahead there too with no engine change. The variants are
registered here only, never in the shipped registry: ``strong+cd`` (Collective Dream, R6.7), ``strong+takez``
(take Z), ``strong+buy``, and any ``+``-joined set of them (``strong+cd+takez``); ``strong+none`` clears no bit
and must play strong's games bit for bit (tests/test_research.py checks it).

``h2h``: the variant against ``strong`` in every seating of ``dreamscape tournament`` (the project's
:func:`analyses.tools.tournament.run_tournament`, duplicate deals): per deal, the variant's mean win credit per
seat it held minus strong's, with a 95% interval paired over the deals (0 is even).

``gain``: one seat's cell of ``dreamscape exploit`` for each bot (``search:BOT@K:late`` in the seat, BOT in the
others, against all-BOT games on the same deals: :func:`analyses.tools.gameplay.seat_win_credits`,
:func:`analyses.tools.exploit.cell_row`); with ``--bots strong,...`` each later bot's gain is also compared
with strong's, deal by deal. Caveat, read from the engine: a search over a strong variant is a search over
the strong bot (``LOOK_NESTED``), whose playouts play the later turns with the *shipped* strong bot in every
seat (``isearch.nested_buffers``: ``STRONG_SKIP``, a compiled constant), not with the variant; its own
searched decisions and its expert policy elsewhere are the same whatever the base. So the search player over
a variant models its opponents' Collective Dream / take Z choices as strong plays them.

``alone``: what the caveat leaves measurable: each variant alone in the seat among shipped strong bots, against
strong there (all strong) and against ``search:strong@K:late`` there, the kept cell's two seatings, on the same
deals. The search's model of the other seats is exact here, so "search minus variant" is the part of the kept
cell's gain the variant does not take in that seat.

``speed``: games/s of strong and of each variant, alternately in one process on the same deals (after a
warm-up), ``--reps`` times; the ratio variant / strong per repetition and its median.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a file (python research/NAME.py) as well as a module
    sys.path.insert(0, str(ROOT))

# the short names of the variants' extra kinds (the three STRONG_PASSED kinds)
SHORT = {"cd": "collective_dream", "takez": "take_z", "buy": "buy"}


def looked_at(name: str) -> list[str] | None:
    """The passed kinds ``name`` looks ahead at (``strong+cd+takez`` -> [collective_dream, take_z]);
    [] for ``strong+none``; None when ``name`` is not a variant of this script."""
    if not name.startswith("strong+"):
        return None
    parts = name[len("strong+"):].split("+")
    if parts == ["none"]:
        return []
    if not all(p in SHORT for p in parts) or len(set(parts)) != len(parts):
        return None
    return [SHORT[p] for p in parts]


def register_variant(name: str) -> str:
    """Register ``name`` (``strong+cd``, ...) as a copy of the shipped strong bot's record with those kinds'
    bits cleared from its skip mask (in this process only); returns the name. ValueError for an unknown name."""
    from dataclasses import replace

    import simcore.games.dreamscape.bots.builtins  # noqa: F401  (registers the shipped strong bot)
    from simcore.games.dreamscape.fast import strategies
    from simcore.games.dreamscape.fast.scratch import STRONG_PASSED
    from simcore.games.dreamscape.rules import DECISION_ID

    kinds = looked_at(name)
    if kinds is None:
        raise ValueError(f"unknown strong variant {name!r}: strong+ followed by {', '.join(SHORT)} joined with + "
                         "(or strong+none)")
    strong = strategies.get_record("strong")
    bits = sum(1 << DECISION_ID[k] for k in kinds)
    assert bits & STRONG_PASSED == bits  # only kinds strong passes (SHORT holds nothing else)
    kinds_text = ", ".join(kinds) or "nothing more"
    strategies._RECORDS[name] = replace(  # noqa: SLF001 - research only: the shipped registry has no such name
        strong, name=name, skip=strong.skip & ~bits, builtin=False,
        description=f"research: strong, also looking ahead at {kinds_text}")
    return name


def bot_names(text: str) -> list[str]:
    """``--bots`` as names, each variant registered (``strong`` is the shipped bot itself)."""
    names = [b.strip() for b in text.split(",") if b.strip()]
    if not names:
        raise ValueError("--bots names no bot")
    for b in names:
        if b != "strong":
            register_variant(b)
    return names


def points(value: float) -> str:
    """A share as signed points with one decimal and the research pages' minus (``+3.8``, ``−0.4``)."""
    return f"{100 * value:+.1f}".replace("-", "−")


def interval(value: float, low: float, high: float) -> str:
    return f"{points(value)} ({points(low)} to {points(high)})"


def h2h(args) -> dict:
    import numpy as np
    import polars as pl

    from analyses.stats.intervals import paired_difference
    from analyses.tools.tournament import run_tournament

    rows = []
    for bot in bot_names(args.bots):
        t0 = time.perf_counter()
        result = run_tournament([bot, "strong"], players=args.players, variant=args.variant,
                                games_per_seating=args.games, seed=args.seed, rating_games=100)
        per_deal = (result.games.group_by(["game", "strategy"]).agg(pl.col("win").mean())
                    .pivot(on="strategy", index="game", values="win").sort("game"))
        mine, theirs = per_deal[bot].to_numpy(), per_deal["strong"].to_numpy()
        d = paired_difference(mine, theirs)
        seatings = result.games["seating"].n_unique()
        rows.append({"players": args.players, "variant": result.variant, "bot": bot, "opponent": "strong",
                     "deals": args.games, "seatings": int(seatings), "seed": args.seed,
                     "bot_win": float(np.mean(mine)), "opponent_win": float(np.mean(theirs)),
                     "diff": d.value, "low": d.low, "high": d.high,
                     "seconds": round(time.perf_counter() - t0, 1)})
        print(f"{args.players}p {result.variant}: {bot} {100 * np.mean(mine):.1f}% per seat, strong "
              f"{100 * np.mean(theirs):.1f}%, difference {interval(d.value, d.low, d.high)} points, "
              f"{args.games} deals x {seatings} seatings, {rows[-1]['seconds']} s", flush=True)
    return {"what": "h2h", "rows": rows}


def gain(args) -> dict:
    from analyses.stats.intervals import paired_difference
    from analyses.tools.exploit import cell_row
    from analyses.tools.gameplay import as_game, seat_win_credits

    game = as_game(None)
    setup = game.setup(args.players, args.variant)
    seat = args.seat - 1
    rows, first = [], None
    for bot in bot_names(args.bots):
        t0 = time.perf_counter()
        name = game.check_strategy(bot, setup)
        search = game.check_strategy(game.search(name, args.playouts, "late"), setup)
        seats = [name] * args.players
        own = seat_win_credits(game, setup, seats, args.games, args.seed, 100)[:, seat]
        seats[seat] = search
        mine = seat_win_credits(game, setup, seats, args.games, args.seed, 100)[:, seat]
        row = cell_row(name, search, args.players, game.variant_name(setup), seat, mine, own)
        row["seed"] = args.seed
        if first is None:
            first = (name, mine - own)
        else:  # this bot's gain minus the first bot's, deal by deal (the same deals)
            d = paired_difference(mine - own, first[1])
            row.update(versus=first[0], gain_change=d.value, change_low=d.low, change_high=d.high)
        row["seconds"] = round(time.perf_counter() - t0, 1)
        rows.append(row)
        extra = "" if "versus" not in row else (f"; minus {row['versus']}'s gain: "
                                                + interval(row["gain_change"], row["change_low"], row["change_high"]))
        print(f"{args.players}p {row['variant']} seat {args.seat}: {bot} wins {100 * row['own_win']:.1f}%, "
              f"{search} {100 * row['search_win']:.1f}%, gain {interval(row['gain'], row['gain_low'], row['gain_high'])}"
              f"{extra}  {row['seconds']} s", flush=True)
    return {"what": "gain", "rows": rows}


def alone(args) -> dict:
    """Each variant alone in the seat among shipped strong bots, beside the kept cell's two seatings (all strong;
    ``search:strong@K:late`` in the seat): the search's model of the other seats is then exact (they are strong)."""
    from analyses.stats.intervals import paired_difference
    from analyses.tools.gameplay import as_game, seat_win_credits

    game = as_game(None)
    setup = game.setup(args.players, args.variant)
    seat = args.seat - 1
    bots = [b for b in bot_names(args.bots) if b != "strong"]
    t0 = time.perf_counter()
    search = game.check_strategy(game.search("strong", args.playouts, "late"), setup)

    def credits(bot: str):
        seats = ["strong"] * args.players
        seats[seat] = bot
        return seat_win_credits(game, setup, seats, args.games, args.seed, 100)[:, seat]

    own, mine = credits("strong"), credits(search)
    kept = paired_difference(mine, own)
    rows = []
    for bot in bots:
        single = credits(bot)
        swap, left = paired_difference(single, own), paired_difference(mine, single)
        rows.append({"players": args.players, "variant": game.variant_name(setup), "seat": args.seat, "bot": bot,
                     "search": search, "games": args.games, "seed": args.seed, "strong_win": float(own.mean()),
                     "bot_win": float(single.mean()), "search_win": float(mine.mean()),
                     "search_gain": kept.value, "search_low": kept.low, "search_high": kept.high,
                     "bot_gain": swap.value, "bot_low": swap.low, "bot_high": swap.high,
                     "left": left.value, "left_low": left.low, "left_high": left.high})
        print(f"{args.players}p {rows[-1]['variant']} seat {args.seat}, strong elsewhere: strong {100 * own.mean():.1f}%, "
              f"{bot} {100 * single.mean():.1f}%, {search} {100 * mine.mean():.1f}%; {bot} over strong "
              f"{interval(swap.value, swap.low, swap.high)}, search over {bot} {interval(left.value, left.low, left.high)}"
              f" (over strong {interval(kept.value, kept.low, kept.high)})", flush=True)
    return {"what": "alone", "rows": rows, "seconds_search": round(time.perf_counter() - t0, 1)}


def speed(args) -> dict:
    from simcore.games.dreamscape.fast import SimConfig, simulate
    from simcore.games.dreamscape.variants import parse_variant

    bots = [b for b in bot_names(args.bots) if b != "strong"]
    cfg = SimConfig(args.players, parse_variant(args.variant).options)
    for b in ["strong"] + bots:  # warm-up: compile / load, read the values
        simulate(cfg, 50, 1, b, chunk_size=50)
    rows = []
    for bot in bots:
        reps = []
        for rep in range(args.reps):
            t0 = time.perf_counter()
            simulate(cfg, args.games, 100 + rep, "strong", chunk_size=250)
            ts = args.games / (time.perf_counter() - t0)
            t0 = time.perf_counter()
            simulate(cfg, args.games, 100 + rep, bot, chunk_size=250)
            tv = args.games / (time.perf_counter() - t0)
            reps.append({"strong_games_per_s": ts, "bot_games_per_s": tv, "ratio": tv / ts})
            print(f"{bot} rep {rep + 1}: strong {ts:,.0f} games/s, {bot} {tv:,.0f} games/s, ratio {tv / ts:.3f}",
                  flush=True)
        rows.append({"players": args.players, "variant": args.variant, "bot": bot, "games": args.games,
                     "reps": reps, "ratio": statistics.median(r["ratio"] for r in reps)})
    return {"what": "speed", "rows": rows}


def table_lines(runs: list[dict]) -> list[str]:
    """The page's tables from runs' JSON, one table per kind of run (h2h, gain, speed), in the order given."""
    lines: list[str] = []
    for what in ("h2h", "gain", "alone", "speed"):
        rows = [r for run in runs if run["what"] == what for r in run["rows"]]
        if not rows:
            continue
        if lines:
            lines.append("")
        if what == "h2h":
            lines += ["| players | rules | bot | deals × seatings | bot's win credit per seat | strong's "
                      "| bot minus strong (points) |", "|---|---|---|---|---|---|---|"]
            lines += [f"| {r['players']} | {r['variant']} | `{r['bot']}` | {r['deals']} × {r['seatings']} "
                      f"| {100 * r['bot_win']:.1f}% | {100 * r['opponent_win']:.1f}% "
                      f"| {interval(r['diff'], r['low'], r['high'])} |" for r in rows]
        elif what == "gain":
            lines += ["| players | rules | seat | bot | deals | bot wins | search wins | gain over the bot (points) "
                      "| gain minus strong's gain |", "|---|---|---|---|---|---|---|---|---|"]
            lines += [f"| {r['players']} | {r['variant']} | {r['seat']} | `{r['strategy']}` | {r['games']} "
                      f"| {100 * r['own_win']:.1f}% | {100 * r['search_win']:.1f}% "
                      f"| {interval(r['gain'], r['gain_low'], r['gain_high'])} | "
                      + ("" if "versus" not in r else interval(r["gain_change"], r["change_low"], r["change_high"]))
                      + " |" for r in rows]
        elif what == "alone":
            lines += ["| players | rules | seat | bot | deals | strong wins | bot wins | search wins "
                      "| bot minus strong (points) | search minus bot (points) | search minus strong (points) |",
                      "|---|---|---|---|---|---|---|---|---|---|---|"]
            lines += [f"| {r['players']} | {r['variant']} | {r['seat']} | `{r['bot']}` | {r['games']} "
                      f"| {100 * r['strong_win']:.1f}% | {100 * r['bot_win']:.1f}% | {100 * r['search_win']:.1f}% "
                      f"| {interval(r['bot_gain'], r['bot_low'], r['bot_high'])} "
                      f"| {interval(r['left'], r['left_low'], r['left_high'])} "
                      f"| {interval(r['search_gain'], r['search_low'], r['search_high'])} |" for r in rows]
        else:
            lines += ["| players | rules | bot | games a run | strong, games/s | bot, games/s | bot / strong "
                      "| median ratio |", "|---|---|---|---|---|---|---|---|"]
            for r in rows:
                strong = ", ".join(f"{x['strong_games_per_s']:,.0f}" for x in r["reps"])
                bot = ", ".join(f"{x['bot_games_per_s']:,.0f}" for x in r["reps"])
                ratios = ", ".join(f"{x['ratio']:.2f}" for x in r["reps"])
                lines.append(f"| {r['players']} | {r['variant']} | `{r['bot']}` | {r['games']} | {strong} | {bot} "
                             f"| {ratios} | {r['ratio']:.2f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["table"]:
        try:
            runs = [json.loads(Path(f).read_text()) for f in argv[1:]]
        except (OSError, ValueError) as exc:
            print(f"strong_passed_kinds: {exc}", file=sys.stderr)
            return 2
        print("\n".join(table_lines(runs)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["h2h", "gain", "alone", "speed"])
    parser.add_argument("--bots", default="strong+cd", help="comma-separated: strong+cd, strong+takez, ... (gain: strong too)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--variant", default="base")
    parser.add_argument("--seat", type=int, default=1, help="gain: the seat searched, from 1")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--playouts", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    if not 1 <= args.seat <= args.players:
        print(f"strong_passed_kinds: --seat must be 1 to {args.players}", file=sys.stderr)
        return 2
    if args.games < 2 or args.reps < 1:
        print("strong_passed_kinds: --games must be at least 2 and --reps at least 1", file=sys.stderr)
        return 2
    try:
        bot_names(args.bots)
    except ValueError as exc:
        print(f"strong_passed_kinds: {exc}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    out = {"h2h": h2h, "gain": gain, "alone": alone, "speed": speed}[args.what](args)
    out.update(command="python -m research.strong_passed_kinds " + " ".join(argv), seed=args.seed,
               seconds=round(time.perf_counter() - t0, 1))
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
