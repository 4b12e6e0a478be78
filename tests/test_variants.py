"""Variant notation (one parser for every command)."""
import pytest

from simcore.games.dreamscape.rules import Options
from simcore.games.dreamscape.variants import VariantError, parse_variant, variant_from_flags


def test_base_is_the_plain_game():
    v = parse_variant("base")
    assert v.options == Options() and not v.removed and v.name == "base"
    assert len(v.deck()) == 52  # R1.3


def test_options_and_swaps_parse_and_print_canonically():
    v = parse_variant("NT:ED+sleep-token+FF:ID")
    assert v.options == Options(sleep_token=True)
    assert v.removed == {0, 2} and v.added == {8, 9}
    # Options first, then swaps by removed type; R1.4: the pairing of swaps is cosmetic.
    assert v.name == "sleep-token+FF:ID+NT:ED"
    assert parse_variant(v.name) == v
    assert parse_variant("FF:ED+NT:ID+sleep-token") == v


def test_swap_deck_sizes_follow_r1_4():
    # One swap: 52 - 13 cards with the removed type + 14 cards with the added type.
    assert len(parse_variant("FF:ID").deck()) == 53
    assert len(parse_variant("shifting-tokens+sleep-token").deck()) == 52


def test_flags_make_the_same_variant():
    assert variant_from_flags(True, True, ["LD:PS"]) == parse_variant("sleep-token+shifting-tokens+LD:PS")
    assert variant_from_flags(False, False, None).name == "base"


@pytest.mark.parametrize(
    "text, words",
    [
        ("", ["empty"]),
        ("sleepy-token", ["unknown token", "sleepy-token"]),
        ("FF:XX", ["unknown dream type"]),
        ("ID:FF", ["cannot remove ID"]),
        ("FF:NT", ["cannot add NT"]),
        ("FF:ID+FF:ED", ["removed twice"]),
        ("sleep-token+sleep-token", ["twice"]),
        ("FF:ID+NT:ED+LD:PS+RD:ID", ["at most 3 swaps"]),
    ],
)
def test_bad_variants_name_the_problem(text, words):
    with pytest.raises(VariantError) as err:
        parse_variant(text)
    for word in words:
        assert word in str(err.value)
