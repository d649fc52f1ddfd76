"""Snapshots of the shared screens that no game's snapshots draw: Resume (a saved game and a
damaged file, the list's Delete offered only on a game's row), Settings and Help, at both sizes."""

from __future__ import annotations

import os
import time

import pytest
from tui_helpers import SIZES, run_async, settle, wait_for

from solvers.table import Table
from tui import storage
from tui.app import UnmaskApp
from tui.screens.resume import ResumeScreen


@pytest.fixture
def saved_games():
    """One saved Clue game and one damaged file, with fixed times in a fixed zone (byte-stable)."""
    zone = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    table = Table("clue", {"players": 3, "board": "red-keep"}, 5, ["human", "notes", "notes"])
    path = storage.save_session(table.to_session(), "clue-play-example")
    os.utime(path, (1_800_000_000, 1_800_000_000))
    broken = storage.sessions_dir() / "broken.json"
    broken.write_text("{oops", encoding="utf-8")
    os.utime(broken, (1_700_000_000, 1_700_000_000))
    yield
    if zone is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = zone
    time.tzset()


@pytest.mark.parametrize("size", SIZES)
def test_resume_screen(snap_compare, size, saved_games):
    assert snap_compare(UnmaskApp(bot_delay=0, start="resume"), terminal_size=size, run_before=settle(step=0.1))


@pytest.mark.parametrize("size", SIZES)
def test_settings_screen(snap_compare, size):
    assert snap_compare(UnmaskApp(bot_delay=0), terminal_size=size, run_before=settle("s", step=0.1))


@pytest.mark.parametrize("size", SIZES)
def test_help_screen(snap_compare, size):
    assert snap_compare(UnmaskApp(bot_delay=0), terminal_size=size, run_before=settle("question_mark", step=0.1))


@run_async
async def test_resume_offers_delete_only_on_a_saved_games_row(saved_games):
    """The footer's Delete acts on the focused row; with Back focused it is not shown (it would do nothing)."""
    app = UnmaskApp(bot_delay=0, start="resume")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: getattr(app.focused, "id", "") == "resume-open-0")
        screen = app.screen
        assert isinstance(screen, ResumeScreen)
        assert screen.focused is not None and screen.focused.id == "resume-open-0"
        assert screen.check_action("delete_focused", ()) is True
        screen.query_one("#resume-back").focus()
        await pilot.pause()
        assert screen.check_action("delete_focused", ()) is False
        await pilot.press("d")
        await pilot.pause()
        assert app.screen is screen, "d with Back focused opens nothing"
        assert "Delete" not in {b.binding.description for b in screen.active_bindings.values()
                                if b.binding.show and b.enabled}
