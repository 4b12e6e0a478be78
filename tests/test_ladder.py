"""The strength ladder (analyses/tools/ladder.py): adjacent head-to-head steps of a study's 2-player round robin."""
from __future__ import annotations

from itertools import permutations

import pytest
from statsmodels.stats.proportion import proportion_confint

from analyses.tools.ladder import strength_ladder
from analyses.study.model import StudyError
from analyses.study.studyfile import load_study_file, run_plan
from reports.games.dreamscape.data import collect
from reports.games.dreamscape.findings import make_findings
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.rules import Options

BOTS = ["random", "greedy", "chain"]
GAMES = 150
SEARCH_GAMES = 20
STUDY = f"""
name = "ladder"
seed = 3
chunk_size = 50

[[configs]]
games = {GAMES}
players = 2
variants = ["base"]
tournament = {BOTS!r}

[[configs]]
games = {SEARCH_GAMES}
players = 2
variants = ["base"]
rotate = ["search:chain@1", "chain"]
""".replace("'", '"')


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("ladder")
    (root / "ladder.toml").write_text(STUDY)
    run_plan(load_study_file(root / "ladder.toml"), root / "study", progress=False)
    return root / "study"


def _head_to_head(a: str, b: str, games: int) -> float:
    """a's win credit against b over both seatings, played here directly on the fast engine."""
    cfg = SimConfig(2, Options())
    return float(simulate(cfg, games, 3, [a, b]).win[:, 0].sum() + simulate(cfg, games, 3, [b, a]).win[:, 1].sum())


def test_each_step_is_the_stronger_bots_head_to_head_share_with_its_wilson_interval(folder):
    credit = {(a, b): _head_to_head(a, b, GAMES) for a, b in permutations(BOTS, 2) if a < b}
    share = {}  # every bot's win credit over all its games, the standings' order
    for (a, b), c in credit.items():
        share[a] = share.get(a, 0.0) + c
        share[b] = share.get(b, 0.0) + 2 * GAMES - c
    order = sorted(BOTS, key=lambda s: (share[s], s))
    df = strength_ladder(folder)
    assert df["step"].to_list() == [1, 2, 3]
    assert df["weaker"].to_list()[:2] == order[:2] and df["stronger"].to_list()[:2] == order[1:]
    for r in df.head(2).iter_rows(named=True):
        weak, strong = r["weaker"], r["stronger"]
        won = credit[(strong, weak)] if (strong, weak) in credit else 2 * GAMES - credit[(weak, strong)]
        low, high = proportion_confint(won, 2 * GAMES, alpha=0.05, method="wilson")
        assert r["games"] == 2 * GAMES and r["source"] == "round robin"
        assert (r["stronger_win_rate"], r["win_low"], r["win_high"]) == pytest.approx((won / (2 * GAMES), low, high))
        assert r["apart"] == (low > 0.5)


def test_the_last_step_is_search_over_the_top_bot_in_both_seats(folder):
    # chain tops this round robin (it beats greedy and random head to head on these deals, checked here)
    assert _head_to_head("chain", "greedy", GAMES) > GAMES and _head_to_head("chain", "random", GAMES) > GAMES
    last = strength_ladder(folder).row(-1, named=True)
    assert (last["weaker"], last["stronger"], last["source"]) == ("chain", "search:chain@1", "search over the top bot")
    won = _head_to_head("search:chain@1", "chain", SEARCH_GAMES)
    assert last["games"] == 2 * SEARCH_GAMES and last["stronger_win_rate"] == pytest.approx(won / (2 * SEARCH_GAMES))


def test_the_report_has_the_ladder_page_and_a_sentence_that_quotes_it(folder):
    t = collect(folder)
    assert t.ladder is not None and t.ladder.height == 3
    found = [f for f in make_findings(t) if f.topic == "ladder"]
    assert found and " < ".join([t.ladder["weaker"][0], *t.ladder["stronger"].to_list()]) in found[0].text
    for f in found[1:]:  # every step not an interval apart is named
        assert "Not an interval apart" in f.text and not f.row["apart"]
    assert len(found) == 1 + int((~t.ladder["apart"]).sum())


def test_a_folder_without_a_two_player_round_robin_has_no_ladder(tmp_path):
    (tmp_path / "s.toml").write_text('seed = 1\ngames = 20\nplayers = 3\ntournament = ["random", "greedy", "chain"]\n')
    run_plan(load_study_file(tmp_path / "s.toml"), tmp_path / "study", progress=False)
    with pytest.raises(StudyError):
        strength_ladder(tmp_path / "study")
    assert collect(tmp_path / "study").ladder is None


def test_search_over_a_lower_bot_is_a_step_beside_the_chain_not_above_its_top(tmp_path):
    """The main study's ladder tops out at strong while its search player searches over expert (#26)."""
    study = STUDY.replace('rotate = ["search:chain@1", "chain"]', 'rotate = ["search:greedy@1", "greedy"]')
    (tmp_path / "s.toml").write_text(study)
    run_plan(load_study_file(tmp_path / "s.toml"), tmp_path / "study", progress=False)
    df = strength_ladder(tmp_path / "study")
    last = df.row(-1, named=True)
    assert (last["weaker"], last["stronger"], last["source"]) == ("greedy", "search:greedy@1", "search over greedy")
    assert df["source"].to_list()[:2] == ["round robin"] * 2 and df["stronger"][1] == "chain"  # chain still tops it
    won = _head_to_head("search:greedy@1", "greedy", SEARCH_GAMES)
    assert last["stronger_win_rate"] == pytest.approx(won / (2 * SEARCH_GAMES))
    text = next(f for f in make_findings(collect(tmp_path / "study")) if f.topic == "ladder").text
    assert f"{df['weaker'][0]} < {df['stronger'][0]} < chain; greedy < search:greedy@1" in text


def test_head_to_head_wins_order_the_ladder_before_the_pooled_standings():
    """linear beats economist five games in six but also lost 40,000 games to expert elsewhere (#26's study)."""
    import polars as pl

    from analyses.tools.ladder import ladder_order

    standings = pl.DataFrame({"strategy": ["expert", "economist", "linear", "random"],
                              "win_rate": [0.77, 0.49, 0.46, 0.03]})
    payoff = pl.DataFrame({
        "strategy": ["expert", "expert", "expert", "linear", "linear", "economist", "economist", "linear", "random",
                     "random", "random", "economist"],
        "opponent": ["linear", "economist", "random", "economist", "random", "random", "linear", "expert", "expert",
                     "linear", "economist", "expert"],
        "win_rate": [0.73, 0.80, 0.99, 0.835, 0.95, 0.93, 0.165, 0.27, 0.01, 0.05, 0.07, 0.20],
    })
    assert ladder_order(standings, payoff) == ["random", "economist", "linear", "expert"]
    # a tie in head-to-head wins falls back to the standings
    tied = payoff.with_columns(pl.when((pl.col("strategy") == "linear") & (pl.col("opponent") == "economist"))
                               .then(0.5).otherwise(pl.col("win_rate")).alias("win_rate"))
    assert ladder_order(standings, tied)[1:3] == ["linear", "economist"]
