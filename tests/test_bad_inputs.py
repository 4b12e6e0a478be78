"""Bad input of any kind: one line on stderr and exit code 2, never a traceback, a signal or a silent exit 0.

Two parts (issue 13, "Done when": 0 tracebacks over at least 200 distinct bad inputs across every command):

* :data:`BAD`, a table of distinct bad inputs for every command (flags, bounds, empty lists, and
  deck, weights, study, manifest and chunk files that are binary, not UTF-8, truncated, nested,
  out of range or unwritable); ``test_the_table_covers_every_command`` counts them;
* hypothesis strategies over the options and the file readers (deck, weights, study, scenario,
  manifest, parquet), asserting success or one line and exit 2.

Everything runs in this process through typer's CliRunner; studies that would play use the
deterministic stand-in engine of ``tests/fake_chunks.py``, so the module takes well under a minute.
"""
from __future__ import annotations

import json
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st
import typer

try:  # typer >= 0.29 vendors click
    from typer._click.testing import CliRunner as ClickRunner
except ImportError:  # pragma: no cover - typer on top of click
    from click.testing import CliRunner as ClickRunner

from analyses.study.model import RunConfig
from analyses.study.studyfile import StudyPlan, run_plan
from cli import app
from fake_chunks import fake_chunk
from simcore.rng import MAX_GAMES

ROOT = Path(__file__).resolve().parents[1]
DECK = (ROOT / "simcore/games/dreamscape/data/default_deck.toml").read_text()
WEIGHTS = (ROOT / "simcore/games/dreamscape/bots/data/linear_default.toml").read_text()
SCENARIO = (ROOT / "simcore/games/dreamscape/scenarios").glob("*.json").__next__().read_text()
TOO_BIG = str(2**64)
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


COMMAND = typer.main.get_command(app)  # built once: typer's CliRunner builds it again on every call (0.1-0.2 s)


def invoke(args):
    return ClickRunner().invoke(COMMAND, [str(a) for a in args])


def one_line_or_success(result, success=None) -> None:
    """Exit 0 (then ``success(result)`` checks the output), or exit 2 with one line naming the problem."""
    assert "Traceback" not in result.output, result.output
    if result.exit_code == 0:
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        if success is not None:
            success(result)
        return
    assert result.exit_code == 2, (result.exit_code, repr(result.exception), result.output)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(("dreamscape: error:", "root: error:")), result.output
    assert isinstance(result.exception, SystemExit) or result.exception is None, repr(result.exception)


@contextmanager
def fake_engine():
    """Study commands play the stand-in engine: a valid fuzzed request finishes in milliseconds."""
    with mock.patch("analyses.study.folder.play_chunk", fake_chunk), mock.patch("analyses.lab.common.warm", lambda game, backend, scheduler=None: None):
        yield


# ----------------------------------------------------------------------------- files the table refers to


def study_folder(folder: Path, seed: int = 3) -> Path:
    configs = [RunConfig("base", 2, ("greedy", "greedy")), RunConfig("sleep-token", 2, ("greedy", "greedy"))]
    run_plan(StudyPlan(configs, games=200, seed=seed, chunk_size=100), folder, chunk_fn=fake_chunk, progress=False)
    return folder


def manifest_variant(base: Path, where: Path, edit) -> Path:
    shutil.copytree(base, where)
    m = json.loads((where / "manifest.json").read_text())
    edit(m)
    (where / "manifest.json").write_text(json.dumps(m))
    return where


