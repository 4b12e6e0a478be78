"""Designer reports: PDF pages and PNG charts of study folders, findings that quote their numbers.

Real small studies (a few thousand fast-engine games) and synthetic tables with
the columns of the analyses. Every findings sentence is checked against the
table row it quotes: the numbers it prints are formatted here again from the
row, and the rows of the seat, game-length and solo tables are recomputed from
the per-game parquet rows with statsmodels/scipy.
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

from analyses.study.model import RunConfig, StudyError, exploit_cell
from analyses.stats.intervals import wilson
from analyses.study.folder import Study, load_manifest, scan_games
from analyses.tools.tournament import run_tournament, schedule
from reports import build_report
from reports.games.dreamscape.charts import make_charts, tournament_charts
from reports.games.dreamscape.data import StudyTables, Tournament, collect
from reports.games.dreamscape.findings import make_findings
from reports.games.dreamscape import TOPICS
from reports.pdf import findings_pages
from simcore.games.dreamscape.cards import BASE_TYPES, CODES, EXPANSION_TYPES, NAMES
from simcore.games.dreamscape.decks import swap_label
from simcore.games.dreamscape.rules import SOLO_BANDS

# ============================================================================ a real small study

TOURNAMENT = ("greedy", "chain", "linear")
SMALL = [
    RunConfig("base", 3, ("linear",) * 3),
    RunConfig("sleep-token", 3, ("linear",) * 3),
    RunConfig("NT:ID", 3, ("linear",) * 3),
    *[RunConfig("shifting-tokens", 2, seating) for seating in schedule(TOURNAMENT, 2)],
    RunConfig("shifting-tokens", 2, ("linear",) * 2),  # a one-bot run beside the round robin: no part of it
    RunConfig("base", 1, ("linear",)),
]


def pdf_pages(path: Path) -> int:
    """Pages of a PDF written by matplotlib (page objects are stored uncompressed)."""
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", path.read_bytes()))


@pytest.fixture(scope="module")
def small_study(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("reports") / "small"
    Study(folder, SMALL, games=1500, seed=3, chunk_size=1000).run(progress=False)
    return folder


@pytest.fixture(scope="module")
def small_report(small_study, tmp_path_factory):
    return build_report(small_study)


def test_the_report_of_a_small_study_has_its_pdf_and_one_png_per_chart(small_study, small_report):
    assert small_report.pdf == small_study / "report.pdf"
    assert small_report.pdf.read_bytes()[:5] == b"%PDF-"
    # Worked out from SMALL: seats, variants, distributions, types and cards for the multi-player runs,
    # one single-swap deck (3 players), a 2-player round robin of three bots, its skill pairings, solo.
    expected = {"seats", "compare", "scores", "lengths", "types", "cards", "swaps-3p",
                "tournament-2p-shifting-tokens", "skill", "solo"}
    assert {p.stem for p in small_report.pngs} == expected
    for png in small_report.pngs:
        assert png.parent == small_study / "charts"
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_the_pdf_holds_the_title_the_findings_and_one_page_per_chart(small_report):
    findings = [p for p in small_report.pages if p.startswith("Findings")]
    assert small_report.pages[0] == "Title" and len(findings) >= 1
    assert pdf_pages(small_report.pdf) == len(small_report.pages) == 1 + len(findings) + len(small_report.pngs)


def test_only_pages_with_data_are_drawn(tmp_path):
    one = tmp_path / "one"  # one 3-player configuration, per-game rows
    Study(one, [RunConfig("base", 3, ("greedy",) * 3)], games=600, seed=1).run(progress=False)
    agg = tmp_path / "agg"  # the same without per-game rows: no distributions
    Study(agg, [RunConfig("base", 3, ("greedy",) * 3)], games=600, seed=1, aggregate_only=True).run(progress=False)
    solo = tmp_path / "solo"
    Study(solo, [RunConfig("base", 1, ("greedy",)), RunConfig("sleep-token", 1, ("greedy",))], games=600, seed=1).run(progress=False)
    for folder, charts in ((one, {"seats", "scores", "lengths", "types", "cards"}),
                           (agg, {"seats", "types", "cards"}),
                           (solo, {"solo"})):
        pdf, pngs = tmp_path / "reports" / f"{folder.name}.pdf", tmp_path / "png" / folder.name  # where it is told
        out = build_report(folder, pdf=pdf, png_dir=pngs)
        assert out.pdf == pdf and {p.parent for p in out.pngs} == {pngs}
        assert {p.stem for p in out.pngs} == charts, folder
        assert pdf_pages(out.pdf) == len(out.pages) == 1 + sum(p.startswith("Findings") for p in out.pages) + len(charts)


def test_a_folder_that_is_no_study_gets_one_line(tmp_path):
    with pytest.raises(StudyError, match="not a study folder"):
        build_report(tmp_path / "missing")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "manifest.json").write_text("{not json")
    with pytest.raises(StudyError, match="damaged manifest"):
        build_report(tmp_path / "bad")
    Study(tmp_path / "empty", [RunConfig("base", 3, ("greedy",) * 3)], games=10, seed=1)  # created, nothing played
    with pytest.raises(StudyError, match="no finished chunk") as err:
        build_report(tmp_path / "empty")
    assert "\n" not in str(err.value)


def test_the_round_robin_is_the_one_the_tournament_command_plays(small_study, small_report):
    (tour,) = small_report.tables.tournaments
    assert (tour.players, tour.variant, tour.games_per_seating) == (2, "shifting-tokens", 1500)
    # The same seatings on the same deals (seed 3, games 0..1499), played by analyses.tools.tournament directly.
    direct = run_tournament(list(TOURNAMENT), players=2, variant="shifting-tokens", games_per_seating=1500, seed=3)
    for col in ("games", "win_rate", "win_low", "win_high"):
        assert tour.standings.sort("strategy")[col].to_list() == pytest.approx(direct.standings.sort("strategy")[col].to_list())
    mine = tour.payoff.sort(["strategy", "opponent"])
    theirs = direct.payoff.sort(["strategy", "opponent"])
    assert mine["win_rate"].to_list() == pytest.approx(theirs["win_rate"].to_list())
    assert tour.dominant == direct.dominant


def test_type_strength_keeps_the_one_bot_runs_apart_from_mixed_tables(small_study, small_report):
    rows = small_report.tables.strength.filter((pl.col("players") == 2) & (pl.col("variant") == "shifting-tokens"))
    assert set(rows["strategies"].to_list()) == {"linear"}
    cfg = RunConfig("shifting-tokens", 2, ("linear",) * 2).id
    games = scan_games(small_study).filter(pl.col("config") == cfg).collect().sort(["game", "seat"])
    for r in rows.iter_rows(named=True):
        perf = games[f"performed_{r['type']}"].to_numpy().reshape(-1, 2)
        win = games["win"].to_numpy().reshape(-1, 2)
        more = perf * 2 > perf.sum(axis=1, keepdims=True)  # more often than the game's mean over seats
        assert r["games_more"] == more.sum()
        if more.sum():
            assert r["win_rate_more"] == pytest.approx(win[more].sum() / more.sum())


def test_card_strength_keeps_the_one_bot_runs_apart_from_mixed_tables(small_study, small_report):
    from analyses.study.folder import scan_pairs

    two = small_report.tables.pairs.filter((pl.col("players") == 2) & (pl.col("variant") == "shifting-tokens"))
    assert set(two["strategies"].to_list()) == {"linear"}
    cfg = RunConfig("shifting-tokens", 2, ("linear",) * 2).id
    held = (scan_pairs(small_study).filter(pl.col("config") == cfg).group_by("card")
            .agg(pl.col("seat_games_held").sum()).collect())
    expected = dict(zip(held["card"].to_list(), held["seat_games_held"].to_list()))
    assert {r["card"]: r["seat_games"] for r in two.iter_rows(named=True)} == expected
    assert all(r["held_rate"] == pytest.approx(r["seat_games"] / (2 * 1500)) for r in two.iter_rows(named=True))


# ============================================================================ findings match their numbers

NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def p1(rate: float) -> str:
    return f"{100 * rate:.1f}"


def rate3(r: dict, value: str, low: str, high: str) -> list[str]:
    """A rate and its interval's two bounds, in percent with one decimal (58.8% (58.5-59.0%))."""
    return [p1(r[value]), p1(r[low]), p1(r[high])]


