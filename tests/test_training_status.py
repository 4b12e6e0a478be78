"""The bots' training status for a rule set (issue #41 item 4): fitted, rule-aware or out of distribution.

Each case's answer is worked out from what was shipped and what the features read, not from the code:
the shipped expert tables cover every player count and rules option on the printed deck (16 files), the
strong values every player count 2-4 and rules option (12 files); the features read the market costs and
the chain table from the state (R2.3, R8.2) but not the max-buys knob (R5.2) nor the Z penalty (R8.2), and a swap deck brings
dream types no shipped table weighed (R1.4).
"""
from __future__ import annotations

import pytest

from simcore.games.dreamscape import parse_setup
from simcore.games.dreamscape.bots.training import KINDS, TrainingStatus, training_status


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("variant", ["base", "sleep-token", "shifting-tokens", "sleep-token+shifting-tokens"])
def test_expert_is_fitted_to_every_printed_configuration(players, variant):
    status = training_status(parse_setup(players, variant), "expert")
    assert isinstance(status, TrainingStatus) and status.kind == "fitted"
    assert f"{players}p-{variant}.toml" in status.detail


# The configurations the main study plays strong in (2-4 players x the four rules options): each has a value of
# its own since 4 players with both options was trained (issue #41), so none plays a stand-in.
STRONG_FITTED = [(p, v) for p in (2, 3, 4)
                 for v in ("base", "sleep-token", "shifting-tokens", "sleep-token+shifting-tokens")]


@pytest.mark.parametrize("players, variant", STRONG_FITTED)
def test_strong_has_a_value_fitted_to_the_configurations_the_study_reads_it_in(players, variant):
    status = training_status(parse_setup(players, variant), "strong")
    assert status.kind == "fitted", status
    assert f"{players}p-{variant}.npz" in status.detail


def test_no_configuration_plays_a_stand_in_and_a_declared_one_would_be_out_of_distribution(tmp_path, monkeypatch):
    from simcore.games.dreamscape.bots import training
    from simcore.games.dreamscape.bots.strong import STAND_IN

    assert STAND_IN == {}  # the 4-player Sleep Token + shifting tokens value was the last one missing
    # a player count with only its base value (a folder of one file): its other options report the stand-in
    (tmp_path / "strong").mkdir()
    (tmp_path / "strong" / "4p-base.npz").write_bytes(b"")
    monkeypatch.setattr(training, "DATA_DIR", tmp_path)
    status = training_status(parse_setup(4, "sleep-token+shifting-tokens"), "strong")
    assert status.kind == "out-of-distribution" and "4p-base.npz" in status.detail, status


def test_a_knob_the_features_read_is_rule_aware_and_one_they_do_not_is_out_of_distribution():
    for variant in ("knob:chain=3,6,9", "knob:start-z=1,1,2+knob:bonus=0,1,1"):
        for bot in ("expert", "strong"):
            status = training_status(parse_setup(3, variant), bot)
            assert status.kind == "rule-aware", (variant, bot, status)
    # the costs: expert's slots read them; strong's value reads them too but never saw a cost outside 1..5
    assert training_status(parse_setup(3, "knob:costs=2,3,4,5,6"), "expert").kind == "rule-aware"
    status = training_status(parse_setup(3, "knob:costs=2,3,4,5,6"), "strong")
    assert status.kind == "out-of-distribution" and "never saw" in status.detail
    for knob in ("max-buys=2", "z-penalty=2"):  # R5.2, R8.2: numbers the features take as printed
        status = training_status(parse_setup(3, f"knob:{knob}"), "expert")
        assert status.kind == "out-of-distribution" and knob.split("=")[0] in status.detail


def test_a_swap_deck_is_out_of_distribution_for_the_fitted_bots():
    for bot in ("expert", "search:expert@8:late", "expert!no-buy:FF"):  # no table weighed an expansion type
        status = training_status(parse_setup(3, "PR:ID"), bot)
        assert status.kind == "out-of-distribution", (bot, status)
        assert "PR:ID" in status.detail
    # strong's single-swap value is for one swap under the base rules: two swaps, or a swap under Sleep Token
    # (R4.3), play the value of the players and rules options, fitted to the printed deck
    for variant in ("PR:ID+NT:ED", "sleep-token+PR:ID"):
        for bot in ("strong", "search:strong@8:late"):
            status = training_status(parse_setup(3, variant), bot)
            assert status.kind == "out-of-distribution" and "swap deck" in status.detail, (variant, bot, status)


def test_strong_in_a_single_swap_deck_is_rule_aware_with_the_value_fitted_across_the_single_swaps():
    for variant in ("PR:ID", "FF:PS"):  # the 3-player headline swap of the last study, and another single swap
        for bot in ("strong", "search:strong@8:late"):
            status = training_status(parse_setup(3, variant), bot)
            assert status.kind == "rule-aware", (variant, bot, status)
            assert "3p-base-single-swaps.npz" in status.detail and variant in status.detail
            assert "\n" not in status.detail


