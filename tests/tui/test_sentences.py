"""Every sentence a player reads agrees with its subject: "You look", "Ann looks", "1 move", "2 moves".

Whole bot games of each game are described from seat 0: each log line, prompt and status line.
"""

from __future__ import annotations

import re

import pytest

from engine.clue import ClueConfig, load_board
from engine.ghoul import GhoulConfig
from engine.mascarade import MascaradeConfig
from engine.masque import MasqueConfig
from solvers.table import Table

# "You" followed by a verb in the third person ("You looks"); "pass" and "guess" end in s anyway.
THIRD_AFTER_YOU = re.compile(r"\bYou (?!pass\b|guess\b|miss\b)([a-z]+(?:es|s))\b")
ONE_PLURAL = re.compile(r"(?<![\d.])\b1 (moves|markers|coins|cards|spaces|steps|turns|rounds|doves|players)\b")
TWO_SINGULAR = re.compile(r"\b([02-9]|\d\d+) (move|marker|coin|card|space|step|turn|round|dove|player)\b(?!['’-])")
NOT_VERBS = {"was", "has", "is", "does", "goes"}


def _lines(game: str, view: dict) -> list[str]:
    if game == "clue":
        from tui.clue import model as m

        seats, board = m.Seats.from_view(view), load_board(view["board"])
        out = [m.describe(ev, seats, board) for ev in view["events"]]
        return [*(x for x in out if x), m.prompt(view, board), m.status_line(view, board)]
    if game == "masque":
        from tui.masque import model as m

        out = [m.describe(ev, view) for ev in view["events"]]
        lines = [*(x for x in out if x), m.prompt(view), m.status_line(view)]
        for step in m.midnight_steps(view):
            lines += [m.midnight_sentence(view, step), m.midnight_status(view, step)]
        return lines
    if game == "ghoul":
        from tui.ghoul import model as m

        out = [m.describe(ev, view) for ev in view["events"]]
        return [*(x for x in out if x), m.prompt(view)]
    from tui.mascarade import model as m

    out = [m.describe(ev, view) for ev in view["events"]]
    return [*(x for x in out if x), m.prompt(view)]


GAMES = [
    pytest.param("clue", ClueConfig(players=4), "notes", id="clue"),
    pytest.param("masque", MasqueConfig(players=5), "heuristic", id="masque"),
    pytest.param("ghoul", GhoulConfig(players=6), "heuristic", id="ghoul"),
    pytest.param("mascarade", MascaradeConfig(players=6), "honest", id="mascarade"),
]


@pytest.mark.parametrize("game,config,bot", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sentences_agree_with_their_subject(game, config, bot, seed):
    table = Table(game, config, seed, [bot] * config.players)
    bad: set[str] = set()
    steps = 0
    while not table.is_over() and steps < 4000:
        seat = table.to_act()
        if steps % 3 == 0:  # prompts and statuses along the way (seat 0 is "You": the default names)
            v = table.view(0)
            for line in (_lines(game, v)[-2:] if game in ("clue", "masque") else _lines(game, v)[-1:]):
                bad |= _check(line)
        table.step_bot()
        steps += 1
        assert seat is not None
    for line in _lines(game, table.view(0)):
        bad |= _check(line)
    assert not bad, "\n".join(sorted(bad))


def _check(line: str) -> set[str]:
    out = set()
    m = THIRD_AFTER_YOU.search(line)
    if m and m.group(1) not in NOT_VERBS:
        out.add(f"third person after You: {line}")
    if ONE_PLURAL.search(line):
        out.add(f"plural after 1: {line}")
    if TWO_SINGULAR.search(line):
        out.add(f"singular after a number: {line}")
    if re.search(r"\bYou's\b|\bYou is\b|\bYou has\b|\bYou was\b", line):
        out.add(f"You's/is/has/was: {line}")
    return out


def test_clue_counts_of_one_and_the_power_prompt_read_right():
    """Issue 23: "1 steps" (a roll with a Walker die), "1 cards are set aside", and "Now … move again (x)"
    offered to a player whose turn had no move of his own (the power rolls and moves)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from tui_helpers import advance, find_table, new_table

    from tui.clue import model as m
    from tui.clue.dialogs import MoveDialog

    table = new_table(3, seed=2)
    assert advance(table, lambda v: v["to_act"] == 0 and v["phase"] == "move")
    view = {**table.view(0), "steps": 1}
    board = load_board(view["board"])
    assert m.prompt(view, board).startswith("1 step:")
    assert MoveDialog(view, board).text().startswith("1 step.")
    seats = m.Seats.from_view(view)
    start = next(ev for ev in view["events"] if ev["t"] == "setup")
    line = m.describe({**start, "aside": 1, "centre": 1}, seats, board) or ""
    assert "1 card is set aside" in line and "1 card lies face down" in line and not ONE_PLURAL.search(line)
    power = find_table(lambda v: v["to_act"] == 0 and any(a[0] == "power" for a in v["legal"]))
    assert "move again" not in m.prompt(power.view(0), board)
