"""The certified top rung measured against ``strong`` head to head, kept once and checked against the code.

Issue #42 asks for a top rung "measured stronger head to head" than ``strong``. The top rung of
``dreamscape certify`` is ``search:strong@K:late`` (:mod:`analyses.games.dreamscape.certify`); this module
measures it the way a tournament does: ``dreamscape tournament --strategy search:strong@K:late --strategy
strong -p P`` plays every seating of the two (in 2 players: each in seat 1 once; in 3 players: two searchers
and one strong bot, strong in each seat once) on the same deals (games 0..n-1 of one seed).

**The margin.** Per deal, the searcher's mean win credit over every seat it held in every seating of that deal
(shared wins split, R8.3); the margin is its mean over the deals minus the fair share 1/P, with the normal 95%
interval over the deals (the seatings of one deal are paired, so the deal is the unit). Above zero, and the
interval with it: the rung is stronger than strong there, head to head.

**Keeping it.** The measurement costs minutes to tens of minutes a cell, so it is measured once and kept in
:data:`RUNG_FILE` (:func:`cell_record`): the configuration, K, seed and games, the digests of the deck and of
strong's value played (those of :mod:`analyses.games.dreamscape.kept`), the per-deal values as counts (the margin
is recomputed from them, never copied) and the outcome digest of the first :data:`FIRST_GAMES` games of every
seating, which ``tests/test_certify.py`` replays on the current engine: a change to strong, its value, the
search player or the engine that was not measured again fails there, naming the cell and its command::

    python -m analyses.games.dreamscape.toprung --players 2 --playouts 8 --games 300 --seed 11

``--extend N`` plays N more deals after a kept cell's own (:func:`extend_cell`), without replaying them.

:func:`rung_margin` gives certify and the report the kept cell of a configuration and budget, only where its deck
and value digests match what the code plays now; otherwise the margin is "not measured".
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from analyses.stats.intervals import Z_95, Estimate
from analyses.study.model import StudyError
from simcore.games.dreamscape import PACKAGE_DIR

RUNG_FILE = PACKAGE_DIR / "studies" / "kept" / "top-rung.json"
FORMAT = 1
BOT = "strong"
FIRST_GAMES = 2  # games per seating whose outcomes are kept as a digest and replayed by the tests
COMMAND = "python -m analyses.games.dreamscape.toprung"


TOP_RUNG = "search:strong@{k}:late"  # the certified top rung of budget K (every seat of `dreamscape certify`)


def search_of(playouts: int) -> str:
    return TOP_RUNG.format(k=playouts)


def per_deal_share(win: np.ndarray, seatings: list[tuple[str, ...]], search: str) -> np.ndarray:
    """Per deal, the searcher's mean win credit over every seat it held in every seating (``win``: seatings x
    games x seats, the seatings in ``seatings``' order)."""
    mask = np.array([[s == search for s in seating] for seating in seatings], dtype=np.float64)  # seatings x seats
    total = np.einsum("sgp,sp->g", win, mask)
    return total / mask.sum()


def share_counts(values: np.ndarray) -> list[list]:
    """How many deals had each per-deal share, sorted (shares rounded to 12 digits: sums of a few halves/thirds)."""
    counts = Counter(round(float(v), 12) for v in values)
    return [[v, n] for v, n in sorted(counts.items())]


def margin(cell: dict) -> Estimate:
    """The searcher's win share minus the fair share, with the normal 95% interval over the deals, recomputed from
    the kept counts."""
    values = np.repeat([v for v, _ in cell["counts"]], [n for _, n in cell["counts"]]).astype(np.float64)
    fair = 1.0 / int(cell["players"])
    mean = float(values.mean())
    half = Z_95 * float(values.std(ddof=1)) / math.sqrt(values.size) if values.size > 1 else float("nan")
    return Estimate(mean - fair, mean - fair - half, mean - fair + half)


STRONGER, NOT_SHOWN, NOT_MEASURED = "stronger", "not shown stronger", "not measured"


