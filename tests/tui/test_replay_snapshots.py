"""Snapshots of the replay with its belief chart (issue 25), each game at 80×24 and 120×40.

The example finished games keep their belief series, so the chart is whole the moment the replay
opens; the step shown is one where the table changed (its rows highlighted).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tui_helpers import SIZES

from engine.replay import replay_steps
from tui.app import UnmaskApp
from tui.screens.replay import ReplayScreen
from tui.storage import read_session_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
STEP = {"clue": 12, "mascarade": 21, "masque": 40, "ghoul": 9}  # a step that changes the table in each game


def replay_app(game: str) -> UnmaskApp:
    return UnmaskApp(replay=replay_steps(read_session_file(EXAMPLES / f"{game}-finished.json")))


async def at_step(pilot, k: int) -> None:
    await pilot.pause()
    for _ in range(100):
        if isinstance(pilot.app.screen, ReplayScreen):
            break
        await pilot.pause(0.02)
    screen = pilot.app.screen
    assert screen.beliefs_done
    for _ in range(k):
        await pilot.press("right")
    await pilot.pause(0.2)
    assert screen.at == k


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", sorted(STEP))
def test_replay_snapshot(snap_compare, game, size):
    assert snap_compare(replay_app(game), terminal_size=size, run_before=lambda pilot: at_step(pilot, STEP[game]))


async def board_at_step(pilot, k: int) -> None:
    await at_step(pilot, k)
    await pilot.press("b")
    await pilot.pause(0.2)


@pytest.mark.parametrize("size", SIZES)
def test_replay_board_snapshot(snap_compare, size):
    """Clue's replay with the play screen's board map (b) in place of the table rows."""
    assert snap_compare(replay_app("clue"), terminal_size=size,
                        run_before=lambda pilot: board_at_step(pilot, STEP["clue"]))