def expected_numbers(f, t: StudyTables) -> list[str]:
    """The numbers a finding must print, formatted here from its row (independently of reports.labels)."""
    r = f.row
    if f.source == "seats":
        return [str(r["players"]), str(r["seat"] + 1), *rate3(r, "win_rate", "win_low", "win_high"), p1(r["fair"])]
    if f.source == "compare":
        assert r["metric"] == "seat_spread"
        signed = [f"{round(100 * r[k], 1) + 0.0:+.1f}" for k in ("diff", "diff_low", "diff_high")]  # a zero is +0.0
        return [str(r["players"]), p1(r["baseline_value"]), p1(r["variant_value"]), *signed]
    if f.source == "sweep":
        return [str(r["players"]), p1(r["no_swap_seat_spread"]), p1(r["seat_spread"]), p1(r["spread_low"]), p1(r["spread_high"])]
    if f.source == "strength":
        return [str(r["players"]), *rate3(r, "win_rate_more", "win_low", "win_high"), p1(r["fair"])]
    if f.source.startswith("tournament:"):
        tour = t.tournaments[int(f.source.split(":")[1])]
        if "dominant" in f.text:
            return [str(tour.players), p1(r["win_rate"])]
        return [str(tour.players), *rate3(r, "win_rate", "win_low", "win_high"), p1(1 / tour.players)]
    if f.source == "skill":
        return [str(r["players"]), *rate3(r, "stronger_win_rate", "win_low", "win_high"), p1(r["fair"])]
    if f.source == "solo":
        return [f"{r['mean_score']:.1f}", f"{r['score_low']:.1f}", f"{r['score_high']:.1f}",
                *rate3(r, "share", "share_low", "share_high")]
    if f.source == "lengths":
        return [str(r["players"]), f"{r['mean_length']:.2f}", f"{r['length_low']:.2f}", f"{r['length_high']:.2f}"]
    raise AssertionError(f"unknown source {f.source}")


