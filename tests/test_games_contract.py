"""The plug-in interface's contract: every game the registry holds passes the same checks (pgx's shared API test).

Determinism, chunking invariance, both engines equal on a small sample, its
scenarios on both engines, bad input as one-line errors, result shapes and
ranges, and every listed strategy playing.
"""
from __future__ import annotations

import numpy as np
import pytest

from analyses.games import GameWing, HOOKS, LabWing, game_input_errors, game_names, get_game, get_wing
from simcore.games import CAPABILITIES, Game, GameError

SEED = 11


@pytest.fixture(params=game_names())
def game(request):
    return get_game(request.param)


def setups(game):
    """One base setup per seat count the game supports."""
    return [game.setup(p, "base") for p in game.seat_counts]


def two_seats(game):
    return game.setup(2, "base")


def same(a: dict, b: dict) -> None:
    assert set(a) == set(b)
    for key in a:
        assert a[key].dtype == b[key].dtype, key
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_registry_names_every_game_and_refuses_others():
    # the lab's own games, in the order commands have always listed them (a designer's game comes after)
    assert game_names()[:3] == ("dreamscape", "pleasant-dreams", "counting-zzzzs")
    with pytest.raises(GameError) as info:
        get_game("chess")
    assert str(info.value) == "unknown game 'chess' (games: dreamscape, pleasant-dreams, counting-zzzzs)"


def test_identity(game):
    assert game.name in game_names()
    assert game.title and game.seat_counts and 2 in game.seat_counts
    assert game.default_strategy in game.strategies()
    assert all(isinstance(d, str) and d and "\n" not in d for d in game.strategies().values())


def test_variant_names_round_trip(game):
    for setup in setups(game):
        name = game.variant_name(setup)
        again = game.parse_setup(setup.players, name, None)
        assert game.variant_name(again) == name
        assert again.players == setup.players


def test_same_seed_same_games(game):
    setup = two_seats(game)
    bots = [game.default_strategy] * 2
    same(game.play_games(setup, bots, SEED, 3, 40), game.play_games(setup, bots, SEED, 3, 40))


def test_results_do_not_depend_on_how_games_are_cut(game):
    setup = two_seats(game)
    bots = [game.default_strategy] * 2
    whole = game.play_games(setup, bots, SEED, 0, 30)
    parts = [game.play_games(setup, bots, SEED, first, n) for first, n in ((0, 7), (7, 1), (8, 22))]
    same(whole, {k: np.concatenate([p[k] for p in parts]) for k in whole})


def test_another_seed_other_games(game):
    setup = two_seats(game)
    bots = [game.default_strategy] * 2
    a, b = game.play_games(setup, bots, 1, 0, 40), game.play_games(setup, bots, 2, 0, 40)
    assert any(not np.array_equal(a[k], b[k]) for k in a if k != "game")


def test_both_engines_play_the_same_games(game):
    for setup in setups(game):
        for bot in game.reference_strategies(setup):
            bots = [game.check_strategy(bot, setup)] * setup.players
            fast = game.play_games(setup, bots, SEED, 5, 6, engine="fast")
            ref = game.play_games(setup, bots, SEED, 5, 6, engine="reference")
            same(fast, ref)


def test_result_shapes_and_ranges(game):
    for setup in setups(game):
        n = 25
        result = game.play_games(setup, [game.default_strategy] * setup.players, SEED, 100, n)
        np.testing.assert_array_equal(result["game"], np.arange(100, 100 + n))
        assert result["game"].dtype == np.int64
        for key, a in result.items():
            assert isinstance(a, np.ndarray) and a.shape[0] == n, key
            if a.ndim >= 2:
                assert a.shape[1] == setup.players, key
        assert (np.asarray(result["turns"]) >= 1).all()
        wins = game.seat_wins(result, setup)
        assert wins.shape == (n, setup.players)
        assert ((wins >= 0) & (wins <= 1)).all()
        totals = wins.sum(axis=1)
        assert (totals <= 1 + 1e-12).all()
        if setup.players >= 2:  # a game has a winner (or winners sharing one win), unless aborted at a safety cap
            aborted = np.asarray(result.get("aborted", np.zeros(n, bool)))
            np.testing.assert_allclose(totals[~aborted], 1.0)


