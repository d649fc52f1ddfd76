"""The Masque assistant's table: set up by taps, a Flirt entered by taps, an impossible note refused,
snapshots of the table at 80x24 and 120x40."""

from __future__ import annotations

import pytest
from tui_helpers import run_async

from engine.session import Session
from tui.app import UnmaskApp
from tui.masque.assist import AssistScreen
from tui.masque.table import MasqueTableScreen, TableNoteDialog
from tui.storage import load_session, save_session

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
CONFIG = {"red_death": 2, "table": True, "players": ["Ann", "Bob", "Me", "Dee"], "me": "Me"}
LOG = [
    {"type": "rumor", "card": "12:00 black"},
    {"type": "draw", "by": "Ann"}, {"type": "draw", "by": "Ann"}, {"type": "draw", "by": "Ann"},
    {"type": "draw", "by": "Bob"}, {"type": "draw", "by": "Dee"},
    {"type": "ask", "by": "Bob", "target": "Ann", "slot": "12:30", "matched": True, "offered": 1, "how": "take",
     "action": "Threaten"},
    {"type": "ask", "by": "Me", "target": "Ann", "slot": "12:10", "matched": False, "offered": 2, "how": "look",
     "card": "12:40 white", "action": "Flirt"},
]


async def _table(pilot) -> None:
    """Open the table from the assistant and wait for the answer."""
    await pilot.pause(0.3)
    await pilot.app.workers.wait_for_complete()
    await pilot.press("t")
    await pilot.pause(0.3)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause(0.3)


@pytest.mark.parametrize("size", SIZES)
def test_masque_table_view(snap_compare, size):
    save_session(Session(game="masque", mode="assist", config=dict(CONFIG), log=list(LOG)), "masque-table-snap")
    app = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-table-snap")
    assert snap_compare(app, terminal_size=size, run_before=_table)


def test_the_table_view_answers_who_can_still_hold_a_slot():
    from solvers.masque.solver import solve
    from tui.masque.table import table_text

    text = table_text(solve(CONFIG, LOG), wide=True, slot="12:30").plain
    assert "Who can hold a 12:30 card: Bob (surely), Dee" in text  # Ann's one 12:30 card went to Bob


async def _tap(pilot, *selectors: str) -> None:
    for sel in selectors:
        await pilot.click(sel)
        await pilot.pause(0.05)


@run_async(timeout=120)
async def test_a_flirt_note_by_taps_only():
    app = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-table-taps")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        assist = app.screen
        assert isinstance(assist, AssistScreen)
        await _tap(pilot, "#mq-tools-4")  # Table (t)
        assert isinstance(app.screen, MasqueTableScreen)
        await _tap(pilot, "#mt-start")  # 4 players, my seat 1, default names
        assert assist.config["table"] and assist.config["players"] == ["Me", "Seat 2", "Seat 3", "Seat 4"]
        await pilot.pause(0.2)
        # Seat 2 draws a card, then my Flirt names 12:30: no card of it; I see 12:10 blue
        await _tap(pilot, "#mt-note")
        assert isinstance(app.screen, TableNoteDialog)
        await _tap(pilot, "#mt-pick-kind-7", "#mt-pick-by-1", "#mt-dlg-save")
        await pilot.pause(0.3)
        assert assist.entries == [{"type": "draw", "by": "Seat 2"}]
        await _tap(pilot, "#mt-note", "#mt-pick-by-0", "#mt-pick-target-1", "#mt-pick-slot-3", "#mt-pick-matched-1")
        app.screen.query_one("#mt-dlg-body").scroll_end(animate=False)
        await pilot.pause(0.2)
        await _tap(pilot, "#mt-pick-cslot-1", "#mt-pick-room-1", "#mt-dlg-save")
        await pilot.pause(0.3)
        await app.workers.wait_for_complete()
        await pilot.pause(0.2)
        assert assist.entries[-1] == {"type": "ask", "by": "Me", "target": "Seat 2", "slot": "12:30", "matched": False,
                                      "offered": 1, "how": "look", "action": "Flirt", "card": "12:10 blue"}
        assert load_session(assist.session_id).log == assist.entries
        seat2 = assist.result["table"]["players"][1]
        assert seat2["cards"] == 1 and seat2["holds"]["12:10"] > 0.999 and seat2["holds"]["12:30"] == 0.0
        assert "12:10 blue" in assist.result["certain"]["safe"]
        assert isinstance(app.screen, MasqueTableScreen)
        assert "Seat 2  1" in str(app.screen.query_one("#mt-table").render())


@run_async(timeout=120)
async def test_an_impossible_table_note_is_refused_with_its_reason_and_changes_nothing():
    save_session(Session(game="masque", mode="assist", config=dict(CONFIG), log=list(LOG)), "masque-table-bad")
    app = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-table-bad")
    async with app.run_test(size=(120, 40)) as pilot:
        await _table(pilot)
        assist = app.screen_stack[-2]
        assert isinstance(assist, AssistScreen)
        before = list(assist.entries)
        # Dee holds one card: she cannot offer two of 12:50
        bad = {"type": "ask", "by": "Ann", "target": "Dee", "slot": "12:50", "matched": True, "offered": 2,
               "how": "look"}
        assert assist.add_note(bad) is False
        await pilot.pause(0.2)
        assert assist.entries == before and load_session(assist.session_id).log == before
        messages = [n.message for n in app._notifications]
        assert any("Dee holds 1 Rumor card by the notes, so Dee cannot have offered 2" in m for m in messages)


@run_async(timeout=180)
async def test_the_table_note_dialog_cancels_three_ways_and_changes_nothing():
    """Esc, Cancel by key and a tap on Cancel each close the table note dialog: the session file is
    byte-equal, the table screen is back with the focus where it was (80x24, picks changed first)."""
    from tui_helpers import cancel_three_ways

    from tui.storage import session_path

    sid = "masque-table-cancel"
    save_session(Session(game="masque", mode="assist", config=dict(CONFIG), log=list(LOG)), sid)
    app = UnmaskApp(bot_delay=0, start="assist:masque", session_id=sid)
    async with app.run_test(size=(80, 24)) as pilot:
        await _table(pilot)
        table = app.screen
        assert isinstance(table, MasqueTableScreen)
        assist = app.screen_stack[-2]

        async def open_note() -> None:
            await pilot.press("n")
            await pilot.pause(0.1)
            assert isinstance(app.screen, TableNoteDialog)
            await _tap(pilot, "#mt-pick-kind-7", "#mt-pick-by-1")  # a whole note picked (Bob drew), then cancelled

        def state() -> tuple:
            return session_path(sid).read_bytes(), repr(assist.config), repr(assist.entries)

        await cancel_three_ways(pilot, open_note, "#mt-dlg-cancel", state)
        assert app.screen is table


def test_the_table_view_says_when_the_belief_is_not_exact(monkeypatch):
    """Past the state limit the view shows no chances and says from which entry and what is left out."""
    import solvers.masque.table as table_module
    from solvers.masque.solver import solve
    from tui.masque.table import table_text

    monkeypatch.setattr(table_module, "MAX_STATES", 0)
    text = table_text(solve(CONFIG, LOG), wide=True, slot="12:30").plain
    assert "Not exact: from entry #1 on" in text and "chances by slot are left out" in text
    ann = next(line for line in text.splitlines() if line.startswith("Ann"))
    assert ann.split()[2:8] == ["?"] * 6 and "Who can hold a 12:30 card" not in text
