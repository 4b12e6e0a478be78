"""`dreamscape certify STUDY`: every headline finding read again at a certified top rung, search over ``strong``.

**The top rung.** Every seat plays ``search:strong@16:late`` (:data:`PLAYOUTS`,
:data:`analyses.games.dreamscape.toprung.TOP_RUNG`): strong's own play, and in the last third of the game every
decision searched with 16 playouts per option. Its head-to-head margin over strong is measured and kept
(:mod:`analyses.games.dreamscape.toprung`), and every certify names it for the configurations it reads, or says
it was not measured there: at K = 8 the rung was strong's equal, at K = 16 it is stronger in every configuration
measured (2, 3 and 4 players, base game; 3 players with Sleep Token or the shifting tokens; 2 players with the shifting
tokens; docs/research/2026-11-28-certify.md).

**The page's claims** are corrected as one family by Holm's step-down correction (:func:`correct_page`,
:mod:`analyses.stats.multiple`), as the page "Findings at every skill level" corrects its own.

**What it plays.** Every configuration the study played with ``strong`` on every seat (its rules options and
the headline swap decks it rechecked) is played again with the top rung on every seat, on the study's own
first deals (game *g* of every configuration is dealt from the random stream (seed, *g*), so certified game
*g* pairs with the study's strong game *g*). The games are a study folder of their own, the subfolder
``certify/`` of the study (:data:`SUBFOLDER`): chunks, manifest, checks, one writer at a time, resume, and
a local or Dask backend, all the study pipeline's (:class:`analyses.study.folder.Study`).
``doubling`` plays the same configurations at 2K (``search:strong@32:late`` by default) too, to show whether any
verdict changes when the top rung itself gets stronger.

**How it reads a finding** (:func:`certified_findings`). A finding is a per-deal value: a seat's win credit
(its claim: the win rate against the fair share) or the change of the seat spread by a variant against its
baseline on the same deal (its claim: against zero). The certified estimate is the control variate of
:mod:`analyses.stats.control_variate` against strong's value on the same deal: strong played many more deals
than the top rung can afford, and its mean over all of them is known precisely. ``beta`` is fixed in advance
(:data:`BETA`, from the pilot of docs/research/2026-11-28-certify.md on other deals), so the estimate stays
unbiased.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analyses.stats.control_variate import control_variate
from analyses.games.dreamscape.toprung import margin_words, rung_margin, search_of
from analyses.stats.multiple import FAMILY_ALPHA, holm, p_from_interval
from analyses.study.botrows import OTHER_ROWS, read_bot_rows
from analyses.study.folder import (MANIFEST, Study, check_study, claim_folder, finished_configs, read_manifest,
                                   scan_games)
from analyses.study.model import GameDeal, RunConfig, StudyError

READ_BOT = "strong"  # the study's strongest level, the one the top rung reads again
# K: the budget of the top rung. Measured head to head against strong (toprung.py, the kept cells of 2, 3 and 4
# players, base): at K = 8 the rung is strong's equal within about 2 points (+0.3 and -0.2 points); at K = 16 it is
# stronger in 2 players (+3.2, interval +1.1 to +5.4, 400 deals), in 3 (+1.8, +0.6 to +3.0, 300 deals) and in 4
# (+2.0, +1.0 to +2.9, 300 deals)
# (docs/research/2026-11-28-certify.md, "the top rung head to head").
PLAYOUTS = 16
MAX_PLAYOUTS = 10_000  # the search player's own bound (dreamscape exploit -k)
SUBFOLDER = "certify"
KIND = "certify"
STUDY_KIND = "file"  # certify reads a study's findings (`dreamscape study`), not another kind of run's
# Games per configuration when not asked: what the +-3 point target needs for a seat's win rate in 3 players
# (sd 0.49 a deal: (1.96 * 0.49 / 0.03)^2 / 1.08, the control variate's measured reduction, about 950;
# docs/research/2026-11-28-certify.md), never more than the study played with strong (a certified deal needs
# strong's game on the same deal).
DEFAULT_GAMES = 1_000
CHUNK_SIZE = 25  # a few seconds of search games: a killed run loses little, and a cluster has chunks to share
# beta of the control variate, fixed in advance from the pilot (docs/research/2026-11-28-certify.md: 300 deals of
# seed 2, 3 players, base; the best betas of the three seats were 0.25 to 0.35, correlations 0.26 to 0.34). Never
# fitted on the deals an estimate reads: that would bias it. The spread changes take the seats' value (their own
# pilot, the same 300 deals under Sleep Token against base, found a best beta of 0.29; a beta off its best loses a little
# reduction, never the unbiasedness).
BETA = {"seat": 0.3, "spread change": 0.3}
# "No effect" at the top rung: the interval inside +-2 points of the fair share or zero (the same margin as the
# verdicts of the page "Findings at every skill level", reports/games/dreamscape/robust.py).
MARGIN = 0.02
# Fewer deals than this give no verdict ("too few deals"): the normal interval of a mean of win credits needs some
# tens of deals, and a handful of deals that all went one way has no spread at all (a zero-width interval).
MIN_VERDICT_DEALS = 20
TOO_FEW = "too few deals"


def top_rung(k: int = PLAYOUTS) -> str:
    return search_of(k)


def twin(config: RunConfig, k: int) -> RunConfig:
    """The configuration with the top rung of budget ``k`` on every seat, on the same variant and players."""
    return RunConfig(config.variant, config.players, (top_rung(k),) * config.players)


@dataclass(frozen=True)
class Parent:
    """The study a certify reads: its folder, what identifies it, its strong configurations and their games."""

    folder: Path
    seed: int
    identity: dict
    game: GameDeal
    strong: dict[str, tuple[RunConfig, int]]  # config id -> (config, games played)


def subfolder(study: str | Path) -> Path:
    return Path(study) / SUBFOLDER


def parent_identity(manifest) -> dict:
    """What says which study a certify folder belongs to: its name (quick or main), seed and plan fingerprint."""
    return {"name": manifest.meta.get("name", ""), "seed": manifest.seed, "plan": manifest.identity.get("plan")}


def read_parent(study: str | Path) -> Parent:
    """The study folder ``study`` as certify reads it; StudyError (one line) when it cannot be certified."""
    folder = Path(study)
    if not (folder / MANIFEST).is_file():
        raise StudyError(f"{folder}: not a study folder (no {MANIFEST}); give the folder `dreamscape study` wrote")
    m = check_study(folder)  # damaged chunks are named here
    kind = m.meta.get("kind") or STUDY_KIND
    if kind != STUDY_KIND:
        raise StudyError(f"{folder}: a study folder of a {kind} run; `dreamscape certify` reads a study's findings "
                         "(`dreamscape study`)")
    if m.aggregate_only:
        raise StudyError(f"{folder}: an --aggregate-only study keeps no per-game rows, which certify pairs deal by deal")
    strong = {c.id: (c, m.done_games(c.id)) for c in finished_configs(folder)
              if set(c.strategies) == {READ_BOT} and c.players >= 2}
    if not strong:
        raise StudyError(f"{folder}: no configuration was played with {READ_BOT} on every seat; certify reads the "
                         f"findings of the {READ_BOT} level again")
    return Parent(folder, m.seed, parent_identity(m), GameDeal.of_meta(m.meta, m.deck), strong)


def _check_own(parent: Parent, sub: Path) -> None:
    """A certify folder belongs to one study: a quick study's certify copied beside a main study is refused."""
    if not (sub / MANIFEST).is_file():
        return
    meta = read_manifest(sub).meta
    if meta.get("kind") != KIND:
        raise StudyError(f"{sub}: holds a study folder that is not a certify run; move it away")
    held = meta.get("parent") or {}
    if held != parent.identity:
        raise StudyError(f"{sub}: certifies another study ({held.get('name') or '?'}, seed {held.get('seed')}), "
                         f"not this one ({parent.identity['name'] or '?'}, seed {parent.seed}); move it away")


