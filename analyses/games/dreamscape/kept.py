"""Kept runs of the strong bot's distance from search: measured once, checked against the code, read by every study.

Issue #42 asks that every configuration a study reads under ``strong`` has strong's one-seat search gain
(``search:strong@8:late`` in one seat, strong in the others, against the all-strong games on the same deals)
measured in the same study folder, or taken from a kept run with the same seed and configuration. The
search player plays about 9 games/s, so the cells of every configuration the main study reads under strong
would cost the study half an hour: they are measured once, by the study pipeline itself, and kept here.

**Producing a kept run.** :func:`measure` writes a small study file (:func:`study_text`: the all-strong
games and the rotation ``["search:strong@8:late", "strong"]``, :data:`GAMES` games a seat) and plays it with
``dreamscape study``'s own runner into a study folder (resumable chunk by chunk, with its progress bar), then
:func:`keep_folder` files every cell of that folder into :data:`KEPT_FILE`::

    python -m analyses.games.dreamscape.kept measure --players 4 --variant sleep-token+shifting-tokens

A folder of any study that played such cells can be kept the same way
(``python -m analyses.games.dreamscape.kept keep FOLDER``).

**What a cell keeps** (:func:`cell_record`): players, the variant, the digest of the deck actually played
(:func:`deck_digest`), the seat, games, seed, the bot and the search player, the sha256 of the value the bot
played there (:func:`value_digest`, the value file's own checksum; ``none`` where the bot plays the expert
table alone), the sha256 of the whole engine row the bot plays there (:func:`row_digest`: the expert table it
plays at the decisions it does not look ahead at, fitted rows included, then its value), the paired counts (how many games had each pair of win credits, search seat and bot seat), so
the gain and its interval are recomputed (:func:`cell_from_counts`), never copied, and the digest of the
first :data:`FIRST_GAMES` games' outcomes of both seatings (:func:`outcome_digest`).

**Reading it.** :func:`kept_cells` gives a study folder's report the kept cells of the configurations it reads
under the bot, only where the seed, the player count and variant, the deck's digest and the value's digest
and the row's digest all match what the code plays; anything else leaves the configuration unmeasured (with the reason), never
a stale number. ``tests/test_kept_strong.py`` replays every kept cell's first games on the current engine:
a change to the bot or its value that was not measured again fails there, naming the cell and the command.
"""
from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from analyses.study.model import StudyError, StudyManifest, exploit_cell
from simcore.games.dreamscape import PACKAGE_DIR

KEPT_FILE = PACKAGE_DIR / "studies" / "kept" / "strong-distance.json"
FORMAT = 1
BOT = "strong"
SEARCH = "search:strong@8:late"  # the search player a study measures expert with, over strong (issue #42)
GAMES = 300  # games a seat, as the main study's cells over expert
FIRST_GAMES = 3  # games per seating whose outcomes are kept as a digest and replayed by the tests
CHUNK = 50  # games per chunk of a kept run: a run stopped part-way loses at most a few seconds a seat
COMMAND = "python -m analyses.games.dreamscape.kept measure"


def setup_of(players: int, variant: str, deck: dict | None = None):
    """The game's setup of a configuration (``deck``: a study manifest's deck record, None: the default deck)."""
    from analyses.games.dreamscape.study import deck_of_record
    from simcore.games.dreamscape import parse_setup

    return parse_setup(int(players), variant, None if deck is None else deck_of_record(deck))


def deck_digest(players: int, variant: str, deck: dict | None = None) -> str:
    """sha256 of the cards of the Sleep Deck a configuration plays, in the order they are dealt from (R1.3, R1.4)."""
    cards = setup_of(players, variant, deck).deck().cards
    return hashlib.sha256(json.dumps([list(c) for c in cards]).encode()).hexdigest()


