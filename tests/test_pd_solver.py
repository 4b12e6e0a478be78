"""The exact solver: hand-worked values, agreement with exact enumeration over every deck order on both
engines, and solver_gap."""
from __future__ import annotations

import math

import numpy as np
import pytest

from simcore.games import pleasant_dreams as pd
from simcore.games.pleasant_dreams import fast as F
from simcore.games.pleasant_dreams import reference as R
from simcore.games.pleasant_dreams import scenario as SC
from simcore.games.pleasant_dreams import solver as S


def position(deck, wakes, actions=None, players=None):
    players = players or len(wakes)
    seats = [{"wake": w, "actions": (actions or [[]] * players)[s]} for s, w in enumerate(wakes)]
    return SC.build_reference({"setup": {"players": players, "deck": deck, "seats": seats}})


def test_hand_worked_value():
    # Solo at 3, deck Moon (showing) then Shadow (+3) and Calm Sea (-2) in an unknown order (2 worlds).
    # Flow 3 or 2 survives in exactly one world each (the +3 must come after the -2): 1/2.
    # Flow 1 (the Moon) then shows the next top card: take 1 if it is the Calm Sea, 2 if it is the
    # Shadow (the Calm Sea then resolves first): both worlds survive: 1.
    solver = S.Solver(position(["The Moon", "The Shadow", "The Calm Sea"], [3]))
    assert len(solver.worlds) == 2
    assert solver.value() == 1.0
    assert solver.option_values() == {1: 1.0, 2: 0.5, 3: 0.5}


def test_hand_worked_hopeless_and_certain():
    # at 2 a +3 always wakes; at 0 nothing in this deck can
    assert S.Solver(position(["The Moon", "The Shadow", "The Spider"], [2])).value() == 0.0
    assert S.Solver(position(["The Moon", "The Spider", "The Teddy Bear"], [0])).value() == 1.0


def fractional_positions():
    out = []
    for players, variant, strategy in [(1, "start=3", "threshold"), (2, "base", "threshold"),
                                       (2, "lucid", "random"), (1, "start=4+actions=3", "threshold")]:
        found = 0
        for p in S.sample_positions(pd.parse_setup(players, variant), strategy, 5, 40, 5):
            v = S.Solver(p).value()
            if 0 < v < 1 and found < 2:
                out.append(p)
                found += 1
    return out


POSITIONS = fractional_positions()


def test_found_fractional_positions():
    assert len(POSITIONS) >= 4
    assert {p.players for p in POSITIONS} == {1, 2}


@pytest.mark.parametrize("index", range(4))
def test_value_equals_enumeration_on_both_engines(index):
    # The solver's policy, replayed in every deck order consistent with the seat's knowledge, wins
    # exactly value * worlds of them, on the reference engine and (scripted) on the fast engine.
    pos = POSITIONS[index]
    solver = S.Solver(pos)
    value = solver.value()
    ref_wins = fast_wins = 0
    for world in S.worlds(pos, solver.seat):
        won, _ = S.play_policy(solver, world)
        ref_wins += won
        entries = record(solver, world)
        st, _ = SC.play_fast_scripted(world, entries)
        assert st[F.OVER] == 1 and st[F.STOP] == 0
        fast_wins += int(st[F.WINNER] == (0 if pos.players == 1 else solver.seat))
    n = len(solver.worlds)
    assert ref_wins == fast_wins == round(value * n)


def record(solver, world):
    """Every decision the reference engine asks (both seats) with its answer, in order."""
    asked = []

    class Recorder:
        def __init__(self, inner):
            self.inner = inner

        def choose(self, game, kind, options, info):
            choice = self.inner.choose(game, kind, options, info)
            asked.append((kind, choice))
            return choice

    game = world.copy()
    agents = [Recorder(R.ThresholdAgent()) for _ in range(game.players)]
    agents[solver.seat] = Recorder(S.PolicyAgent(solver))
    game.agents = agents
    R.play_game(game)
    return asked


def test_solver_does_not_peek():
    # P9: a clairvoyant solver (every slot known) does at least as well in every world, and strictly
    # better on some sampled position: the honest solver decides per information set, not per world.
    strictly = 0
    for pos in POSITIONS:
        honest = S.Solver(pos).value()
        clairvoyant = 0.0
        ws = S.worlds(pos, pos.active)
        for w in ws:
            for slot in w.deck:
                slot.known |= 1 << pos.active
            clairvoyant += S.Solver(w).value() / len(ws)
        assert honest <= clairvoyant + 1e-12
        strictly += honest < clairvoyant - 1e-12
    assert strictly >= 1


def test_solver_dominates_bots_on_every_position():
    # no bot, on any sampled position, wins more worlds than the exact solver
    for pos in POSITIONS:
        v = S.Solver(pos).value()
        for strategy in ("threshold", "random", "search@4"):
            assert S.bot_value(pos, strategy, 1, 0) <= v + 1e-12


def test_sampled_policy_matches_value_within_interval():
    # the solver bot's win frequency over random deck orders (sampled with replacement) lies in a 99.9%
    # interval around the stated value
    pos = POSITIONS[0]
    solver = S.Solver(pos)
    value = solver.value()
    ws = S.worlds(pos, solver.seat)
    rng = np.random.default_rng(7)
    n = 400
    wins = sum(S.play_policy(solver, ws[rng.integers(len(ws))])[0] for _ in range(n))
    half = 3.3 * math.sqrt(value * (1 - value) / n)
    assert abs(wins / n - value) <= half


def test_solver_gap_keys_and_ranges():
    gap = pd.solver_gap(pd.parse_setup(1, "start=4"), "random", 2, 8)
    assert set(gap) == {"strategy", "positions", "solver_win", "bot_win", "gap", "gap_low", "gap_high",
                        "max_cards"}
    assert gap["positions"] == 8 and gap["max_cards"] == 5
    assert 0 <= gap["bot_win"] <= gap["solver_win"] <= 1
    assert gap["gap"] == pytest.approx(gap["solver_win"] - gap["bot_win"])
    assert gap["gap_low"] <= gap["gap"] <= gap["gap_high"]


def test_solver_refuses_large_positions():
    g = R.new_game(pd.parse_setup(2), 1, 1)
    with pytest.raises(pd.PDError, match="too large"):
        S.Solver(g)