def plan(parent: Parent, games: int, doubling: bool, playouts: int = PLAYOUTS) -> list[tuple[RunConfig, RunConfig, int]]:
    """(strong configuration, its top-rung twin, games) to play, in the study's order; 2K twins after."""
    budgets = [playouts, 2 * playouts] if doubling else [playouts]
    return [(c, twin(c, k), min(games, n)) for k in budgets for c, n in parent.strong.values()]


def run(study: str | Path, games: int = DEFAULT_GAMES, doubling: bool = False, backend=None, progress=True,
        command: str = "", playouts: int = PLAYOUTS) -> dict:
    """Play the top rung's games of ``study`` into its ``certify/`` subfolder (resuming what is there) and
    read the findings; returns the folder, the games played and the findings as rows. ``playouts``: K of the
    top rung (default :data:`PLAYOUTS`; one folder may hold several budgets, each read on its own)."""
    if games < 2:
        raise StudyError(f"games must be at least 2 (a control variate needs two deals), got {games}")
    if not 1 <= playouts <= MAX_PLAYOUTS:
        raise StudyError(f"playouts must be 1 to {MAX_PLAYOUTS:,}, got {playouts}")
    parent = read_parent(study)
    sub = subfolder(study)
    release = claim_folder(parent.folder, parent.game.game, STUDY_KIND)  # the study is not written meanwhile
    try:
        _check_own(parent, sub)
        todo = plan(parent, games, doubling, playouts)
        fingerprint = hashlib.sha256(json.dumps([parent.identity, KIND]).encode()).hexdigest()[:16]
        meta = {"kind": KIND, "name": "certified top rung", "parent": parent.identity, "beta": BETA}
        with Study(sub, [t for _, t, _ in todo], 0, seed=parent.seed, chunk_size=CHUNK_SIZE, command=command,
                   meta=meta, plan=fingerprint, game=parent.game) as certify:
            for _, t, n in todo:
                certify.set_target(t, n)
            certify.save()
            played = certify.run(progress=progress, backend=backend)
    finally:
        release()
    rows = certified_findings(study)
    return {"folder": str(sub), "played": played, "findings": rows.to_dicts(), "bot_rows": bot_rows_lines(study)}


