"""The sharp bot (issue #42, item 4): strong plus a linear correction of the view per decision kind.

What is checked against what was worked out independently:
* a correction of zeros plays strong's games bit for bit (sharp = strong + 0), and the shipped one does not;
* a correction on one view input (the seat's own final score, input 0 of the view: encoding.py) moves each
  option's lookahead value by exactly coefficient x that score, a whole number of points (R8.2), so a large
  negative coefficient makes the seat take the option whose turn ends with its lowest score; a correction of another
  kind changes nothing;
* the shipped file is tied to the strong value it was fitted on (3 players, base) and sharp is strong's row
  everywhere else;
* every kind of bad file is one line naming it.
(The hidden-order check and the reference replay cover sharp in tests/test_strong.py.)
"""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers expert, strong and sharp
from simcore.fast_rng import seed_key
from simcore.games.dreamscape.bots.errors import StrategyError
from simcore.games.dreamscape.bots.sharp import (
    Correction, SharpTables, read_correction, shipped_corrections, write_correction,
)
from simcore.games.dreamscape.bots.strong import STAND_IN, StrongTables, read_value, shipped_values
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.isearch import first_search
from simcore.games.dreamscape.fast.layout import H_DECK_PTR, H_GAME_OVER, H_N_CARDS, knob_vector
from simcore.games.dreamscape.fast.runner import deck_arrays, strategy_args
from simcore.games.dreamscape.fast.strategies import get_record, register_strong
from simcore.games.dreamscape.fast.value import N_VIEW
from simcore.games.dreamscape.decks import SINGLE_SWAP, deck_from_swap_texts
from simcore.games.dreamscape.rules import DECISION_ID, DECISION_KINDS, Options
from tests.test_fast_search import FIELDS, _position

BASE = (3, False, False)
LOOKED_AT = ["perform", "floating_free", "interrupted_sleep", "night_terror", "lucid_dreaming"]


def _strong_tables() -> StrongTables:
    return StrongTables({k: (lambda p=p: read_value(p)) for k, p in shipped_values().items()}, stand_ins=STAND_IN)


def _register(name: str, coef_by_kind: dict[int, np.ndarray]) -> str:
    """A sharp bot of a hand-made correction in 3-player base games (fitted on the shipped base value)."""
    strong = _strong_tables()
    kinds = sorted(coef_by_kind)
    meta = {"strong value": strong.value_for(BASE).digest()}
    correction = Correction(kinds, np.array([coef_by_kind[k] for k in kinds]).reshape(len(kinds), N_VIEW), meta)
    register_strong(name, SharpTables(strong, {BASE: correction}), get_record("expert").weights)
    return name


def _same(a, b) -> bool:
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in FIELDS)


def test_a_zero_correction_plays_strongs_games_and_the_shipped_one_does_not():
    zero = _register("sharp-zero", {DECISION_ID[k]: np.zeros(N_VIEW) for k in LOOKED_AT})
    assert get_record(zero).tables[(3, False, False)].shape[0] > get_record("strong").tables[BASE].shape[0]
    cfg = SimConfig(3)
    strong = simulate(cfg, 30, 7, ["strong"] * 3)
    assert _same(simulate(cfg, 30, 7, [zero] * 3), strong)
    assert _same(simulate(cfg, 30, 7, [zero, "strong", "expert"]), simulate(cfg, 30, 7, ["strong", "strong", "expert"]))
    assert not _same(simulate(cfg, 30, 7, ["sharp"] * 3), strong)


def _late_base_positions(bot: str):
    """Late positions (the last third of the Sleep Deck) of 3-player base expert self-play, the active seat
    playing ``bot``."""
    deck = deck_from_swap_texts([])
    a, b = deck_arrays(deck)
    opt = Options()
    for game in range(8):
        for turns in range(6, 36):
            experts = strategy_args(["expert"] * 3, 3, opt)
            st, wk, fw = _position(a, b, 3, False, False, knob_vector(opt, 3), seed_key(8), game, turns, *experts)
            if st[H_GAME_OVER]:
                break
            if (st[H_N_CARDS] - st[H_DECK_PTR]) * 3 > st[H_N_CARDS]:
                continue
            seats = ["expert"] * 3
            seats[int(st[2])] = bot
            yield st, wk, fw, strategy_args(seats, 3, opt, deck)


