"""Project Dreamscape's study chunks: how a chunk is played and which files it becomes.

The study pipeline (:mod:`analyses.study.folder`) reaches this module through the
wing's ``study_chunks`` hook (:class:`analyses.games.StudyChunks`, :mod:`analyses.games.dreamscape`): a
chunk is played on the fast engine as one :class:`~simcore.games.dreamscape.fast.SimResult`
and kept as three frames, the per-chunk sums (``agg``), the per-game rows
(``games``) and the held-card sums (``pairs``), which the Dreamscape analyses
(:mod:`analyses.games.dreamscape.balance`, ...) and the report read. A ``--deck`` composition travels in the task's
:class:`~analyses.study.model.GameDeal` as the manifest's deck record (:func:`deck_record`).

:func:`play_chunk` is module-level and driven by a picklable
:class:`~analyses.study.model.ChunkTask` only, so a Dask worker can run it.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from analyses.study.model import MAX_SEATS, ChunkTask, RunConfig
from simcore.games.dreamscape.cards import CODES, N_TYPES, card_code, parse_card
from simcore.games.dreamscape.decks import DeckSpec
from simcore.games.dreamscape.rules import SOLO_BANDS
from simcore.games.dreamscape.variants import parse_variant

BAND_HIGHS = np.array([high for _, high, _ in SOLO_BANDS[:-1]], dtype=np.float64)  # R10.5 upper bounds
BAND_LABELS = tuple(label for _, _, label in SOLO_BANDS)

_DECKS: dict[tuple, object] = {}
_SPECS: dict[str, DeckSpec] = {}


def deck_record(spec: DeckSpec) -> dict:
    """A deck composition as the manifest's JSON record (card order kept: it fixes the card ids, R1.3)."""
    return {
        "name": spec.name,
        "source": spec.source,
        "base": [[card_code(c), int(n)] for c, n in spec.base],
        "expansion": [[card_code(c), int(n)] for c, n in spec.expansion],
    }


def deck_of_record(data: dict) -> DeckSpec:
    """The composition of a manifest's deck record; ValueError when it is damaged."""
    try:
        return DeckSpec(
            name=str(data["name"]),
            base=tuple((parse_card(k), int(n)) for k, n in data["base"]),
            expansion=tuple((parse_card(k), int(n)) for k, n in data["expansion"]),
            source=str(data.get("source", "study manifest")),
        )
    except Exception as exc:  # noqa: BLE001 - any damage is a damaged manifest
        raise ValueError(f"damaged deck ({type(exc).__name__}: {exc})") from None


def task_deck(task: ChunkTask) -> DeckSpec | None:
    """The composition a task plays (None: the default deck), read once per process from its deal's record."""
    text = task.game.deck
    if text is None:
        return None
    spec = _SPECS.get(text)
    if spec is None:
        spec = _SPECS[text] = deck_of_record(task.game.deck_record)
    return spec


def config_deck(variant: str, deck_spec: DeckSpec | None = None):
    """The deck a configuration plays (cached per variant and composition)."""
    key = (variant, deck_spec)
    deck = _DECKS.get(key)
    if deck is None:
        deck = _DECKS[key] = parse_variant(variant).deck(deck_spec)
    return deck


def play_chunk(task: ChunkTask):
    """Play one chunk on the fast engine.

    Strategy specs that are not built in (``path.py:func``,
    ``linear:FILE.toml``) are loaded in the process that runs the chunk.
    """
    from simcore.games.dreamscape.fast import SimConfig, iter_chunks  # numba loads with the first chunk, not with the study modules

    config = task.config
    from simcore.games.dreamscape.bots.api import load_strategies  # numba loads with the first strategy

    names = load_strategies(config.strategies)
    variant = parse_variant(config.variant)
    sim = SimConfig(players=config.players, options=variant.options, deck=config_deck(config.variant, task_deck(task)))
    (result,) = list(iter_chunks(sim, task.games, task.seed, names, chunk_size=max(task.games, 1), first_game=task.first))
    return result


