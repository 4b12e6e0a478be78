"""Kept runs of strong's distance from search (issue #42): the shipped cells against the code, the rule that takes a
kept cell only on the same seed, deck and value, the gain recomputed from the counts, and a study read end to end."""
from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

from analyses.games.dreamscape import kept
from analyses.study.model import RunConfig
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.rules import Options


def test_the_gain_and_its_interval_are_recomputed_from_the_paired_counts():
    # six deals: search seat won, bot seat lost (3); both lost (1); search lost where the bot won (1); both won (1).
    # Differences 1,1,1,0,-1,0: mean 1/3; sample variance (3*(2/3)^2 + 2*(1/3)^2 + (4/3)^2)/5 = 2/3, so the
    # standard error is sqrt(2/3/6) = 1/3 and the 95% t interval (5 degrees of freedom, t = 2.570582) is
    # 1/3 -+ 0.856861.
    cell = {"bot": "strong", "search": "search:strong@8:late", "players": 2, "variant": "base", "seat": 2,
            "counts": [[0.0, 0.0, 1], [0.0, 1.0, 1], [1.0, 0.0, 3], [1.0, 1.0, 1]]}
    row = kept.cell_from_counts(cell)
    assert row["games"] == 6 and row["seat"] == 2
    assert row["search_win"] == pytest.approx(4 / 6) and row["own_win"] == pytest.approx(2 / 6)
    assert row["gain"] == pytest.approx(1 / 3)
    assert (row["gain_low"], row["gain_high"]) == pytest.approx((1 / 3 - 0.856861, 1 / 3 + 0.856861), abs=1e-5)
    assert row["significant"] is False


def test_the_docs_table_is_worked_out_from_the_paired_counts():
    # The six deals of the test above in a swap deck: strong won 2 of 6 in the seat, search 4 of 6. Wilson 95%
    # intervals (z = 1.959964): 2/6 -> 9.68% to 70.00%, 4/6 -> 30.00% to 90.32%; the gain +33.3 points with the
    # t interval -52.4 to +119.0, which holds 0: not bold.
    cell = {"bot": "strong", "search": "search:strong@8:late", "players": 2, "variant": "FF:ID", "seat": 2, "games": 6,
            "counts": [[0.0, 0.0, 1], [0.0, 1.0, 1], [1.0, 0.0, 3], [1.0, 1.0, 1]]}
    # five deals won by search where strong lost, one lost by both: differences 1 x5, 0: mean 5/6, sample
    # variance 1/6, standard error 1/6, 5/6 -+ 2.570582/6 = +40.5 to +126.2: bold. Strong 0/6 (0.0 to 39.0%),
    # search 5/6 (43.6 to 97.0%). Rows come out by players, deck and seat, whatever the cells' order.
    won = {**cell, "players": 3, "variant": "PR:ID", "seat": 1, "counts": [[0.0, 0.0, 1], [1.0, 0.0, 5]]}
    lines = kept.table_lines([won, cell])
    assert lines[0] == "| players | deck | seat | games | strong wins | search wins | search gain (points) |"
    assert lines[2] == ("| 2 | Floating Free \u2192 Invasive Dreaming (`FF:ID`) | 2 | 6 | 33.3% (9.7 to 70.0%) "
                        "| 66.7% (30.0 to 90.3%) | +33.3 (\u221252.4 to +119.0) |")
    assert lines[3] == ("| 3 | Perfect Respite \u2192 Invasive Dreaming (`PR:ID`) | 1 | 6 | 0.0% (0.0 to 39.0%) "
                        "| 83.3% (43.6 to 97.0%) | **+83.3 (+40.5 to +126.2)** |")
    assert len(lines) == 4


def test_paired_counts_keep_every_pair_of_credits_including_split_wins():
    mine = np.array([1.0, 0.5, 0.0, 1.0, 0.5])
    own = np.array([0.0, 0.5, 0.0, 0.0, 1.0])
    assert kept.paired_counts(mine, own) == [[0.0, 0.0, 1], [0.5, 0.5, 1], [0.5, 1.0, 1], [1.0, 0.0, 2]]


def test_a_swap_deck_and_the_base_deck_have_different_digests_and_the_rules_options_do_not_change_the_cards():
    base = kept.deck_digest(3, "base")
    assert kept.deck_digest(3, "FF:ID") != base  # R1.4: a swap changes the cards dealt
    assert kept.deck_digest(3, "shifting-tokens") == base  # a token rule, not a card


