"""The expert bot (Mode.EXPERT) and its trainer: scoring, table files, configuration tables, distillation."""
from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from cli import app
from cli_checks import assert_one_line_error

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers linear, expert, ...
from analyses.games.dreamscape.train import agreement, centred, fit_table, phase_of
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.isearch import REC_CHOSEN, REC_DECISION, REC_FEATURES, REC_KIND, REC_N, REC_VALUE, REC_WIDTH
from simcore.games.dreamscape.fast.layout import F_BUDGET_AFTER, F_DECK_FRACTION, F_DELTA, F_Z_AFTER, K_BUY, K_TAKE_Z
from simcore.games.dreamscape.fast.runner import collect_search
from simcore.games.dreamscape.fast.scratch import EXPERT_PHASES, EXPERT_ROWS, EXPERT_WIDTH
from simcore.games.dreamscape.fast.strategies import CheckedTables, get_record, register_expert
from simcore.games.dreamscape.rules import DECISION_ID, Options
from simcore.games.dreamscape.bots.api import StrategyError, load_strategy
from simcore.games.dreamscape.bots.builtins import LINEAR_WEIGHTS
from simcore.games.dreamscape.bots.expert import (
    PHASES,
    read_table,
    row_index,
    shipped_tables,
    table_from_linear,
    write_table,
)
from simcore.games.dreamscape.bots.features import N_FEATURES

FIELDS = ("score", "z", "turns", "win", "length", "aborted", "performed", "chain_by_type")
KEY3 = (3, False, False)


def _same(a, b):
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in FIELDS)


def _greedy_table():
    """Every row weighs the immediate own-score change alone: greedy's score."""
    t = np.zeros(EXPERT_WIDTH)
    t[F_DELTA::N_FEATURES] = 1.0
    return t


# ------------------------------------------------------------------ scoring in the engine


@pytest.mark.parametrize("options", [Options(), Options(sleep_token=True, shifting_tokens=True)])
def test_a_table_of_linear_rows_plays_exactly_linear(options):
    # Every row = the linear weights: dot(row, features) is linear's score at every kind and phase, and the
    # Shifting orders tie as linear's do (its index/arg weights are 0), so every game is the same.
    register_expert("t-expert-linear", {KEY3: table_from_linear(LINEAR_WEIGHTS)}, KEY3)
    cfg = SimConfig(3, options)
    assert _same(simulate(cfg, 300, 5, "linear"), simulate(cfg, 300, 5, "t-expert-linear"))


def test_a_table_of_delta_rows_plays_exactly_greedy():
    # greedy scores features[DELTA]; where DELTA is 0 for every option all tie and the stream picks below(n)
    register_expert("t-expert-greedy", {KEY3: _greedy_table()}, KEY3)
    cfg = SimConfig(3, Options(sleep_token=True))
    assert _same(simulate(cfg, 300, 9, "greedy"), simulate(cfg, 300, 9, "t-expert-greedy"))


def test_mixed_seats_and_the_table_of_the_configuration():
    # 3 players play the 3-player table (greedy rows), 2 players the 2-player one (linear rows)
    tables = {KEY3: _greedy_table(), (2, False, False): table_from_linear(LINEAR_WEIGHTS)}
    register_expert("t-expert-by-config", tables, KEY3)
    cfg3, cfg2 = SimConfig(3), SimConfig(2)
    assert _same(simulate(cfg3, 200, 3, ["t-expert-by-config", "linear", "greedy"]),
                 simulate(cfg3, 200, 3, ["greedy", "linear", "greedy"]))
    assert _same(simulate(cfg2, 200, 3, "t-expert-by-config"), simulate(cfg2, 200, 3, "linear"))
    # no table for 4 players: the default (3-player) table
    assert _same(simulate(SimConfig(4), 100, 3, "t-expert-by-config"), simulate(SimConfig(4), 100, 3, "greedy"))


def test_phase_rows_are_used_by_the_deck_fraction():
    # Only the late row of take_z says "take the Z card" (arg weight... via z_after): early/mid rows are 0
    t = _greedy_table()
    late = row_index("take_z", "late") * N_FEATURES
    t[late + F_DELTA] = 0.0
    t[late + F_Z_AFTER] = 5.0  # late in the game this table takes every Z card it is offered
    register_expert("t-expert-late-z", {KEY3: t}, KEY3)
    a = simulate(SimConfig(3), 300, 4, "t-expert-late-z")
    b = simulate(SimConfig(3), 300, 4, "greedy")
    assert a.z.mean() > b.z.mean()  # greedy never takes one (delta -1); the table does late on


