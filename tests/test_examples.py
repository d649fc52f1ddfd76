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
    "finished_games.py": (["--out", "{tmp}"], "clue-finished.json"),
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


def test_the_finished_games_are_what_the_script_writes(tmp_path):
    """The committed finished games (issue 25) are exactly what ``finished_games.py`` plays from its seeds,
    one per game, and each is over."""
    from engine.replay import replay_steps
    from tui.storage import read_session_file

    env = {**os.environ, "PYTHONPATH": str(EXAMPLES.parent)}  # this checkout's code, whatever is installed
    subprocess.run([sys.executable, str(EXAMPLES / "finished_games.py"), "--out", str(tmp_path)], check=True,
                   capture_output=True, timeout=600, env=env)
    made = sorted(p.name for p in tmp_path.glob("*-finished.json"))
    assert made == ["clue-finished.json", "ghoul-finished.json", "mascarade-finished.json", "masque-finished.json"]
    for name in made:
        assert (tmp_path / name).read_text(encoding="utf-8") == (EXAMPLES / name).read_text(encoding="utf-8"), name
        replay = replay_steps(read_session_file(EXAMPLES / name))  # refuses a game that is not over
        assert replay.spec.is_over(replay.final)


ASSIST_FILES = sorted(p.name for p in EXAMPLES.glob("*.json") if not p.name.endswith("-finished.json"))


@pytest.mark.parametrize("file", ASSIST_FILES)
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