def _readings(study: str | Path):
    """The study's and its certify subfolder's bot rows against the code's (:mod:`analyses.study.botrows`)."""
    sub = subfolder(study)
    own = read_bot_rows(read_manifest(sub)) if (sub / MANIFEST).is_file() else None
    return read_bot_rows(read_manifest(study)), own


def bot_rows_lines(study: str | Path) -> list[str]:
    """One line per configuration of the study or its certify folder played by other bot rows than the code's, and
    one for a folder that recorded none (issue #42)."""
    parent, own = _readings(study)
    return [f"study: {line}" for line in parent.lines()] + ([f"certify: {line}" for line in own.lines()] if own else [])


def mark_other_rows(rows: list[dict], study: str | Path) -> list[dict]:
    """A certified verdict that rests on games of a bot whose recorded row differs from the code's reads
    ``played by other bot rows``: the study's strong games (both verdicts: the control variate pairs them)
    and the top rung's own (its verdict)."""
    parent, own = _readings(study)

    def hit(reading, r) -> bool:
        return reading is not None and any(reading.changed_bots(r["players"], v)
                                           for v in (r["variant"], r["baseline"]) if v is not None)

    for r in rows:
        if hit(parent, r):
            r["verdict"] = r["strong_verdict"] = OTHER_ROWS
        elif hit(own, r):
            r["verdict"] = OTHER_ROWS
    return rows


# ----------------------------------------------------------------------------- reading the findings


def _wins(folder: Path, config: RunConfig, games: int | None = None) -> np.ndarray:
    """Win credits (games, seats) of one configuration, games in order (the first ``games`` when given)."""
    part = scan_games(folder, [config.id]).select(["game", "seat", "win"]).collect().sort(["game", "seat"])
    win = part["win"].to_numpy().astype(np.float64).reshape(-1, config.players)
    return win if games is None else win[:games]


def _spread_contrast(win: np.ndarray) -> np.ndarray:
    """Per deal, the best seat's win credit minus the worst seat's, the seats picked from these games' rates (the
    convention of the study's own comparison table, analyses/tools/compare.py)."""
    rates = win.mean(axis=0)
    return win[:, int(np.argmax(rates))] - win[:, int(np.argmin(rates))]


def verdict(low: float, high: float, reference: float, margin: float = MARGIN, deals: int | None = None) -> str:
    """``above``/``below`` (the 95% interval excludes the reference), ``no effect`` (it lies within the margin of
    it) or ``unconfirmed``; ``too few deals`` below :data:`MIN_VERDICT_DEALS` deals or with no spread at all."""
    if deals is not None and deals < MIN_VERDICT_DEALS or not high > low:
        return TOO_FEW
    if low > reference:
        return "above"
    if high < reference:
        return "below"
    if reference - margin <= low and high <= reference + margin:
        return "no effect"
    return "unconfirmed"