def _cells(players, variant, seed, games=6, **changes):
    deck, value = kept.deck_digest(players, variant), kept.value_digest("strong", players, variant)
    row = kept.row_digest("strong", players, variant)
    out = []
    for seat in range(1, players + 1):
        cell = {"bot": "strong", "search": kept.SEARCH, "players": players, "variant": variant, "seat": seat,
                "games": games, "seed": seed, "deck_digest": deck, "value_digest": value,
                "row_digest": row, "counts": [[1.0, 0.0, seat], [0.0, 0.0, games - seat]], "outcomes": {"search": "x", "bot": "y"}}
        cell.update(changes)
        out.append(cell)
    return out


def _manifest(seed, *setups):
    configs = [RunConfig(v, p, ("strong",) * p) for p, v in setups]
    configs.append(RunConfig("base", 3, ("expert",) * 3))  # read under expert: not strong's business
    return SimpleNamespace(seed=seed, deck=None, configs=configs)


def test_a_kept_cell_stands_in_only_on_the_same_seed_deck_and_value(tmp_path):
    path = tmp_path / "kept.json"
    kept.save_kept(_cells(3, "base", 1) + _cells(3, "sleep-token", 7) + _cells(2, "base", 1, value_digest="0" * 64)
                   + _cells(3, "shifting-tokens", 1, deck_digest="f" * 64) + _cells(2, "sleep-token", 1)[:1]
                   + _cells(4, "base", 1, row_digest="e" * 64), path)
    setups = [(3, "base"), (3, "sleep-token"), (2, "base"), (3, "shifting-tokens"), (2, "sleep-token"),
              (4, "sleep-token+shifting-tokens"), (4, "base")]
    rows, missing = kept.kept_cells(_manifest(1, *setups), None, path=path)
    assert rows["variant"].to_list() == ["base"] * 3 and rows["players"].to_list() == [3] * 3
    assert rows["seat"].to_list() == [1, 2, 3]
    assert rows["gain"].to_list() == pytest.approx([1 / 6, 2 / 6, 3 / 6])
    assert set(rows["source"]) == {"from a kept run (seed 1, 6 games)"}
    said = " | ".join(missing)
    assert len(missing) == 6
    assert "4 players, base: not measured (the kept run played another expert table under strong's value" in said
    assert "3 players, sleep-token: not measured (kept runs of seed 7, the study's is 1" in said
    assert "2 players, base: not measured (the kept run played another value of strong" in said
    assert "3 players, shifting-tokens: not measured (the kept run dealt another deck" in said
    assert "2 players, sleep-token: not measured (the kept run misses a seat" in said
    assert ("4 players, sleep-token+shifting-tokens: not measured (no kept run; measure: python -m "
            "analyses.games.dreamscape.kept measure --players 4 --variant sleep-token+shifting-tokens --seed 1)") in said
    # the study's own cells of a configuration come first: no kept cell is added beside them
    own = rows.head(1).drop("source")
    rows2, missing2 = kept.kept_cells(_manifest(1, (3, "base")), own, path=path)
    assert rows2 is None and missing2 == []


def test_a_damaged_kept_file_is_named_in_one_line(tmp_path):
    path = tmp_path / "kept.json"
    path.write_text(json.dumps({"format": 1, "cells": [{"bot": "strong"}]}))
    with pytest.raises(kept.StudyError, match=r"kept.json: damaged kept runs \(KeyError"):
        kept.load_kept(path)


def test_bad_input_to_the_producer_is_one_line_and_exit_2(capsys):
    for argv, words in ((["measure", "--players", "5", "--variant", "base"], "--players must be 2 to 4"),
                        (["measure", "--players", "3", "--variant", "nonsense"], "nonsense"),
                        (["measure", "--players", "3"], "--variant"),
                        (["keep", "/nonexistent/folder"], "/nonexistent/folder"),
                        (["table", "--players", "3", "--variant", "no-such-deck"], "no kept cell matches")):
        with pytest.raises(SystemExit) as exc:
            kept.main(argv)
        err = capsys.readouterr().err.strip()
        assert exc.value.code == 2 and len(err.splitlines()) == 1 and words in err, (argv, err)