# What follows the quoted row's sentence: the skill-level verdict, the reading level and its distance from search
# (the exploit table's numbers), the bots' training status on a changed game (tests/test_robust.py checks those).
ADDED = re.compile(r" (Under \w+:|Checked under |Read under |Bots' training on ).*$")


def printed_numbers(f) -> list[str]:
    text = ADDED.sub("", f.text).replace("95% interval", "")
    if f.source == "solo":
        text = text.replace(f.row["band"], "")  # band labels like 25-34 are names, not numbers
    return NUMBER.findall(re.sub(r"(\d)-(\d)", r"\1 \2", text))  # 58.5-59.0%: two numbers


def source_rows(f, t: StudyTables) -> list[dict]:
    if f.source.startswith("tournament:"):
        return t.tournaments[int(f.source.split(":")[1])].standings.to_dicts()
    return getattr(t, f.source).to_dicts()


def check_findings(findings, t: StudyTables) -> None:
    assert findings
    for f in findings:
        row = {k: v for k, v in f.row.items() if k != "no_swap_seat_spread"}
        assert row in source_rows(f, t), f.text
        assert sorted(printed_numbers(f)) == sorted(expected_numbers(f, t)), f.text
        if f.source in ("seats", "compare", "strength", "skill"):
            assert f.significant == bool(f.row["significant"]), f.text


def test_every_findings_sentence_prints_the_numbers_of_the_row_it_quotes(small_study, small_report):
    t = collect(small_study)
    check_findings(small_report.findings, t)
    sources = {f.source.split(":")[0] for f in small_report.findings}
    assert {"seats", "compare", "strength", "tournament", "skill", "solo", "lengths"} <= sources


def test_seat_length_and_solo_findings_agree_with_the_per_game_rows(small_study, small_report):
    games = scan_games(small_study).collect()
    m = load_manifest(small_study)
    players = {c.id: c.players for c in m.configs}
    checked = set()
    for f in small_report.findings:
        r = f.row
        if f.source == "seats":
            rows = games.filter((pl.col("config") == r["config"]) & (pl.col("seat") == r["seat"]))
            wins, n = float(rows["win"].sum()), rows.height
            low, high = proportion_confint(wins, n, alpha=0.05, method="wilson")
            assert (r["games"], r["win_rate"]) == (n, pytest.approx(wins / n))
            assert (r["win_low"], r["win_high"]) == (pytest.approx(low), pytest.approx(high))
            assert r["fair"] == pytest.approx(1 / players[r["config"]])
            assert f"seat {r['seat'] + 1} wins {100 * wins / n:.1f}%" in f.text
        elif f.source == "lengths":
            x = games.filter((pl.col("config") == r["config"]) & (pl.col("seat") == 0))["length"].to_numpy().astype(float)
            low, high = sps.t.interval(0.95, x.size - 1, loc=x.mean(), scale=x.std(ddof=1) / np.sqrt(x.size))
            assert r["mean_length"] == pytest.approx(x.mean()) and r["length_low"] == pytest.approx(low)
            assert f"last {x.mean():.2f} ({r['length_low']:.2f}-{r['length_high']:.2f}) turns" in f.text
        elif f.source == "solo":
            cfg = next(c for c in m.configs if c.players == 1 and c.variant == r["variant"] and c.strategies[0] == r["strategy"])
            score = games.filter(pl.col("config") == cfg.id)["score"].to_numpy()
            lo, hi = next((lo, hi) for lo, hi, label in SOLO_BANDS if label == r["band"])
            share = float(((score >= lo) & (score <= hi)).mean())  # R10.5 bands are whole points
            assert r["share"] == pytest.approx(share) and r["mean_score"] == pytest.approx(score.mean())
            assert f"in {100 * share:.1f}% (" in f.text and "%) of games" in f.text
            assert f"scores {score.mean():.1f} (" in f.text
        else:
            continue
        checked.add(f.source)
    assert checked == {"seats", "lengths", "solo"}