def value_digest(bot: str, players: int, variant: str, deck: dict | None = None) -> str:
    """The sha256 of the value ``bot`` plays in this configuration (its value file's own checksum, over its arrays),
    or ``none`` when it plays the expert table alone there; ``-`` for a bot without a learned value.

    The value is looked up as the engine looks it up: by players and rules options, and the deck's family
    (:func:`simcore.games.dreamscape.decks.deck_family`: a single swap's deck plays the value trained across
    the single swaps where one is shipped)."""
    from simcore.games.dreamscape.bots.api import load_strategy
    from simcore.games.dreamscape.decks import deck_family
    from simcore.games.dreamscape.fast.strategies import get_record

    record = get_record(load_strategy(bot))
    tables = getattr(record, "tables", None)
    value_for = getattr(tables, "value_for", None)
    if value_for is None:
        return "-"
    setup = setup_of(players, variant, deck)
    options = setup.variant.options
    key = (int(players), bool(options.sleep_token), bool(options.shifting_tokens))
    family = deck_family(setup.deck(), options)
    value = value_for(key if family is None else key + (family,))
    return "none" if value is None else value.digest()


def row_digest(bot: str, players: int, variant: str, deck: dict | None = None) -> str:
    """The sha256 of the whole engine row ``bot`` plays in this configuration, as the engine looks it up
    (:func:`simcore.games.dreamscape.fast.strategies.weights_for`).

    For ``strong`` that is the expert table it plays at purchases and outside its lookahead, with any fitted
    rows overlaid (issue #41), followed by its value's packed trees. The value digest alone misses a change of
    the table: the 3-player Invasive Dreaming rows changed strong's games in ``PR:ID`` with the same value. Where
    strong looks ahead at a kind it passes elsewhere (:data:`simcore.games.dreamscape.fast.scratch.STRONG_RELEASED`),
    those kinds are digested too."""
    from simcore.games.dreamscape.bots.api import load_strategy
    from simcore.games.dreamscape.decks import deck_family
    from simcore.games.dreamscape.fast.strategies import get_record, weights_for

    from simcore.games.dreamscape.fast.scratch import LOOK_OFF, strong_released

    setup = setup_of(players, variant, deck)
    options = setup.variant.options
    record = get_record(load_strategy(bot))
    row = weights_for(record, int(players), bool(options.sleep_token), bool(options.shifting_tokens),
                      deck_family(setup.deck(), options))
    digest = hashlib.sha256(np.ascontiguousarray(row, dtype=np.float64).tobytes())
    # where strong looks ahead at a kind it passes elsewhere (scratch.STRONG_RELEASED) it plays other games with the
    # same row: the kinds are part of what it plays there (and only there, so every other digest stays as it was)
    released = strong_released(players, options.sleep_token, options.shifting_tokens)
    if getattr(record, "lookahead", LOOK_OFF) != LOOK_OFF and released:
        digest.update(f"looks ahead also at kinds {released}".encode())
    return digest.hexdigest()


def outcome_digest(score: np.ndarray, win: np.ndarray) -> str:
    """sha256 of games' outcomes: per game (rows) and seat (columns), the score and the win credit (R8.3)."""
    score = np.asarray(score, dtype=np.int64)
    win = np.asarray(win, dtype=np.float64)
    text = ";".join(",".join(f"{s}:{w!r}" for s, w in zip(srow, wrow)) for srow, wrow in zip(score.tolist(), win.tolist()))
    return hashlib.sha256(text.encode()).hexdigest()


def replay_digest(cell: dict, seating: Sequence[str], games: int = FIRST_GAMES) -> str:
    """The outcome digest of the first ``games`` games of a seating of a kept cell's configuration, played now."""
    from analyses.games import get_game

    game = get_game("dreamscape")
    setup = setup_of(cell["players"], cell["variant"])
    result = game.play_games(setup, list(seating), int(cell["seed"]), 0, games, engine="fast")
    return outcome_digest(result["score"], result["win"])


def seatings(cell: dict) -> tuple[list[str], list[str]]:
    """The cell's two seatings: the search player in its seat among the bot, and the bot on every seat."""
    own = [cell["bot"]] * int(cell["players"])
    mine = list(own)
    mine[int(cell["seat"]) - 1] = cell["search"]
    return mine, own


def cell_key(cell: dict) -> tuple:
    return (cell["bot"], cell["search"], int(cell["players"]), cell["variant"], int(cell["seat"]), int(cell["seed"]))