def _row(topic: str, config: RunConfig, baseline: str | None, seat: int | None, k: int, reference: float,
         y: np.ndarray, x_all: np.ndarray) -> dict:
    n = y.size
    cv = control_variate(y, x_all[:n], x_all[n:], BETA[topic])
    strong = control_variate(x_all, x_all, x_all[:0], 0.0).plain  # strong's own mean over every deal it played
    e = cv.estimate
    return {
        "topic": topic, "players": config.players, "variant": config.variant, "baseline": baseline,
        "seat": seat, "level": top_rung(k), "playouts": k, "reference": reference,
        "value": e.value, "low": e.low, "high": e.high, "plain_low": cv.plain.low, "plain_high": cv.plain.high,
        "deals": cv.deals, "control_deals": cv.control_deals, "correlation": cv.correlation,
        "reduction": cv.reduction, "verdict": verdict(e.low, e.high, reference, deals=n),
        "strong_value": strong.value, "strong_low": strong.low, "strong_high": strong.high,
        "strong_verdict": verdict(strong.low, strong.high, reference, deals=x_all.size),
        "p": p_from_interval(e.value, e.low, e.high, reference),
        "strong_p": p_from_interval(strong.value, strong.low, strong.high, reference),
        "verdict_95": "", "strong_verdict_95": "", "family": 0, "rung_margin": "",
    }


SCHEMA = {"topic": pl.Utf8, "players": pl.Int64, "variant": pl.Utf8, "baseline": pl.Utf8, "seat": pl.Int64,
          "level": pl.Utf8, "playouts": pl.Int64, "reference": pl.Float64, "value": pl.Float64, "low": pl.Float64,
          "high": pl.Float64, "plain_low": pl.Float64, "plain_high": pl.Float64, "deals": pl.Int64,
          "control_deals": pl.Int64, "correlation": pl.Float64, "reduction": pl.Float64, "verdict": pl.Utf8,
          "strong_value": pl.Float64, "strong_low": pl.Float64, "strong_high": pl.Float64, "strong_verdict": pl.Utf8,
          "p": pl.Float64, "strong_p": pl.Float64, "verdict_95": pl.Utf8, "strong_verdict_95": pl.Utf8,
          "family": pl.Int64, "rung_margin": pl.Utf8}


def _baselines(configs: list[RunConfig]) -> dict[str, RunConfig]:
    """Each configuration's baseline among the strong ones: ``base`` at its player count (the rules options'
    and the swap decks' no-swap deck under the base rules), as the study's comparisons read them."""
    base = {c.players: c for c in configs if c.variant == "base"}
    return {c.id: base[c.players] for c in configs if c.players in base and c.variant != "base"}


def certified_findings(study: str | Path) -> pl.DataFrame:
    """Every finding the certify subfolder of ``study`` has games for, one row per finding and budget.

    Seats count from 1; values are fractions. ``value``/``low``/``high``: the control-variate estimate at the
    top rung and its 95% interval; ``plain_*``: the top rung's games alone; ``strong_*``: the study's strong
    level over all its deals; ``verdict`` and ``strong_verdict`` as :func:`verdict` reads them. An empty frame
    when the study has no certify folder yet.
    """
    study, sub = Path(study), subfolder(study)
    if not (sub / MANIFEST).is_file():
        return pl.DataFrame(schema=SCHEMA)
    parent = read_parent(study)
    _check_own(parent, sub)
    held = {c.id: c for c in finished_configs(sub)}
    strong_configs = [c for c, _ in parent.strong.values()]
    baselines = _baselines(strong_configs)
    rows = []
    for k in sorted({int(c.strategies[0].split("@")[1].split(":")[0]) for c in held.values()}):
        top = {c.id: _wins(sub, held[twin(c, k).id]) for c in strong_configs if twin(c, k).id in held}
        strong = {cid: _wins(study, parent.strong[cid][0]) for cid in top}
        for c in strong_configs:
            if c.id not in top or top[c.id].shape[0] < 2:
                continue
            for seat in range(c.players):
                rows.append(_row("seat", c, None, seat + 1, k, 1.0 / c.players, top[c.id][:, seat],
                                 strong[c.id][:, seat]))
        for c in strong_configs:
            base = baselines.get(c.id)
            if base is None or c.id not in top or base.id not in top:
                continue
            n = min(top[c.id].shape[0], top[base.id].shape[0])
            if n < 2:
                continue
            y = _spread_contrast(top[c.id][:n]) - _spread_contrast(top[base.id][:n])
            common = min(strong[c.id].shape[0], strong[base.id].shape[0])
            x = _spread_contrast(strong[c.id][:common]) - _spread_contrast(strong[base.id][:common])
            rows.append(_row("spread change", c, base.variant, None, k, 0.0, y, x))
    margins: dict[tuple, str] = {}
    for r in rows:
        key = (r["players"], r["variant"], r["playouts"])
        if key not in margins:
            margins[key] = margin_words(rung_margin(*key), *key)
        r["rung_margin"] = margins[key]
    return pl.DataFrame(mark_other_rows(correct_page(rows), study), schema=SCHEMA)


