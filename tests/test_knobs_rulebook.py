"""The rulebook's other numbers as knobs: take-z (R4.1), reserve-cost (R5.1), min-buys (R5.2),
reserve-limit (R6.4), z-floor (R3.2), terror-z (R6.3, R10.3), respite-z (R6.5), paradigm-max (R6.11), token-point (R9) and
copies (R1.3); parsing, hand-worked scenarios on both engines, both engines alike on random settings.

Expected values are worked out by hand from shared/rules/interpretations.md and the default deck
(R1.3: 24 pairs of base types twice, 4 once; each base type on 13 cards).
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers linear
from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS
from simcore.games.dreamscape.cards import DreamType
from simcore.games.dreamscape.conformance import run_scenario_file
from simcore.games.dreamscape.decks import build_deck
from simcore.games.dreamscape.fast.differential import compare_game
from simcore.games.dreamscape.reference import Game
from simcore.games.dreamscape.rules import Options
from simcore.games.dreamscape.variants import VariantError, parse_variant
from simcore.rng import GameRng

DECK = build_deck()
SCENARIOS = Path(__file__).resolve().parents[1] / "simcore" / "games" / "dreamscape" / "scenarios"
BROKEN = Path(__file__).resolve().parent / "ds_knob_broken"
NEW_SCENARIOS = sorted(p for p in SCENARIOS.glob("t*.json") if 38 <= int(p.stem[1:3]) <= 46)


# ----------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    "text, name",
    [
        ("knob:take-z=1+knob:reserve-cost=1+knob:min-buys=1+knob:z-floor=1", "base"),  # the printed values
        ("knob:respite-z=1+knob:paradigm-max=2+sleep-token+knob:token-point=1", "sleep-token"),
        ("knob:z-floor=0+knob:take-z=2", "knob:take-z=2+knob:z-floor=0"),
        ("knob:token-point=2+sleep-token", "sleep-token+knob:token-point=2"),
        ("knob:copies=SD/FF:2,NT/PR:0", "knob:copies=FF/SD:2,NT/PR:0"),  # cards in R1.1 order, sorted
        ("knob:reserve-limit=1+FF:ID", "knob:reserve-limit=1+FF:ID"),
    ],
)
def test_new_knobs_parse_to_a_canonical_name(text, name):
    v = parse_variant(text)
    assert v.name == name
    assert parse_variant(v.name) == v


@pytest.mark.parametrize(
    "text, words",
    [
        ("knob:take-z=4", "outside 0..3"),
        ("knob:reserve-cost=0", "outside 1..5"),
        ("knob:min-buys=2", "outside 0..1"),
        ("knob:reserve-limit=0", "outside 1..5"),
        ("knob:z-floor=-1", "outside 0..3"),
        ("knob:paradigm-max=3", "outside 0..2"),
        ("knob:terror-z=0", "outside 1..3"),
        ("knob:token-point=2", "add sleep-token"),  # a Sleep Token number without the Sleep Token
        ("knob:token-point=x+sleep-token", "'x' is not a whole number"),
        ("knob:copies=FF/SD", "not written XX/YY:N"),
        ("knob:copies=FF/XX:1", "FF/XX"),
        ("knob:copies=FF/SD:9", "outside 0..8"),
        ("knob:copies=FF/SD:1,SD/FF:2", "twice"),
        ("knob:floor=1", "unknown knob 'floor'"),
    ],
)
def test_bad_new_knobs_name_the_problem_in_one_line(text, words):
    with pytest.raises(VariantError, match=words) as info:
        parse_variant(text)
    assert "\n" not in str(info.value)


# ----------------------------------------------------------------------------- copies (R1.3)


def test_copies_changes_the_deck_by_hand_count():
    # R1.3: FF/SD is printed once; two copies make 53 cards and FF and SD each on 14 cards.
    deck = parse_variant("knob:copies=FF/SD:2").deck()
    assert len(deck) == 53
    counts = deck.type_counts()
    assert counts[DreamType.FLOATING_FREE] == 14 and counts[DreamType.SHIFTING_DREAMS] == 14
    assert counts[DreamType.NIGHT_TERROR] == 13
    # NT/PR (once) and NT/LD (twice) taken out: 52 - 3 cards, NT on 13 - 3 = 10 cards.
    deck = parse_variant("knob:copies=NT/PR:0,NT/LD:0").deck()
    assert len(deck) == 49 and deck.type_counts()[DreamType.NIGHT_TERROR] == 10


def test_copies_reaches_the_expansion_cards_of_a_swap():
    # R1.3/R1.4: swapping FF for ID plays 42 base cards without FF (52 - 13 + ... ) plus ID's cards.
    plain = parse_variant("FF:ID").deck()
    more = parse_variant("knob:copies=ID/NT:4+FF:ID").deck()
    assert len(more) == len(plain) + 2  # ID/NT: 2 copies in the expansion deck, now 4
    assert more.type_counts()[DreamType.INVASIVE_DREAMING] == plain.type_counts()[DreamType.INVASIVE_DREAMING] + 2


def test_copies_too_small_a_deck_is_one_line(tmp_path):
    from typer.testing import CliRunner

    from cli import app

    # Every base card out but RD/CD (R1.3: 2 copies): 2 cards cannot deal 2 Z cards and fill 5 positions (R2.2, R2.3).
    codes = ["FF", "IS", "NT", "LD", "PR", "RD", "CD", "SD"]
    every = ",".join(f"{a}/{b}:0" for i, a in enumerate(codes) for b in codes[i + 1:] if (a, b) != ("RD", "CD"))
    res = CliRunner().invoke(app, ["simulate", "-p", "2", "-n", "10", "--variant", f"knob:copies={every}",
                                   "--strategy", "random", "--no-progress"])
    assert res.exit_code == 2
    assert "too small" in res.output and len(res.output.strip().splitlines()) == 1, res.output


# ----------------------------------------------------------------------------- hand-worked scenarios


def test_every_new_knob_has_a_scenario():
    knobs = {json.loads(p.read_text())["setup"]["knobs"].split("=")[0] for p in NEW_SCENARIOS}
    assert knobs == {f"knob:{t}" for t in ("take-z", "reserve-cost", "min-buys", "reserve-limit", "z-floor",
                                            "respite-z", "paradigm-max", "token-point", "terror-z")}


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("path", NEW_SCENARIOS, ids=lambda p: p.stem)
def test_new_knob_scenarios_pass(path, engine):
    result = run_scenario_file(path, engine)
    assert result.passed, result.reason


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("path", NEW_SCENARIOS, ids=lambda p: p.stem)
def test_broken_new_knob_scenarios_fail_on_their_wrong_value(path, engine):
    broken = BROKEN / f"{path.stem}-broken.json"
    result = run_scenario_file(broken, engine)
    assert not result.passed and not result.malformed
    field = json.loads(broken.read_text())["broken"].split("expect.")[1].split(":")[0]
    assert field in result.reason, result.reason


def test_scenario_token_point_without_the_sleep_token_is_one_line(tmp_path):
    data = json.loads((SCENARIOS / "t45-token-point-knob-two.json").read_text())
    data["setup"]["options"] = {"sleep_token": False}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = run_scenario_file(path, "reference")
    assert result.malformed and "add sleep-token" in result.reason and "\n" not in result.reason


# ----------------------------------------------------------------------------- effects read off a game


def test_take_z_zero_never_asks_phase_one():
    g = Game.new(DECK, 3, GameRng(5, 0), parse_variant("knob:take-z=0").options)
    drng = GameRng.decisions(5, 0)
    kinds = set()
    while not g.over:
        kinds.add(g.pending.kind)
        g.apply(REFERENCE_BOTS["random"].choose(g.state, g.pending, drng))
    assert "take_z" not in kinds and "buy" in kinds


def test_min_buys_zero_offers_stop_first():
    g = Game.new(DECK, 2, GameRng(6, 0), parse_variant("knob:min-buys=0").options)
    while g.pending.kind != "buy":
        g.apply(g.pending.choices[-1])  # take_z: no
    assert "stop" in g.pending.choices


# ----------------------------------------------------------------------------- both engines alike


def random_rulebook_knobs(rng: random.Random) -> Options:
    def pick(low, high, default):
        return rng.randint(low, high) if rng.random() < 0.5 else default

    sleep_token = rng.random() < 0.5
    return Options(
        sleep_token, rng.random() < 0.3,
        take_z=pick(0, 3, 1), reserve_cost=pick(1, 5, 1), min_buys=pick(0, 1, 1), reserve_limit=pick(1, 5, 0),
        z_floor=pick(0, 3, 1), respite_z=pick(0, 3, 1), paradigm_max=pick(0, 2, 2), terror_z=pick(1, 3, 1),
        token_point=pick(1, 3, 1) if sleep_token else 1,
    )


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_new_knob_settings_play_identically_on_both_engines(players):
    rng = random.Random(3800 + players)
    swap_decks = [DECK, parse_variant("FF:PS+NT:ID").deck(), parse_variant("LD:ED").deck()]
    for game in range(8):
        options = random_rulebook_knobs(rng)
        deck = swap_decks[game % len(swap_decks)]  # Paradigm Shift, Invasive and Empowered Dreaming too
        for bot in ("random", "greedy"):
            assert compare_game(deck, players, options, 79, game, bot, REFERENCE_BOTS) is None, options
        assert compare_game(deck, players, options, 79, game, "linear") is None, options