def test_every_listed_strategy_plays(game):
    setup = two_seats(game)
    for name in game.strategies():
        spec = game.check_strategy(name, setup)
        result = game.play_games(setup, [spec, game.default_strategy], SEED, 0, 2)
        assert result["game"].shape == (2,)


def test_scenarios_pass_on_both_engines(game):
    files = sorted(game.scenarios_dir.glob("*.json"))
    assert files, f"{game.name} ships no scenarios in {game.scenarios_dir}"
    for path in files[:40]:
        for engine in ("reference", "fast"):
            assert game.check_scenario(path, engine) is None, (path.name, engine)


def _one_line(exc: BaseException) -> str:
    text = str(exc)
    assert text and "\n" not in text and "Traceback" not in text
    return text


def test_bad_variant_strategy_and_players_are_one_line_errors(game):
    errors = game_input_errors() + game.errors
    with pytest.raises(errors) as info:
        game.setup(2, "no-such-variant")
    assert "no-such-variant" in _one_line(info.value)
    with pytest.raises(errors) as info:
        game.check_strategy("no-such-bot", two_seats(game))
    assert "no-such-bot" in _one_line(info.value)
    with pytest.raises(errors) as info:
        game.setup(max(game.seat_counts) + 1, "base")
    _one_line(info.value)
    with pytest.raises(errors) as info:
        game.seat_strategies([game.default_strategy] * 3, two_seats(game))
    assert "one --strategy per seat" in _one_line(info.value)


def test_bad_card_files_are_one_line_errors(game, tmp_path):
    errors = game_input_errors() + game.errors
    broken = tmp_path / "broken.toml"
    broken.write_text("this is [not toml", encoding="utf-8")
    with pytest.raises(errors) as info:
        game.load_cards(broken)
    _one_line(info.value)
    with pytest.raises(errors) as info:
        game.load_cards(tmp_path / "missing.toml")
    _one_line(info.value)


def test_narration_tells_the_game_it_plays(game):
    setup = two_seats(game)
    bot = game.reference_strategies(setup)[0]
    lines = game.narrate(setup, [bot, bot], SEED, 0)
    assert len(lines) > 3 and all(isinstance(line, str) for line in lines)
    assert any("seat 1" in line.lower() or "Seat 1" in line for line in lines)  # seats counted from 1 for people


# ---------------------------------------------------------------------------- declared capabilities


def test_every_capability_is_declared_or_refused_by_name(game):
    """A capability a game lacks is a GameError naming it and the command; one it declares answers."""
    from simcore.games import CAPABILITIES

    for capability, words in CAPABILITIES.items():
        if game.has(capability):
            continue
        with pytest.raises(GameError) as info:
            game.need(capability, "some-command")
        assert words in str(info.value) and "`dreamscape some-command`" in str(info.value)
        assert game.title in str(info.value)


def test_declared_variants_parse_and_are_distinct(game):
    if not game.has("variants"):
        pytest.skip(f"{game.title} declares no variants")
    for players in game.seat_counts:
        names = game.variants(players)
        assert len(names) >= 2 and names[0] == "base"
        canonical = [game.variant_name(game.setup(players, v)) for v in names]
        assert len(set(canonical)) == len(canonical), canonical


def test_declared_search_seat_is_a_strategy_of_the_game(game):
    if not game.has("search"):
        pytest.skip(f"{game.title} declares no search player")
    players = max(n for n in game.seat_counts if n > 1) if max(game.seat_counts) > 1 else 1
    setup = game.setup(players)
    # the bot the search plays over: the game's default, or the first listed bot the search accepts
    for bot in [game.default_strategy, *game.strategies()]:
        try:
            spec = game.search(bot, 2, None)
        except ValueError:
            continue
        assert game.check_strategy(spec, setup)
        result = game.play_games(setup, [spec] + [bot] * (players - 1), 5, 0, 2)
        assert game.seat_wins(result, setup).shape == (2, players)
        return
    pytest.fail(f"{game.title}'s search player searches over none of its bots")


