"""Pleasant Dreams engines: fast == reference on every key of play_games for every bot, determinism,
chunking invariance, and bad inputs (one-line PDError)."""
from __future__ import annotations

import numpy as np
import pytest

from simcore.games import pleasant_dreams as pd

KEYS = {"game": (np.int64, 1), "winner": (np.int8, 1), "turns": (np.int16, 1), "wake": (np.int8, 2),
        "deck_left": (np.int16, 1), "dealt": (np.int8, 3), "used": (np.int8, 3)}


def same(a, b):
    assert set(a) == set(b) == set(KEYS)
    for k in KEYS:
        assert a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k]), k


@pytest.mark.parametrize("players, variant", [(2, "base"), (2, "lucid+start=2"), (1, "base"), (1, "start=4"),
                                              (1, "lucid+start=3"), (1, "start=4+actions=3"), (2, "start=0"),
                                              (2, "lucid+public-backs"),                 # P1.4 variant
                                              (1, "start=4+hand=mirror,mirror,shimmer")])  # P7.5, P8.6
@pytest.mark.parametrize("bots", [("random",), ("threshold",), ("threshold/no-barrier/no-mirror",),
                                  ("random", "threshold")])
def test_fast_equals_reference(players, variant, bots):
    setup = pd.parse_setup(players, variant)
    strategies = [bots[s % len(bots)] for s in range(players)]
    ref = pd.play_games(setup, strategies, 12, 40, 60, engine="reference")
    fast = pd.play_games(setup, strategies, 12, 40, 60, engine="fast")
    same(ref, fast)


@pytest.mark.parametrize("players, variant", [(2, "lucid"), (1, "start=4+actions=2"), (2, "lucid+public-backs"),
                                              (1, "start=4+hand=barrier,deep-sleep,mirror")])
def test_fast_equals_reference_search(players, variant):
    setup = pd.parse_setup(players, variant)
    strategies = ["search@2"] + ["threshold"] * (players - 1)
    same(pd.play_games(setup, strategies, 3, 0, 4, engine="reference"),
         pd.play_games(setup, strategies, 3, 0, 4, engine="fast"))


def test_custom_card_list_on_both_engines(tmp_path):
    # P1.1: a designer's own list (here 7 cards, harsher) plays identically on both engines
    f = tmp_path / "cards.toml"
    f.write_text("".join(f"[[card]]\nname = 'F{i}'\nsymbol = 'flip'\nfront = {i - 2}\nback = {2 - i}\n"
                         for i in range(4))
                 + "".join(f"[[card]]\nname = 'E{i}'\nsymbol = 'equal'\nvalue = {i}\n" for i in range(3)))
    cards = pd.load_cards(f)
    assert len(cards) == 7
    for players in (1, 2):
        setup = pd.parse_setup(players, "lucid", cards)
        ref = pd.play_games(setup, ["random"] * players, 4, 0, 100, engine="reference")
        same(ref, pd.play_games(setup, ["random"] * players, 4, 0, 100, engine="fast"))
        assert ref["deck_left"].max() <= 7


def test_results_shapes_and_meaning():
    setup = pd.parse_setup(2, "lucid")
    r = pd.play_games(setup, ["threshold", "random"], 1, 100, 50)
    for k, (dtype, ndim) in KEYS.items():
        assert r[k].dtype == dtype and r[k].ndim == ndim and len(r[k]) == 50
    assert list(r["game"]) == list(range(100, 150))
    assert r["dealt"].shape == (50, 2, 8) and (r["dealt"].sum(axis=2) == 2).all()
    assert (r["used"] <= r["dealt"]).all()
    # P6.1/P6.2: the loser is awake (5) or the winner ended on an empty deck
    for i in range(50):
        w = r["winner"][i]
        assert w in (0, 1)
        assert r["wake"][i, 1 - w] == 5 or (r["deck_left"][i] == 0 and r["wake"][i, w] < 5)


