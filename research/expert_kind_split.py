"""Which decisions carry the search gain over a bot in one seat? One seat's cells of ``dreamscape exploit``, kind by kind.

    python -m research.expert_kind_split --strategy expert --players 3 --variant PR:ID --seat 3 \
        --games 400 --playouts 8 --kinds late,late:buy,late:perform --seed 1 [--json FILE]

For each ``--kinds`` entry P the seat plays ``search:BOT@K:P`` (``late``: every late decision searched;
``late:buy``: only the purchases of the last third, the bot everywhere else), every other seat the bot, on
the same deals as the all-bot games. Each row is that seat's row of
``dreamscape exploit --strategy BOT -p P --variant V -n N -k K --phases P --seed S``: the same functions
(:func:`analyses.tools.gameplay.seat_win_credits`, :func:`analyses.tools.exploit.cell_row`), the same
games, played for one seat only and with the all-bot games played once for every entry.
Used by docs/research/2026-11-28-expert-changed-games.md.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a file (python research/NAME.py) as well as a module
    sys.path.insert(0, str(ROOT))

from research._seat_cell import bad_seat, seat_cell_parser, write_run  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = seat_cell_parser(__doc__, "expert", 400)
    parser.add_argument("--kinds", default="late", help="comma-separated --phases values, e.g. late,late:buy")
    args = parser.parse_args(argv)
    if bad_seat(args, "expert_kind_split"):
        return 2

    from analyses.tools.exploit import cell_row
    from analyses.tools.gameplay import as_game, seat_win_credits

    game = as_game(None)
    setup = game.setup(args.players, args.variant)
    name = game.check_strategy(args.strategy, setup)
    seat = args.seat - 1
    t0 = time.perf_counter()
    own = seat_win_credits(game, setup, [name] * args.players, args.games, args.seed, 100, first=args.first)[:, seat]
    rows = []
    for phases in [p.strip() for p in args.kinds.split(",") if p.strip()]:
        t1 = time.perf_counter()
        search = game.check_strategy(game.search(name, args.playouts, phases), setup)
        seats = [name] * args.players
        seats[seat] = search
        mine = seat_win_credits(game, setup, seats, args.games, args.seed, 100, first=args.first)[:, seat]
        row = cell_row(name, search, args.players, game.variant_name(setup), seat, mine, own)
        row["phases"] = phases
        row["seconds"] = round(time.perf_counter() - t1, 1)
        rows.append(row)
        print(f"{phases:32s} gain {100 * row['gain']:+6.1f} ({100 * row['gain_low']:+.1f} to "
              f"{100 * row['gain_high']:+.1f})  own {100 * row['own_win']:.1f}%  {row['seconds']} s", flush=True)
    write_run(args, "research.expert_kind_split", argv if argv is not None else sys.argv[1:], t0, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
