"""Chain scoring (R8.2): the rulebook's example, the whole chart and its extension."""
from __future__ import annotations

import pytest

from simcore.games.dreamscape.cards import parse_card
from simcore.games.dreamscape.scoring import chain_points, chain_points_by_type, chain_points_for_run, chain_runs, final_score


def stack(*codes: str):
    return [parse_card(c) for c in codes]


# The rulebook's chart (page 5) plus R8.2's 14 -> 46 ("Controlled Study" note) and
# the extension for designer decks: steps +7, +7, +8, +8 after 46.
CHART = {1: 0, 2: 2, 3: 4, 4: 6, 5: 8, 6: 10, 7: 13, 8: 16, 9: 20, 10: 24,
         11: 29, 12: 34, 13: 40, 14: 46, 15: 53, 16: 60, 17: 68, 18: 76}


@pytest.mark.parametrize("length,points", sorted(CHART.items()))
def test_r8_2_chart_per_run_length(length, points):
    assert chain_points_for_run(length) == points


@pytest.mark.parametrize("length,points", sorted(CHART.items()))
def test_r8_2_chart_via_a_real_stack(length, points):
    """A stack of `length` cards all showing FF (other type alternating so no other run forms)."""
    others = ["IS", "NT"]
    rem = stack(*[f"FF/{others[i % 2]}" for i in range(length)])
    assert chain_points(rem) == points
    assert final_score(rem, 3) == points - 3


def test_r8_2_zero_length_and_empty_stack():
    assert chain_points_for_run(0) == 0
    assert chain_points([]) == 0
    assert final_score([], 1) == -1


def test_rulebook_scoring_example_14_points_minus_4_z_is_10():
    """Rulebook 'Example Study Evaluation': 2 FF (2) + 2 CD (2) + 4 IS (6) + 3 RD (4) = 14; 4 Z -> 10.

    Built by hand: FF/IS, FF/IS, IS/CD, IS/CD, RD/NT, RD/LD, RD/PR: FF run 2,
    IS run 4 (cards 1-4), CD run 2 (cards 3-4), RD run 3 (cards 5-7); NT, LD,
    PR appear once each (runs of 1 score 0).
    """
    rem = stack("FF/IS", "FF/IS", "IS/CD", "IS/CD", "RD/NT", "RD/LD", "RD/PR")
    assert chain_points(rem) == 14
    assert final_score(rem, 4) == 10
    by_type = chain_points_by_type(rem)
    assert by_type[0] == 2 and by_type[6] == 2 and by_type[1] == 6 and by_type[5] == 4
    assert sum(by_type) == 14


def test_r8_2_a_card_counts_in_the_runs_of_both_its_types():
    """FF/IS, FF/IS, IS/NT: the middle card is in the FF run (2) and the IS run (3): 2 + 4."""
    rem = stack("FF/IS", "FF/IS", "IS/NT")
    assert chain_points(rem) == 6
    assert sorted(chain_runs(rem)) == [(0, 0, 2), (1, 0, 3)]


def test_r8_2_same_type_runs_are_counted_separately():
    """FF FF | IS | FF FF FF: runs of 2 and 3 score 2 + 4 = 6, not a run of 5 (8)."""
    rem = stack("FF/NT", "FF/LD", "IS/PR", "FF/RD", "FF/CD", "FF/SD")
    assert chain_points(rem) == 6
    assert sorted(r for r in chain_runs(rem) if r[0] == 0) == [(0, 0, 2), (0, 3, 3)]


def test_r8_2_runs_are_adjacent_only_and_order_matters():
    """Same cards, different order: adjacency is what scores."""
    apart = stack("FF/NT", "IS/LD", "FF/PR", "IS/RD")
    together = stack("FF/NT", "FF/PR", "IS/LD", "IS/RD")
    assert chain_points(apart) == 0
    assert chain_points(together) == 4


def test_r8_2_orientation_does_not_matter():
    assert chain_points(stack("FF/IS", "IS/FF", "FF/IS")) == chain_points(stack("IS/FF", "FF/IS", "IS/FF")) == 8


def test_r8_2_chart_steps_are_monotonic_and_match_the_rulebook_steps():
    """Chart steps: +2 up to 6, then 3,3,4,4,5,5,6 (from the printed chart), extension 7,7,8,8."""
    steps = [chain_points_for_run(n + 1) - chain_points_for_run(n) for n in range(2, 18)]
    assert steps == [2, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8]