def test_findings_number_seats_from_one(small_report):
    seat_findings = [f for f in small_report.findings if f.source == "seats"]
    assert seat_findings
    for f in seat_findings:
        assert re.search(rf"\bseat {f.row['seat'] + 1} wins", f.text)
    assert not any("seat 0" in f.text for f in small_report.findings)



# ============================================================================ synthetic analysis tables
# The columns of .notes/CONTRACT.md with made-up but consistent numbers (a fixed numpy generator).

OPTIONS = ("base", "sleep-token", "shifting-tokens", "sleep-token+shifting-tokens")
PLAYERS = (2, 3, 4)


def _variant(options: str, swap: str) -> str:
    if swap == "none":
        return options
    return swap if options == "base" else f"{options}+{swap}"


def synthetic_tables(seed: int = 3) -> StudyTables:
    rng = np.random.default_rng(seed)
    games = 20_000
    singles = [swap_label([r], [a]) for r in sorted(BASE_TYPES) for a in sorted(EXPANSION_TYPES)]
    seats, lengths, score_rows, length_rows, sweep_rows, strength_rows, pair_rows = [], [], [], [], [], [], []
    spread = {}
    for p in PLAYERS:
        for o in OPTIONS:
            for swap in ["none", *singles]:
                variant = _variant(o, swap)
                config = f"{variant}__{p}p__linear".replace(":", "-").replace("+", "_")
                fair = 1 / p
                tilt = np.linspace(0.06, -0.06, p) * (1.0 - 0.4 * (o != "base")) + rng.normal(0, 0.01, p)
                rates = np.clip(fair + tilt - tilt.mean(), 0.01, 0.99)
                spread[(p, variant)] = float(rates.max() - rates.min())
                mean_len = 40 + 3 * p + rng.normal(0, 1)
                if swap == "none":
                    for s in range(p):
                        est = wilson(rates[s] * games, games)
                        seats.append({
                            "config": config, "variant": variant, "players": p, "strategies": "/".join(["linear"] * p),
                            "seat": s, "strategy": "linear", "games": games, "win_rate": est.value, "win_low": est.low,
                            "win_high": est.high, "fair": fair, "lift": est.value - fair,
                            "significant": not (est.low <= fair <= est.high), "mean_score": 14.0 - s,
                            "score_low": 13.9 - s, "score_high": 14.1 - s, "mean_z": 1.7, "mean_turns": mean_len / p,
                            "aborted": 0,
                        })
                        scores = np.arange(-5, 35)
                        counts = rng.multinomial(games, np.exp(-0.5 * ((scores - 14 + s) / 6) ** 2) / np.exp(-0.5 * ((scores - 14 + s) / 6) ** 2).sum())
                        score_rows += [{"config": config, "players": p, "variant": variant, "seat": s, "score": int(x), "count": int(c)}
                                       for x, c in zip(scores, counts) if c]
                    lengths.append({"config": config, "players": p, "variant": variant, "strategies": "/".join(["linear"] * p),
                                    "games": games, "mean_length": mean_len, "length_low": mean_len - 0.1, "length_high": mean_len + 0.1})
                    turns = np.arange(20, 80)
                    w = np.exp(-0.5 * ((turns - mean_len) / 7) ** 2)
                    counts = rng.multinomial(games, w / w.sum())
                    length_rows += [{"config": config, "players": p, "variant": variant, "length": int(x), "count": int(c)}
                                    for x, c in zip(turns, counts) if c]
                    for t in sorted(BASE_TYPES):
                        rate = fair + rng.normal(0, 0.03)
                        est = wilson(rate * games, games)
                        strength_rows.append({
                            "variant": variant, "players": p, "type": CODES[t], "name": NAMES[t],
                            "performed_per_game": 3 + rng.random(), "pick_share": 1 / 8, "games_more": games // 2,
                            "win_rate_more": est.value, "win_low": est.low, "win_high": est.high, "fair": fair,
                            "lift": est.value - fair, "chain_points_per_game": 2 * rng.random(),
                            "significant": not (est.low <= fair <= est.high),
                        })
                    if o == "base":
                        for a in sorted(BASE_TYPES):
                            for b in sorted(BASE_TYPES):
                                if a < b:
                                    rate = fair + rng.normal(0, 0.04)
                                    n = 2000
                                    est = wilson(rate * n, n)
                                    pair_rows.append({
                                        "variant": variant, "players": p, "card": f"{CODES[a]}/{CODES[b]}", "seat_games": n,
                                        "held_rate": 0.2, "win_rate_held": est.value, "win_low": est.low, "win_high": est.high,
                                        "fair": fair, "lift": est.value - fair, "significant": not (est.low <= fair <= est.high),
                                    })
                removed, added = ("", "") if swap == "none" else tuple(swap.split(":"))
                sp = spread[(p, variant)]
                sweep_rows.append({
                    "variant": variant, "swaps": swap, "removed": removed, "added": added, "options": o, "players": p,
                    "strategies": "linear", "games": games, "seat_spread": sp, "spread_low": sp - 0.012, "spread_high": sp + 0.012,
                    "first_seat_win": float(rates[0]), "mean_winning_score": 20 + rng.normal(0, 1), "ws_low": 19.8,
                    "ws_high": 20.2, "mean_length": mean_len, "strongest_type": "NT", "strongest_lift": 0.03,
                })
    compare_rows = []
    for p in PLAYERS:
        for o in OPTIONS:
            for swap in ["none", *singles]:
                variant = _variant(o, swap)
                if variant == "base" or (swap != "none" and o != "base"):
                    continue
                for metric, scale in (("seat_spread", 1.0), ("first_seat_win", 1.0), ("winning_score", 10.0), ("game_length", 20.0)):
                    if metric == "seat_spread":
                        a, b = spread[(p, "base")], spread[(p, variant)]
                    else:
                        a = scale * (0.4 + rng.random() * 0.1)
                        b = a + scale * rng.normal(0, 0.02)
                    d = b - a
                    half = 0.008 * scale
                    compare_rows.append({
                        "players": p, "strategies": "/".join(["linear"] * p), "baseline": "base", "variant": variant,
                        "metric": metric, "baseline_value": a, "variant_value": b, "diff": d, "diff_low": d - half,
                        "diff_high": d + half, "unpaired_low": d - 2.5 * half, "unpaired_high": d + 2.5 * half,
                        "paired": True, "games": games, "significant": not (d - half <= 0 <= d + half),
                    })
    names = ["rollout", "linear", "economist", "chain", "spoiler", "greedy", "random"]
    strength = np.linspace(1.0, 0.0, len(names))
    tournaments = []
    for p in (3,):
        fair = 1 / p
        st_rows, pay_rows = [], []
        for i, a in enumerate(names):
            rate = fair + 0.35 * (strength[i] - strength.mean())
            est = wilson(rate * 6000, 6000)
            st_rows.append({"strategy": a, "games": 6000, "win_rate": est.value, "win_low": est.low, "win_high": est.high,
                            "lift": est.value - fair, "mean_score": 10 + 3 * strength[i], "rating": 30 * strength[i]})
            for j, b in enumerate(names):
                if a == b:
                    continue
                r = float(np.clip(fair + 0.4 * (strength[i] - strength[j]), 0.005, 0.95))
                e = wilson(r * 1000, 1000)
                pay_rows.append({"strategy": a, "opponent": b, "games": 1000, "win_rate": e.value, "win_low": e.low, "win_high": e.high})
        tournaments.append(Tournament(p, "base", pl.DataFrame(st_rows).sort("win_rate", descending=True), pl.DataFrame(pay_rows),
                                      dominant="rollout", cycles=[], games_per_seating=200))
    skill_rows = []
    for p in PLAYERS:
        for o in OPTIONS:
            fair = 1 / p
            rate = fair + 0.2 + rng.normal(0, 0.03)
            est = wilson(rate * 6000, 6000)
            skill_rows.append({"variant": o, "players": p, "stronger": "linear", "weaker": "chain", "games": 6000,
                               "stronger_win_rate": est.value, "win_low": est.low, "win_high": est.high, "fair": fair,
                               "significant": not (est.low <= fair <= est.high)})
    solo_rows = []
    for strategy in ("linear", "greedy"):
        for o in OPTIONS:
            shares = rng.dirichlet(np.ones(len(SOLO_BANDS)) * 3)
            n = 20_000
            mean = 30 + rng.normal(0, 3)
            for (low, high, band), share in zip(SOLO_BANDS, shares):
                est = wilson(share * n, n)
                solo_rows.append({"variant": o, "strategy": strategy, "band": band, "count": int(round(share * n)), "games": n,
                                  "share": est.value, "share_low": est.low, "share_high": est.high,
                                  "mean_score": mean, "score_low": mean - 0.2, "score_high": mean + 0.2})
    return StudyTables(
        kinds={"seats", "compare", "sweep", "tournament", "skill", "solo", "types"},
        seats=pl.DataFrame(seats), lengths=pl.DataFrame(lengths), score_dist=pl.DataFrame(score_rows),
        length_dist=pl.DataFrame(length_rows), compare=pl.DataFrame(compare_rows), strength=pl.DataFrame(strength_rows),
        pairs=pl.DataFrame(pair_rows), sweep=pl.DataFrame(sweep_rows), tournaments=tournaments,
        skill=pl.DataFrame(skill_rows), solo=pl.DataFrame(solo_rows),
    )


