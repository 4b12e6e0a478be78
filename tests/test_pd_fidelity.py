"""Pleasant Dreams as its rulebook says (issue #27): repeated cards (P1.5), what a seat knows after a
secret insertion (P9.4), hidden backs (P1.4, P9.5), the solo challenge with chosen cards (P7.5) and the
difficulty variant (P2.2). Expected values are worked out by hand from the rulebook
(/work/shared/rules/pleasant-dreams-rulebook.md, line numbers cited) and interpretations.md."""
from __future__ import annotations

import numpy as np
import pytest

from simcore.games import pleasant_dreams as pd
from simcore.games.pleasant_dreams import reference as R
from simcore.games.pleasant_dreams import scenario as SC

CARDS = pd.load_cards()


# ---------------------------------------------------------------- P1.5 a count per card (rulebook lines 79-98)

def two_bears(tmp_path, extra=""):
    f = tmp_path / "cards.toml"
    f.write_text("[[card]]\nname = 'The Bear'\nsymbol = 'flip'\nfront = -1\nback = 1\ncount = 2\n"
                 "[[card]]\nname = 'The Music Box'\nsymbol = 'equal'\nvalue = 2\n" + extra)
    return f


def test_a_count_gives_copies_of_one_card(tmp_path):
    cards = pd.load_cards(two_bears(tmp_path))
    assert cards.names == ("The Bear", "The Bear", "The Music Box")
    assert cards.front == (-1, -1, 2) and cards.back == (1, 1, 2) and cards.flip == (True, True, False)


@pytest.mark.parametrize("count, fragment", [("0", "count must be"), ("'2'", "count must be"), ("true", "count must be"),
                                             ("31", "count must be"), ("29", "more than 30 cards")])
def test_bad_counts_are_one_line_errors(tmp_path, count, fragment):
    f = tmp_path / "cards.toml"
    f.write_text(f"[[card]]\nname = 'A'\nsymbol = 'equal'\nvalue = 1\ncount = {count}\n"
                 "[[card]]\nname = 'B'\nsymbol = 'flip'\nfront = 1\nback = -1\ncount = 2\n")
    with pytest.raises(pd.PDError) as err:
        pd.load_cards(f)
    assert fragment in str(err.value) and "\n" not in str(err.value)


def test_repeated_cards_play_the_same_on_both_engines(tmp_path):
    cards = pd.load_cards(two_bears(tmp_path, "[[card]]\nname = 'The Storm'\nsymbol = 'equal'\nvalue = 1\ncount = 3\n"))
    assert len(cards) == 6
    for players in (1, 2):
        setup = pd.parse_setup(players, "lucid", cards)
        ref = pd.play_games(setup, ["threshold"] * players, 8, 0, 80, engine="reference")
        fast = pd.play_games(setup, ["threshold"] * players, 8, 0, 80, engine="fast")
        for k in ref:
            assert np.array_equal(ref[k], fast[k]), k


def test_scenario_places_each_copy_once(tmp_path):
    f = two_bears(tmp_path)
    seats = [{"wake": 1}, {"wake": 1}]
    g = SC.build_reference({"setup": {"cards": str(f), "deck": ["The Bear", "~The Bear"], "seats": seats}})
    assert [(s.card, s.side) for s in g.deck] == [(0, 0), (1, 1)]
    with pytest.raises(SC.ScenarioFail, match="more often than the card list has copies"):
        SC.build_reference({"setup": {"cards": str(f), "deck": ["The Bear", "The Bear"], "discard": ["The Bear"],
                                      "seats": seats}})
