"""Every code block of the docs runs, or says on the page why it does not.

Our own small runner rather than a plugin (mktestdocs, pytest-markdown-docs): a page's blocks are not all
Python. What each kind of block must do, page by page (README.md, docs/*.md, docs/guide/, docs/games/):

* ``python``: runs, the page's blocks one after the other as one script, in a Python of its own, from the
  lab's folder;
* ``bash`` / ``console``: every ``dreamscape ...`` line runs (in this process, one loaded engine for all)
  and exits 0, the block's lines in one folder; a block that plays a study runs under ``-m slow``;
* ``toml``: parses; a study file (``[[group]]``, ``[[recheck]]``), a card file (``[[element]]``) or a deck
  (``[base]``) is also read by the lab's own reader for it;
* ``text`` is a transcript: ``$ dreamscape ...`` lines, each followed by what it printed. On the site a
  transcript of a run that quotes numbers is a recorded run (``{{ run("NAME") }}``, which
  tests/test_docs_data.py replays); a transcript typed into a page (an error line, say) is played here and
  must print what it shows, timings aside (a ``...`` line stands for lines left out). In the README, read
  as plain Markdown without macros, a transcript is a copy of a recorded run;
* ``mermaid``: a diagram, drawn by ``mkdocs build --strict``; a block without a language is a listing (a
  file tree) and holds no command;
* a block that another test runs as written names it in a comment just above it
  (``<!-- run by tests/test_lab_api.py::test_the_guides_example_runs_as_written -->``);
* any other block (a listing, a sample of a file, a command that needs a cluster or runs for an hour)
  carries a visible line just above it, ``*Not run by the tests: REASON.*``; they are few (MAX_NOT_RUN).
  The README's first block, its two commands right under its title, gives its reason in a comment.

The research log (docs/research/) is a record of dated runs with the code of their day; its blocks are
what those runs printed then and are not replayed.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
spec = importlib.util.spec_from_file_location("docs_measured", DOCS / "data" / "measured.py")
measured = sys.modules.get("docs_measured") or importlib.util.module_from_spec(spec)
if "docs_measured" not in sys.modules:
    sys.modules["docs_measured"] = measured
    spec.loader.exec_module(measured)

MAX_NOT_RUN = 15
# Pages another helper of the code keeps, whose python blocks a test of theirs runs as written (with smaller
# game counts): page -> that test.
COVERED = {"docs/guide/python-api.md": "tests/test_lab_api.py::test_the_python_api_page_runs_top_to_bottom"}
NOT_RUN = re.compile(r"^\*Not run by the tests: (.{10,})\*$")
# The README opens with its title and then its two commands, nothing between: its reason is a comment.
README_NOT_RUN = re.compile(r"^<!-- Not run by the tests: (.{10,}) -->$")
RUN_BY = re.compile(r"^<!-- run by (tests/test_\w+\.py)::(test_\w+) -->$")
MACRO_RUN = re.compile(r"""\{\{\s*run\(\s*["']([\w-]+)["']""")


@dataclass
class Block:
    page: Path
    line: int
    lang: str
    code: str
    before: str  # the last non-blank line above the fence

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def pages() -> list[Path]:
    found = [ROOT / "README.md", *sorted(DOCS.glob("*.md")), *sorted((DOCS / "guide").glob("*.md")),
             *sorted((DOCS / "games").glob("*.md"))]
    return found


def blocks(page: Path) -> list[Block]:
    lines = page.read_text("utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        m = re.match(r"^(\s*)(```+|~~~+)\s*([\w-]*)", lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.groups()
        start = i
        before = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        i += 1
        body = []
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i].lstrip())
            i += 1
        found.append(Block(page, start + 1, lang or "listing", "\n".join(body) + "\n", before))
        i += 1
    return found


ALL = [b for p in pages() for b in blocks(p)]


def not_run(b: Block) -> bool:
    return bool(NOT_RUN.match(b.before) or (b.page.name == "README.md" and README_NOT_RUN.match(b.before)))


def test_few_blocks_are_not_run():
    skipped = [b.where for b in ALL if not_run(b)]
    assert len(skipped) <= MAX_NOT_RUN, skipped


def test_every_block_is_of_a_kind_the_runner_knows():
    for b in ALL:
        if not_run(b) or RUN_BY.match(b.before):
            continue
        assert b.lang in {"python", "bash", "console", "toml", "text", "mermaid", "listing"}, b.where
        if b.lang == "listing":  # a block without a language: a file tree or a file's shape, never a command
            assert not re.search(r"^(\$ |dreamscape |python)", b.code, re.M), (
                f"{b.where}: a block of commands says its language (bash) and runs")
        if b.lang == "text":
            assert b.code.startswith("$ dreamscape"), (
                f"{b.where}: a text block is a recorded run ({{{{ run('NAME') }}}}, docs/data/measured.py), "
                "or says above it '*Not run by the tests: REASON.*'")


def test_blocks_run_by_other_tests_name_a_test_that_exists():
    for b in ALL:
        m = RUN_BY.match(b.before) or (covered(b) and RUN_BY.match(f"<!-- run by {COVERED[str(b.page.relative_to(ROOT))]} -->"))
        if m:
            assert f"def {m.group(2)}(" in (ROOT / m.group(1)).read_text("utf-8"), b.where


def test_the_readme_shows_recorded_runs_as_recorded():
    """The README is read as plain Markdown (no macros): its runs are copies of the recorded ones."""
    records = {rec["command"]: name for name, rec in measured.load().items()}
    readme = [b for b in ALL if b.page.name == "README.md" and b.lang == "text"]
    assert readme
    for b in readme:
        command = b.code.splitlines()[0][2:]
        assert command in records, f"{b.where}: {command!r} is not a recorded run (docs/data/measured.py)"
        shown = measured.run_block(records[command]).split("\n", 1)[1].rsplit("```", 1)[0]
        assert b.code == shown, f"{b.where}: copy the recorded run: python docs/data/measured.py show {records[command]}"


def test_macro_runs_are_recorded_runs():
    names = set()
    for page in pages():
        names |= set(MACRO_RUN.findall(page.read_text("utf-8")))
    assert names, "no page shows a recorded run"
    assert names <= set(measured.RUNS), names - set(measured.RUNS)


# ----------------------------------------------------------------------------- running them

def covered(b: Block) -> bool:
    return b.lang == "python" and str(b.page.relative_to(ROOT)) in COVERED


def runnable(lang: str) -> list[Block]:
    return [b for b in ALL if b.lang == lang and not not_run(b) and not RUN_BY.match(b.before)
            and not covered(b)]


@pytest.mark.parametrize("block", runnable("toml"), ids=lambda b: b.where)
def test_toml_blocks_parse_and_load(block, tmp_path):
    data = tomllib.loads(block.code)
    path = tmp_path / "block.toml"
    path.write_text(block.code, encoding="utf-8")
    if "element" in data:
        from simcore.games.counting_zzzzs.cards import load_cards

        load_cards(path)
    elif "base" in data:
        from simcore.games.dreamscape.decks import parse_spec

        parse_spec(block.code, str(path))


def python_pages() -> list[Path]:
    return sorted({b.page for b in runnable("python")})


@pytest.mark.parametrize("page", python_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_python_blocks_run(page, tmp_path):
    """The page's blocks one after the other, as one script, in a Python of their own (a page may import a
    template game, which must not stay in this process), from the lab's folder as the pages say (a
    template imported from there finds its engine in numba's cache); ``HOME`` is a fresh folder."""
    code = "\n".join(b.code for b in runnable("python") if b.page == page)
    env = dict(os.environ, DREAMSCAPE_SERVER="off", PYTHONPATH=str(ROOT), HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"{page.relative_to(ROOT)}:\n{done.stderr[-3000:]}"


def commands(b: Block) -> list[str]:
    found = []
    for line in b.code.splitlines():
        line = line.strip().removeprefix("$ ")
        if line and not line.startswith("#"):
            found.append(line.split(" #")[0].strip())
    return found


def shell_blocks() -> list:
    """Each shell block, its commands run one after the other in one folder (a later one may read what an
    earlier one wrote); a block that plays a study (minutes) runs under ``-m slow``."""
    return [pytest.param(b, id=b.where, marks=[pytest.mark.slow] if any(" study" in c for c in commands(b)) else [])
            for b in runnable("bash") + runnable("console")]


@pytest.mark.parametrize("block", shell_blocks())
def test_shell_commands_run(block, tmp_path):
    for command in commands(block):
        assert command.startswith("dreamscape "), (
            f"{block.where}: {command!r} is not a dreamscape command; mark the block '*Not run by the tests: ...*'")
        result = measured.play(measured.Run(command), tmp_path)
        assert result.exit == 0, f"{block.where}: {command}\n{result.stderr}{result.stdout[-2000:]}"


def transcripts() -> list:
    return [pytest.param(b, id=b.where) for b in runnable("text") if b.page.name != "README.md"]


def shown_runs(code: str) -> list[tuple[str, list[str]]]:
    """The transcript's commands, each with the lines shown under it (continuation lines joined)."""
    runs: list[tuple[str, list[str]]] = []
    lines = code.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1].rstrip() + " " + lines[i].strip()
            runs.append((command.split("   #")[0].strip(), []))
        elif runs:
            runs[-1][1].append(line)
        i += 1
    return runs


@pytest.mark.parametrize("block", transcripts())
def test_transcripts_print_what_they_show(block, tmp_path):
    for command, shown in shown_runs(block.code):
        result = measured.play(measured.Run(command), tmp_path)
        printed = measured.mask_timings(result.stdout + result.stderr).splitlines()
        wanted = [measured.mask_timings(line) for line in shown if line.strip() != "..."]
        if any(line.strip() == "..." for line in shown):  # an excerpt: the shown lines, in order
            it = iter(printed)
            missing = [line for line in wanted if not any(line == p for p in it)]
            assert not missing, f"{block.where}: {command} no longer prints {missing[0]!r}"
        else:
            assert printed == wanted, f"{block.where}: {command} prints:\n" + "\n".join(printed)