def _set(path, value):
    def edit(m):
        node = m
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return edit


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("bad")
    f: dict[str, Path] = {"tmp": d}

    def put(name: str, data: bytes | str) -> None:
        path = d / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        f[name.split(".")[0]] = path

    put("binary.toml", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    put("latin1.toml", b'name = "r\xeave"\n' + DECK.encode())  # a Latin-1 byte in a UTF-8 deck
    put("utf16.toml", DECK.encode("utf-16"))
    put("empty.toml", b"")
    put("notoml.toml", "[base\n")
    put("copies100k.toml", DECK.replace('"FF/IS" = 2', '"FF/IS" = 100000'))
    put("copies1e9.toml", DECK.replace('"FF/IS" = 2', '"FF/IS" = 1000000000'))
    put("total257.toml", "[base]\n" + "".join(f'"{a}" = 37\n' for a in ("FF/IS", "FF/NT", "FF/LD", "FF/PR", "FF/RD", "FF/CD", "FF/SD")))
    put("negative.toml", DECK.replace('"FF/IS" = 2', '"FF/IS" = -1'))
    put("floatcount.toml", DECK.replace('"FF/IS" = 2', '"FF/IS" = 2.5'))
    put("nobase.toml", "[expansion]\n\"ID/FF\" = 2\n")
    put("badcard.toml", DECK.replace('"FF/IS" = 2', '"FF/XX" = 2'))
    put("weights_nan_name.toml", WEIGHTS.replace("[weights]", "[weights]\nno_such_feature = 1.0"))
    put("weights_none.toml", 'name = "x"\n')
    put("study_none.toml", 'name = "nothing"\n')
    put("study_emptygroup.toml", '[[configs]]\nlabel = "x"\n')
    put("study_seed.toml", f"seed = {2**64}\nplayers = 2\n")
    put("study_games.toml", f"games = {MAX_GAMES + 1}\nplayers = 2\n")
    put("study_swaps.toml", 'swaps = ""\nplayers = 2\n')
    put("study_options.toml", 'swaps = "single"\noptions = ",,"\nplayers = 2\n')
    put("study_bigdeck.toml", 'deck = "copies1e9.toml"\nplayers = 2\n')
    put("nested.json", "[" * 100_000 + "]" * 100_000)
    put("scenario_latin.json", SCENARIO.encode("utf-8").replace(b'"', b'"\xe9', 1))
    (d / "adir").mkdir()
    f["adir"] = d / "adir"
    f["missing"] = d / "no-such-file.toml"
    f["proc"] = Path("/proc/no-such-dir/x")
    good = study_folder(d / "good")
    f["good"] = good
    f["other_seed"] = study_folder(d / "other_seed", seed=4)
    manifests = {
        "m_binary": lambda m: None, "m_seed_big": _set(["seed"], 2**64), "m_seed_neg": _set(["seed"], -1),
        "m_chunk0": _set(["chunk_size"], 0), "m_version": _set(["format_version"], 9),
        "m_players": _set(["configs", 0, "players"], 7), "m_strats": _set(["configs", 0, "strategies"], []),
        "m_first": lambda m: next(iter(m["chunks"].values()))[0].update(first=-100),
        "m_games0": lambda m: next(iter(m["chunks"].values()))[0].update(games=0),
        "m_escape": lambda m: next(iter(m["chunks"].values()))[0]["files"].update(agg="../../../etc/passwd"),
        "m_absolute": lambda m: next(iter(m["chunks"].values()))[0]["files"].update(agg="/etc/passwd"),
        "m_noagg": lambda m: next(iter(m["chunks"].values()))[0]["files"].pop("agg"),
        "m_unknown_cfg": lambda m: m["chunks"].update(ghost=[]),
        "m_target": lambda m: m["target_games"].update({next(iter(m["target_games"])): -5}),
        "m_checks": lambda m: next(iter(m["chunks"].values()))[0]["checks"].update(agg=[1]),
        "m_configs_str": _set(["configs"], "all"), "m_chunks_list": _set(["chunks"], [1, 2]),
        "m_deck": _set(["deck"], {"name": "x", "base": [["FF/XX", 2]], "expansion": []}),
        "m_games_more": lambda m: next(iter(m["chunks"].values()))[0].update(games=150),
        "m_other_seed": _set(["seed"], 4),
        # a configuration's chunks as a string or an empty list: no study writes either (its games would vanish)
        "m_cfg_chunks_str": lambda m: m["chunks"].update({next(iter(m["chunks"])): ""}),
        "m_cfg_chunks_empty": lambda m: m["chunks"].update({next(iter(m["chunks"])): []}),
    }
    for name, edit in manifests.items():
        f[name] = manifest_variant(good, d / name, edit)
    (f["m_binary"] / "manifest.json").write_bytes(b"\x00\x01\x02")
    f["m_latin"] = manifest_variant(good, d / "m_latin", lambda m: None)
    (f["m_latin"] / "manifest.json").write_bytes((f["m_latin"] / "manifest.json").read_bytes().replace(b'"', b'"\xe9', 1))
    f["m_nested"] = manifest_variant(good, d / "m_nested", lambda m: None)
    (f["m_nested"] / "manifest.json").write_text("[" * 100_000 + "]" * 100_000)
    f["m_foreign"] = manifest_variant(good, d / "m_foreign", lambda m: None)
    shutil.copy(f["other_seed"] / "manifest.json", f["m_foreign"] / "manifest.json")
    for kind in ("agg", "games", "pairs"):
        for how in ("trunc", "empty", "flip", "gone"):
            where = manifest_variant(good, d / f"c_{kind}_{how}", lambda m: None)
            target = next(where.glob(f"chunks/*/{kind}-000000000100.parquet"))
            data = target.read_bytes()
            if how == "trunc":
                target.write_bytes(data[: len(data) // 2])
            elif how == "empty":
                target.write_bytes(b"")
            elif how == "flip":
                target.write_bytes(data[:-30] + bytes([data[-30] ^ 0xFF]) + data[-29:])
            else:
                target.unlink()
            f[f"c_{kind}_{how}"] = where
    f["exploit_bad"] = manifest_variant(good, d / "exploit_bad", lambda m: None)
    (f["exploit_bad"] / "exploit.parquet").write_bytes(b"PAR1garbage")
    return f


# ----------------------------------------------------------------------------- the table

# Per command, arguments that must fail before any game is played. "{x}" is files["x"].
STUDY_CMDS = {
    "simulate": ["simulate", "--out", "{tmp}/sim"],
    "compare": ["compare", "--variant", "base", "--variant", "sleep-token", "--out", "{tmp}/cmp"],
    "sweep": ["sweep", "--swaps", "none", "--options", "base", "--out", "{tmp}/sw"],
    "solo": ["solo", "--out", "{tmp}/solo"],
    "tournament": ["tournament", "--strategy", "greedy", "--strategy", "random", "--players", "2", "--out", "{tmp}/t"],
}
BAD: list[tuple[str, list[str]]] = []


def bad(name: str, *args: str) -> None:
    BAD.append((name, list(args)))


for cmd, base in {**STUDY_CMDS, "play": ["play"], "exploit": ["exploit", "--strategy", "greedy"],
                  "tune": ["tune", "--out", "{tmp}/w.toml"], "study": ["study", "--out", "{tmp}/st"]}.items():
    for seed in (TOO_BIG, str(2**64 + 7), "-1", str(-(2**63)), "1.5", "seven", "", "0x10"):
        bad(f"{cmd}-seed-{seed[:8]}", *base, "--seed", seed)
for cmd, base in {**STUDY_CMDS, "plain-simulate": ["simulate"], "exploit": ["exploit", "--strategy", "greedy"]}.items():
    for games in ("0", "-3", str(MAX_GAMES + 1), str(2**64 + 1), "1e6", "many"):
        bad(f"{cmd}-games-{games[:8]}", *base, "--games", games)
for cmd, base in {**STUDY_CMDS, "plain-simulate": ["simulate"]}.items():
    for size in ("0", "-1", "1000001", "10000000000"):
        bad(f"{cmd}-chunk-{size}", *base, "--chunk-size", size)
for cmd, base in {"simulate": STUDY_CMDS["simulate"], "compare": STUDY_CMDS["compare"], "solo": STUDY_CMDS["solo"]}.items():
    for precision in ("0", "0.5", "-0.1", "nan", "inf", "x"):
        bad(f"{cmd}-precision-{precision}", *base, "--precision", precision)
    for cap in ("0", str(MAX_GAMES + 1)):
        bad(f"{cmd}-max-games-{cap}", *base, "--precision", "0.1", "--max-games", cap)
for cmd, base in {"play": ["play"], "plain-simulate": ["simulate"], "tune": ["tune", "--out", "{tmp}/w.toml"],
                  "tournament": STUDY_CMDS["tournament"][:-2]}.items():
    for players in ("0", "5", "-1", "three", "99999999999999999999"):
        bad(f"{cmd}-players-{players[:6]}", *base, "--players", players)
for cmd, base in {"play": ["play"], "plain-simulate": ["simulate"], "decks": ["decks"], "simulate": STUDY_CMDS["simulate"],
                  "compare": STUDY_CMDS["compare"], "sweep": STUDY_CMDS["sweep"], "solo": STUDY_CMDS["solo"]}.items():
    for deck in ("binary", "latin1", "utf16", "notoml", "copies100k", "copies1e9", "total257", "negative",
                 "floatcount", "nobase", "badcard", "adir", "missing"):
        bad(f"{cmd}-deck-{deck}", *base, "--deck", "{%s}" % deck)
for swaps in ("", ",", ",,", " , ", "FF:*,,", "QQ:*", "FF", "all,,"):
    bad(f"sweep-swaps-{swaps!r}", *STUDY_CMDS["sweep"][:1], "--swaps", swaps, "--options", "base", "--out", "{tmp}/sw")
for options in ("", ",,", " ", "base,", "sleepy", "base,,sleep-token"):
    bad(f"sweep-options-{options!r}", "sweep", "--swaps", "none", "--options", options, "--out", "{tmp}/sw")
for variant in ("", "+", "base+", "sleepy", "FF:NT", "FF:ID+IS:ID", "FF:ID+FF:ED", "A:B+C:D+E:F+G:H", "sleep-token++"):
    bad(f"simulate-variant-{variant!r}", "simulate", "--variant", variant)
    bad(f"compare-variant-{variant!r}", "compare", "--variant", "base", "--variant", variant, "--out", "{tmp}/cmp")
for swap in ("", "FF", "FF:", ":ID", "FF:ID:ED", "ID:FF", "FF:NT", "XX:ID"):
    bad(f"play-swap-{swap!r}", "play", "--swap", swap)
    bad(f"simulate-swap-{swap!r}", "simulate", "--swap", swap)
for strategy in ("", "genius", "linear:{binary}", "linear:{latin1}", "linear:{missing}", "linear:{weights_nan_name}",
                 "linear:{weights_none}", "linear:{adir}", "{missing}:f", "search:", "search:linear@0",
                 "strong:{binary}", "strong:{missing}", "strong:{adir}", "strong:{empty}", "search:strong:{latin1}@2"):
    bad(f"simulate-strategy-{strategy[:20]}", "simulate", "--strategy", strategy)
for args in (["--strategy", "genius"], ["--strategy", "strong", "--players", "1"], ["--strategy", "strong", "--games", "5"],
             ["--strategy", "strong", "--trees", "0"], ["--strategy", "strong", "--out", "{binary}/sub"]):
    bad(f"train-{'-'.join(args)[:40]}", "train", *args)
for config in ("binary", "latin1", "utf16", "empty", "notoml", "study_none", "study_emptygroup", "study_seed",
               "study_games", "study_swaps", "study_options", "study_bigdeck", "adir", "missing"):
    bad(f"study-config-{config}", "study", "--config", "{%s}" % config)
for cmd, base in {**STUDY_CMDS, "exploit": ["exploit", "--strategy", "greedy", "--out"],
                  "study": ["study", "--out"]}.items():
    base = base[:-1] if base[-1].startswith("{tmp}") else base
    bad(f"{cmd}-out-under-a-file", *base, "{binary}/sub")
    bad(f"{cmd}-out-unwritable", *base, "{proc}")
bad("simulate-out-is-a-file", *STUDY_CMDS["simulate"][:-1], "{binary}")
bad("tune-out-dir", "tune", "--out", "{adir}")
bad("tune-out-unwritable", "tune", "--out", "{proc}")
bad("tune-out-under-file", "tune", "--out", "{binary}/w.toml")
bad("tune-budget-0", "tune", "--out", "{tmp}/w.toml", "--budget", "0")
bad("tune-games-per-eval-big", "tune", "--out", "{tmp}/w.toml", "--games-per-eval", str(MAX_GAMES + 1))
bad("exploit-playouts-0", "exploit", "--strategy", "greedy", "--playouts", "0")
bad("exploit-players-1", "exploit", "--strategy", "greedy", "--players", "1")
bad("tournament-one-strategy", "tournament", "--strategy", "greedy", "--strategy", "greedy")
bad("decks-swaps-empty", "decks", "--swaps", "")
bad("conformance-engine", "conformance", "{tmp}", "--engine", "quantum")
bad("conformance-nothing", "conformance", "{adir}")
for folder in ["missing", "binary", "adir"] + [
        "m_binary", "m_latin", "m_nested", "m_seed_big", "m_seed_neg", "m_chunk0", "m_version", "m_players", "m_strats",
        "m_first", "m_games0", "m_escape", "m_absolute", "m_noagg", "m_unknown_cfg", "m_target", "m_checks",
        "m_configs_str", "m_chunks_list", "m_deck", "m_games_more", "m_other_seed", "m_foreign", "m_cfg_chunks_str",
        "m_cfg_chunks_empty"] + [
        f"c_{kind}_{how}" for kind in ("agg", "games", "pairs") for how in ("trunc", "empty", "flip", "gone")]:
    bad(f"summarize-{folder}", "summarize", "{%s}" % folder)
    bad(f"summarize-json-{folder}", "summarize", "{%s}" % folder, "--json")
    bad(f"report-{folder}", "report", "{%s}" % folder)
bad("report-exploit-damaged", "report", "{exploit_bad}", "--pdf", "{tmp}/x.pdf", "--png-dir", "{tmp}/png")
bad("report-pdf-dir", "report", "{good}", "--pdf", "{adir}")
bad("report-pdf-under-file", "report", "{good}", "--pdf", "{binary}/r.pdf")
bad("report-pdf-unwritable", "report", "{good}", "--pdf", "{proc}")
bad("report-png-dir-file", "report", "{good}", "--png-dir", "{binary}")
bad("report-png-dir-unwritable", "report", "{good}", "--png-dir", "{proc}")
for bad_resume in ("m_seed_neg", "c_games_flip", "m_foreign"):
    pass  # resumes of damaged folders: see test_resuming_a_damaged_folder_is_one_line_or_a_replay


def expand(args: list[str], files: dict[str, Path]) -> list[str]:
    out = []
    for a in args:
        for key, path in files.items():
            a = a.replace("{%s}" % key, str(path))
        out.append(a)
    return out


def test_the_table_covers_every_command():
    """At least 200 distinct bad inputs, and every command that takes input has some (issue 13)."""
    assert len({tuple(args) for _, args in BAD}) == len(BAD) >= 200
    commands = {args[0] for _, args in BAD}
    assert commands >= {"play", "decks", "simulate", "compare", "sweep", "solo", "tournament", "exploit", "tune",
                        "study", "summarize", "report", "conformance"}


@pytest.mark.parametrize("name, args", BAD, ids=[name for name, _ in BAD])
def test_bad_input_is_one_line_and_exit_2(files, name, args):
    with fake_engine():
        result = invoke(expand(args, files))
    assert result.exit_code == 2, (result.output, repr(result.exception))
    one_line_or_success(result)
    assert not (files["tmp"] / "w.toml").exists()  # tune wrote nothing


def test_a_deeply_nested_scenario_fails_alone_and_the_folder_run_goes_on(tmp_path):
    (tmp_path / "a-good.json").write_text(SCENARIO)
    (tmp_path / "b-nested.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "c-binary.json").write_bytes(b"\x00\x01\x02")
    (tmp_path / "d-latin.json").write_bytes(SCENARIO.encode().replace(b'"', b'"\xe9', 1))
    result = invoke(["conformance", tmp_path, "--engine", "reference"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("PASS ")
    assert lines[1].startswith("FAIL b-nested: ") and "nested too deeply" in lines[1]
    assert lines[2].startswith("FAIL c-binary: a binary file")
    assert lines[3].startswith("FAIL d-latin: not UTF-8 text")
    assert lines[-1] == "1 passed, 3 failed"


@pytest.mark.parametrize("folder", ["m_seed_neg", "m_escape", "m_foreign", "m_other_seed"])
def test_resuming_a_folder_with_a_bad_manifest_is_one_line(files, folder, tmp_path):
    where = tmp_path / "s"
    shutil.copytree(files[folder], where)
    with fake_engine():
        result = invoke(["simulate", "--players", "2", "--games", "200", "--chunk-size", "100", "--seed", "3",
                         "--out", where, "--no-progress"])
    assert result.exit_code == 2
    one_line_or_success(result)


# ----------------------------------------------------------------------------- hypothesis: options

ints_or_text = st.one_of(st.integers(min_value=-(2**70), max_value=2**70).map(str), st.text(max_size=12))


@FUZZ
@given(seed=st.one_of(st.integers(min_value=-(2**66), max_value=2**66).map(str), st.text(max_size=8)),
       # too many games is refused; MAX_GAMES itself is allowed and would really be played (for days)
       games=st.one_of(st.integers(min_value=-5, max_value=60), st.integers(min_value=MAX_GAMES + 1, max_value=2**66),
                       st.text(max_size=6)).map(str),
       players=st.one_of(st.integers(min_value=-1, max_value=6).map(str), st.text(max_size=3)),
       chunk=st.one_of(st.integers(min_value=-2, max_value=80), st.integers(min_value=999_999, max_value=2**65)).map(str))
@example(seed=str(2**64 - 1), games="30", players="2", chunk="7")  # the largest seed plays
@example(seed=str(2**64), games="30", players="2", chunk="7")  # one more is refused, not seed 0
@example(seed="1", games=str(MAX_GAMES + 1), players="1", chunk="1")  # one game too many is refused
def test_simulate_options(seed, games, players, chunk):
    result = invoke(["simulate", "--seed", seed, "--games", games, "--players", players, "--chunk-size", chunk,
                     "--no-progress", "--json"])

    def success(r):
        data = json.loads(r.stdout)
        assert data["games"] == int(games) and data["seed"] == int(seed) and len(data["seats"]) == int(players)
        assert 0 <= int(seed) < 2**64

    one_line_or_success(result, success)


@FUZZ
@given(swaps=st.text(alphabet="FFNTIDED:*,+ sngle", max_size=10), options=st.text(alphabet="basleptokn-+, ", max_size=12))
@example(swaps="FF:I*", options="base,sleep-token")
@example(swaps=",", options="base")
def test_sweep_lists(swaps, options):
    with tempfile.TemporaryDirectory() as d, fake_engine():
        # --no-distance: the lists are the point; a changed deck's distance from search would play real search
        # games (the stand-in engine plays only the study), a compile and seconds per example
        result = invoke(["sweep", "--swaps", swaps, "--options", options, "--players", "2", "--games", "20",
                         "--out", Path(d) / "sw", "--no-progress", "--json", "--no-distance"])

    def success(r):
        assert swaps.strip() and options.strip() and json.loads(r.stdout)["sweep"]

    one_line_or_success(result, success)


# ----------------------------------------------------------------------------- hypothesis: file readers

cards = st.sampled_from(["FF/IS", "FF/NT", "IS/NT", "LD/PR", "RD/CD", "SD/FF", "ID/FF", "ED/PS", "FF/FF", "XX/IS", "ff/is"])
counts = st.one_of(st.integers(min_value=-3, max_value=300), st.integers(min_value=10**5, max_value=10**12),
                   st.floats(allow_nan=False), st.text(max_size=3), st.booleans())


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, float):
        return repr(v) if v == v and abs(v) != float("inf") else "nan"
    return str(v)


deck_texts = st.builds(
    lambda base, exp: "[base]\n" + "".join(f'"{c}" = {toml_value(n)}\n' for c, n in base.items())
    + "[expansion]\n" + "".join(f'"{c}" = {toml_value(n)}\n' for c, n in exp.items()),
    st.dictionaries(cards, counts, max_size=6), st.dictionaries(cards, counts, max_size=3))
file_bytes = st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode),
                       deck_texts.map(str.encode), st.just(DECK.encode("utf-16")))


@FUZZ
@given(data=file_bytes)
@example(data=DECK.encode())
@example(data=DECK.replace('"FF/IS" = 2', '"FF/IS" = 100000').encode())
def test_deck_files(data):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "deck.toml"
        path.write_bytes(data)
        result = invoke(["decks", "--deck", path, "--swaps", "none", "--json"])

    def success(r):
        (row,) = json.loads(r.stdout)["decks"]
        assert 5 <= row["cards"] <= 256

    one_line_or_success(result, success)


study_values = st.one_of(st.integers(min_value=-2, max_value=5), st.integers(min_value=2**63, max_value=2**65),
                         st.text(max_size=6), st.lists(st.sampled_from(["base", "sleep-token", "greedy", "", "x"]), max_size=3),
                         st.booleans(), st.floats(allow_nan=False, allow_infinity=False))
study_keys = st.sampled_from(["seed", "games", "precision", "chunk_size", "players", "variants", "strategy", "swaps",
                              "options", "tournament", "rotate", "label", "name", "aggregate_only", "max_games", "bogus"])
study_texts = st.dictionaries(study_keys, study_values, max_size=5).map(
    lambda d: "".join(f"{k} = {toml_value(v) if not isinstance(v, list) else json.dumps(v)}\n" for k, v in d.items()))


@FUZZ
@given(raw=st.one_of(study_texts.map(str.encode), st.binary(max_size=60)))
@example(raw=b'players = 2\nstrategy = "greedy"\ngames = 10\n')
@example(raw=b'name = "nothing"\n')
def test_study_files(raw):
    seen = {}

    def run_main_study(out=None, quick=False, config=None, seed=1, progress=True, backend=None):
        seen["ran"] = config
        return Path(config).parent

    with tempfile.TemporaryDirectory() as d, mock.patch("analyses.lab.studies.run_study", run_main_study), \
            mock.patch("analyses.lab.common.warm", lambda game, backend, scheduler=None: None):
        path = Path(d) / "study.toml"
        path.write_bytes(raw)
        result = invoke(["study", "--config", path, "--out", Path(d) / "out", "--no-progress"])

    one_line_or_success(result, lambda r: seen["ran"])


weight_names = st.sampled_from(["delta", "arg", "deck_fraction", "z", "nope", ""]) | st.text(max_size=8)


@FUZZ
@given(raw=st.one_of(st.text(max_size=120).map(str.encode), st.binary(max_size=80),
                     st.dictionaries(weight_names, st.floats(allow_nan=False) | st.text(max_size=4), max_size=4).map(
                         lambda d: ("[weights]\n" + "".join(f"{json.dumps(k)} = {toml_value(v)}\n"
                                                           for k, v in d.items())).encode())))
@example(raw=WEIGHTS.encode())
def test_weights_files(raw):
    from simcore.games.dreamscape.bots.api import StrategyError
    from simcore.games.dreamscape.bots.linear import read_weights

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "w.toml"
        path.write_bytes(raw)
        try:
            read_weights(path)
        except StrategyError as exc:
            assert "\n" not in str(exc) and str(path) in str(exc)


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                           max_leaves=12)


@FUZZ
@given(raw=st.one_of(json_values.map(lambda v: json.dumps(v).encode()), st.binary(max_size=60),
                     st.integers(min_value=1000, max_value=50_000).map(lambda n: ('{"setup":' + "[" * n + "]" * n + "}").encode())))
def test_scenario_files(raw):
    from simcore.games.dreamscape.conformance import run_scenario_file

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "s.json"
        path.write_bytes(raw)
        result = run_scenario_file(path, "reference")
    assert not result.passed and result.malformed and "\n" not in result.reason


@pytest.fixture(scope="module")
def reference(files):
    result = invoke(["summarize", files["good"], "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["seats"]


def leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, path + (i,))
    yield path


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_manifest_mutations(files, reference, data):
    """A changed manifest is named in one line, or it changes nothing the summary reports per seat."""
    manifest = json.loads((files["good"] / "manifest.json").read_text())
    paths = [p for p in leaves(manifest) if p]
    path = data.draw(st.sampled_from(paths))
    value = data.draw(st.one_of(st.none(), st.integers(min_value=-(2**65), max_value=2**65), st.text(max_size=6),
                                st.booleans(), st.lists(st.integers(), max_size=2), st.just({})))
    node = manifest
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with tempfile.TemporaryDirectory() as d:
        where = Path(d) / "s"
        shutil.copytree(files["good"], where)
        (where / "manifest.json").write_text(json.dumps(manifest))
        result = invoke(["summarize", where, "--json"])

    def success(r):
        assert json.loads(r.stdout)["seats"] == reference, path  # nothing that changes a number goes unnoticed

    one_line_or_success(result, success)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["agg", "games", "pairs"]), first=st.sampled_from([0, 100]), data=st.data())
def test_chunk_file_damage(files, kind, first, data):
    with tempfile.TemporaryDirectory() as d:
        where = Path(d) / "s"
        shutil.copytree(files["good"], where)
        target = next(where.glob(f"chunks/*/{kind}-{first:012d}.parquet"))
        raw = bytearray(target.read_bytes())
        how = data.draw(st.sampled_from(["cut", "flip", "append", "replace"]))
        if how == "cut":
            raw = raw[: data.draw(st.integers(min_value=0, max_value=len(raw) - 1))]
        elif how == "flip":
            i = data.draw(st.integers(min_value=0, max_value=len(raw) - 1))
            raw[i] ^= data.draw(st.integers(min_value=1, max_value=255))
        elif how == "append":
            raw += data.draw(st.binary(min_size=1, max_size=20))
        else:
            raw = bytearray(data.draw(st.binary(max_size=100)))
        target.write_bytes(bytes(raw))
        result = invoke(["summarize", where])
    assert result.exit_code == 2
    one_line_or_success(result)
    assert f"{kind}-{first:012d}.parquet" in result.output


# ----------------------------------------------------------------------------- the README's promise


@pytest.mark.parametrize("command", ["play", "simulate", "compare", "sweep", "solo", "tournament", "exploit", "tune", "study"])
def test_every_bound_is_stated_in_help(command):
    text = ClickRunner().invoke(COMMAND, [command, "--help"], env={"COLUMNS": "400"}).output  # no wrapping
    assert "2**64-1" in text  # --seed
    if command in ("simulate", "compare", "sweep", "solo", "tournament", "exploit", "tune"):
        assert "10**12" in text  # --games
    if command in ("simulate", "compare", "sweep", "solo", "tournament"):
        assert "1 to 1,000,000" in text  # --chunk-size
    if command in ("play", "simulate", "compare", "sweep", "solo"):
        assert "at most 256 cards in all" in text  # --deck


def test_the_docs_state_the_promises_and_bounds_the_code_enforces():
    from analyses.study.model import MAX_CHUNK_SIZE
    from simcore.games.dreamscape.decks import MAX_DECK_CARDS
    from simcore.rng import MAX_SEED

    # the conventions every command follows, and the study guide
    text = (ROOT / "docs" / "getting-started.md").read_text() + (ROOT / "docs" / "guide" / "studies.md").read_text()
    assert "**Bad input → one line, exit 2.**" in text
    assert "**A study folder has one writer; damaged chunks are named and replayed.**" in text
    assert MAX_SEED == 2**64 - 1 and "| 0 to 2\\*\\*64-1 |" in text
    assert MAX_GAMES == 10**12 and "| 1 to 10\\*\\*12 |" in text
    assert MAX_CHUNK_SIZE == 1_000_000 and "| 1 to 1,000,000 |" in text
    assert MAX_DECK_CARDS == 256 and "| 0 to 256, at most 256 in all |" in text
    assert "a list of distinct bad inputs for every command" in text  # a count would be a typed number (issue #43)
