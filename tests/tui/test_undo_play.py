"""Undo on the play screens stops at the last secret you saw, says why, and the help says so (issue 11, ex. 6)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tui_helpers import run_async

from tui.app import UnmaskApp
from tui.screens.help import binding_rows

sys.path.insert(0, str(Path(__file__).parents[1] / "solvers"))
from test_undo_secrets import CASES, _play_until_seen

SCREENS = [c for c in CASES if c.id != "mascarade-look"]  # Mascarade's play screen has no Undo


@pytest.mark.parametrize("game,config,bot,seen", SCREENS)
@run_async(timeout=120)
async def test_undo_key_refuses_after_a_secret_and_says_why(game, config, bot, seen):
    table, _mine = _play_until_seen(game, config, bot, seen)
    app = UnmaskApp(table=table, session_id=f"undo-{game}", bot_delay=0)
    notes: list[str] = []
    original = app.notify

    def notify(message, *args, **kwargs):
        notes.append(str(message))
        return original(message, *args, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        for _ in range(5):  # close a dialog the position opened by itself
            if hasattr(app.screen, "table"):
                break
            await pilot.press("escape")
            await pilot.pause()
        screen = app.screen
        assert hasattr(screen, "table")
        log = [list(e) for e in table.log]
        assert screen.query_one("#act-undo").disabled
        await pilot.press("z")
        await pilot.pause()
        assert table.log == log, "undo never goes back past the secret"
        assert any("something hidden" in n for n in notes), "a refused undo says why"
        text = " ".join(desc for _k, desc, _now in binding_rows(screen))  # what ? shows for this screen
        assert "never past the last moment you saw something hidden" in text