# ============================================================================ synthetic tables

def test_every_chart_is_drawn_from_synthetic_tables():
    t = synthetic_tables()
    charts = make_charts(t)
    names = [c.name for c in charts]
    assert names == ["seats", "compare", "scores", "lengths", "types", "cards", "swaps-2p", "swaps-3p", "swaps-4p",
                     "tournament-3p", "skill", "solo"]
    for chart in charts:
        axes = [ax for ax in chart.figure.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]
        assert axes and chart.figure._suptitle is not None and chart.figure._suptitle.get_text()
        for ax in axes:
            assert ax.get_xlabel() or any(t.get_text() for t in ax.get_xticklabels())
        if len(axes) > 1:  # panels say what they show
            assert all(ax.get_title() for ax in axes)
        chart.figure.clf()


def test_synthetic_findings_quote_their_rows():
    t = synthetic_tables()
    findings = make_findings(t)
    check_findings(findings, t)
    spread = [f for f in findings if f.topic == "swaps"]
    # Per player count the swap lowering seat spread most and the one raising it most (all are single swaps here).
    for p in (2, 3, 4):
        rows = t.compare.filter((pl.col("players") == p) & (pl.col("metric") == "seat_spread")
                                & ~pl.col("variant").is_in(["sleep-token", "shifting-tokens", "sleep-token+shifting-tokens"]))
        quoted = [f.row["variant"] for f in spread if f.row["players"] == p]
        assert quoted == [rows.sort("diff")["variant"][0], rows.sort("diff", descending=True)["variant"][0]]
    swap = spread[0]
    removed, added = swap.row["variant"].split(":")
    assert f"swapping {NAMES[CODES.index(removed)]} for {NAMES[CODES.index(added)]}" in swap.text
    assert len(findings_pages(findings, TOPICS)) >= 1