def test_declared_restrictions_are_strategies_of_the_game(game):
    if not game.has("restrictions"):
        pytest.skip(f"{game.title} declares no restricted play")
    players = 2 if 2 in game.seat_counts else max(game.seat_counts)
    setup = game.setup(players)
    names = game.restrictions(setup)
    assert names and len(set(names)) == len(names)
    spec = game.restrict(game.default_strategy, names[0], setup)
    result = game.play_games(setup, [spec] + [game.default_strategy] * (players - 1), 3, 0, 2)
    assert game.seat_wins(result, setup).shape == (2, players)
    with pytest.raises(ValueError):
        game.restrict(game.default_strategy, "no-such-restriction", setup)


def test_declared_study_plans_and_extensions_exist(game):
    for kind, path in game.study_plans.items():
        assert kind in ("main", "quick") and path.is_file(), (kind, path)
    for capability, load in game.extensions.items():
        assert capability in CAPABILITIES and load() is not None, capability
        assert game.has(capability)


def test_every_game_has_a_lab_wing_that_keeps_the_protocol(game):
    """The registry's entry is a GameWing: a simcore Game under the same name, each hook callable or None."""
    wing = get_wing(game.name)
    assert isinstance(wing, GameWing) and isinstance(wing.game, Game) and wing.game is game
    for hook in HOOKS:
        assert getattr(wing, hook) is None or callable(getattr(wing, hook)), hook
    assert wing.strategy_note is None or (isinstance(wing.strategy_note, str) and "\n" not in wing.strategy_note)
    if wing.report is not None:  # its entry in dreamscape.reports
        assert callable(wing.report().build_report) and callable(wing.report().summary_output)


def test_a_protocol_breaking_wing_is_refused():
    from analyses.games import register

    with pytest.raises(GameError, match="not a game's lab wing"):
        register(object())
    with pytest.raises(GameError, match="hook tune of .* is neither callable nor None"):
        register(LabWing(get_game("counting-zzzzs"), tune="not a function"))


def test_a_wings_typed_study_hooks_keep_their_protocols(game):
    """A wing's study-file rules, strategy shipping, card swaps, seat fixes and report are objects of their written
    protocols; a game that records a deck in the manifest can read its record back (both deck hooks, or neither)."""
    from analyses.games import CardSwaps, PrintedGame, SeatFixes, StrategyShipping, StudyFileRules, StudyReport

    wing = get_wing(game.name)
    for hook, protocol in (("study_file", StudyFileRules), ("strategy_shipping", StrategyShipping),
                           ("card_swaps", CardSwaps), ("fix_seats", SeatFixes), ("report", StudyReport),
                           ("printed_game", PrintedGame)):
        loader = getattr(wing, hook)
        assert loader is None or isinstance(loader(), protocol), hook
    assert (wing.deck_record is None) == (wing.deck_of_record is None)
    if wing.deck_record is not None:
        cards = game.load_cards(None)  # the game's own cards, through its record and back
        assert wing.deck_of_record(wing.deck_record(cards)) == cards


