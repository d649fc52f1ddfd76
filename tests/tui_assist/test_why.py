"""The Why view of the Clue assistant: tap a ✓ or ✗ of the sheet, see the notes that prove it, tap a
note to jump to it and edit it; Esc goes back. Snapshots at the SSH size and a wide one."""

from __future__ import annotations

from assist_helpers import L, S, W, sample_session, settle, sync
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


@sync
async def test_y_explains_the_focused_sheet_card_not_a_note_tapped_earlier() -> None:
    """Issue 23 finding 7: tap a log row, then a sheet cell, press y: the card is explained, not the row."""
    app = AssistApp("why-focus", sample_session())
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.click("#ax-entry-0")
        await settle(pilot)
        assert app.screen._selected() == 0
        await tap_cell(pilot, W[4], "Bob")  # War Axe: only a chance at Bob, so the tap opens nothing
        assert not isinstance(app.screen, WhyScreen)
        assert app.focused is app.screen.query_one("#ax-sheet")
        await pilot.press("y")
        await settle(pilot)
        why = app.screen
        assert isinstance(why, WhyScreen)
        assert why.resting_on is None
        assert why.shown and all(f[1] == W[4] for f in why.shown)
        await pilot.press("escape")
        await settle(pilot)
        # Back on the log, y explains the selected note again.
        await pilot.click("#ax-entry-2")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, WhyScreen) and app.screen.resting_on == 2


@sync
async def test_the_why_footer_follows_the_highlighted_note() -> None:
    """Issue 23 finding 7: the line under the Why list named a note highlighted earlier."""
    app = AssistApp("why-foot", sample_session())
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        app.screen.open_why("Why is it certain?")  # every certain fact, with its notes
        await settle(pilot)
        why = app.screen
        assert isinstance(why, WhyScreen)
        for _ in range(200):
            if why.done:
                break
            await pilot.pause(0.05)
        ol = why.query_one("#why-list")
        notes = [(i, why._note_of(o.id)) for i, o in enumerate(ol.options) if why._note_of(o.id) is not None]
        distinct = {}
        for i, note in notes:
            distinct.setdefault(note, i)
        assert len(distinct) >= 2, notes
        (first, i_first), (second, i_second) = list(distinct.items())[:2]
        ol.highlighted = i_first
        await settle(pilot)
        assert f"note #{first + 1}" in str(why.query_one("#why-rests").render())
        ol.highlighted = i_second
        await pilot.pause()
        why._show_rests(first, [])  # the first note's answer arriving late, as under load
        rests = str(why.query_one("#why-rests").render())
        assert f"#{first + 1}" not in rests, rests
        await settle(pilot)
        rests = str(why.query_one("#why-rests").render())
        assert f"note #{second + 1}" in rests, rests


@sync
async def test_a_cited_note_that_is_not_needed_names_the_proof_that_remains() -> None:
    """Issue 23 finding 7: "#3 proves it" sat beside "Without note #3 everything certain stays certain"
    when a second note proved the same fact. The line under the list now names the other proof."""
    from assist_helpers import sample_log

    again = {"type": "rumor", "by": "Ann", "cards": [S[3], W[2], L[7]], "passed": [], "shown_by": "Bob", "card": W[2]}
    app = AssistApp("why-agree", sample_session([*sample_log(), again]))
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await tap_cell(pilot, W[2], "Bob")  # Arakh at Bob: shown to me twice, #3 and #6
        why = app.screen
        assert isinstance(why, WhyScreen)
        for _ in range(200):
            if why.done:
                break
            await pilot.pause(0.05)
        prompts = [str(o.prompt).strip() for o in why.query_one("#why-list").options]
        cited = [p.split()[0] for p in prompts[1:3] if p.startswith("#")]
        assert cited and cited[0] in ("#3", "#6"), prompts
        other = "#6" if cited[0] == "#3" else "#3"
        for _ in range(100):
            rests = str(why.query_one("#why-rests").render())
            if "…" not in rests and "Tap a note" not in rests:
                break
            await pilot.pause(0.05)
        assert "everything certain stays certain" not in rests, rests
        assert f"Without note {cited[0]}, Arakh is at Bob still follows from {other}" in rests, rests


def test_the_opening_row_of_a_why_list_is_the_opening_not_note_2():
    """Issue 23 finding 7: the opening's row ("note-0--1") was read as note 1, so the line under the
    list spoke of "note #2" and a tap on the opening opened note #2 for editing."""
    assert WhyScreen._note_of("note-0--1") == -1
    assert WhyScreen._note_of("note-3-12") == 12
    assert WhyScreen._fact_index("note-3--1") == 3
