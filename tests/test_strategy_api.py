"""The strategy plug-in API: decorator, loading user files, errors, determinism, legality."""
from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from cli import app
from simcore.games.dreamscape.cards import CODES
from simcore.games.dreamscape.decks import build_deck
from simcore.games.dreamscape.fast import SimConfig, get_record, register, simulate
from simcore.games.dreamscape.fast.strategies import MODE_DELTA, greedy_strategy
from simcore.games.dreamscape.fast.bridge import decode_trace, play_traced
from simcore.games.dreamscape.reference import Game, IllegalChoice
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import Options
from strategies import features as F
from simcore.games.dreamscape.bots.api import StrategyError, builtin_names, load_strategy, strategy

runner = CliRunner()
README = Path(__file__).resolve().parents[1] / "docs" / "guide" / "bots.md"  # the strategy guide


def write(tmp_path, name, body) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)


# ----------------------------------------------------------------------------- registering


def test_the_decorator_registers_a_strategy_the_engine_plays():
    @strategy("test-prefers-budget", description="keeps budget")
    def prefers_budget(kind, seat, features, state):
        return features[F.DELTA] + 2.0 * features[F.BUDGET_AFTER]

    assert prefers_budget.strategy_name == "test-prefers-budget"
    result = simulate(SimConfig(2), 300, 5, ["test-prefers-budget", "greedy"])
    assert result.n_games == 300 and not result.aborted.any()
    # At take_z, "yes" scores -1 + 2(b + 1) and "no" 2b: this bot always takes the Z card,
    # while greedy (-1 against 0) never does (R4.1).
    _, meta, opts = play_traced(build_deck(), 2, Options(), 5, 0, ["test-prefers-budget", "greedy"])
    takes = [(seat, chosen) for kind, seat, _, chosen in decode_trace(meta, opts) if kind == "take_z"]
    assert {chosen for seat, chosen in takes if seat == 0} == {True}
    assert {chosen for seat, chosen in takes if seat == 1} == {False}


def test_a_user_file_loads_by_path_and_plays(tmp_path):
    path = write(tmp_path, "bot.py", """
        def careful(kind, seat, features, state):
            '''Greedy with a small penalty on what an option costs.'''
            return features[0] - 0.1 * features[4]
    """)
    name = load_strategy(f"{path}:careful")
    result = simulate(SimConfig(3), 200, 1, [name, "greedy", "random"])
    assert result.n_games == 200


@pytest.mark.parametrize(
    "body, spec_suffix, words",
    [
        ("def f(kind, seat, features):\n    return 0.0\n", ":f", ["takes (kind, seat, features)", "(kind, seat, features, state)"]),
        ("def f(kind, seat, features, state):\n    return {}[kind]\n", ":f", ["does not compile"]),
        ("def f(kind, seat, features, state)\n    return 0.0\n", ":f", ["does not load", "SyntaxError"]),
        ("import not_a_module_here\n", ":f", ["does not load", "ModuleNotFoundError"]),
        ("def g(kind, seat, features, state):\n    return 0.0\n", ":f", ["has no function 'f'"]),
        ("f = 3\n", ":f", ["is not a function"]),
    ],
)
def test_strategy_files_that_do_not_load_get_one_line_errors(tmp_path, body, spec_suffix, words):
    path = write(tmp_path, "bad.py", body)
    with pytest.raises(StrategyError) as err:
        load_strategy(path + spec_suffix)
    message = str(err.value)
    assert "\n" not in message
    for word in words:
        assert word in message


def test_unknown_names_and_missing_files_are_errors(tmp_path):
    with pytest.raises(StrategyError, match="unknown strategy 'nobody'"):
        load_strategy("nobody")
    with pytest.raises(StrategyError, match="does not exist"):
        load_strategy(str(tmp_path / "missing.py") + ":f")
    with pytest.raises(StrategyError, match="does not load"):
        load_strategy("no_such_package.sub:f")