def test_the_declared_printed_game_is_the_game_as_printed(game):
    """A wing's printed_game hook: every knob it declares is one the game's variant parser knows (a value that is
    no number is the game's one line about that knob, where an unknown token is "unknown knob"); a knob whose
    printed value is a number, or a list of them, set to it is the printed game itself (variant ``base``) wherever
    the game takes it; the declared card file plays the games the game plays when given none."""
    import re

    wing = get_wing(game.name)
    if wing.printed_game is None:
        pytest.skip(f"{game.title} declares no printed numbers")
    printed = wing.printed_game()
    tokens = [k.token for k in printed.knobs]
    assert len(tokens) == len(set(tokens)) and all(k.rule and k.printed and k.meaning for k in printed.knobs)
    players = max(game.seat_counts)
    if printed.knobs:  # a game with knobs names an unknown one so (Goofspiel has none, nor knob: tokens)
        with pytest.raises(game.errors, match="unknown knob"):
            game.setup(players, "knob:no-such-knob=x")
    round_trips = 0
    for knob in printed.knobs:
        with pytest.raises(game.errors) as error:
            game.setup(players, f"knob:{knob.token}=x")
        assert f"knob {knob.token} " in str(error.value) and "unknown knob" not in str(error.value)
        value = knob.printed.replace(" ", "")
        if not re.fullmatch(r"\d+(,\d+)*", value):  # a description ("no limit", "52 cards (...)", "−1")
            continue
        for count in game.seat_counts:
            try:
                setup = game.setup(count, f"knob:{knob.token}={value}")
            except game.errors:  # a knob of some games only (Pleasant Dreams' deal is Lucid Dreams', P7.2)
                continue
            assert game.variant_name(setup) == "base", (count, value)
            round_trips += 1
    assert round_trips or not printed.knobs
    if printed.card_file is not None:  # the same games with the declared file as with none (reference engine)
        setups = [game.setup(players, "base", printed.card_file), game.setup(players)]
        bots = [game.reference_strategies(setups[1])[0]] * players
        own, default = (game.play_games(setup, bots, SEED, 0, 4, engine="reference") for setup in setups)
        assert set(own) == set(default) and all(np.array_equal(own[k], default[k]) for k in own)


def test_a_hook_the_game_lacks_is_refused_in_one_line_naming_it(game):
    """need_hook: a game without card swaps, the rules-knob search or a report is one line naming what it lacks
    and the command (the command line's exit 2); one that has the hook gets what it gives."""
    from analyses.games import HOOK_NEEDS, need_hook

    wing = get_wing(game.name)
    for hook, words in HOOK_NEEDS.items():
        if getattr(wing, hook) is not None:
            assert need_hook(game, hook, "some-command") is not None
            continue
        with pytest.raises(GameError) as info:
            need_hook(game, hook, "some-command")
        assert str(info.value) == f"{game.title} has no {words}, which `dreamscape some-command` needs"


def test_declared_study_tables_are_what_play_games_records(game):
    """A game that declares study tables returns exactly them from play_games(tables=True): every declared column,
    no other, of its declared dtype and one row per seat (agg), per game and seat (games)."""
    if not game.study_tables:
        pytest.skip(f"{game.title} declares no study tables (the lab sums its arrays)")
    players = max(game.seat_counts)
    setup = game.setup(players)
    bot = game.reference_strategies(setup)[0]
    result = game.play_games(setup, [bot] * players, SEED, 7, 5, engine="fast", tables=True)
    tables = result["tables"]
    assert set(tables) <= set(game.study_tables) and {"agg", "games"} <= set(tables)
    for name, columns in tables.items():
        schema = dict(game.study_tables[name])
        assert list(columns) == list(schema), name  # the declared file order
        for col, dtype in schema.items():
            a = np.asarray(columns[col])
            assert (a.dtype.kind in "OUS") if dtype == "str" else a.dtype == np.dtype(dtype), (name, col)
    assert len(tables["agg"]["seat"]) == players and list(tables["games"]["game"][::players]) == [7, 8, 9, 10, 11]
    assert np.array_equal(np.asarray(tables["agg"]["n"]), np.full(players, 5))
    # the same games as without tables: the win credit summed per seat in agg is the plain call's
    plain = game.play_games(setup, [bot] * players, SEED, 7, 5, engine="fast")
    assert np.array_equal(np.asarray(result["win"]), np.asarray(plain["win"]))
    assert np.allclose(tables["agg"]["sum_win"], game.seat_wins(plain, setup).sum(axis=0), rtol=0, atol=1e-12)