def standing(cell: dict | None) -> str:
    """Where the rung stands against strong in a kept cell: *stronger* when the margin's 95% interval lies above zero,
    *not shown stronger* when it holds zero or lies below, *not measured* without a cell. A certified verdict read at a
    rung not shown stronger is a reading by another bot of about strong's strength, not by a level above it."""
    if cell is None:
        return NOT_MEASURED
    return STRONGER if margin(cell).low > 0 else NOT_SHOWN


def margin_words(cell: dict | None, players: int | None = None, variant: str = "", playouts: int | None = None) -> str:
    """``+4.1 points (+1.0 to +7.2) head to head over strong (2 players, base, 300 deals of seed 11): stronger`` (or
    ``...: not shown stronger``), or ``not measured (...)``; the last words are :func:`standing`'s."""
    if cell is None:
        return f"{NOT_MEASURED} ({players} players, {variant}, K = {playouts})"
    e = margin(cell)
    return (f"{100 * e.value:+.1f} points ({100 * e.low:+.1f} to {100 * e.high:+.1f}) head to head over {cell['bot']} "
            f"({cell['players']} players, {cell['variant']}, {cell['games']:,} deals of seed {cell['seed']}): "
            f"{standing(cell)}")


def seating_outcomes(players: int, variant: str, seating: tuple[str, ...], seed: int, games: int, first: int = 0):
    """(win credit, score) of games ``first .. first + games - 1`` of one seating, played now on the fast engine."""
    from analyses.tools.tournament import game_play

    result = game_play("dreamscape")(players, variant, tuple(seating), seed, first, games)
    return np.asarray(result["win"], dtype=np.float64), np.asarray(result["score"])


def replay_digests(cell: dict, games: int = FIRST_GAMES) -> list[str]:
    """The outcome digests of the first ``games`` games of every seating of a kept cell, played now."""
    from analyses.games.dreamscape.kept import outcome_digest

    out = []
    for seating in cell["seatings"]:
        win, score = seating_outcomes(cell["players"], cell["variant"], tuple(seating), cell["seed"], games)
        out.append(outcome_digest(score, win))
    return out


def measure_cell(players: int, variant: str, playouts: int, games: int, seed: int, progress: bool = True) -> dict:
    """Play the head-to-head tournament of the top rung of budget ``playouts`` against strong and return its
    record (:func:`cell_record`)."""
    from analyses.games.dreamscape.kept import deck_digest, outcome_digest, row_digest, value_digest
    from analyses.tools.tournament import schedule

    search = search_of(playouts)
    seatings = schedule([search, BOT], players)
    wins, firsts = [], []
    for i, seating in enumerate(seatings):
        win, score = seating_outcomes(players, variant, seating, seed, games)
        wins.append(win)
        firsts.append(outcome_digest(score[:FIRST_GAMES], win[:FIRST_GAMES]))
        if progress:
            print(f"seating {i + 1}/{len(seatings)} {seating}: searcher's share "
                  f"{per_deal_share(win[None], [seating], search).mean():.3f}", file=sys.stderr, flush=True)
    shares = per_deal_share(np.stack(wins), seatings, search)
    return {"players": players, "variant": variant, "playouts": playouts, "search": search, "bot": BOT,
            "seed": seed, "games": games, "seatings": [list(s) for s in seatings],
            "deck_digest": deck_digest(players, variant), "value_digest": value_digest(BOT, players, variant),
            "row_digest": row_digest(BOT, players, variant), "counts": share_counts(shares), "outcomes": firsts}


def extend_cell(cell: dict, more: int, progress: bool = True) -> dict:
    """The cell with ``more`` deals played after its own (games ``games .. games + more - 1`` of its seed, every
    seating), their per-deal shares added to its counts: a cell grows without playing its deals again."""
    wins = []
    for i, seating in enumerate(cell["seatings"]):
        win, _ = seating_outcomes(cell["players"], cell["variant"], tuple(seating), cell["seed"], more, cell["games"])
        wins.append(win)
        if progress:
            print(f"seating {i + 1}/{len(cell['seatings'])} {tuple(seating)}: {more} more deals", file=sys.stderr,
                  flush=True)
    shares = per_deal_share(np.stack(wins), [tuple(s) for s in cell["seatings"]], cell["search"])
    counts = Counter({v: n for v, n in cell["counts"]})
    counts.update(Counter(round(float(v), 12) for v in shares))
    return {**cell, "games": cell["games"] + more, "counts": [[v, n] for v, n in sorted(counts.items())]}