def test_the_shipped_kept_cells_match_the_code():
    """Every kept cell: the same deck and value as the code plays now, and its first games replay to the kept outcomes.

    A change to strong, its value, the search player or the engine that was not measured again fails here,
    naming the cell and the one line that measures it again.
    """
    cells = kept.load_kept()
    assert cells, f"{kept.KEPT_FILE} holds no kept cell"
    replayed: dict[tuple, str] = {}
    for cell in cells:
        again = f"{kept.cell_words(cell)}: measure again with `{kept.measure_command(cell)}`"
        assert cell["deck_digest"] == kept.deck_digest(cell["players"], cell["variant"]), f"{again} (another deck)"
        assert cell["value_digest"] == kept.value_digest(cell["bot"], cell["players"], cell["variant"]), \
            f"{again} (another value of {cell['bot']})"
        mine, own = kept.seatings(cell)
        key = (cell["players"], cell["variant"], cell["seed"])
        if key not in replayed:
            replayed[key] = kept.replay_digest(cell, own)
        assert cell["outcomes"]["bot"] == replayed[key], f"{again} (the all-{cell['bot']} games play differently)"
        assert cell["outcomes"]["search"] == kept.replay_digest(cell, mine), f"{again} (the search games play differently)"
        assert sum(n for _, _, n in cell["counts"]) == cell["games"] >= kept.GAMES


@pytest.fixture(scope="module")
def tiny_kept_run(tmp_path_factory):
    """A kept run of 2-player base games, 4 deals, measured by the producer (the study pipeline)."""
    root = tmp_path_factory.mktemp("kept")
    path = root / "kept.json"
    cells = kept.measure(2, ["base"], out=root / "run", games=4, seed=1, path=path, progress=False)
    return root, path, cells


def test_the_producer_keeps_what_the_engine_plays(tiny_kept_run):
    root, path, cells = tiny_kept_run
    assert [c["seat"] for c in cells] == [1, 2] and kept.load_kept(path) == cells
    cfg = SimConfig(2, Options(False, False))
    own = simulate(cfg, 4, 1, "strong").win
    for cell in cells:
        mine_seats, own_seats = kept.seatings(cell)
        mine = simulate(cfg, 4, 1, mine_seats).win
        s = cell["seat"] - 1
        assert cell["games"] == 4 and cell["seed"] == 1
        assert kept.cell_from_counts(cell)["gain"] == pytest.approx(float(np.mean(mine[:, s] - own[:, s])))
        assert cell["outcomes"]["search"] == kept.replay_digest(cell, mine_seats)
        assert cell["outcomes"]["bot"] == kept.replay_digest(cell, own_seats)
        assert cell["value_digest"] == kept.value_digest("strong", 2, "base") != "none"
    # the digest tells other games apart: the same seating on other deals
    cell = cells[0]
    mine_seats, _ = kept.seatings(cell)
    assert kept.replay_digest({**cell, "seed": 2}, mine_seats) != cell["outcomes"]["search"]


def test_a_study_read_under_strong_takes_the_kept_cells_and_its_verdicts_name_them(tiny_kept_run, tmp_path, monkeypatch):
    from analyses.lab.studies import run_study
    from reports.games.dreamscape.data import collect
    from reports.games.dreamscape.findings import make_findings
    from reports.games.dreamscape.robust import level_distance

    _, path, _ = tiny_kept_run
    monkeypatch.setattr(kept, "KEPT_FILE", path)
    config = tmp_path / "strong.toml"
    config.write_text('name = "strong only"\nseed = 1\n\n[[configs]]\ngames = 4\nplayers = 2\nvariants = ["base", "sleep-token"]\n'
                      'strategy = "strong"\n')
    folder = run_study(out=tmp_path / "study", config=config, progress=False, report=False)
    t = collect(folder)
    strong = t.exploit.filter(t.exploit["strategy"] == "strong")
    assert strong["variant"].to_list() == ["base", "base"]
    assert set(strong["source"]) == {"from a kept run (seed 1, 4 games)"}
    assert len(t.exploit_missing) == 1 and t.exploit_missing[0].startswith("2 players, sleep-token: not measured (no kept run")
    distance = level_distance(t.exploit, "strong", "seats", {"players": 2, "variant": "base", "seat": 0})
    assert distance is not None and distance.source == "from a kept run (seed 1, 4 games)"
    assert "from a kept run (seed 1, 4 games)" in distance.words()
    assert level_distance(t.exploit, "strong", "seats", {"players": 2, "variant": "sleep-token", "seat": 0}) is None
    said = " ".join(f.text for f in make_findings(t) if f.topic == "exploit")
    assert "2 from a kept run (seed 1, 4 games)" in said and "2 players, sleep-token: not measured" in said
    # the same study at another seed takes no kept cell
    other = run_study(out=tmp_path / "study7", config=config, seed=7, progress=False, report=False)
    t7 = collect(other)
    assert t7.exploit is None and all("kept runs of seed 1, the study's is 7" in m or "no kept run" in m
                                      for m in t7.exploit_missing)