def test_sweep_findings_without_a_comparison_table_quote_the_sweep():
    t = synthetic_tables()
    t.compare = None
    findings = [f for f in make_findings(t) if f.topic == "swaps"]
    assert findings and all(f.source == "sweep" for f in findings)
    check_findings(findings, t)


def test_nothing_to_show_gives_no_chart_and_no_finding():
    empty = StudyTables()
    assert make_charts(empty) == [] and make_findings(empty) == []
    pages = findings_pages([], TOPICS)
    assert len(pages) == 1  # one page saying there is nothing to report


def test_two_strategy_tournaments_are_left_to_the_skill_page():
    t = synthetic_tables()
    pair = t.tournaments[0].standings.head(2)
    t.tournaments.append(Tournament(2, "base", pair, t.tournaments[0].payoff.head(2)))
    assert [c.name for c in tournament_charts(t)] == ["tournament-3p"]
    assert all(f.source != "tournament:1" for f in make_findings(t))


# ============================================================================ the main study


def test_the_main_study_plays_what_issue_6_asks_for():
    from analyses.tools.tournament import schedule
    from reports.main_study import main_plan

    plan = main_plan()
    configs = plan.configs
    # 12 + 288 + 33 + 210 + 54 + 18 + 12 + 12 + 12 configurations (the ladder's 2-player round robin has
    # 28 pairs x 2 seatings, of which expert/linear is skill against luck's already, with its 20,000 games)
    assert len({c.id for c in configs}) == len(configs) == 651
    assert plan.total_games == (12 * 200_000 + 288 * 20_000 + 33 * 20_000 + 210 * 2_000 + 54 * 2_000 + 18 * 300
                                + 12 * 50_000 + 12 * 20_000 + 4 * (6_000 + 4_500 + 3_000))
    multi = [c for c in configs if len(set(c.strategies)) == 1 and c.players >= 2]
    options = ("base", "sleep-token", "shifting-tokens", "sleep-token+shifting-tokens")
    for p in (2, 3, 4):
        variants = {c.variant for c in multi if c.players == p and c.strategies[0] == "expert"}
        assert set(options) <= variants
        # every single swap (8 base types x 3 expansion types) under every rules option
        for o in options:
            singles = {v for v in variants if v.startswith(o + "+") or (o == "base" and ":" in v and "+" not in v)}
            singles = {v for v in singles if v.count(":") == 1 and v.replace(o + "+", "", 1).count("+") == 0}
            assert len(singles) == 24, (p, o)
        # issue 12: the rules options again at the other skill levels
        assert {c.variant for c in multi if c.players == p and c.strategies[0] == "linear"} == set(options)
        assert {c.variant for c in multi if c.players == p and c.strategies[0] == "strong"} == set(options)  # issue 26
    bots = ("random", "greedy", "chain", "economist", "spoiler", "linear", "expert")
    tournament = [c for c in configs if c.players == 3 and c.variant == "base" and len(set(c.strategies)) > 1
                  and exploit_cell(c.strategies) is None]
    assert len(tournament) == 35 * 6  # C(7, 3) groups x 3! seatings
    assert [c.strategies for c in tournament] == schedule(bots, 3)
    # issue 12: the strength ladder (a 2-player round robin) and the bot's exploit cells
    ladder = [c for c in configs if c.players == 2 and c.variant == "base" and len(set(c.strategies)) > 1
              and exploit_cell(c.strategies) is None]
    assert sorted(c.strategies for c in ladder) == sorted(schedule(("random", "greedy", "spoiler", "chain", "economist",
                                                                     "linear", "expert", "strong"), 2))
    cells = sorted((c.players, c.variant, exploit_cell(c.strategies)) for c in configs if exploit_cell(c.strategies))
    assert cells == sorted((p, o, ("expert", "search:expert@8:late", s)) for p in (2, 3, 4) for o in ("base", "sleep-token")
                           for s in range(p))
    assert all(plan.games_of(RunConfig(v, p, tuple("search:expert@8:late" if i == s else "expert" for i in range(p)))) == 300
               for p, v, (_, _, s) in cells)
    assert "rollout" not in {s for c in configs for s in c.strategies}
    assert {c.variant for c in configs if c.players == 1} == set(options)
    assert {c.strategies[0] for c in configs if c.players == 1} == {"expert", "linear", "greedy"}
    skill = [c for part in plan.parts if part.label == "skill against luck" for c in part.configs]
    assert {(c.players, c.variant) for c in skill} == {(p, o) for p in (2, 3, 4) for o in options} - {(3, "base")}
    assert all(sorted(c.strategies).count("expert") == 1 and set(c.strategies) == {"expert", "linear"} for c in skill)
    assert len(skill) == sum(p * (4 - (p == 3)) for p in (2, 3, 4))  # every seat of every table gets the expert bot
    # games per configuration of each part (README: the main study)
    games = {(part.label, plan.games_of(part.configs[0])) for part in plan.parts}
    assert games == {("rules options", 200_000), ("single swaps", 20_000), ("skill against luck", 20_000),
                     ("tournament", 2_000), ("ladder", 2_000), ("bot strength", 300), ("solo", 50_000),
                     ("skill levels", 20_000), ("skill levels", 6_000),
                     ("skill levels", 4_500), ("skill levels", 3_000)}
    quick = main_plan(quick=True)
    assert {c.id for c in quick.configs} < {c.id for c in configs}
    assert len(quick.configs) == 414 and quick.total_games == 517_900 + 14 * 1_000 + 4 * (300 - 100)
    quick_swaps = {(c.players, c.variant) for c in quick.configs if ":" in c.variant}
    assert quick_swaps == {(p, v) for p in (2, 3, 4) for v in {c.variant for c in multi if ":" in c.variant and "+" not in c.variant}}
    assert len(quick_swaps) == 3 * 24  # every single swap, under the base rules only
    assert quick.fingerprint() != plan.fingerprint()
    quick_games = {(part.label, quick.games_of(part.configs[0])) for part in quick.parts}
    assert all(any(label == q and qg < g for q, qg in quick_games) for label, g in games)