def test_search_over_a_linear_table_is_search_over_linear():
    register_expert("t-expert-linear", {KEY3: table_from_linear(LINEAR_WEIGHTS)}, KEY3)
    a = simulate(SimConfig(3), 4, 2, [load_strategy("search:t-expert-linear@2"), "linear", "linear"])
    b = simulate(SimConfig(3), 4, 2, [load_strategy("search:linear@2"), "linear", "linear"])
    assert _same(a, b)


# ------------------------------------------------------------------ files


def test_table_files_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    t = np.round(rng.normal(size=EXPERT_WIDTH), 6) * (rng.random(EXPERT_WIDTH) < 0.3)
    path = tmp_path / "t.toml"
    write_table(path, t, {"name": "x", "players": 2, "variant": "sleep-token"}, "a comment\non two lines")
    header, back = read_table(path)
    assert header == {"name": "x", "players": 2, "variant": "sleep-token"}
    named = t.copy()
    from simcore.games.dreamscape.bots.features import NAMES

    for j in range(EXPERT_WIDTH):  # unnamed (spare) slots are not written
        if j % N_FEATURES not in NAMES:
            named[j] = 0.0
    assert np.array_equal(back, named)


@pytest.mark.parametrize(
    "text,words",
    [
        ("[nosuchkind.early]\ndelta = 1\n", "unknown decision kind"),
        ("[buy.dawn]\ndelta = 1\n", "not a phase table"),
        ("[buy.early]\nnosuchfeature = 1\n", "unknown feature"),
        ("[buy.early]\ndelta = nan\n", "finite number"),
        ("[buy.early]\ndelta = \"x\"\n", "finite number"),
        ("[buy.early\n", "not valid TOML"),
    ],
)
def test_bad_table_files_are_one_line_errors(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(StrategyError) as exc:
        load_strategy(f"expert:{path}")
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_expert_file_plays_its_table(tmp_path):
    path = tmp_path / "g.toml"
    write_table(path, _greedy_table(), {"players": 3, "variant": "base"})
    name = load_strategy(f"expert:{path}")
    assert _same(simulate(SimConfig(3), 200, 8, name), simulate(SimConfig(3), 200, 8, "greedy"))


def test_the_builtin_expert_has_a_table_per_shipped_configuration():
    shipped = shipped_tables()
    record = get_record("expert")
    assert shipped, "no expert table is shipped in simcore/games/dreamscape/bots/data/expert/"
    # the record's keys come from the file names (nothing is read at start-up), shipped's from the headers
    assert set(record.tables) == set(shipped)
    for key, (path, table) in shipped.items():
        assert np.array_equal(record.tables[key], table), path
        header, _ = read_table(path)
        assert header["players"] == key[0]


def test_expert_tables_are_read_when_first_played_and_checked_then():
    reads = []

    def reader(value):
        def read():
            reads.append(value)
            return np.full(EXPERT_WIDTH, value)
        return read

    tables = CheckedTables("lazy", {(2, False, False): reader(1.0), (3, True, False): reader(2.0),
                                    (4, False, False): reader(np.nan)})
    assert reads == [] and len(tables) == 3
    assert tables.get((3, True, False))[0] == 2.0 and reads == [2.0]
    tables[(3, True, False)]
    assert reads == [2.0]  # read once
    assert tables.get((1, False, False)) is None  # no table for that configuration
    with pytest.raises(ValueError, match="finite"):
        tables[(4, False, False)]


# ------------------------------------------------------------------ training


def _records(decisions):
    """Records from (kind, deck_fraction, [(features dict, value), ...]) per decision."""
    rows = []
    for d, (kind, fraction, options) in enumerate(decisions):
        for i, (feats, value) in enumerate(options):
            r = np.zeros(REC_WIDTH)
            r[REC_KIND], r[REC_N], r[REC_DECISION], r[REC_VALUE] = kind, len(options), d, value
            r[REC_FEATURES + F_DECK_FRACTION] = fraction
            for slot, v in feats.items():
                r[REC_FEATURES + slot] = v
            rows.append(r)
    return np.array(rows)


def test_fit_recovers_the_value_differences_within_a_decision():
    # value = 0.03 * delta + 0.01 * budget_after + a constant per decision (which the fit must ignore)
    rng = np.random.default_rng(1)
    decisions = []
    for d in range(400):
        const = rng.normal() * 10
        opts = []
        for _ in range(3):
            delta, budget = rng.integers(-2, 4), rng.integers(0, 6)
            opts.append(({F_DELTA: delta, F_BUDGET_AFTER: budget}, const + 0.03 * delta + 0.01 * budget))
        decisions.append((K_BUY, 0.9, opts))
    table = fit_table(_records(decisions), np.zeros(EXPERT_WIDTH))
    early = row_index("buy", "early") * N_FEATURES
    assert table[early + F_DELTA] == pytest.approx(0.03, abs=1e-4)
    assert table[early + F_BUDGET_AFTER] == pytest.approx(0.01, abs=1e-4)
    # no buy decision in the late phase: that row borrows the kind's fit over all phases
    late = row_index("buy", "late") * N_FEATURES
    assert table[late + F_DELTA] == pytest.approx(0.03, abs=1e-4)
    # a kind without data keeps the previous table's row
    prev = np.full(EXPERT_WIDTH, 7.0)
    again = fit_table(_records(decisions), prev)
    z_row = row_index("take_z", "mid") * N_FEATURES
    assert np.all(again[z_row : z_row + N_FEATURES] == 7.0)


def test_centring_and_agreement_by_hand():
    recs = _records([
        (K_TAKE_Z, 0.5, [({F_DELTA: 0}, 0.4), ({F_DELTA: -1}, 0.6)]),
        (K_TAKE_Z, 0.5, [({F_DELTA: 0}, 0.7), ({F_DELTA: -1}, 0.1)]),
    ])
    x, y = centred(recs)
    assert np.allclose(y, [-0.1, 0.1, 0.3, -0.3])
    assert np.allclose(x[:, F_DELTA], [0.5, -0.5, 0.5, -0.5])
    t = np.zeros(EXPERT_WIDTH)
    t[row_index("take_z", "mid") * N_FEATURES + F_DELTA] = 1.0  # greedy at take_z: never takes the Z card
    assert agreement(recs, t) == 0.5  # the search took it in the first decision, not in the second
    assert list(phase_of(np.array([0.9, 0.5, 0.2, 2 / 3, 1 / 3]))) == [0, 1, 2, 1, 2]
    assert EXPERT_ROWS == len(DECISION_ID) * EXPERT_PHASES and len(PHASES) == EXPERT_PHASES


def test_collected_records_are_the_search_decisions_of_the_same_games():
    name = load_strategy("search:linear@2")
    cfg = SimConfig(2, Options())
    records, wins, skipped = collect_search(cfg, 3, 6, name, chunk_size=2)
    played = simulate(cfg, 3, 6, name)
    assert np.array_equal(wins, played.win)  # collecting does not change the games
    again, _, _ = collect_search(cfg, 3, 6, name, chunk_size=3)
    assert np.array_equal(records, again)  # same seed, same rows, whatever the chunk size
    d = records[:, REC_DECISION].astype(int)
    for k in np.unique(d):
        rows = records[d == k]
        assert rows.shape[0] == rows[0, REC_N] >= 2
        assert rows[:, REC_CHOSEN].sum() == 1
        chosen = rows[rows[:, REC_CHOSEN] == 1][0]
        assert chosen[REC_VALUE] == rows[:, REC_VALUE].max()  # the search takes the best playout mean
    assert records.shape[0] > 0 and skipped >= 0


def test_training_is_reproducible_from_its_seed(tmp_path):
    from analyses.games.dreamscape.train import train
    from simcore.games.dreamscape.decks import build_deck

    a = train(2, Options(), build_deck(), LINEAR_WEIGHTS, iterations=2, games=6, playouts=2, seed=4, check_games=50)
    b = train(2, Options(), build_deck(), LINEAR_WEIGHTS, iterations=2, games=6, playouts=2, seed=4, check_games=50)
    assert np.array_equal(a.table, b.table)
    assert [h.check for h in a.history] == [h.check for h in b.history]
    assert sum(h.kept for h in a.history) == 1
    assert not np.array_equal(a.table, table_from_linear(LINEAR_WEIGHTS))  # it learned something


def run_cli(*args: str):
    return CliRunner().invoke(app, list(args))


def test_train_command_writes_a_playable_table(tmp_path):
    out = tmp_path / "t.toml"
    res = run_cli("train", "--players", "2", "--games", "4", "--iterations", "1", "--playouts", "2",
                  "--check-games", "20", "--seed", "2", "--out", str(out), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["players"] == 2 and len(data["iterations"]) == 1 and data["iterations"][0]["kept"]
    header, table = read_table(out)
    assert header["players"] == 2 and header["variant"] == "base" and np.any(table)
    assert "Trained by `dreamscape train" in out.read_text()


@pytest.mark.parametrize(
    "args,words",
    [
        (["--players", "5"], "--players"),
        (["--games", "0"], "--games must be 1 to"),
        (["--variant", "nonsense"], "nonsense"),
    ],
)
def test_train_bad_input_is_one_line(tmp_path, args, words):
    assert_one_line_error(run_cli("train", "--out", str(tmp_path / "x.toml"), *args), words)


def test_train_out_is_checked_before_training(tmp_path):
    assert_one_line_error(run_cli("train", "--out", str(tmp_path)), "is a folder")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert_one_line_error(run_cli("train", "--out", str(blocker / "x.toml")), "--out")