def correct_page(rows: list[dict], alpha: float = FAMILY_ALPHA) -> list[dict]:
    """The rows with every verdict of the certified page under Holm's correction (:mod:`analyses.stats.multiple`),
    as the page "Findings at every skill level" corrects its own.

    The family is every claim the page makes: each finding at the top rung at each budget played, and each
    finding under strong once (its strong cells repeat across budgets: one claim). A claim's p-value comes from
    its own 95% interval (``p``, ``strong_p``); an *above*/*below* verdict stays only when Holm keeps the claim,
    else it becomes *unconfirmed*. *No effect* (an equivalence within the margin) and *too few deals* are not
    significance claims and are left as they are; a claim with too few deals makes no claim and is not in the
    family. The uncorrected verdicts stay in ``verdict_95`` and ``strong_verdict_95``; ``family`` is the family's
    size. Returns new dicts, in the same order.
    """
    rows = [dict(r) for r in rows]
    keys = ("topic", "players", "variant", "baseline", "seat")
    strong_claims: dict[tuple, list[dict]] = {}
    for r in rows:
        strong_claims.setdefault(tuple(r[c] for c in keys), []).append(r)
    claims = [(r, "") for r in rows] + [(same[0], "strong_") for same in strong_claims.values()]
    for r in rows:
        r["verdict_95"], r["strong_verdict_95"] = r["verdict"], r["strong_verdict"]
    family = [(r, prefix) for r, prefix in claims if r[f"{prefix}verdict"] != TOO_FEW]  # no verdict: no claim
    kept = holm([r[f"{prefix}p"] for r, prefix in family], alpha)
    for (r, prefix), significant in zip(family, kept):
        if not significant and r[f"{prefix}verdict"] in ("above", "below"):
            for same in ([r] if not prefix else strong_claims[tuple(r[c] for c in keys)]):
                same[f"{prefix}verdict"] = "unconfirmed"
    for r in rows:
        r["family"] = len(family)
    return rows


def doubling_changes(rows: pl.DataFrame) -> pl.DataFrame:
    """The findings whose verdict at 2K differs from K's, for every K whose 2K was played too (``playouts``: K);
    empty when none does, or no doubling was played. A finding with too few deals at either budget has no
    verdict there to change, and is left out."""
    keys = ["topic", "players", "variant", "baseline", "seat"]
    out = []
    for k in sorted(set(rows["playouts"].to_list())):
        low = rows.filter(pl.col("playouts") == k).select(keys + ["playouts", "verdict"])
        high = rows.filter(pl.col("playouts") == 2 * k).select(keys + [pl.col("verdict").alias("verdict_2k")])
        both = low.join(high, on=keys, how="inner", nulls_equal=True)
        read = (pl.col("verdict") != TOO_FEW) & (pl.col("verdict_2k") != TOO_FEW)
        out.append(both.filter(read & (pl.col("verdict") != pl.col("verdict_2k"))))
    schema = {**{c: rows.schema[c] for c in keys}, "playouts": pl.Int64, "verdict": pl.Utf8, "verdict_2k": pl.Utf8}
    return pl.concat(out) if out else pl.DataFrame(schema=schema)