def test_hand_written_bots_are_rule_aware_and_every_kind_is_one_of_three():
    assert training_status(parse_setup(2, "PR:ID"), "greedy").kind == "rule-aware"
    assert training_status(parse_setup(3, "base"), "linear").kind == "fitted"
    assert training_status(parse_setup(2, "base"), "linear").kind == "rule-aware"
    assert training_status(parse_setup(3, "base"), "bot.py:mine").kind == "out-of-distribution"
    for bot in ("random", "expert", "strong", "linear"):
        assert training_status(parse_setup(1, "sleep-token"), bot).kind in KINDS


def test_a_value_file_of_the_user_says_what_it_was_made_for(tmp_path):
    from simcore.games.dreamscape.bots.strong import SHIPPED_DIR

    path = SHIPPED_DIR / "2p-sleep-token.npz"
    assert training_status(parse_setup(2, "sleep-token"), f"strong:{path}").kind == "fitted"
    other = training_status(parse_setup(2, "base"), f"strong:{path}")
    assert other.kind == "out-of-distribution" and "sleep-token" in other.detail
    broken = tmp_path / "v.npz"
    broken.write_bytes(b"not a value")
    assert training_status(parse_setup(2, "base"), f"strong:{broken}").kind == "out-of-distribution"


def test_sharp_is_strong_with_its_correction_where_it_was_fitted_and_strong_elsewhere():
    """Sharp's correction was fitted on 3-player base games with strong's base value (bots/sharp.py): there its
    status is strong's plus the correction; in a single-swap deck (strong plays the value fitted across the swaps)
    and in other configurations it is strong's, saying sharp plays strong there."""
    base = training_status(parse_setup(3, "base"), "sharp")
    assert base.kind == "fitted" and "3p-base.npz" in base.detail and "plus sharp's correction" in base.detail
    for players, variant in ((3, "PR:ID"), (2, "base"), (3, "sleep-token")):
        status = training_status(parse_setup(players, variant), "sharp")
        assert status.kind == training_status(parse_setup(players, variant), "strong").kind
        assert "sharp plays strong here" in status.detail, (players, variant)
    assert training_status(parse_setup(3, "base"), "search:sharp@16:late") == base


def test_a_table_refitted_to_a_changed_rule_set_is_fitted_there_and_nowhere_else(tmp_path):
    """`dreamscape train --variant V` writes V in the table's header: played in V (knobs and swaps included) the
    table is fitted to the rule set; in any other rule set, or with a deck file of the user's, it is not."""
    from simcore.games.dreamscape.bots.expert import SHIPPED_DIR

    text = (SHIPPED_DIR / "3p-base.toml").read_text()
    fixed = "knob:start-z=1,1,2+knob:bonus=0,1,1"
    for variant in (fixed, "PR:ID"):
        path = tmp_path / f"{variant.replace(':', '_')}.toml"
        path.write_text(text.replace('variant = "base"', f'variant = "{variant}"', 1))
        assert training_status(parse_setup(3, variant), f"expert:{path}").kind == "fitted", variant
        for other in ("base", "knob:start-z=1,1,2", "PR:ID+knob:bonus=0,1,1", "sleep-token+" + variant):
            status = training_status(parse_setup(3, other), f"expert:{path}")
            assert status.kind == "out-of-distribution" and "not this rule set" in status.detail, (variant, other)
    assert training_status(parse_setup(2, "PR:ID"), f"expert:{path}").kind == "out-of-distribution"  # 3 players'


def test_strong_with_a_refitted_table_is_fitted_only_where_both_files_name_the_rule_set(tmp_path):
    """strong:VALUE.npz+expert:TABLE.toml plays the table in strong's early game: the status reads both files."""
    from simcore.games.dreamscape.bots.expert import SHIPPED_DIR as TABLES
    from simcore.games.dreamscape.bots.strong import SHIPPED_DIR as VALUES

    value, table = VALUES / "3p-sleep-token.npz", TABLES / "3p-sleep-token.toml"
    assert training_status(parse_setup(3, "sleep-token"), f"strong:{value}+expert:{table}").kind == "fitted"
    other_table = TABLES / "3p-base.toml"
    status = training_status(parse_setup(3, "sleep-token"), f"strong:{value}+expert:{other_table}")
    assert status.kind == "out-of-distribution" and "3p-base.toml" in status.detail
    assert training_status(parse_setup(3, "base"), f"strong:{value}+expert:{other_table}").kind == \
        "out-of-distribution"  # the value was made for Sleep Token
