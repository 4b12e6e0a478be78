"""A study file's ``seed`` is the seed `dreamscape study --config` plays unless --seed is given (the exported
study file of the what-if page relies on it)."""
import json

from typer.testing import CliRunner

from cli import app

FILE = """name = "seed three"
seed = 3
[[configs]]
label = "greedy"
games = 40
players = 3
variants = ["base"]
strategy = "greedy"
"""


def played_seed(tmp_path, name, *extra):
    out = tmp_path / name
    done = CliRunner().invoke(app, ["study", "--config", str(tmp_path / "s.toml"), "--out", str(out),
                                    "--no-progress", *extra])
    assert done.exit_code == 0, done.output
    manifest = json.loads((out / "manifest.json").read_text())
    checks = [c["checks"] for chunks in manifest["chunks"].values() for c in chunks]
    return manifest["seed"], checks


def test_the_files_seed_plays_unless_the_command_gives_one(tmp_path):
    (tmp_path / "s.toml").write_text(FILE)
    own, own_checks = played_seed(tmp_path, "own")
    asked, asked_checks = played_seed(tmp_path, "asked", "--seed", "3")
    other, other_checks = played_seed(tmp_path, "other", "--seed", "5")
    assert (own, asked, other) == (3, 3, 5)
    assert own_checks == asked_checks  # the same games as asking for seed 3
    assert other_checks != own_checks