def result_games(result) -> int:
    """Games in a chunk's SimResult."""
    return int(np.asarray(result.score).shape[0])


def chunk_frames(result, config: RunConfig, aggregate_only: bool) -> list[tuple[str, pl.DataFrame]]:
    """The files of one chunk, in the order they are written: ``agg``, ``games`` (unless aggregate only), ``pairs``."""
    frames = [("agg", agg_frame(result, config))]
    if not aggregate_only:
        frames.append(("games", games_frame(result, config)))
    pairs = pairs_frame(result, config)
    if pairs is not None:
        frames.append(("pairs", pairs))
    return frames


def games_frame(result, config: RunConfig) -> pl.DataFrame:
    """Tidy per-game rows of a chunk: one row per game and seat.

    Columns: config, game, seat, strategy, score, z, turns, win, length,
    aborted, performed_XX and chain_XX for every dream type code XX.
    """
    n, p = result.score.shape
    columns = {
        "config": pl.repeat(config.id, n * p, eager=True, dtype=pl.Utf8),
        "game": np.repeat(np.arange(result.first_game, result.first_game + n, dtype=np.int64), p),
        "seat": np.tile(np.arange(p, dtype=np.int8), n),
        "strategy": pl.Series("strategy", np.tile(np.array(config.strategies[:p], dtype=object), n), dtype=pl.Utf8),
        "score": result.score.reshape(-1).astype(np.int16),
        "z": result.z.reshape(-1).astype(np.int16),
        "turns": result.turns.reshape(-1).astype(np.int16),
        "win": result.win.reshape(-1).astype(np.float64),
        "length": np.repeat(result.length, p).astype(np.int16),
        "aborted": np.repeat(result.aborted, p).astype(bool),
    }
    perf = result.performed.reshape(n * p, N_TYPES)
    chain = result.chain_by_type.reshape(n * p, N_TYPES)
    for t, code in enumerate(CODES):
        columns[f"performed_{code}"] = perf[:, t].astype(np.int16)
        columns[f"chain_{code}"] = chain[:, t].astype(np.int16)
    return pl.DataFrame(columns)


