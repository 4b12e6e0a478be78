"""Study files (TOML): what they plan, and one clear line for every kind of mistake."""
from __future__ import annotations

import pytest

from analyses.study.model import StudyError
from analyses.study.folder import load_manifest
from analyses.study.studyfile import EXAMPLE, load_study_file, run_plan
from fake_chunks import fake_chunk


def test_the_shipped_example_plans_41_configurations():
    plan = load_study_file(EXAMPLE)
    ids = [c.id for c in plan.configs]
    assert len(ids) == len(set(ids)) == 41
    # 4 option sets x 3 table sizes, 3 Night Terror swaps (base 3p already there), 4 groups of 3 x 6 seatings, 2 solo
    assert sum(1 for c in plan.configs if c.players == 1) == 2
    assert sum(1 for c in plan.configs if len(set(c.strategies)) > 1) == 24
    assert {c.variant for c in plan.configs if c.variant.startswith("NT:")} == {"NT:ID", "NT:ED", "NT:PS"}
    assert (plan.precision, plan.max_games, plan.seed, plan.chunk_size) == (0.02, 50_000, 1, 5000)


def test_a_small_study_file_runs_into_a_folder(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\nseed = 4\ngames = 300\nchunk_size = 100\n'
                    'variants = ["base", "shifting-tokens+sleep-token"]\nplayers = [2, 3]\nstrategy = "greedy"\n')
    plan = load_study_file(path)
    assert [c.variant for c in plan.configs] == ["base", "base", "sleep-token+shifting-tokens", "sleep-token+shifting-tokens"]
    run_plan(plan, tmp_path / "out", chunk_fn=fake_chunk, progress=False)
    m = load_manifest(tmp_path / "out")
    assert m.seed == 4 and m.meta["name"] == "mine" and all(m.done_games(c.id) == 300 for c in m.configs)
    assert load_study_file(path, seed=9).seed == 9  # --seed overrides the file


def test_groups_have_their_own_games_and_a_config_listed_twice_plays_the_most(tmp_path):
    path = tmp_path / "parts.toml"
    path.write_text('games = 300\nchunk_size = 100\n'
                    '[[configs]]\nlabel = "options"\ngames = 500\nplayers = 2\nvariants = ["base", "sleep-token"]\nstrategy = "greedy"\n'
                    '[[configs]]\nlabel = "swaps"\ngames = 200\nplayers = 2\nswaps = "FF:ID"\noptions = "base"\nstrategy = "greedy"\n'
                    '[[configs]]\nlabel = "skill"\nplayers = 3\nrotate = ["linear", "chain"]\n')
    plan = load_study_file(path)
    # the swaps group lists the base deck too (the sweep's reference): already in "options", it keeps 500 games
    assert [(c.variant, c.strategies, plan.games_of(c)) for c in plan.configs] == [
        ("base", ("greedy",) * 2, 500), ("sleep-token", ("greedy",) * 2, 500), ("FF:ID", ("greedy",) * 2, 200),
        ("base", ("linear", "chain", "chain"), 300), ("base", ("chain", "linear", "chain"), 300),
        ("base", ("chain", "chain", "linear"), 300)]
    assert [(p.label, len(p.configs), p.games) for p in plan.parts] == [("options", 2, 500), ("swaps", 1, 200), ("skill", 3, None)]
    assert plan.total_games == 2 * 500 + 200 + 3 * 300
    run_plan(plan, tmp_path / "out", chunk_fn=fake_chunk, progress=False)
    m = load_manifest(tmp_path / "out")
    assert {c.id: m.done_games(c.id) for c in m.configs} == {c.id: plan.games_of(c) for c in plan.configs}
    assert [p["games"] for p in m.meta["parts"]] == [500, 200, 300]
    # the same file with more games in one group is another request (another default folder)
    more = load_study_file(path)
    more.config_games[more.configs[-1].id] += 1
    assert more.fingerprint() != plan.fingerprint() == load_study_file(path).fingerprint()


def test_a_deck_file_is_found_next_to_the_study_file(tmp_path):
    from simcore.games.dreamscape.decks import default_spec
    from importlib import resources

    (tmp_path / "deck.toml").write_text(resources.files("simcore.games.dreamscape").joinpath("data/default_deck.toml").read_text())
    (tmp_path / "s.toml").write_text('deck = "deck.toml"\ngames = 10\nplayers = 3\n')
    plan = load_study_file(tmp_path / "s.toml")
    from analyses.games.dreamscape.study import deck_of_record

    deck = plan.game.deck_record  # the deck travels in the plan's deal, as its manifest record
    assert plan.game.game == "dreamscape" and deck["source"].endswith("deck.toml")
    assert deck_of_record(deck).base == default_spec().base