def cell_words(cell: dict) -> str:
    return (f"{cell['search']} over {cell['bot']}, {cell['players']} players, {cell['variant']}, seat {cell['seat']}, "
            f"seed {cell['seed']}")


def measure_command(cell: dict) -> str:
    """The one line that measures a kept cell's configuration again."""
    return f"{COMMAND} --players {cell['players']} --variant {cell['variant']} --seed {cell['seed']}"


# ----------------------------------------------------------------------------- the data file


def load_kept(path: str | Path | None = None) -> list[dict]:
    """The kept cells (an empty list when the file does not exist); a damaged file is named in one line."""
    path = Path(path) if path is not None else KEPT_FILE
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text())
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}, expected {FORMAT}")
        cells = data["cells"]
        for cell in cells:
            cell_key(cell)
            [(float(a), float(b), int(n)) for a, b, n in cell["counts"]]
            str(cell["deck_digest"]), str(cell["value_digest"]), str(cell["row_digest"]), str(cell["outcomes"]["search"])
        return cells
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise StudyError(f"{path}: damaged kept runs ({type(exc).__name__}: {exc})") from None


def save_kept(cells: list[dict], path: str | Path | None = None) -> Path:
    """Write the kept cells, replacing those of the same bot, search player, configuration, seat and seed."""
    from analyses.study.folder import updating, write_atomic

    path = Path(path) if path is not None else KEPT_FILE
    with updating(path):  # another producer filing at the same moment waits, so neither's cells are lost
        merged = {cell_key(c): c for c in load_kept(path)}
        merged.update({cell_key(c): c for c in cells})
        ordered = sorted(merged.values(), key=lambda c: (c["bot"], c["search"], c["seed"], c["players"], c["variant"],
                                                         c["seat"]))
        head = json.dumps({"format": FORMAT, "note": "kept runs of the strong bot's distance from search: "
                           "analyses/games/dreamscape/kept.py"})
        # one cell a line: a cell measured again is a one-line change in a review
        text = head[:-1] + ', "cells": [\n' + ",\n".join(json.dumps(c) for c in ordered) + "\n]}\n"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text.encode())
    return path


def cell_from_counts(cell: dict) -> dict:
    """The exploit row of a kept cell (:func:`analyses.tools.exploit.cell_row`), recomputed from its paired counts."""
    from analyses.tools.exploit import cell_row

    pairs = [(float(a), float(b), int(n)) for a, b, n in cell["counts"]]
    mine = np.repeat([a for a, _, _ in pairs], [n for _, _, n in pairs])
    own = np.repeat([b for _, b, _ in pairs], [n for _, _, n in pairs])
    return cell_row(cell["bot"], cell["search"], int(cell["players"]), cell["variant"], int(cell["seat"]) - 1, mine, own)


def paired_counts(mine: np.ndarray, own: np.ndarray) -> list[list]:
    """How many games had each pair (search seat's win credit, bot's win credit in that seat), sorted."""
    counts = Counter(zip(np.asarray(mine, dtype=float).tolist(), np.asarray(own, dtype=float).tolist()))
    return [[a, b, n] for (a, b), n in sorted(counts.items())]


# ----------------------------------------------------------------------------- producing


def study_text(players: int, variants: Sequence[str], games: int = GAMES, seed: int = 1, bot: str = BOT,
               search: str = SEARCH) -> str:
    """The study file of a kept run: the all-bot games and the search player in every seat, on the same deals."""
    names = ", ".join(json.dumps(v) for v in variants)
    return (f'name = "kept run: {search} over {bot}"\nseed = {int(seed)}\nchunk_size = {CHUNK}\n\n'
            f'[[configs]]\nlabel = "the bot on every seat"\ngames = {int(games)}\nplayers = {int(players)}\n'
            f'variants = [{names}]\nstrategy = {json.dumps(bot)}\n\n'
            f'[[configs]]\nlabel = "bot strength"\ngames = {int(games)}\nplayers = {int(players)}\n'
            f'variants = [{names}]\nrotate = [{json.dumps(search)}, {json.dumps(bot)}]\n')