def _decisions(bot: str):
    """The first lookahead decision of each late turn: (kind, options, values, pick)."""
    out = []
    for st, wk, fw, args in _late_base_positions(bot):
        kind, _seat, n, values, best = first_search(st, wk, fw, *args, 0)
        if kind >= 0:
            out.append((kind, n, values, best))
    return out


def test_a_correction_against_the_own_score_takes_the_option_whose_turn_ends_with_the_lowest_score():
    """Coefficient c on view input 0 (the seat's own final score when its turn ends) at every kind strong looks
    ahead at: each option's value moves by c x that score, a whole number (R8.2), the same score for c = 1 and
    c = -1000; with c = -1000 (a point worth far more than any win chance, which is at most 1, and counted
    against the seat) the seat takes an option whose turn ends with its lowest score, which strong does not
    take in several positions. The same correction on a kind never looked ahead at (buy) leaves every value
    strong's."""
    def unit(c):
        v = np.zeros(N_VIEW)
        v[0] = c
        return v

    every = [k for k in DECISION_KINDS if k not in ("buy", "take_z", "collective_dream")]
    strong = _decisions("strong")
    one = _decisions(_register("sharp-score-1", {DECISION_ID[k]: unit(1.0) for k in every}))
    big = _decisions(_register("sharp-score-minus-1000", {DECISION_ID[k]: unit(-1000.0) for k in every}))
    other = _decisions(_register("sharp-buy-only", {DECISION_ID["buy"]: unit(-1000.0)}))
    assert len(strong) >= 20 and len(one) == len(big) == len(other) == len(strong)
    flipped = 0
    for (kind, n, v, pick), (k1, n1, v1, _), (k2, n2, v2, pick2), (k3, _, v3, _) in zip(strong, one, big, other):
        assert kind == k1 == k2 == k3 and n == n1 == n2
        assert np.array_equal(v3, v)  # a buy correction: no change at these kinds
        shown = v > -1e8  # the options looked at (all of them here: at most 16)
        score = v1[shown] - v[shown]
        assert np.allclose(score, np.round(score), atol=1e-9)  # whole points
        assert np.allclose(v2[shown] - v[shown], -1000.0 * score, atol=1e-6)
        if shown.all() and (score != 0).all():  # (a turn that ends the game keeps its outcome: no correction)
            assert score[pick2] == score.min()
        flipped += pick2 != pick
    assert flipped >= 3


def test_the_shipped_correction_is_tied_to_the_base_value_and_sharp_is_strong_elsewhere():
    files = shipped_corrections()
    assert list(files) == [BASE]
    correction = read_correction(files[BASE])
    assert correction.meta["strong value"] == read_value(shipped_values()[BASE]).digest()
    assert correction.meta["players"] == 3 and correction.meta["variant"] == "base"
    assert {DECISION_KINDS[k] for k in correction.kinds} <= set(LOOKED_AT)  # kinds strong looks ahead at only
    sharp, strong = get_record("sharp").tables, get_record("strong").tables
    assert sharp[BASE].shape[0] > strong[BASE].shape[0]
    assert np.array_equal(sharp[BASE][: strong[BASE].shape[0]], strong[BASE])
    for key in [(2, False, False), (3, True, False), (3, False, True), (4, False, False), (3, False, False, SINGLE_SWAP)]:
        assert np.array_equal(sharp[key], strong[key]), key  # no correction fitted on the value played there


def _good(tmp_path):
    path = tmp_path / "c.npz"
    write_correction(path, Correction([3, 8], np.ones((2, N_VIEW)), {"players": 3}))
    return path


def _rewrite(path, **arrays):
    with np.load(path) as data:
        out = {k: data[k] for k in data.files}
    out.update(arrays)
    np.savez(path, **out)