def test_the_default_folder_is_reused_for_the_same_request_only(tmp_path):
    from reports.main_study import default_folder, main_plan

    plan = main_plan(quick=True)
    first = default_folder(plan, True, None, root=tmp_path)
    assert first == tmp_path / f"study-{date.today().isoformat()}-quick"
    Study(first, plan.configs[:1], 10, seed=1, meta={"request": plan.fingerprint()})
    assert default_folder(plan, True, None, root=tmp_path) == first  # same request: resume it
    other = main_plan(quick=True, seed=7)
    assert default_folder(other, True, None, root=tmp_path).name.endswith("-quick-seed7")
    Study(tmp_path / "x", plan.configs[:1], 10, seed=1)
    changed = main_plan(quick=True)
    changed.config_games[changed.configs[0].id] += 1  # another request under the same name gets the next free name
    assert default_folder(changed, True, None, root=tmp_path) == first.with_name(first.name + "-2")


def test_run_main_study_writes_the_report_and_a_rerun_reuses_the_folder(tmp_path, monkeypatch):
    from reports import main_study

    tiny = tmp_path / "tiny.toml"
    tiny.write_text('name = "tiny study"\n'
                    '[[configs]]\nlabel = "rules options"\ngames = 800\nplayers = 3\nvariants = ["base", "sleep-token"]\n'
                    'strategy = "linear"\n'
                    '[[configs]]\nlabel = "solo"\ngames = 400\nplayers = 1\nstrategy = "greedy"\n')
    from analyses.games import get_game

    monkeypatch.setitem(get_game("dreamscape").study_plans, "quick", tiny)  # the game's declared quick study
    monkeypatch.chdir(tmp_path)
    folder = main_study.run_main_study(quick=True, progress=False)
    assert folder == Path("out") / f"study-{date.today().isoformat()}-quick"
    assert (folder / "report.pdf").is_file() and {p.stem for p in (folder / "charts").glob("*.png")} >= {"seats", "compare", "solo"}
    m = load_manifest(folder)
    assert m.total_games() == 2 * 800 + 400 and m.meta["request"] == main_study.main_plan(quick=True).fingerprint()
    assert m.meta["parts"] == [{"label": "rules options", "configs": 2, "games": 800}, {"label": "solo", "configs": 1, "games": 400}]
    rebuilt = []
    monkeypatch.setattr("reports.games.dreamscape.build_report", lambda f, pdf=None, png_dir=None: rebuilt.append(Path(f)) or _Files())
    assert main_study.run_main_study(quick=True, progress=False) == folder  # the same request: the same folder
    again = load_manifest(folder)
    assert again.total_games() == m.total_games()  # nothing played twice
    assert {c: [r.first for r in recs] for c, recs in again.chunks.items()} == {c: [r.first for r in recs] for c, recs in m.chunks.items()}
    assert rebuilt == [folder]  # the report is rebuilt from the folder
    # naming the default game changes nothing: the same study, the same folder
    assert main_study.run_main_study(quick=True, progress=False, game="dreamscape") == folder