def test_the_value_digest_is_the_value_file_the_engine_plays_there():
    from simcore.games.dreamscape.bots.strong import SHIPPED_DIR, read_value

    base = read_value(SHIPPED_DIR / "3p-base.npz").digest()
    assert kept.value_digest("strong", 3, "base") == base
    assert kept.value_digest("strong", 3, "sleep-token") == read_value(SHIPPED_DIR / "3p-sleep-token.npz").digest()
    swaps = SHIPPED_DIR / "3p-base-single-swaps.npz"
    if swaps.is_file():  # a single swap under the base rules plays the value trained across the single swaps
        assert kept.value_digest("strong", 3, "FF:ID") == read_value(swaps).digest() != base


def test_the_row_digest_covers_the_expert_table_strong_plays_under_its_value():
    """The row is the 3-player table with the fitted Invasive Dreaming rows overlaid (issue #41), then the value:
    worked out here from the shipped files, so a change to either shows; the rules options play other rows."""
    import hashlib

    import numpy as np

    from simcore.games.dreamscape.bots.expert import SHIPPED_DIR as TABLES, read_table, shipped_table
    from simcore.games.dreamscape.bots.strong import SHIPPED_DIR, read_value

    table = shipped_table(TABLES / "3p-base.toml")
    assert not np.array_equal(table, read_table(TABLES / "3p-base.toml")[1])  # the overlay changes the table
    swaps = SHIPPED_DIR / "3p-base-single-swaps.npz"
    row = np.concatenate([table, read_value(swaps).packed()]).astype(np.float64)
    assert kept.row_digest("strong", 3, "PR:ID") == hashlib.sha256(row.tobytes()).hexdigest()
    assert kept.row_digest("strong", 3, "PR:ID") != kept.row_digest("strong", 3, "base")  # another value
    assert kept.row_digest("strong", 3, "base") != kept.row_digest("strong", 3, "sleep-token")


def test_the_research_page_shows_the_kept_swap_cells_as_the_kept_file_holds_them():
    """The page's table of the swap decks' cells is the table command's output over the kept file, not typed."""
    from pathlib import Path

    from analyses.games.dreamscape.words import split_variant

    page = Path(__file__).resolve().parents[1] / "docs" / "research" / "2026-11-28-strong-distance-kept.md"
    swaps = [c for c in kept.load_kept() if split_variant(c["variant"]).has_swaps]
    assert swaps, "no kept cell of a swap deck"
    table = "\n".join(kept.table_lines(swaps))
    assert table in page.read_text(), (f"{page.name}: its swap-deck table differs from the kept file; print it with "
                                       "`python -m analyses.games.dreamscape.kept table --swaps`")


def test_a_second_producer_waits_for_the_first_and_both_cells_are_kept(tmp_path):
    """Two measurements filing into one kept file at once: the second waits for the first's lock, so the file ends
    with both cells (a read-merge-write without the lock would drop the one written first)."""
    import threading
    import time

    from analyses.study.folder import updating

    path = tmp_path / "kept.json"
    first = next(c for c in kept.load_kept() if c["players"] == 2 and c["seat"] == 1)  # a whole cell as kept
    second = {**first, "seat": 2}
    done = threading.Event()

    def file_second():
        kept.save_kept([second], path)
        done.set()

    with updating(path):  # the first producer is between its read and its write
        writer = threading.Thread(target=file_second)
        writer.start()
        time.sleep(0.5)
        assert not done.is_set() and not path.exists()  # the second is kept out while the first holds the lock
        path.write_text(json.dumps({"format": kept.FORMAT, "cells": [first]}))  # the first's write
    writer.join(timeout=30)
    assert done.is_set()
    assert [c["seat"] for c in kept.load_kept(path)] == [1, 2]