@pytest.mark.parametrize("case, words", [
    ("missing", "does not exist"),
    ("text", "not a correction file"),
    ("no coef", "no array 'coef'"),
    ("shape", "coef must be 2 rows"),
    ("kind", "decision kind ids"),
    ("nan", "not a finite number"),
    ("changed", "checksum does not match"),
    ("format", "unknown format"),
    ("huge", "claims 8,000,000,000,000 bytes"),  # the header check strong's value files have, before np.load
])
def test_a_bad_correction_file_is_one_line_naming_it(case, words, tmp_path):
    path = _good(tmp_path)
    assert read_correction(path).kinds.tolist() == [3, 8]
    if case == "missing":
        path = tmp_path / "none.npz"
    elif case == "text":
        path.write_text("kinds,coef\n")
    elif case == "no coef":
        with np.load(path) as data:
            np.savez(path, kinds=data["kinds"], meta=data["meta"])
    elif case == "shape":
        _rewrite(path, coef=np.ones((2, 5)))
    elif case == "kind":
        _rewrite(path, kinds=np.array([3, 99]))
    elif case == "nan":
        coef = np.ones((2, N_VIEW))
        coef[1, 4] = np.nan
        _rewrite(path, coef=coef)
    elif case == "changed":
        _rewrite(path, coef=2 * np.ones((2, N_VIEW)))
    elif case == "format":
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
        _rewrite(path, meta=np.array(json.dumps(dict(meta, format=7))))
    elif case == "huge":
        import io
        import zipfile

        npy = io.BytesIO()
        np.lib.format.write_array_header_1_0(npy, {"descr": "<f8", "fortran_order": False, "shape": (10**12,)})
        npy.write(b"\0" * 64)
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("coef.npy", npy.getvalue())
    with pytest.raises(StrategyError) as err:
        read_correction(path)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_zip_that_is_no_correction_is_refused(tmp_path):
    path = tmp_path / "z.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("readme.txt", "hello")
    with pytest.raises(StrategyError, match="no array 'kinds'"):
        read_correction(path)


# ------------------------------------------------------------------ the research page's numbers

PAGE = Path(__file__).resolve().parents[1] / "docs" / "research" / "2026-11-28-sharp.md"
DATA = PAGE.parent / "data" / "2026-11-28-sharp.json"


def _signed(x: float, digits: int = 1) -> str:
    text = f"{x:+.{digits}f}"
    return ("+" + text[1:] if float(text) == 0 else text).replace("-", "−")


def _interval(v, digits: int = 1) -> str:
    return f"{_signed(v[0], digits)} ({_signed(v[1], digits)} to {_signed(v[2], digits)})"


def test_the_research_pages_numbers_are_the_data_files():
    """Every measured number of docs/research/2026-11-28-sharp.md is in its data file, as the page writes it
    (written by ``research/sharp_measure.py report``): head to head per seat and on the mean, the exploit cells
    and their differences, the held-out regret of the shipped correction."""
    data, page = json.loads(DATA.read_text()), PAGE.read_text()
    assert data["players"] == 3 and data["variant"] == "base"
    quoted = []
    for run in data["h2h"]:
        quoted.append(_interval(run["mean gain"]))
        for seat in run["seats"]:
            quoted += [_interval(seat["gain"]), f"{seat['sharp win'][0]:.1f}%", f"{seat['strong win']:.1f}%"]
    assert {(r["bot"], r["deals"]) for r in data["h2h"]} >= {
        ("sharp (interrupted_sleep, lucid_dreaming)", 10000), ("first fit (perform, interrupted_sleep, lucid_dreaming)", 10000)}
    for seat, cells in data["exploit"].items():
        for bot, cell in cells.items():
            quoted.append(_interval(cell["gain"]))
            if "minus strong" in cell:
                quoted.append(_interval(cell["minus strong"]))
    for kind in ("every kind", "interrupted_sleep", "lucid_dreaming"):
        quoted.append(_interval(data["fit"][kind]["difference"], 2))
    missing = [q for q in quoted if q not in page]
    assert not missing, f"not on the page as the data file has them: {missing}"


def test_the_listed_strength_claim_is_the_measured_one():
    """`dreamscape strategies` says how strong sharp is from the data file: search's gain over it in seats 1 and
    2 and its head-to-head gain over strong on the fresh deals (seed 23)."""
    from simcore.games.dreamscape.fast.strategies import describe

    data, line = json.loads(DATA.read_text()), describe("sharp")
    shipped = "sharp (interrupted_sleep, lucid_dreaming)"
    for seat in ("seat 1", "seat 2"):
        assert _interval(data["exploit"][seat][shipped]["gain"]).replace("−", "-") in line
    fresh = next(r for r in data["h2h"] if r["bot"] == shipped and r["seed"] == 23)
    assert _interval(fresh["mean gain"]).replace("−", "-") in line