@pytest.mark.parametrize(
    "text, words",
    [
        ("games = [", ["not valid TOML"]),
        ("gmaes = 10", ["unknown key", "gmaes"]),
        ("[[configs]]\nplayer = 3", ["[[configs]] #1", "unknown key", "player"]),
        ("players = 5", ["players must be 1 to 4"]),
        ('players = "three"', ["players"]),
        ('strategy = "genius"', ["unknown strategy", "genius"]),
        ('players = 3\nstrategies = ["greedy", "random"]', ["2 strategies for 3 seats"]),
        ('strategy = "greedy"\ntournament = ["greedy", "random"]', ["only one of"]),
        ('tournament = ["greedy", "greedy"]', ["two different"]),
        ('variants = ["base", "sleepy-token"]', ["unknown token", "sleepy-token"]),
        ('variant = "FF:NT"', ["cannot add NT"]),
        ('variant = "FF:ID+IS:ID"', ["added twice"]),
        ("precision = 2", ["precision"]),
        ("games = 0", ["games"]),
        ('games = "many"', ["games"]),
        ('aggregate_only = "yes"', ["aggregate_only"]),
        ('swaps = "QQ:*"', ["no swap deck matches"]),
        ('swaps = "single"\noptions = "sleepy"', ["unknown option set"]),
        ('deck = "missing.toml"', ["cannot read deck file"]),
        ("name = 3", ["name must be a text"]),
        ("configs = 3", ["[[configs]] tables"]),
        ('players = 2\n[[configs]]\nplayers = 3', ["inside the [[configs]]"]),
        ('rotate = ["linear"]', ["rotate is two different bots"]),
        ('players = 1\nrotate = ["linear", "chain"]', ["rotate needs 2 to 4 players"]),
        ('strategy = "greedy"\nrotate = ["linear", "chain"]', ["only one of"]),
        ('precision = 0.02\n[[configs]]\ngames = 100\nplayers = 3', ["games per group", "not both"]),
        # Empty lists are errors where "all" was not written (issue 13).
        ('name = "nothing"', ["no configurations"]),
        ("", ["no configurations"]),
        ('[[configs]]\nlabel = "empty"\ngames = 10', ["[[configs]] #1", "names no configuration"]),
        ('swaps = ""', ["empty swap pattern"]),
        ('swaps = "FF:*,,"', ["empty swap pattern"]),
        ('swaps = "single"\noptions = ",,"', ["empty option set"]),
        ('variants = []', ["non-empty list"]),
        ("seed = 18446744073709551616", ["seed", "18,446,744,073,709,551,615"]),
        ("seed = -1", ["seed"]),
        ("games = 1000000000001", ["games", "1,000,000,000,000"]),
        ("chunk_size = 1000001", ["chunk_size", "1,000,000"]),
        ('[[configs]]\ngames = 0', ["[[configs]] #1", "games"]),
        ('[[configs]]\nlabel = 3', ["label must be a text"]),
    ],
)
def test_a_malformed_study_file_is_one_clear_error(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n")
    with pytest.raises(StudyError) as info:
        load_study_file(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    for word in words:
        assert word in message, message


def test_a_missing_study_file_is_one_clear_error(tmp_path):
    with pytest.raises(StudyError, match="cannot read study file"):
        load_study_file(tmp_path / "nothing.toml")


def test_one_reader_reads_every_game_and_leaves_the_rest_to_the_games_rules(tmp_path):
    """The reader's own keys are every game's (a Project Dreamscape file may name its game); a game's own keys
    are its rules': Project Dreamscape's deck and recheck are unknown to another game, another game's cards and
    solver unknown to Project Dreamscape, each refused in one line naming the file, the key and the known keys."""
    plain = 'games = 10\nplayers = 3\nstrategy = "greedy"\n'
    (tmp_path / "a.toml").write_text(plain)
    (tmp_path / "b.toml").write_text('game = "dreamscape"\n' + plain)
    a, b = load_study_file(tmp_path / "a.toml"), load_study_file(tmp_path / "b.toml")
    assert a.game == b.game and a.game.game == "dreamscape" and a.fingerprint() == b.fingerprint()
    (tmp_path / "c.toml").write_text('game = "dreamscape"\ncards = "x.toml"\n' + plain)
    with pytest.raises(StudyError, match=r"c\.toml: unknown key\(s\) cards \(known: .*deck.*recheck"):
        load_study_file(tmp_path / "c.toml")
    (tmp_path / "d.toml").write_text('game = "pleasant-dreams"\ndeck = "x.toml"\n[[configs]]\nplayers = 2\n')
    with pytest.raises(StudyError, match=r"d\.toml: unknown key\(s\) deck \(known: .*cards.*solver"):
        load_study_file(tmp_path / "d.toml")
    (tmp_path / "e.toml").write_text('game = "pleasant-dreams"\nplayers = 2\n')  # a group at the top: Dreamscape's rule only
    with pytest.raises(StudyError, match=r"e\.toml: unknown key\(s\) players"):
        load_study_file(tmp_path / "e.toml")
    (tmp_path / "f.toml").write_text('game = "pleasant-dreams"\n[[configs]]\nplayers = 2\nrotate = ["a", "b"]\n')
    with pytest.raises(StudyError, match=r"f\.toml: \[\[configs\]\] #1: unknown key\(s\) rotate \(known: actions, games, label"):
        load_study_file(tmp_path / "f.toml")


def test_a_recheck_is_a_later_stage_of_the_plan(tmp_path):
    """[[recheck]] tables become the plan's stages, in order, each in the fingerprint; with precision, refused."""
    body = 'games = 100\nswaps = "single"\nplayers = 2\nstrategy = "greedy"\n'
    (tmp_path / "s.toml").write_text(body + '[[recheck]]\nstrategy = "random"\ngames = 50\nplayers = 2\n')
    plan = load_study_file(tmp_path / "s.toml")
    assert [(s.label, s.strategy, s.games, s.players) for s in plan.stages] == [("recheck 1", "random", 50, (2,))]
    assert "random on every seat, 50 games per deck" in plan.stages[0].plan_line()
    (tmp_path / "t.toml").write_text(body)
    assert load_study_file(tmp_path / "t.toml").fingerprint() != plan.fingerprint()
    (tmp_path / "u.toml").write_text(body.replace("games = 100", "precision = 0.1")
                                     + '[[recheck]]\nstrategy = "random"\ngames = 50\n')
    with pytest.raises(StudyError, match=r"u\.toml: \[\[recheck\]\] needs a fixed game count"):
        load_study_file(tmp_path / "u.toml")