class _Files:
    pdf, pngs, pages = Path("report.pdf"), [], ["Title"]


def test_run_main_study_plays_a_designers_study_file(tmp_path, monkeypatch):
    from reports.main_study import run_main_study

    rebuilt = []
    monkeypatch.setattr("reports.games.dreamscape.build_report", lambda f, pdf=None, png_dir=None: rebuilt.append(Path(f)) or _Files())
    path = tmp_path / "mine.toml"
    path.write_text('name = "two rules"\ngames = 500\n[[configs]]\nvariants = ["base", "sleep-token"]\nplayers = 2\nstrategy = "greedy"\n')
    folder = run_main_study(out=tmp_path / "mine", config=path, progress=False)
    assert rebuilt == [folder] == [tmp_path / "mine"]
    m = load_manifest(folder)
    assert {c.variant for c in m.configs} == {"base", "sleep-token"} and m.total_games() == 1000


def test_a_strategy_file_given_by_its_path_is_one_bot_in_the_report(tmp_path):
    """A "/" in a strategy's own name (its file's path) is no seat separator: its balance findings are there."""
    from analyses.study.studyfile import load_study_file, run_plan

    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "mine.py").write_text("def f(kind, seat, features, state):\n    return features[0]\n")
    spec = f"{bots / 'mine.py'}:f"
    (tmp_path / "s.toml").write_text(f'seed = 1\ngames = 60\nplayers = 2\nvariants = ["base", "sleep-token"]\n'
                                     f'strategy = "{spec}"\n')
    run_plan(load_study_file(tmp_path / "s.toml"), tmp_path / "study", progress=False)
    t = collect(tmp_path / "study")
    assert RunConfig("base", 2, (spec, spec)).label == spec.replace("/", "\u2215")
    topics = {f.topic for f in make_findings(t)}
    assert {"seats", "compare"} <= topics  # before, the path's "/" made it look like several bots: no finding at all