def test_cli_reports_a_bad_strategy_file_in_one_line_with_exit_2(tmp_path):
    path = write(tmp_path, "bad.py", "def f(a, b):\n    return 0.0\n")
    result = runner.invoke(app, ["simulate", "--games", "10", "--strategy", f"{path}:f"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip() and "%|" not in line]
    assert len(lines) == 1 and "takes (a, b)" in lines[0] and "Traceback" not in result.output


# ----------------------------------------------------------------------------- names


BUILTINS = {"random", "greedy", "chain", "economist", "spoiler", "linear", "expert", "rollout", "strong", "sharp"}


def test_a_user_strategy_cannot_take_a_builtin_name_and_the_cli_says_so_in_one_line(tmp_path):
    path = write(tmp_path, "impostor.py", """
        from strategies import strategy

        @strategy("greedy")
        def greedy(kind, seat, features, state):
            return -features[0]
    """)
    result = runner.invoke(app, ["simulate", "--games", "10", "--strategy", f"{path}:greedy"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip() and "%|" not in line]
    assert len(lines) == 1 and "'greedy'" in lines[0] and "built-in" in lines[0] and "impostor.py" in lines[0]
    record = get_record("greedy")  # still the engine's greedy
    assert record.builtin and record.mode == MODE_DELTA and record.compiled is greedy_strategy


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_builtin_name_is_refused_to_user_code(name):
    before = get_record(name)
    with pytest.raises(StrategyError, match="built-in"):
        strategy(name)(lambda kind, seat, features, state: 0.0)
    with pytest.raises(ValueError, match="built-in"):
        register(name, greedy_strategy)  # the engine's registry refuses it too
    assert get_record(name) is before


def test_the_same_user_strategy_registers_again_from_the_same_file(tmp_path, monkeypatch):
    """Loaded twice (by path, then as a module: two module objects), the decorator runs twice."""
    write(tmp_path, "twice_bot.py", """
        from strategies import strategy

        @strategy("test-twice", description="registered twice")
        def twice(kind, seat, features, state):
            return features[0] + 0.5 * features[1]
    """)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert load_strategy(f"{tmp_path / 'twice_bot.py'}:twice") == "test-twice"
    first = get_record("test-twice")
    assert load_strategy("twice_bot:twice") == "test-twice"
    second = get_record("test-twice")
    assert second is not first and not second.builtin and second.description == "registered twice"
    a = simulate(SimConfig(2), 50, 3, ["test-twice", "greedy"])
    assert a.n_games == 50


def test_the_strategy_list_holds_the_builtins_only():
    """Registered test strategies ('greedy-hook' ..., tests/conftest.py) are not built-ins and not listed."""
    assert get_record("greedy-hook") and get_record("random-hook")
    assert set(builtin_names()) == BUILTINS
    result = runner.invoke(app, ["strategies"])
    listed = {line.split()[0] for line in result.output.splitlines()
              if line.strip() and not line.startswith(("Your own", "Project Dreamscape's default bot"))}
    assert listed == BUILTINS


def test_the_readme_example_runs_as_written(tmp_path):
    text = README.read_text()
    m = re.search(r"```python\n(# my_bot\.py.*?)```", text, re.S)
    assert m, "the README must hold the my_bot.py example"
    code = m.group(1)
    assert len([l for l in code.splitlines() if l.strip()]) <= 12
    path = tmp_path / "my_bot.py"
    path.write_text(code)
    func = re.search(r"def (\w+)\(kind, seat, features, state\)", code).group(1)
    result = runner.invoke(app, ["simulate", "--players", "3", "--games", "500", "--json", "--strategy", f"{path}:{func}"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 500


# ----------------------------------------------------------------------------- determinism and legality


@pytest.mark.parametrize("bot", ["chain", "economist", "spoiler"])
def test_same_seed_same_games_whatever_the_chunking(bot):
    cfg = SimConfig(3, Options(sleep_token=True))
    a = simulate(cfg, 400, 17, [bot, "greedy", "random"], chunk_size=400)
    b = simulate(cfg, 400, 17, [bot, "greedy", "random"], chunk_size=37)
    c = simulate(cfg, 400, 18, [bot, "greedy", "random"], chunk_size=400)
    assert np.array_equal(a.score, b.score) and np.array_equal(a.win, b.win)
    assert not np.array_equal(a.score, c.score)


def replay_in_reference(deck, players, options, seed, game, names) -> None:
    """Replay the fast engine's decisions into the reference engine: each must be legal there."""
    st, meta, opts = play_traced(deck, players, options, seed, game, names)
    ref = Game.new(deck, players, GameRng(seed, game), options)
    for step, (kind, seat, choices, chosen) in enumerate(decode_trace(meta, opts)):
        d = ref.pending
        assert d is not None, f"step {step}: reference game over, fast asked {kind}"
        assert (d.kind, d.seat) == (kind, seat), f"step {step}: {d.kind}/{d.seat} vs {kind}/{seat}"
        try:
            ref.apply(json.loads(json.dumps(chosen)), kind)
        except IllegalChoice as exc:
            raise AssertionError(f"step {step}: {exc}") from None
    assert ref.over


@pytest.mark.parametrize("bot", ["chain", "economist", "spoiler"])
@pytest.mark.parametrize("players, options, swaps", [
    (3, Options(), ()), (2, Options(True, True), ("FF:ID",)), (4, Options(False, True), ("NT:ED", "LD:PS")), (1, Options(True, False), ("CD:ID",)),
])
def test_every_bot_makes_only_legal_choices(bot, players, options, swaps):
    from simcore.games.dreamscape.decks import deck_from_swap_texts

    deck = deck_from_swap_texts(swaps)
    names = [bot] + ["greedy", "random", bot][: players - 1]
    for game in range(4):
        replay_in_reference(deck, players, options, 3, game, names)


def test_every_builtin_is_listed_with_a_description():
    result = runner.invoke(app, ["strategies"])
    assert result.exit_code == 0
    for name in ("random", "greedy", "chain", "economist", "spoiler"):
        assert name in builtin_names()
        assert re.search(rf"^{name}\s+\S", result.output, re.M), name


# ----------------------------------------------------------------------------- declared decision kinds


def _same_results(a, b) -> None:
    for name in ("score", "z", "turns", "win", "length", "performed", "chain_by_type", "held"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


@pytest.mark.parametrize("bot", ["chain", "economist", "spoiler"])
@pytest.mark.parametrize(
    "players, options, swaps",
    [(3, Options(), ()), (4, Options(True, True), ("NT:ID", "LD:ED")), (2, Options(False, True), ("SD:PS",)), (1, Options(), ())],
)
def test_declaring_the_kinds_a_bot_decides_changes_no_game(bot, players, options, swaps):
    """register(decides=...) only skips calls where every option would tie (same pick, same draw)."""
    from simcore.games.dreamscape.bots import builtins

    fn = {"chain": builtins.chain_builder, "economist": builtins.economist, "spoiler": builtins.spoiler}[bot]
    strategy(f"{bot}-every-kind")(fn)  # the same function, called at every kind
    from simcore.games.dreamscape.decks import deck_from_swap_texts

    deck = deck_from_swap_texts(list(swaps))
    config = SimConfig(players, options, deck)
    _same_results(simulate(config, 300, 5, bot), simulate(config, 300, 5, f"{bot}-every-kind"))


def test_greedy_through_the_hook_with_declared_kinds_plays_greedy_games():
    config = SimConfig(3, Options(True, False))
    _same_results(simulate(config, 400, 9, "greedy"), simulate(config, 400, 9, "greedy-hook-kinds"))


def test_an_unknown_decision_kind_is_a_one_line_strategy_error():
    with pytest.raises(StrategyError, match="unknown decision kind 'shopping'"):
        strategy("bad-kinds", decides=["buy", "shopping"])(lambda kind, seat, features, state: 0.0)


def test_held_cards_are_the_final_rem_stacks():
    """held[g, s] marks exactly the card ids of seat s's final REM stack in the reference replay."""
    from simcore.games.dreamscape.decks import deck_from_swap_texts

    deck, options, names = deck_from_swap_texts(["NT:ID"]), Options(True, False), ["chain", "spoiler", "greedy"]
    result = simulate(SimConfig(3, options, deck), 12, 4, names)
    for game in range(12):
        st, meta, opts = play_traced(deck, 3, options, 4, game, names)
        ref = Game.new(deck, 3, GameRng(4, game), options)
        for kind, seat, choices, chosen in decode_trace(meta, opts):
            ref.apply(json.loads(json.dumps(chosen)), kind)
        assert ref.over
        for s in range(3):
            assert sorted(np.flatnonzero(result.held[game, s]).tolist()) == sorted(ref.state.seats[s].rem)
            assert [result.card_labels[c] for c in ref.state.seats[s].rem] == [
                "/".join(CODES[t] for t in deck.cards[c]) for c in ref.state.seats[s].rem
            ]
