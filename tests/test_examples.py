"""Every script in examples/ runs (with small game counts), and every session file there solves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tui.cli import app

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# Each script with arguments that keep it fast, and a line its output must hold.
SCRIPTS = {
    "solve_notes.py": ([str(EXAMPLES / "clue-assist-red-keep.json")], "deals agree with the notes"),
    "tournament.py": (["masque", "--games", "6"], "95% interval"),
    "my_bot.py": (["--games", "4"], "peeker   won"),
    "table_notes.py": (["--out", "{tmp}"], "clue-table-notes.json"),
    "openspiel_ismcts.py": (["--games", "1", "--sims", "10"], "ISMCTS won"),
}
NEEDS = {"openspiel_ismcts.py": "pyspiel"}  # scripts of an optional extra: skipped where it is not installed


def test_every_script_is_run_here():
    assert {p.name for p in EXAMPLES.glob("*.py")} == set(SCRIPTS)


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_example_script_runs(script, tmp_path):
    if script in NEEDS:
        pytest.importorskip(NEEDS[script])
    args, expected = SCRIPTS[script]
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    env = {**os.environ, "PYTHONPATH": str(EXAMPLES.parent)}  # this checkout's code, whatever is installed
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          timeout=600, cwd=EXAMPLES.parent, env=env)
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout


def test_the_table_notes_are_what_the_script_writes(tmp_path):
    """The committed whole-game notes are exactly what ``table_notes.py`` makes from its seeded games."""
    subprocess.run([sys.executable, str(EXAMPLES / "table_notes.py"), "--out", str(tmp_path)], check=True,
                   capture_output=True, timeout=600)
    for made in tmp_path.glob("*-table-notes.json"):
        assert made.read_text(encoding="utf-8") == (EXAMPLES / made.name).read_text(encoding="utf-8"), made.name


@pytest.mark.parametrize("file", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_unmask_solve_accepts_every_example_session(file):
    game = json.loads((EXAMPLES / file).read_text(encoding="utf-8"))["game"]
    result = CliRunner().invoke(app, ["solve", game, str(EXAMPLES / file), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["status"] == "ok"


def test_a_whole_game_of_notes_per_game():
    """Each game's notes cover a whole game: the seeded game is played to its end, and the notes
    hold more than those of its first half."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        import table_notes
    finally:
        sys.path.remove(str(EXAMPLES))
    for game in ("clue", "mascarade", "masque", "ghoul"):
        whole = json.loads((EXAMPLES / f"{game}-table-notes.json").read_text(encoding="utf-8"))
        table = table_notes.finished_table(game)
        assert table.is_over()
        half = table_notes.notes_of(table, upto=len(table.log) // 2)
        assert len(half.log) < len(whole["log"]), game