def agg_frame(result, config: RunConfig) -> pl.DataFrame:
    """Per-chunk sums per (config, seat, strategy): enough for every rate, mean and interval.

    Columns (one row per seat):

    * ``n`` games; ``aborted`` aborted games (R8.4, the same on every seat row);
    * ``sum_X`` / ``sum2_X`` (sum and sum of squares) of ``win`` (win credit,
      R8.3), ``score``, ``z``, ``turns`` and ``length`` (game length);
    * ``sum_winx_J`` (J = 0..3): sum over games of this seat's win credit times
      seat J's (covariances of seat win rates, for paired seat contrasts);
    * ``sum_ws`` / ``sum2_ws``: sum over games of this seat's win credit times
      the game's winning score (and its square). Summed over seats they give
      the sum (of squares) of the winning score over the non-aborted games,
      since the credits of a game add up to 1 and every winner has the
      highest score (R8.3);
    * ``sum_performed_XX`` / ``sum_chain_XX`` per dream type XX;
      ``more_XX``: games in which this seat performed XX more often than the
      mean over the game's seats, ``wins_more_XX`` the win credit in them;
    * ``band_0`` .. ``band_5``: games whose score falls in each R10.5 band.
    """
    score = np.asarray(result.score)
    n, p = score.shape
    win = np.asarray(result.win, dtype=np.float64)
    cols: dict[str, object] = {
        "config": pl.Series("config", [config.id] * p, dtype=pl.Utf8),
        "seat": np.arange(p, dtype=np.int8),
        "strategy": pl.Series("strategy", list(config.strategies[:p]), dtype=pl.Utf8),
        "n": np.full(p, n, dtype=np.int64),
    }
    length = np.broadcast_to(np.asarray(result.length, dtype=np.float64)[:, None], (n, p))
    for name, arr in (("win", win), ("score", score), ("z", result.z), ("turns", result.turns), ("length", length)):
        a = np.asarray(arr, dtype=np.float64)
        cols[f"sum_{name}"] = a.sum(axis=0)
        cols[f"sum2_{name}"] = (a * a).sum(axis=0)
    cols["aborted"] = np.full(p, int(np.asarray(result.aborted).sum()), dtype=np.int64)
    for j in range(MAX_SEATS):
        cols[f"sum_winx_{j}"] = (win * win[:, j:j + 1]).sum(axis=0) if j < p else np.zeros(p)
    ws = (win * score).sum(axis=1)[:, None]
    cols["sum_ws"] = (win * ws).sum(axis=0)
    cols["sum2_ws"] = (win * ws * ws).sum(axis=0)
    perf = np.asarray(result.performed, dtype=np.int64)
    chain = np.asarray(result.chain_by_type, dtype=np.int64)
    more = perf * p > perf.sum(axis=1, keepdims=True)  # performed more than the game's mean over seats
    perf_sum, chain_sum, more_sum = perf.sum(axis=0), chain.sum(axis=0), more.sum(axis=0)
    wins_more = (more * win[:, :, None]).sum(axis=0)
    for t, code in enumerate(CODES):
        cols[f"sum_performed_{code}"] = perf_sum[:, t]
        cols[f"sum_chain_{code}"] = chain_sum[:, t]
        cols[f"more_{code}"] = more_sum[:, t].astype(np.int64)
        cols[f"wins_more_{code}"] = wins_more[:, t]
    bands = np.searchsorted(BAND_HIGHS, score, side="left")  # score <= high of band k (R10.5)
    for k in range(len(BAND_LABELS)):
        cols[f"band_{k}"] = (bands == k).sum(axis=0).astype(np.int64)
    return pl.DataFrame(cols)


def pairs_frame(result, config: RunConfig) -> pl.DataFrame | None:
    """Per (config, seat, strategy, card label) sums of the cards held at game end.

    Columns: config, seat, strategy, card (``"FF/IS"`` as the deck writes it),
    seat_games_held (games in which the seat's REM stack held at least one
    copy), wins_held (win credit in those games), copies (copies held, summed
    over games). None when the result carries no ``held`` array.
    """
    held = getattr(result, "held", None)
    labels = list(getattr(result, "card_labels", None) or [])
    if held is None or not labels:
        return None
    held = np.asarray(held)
    n, p, c = held.shape
    uniq = list(dict.fromkeys(labels))
    index = {lab: i for i, lab in enumerate(uniq)}
    onehot = np.zeros((c, len(uniq)), dtype=np.float32)
    onehot[np.arange(c), [index[lab] for lab in labels]] = 1.0
    # float32 matrix product (BLAS): exact for these small counts, and much faster than integers.
    copies = np.rint(held.reshape(n * p, c).astype(np.float32) @ onehot).astype(np.int64).reshape(n, p, len(uniq))
    anyheld = copies > 0
    win = np.asarray(result.win, dtype=np.float64)
    seat_games = anyheld.sum(axis=0)  # (p, L)
    wins = (anyheld * win[:, :, None]).sum(axis=0)
    total = copies.sum(axis=0)
    L = len(uniq)
    return pl.DataFrame({
        "config": pl.Series("config", [config.id] * (p * L), dtype=pl.Utf8),
        "seat": np.repeat(np.arange(p, dtype=np.int8), L),
        "strategy": pl.Series("strategy", [config.strategies[s] for s in range(p) for _ in range(L)], dtype=pl.Utf8),
        "card": pl.Series("card", uniq * p, dtype=pl.Utf8),
        "seat_games_held": seat_games.reshape(-1).astype(np.int64),
        "wins_held": wins.reshape(-1),
        "copies": total.reshape(-1).astype(np.int64),
    })