def measure(players: int, variants: Sequence[str], out: str | Path | None = None, games: int = GAMES, seed: int = 1,
            path: str | Path | None = None, progress: bool = True) -> list[dict]:
    """Play a kept run with the study pipeline (resumable: the same ``out`` again continues it) and keep its cells.

    ``out`` defaults to ``out/kept-strong-<players>p-<variants>-seed<seed>``. Returns the cells kept.
    """
    from analyses.lab.studies import run_study
    from simcore.games.dreamscape.variants import parse_variant

    if games < FIRST_GAMES:
        raise StudyError(f"--games must be at least {FIRST_GAMES} (the digest keeps the first {FIRST_GAMES}), got {games}")
    names = [parse_variant(v).name for v in variants]
    for v in names:
        setup_of(players, v)  # a player count or variant the game refuses fails here, in one line
    folder = Path(out) if out is not None else Path("out") / f"kept-strong-{players}p-{'-'.join(names)}-seed{seed}".replace("+", "_").replace(":", "-")
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "kept-run.toml"
        config.write_text(study_text(players, names, games, seed))
        run_study(out=folder, config=config, seed=seed, progress=progress, report=False)
    return keep_folder(folder, path)


def keep_folder(folder: str | Path, path: str | Path | None = None, bot: str = BOT) -> list[dict]:
    """File every cell of ``bot`` a study folder played (search in one seat, the bot in the others, beside its
    all-bot games) into the kept runs; returns the cells kept."""
    from analyses.study.folder import finished_configs, read_manifest, scan_games
    from analyses.tools.exploit import study_seat_wins

    manifest = read_manifest(folder)
    if manifest.aggregate_only:
        raise StudyError(f"{folder}: an aggregate-only study keeps no games to pair")
    configs = finished_configs(folder)
    alone = {(c.variant, c.players): c for c in configs if set(c.strategies) == {bot}}
    deck = manifest.deck
    cells = []
    for c in configs:
        found = exploit_cell(c.strategies)
        if found is None or found[0] != bot or (c.variant, c.players) not in alone:
            continue
        _, search, seat = found
        own_config = alone[(c.variant, c.players)]
        mine = study_seat_wins(folder, c.id, seat)
        own = study_seat_wins(folder, own_config.id, seat, limit=mine.size)
        n = min(mine.size, own.size)
        if n < FIRST_GAMES:
            continue
        outcomes = {}
        for name, config in (("search", c), ("bot", own_config)):
            rows = (scan_games(folder, [config.id]).filter(pl.col("game") < FIRST_GAMES)
                    .select(["game", "seat", "score", "win"]).collect().sort(["game", "seat"]))
            shape = (FIRST_GAMES, c.players)
            outcomes[name] = outcome_digest(rows["score"].to_numpy().reshape(shape), rows["win"].to_numpy().reshape(shape))
        cells.append({
            "bot": bot, "search": search, "players": c.players, "variant": c.variant, "seat": seat + 1,
            "games": int(n), "seed": int(manifest.seed),
            "deck_digest": deck_digest(c.players, c.variant, deck),
            "value_digest": value_digest(bot, c.players, c.variant, deck),
            "row_digest": row_digest(bot, c.players, c.variant, deck),
            "counts": paired_counts(mine[:n], own[:n]), "outcomes": outcomes,
        })
    if not cells:
        raise StudyError(f"{folder}: no finished cell of search over {bot} beside its all-{bot} games to keep")
    save_kept(cells, path)
    return cells


# ----------------------------------------------------------------------------- reading


