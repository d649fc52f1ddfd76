"""The command line: every command real, bad input a one-line message and exit 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tui.cli import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_version():
    r = run("--version")
    assert r.exit_code == 0 and r.output.startswith("unmask ")


def test_help_does_not_load_textual_or_ortools():
    """`unmask --help` must start fast: the heavy libraries load only in the commands that use them."""
    code = ("import sys; from tui.cli import app\n"
            "try:\n    app(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('textual', 'ortools', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_simulate_json_reports_every_bot_with_an_interval():
    r = run("simulate", "clue", "--games", "6", "--players", "4", "--bots", "notes,notes,random,random",
            "--seed", "1", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["games"] == 6 and sum(out["endings"].values()) == 6
    bots = {b["bot"]: b for b in out["per_bot"]}
    assert set(bots) == {"notes", "random"}
    for b in bots.values():
        lo, hi = b["ci95"]
        assert 0 <= lo <= b["rate"] <= hi <= 1 and b["seat_games"] == 12


def test_simulate_is_deterministic_for_a_seed():
    """The same bytes, run after run: the timings are only under --timing."""
    a = run("simulate", "clue", "--games", "3", "--seed", "7", "--json").output
    b = run("simulate", "clue", "--games", "3", "--seed", "7", "--json").output
    assert a == b and "seconds" not in json.loads(a)
    timed = json.loads(run("simulate", "clue", "--games", "3", "--seed", "7", "--json", "--timing").output)
    assert timed["seconds"] > 0 and {k: v for k, v in timed.items() if k != "seconds"} == json.loads(a)


def test_simulate_table_is_readable():
    r = run("simulate", "clue", "--games", "2", "--players", "3", "--bots", "notes,random,random")
    assert r.exit_code == 0 and "win rate" in r.output and "95% CI" in r.output


@pytest.mark.parametrize("args,needle", [
    (("simulate", "chess"), "unknown game"),
    (("simulate", "clue", "--bots", "genius"), "unknown bot"),
    (("simulate", "clue", "--players", "9"), "2 to 6 players"),
    (("simulate", "clue", "--games", "0"), "at least 1"),
    (("play", "clue", "--board", "winterfell"), "Unknown board"),
])
def test_bad_options_are_one_line(args, needle):
    r = run(*args)
    assert r.exit_code == 2
    assert needle in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_solve_clue_example_follows_the_public_format():
    r = run("solve", "clue", str(EXAMPLES / "clue-assist-red-keep.json"), "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["status"] == "ok" and out["exact"] is True and out["deals"] > 0
    assert len(out["envelope"]) == 23
    for row in out["holders"].values():
        assert set(row) == {"Ann", "Bob", "Cat", "Dan", "envelope"}
        assert abs(sum(row.values()) - 1) < 1e-9
    assert out["certain"]["Crossbow"] == "Ann" and out["certain"]["Vial of Poison"] == "Cat"
    assert out["advice"]["rumors"]


def test_solve_clue_contradiction_exits_2_with_the_conflict(tmp_path):
    data = json.loads((EXAMPLES / "clue-assist-red-keep.json").read_text())
    data["log"].append({"type": "reveal", "player": "Bob", "cards": ["Crossbow"]})  # Ann holds it
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data))
    r = run("solve", "clue", str(f), "--json")
    assert r.exit_code == 2
    out = json.loads(r.output)
    assert out["status"] == "contradiction" and 0 in out["conflict"] and len(data["log"]) - 1 in out["conflict"]


@pytest.mark.parametrize("text,needle", [
    ("{not json", "not valid JSON"),
    ('{"format": "something-else"}', "not an unmask session"),
    ('{"format": "unmask-session/1", "game": "clue", "mode": "assist", "config": {"board": "red-keep", '
     '"players": ["A", "B", "C"], "me": "A"}, "log": [{"type": "hand", "cards": ["Spoon"]}]}', "Spoon"),
])
def test_solve_bad_files_are_one_line(tmp_path, text, needle):
    f = tmp_path / "s.json"
    f.write_text(text)
    r = run("solve", "clue", str(f))
    assert r.exit_code == 2 and needle in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("game", ["masque", "mascarade"])
def test_solve_other_games_examples(game):
    r = run("solve", game, str(EXAMPLES / f"{game}-assist.json"), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["status"] == "ok"


@pytest.mark.parametrize("game,facts", [
    # Each readable answer carries the example's certain facts, read off the same JSON.
    ("clue", ["694,638 consistent deals", "Sansa Stark", "Most likely envelope", "Best rumor"]),
    ("mascarade", ["2 layouts fit (exact)", "Where each mask sits", "Advice: announce king."]),
    ("masque", ["Chance a room is deadly", "DEADLY", "Best plan from violet", "37.0%"]),
])
def test_solve_prints_readable_tables(game, facts):
    name = "clue-assist-red-keep.json" if game == "clue" else f"{game}-assist.json"
    r = run("solve", game, str(EXAMPLES / name))
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    for fact in facts:
        assert fact in flat, fact
    assert not r.output.lstrip().startswith("{")


@pytest.mark.parametrize("game,entry", [
    ("mascarade", {"t": "reveal", "cards": {"Ann": "judge"}}),  # the example makes Ann certainly the king
    ("masque", {"type": "evidence", "slot": "12:00", "room": "black"}),  # black is safe at 12:00
])
def test_solve_other_games_contradiction_is_readable_and_exits_2(tmp_path, game, entry):
    data = json.loads((EXAMPLES / f"{game}-assist.json").read_text())
    data["log"].append(entry)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data))
    r = run("solve", game, str(f))
    assert r.exit_code == 2 and "Contradiction" in r.output and "Traceback" not in r.output


def test_rules_lists_the_assumptions():
    r = run("rules", "clue")
    assert r.exit_code == 0 and "Assumptions" in r.output and "White Walker" in r.output


def damaged_session(tmp_path, monkeypatch, text: str) -> None:
    """A data folder whose one session, ``broken``, holds ``text``."""
    monkeypatch.setenv("UNMASK_DATA_DIR", str(tmp_path))
    (tmp_path / "sessions").mkdir()
    (tmp_path / "sessions" / "broken.json").write_text(text)


def test_resume_list_shows_damaged_sessions_without_a_traceback(tmp_path, monkeypatch):
    damaged_session(tmp_path, monkeypatch, "{oops")
    r = run("resume", "--list")
    assert r.exit_code == 0 and "broken" in r.output and "damaged" in r.output


def test_resume_of_a_damaged_session_is_one_line(tmp_path, monkeypatch):
    damaged_session(tmp_path, monkeypatch, "[]")
    r = run("resume", "broken")
    assert r.exit_code == 2 and "not an unmask session" in r.output


@pytest.mark.parametrize("game", ["masque", "mascarade", "clue"])
def test_resume_reopens_an_assist_session_in_its_assistant(tmp_path, monkeypatch, game):
    """`unmask resume FILE` on table notes opens that game's assistant with the notes, not an error."""
    import tui.app

    opened: dict = {}
    monkeypatch.setattr(tui.app, "run_app", lambda **kw: opened.update(kw))
    monkeypatch.setenv("UNMASK_DATA_DIR", str(tmp_path))
    name = "clue-assist-red-keep.json" if game == "clue" else f"{game}-assist.json"
    r = run("resume", str(EXAMPLES / name))
    assert r.exit_code == 0, r.output
    assert opened["start"] == f"assist:{game}" and opened["session"].game == game
    assert opened["session"].log == json.loads((EXAMPLES / name).read_text())["log"]
