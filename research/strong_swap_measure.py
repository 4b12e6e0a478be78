"""One cell of ``dreamscape exploit``: the search gain over a bot in one seat of one configuration.

    python -m research.strong_swap_measure --strategy strong --players 3 --variant PR:ID --seat 3 \
        --games 300 --playouts 8 --phases late --seed 1 [--json FILE]

``dreamscape exploit`` plays every seat of a configuration; this plays one seat's cell only, with the very
functions the command uses (:func:`analyses.tools.gameplay.seat_win_credits` for the all-bot games and the
games with ``search:BOT@K:PHASES`` in the seat, :func:`analyses.tools.exploit.cell_row` for the row), so its
numbers are that seat's row of the command's table, on the same deals, at a third of the time in 3 players.
Used by docs/research/2026-11-28-strong-values-for-swaps.md.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a file (python research/NAME.py) as well as a module
    sys.path.insert(0, str(ROOT))

from research._seat_cell import bad_seat, seat_cell_parser  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = seat_cell_parser(__doc__, "strong", 300, first=False)
    parser.add_argument("--phases", default="late")
    args = parser.parse_args(argv)
    if bad_seat(args, "strong_swap_measure"):
        return 2

    from analyses.tools.exploit import cell_row
    from analyses.tools.gameplay import as_game, seat_win_credits

    game = as_game(None)
    setup = game.setup(args.players, args.variant)
    name = game.check_strategy(args.strategy, setup)
    search = game.check_strategy(game.search(name, args.playouts, args.phases), setup)
    seat = args.seat - 1
    t0 = time.perf_counter()
    own = seat_win_credits(game, setup, [name] * args.players, args.games, args.seed, 100)[:, seat]
    seats = [name] * args.players
    seats[seat] = search
    mine = seat_win_credits(game, setup, seats, args.games, args.seed, 100)[:, seat]
    row = cell_row(name, search, args.players, game.variant_name(setup), seat, mine, own)
    row["seconds"] = round(time.perf_counter() - t0, 1)
    row["seed"] = args.seed
    row["command"] = "python -m research.strong_swap_measure " + " ".join(argv if argv is not None else sys.argv[1:])
    text = json.dumps(row, indent=1)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