def kept_cells(manifest: StudyManifest, played: pl.DataFrame | None, bot: str = BOT,
               path: str | Path | None = None) -> tuple[pl.DataFrame | None, list[str]]:
    """The kept cells of the configurations a study reads under ``bot`` and did not measure itself.

    A configuration is read under the bot when the study played it with the bot on every seat. A kept
    cell stands in only when its seed, player count, variant, deck digest, value digest and row digest all match
    what the code plays for the study's configuration (:func:`deck_digest`, :func:`value_digest`, :func:`row_digest`). Returns the rows (the exploit table's columns and
    ``source``, ``from a kept run (seed S, N games)``) and one line per configuration left unmeasured.
    """
    from analyses.tools.exploit import COLUMNS

    read = sorted({(c.players, c.variant) for c in manifest.configs if set(c.strategies) == {bot} and c.players >= 2},
                  key=lambda x: (x[0], x[1] != "base", x[1]))
    measured = set()
    if played is not None and played.height:
        mine = played.filter(pl.col("strategy") == bot)
        measured = set(zip(mine["players"].to_list(), mine["variant"].to_list()))
    cells = load_kept(path)
    rows, missing = [], []
    for players, variant in read:
        if (players, variant) in measured:
            continue
        candidates = [c for c in cells if c["bot"] == bot and int(c["players"]) == players and c["variant"] == variant]
        reason = None
        if not candidates:
            reason = "no kept run"
        else:
            same_seed = [c for c in candidates if int(c["seed"]) == int(manifest.seed)]
            deck = deck_digest(players, variant, manifest.deck)
            value = value_digest(bot, players, variant, manifest.deck)
            if not same_seed:
                reason = f"kept runs of seed {', '.join(sorted({str(c['seed']) for c in candidates}))}, the study's is {manifest.seed}"
            elif any(c["deck_digest"] != deck for c in same_seed):
                reason = "the kept run dealt another deck"
            elif any(c["value_digest"] != value for c in same_seed):
                reason = f"the kept run played another value of {bot}"
            elif any(c["row_digest"] != row_digest(bot, players, variant, manifest.deck) for c in same_seed):
                reason = f"the kept run played another expert table under {bot}'s value"
            elif {int(c["seat"]) for c in same_seed} != set(range(1, players + 1)):
                reason = "the kept run misses a seat"
            else:
                for c in sorted(same_seed, key=lambda c: int(c["seat"])):
                    row = cell_from_counts(c)
                    row["source"] = f"from a kept run (seed {c['seed']}, {int(c['games']):,} games)"
                    rows.append(row)
        if reason is not None:
            missing.append(f"{players} players, {variant}: not measured ({reason}; measure: {COMMAND} "
                           f"--players {players} --variant {variant} --seed {manifest.seed})")
    frame = pl.DataFrame(rows, schema={**COLUMNS, "source": pl.Utf8}) if rows else None
    return frame, missing


# ----------------------------------------------------------------------------- the docs' table


def _points(value: float) -> str:
    """A change in points of win rate, signed, with the typographic minus the docs use: ``+9.7``, ``\u22124.0``."""
    return f"{value * 100:+.1f}".replace("-", "\u2212")


def _percent(value: float) -> str:
    return f"{value * 100:.1f}"


def table_lines(cells: Sequence[dict]) -> list[str]:
    """The kept cells as a markdown table (the research page's, so no number there is typed by hand): players,
    deck, seat, games, the bot's wins in that seat on the all-bot deals, the search player's wins there, and the
    search gain with its paired 95% interval, all recomputed from the paired counts (bold: the interval
    excludes 0)."""
    from analyses.games.dreamscape.words import variant_label

    head = ["| players | deck | seat | games | strong wins | search wins | search gain (points) |",
            "|---|---|---|---|---|---|---|"]
    rows = []
    for cell in sorted(cells, key=lambda c: (int(c["players"]), c["variant"], int(c["seat"]))):
        row = cell_from_counts(cell)
        gain = f"{_points(row['gain'])} ({_points(row['gain_low'])} to {_points(row['gain_high'])})"
        rows.append(f"| {cell['players']} | {variant_label(cell['variant'])} (`{cell['variant']}`) | {cell['seat']} "
                    f"| {int(cell['games']):,} "
                    f"| {_percent(row['own_win'])}% ({_percent(row['own_low'])} to {_percent(row['own_high'])}%) "
                    f"| {_percent(row['search_win'])}% ({_percent(row['search_low'])} to {_percent(row['search_high'])}%) "
                    f"| {f'**{gain}**' if row['significant'] else gain} |")
    return head + rows


