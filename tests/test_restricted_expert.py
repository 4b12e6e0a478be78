"""The restricted expert bot (simcore.games.dreamscape.bots.restricted on ``expert``): it plays the expert's games exactly
unless a forbidden option is on offer, with the table of the configuration being played."""
from __future__ import annotations

import numpy as np
import pytest

from simcore.games.dreamscape.cards import DreamType
from simcore.games.dreamscape.decks import build_deck
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.bridge import decode_trace, play_traced
from simcore.games.dreamscape.reference import Game
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import DECISION_ID, Options
from simcore.games.dreamscape.bots.api import load_strategy
from simcore.games.dreamscape.bots.errors import StrategyError
from simcore.games.dreamscape.bots.expert import SHIPPED_DIR, read_table, row_index
from simcore.games.dreamscape.bots.features import N_FEATURES
from simcore.games.dreamscape.bots.restricted import expert_total, restricted

DECK = build_deck()
ID = DreamType.INVASIVE_DREAMING  # not in the base deck: a restriction of it never binds
SLEEP = Options(sleep_token=True)


@pytest.fixture(scope="module", autouse=True)
def expert():
    assert load_strategy("expert") == "expert"


def test_the_score_is_the_tables_row_for_the_kind_and_phase_by_hand():
    _, table = read_table(SHIPPED_DIR / "3p-base.toml")
    rng = np.random.default_rng(5)
    f = rng.normal(size=N_FEATURES)
    # Phases by the Sleep Deck left: early above 2/3, mid above 1/3, late the rest (2/3 itself is mid).
    for fraction, phase in ((0.9, "early"), (40 / 60, "mid"), (0.5, "mid"), (1 / 3, "late"), (0.0, "late")):
        f[20] = fraction  # F_DECK_FRACTION
        for kind in ("buy", "perform", "take_z"):
            row = table[row_index(kind, phase) * N_FEATURES:][:N_FEATURES]
            want = 0.0
            for j in range(N_FEATURES):
                want += row[j] * f[j]
            assert expert_total(table, DECISION_ID[kind], f) == want  # the same sum, bit for bit


@pytest.mark.parametrize("players, options", [(2, Options()), (3, Options()), (4, Options()), (2, SLEEP), (3, SLEEP)])
@pytest.mark.parametrize("what", ["buy", "perform"])
def test_a_restriction_that_never_binds_plays_the_experts_own_games_in_every_seat(players, options, what):
    name = restricted("expert", ID, what, players, options)
    cfg = SimConfig(players, options, DECK)
    own = simulate(cfg, 30, 7, "expert")
    for seat in range(players):
        r = simulate(cfg, 30, 7, [name if s == seat else "expert" for s in range(players)])
        assert np.array_equal(r.score, own.score) and np.array_equal(r.length, own.length)
        assert np.array_equal(r.performed, own.performed)
    # every decision of a traced game too (kind, seat, options, the pick)
    a = play_traced(DECK, players, options, 7, 3, [name] * players)[1]
    b = play_traced(DECK, players, options, 7, 3, ["expert"] * players)[1]
    assert np.array_equal(a, b)


def test_each_configuration_gets_its_own_wrapper_and_table():
    names = {restricted("expert", ID, "buy", p, o) for p, o in ((2, Options()), (3, Options()), (2, SLEEP))}
    assert names == {"expert!no-buy:ID@2p-base", "expert!no-buy:ID@3p-base", "expert!no-buy:ID@2p-sleep-token"}
    # The 3-player wrapper played in a 2-player game scores with the 3-player table: other games
    # (so the test above would catch a wrapper holding the wrong table).
    cfg = SimConfig(2, Options(), DECK)
    wrong = simulate(cfg, 30, 7, ["expert!no-buy:ID@3p-base"] * 2)
    own = simulate(cfg, 30, 7, "expert")
    assert not np.array_equal(wrong.score, own.score)


def test_the_expert_needs_the_configuration():
    with pytest.raises(StrategyError, match="configuration"):
        restricted("expert", ID, "buy")


def test_never_perform_never_performs_the_type():
    t = DreamType.LUCID_DREAMING
    name = restricted("expert", t, "perform", 3, Options())
    r = simulate(SimConfig(3, Options(), DECK), 200, 11, [name, "expert", "expert"])
    # A card's two types differ (R1.2): the other one is always there, so the seat never performs LD.
    assert r.performed[:, 0, t].sum() == 0
    assert r.performed[:, 0, :].sum() > 1000 and r.performed[:, 1:, t].sum() > 100  # the others do


def test_never_buy_buys_a_card_showing_the_type_only_when_every_option_does():
    t = DreamType.FLOATING_FREE
    name = restricted("expert", t, "buy", 3, Options())
    forced = free = others = 0
    for game in range(6):
        _, meta, opts = play_traced(DECK, 3, Options(), 8, game, [name, "expert", "expert"])
        g = Game.new(DECK, 3, GameRng(8, game), Options())
        for kind, seat, choices, choice in decode_trace(meta, opts):
            if kind == "buy":
                s = g.state

                def shows(c) -> bool:
                    if c == "stop":
                        return False
                    if "position" in c:
                        p = c["position"]
                        return not s.face_down[p - 1] and t in s.cards[s.dreamscape[p - 1]]
                    return t in s.cards[s.seats[seat].reserved[c["reserved"]]]

                if seat != 0:
                    others += shows(choice)
                elif shows(choice):
                    assert all(shows(c) for c in choices)  # R11: every option forbidden, no "stop" (R5.2)
                    forced += 1
                else:
                    free += 1
            g.apply(choice)
        assert g.over
    assert free > 20 and others > 5  # the unrestricted expert does buy Floating Free cards
