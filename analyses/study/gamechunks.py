"""The study chunks of every game, through its interface (:meth:`simcore.games.Game.play_games`).

Every game's chunk is played by :func:`play_chunk` (module-level and driven by a
picklable :class:`~analyses.study.model.ChunkTask` only, so a Dask worker can run it)
and filed by :func:`chunk_frames`, so the study folder's mechanics (manifest,
lock, chunk checks, resume, backends, progress) serve every game the same way.

A game that declares :attr:`~simcore.games.Game.study_tables` (Project Dreamscape) is asked for
them (``play_games(..., tables=True)``) and each becomes the chunk file of its name
(:func:`table_frame`: ``config`` in front, each seat's ``strategy`` after ``seat``, every column
checked against its declared name and dtype). The lab's own ``agg`` and ``games`` files, for a game
that declares none of that name, are summed by :func:`game_agg_frame` / :func:`game_rows_frame`
from whatever arrays ``play_games`` returns:

* an array of shape (games,) becomes ``sum_KEY``/``sum2_KEY`` on every seat row;
* (games, seats) becomes the seat's ``sum_KEY``/``sum2_KEY``;
* (games, seats, k) becomes ``sum_KEY_i`` per ``i < k``;
* ``win`` (the game's :attr:`~simcore.games.Game.seat_wins`, added by the chunk
  function) also gives ``sum_winx_J`` (the products of two seats' credits).

The per-game rows (one per game and seat) keep the same arrays, for paired analyses.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numpy as np
import polars as pl

from analyses.study.model import MAX_SEATS, ChunkTask, GameDeal, RunConfig, StudyError

_CARDS: dict[tuple[str, str], object] = {}
_SETUPS: dict[tuple, object] = {}


def load_game(name: str):
    """The registry's game."""
    from analyses.games import get_game

    return get_game(name)