def change_lines(before: Sequence[dict], after: Sequence[dict]) -> list[str]:
    """The same cells measured twice (another value or bot, the same deals) as a markdown table: players, rules,
    seat and each measurement's search gain with its paired 95% interval (bold: it excludes 0), recomputed from
    the paired counts; a cell only one of the two holds is left out."""
    from analyses.games.dreamscape.words import variant_label

    def gain(cell: dict) -> str:
        row = cell_from_counts(cell)
        text = f"{_points(row['gain'])} ({_points(row['gain_low'])} to {_points(row['gain_high'])})"
        return f"**{text}**" if row["significant"] else text

    old = {(int(c["players"]), c["variant"], int(c["seat"])): c for c in before}
    lines = ["| players | rules | seat | search gain before (points) | search gain after (points) |",
             "|---|---|---|---|---|"]
    for cell in sorted(after, key=lambda c: (int(c["players"]), c["variant"], int(c["seat"]))):
        key = (int(cell["players"]), cell["variant"], int(cell["seat"]))
        if key in old:
            lines.append(f"| {key[0]} | {variant_label(key[1])} | {key[2]} | {gain(old[key])} | {gain(cell)} |")
    return lines


# ----------------------------------------------------------------------------- the command


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m analyses.games.dreamscape.kept measure|keep|table ...``; bad input: one line, exit code 2."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m analyses.games.dreamscape.kept",
                                     description="Kept runs of search:strong@8:late over strong (issue #42).")
    sub = parser.add_subparsers(dest="what", required=True)
    m = sub.add_parser("measure", help="play a kept run with the study pipeline and keep its cells")
    m.add_argument("--players", type=int, required=True)
    m.add_argument("--variant", action="append", required=True, help="a variant text; repeat for several")
    m.add_argument("--games", type=int, default=GAMES)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--out", type=Path, default=None, help="the study folder (re-running resumes it)")
    m.add_argument("--kept", type=Path, default=None, help="the kept-runs file (default: the shipped one)")
    k = sub.add_parser("keep", help="keep the cells a finished study folder played")
    k.add_argument("folder", type=Path)
    k.add_argument("--kept", type=Path, default=None)
    t = sub.add_parser("table", help="print kept cells as the research page's markdown table")
    t.add_argument("--players", type=int, action="append", default=None, help="only these player counts; repeat")
    t.add_argument("--variant", action="append", default=None, help="only these variants (as kept); repeat")
    t.add_argument("--swaps", action="store_true", help="only the swap decks' cells")
    t.add_argument("--kept", type=Path, default=None)

    def fail(message: str) -> None:
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)

    parser.error = fail  # type: ignore[method-assign]
    for p in (m, k, t):
        p.error = fail  # type: ignore[method-assign]
    args = parser.parse_args(argv)
    from simcore.games import GameError

    try:
        if args.what == "table":
            from analyses.games.dreamscape.words import split_variant

            cells = [c for c in load_kept(args.kept)
                     if (args.players is None or int(c["players"]) in args.players)
                     and (args.variant is None or c["variant"] in args.variant)
                     and (not args.swaps or split_variant(c["variant"]).has_swaps)]
            if not cells:
                fail("no kept cell matches --players/--variant/--swaps (the variants are named as kept, e.g. FF:ID)")
            print("\n".join(table_lines(cells)))
            return 0
        if args.what == "measure":
            if args.players not in (2, 3, 4):
                fail(f"--players must be 2 to 4 (a seat needs an opponent to exploit), got {args.players}")
            cells = measure(args.players, args.variant, args.out, args.games, args.seed, args.kept)
        else:
            cells = keep_folder(args.folder, args.kept)
    except (StudyError, GameError, ValueError, OSError) as exc:
        fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    except KeyboardInterrupt:  # finished chunks are kept in the study folder
        print("interrupted: the same command resumes where it stopped", file=sys.stderr)
        return 130
    for cell in cells:
        row = cell_from_counts(cell)
        print(f"kept {cell_words(cell)}: {row['gain'] * 100:+.1f} ({row['gain_low'] * 100:+.1f} to "
              f"{row['gain_high'] * 100:+.1f}) points, {cell['games']:,} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
