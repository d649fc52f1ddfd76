"""`unmask solve ghoul` on the table assistant's own session file: readable, JSON, contradictions, bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tui.cli import app

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "ghoul-assist.json"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_example_is_an_assist_session_the_assistant_writes():
    """The example holds what the assistant's dialogs build, entry for entry."""
    from tui.ghoul import assist_model as g

    data = json.loads(EXAMPLE.read_text())
    assert data["format"] == "unmask-session/1" and data["game"] == "ghoul" and data["mode"] == "assist"
    assert g.config_problem(data["config"]) is None
    for e in data["log"]:
        kind = g.DIALOG_KIND.get(e["type"], e["type"])
        assert g.build(kind, g.values_of(kind, e, data["config"], []), data["config"])[0] == e


def test_solve_json():
    r = run("solve", "ghoul", str(EXAMPLE), "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["status"] == "ok"
    # I saw Kenta's two Food cards, then Emi alone matched "two Coffee": certain facts.
    assert out["certain"]["Emi"]["has"] == {"coffee": 2}
    assert out["certain"]["Aiko"]["hand"] == ["coffee", "food", "dove"]
    assert out["markers"]["Emi"] == 2 and out["pool"] == 16
    assert "Emi" in out["advice"]["summary"]


def test_solve_readable():
    r = run("solve", "ghoul", str(EXAMPLE))
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output
    assert "Emi" in r.output and "Kenta" in r.output


def test_solve_contradiction_exits_2_and_names_the_entries(tmp_path):
    data = json.loads(EXAMPLE.read_text())
    data["log"].append({"type": "suspicion", "rule": "coffee", "players": []})  # Emi holds two Coffee
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data))
    r = run("solve", "ghoul", str(f), "--json")
    assert r.exit_code == 2
    out = json.loads(r.output)
    assert out["status"] == "contradiction" and len(data["log"]) - 1 in out["conflict"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("{not json", "not valid JSON"),
        (
            '{"format": "unmask-session/1", "game": "ghoul", "mode": "assist", "config": {"players": ["A", "B"]}, '
            '"log": []}',
            "4 to 8 players",
        ),
        ('{"format": "unmask-session/1", "game": "masque", "mode": "assist", "config": {}, "log": []}', "not ghoul"),
    ],
)
def test_malformed_files_are_one_line(tmp_path, text, needle):
    f = tmp_path / "s.json"
    f.write_text(text)
    r = run("solve", "ghoul", str(f))
    assert r.exit_code == 2
    assert needle in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_malformed_entry_is_one_line(tmp_path):
    data = json.loads(EXAMPLE.read_text())
    data["log"].append({"type": "suspicion", "rule": "mask pair", "players": []})
    f = tmp_path / "s.json"
    f.write_text(json.dumps(data))
    r = run("solve", "ghoul", str(f))
    assert r.exit_code == 2
    assert "Log entry 14" in r.output and len(r.output.strip().splitlines()) == 1