def test_solo_results():
    r = pd.play_games(pd.parse_setup(1, "start=4"), ["threshold"], 5, 0, 200)
    assert set(np.unique(r["winner"])) <= {0, -1}
    assert ((r["winner"] == -1) == (r["wake"][:, 0] == 5)).all()
    assert (r["deck_left"][r["winner"] == 0] == 0).all()


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_determinism_and_chunking(engine):
    setup = pd.parse_setup(2, "lucid")
    whole = pd.play_games(setup, ["random", "threshold"], 9, 0, 20, engine=engine)
    again = pd.play_games(setup, ["random", "threshold"], 9, 0, 20, engine=engine)
    a = pd.play_games(setup, ["random", "threshold"], 9, 0, 10, engine=engine)
    b = pd.play_games(setup, ["random", "threshold"], 9, 10, 10, engine=engine)
    same(whole, again)
    same(whole, {k: np.concatenate([a[k], b[k]]) for k in a})
    other = pd.play_games(setup, ["random", "threshold"], 10, 0, 20, engine=engine)
    assert not np.array_equal(whole["turns"], other["turns"]) or not np.array_equal(whole["dealt"], other["dealt"])


def test_threshold_beats_random():
    # the threshold bot is a real strategy: it survives solo far more often than random play
    setup = pd.parse_setup(1)
    t = (pd.play_games(setup, ["threshold"], 1, 0, 2000)["winner"] == 0).mean()
    r = (pd.play_games(setup, ["random"], 1, 0, 2000)["winner"] == 0).mean()
    assert t > r + 0.3


def test_restriction_is_obeyed():
    setup = pd.parse_setup(2, "lucid")
    r = pd.play_games(setup, ["random/no-mirror/no-suppression", "random"], 2, 0, 400)
    assert r["used"][:, 0, pd.ACTION_TYPES.index("mirror")].sum() == 0
    assert r["used"][:, 0, pd.ACTION_TYPES.index("suppression")].sum() == 0
    assert r["used"][:, 1, pd.ACTION_TYPES.index("mirror")].sum() > 0


def test_narrate_tells_the_same_game():
    setup = pd.parse_setup(2, "lucid")
    lines = pd.narrate(setup, ["threshold", "random"], 4, 7)
    r = pd.play_games(setup, ["threshold", "random"], 4, 7, 1, engine="reference")
    assert lines[-1] == f"seat {r['winner'][0] + 1} wins after {r['turns'][0]} turns"
    assert sum(line.startswith("turn ") for line in lines) == r["turns"][0]


@pytest.mark.parametrize("call, fragment", [
    (lambda s: pd.play_games(s, ["threshold"], 1, 0, 5), "need 2 strategies"),
    (lambda s: pd.play_games(s, "threshold", 1, 0, 5), "need 2 strategies"),
    (lambda s: pd.play_games(s, None, 1, 0, 5), "need 2 strategies"),
    (lambda s: pd.play_games(s, ["threshold", "nope"], 1, 0, 5), "unknown bot"),
    (lambda s: pd.play_games(s, ["threshold"] * 2, -1, 0, 5), "seed must be"),
    (lambda s: pd.play_games(s, ["threshold"] * 2, 1, -3, 5), "first_game must be"),
    (lambda s: pd.play_games(s, ["threshold"] * 2, 1, 0, 2.5), "n_games must be"),
    (lambda s: pd.play_games(s, ["threshold"] * 2, 1, 0, 5, engine="gpu"), "engine must be"),
    (lambda s: pd.play_games("base", ["threshold"] * 2, 1, 0, 5), "needs a Setup"),
    (lambda s: pd.solver_gap(s, "threshold", 1, 0), "positions must be"),
    (lambda s: pd.parse_setup(2, "base", cards="cards.toml"), "cards must come"),
])
def test_bad_inputs(call, fragment):
    with pytest.raises(pd.PDError) as err:
        call(pd.parse_setup(2))
    assert fragment in str(err.value) and "\n" not in str(err.value)


def test_zero_games():
    r = pd.play_games(pd.parse_setup(1), ["threshold"], 1, 5, 0)
    assert all(len(v) == 0 for v in r.values())


def test_import_compiles_nothing():
    import subprocess
    import sys
    code = ("import sys; import simcore.games.pleasant_dreams as pd; "
            "pd.parse_setup(2); print('simcore.games.pleasant_dreams.fast' in sys.modules, 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "False"


@pytest.mark.slow
@pytest.mark.parametrize("players, variant", [(2, "base"), (2, "lucid"), (1, "start=4"), (1, "lucid"),
                                              (2, "lucid+public-backs"), (1, "start=4+hand=barrier,shimmer")])
def test_fast_equals_reference_large(players, variant):
    setup = pd.parse_setup(players, variant)
    for bots in (["random"], ["threshold"], ["search@4"]):
        n = 20 if bots[0].startswith("search") else 1000
        same(pd.play_games(setup, bots * players, 77, 0, n, engine="reference"),
             pd.play_games(setup, bots * players, 77, 0, n, engine="fast"))
