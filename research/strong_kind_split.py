"""Which decisions carry the search gain over the strong bot in one seat? ``late`` against ``late`` without one kind.

    python -m research.strong_kind_split --players 2 --variant shifting-tokens --seat 1 --games 300 \
        --without buy,take_z,collective_dream --seed 1 [--json FILE]
    python -m research.strong_kind_split table RUN.json ...   # the research page's table from runs' JSON

Why not ``research.expert_kind_split --strategy strong --kinds late:buy``: a search player plays the
decisions it does not search with its policy, the expert table, not with the strong bot's lookahead
(``simcore/games/dreamscape/fast/isearch.py``, ``search_buffers``: "a kind it skips is played by its
policy"). Over ``expert`` that is the bot itself; over ``strong`` a row ``late:KIND`` plays the table at every
late perform, Floating Free, Shifting Dreams ... where strong looks ahead, so it measures the search at KIND
*and* the loss of strong's lookahead everywhere else (in 2-player shifting-tokens games seat 1,
``late:shifting_tokens`` reads -23.8 points over strong, docs/research/2026-11-28-strong-shifting-tokens.md).

What is exact instead: strong plays the expert table itself at the kinds it passes (buy, take Z, Collective
Dream: :data:`simcore.games.dreamscape.fast.scratch.STRONG_PASSED`). A row ``late`` without such a kind
plays that kind as strong does and searches every other late decision; the paired difference, deal by deal,
of ``late`` and that row is what searching the kind adds over strong's own play there (given the rest
searched). For a kind strong looks ahead at, the row without it plays the table there, not strong, so its
difference is printed but marked ``exact: false``.

Every row is that seat's row of ``dreamscape exploit --strategy strong -p P --variant V -n N -k K --phases
PHASES --seed S`` (:func:`analyses.tools.gameplay.seat_win_credits`, :func:`analyses.tools.exploit.cell_row`,
the same deals), with the all-strong games played once.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a file (python research/NAME.py) as well as a module
    sys.path.insert(0, str(ROOT))

from research._seat_cell import bad_seat, seat_cell_parser, write_run  # noqa: E402


def without(kind: str) -> str:
    """The ``--phases`` value searching every late decision but ``kind``'s (``late:sleep_token+take_z+...``)."""
    from simcore.games.dreamscape.rules import DECISION_KINDS

    return "late:" + "+".join(k for k in DECISION_KINDS if k != kind)


def points(value: float) -> str:
    """A share as signed points of win rate with one decimal (``+8.5``, ``−4.0``: the research pages' minus)."""
    text = f"{100 * value:+.1f}"
    return text.replace("-", "−")


def table_lines(runs: list[dict]) -> list[str]:
    """The markdown table of one or more runs' JSON (what the research page shows, checked by tests/test_research.py).

    Takes this script's runs and ``research/expert_kind_split.py``'s (one kind searched, the table elsewhere)."""
    lines = ["| players | rules | seat | bot | bot wins | searched in the last third | gain over the bot (points) "
             "| searching the kind adds |",
             "|---|---|---|---|---|---|---|---|"]
    for run in runs:
        for r in run["rows"]:
            if "without" not in r:  # a row of research/expert_kind_split.py: one kind searched, the table elsewhere
                what, adds = f"only `{r['phases']}`, the expert table at every other decision", ""
                lines.append(f"| {r['players']} | {r['variant']} | {r['seat']} | `{r['strategy']}` "
                             f"| {100 * r['own_win']:.1f}% | {what} | {points(r['gain'])} ({points(r['gain_low'])} "
                             f"to {points(r['gain_high'])}) | {adds} |")
                continue
            what = "every decision" if r["without"] is None else f"every decision but {r['without']}"
            adds = "" if r["without"] is None else (
                f"{points(r['kind_gain'])} ({points(r['kind_low'])} to {points(r['kind_high'])})"
                + ("" if r["exact"] else " (not exact)"))
            lines.append(f"| {r['players']} | {r['variant']} | {r['seat']} | `{r['strategy']}` | {100 * r['own_win']:.1f}% | {what} "
                         f"| {points(r['gain'])} ({points(r['gain_low'])} to {points(r['gain_high'])}) | {adds} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["table"]:  # python -m research.strong_kind_split table RUN.json ...
        print("\n".join(table_lines([json.loads(Path(f).read_text()) for f in argv[1:]])))
        return 0
    parser = seat_cell_parser(__doc__, "strong", 300)
    parser.add_argument("--without", default="buy,take_z,collective_dream",
                        help="comma-separated decision kinds, one row each: every late decision searched but these")
    args = parser.parse_args(argv)
    from simcore.games.dreamscape.fast.scratch import STRONG_PASSED, strong_released
    from simcore.games.dreamscape.rules import DECISION_ID

    if bad_seat(args, "strong_kind_split"):
        return 2
    kinds = [k.strip() for k in args.without.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in DECISION_ID]
    if unknown:
        print(f"strong_kind_split: unknown decision kind {unknown[0]!r}", file=sys.stderr)
        return 2

    import numpy as np

    from analyses.stats.intervals import paired_difference
    from analyses.tools.exploit import cell_row
    from analyses.tools.gameplay import as_game, seat_win_credits

    game = as_game(None)
    setup = game.setup(args.players, args.variant)
    name = game.check_strategy(args.strategy, setup)
    seat = args.seat - 1
    options = setup.variant.options
    released = strong_released(args.players, options.sleep_token, options.shifting_tokens)  # looked ahead at here
    t0 = time.perf_counter()

    def credits(strategy: str) -> np.ndarray:
        seats = [name] * args.players
        seats[seat] = strategy
        return seat_win_credits(game, setup, seats, args.games, args.seed, 100, first=args.first)[:, seat]

    own = credits(name)
    rows = []
    late = None
    for kind in [None] + kinds:
        t1 = time.perf_counter()
        phases = "late" if kind is None else without(kind)
        search = game.check_strategy(game.search(name, args.playouts, phases), setup)
        mine = credits(search)
        row = cell_row(name, search, args.players, game.variant_name(setup), seat, mine, own)
        row["phases"] = phases
        row["without"] = kind
        if kind is None:
            late = mine
        else:
            d = paired_difference(late, mine)  # what searching `kind` adds, deal by deal
            row.update(kind_gain=d.value, kind_low=d.low, kind_high=d.high,
                       exact=bool((STRONG_PASSED & ~released) >> DECISION_ID[kind] & 1))
        row["seconds"] = round(time.perf_counter() - t1, 1)
        rows.append(row)
        label = "late" if kind is None else f"late without {kind}"
        extra = "" if kind is None else (f"  searching {kind} adds {100 * row['kind_gain']:+.1f} "
                                         f"({100 * row['kind_low']:+.1f} to {100 * row['kind_high']:+.1f})"
                                         + ("" if row["exact"] else " [not exact: strong looks ahead there]"))
        print(f"{label:32s} gain {100 * row['gain']:+6.1f} ({100 * row['gain_low']:+.1f} to "
              f"{100 * row['gain_high']:+.1f})  own {100 * row['own_win']:.1f}%{extra}  {row['seconds']} s", flush=True)
    write_run(args, "research.strong_kind_split", argv, t0, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
