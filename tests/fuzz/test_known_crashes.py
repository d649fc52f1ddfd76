"""The damaged files that used to print tracebacks now get one line naming what is wrong (exit 2)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tui.cli import app

MX = {"players": ["Ann", "Bob", "Cy", "Dee"], "me": "Ann"}
MX_OPENING = {"Ann": "judge", "Bob": "trickster", "Cy": "empress", "Dee": "king", "T1": "thief", "T2": "cheater"}
GH = {"players": ["Ann", "Bob", "Cai", "Dee"], "me": "Ann", "character": "kaneki",
      "cast": ["kaneki", "hide", "mado", "nishiki"]}


@pytest.mark.parametrize(("game", "config", "log", "needle"), [
    # sorted() over mixed types in the opening check
    ("mascarade", {**MX, "opening": ["judge", 3, "empress", "king", "thief", "cheater"]}, [], "config.opening"),
    ("mascarade", {**MX, "opening": {**MX_OPENING, "Bob": None}}, [], "config.opening.Bob"),
    ("mascarade", {**MX, "order": [0, "Bob", "Cy", "Dee"]}, [], "config.order"),
    ("mascarade", MX, [{"t": "swap", "by": ["Bob"], "with": "Cy"}], "Entry 0: 'by'"),
    ("mascarade", MX, [{"t": "reveal", "cards": {"Bob": {"x": 1}}}], "Entry 0: 'cards.Bob'"),
    # an unhashable tile, a null red
    ("ghoul", {**GH, "ring": [{"x": 1}, *[None] * 7]}, [], "config.ring"),
    ("ghoul", {**GH, "red": None}, [], "config.red"),
    ("ghoul", GH, [{"type": "move", "player": "Bob", "revealed": [1, 2]}], "Log entry 0: 'revealed'"),
    ("ghoul", GH, [{"type": "suspicion", "rule": "pair", "players": [["Bob"]]}], "Log entry 0: 'players'"),
    ("clue", {"board": ["red-keep"], "players": ["A", "B", "C"], "me": "A"}, [], "config.board"),
    ("clue", {"board": "red-keep", "players": ["A", "B", "C"], "me": "A"}, [{"type": "rumor", "by": 3}], "Log entry 0"),
    ("masque", {}, [{"type": "evidence", "slot": [0], "room": "white"}], "log entry 0"),
])
def test_damaged_file_is_one_line(game, config, log, needle, tmp_path):
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"format": "unmask-session/1", "game": game, "mode": "assist", "config": config,
                             "log": log}))
    r = CliRunner().invoke(app, ["solve", game, str(f)])
    assert r.exit_code == 2, r.output
    assert needle in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_a_card_name_with_a_newline_is_quoted_on_one_line(tmp_path):
    """The soak of issue 21: a hand-edited deck holding a card called "Å" + newline made the list of
    allowed cards in the assistant's refusal two lines."""
    from fuzz.loaders import check_without_screen
    from fuzz.mutate import session_file
    from fuzz.sessions import example_sessions

    config, log = next((c, lg) for c, lg in example_sessions("clue") if "deck" in c and lg)
    config = json.loads(json.dumps(config))
    first = config["deck"]["suspects"][0]
    config["deck"]["suspects"][0] = "Å\n"
    data = session_file("clue", {"config": config, "log": [{"type": "hand", "cards": [first]}, *log]})
    message = check_without_screen("clue", data)
    assert message is not None and "\n" not in message.strip() and "Å\\n" in message
    f = tmp_path / "s.json"
    f.write_text(json.dumps(data))
    r = CliRunner().invoke(app, ["solve", "clue", str(f)])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