def cards_from_text(game, text: str | None):
    """The game's card list from a card file's text (None: the game's own cards), cached per process."""
    if text is None:
        return None
    key = (game.name, hashlib.sha256(text.encode()).hexdigest())
    cards = _CARDS.get(key)
    if cards is None:
        fd, name = tempfile.mkstemp(suffix=".toml", prefix="cards-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            cards = _CARDS[key] = game.load_cards(name)
        finally:
            os.unlink(name)
    return cards


def deal_cards(deal: GameDeal):
    """The cards a deal plays: its deck record read back by the game's wing
    (:attr:`analyses.games.LabWing.deck_of_record`), else its card file's text (:func:`cards_from_text`)."""
    from analyses.games import wing_of

    game = load_game(deal.game)
    if deal.deck is None:
        return cards_from_text(game, deal.cards)
    key = (deal.game, "deck", deal.deck)
    cards = _CARDS.get(key)
    if cards is None:
        read = wing_of(game).deck_of_record
        if read is None:
            raise StudyError(f"{game.title} keeps no deck record, but this study's deal carries one")
        cards = _CARDS[key] = read(deal.deck_record)
    return cards


def config_setup(deal: GameDeal, config: RunConfig):
    """The game setup a configuration plays (cached per process)."""
    key = (deal, config.variant, config.players)
    setup = _SETUPS.get(key)
    if setup is None:
        game = load_game(deal.game)
        setup = _SETUPS[key] = game.parse_setup(config.players, config.variant, deal_cards(deal))
    return setup


def play_chunk(task: ChunkTask) -> dict[str, np.ndarray]:
    """Play one chunk of ``task.game`` on its fast engine: its arrays plus ``win`` (games, seats), and the
    ``tables`` its game declares (:attr:`~simcore.games.Game.study_tables`)."""
    game = load_game(task.game.game)
    setup = config_setup(task.game, task.config)
    ask = {"tables": True} if game.study_tables else {}  # only a game that declares tables takes the keyword
    result = dict(game.play_games(setup, list(task.config.strategies), task.seed, task.first, task.games,
                                  engine="fast", **ask))
    result["win"] = game.seat_wins(result, setup)
    return result


def result_games(result: dict) -> int:
    """Games in a chunk result (a dict of arrays with ``game``)."""
    return int(np.asarray(result["game"]).shape[0])


def chunk_frames(result: dict, config: RunConfig, aggregate_only: bool, game) -> list[tuple[str, pl.DataFrame]]:
    """The files of one chunk of ``game``, in the order they are written: ``agg``, then ``games`` unless aggregate
    only (the game's declared tables of those names, else the lab's sums), then the game's other declared tables
    in their declared order (those the result holds)."""
    declared = game.study_tables
    tables = result.get("tables") or {}
    missing = [name for name in declared if name in LAB_TABLES and name not in tables]
    if missing:
        raise StudyError(f"{game.title}'s play_games(tables=True) returned no {missing[0]!r} table, which it declares")

    def frame(name: str, own) -> pl.DataFrame:
        return table_frame(game, name, tables[name], config) if name in declared else own(result, config)

    frames = [("agg", frame("agg", game_agg_frame))]
    if not aggregate_only:
        frames.append(("games", frame("games", game_rows_frame)))
    frames += [(name, table_frame(game, name, tables[name], config)) for name in declared
               if name not in LAB_TABLES and name in tables]
    return frames


LAB_TABLES = ("agg", "games")  # the chunk files every study writes (the lab's own unless the game declares them)


def table_frame(game, name: str, columns: dict, config: RunConfig) -> pl.DataFrame:
    """A declared table of ``game`` as a chunk file's frame: ``config`` first, then the declared columns in their
    order, each seat's ``strategy`` right after ``seat``; StudyError when a column is missing, undeclared or of
    another dtype than declared (a game's engine and its declaration out of step)."""
    schema = game.study_tables[name]
    extra = sorted(set(columns) - {col for col, _ in schema})
    if extra:
        raise StudyError(f"{game.title}'s {name} table has a column it does not declare: {extra[0]!r}")
    seat = np.asarray(columns.get("seat", ()))
    cols: dict[str, object] = {"config": pl.repeat(config.id, len(seat), eager=True, dtype=pl.Utf8)}
    for col, dtype in schema:
        if col not in columns:
            raise StudyError(f"{game.title}'s {name} table lacks its declared column {col!r}")
        a = np.asarray(columns[col])
        text = a.dtype.kind in "OUS"
        if (dtype == "str") != text or (not text and a.dtype != np.dtype(dtype)):
            raise StudyError(f"{game.title}'s {name} column {col!r} is {a.dtype}, declared {dtype}")
        cols[col] = pl.Series(col, a.tolist(), dtype=pl.Utf8) if text else a
        if col == "seat":
            cols["strategy"] = pl.Series("strategy", np.array(config.strategies, dtype=object)[a], dtype=pl.Utf8)
    return pl.DataFrame(cols)


def _seat_arrays(result: dict, p: int):
    """(name, per-seat float array (games, seats)) for every summed column of a result."""
    n = result_games(result)
    for key in sorted(result):
        if key in ("game", "win"):
            continue
        a = np.asarray(result[key], dtype=np.float64)
        if a.shape == (n,):
            yield key, np.broadcast_to(a[:, None], (n, p))
        elif a.ndim == 2 and a.shape == (n, p):
            yield key, a
        elif a.ndim == 3 and a.shape[:2] == (n, p):
            for i in range(a.shape[2]):
                yield f"{key}_{i}", a[:, :, i]


def game_agg_frame(result: dict, config: RunConfig) -> pl.DataFrame:
    """Per-chunk sums per (config, seat, strategy) of a plug-in game's result (see the module docstring)."""
    win = np.asarray(result["win"], dtype=np.float64)
    n, p = win.shape
    cols: dict[str, object] = {
        "config": pl.Series("config", [config.id] * p, dtype=pl.Utf8),
        "seat": np.arange(p, dtype=np.int8),
        "strategy": pl.Series("strategy", list(config.strategies[:p]), dtype=pl.Utf8),
        "n": np.full(p, n, dtype=np.int64),
        "sum_win": win.sum(axis=0),
        "sum2_win": (win * win).sum(axis=0),
    }
    for j in range(MAX_SEATS):
        cols[f"sum_winx_{j}"] = (win * win[:, j:j + 1]).sum(axis=0) if j < p else np.zeros(p)
    for name, a in _seat_arrays(result, p):
        cols[f"sum_{name}"] = a.sum(axis=0)
        cols[f"sum2_{name}"] = (a * a).sum(axis=0)
    return pl.DataFrame(cols)


def game_rows_frame(result: dict, config: RunConfig) -> pl.DataFrame:
    """Per-game rows of a plug-in game's chunk: one row per game and seat, every array as columns."""
    win = np.asarray(result["win"], dtype=np.float64)
    n, p = win.shape
    cols: dict[str, object] = {
        "config": pl.repeat(config.id, n * p, eager=True, dtype=pl.Utf8),
        "game": np.repeat(np.asarray(result["game"], dtype=np.int64), p),
        "seat": np.tile(np.arange(p, dtype=np.int8), n),
        "strategy": pl.Series("strategy", np.tile(np.array(config.strategies[:p], dtype=object), n), dtype=pl.Utf8),
        "win": win.reshape(-1),
    }
    for name, a in _seat_arrays(result, p):
        cols[name] = a.reshape(-1).astype(np.int32)
    return pl.DataFrame(cols)


def cards_text(path: str | Path | None) -> str | None:
    """The text of a ``--cards`` file, as a study keeps it (None: the game's own cards)."""
    from analyses.study.model import StudyError
    from simcore.files import read_text_file

    # through the same reader as the cards played: a pipe (--cards <(...)) is read once, and this is its text
    return None if path is None else read_text_file(path, "card file", StudyError)


def simulate_game(game, setup, strategies, games: int, seed: int, chunk_size: int, progress=None,
                  engine: str = "fast", shares: dict[str, tuple[str, int]] | None = None) -> dict:
    """Play ``games`` games of one configuration in chunks and summarise them per seat (``dreamscape simulate --game``).

    Per seat: win rate with its 95% Wilson interval and the mean of every
    per-seat array of the result; per game: the mean of every per-game array
    (turns, cards left, ...); ``shares`` (name -> (per-game array, value)): the share of games whose array
    holds that value (how a game ends). ``progress(done, total)`` is called after every chunk. The engine
    plays one game before the clock starts, so ``seconds`` and ``games_per_s`` count play, not its compile.
    """
    import time

    from analyses.stats.intervals import wilson

    p = setup.players
    wins = np.zeros(p)
    seat_sums: dict[str, np.ndarray] = {}
    game_sums: dict[str, float] = {}
    counts = dict.fromkeys(shares or {}, 0)
    done = 0
    game.play_games(setup, list(strategies), seed, 0, 1, engine=engine)  # compiled (or loaded) before the clock
    t0 = time.perf_counter()
    while done < games:
        n = min(chunk_size, games - done)
        result = game.play_games(setup, list(strategies), seed, done, n, engine=engine)
        wins += game.seat_wins(result, setup).sum(axis=0)
        for name, (key, value) in (shares or {}).items():
            counts[name] += int((np.asarray(result[key]) == value).sum())
        for key, value in result.items():
            a = np.asarray(value, dtype=np.float64)
            if key in ("game", "winner"):
                continue
            if a.ndim == 1:
                game_sums[key] = game_sums.get(key, 0.0) + float(a.sum())
            elif a.ndim == 2 and a.shape[1] == p:
                seat_sums[key] = seat_sums.get(key, 0.0) + a.sum(axis=0)
            elif a.ndim == 3 and a.shape[1] == p:
                seat_sums[key] = seat_sums.get(key, 0.0) + a.sum(axis=0)
        done += n
        if progress is not None:
            progress(done, games)
    seconds = time.perf_counter() - t0
    seats = []
    for s in range(p):
        est = wilson(float(wins[s]), games)
        row = {"seat": s, "strategy": strategies[s], "win_rate": est.value, "win_ci": [est.low, est.high]}
        for key, total in sorted(seat_sums.items()):
            v = np.asarray(total)[s] / games
            row[f"mean_{key}"] = v.tolist() if np.ndim(v) else float(v)
        seats.append(row)
    return {"game": game.name, "title": game.title, "players": p, "variant": game.variant_name(setup),
            "strategies": list(strategies), "games": games, "seed": seed, "seats": seats,
            **{f"mean_{k}": v / games for k, v in sorted(game_sums.items())},
            **{name: count / games for name, count in counts.items()},
            "seconds": round(seconds, 4), "games_per_s": round(games / seconds, 1) if seconds else None}


def warm_game(game) -> None:
    """Play one game of every built-in bot at every seat count on the fast engine (compiles it into the cache)."""
    for players in game.seat_counts:
        setup = game.parse_setup(players, "base", None)
        for bot in game.strategies():
            spec = game.check_strategy(bot, setup)
            game.play_games(setup, [spec] * players, 0, 0, 1, engine="fast")
