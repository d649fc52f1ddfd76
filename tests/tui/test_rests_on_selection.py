"""Issue 15, "what rests on a note": a tap on a note in any assistant's log says which certain facts
would no longer be certain without it, with no key to press; and the scroll buttons beside a log
stay reachable in a wide but short window."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from tui_helpers import run_async, settle_assist

from engine.session import Session
from solvers.why import explain_module
from tui.app import UnmaskApp

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FILES = {"clue": "clue-assist-red-keep.json", "mascarade": "mascarade-assist.json",
         "masque": "masque-assist.json", "ghoul": "ghoul-assist.json"}
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "robot"))


def _session(game: str) -> Session:
    return Session.from_json(json.loads((EXAMPLES / FILES[game]).read_text(encoding="utf-8")))


async def _quiet(pilot) -> None:
    for _ in range(10):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


def _lost(game: str, session: Session, note: int) -> list:
    return explain_module(game).explainer(session.config, session.log).rests_on(note)


@pytest.mark.parametrize("game", ["clue", "mascarade", "ghoul"])
@run_async
async def test_a_tapped_note_says_what_rests_on_it(game):
    session = _session(game)
    app = UnmaskApp(start=f"assist:{game}", session=session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_assist(pilot)
        screen = app.screen
        line = screen.query_one(f"#{screen.PANEL}-log-rests")
        assert not line.display, "nothing is selected: no line"
        screen.action_view("log")
        await pilot.pause()
        for note in range(min(4, len(session.log))):
            assert await pilot.click(f"#ax-entry-{note}"), note
            await _quiet(pilot)
            text = str(line.render())
            lost = _lost(game, session, note)
            assert line.display
            if lost:
                assert text.startswith(f"{len(lost)} certain fact"), text
                assert f"on #{note + 1}:" in text
                assert explain_module(game).fact_sentence(lost[0]) in text
            else:
                assert text.startswith(f"Nothing rests on #{note + 1} alone"), text
        screen.query_one(f"#{screen.FRAME}-log").select(None)
        await _quiet(pilot)
        assert not line.display, "unselected: the line goes"


@run_async
async def test_masque_a_tapped_entry_says_what_rests_on_it():
    session = _session("masque")
    app = UnmaskApp(start="assist:masque", session=session, bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await _quiet(pilot)
        label = app.screen.query_one("#mq-log-label")
        assert str(label.render()) == "Log (tap to select)"
        seen_some = False
        for note in range(len(session.log)):
            log_id = app.screen.query_one(".mq-log").id
            app.screen.query_one(f"#{log_id}-{note}").scroll_visible(animate=False)
            await pilot.pause()
            assert await pilot.click(f"#{log_id}-{note}"), note
            await _quiet(pilot)
            lost = _lost("masque", session, note)
            text = str(label.render())
            if lost:
                seen_some = True
                assert text.startswith(f"Log · {len(lost)} certain fact"), text
            else:
                assert text.startswith(f"Log · Nothing rests on #{note + 1} alone"), text
        assert seen_some, "the example has a note that something rests on"


@pytest.mark.parametrize("game", ["clue", "mascarade", "masque", "ghoul"])
@pytest.mark.parametrize("size", [(100, 24), (100, 26), (100, 34), (160, 24)])
@run_async
async def test_every_button_of_an_assistant_is_reachable_in_a_wide_short_window(game, size):
    """Found by the robot (Clue at 100x30 after a resize): the log's End button was cut off below its row;
    the Masque assistant's left column cut off its log at 100x34."""
    from harness import unreachable

    app = UnmaskApp(start=f"assist:{game}", session=_session(game), bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await _quiet(pilot)
        assert unreachable(app) == []


@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")])
def test_clue_the_line_under_the_log_for_a_tapped_note(snap_compare, size):
    from tui.storage import save_session

    session = _session("clue")
    save_session(Session(game="clue", mode="assist", config=session.config, log=session.log), "rests-clue")
    app = UnmaskApp(bot_delay=0, start="assist:clue", session_id="rests-clue")

    async def run(pilot) -> None:
        await settle_assist(pilot)
        pilot.app.screen.action_view("log")
        await pilot.pause()
        await pilot.click("#ax-entry-1")
        await settle_assist(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run)
