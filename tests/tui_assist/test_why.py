"""The Why view of the Clue assistant: tap a ✓ or ✗ of the sheet, see the notes that prove it, tap a
note to jump to it and edit it; Esc goes back. Snapshots at the SSH size and a wide one."""

from __future__ import annotations

from assist_helpers import W, sample_session, settle, sync
from textual.pilot import Pilot

from tui.assist.why import WhyScreen
from tui.clue.assist import AssistApp, ClueAssistScreen
from tui.clue.assist_dialogs import EntryDialog

SSH = (80, 24)
WIDE = (120, 40)


async def tap_cell(pilot: Pilot, card: str, holder: str) -> None:
    """One tap on the sheet cell of ``card`` at ``holder`` (scrolled into view first)."""
    sheet = pilot.app.screen.query_one("#ax-sheet")
    coord = sheet.get_cell_coordinate(card, holder)
    sheet.scroll_to_region(sheet._get_cell_region(coord), animate=False)
    await pilot.pause()
    region = sheet._get_cell_region(coord)
    x = region.x + 2 - int(sheet.scroll_offset.x)
    y = region.y - int(sheet.scroll_offset.y)
    await pilot.click("#ax-sheet", offset=(x, y))
    await settle(pilot)


async def _why_open(pilot: Pilot) -> None:
    await settle(pilot)
    await tap_cell(pilot, W[2], "Bob")  # Bob showed me the Arakh: a ✓


def test_why_view_ssh(snap_compare) -> None:
    assert snap_compare(AssistApp("why", sample_session()), terminal_size=SSH, run_before=_why_open)


def test_why_view_wide(snap_compare) -> None:
    assert snap_compare(AssistApp("why", sample_session()), terminal_size=WIDE, run_before=_why_open)


@sync
async def test_a_tap_on_a_certain_mark_explains_it_and_a_tap_on_a_note_opens_it_for_editing() -> None:
    app = AssistApp("why-tap", sample_session())
    async with app.run_test(size=WIDE) as pilot:
        await _why_open(pilot)
        why = app.screen
        assert isinstance(why, WhyScreen)
        prompts = [str(o.prompt) for o in why.query_one("#why-list").options]
        assert prompts[0] == "• Arakh is at Bob. Why:"
        assert prompts[1].strip() == "#3 Ann asked Tyrion Lannister, Arakh and Privy: Bob showed Arakh"
        assert prompts[2].strip() == "so Arakh is at Bob."
        rests = str(why.query_one("#why-rests").render())
        assert "Without note #3" in rests and "Arakh is at Bob" in rests
        await pilot.click("#why-list", offset=(6, 1))  # the note
        await settle(pilot)
        assert isinstance(app.screen, EntryDialog)
        assert app.screen_stack[-2]._selected() == 2


@sync
async def test_escape_returns_to_the_assistant_unchanged() -> None:
    app = AssistApp("why-esc", sample_session())
    async with app.run_test(size=WIDE) as pilot:
        await _why_open(pilot)
        assert isinstance(app.screen, WhyScreen)
        before = list(app.screen_stack[-2].entries)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, WhyScreen) and app.screen.entries == before


@sync
async def test_a_tap_on_a_chance_opens_nothing_and_enter_explains_the_whole_row() -> None:
    app = AssistApp("why-row", sample_session())
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await tap_cell(pilot, W[4], "Bob")  # War Axe: only a chance at Bob
        assert not isinstance(app.screen, WhyScreen)
        await pilot.press("enter")  # the row of the card under the cursor
        await settle(pilot)
        assert isinstance(app.screen, WhyScreen)
        facts = app.screen.shown
        assert facts and all(f[1] == W[4] for f in facts)


@sync
async def test_what_rests_on_a_selected_note() -> None:
    """Select note #3 (Bob showed me the Arakh), press y: the facts that would fall without it."""
    app = AssistApp("why-rests", sample_session())
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.click("#ax-entry-2")
        await settle(pilot)
        assert app.screen._selected() == 2
        await pilot.press("y")
        await settle(pilot)
        why = app.screen
        assert isinstance(why, WhyScreen)
        assert why.shown == [("at", W[2], "Bob"), ("not", W[2], "Cat"), ("not", W[2], "envelope")]


@sync
async def test_the_clue_assistant_loads_cp_sat_while_the_sheet_is_read(monkeypatch) -> None:
    """The Why view's CP-SAT cores are loaded in a worker when the assistant opens, so the first
    "why" of a row does not wait for the import (benchmarks/cold.py)."""
    from solvers import cpsat

    monkeypatch.setattr(cpsat, "_loaded", None)
    app = AssistApp("why-warm", sample_session())
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert cpsat._loaded is not None
        assert isinstance(app.screen, ClueAssistScreen)
