"""fix-seats searches the new knob families (costs, chain, copies) and finds a fix whose answer is known.

The games are replaced by a measure whose fair settings are known by construction, so the
answer (the smallest change that makes the seats even) is worked out by hand:

* costs: fair iff position 1 costs at least 2 -> the smallest change is knob:costs=2,2,3,4,5
  (one value moved by 1; every other fair setting moves more);
* chain: fair iff a run of 2 scores at least 3 and a run of 3 at most 5 -> knob:chain=3
  (runs of 2 and 3 score 3 and 5, R8.2's steps after; one value moved by 1);
* copies: fair iff Floating Free and Shifting Dreams are each on 14 cards or more -> FF/SD, printed
  once (R1.3), at 2 copies: knob:copies=FF/SD:2 (no other single card reaches both types).
"""
from __future__ import annotations

import pytest

from analyses import lab
from analyses.games.dreamscape import fixseats
from simcore.games.dreamscape.cards import DreamType
from simcore.games.dreamscape.variants import parse_variant


def fair_when(rule):
    def measure(variant, players, strategy, games, seed, chunk_size=500):
        fair = rule(parse_variant(variant))
        return {"rates": [0.5, 0.5] if fair else [0.7, 0.3], "spread": 0.0 if fair else 40.0, "length": 10.0}

    return measure


CASES = {
    "costs": (lambda v: v.options.market_costs()[0] >= 2, "knob:costs=2,2,3,4,5"),
    "chain": (lambda v: v.options.chain_table()[2] >= 3 and v.options.chain_table()[3] <= 5, "knob:chain=3"),
    "copies": (lambda v: min(v.deck().type_counts()[t] for t in (DreamType.FLOATING_FREE, DreamType.SHIFTING_DREAMS)) >= 14,
               "knob:copies=FF/SD:2"),
}


@pytest.mark.parametrize("family", sorted(CASES))
def test_fix_seats_finds_the_known_smallest_fix(family, monkeypatch):
    rule, answer = CASES[family]
    monkeypatch.setattr(fixseats, "measure", fair_when(rule))
    base, tried = fixseats.search(2, "base", "expert", 5.0, 150, 100, 1, families=(family,))
    assert base["spread"] == 40.0  # the printed game is not fair here
    assert tried[0]["variant"] == answer and tried[0]["feasible"]
    assert fixseats.best_candidates(tried, 1) == [answer]


def test_the_default_search_is_the_seat_knobs_only(monkeypatch):
    monkeypatch.setattr(fixseats, "measure", fair_when(lambda v: True))
    _, tried = fixseats.search(3, "base", "expert", 5.0, 3, 100, 1)
    assert set(tried[0]["params"]) == {"start_z_0", "start_z_1", "start_z_2", "bonus_1", "bonus_2", "z_penalty",
                                       "max_buys", "removed"}


@pytest.mark.parametrize(
    "text, words",
    [("seats,dice", "unknown knob family 'dice'"), ("", None), ("all", None)],
)
def test_search_families_parse(text, words):
    if words is None:
        assert fixseats.parse_search(text) in (("seats",), fixseats.FAMILIES)
        return
    with pytest.raises(ValueError, match=words):
        fixseats.parse_search(text)


def test_cli_fix_seats_searches_costs_chain_copies_end_to_end(tmp_path):
    from typer.testing import CliRunner

    from cli import app

    runner = CliRunner()
    out = tmp_path / "fix"
    res = runner.invoke(app, ["fix-seats", "-p", "2", "--search", "costs,chain,copies", "--trials", "3", "--games", "40",
                              "--verify", "40", "--candidates", "2", "--strategy", "random", "--out", str(out),
                              "--json", "--no-progress"])
    assert res.exit_code == 0, res.output
    import json

    data = json.loads(res.output)
    assert data["search"] == ["costs", "chain", "copies"]
    tokens = {tok.split("=")[0] for t in data["tried"] for tok in t["variant"].split("+")}
    assert tokens <= {"base", "knob:costs", "knob:chain", "knob:copies"} and tokens - {"base"}  # only those families
    bad = runner.invoke(app, ["fix-seats", "-p", "2", "--variant", "shifting-tokens", "--search", "costs",
                              "--out", str(tmp_path / "x"), "--no-progress"])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1, bad.output
    assert "--search costs with the variant shifting-tokens" in bad.output and "fixes the same number" in bad.output
    with pytest.raises(Exception, match="^search 'dice': unknown knob family 'dice'"):
        lab.fix_seats(players=2, search="dice", out=tmp_path / "y", progress=False)