def command_of(cell: dict) -> str:
    return (f"{COMMAND} --players {cell['players']} --variant {cell['variant']} --playouts {cell['playouts']} "
            f"--games {cell['games']} --seed {cell['seed']}")


def load_cells(path: str | Path | None = None) -> list[dict]:
    """The kept cells; [] when the file is absent; StudyError (one line) when it is damaged."""
    path = Path(path or RUNG_FILE)
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text())
        cells = data["cells"]
        assert data["format"] == FORMAT and isinstance(cells, list)
        for c in cells:
            assert {"players", "variant", "playouts", "seed", "games", "counts", "seatings", "row_digest"} <= set(c)
    except (ValueError, KeyError, AssertionError, TypeError) as exc:
        raise StudyError(f"{path}: not a kept file of the top rung's head-to-head cells ({type(exc).__name__})") from None
    return cells


def keep(cell: dict, path: str | Path | None = None) -> None:
    """File ``cell`` into the kept file, replacing a cell of the same players, variant and budget."""
    from analyses.study.folder import updating, write_atomic

    path = Path(path or RUNG_FILE)
    key = (cell["players"], cell["variant"], cell["playouts"])
    with updating(path):  # another measurement filing at the same moment waits, so neither's cell is lost
        cells = [c for c in load_cells(path) if (c["players"], c["variant"], c["playouts"]) != key] + [cell]
        cells.sort(key=lambda c: (c["players"], c["variant"] != "base", c["variant"], c["playouts"]))
        note = ("The certified top rung (search:strong@K:late) against strong head to head, every seating on the same "
                f"deals; produced by `{COMMAND}`, read by analyses/games/dreamscape/toprung.py")
        write_atomic(path, (json.dumps({"format": FORMAT, "note": note, "cells": cells}, indent=1) + "\n").encode())


def rung_margin(players: int, variant: str, playouts: int, path: str | Path | None = None) -> dict | None:
    """The kept cell of the top rung of budget ``playouts`` in this configuration, or None when none was kept or
    the one kept played another deck, another value of strong or another expert table under it than the code
    plays now."""
    from analyses.games.dreamscape.kept import deck_digest, row_digest, value_digest

    for c in load_cells(path):
        if (c["players"], c["variant"], c["playouts"]) == (players, variant, playouts):
            if c["deck_digest"] == deck_digest(players, variant) and \
                    c["value_digest"] == value_digest(BOT, players, variant) and \
                    c.get("row_digest") == row_digest(BOT, players, variant):
                return c
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--variant", default="base")
    ap.add_argument("--playouts", type=int, required=True)
    ap.add_argument("--games", type=int, default=300, help="deals, each played by every seating")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--path", type=Path, default=None, help="the kept file (default: the package's)")
    ap.add_argument("--extend", type=int, default=0, help="play this many more deals after the kept cell's own")
    args = ap.parse_args(argv)
    if args.players not in (2, 3, 4) or args.games < 2 or args.playouts < 1 or args.extend < 0:
        print(f"error: players 2 to 4, games at least 2, playouts at least 1, extend at least 0; got {args.players}, "
              f"{args.games}, {args.playouts}, {args.extend}", file=sys.stderr)
        return 2
    try:  # a damaged kept file is named before the long run that would be filed into it, not after
        cells = load_cells(args.path)
    except StudyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.extend:
        kept = [c for c in cells
                if (c["players"], c["variant"], c["playouts"], c["seed"]) == (args.players, args.variant, args.playouts,
                                                                               args.seed)]
        if not kept:
            print(f"error: no kept cell of {args.players} players, {args.variant}, K = {args.playouts}, seed "
                  f"{args.seed} to extend", file=sys.stderr)
            return 2
        cell = extend_cell(kept[0], args.extend)
    else:
        cell = measure_cell(args.players, args.variant, args.playouts, args.games, args.seed)
    keep(cell, args.path)
    print(f"{search_of(args.playouts)}: {margin_words(cell)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
