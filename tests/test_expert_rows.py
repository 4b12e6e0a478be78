"""The expert rows fitted for decisions the printed deck never asks (bots/data/expert/rows/), overlaid on a shipped table."""
from __future__ import annotations

import numpy as np

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers expert
from simcore.games.dreamscape.bots.api import load_strategy
from simcore.games.dreamscape.bots.expert import (
    PHASES,
    ROWS_DIR,
    SHIPPED_DIR,
    never_read_by_printed_deck,
    overlay_rows,
    read_table,
    row_index,
    shipped_tables,
)
from simcore.games.dreamscape.bots.features import N_FEATURES
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.scratch import EXPERT_WIDTH
from simcore.games.dreamscape.rules import DECISION_KINDS
from simcore.games.dreamscape.variants import parse_variant

# R6.9, R6.10, R6.11: the decisions of Invasive Dreaming, Empowered Dreaming and Paradigm Shift, the expansion
# types (R1.4): a game of the printed deck never asks them, so rows fitted for them cannot change its games.
EXPANSION_DECISIONS = {"invasive_dreaming", "empowered_dreaming", "paradigm_shift"}

FIELDS = ("score", "z", "turns", "win", "length", "aborted", "performed", "chain_by_type")


def _same(a, b):
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in FIELDS)


def _weighed_outside_the_mask(table):
    return np.flatnonzero(table[~never_read_by_printed_deck()])


def test_every_rows_file_belongs_to_a_shipped_table_and_holds_expansion_decisions_only():
    files = sorted(ROWS_DIR.glob("*.toml"))
    assert files, "no fitted rows shipped"
    for path in files:
        assert (SHIPPED_DIR / path.name).exists(), path
        header, rows = read_table(path)
        assert _weighed_outside_the_mask(rows).size == 0, path  # nothing a printed-deck game reads
        assert header["players"] == int(path.name.split("p-", 1)[0])


def test_overlay_takes_the_expansion_decisions_and_the_expansion_type_slots_and_nothing_else():
    table = np.ones(EXPERT_WIDTH)
    rows = np.full(EXPERT_WIDTH, 2.0)
    out = overlay_rows(table, rows)
    # slots by hand (simcore/games/dreamscape/fast/layout.py): perform one-hot 32 + type, card one-hot 48 + type;
    # types FF 0 ... PR 4 ... SD 7, ID 8, ED 9, PS 10 (R1.1 order)
    for kind in DECISION_KINDS:
        for phase in PHASES:
            got = out[row_index(kind, phase) * N_FEATURES:][:N_FEATURES]
            if kind in EXPANSION_DECISIONS:
                assert np.all(got == 2.0), (kind, phase)
                continue
            taken = {32 + 8, 32 + 9, 32 + 10, 48 + 8, 48 + 9, 48 + 10}
            assert all(got[j] == (2.0 if j in taken else 1.0) for j in range(N_FEATURES)), (kind, phase)
    assert np.count_nonzero(out == 2.0) == 3 * 3 * N_FEATURES + (len(DECISION_KINDS) - 3) * 3 * 6
    # a rows file weighs only what was fitted: a decision it leaves out, a slot it gives no weight, keep the table's
    rows = np.zeros(EXPERT_WIDTH)
    mid = row_index("invasive_dreaming", "mid") * N_FEATURES
    rows[mid + 3] = 2.0  # one weight of one phase: the decision's three rows come whole from the file
    buy = row_index("buy", "late") * N_FEATURES
    rows[buy + 48 + 8] = 2.0  # card_ID of a late purchase
    out = overlay_rows(table, rows)
    for kind in DECISION_KINDS:
        for phase in PHASES:
            base = row_index(kind, phase) * N_FEATURES
            got = out[base : base + N_FEATURES]
            if kind == "invasive_dreaming":
                want = rows[base : base + N_FEATURES]
            else:
                want = np.ones(N_FEATURES)
                if (kind, phase) == ("buy", "late"):
                    want[48 + 8] = 2.0
            assert np.array_equal(got, want), (kind, phase)


def test_the_printed_deck_plays_as_the_table_file_alone_and_a_deck_with_the_type_does_not():
    path = SHIPPED_DIR / "3p-base.toml"
    assert (ROWS_DIR / path.name).exists()
    alone = load_strategy(f"expert:{path}")  # the file's own table, no rows overlaid
    printed = SimConfig(3)
    assert _same(simulate(printed, 300, 3, "expert"), simulate(printed, 300, 3, alone))
    swap = parse_variant("PR:ID")
    with_id = SimConfig(3, swap.options, swap.deck())
    assert not _same(simulate(with_id, 300, 3, "expert"), simulate(with_id, 300, 3, alone))
    # and the table the bot plays is the file's but where the printed deck never reads
    played = shipped_tables()[(3, False, False)][1]
    file_table = read_table(path)[1]
    assert not np.array_equal(played, file_table)
    assert np.array_equal(played[~never_read_by_printed_deck()], file_table[~never_read_by_printed_deck()])


def test_the_training_status_names_the_fitted_rows_where_they_cover_the_added_type():
    from simcore.games.dreamscape import parse_setup
    from simcore.games.dreamscape.bots.training import training_status

    # rows/3p-base.toml was fitted in 3-player decks of the swaps X:ID (its comment names them): Invasive Dreaming
    covered = training_status(parse_setup(3, "PR:ID"), "expert")
    assert covered.kind == "out-of-distribution"  # the rest of the table still never saw the swap
    assert "but for ID" in covered.detail and "rows/3p-base.toml" in covered.detail
    for players, variant in ((2, "PR:ID"), (3, "NT:ED"), (3, "PR:ID+NT:ED"), (3, "sleep-token+PR:ID")):
        other = training_status(parse_setup(players, variant), "expert")  # no rows file, or a type it lacks
        assert other.kind == "out-of-distribution" and "rows/" not in other.detail, (players, variant)
        assert "not refitted (dream types it never saw weigh 0)" in other.detail
