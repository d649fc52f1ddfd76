"""The Mascarade table assistant: snapshots of a session with notes, and typing notes in."""

from __future__ import annotations

import pytest
from tui_helpers import run_async

from engine.session import Session
from tui.app import UnmaskApp
from tui.assist.mascarade import AssistScreen, parse_line
from tui.storage import load_session

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
CONFIG = {"players": ["Ann", "Bob", "Cy", "Dee"], "me": "Ann",
          "opening": {"Ann": "judge", "Bob": "trickster", "Cy": "empress", "Dee": "king", "T1": "thief",
                      "T2": "cheater"}}
LOG = [{"t": "swap", "by": "Bob", "with": "T1"}, {"t": "swap", "by": "Cy", "with": "Dee"},
       {"t": "swap", "by": "Dee", "with": "Ann"}, {"t": "announce", "by": "Bob", "mask": "thief"}]


def settle():
    async def run(pilot) -> None:
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.1)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return run


@pytest.mark.parametrize("size", SIZES)
def test_mascarade_assist_with_notes(snap_compare, size):
    session = Session(game="mascarade", mode="assist", config=CONFIG, log=list(LOG))
    app = UnmaskApp(bot_delay=0)

    async def run(pilot) -> None:
        await pilot.pause()
        app.open_assist("assist-snap", session=session)
        await settle()(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run)


def test_parse_line():
    assert parse_line("Bob swap T1") == {"t": "swap", "by": "Bob", "with": "T1"}
    assert parse_line("Ann swap Cy yes") == {"t": "swap", "by": "Ann", "with": "Cy", "swapped": True}
    assert parse_line("reveal Bob=King Cy=judge") == {"t": "reveal", "cards": {"Bob": "king", "Cy": "judge"}}
    assert parse_line("coins Ann=7 court=2") == {"t": "coins", "coins": {"Ann": 7}, "court": 2}
    with pytest.raises(ValueError):
        parse_line("Bob dances")


@run_async
async def test_mascarade_assist_typing():
    app = UnmaskApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_assist("assist-typed", game="mascarade")
        await pilot.pause(0.1)
        screen = app.screen
        assert isinstance(screen, AssistScreen)
        await pilot.press(*"players Ann Bob Cy Dee", "enter")
        await pilot.press(*"opening Ann=judge Bob=trickster Cy=empress Dee=king T1=thief T2=cheater", "enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.press(*"Bob swap T1", "enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.session.log == [{"t": "swap", "by": "Bob", "with": "T1"}]
        bob = screen.result["probabilities"]["Bob"]
        assert bob["trickster"] == pytest.approx(0.5) and bob["thief"] == pytest.approx(0.5)
        await pilot.press(*"Bob look judge", "enter")  # only your own card can be seen: refused
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(screen.session.log) == 1
        await pilot.click("#mqa-undo-btn")
        await pilot.pause()
        assert screen.session.log == []
        assert load_session("assist-typed").log == []
