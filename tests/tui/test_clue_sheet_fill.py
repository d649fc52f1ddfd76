"""The Clue play sheet as a paper sheet (issue 23, finding 2).

What you saw happen is on it by itself (a pass is ✗ for the rumor's three cards), drawn apart from
your own marks; your marks go in by keys (v ✓, x ✗, ?, a capital letter, Delete) or by taps (a tap
cycles); they are saved with the game, and a damaged mark in a file is left out with a notice. The
solver's help is a setting, off by default.
"""

from __future__ import annotations

from contextlib import asynccontextmanager

from tui_helpers import advance, new_table, record_notes, run_async, snapshot_test

from engine.clue import load_board
from tui.app import UnmaskApp
from tui.clue import model as m
from tui.clue.play import PlayScreen
from tui.screens.resume import ResumeScreen
from tui.screens.settings import SettingsScreen
from tui.storage import load_session, save_session


def _passed(v: dict) -> tuple[int, list[str]] | None:
    """A player (not you) who passed on a rumor, and that rumor's cards."""
    rumor = None
    for ev in v["events"]:
        if ev["t"] == "rumor":
            rumor = ev["cards"]
        elif ev["t"] == "pass" and rumor and ev["seat"] != v["seat"]:
            return ev["seat"], rumor
    return None


def _cell(screen: PlayScreen, card: str, col: int) -> str:
    return str(screen.query_one("#sheet").get_cell(card, f"c{col}")).strip()


def _open_cards(screen: PlayScreen) -> list[str]:
    """Cards nobody is known to hold, in sheet order (their cells take marks)."""
    return [c for c in screen.board.cards if screen._holder.get(c) is None]


@asynccontextmanager
async def _sheet(table, session_id: str, size: tuple[int, int] = (80, 24)):
    """The play screen of ``table`` after its first draw, autosaving to ``session_id``: (pilot, screen)."""
    app = UnmaskApp(table=table, session_id=session_id, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.2)
        assert isinstance(app.screen, PlayScreen)
        yield pilot, app.screen


def _passed_table():
    table = new_table(4, seed=5)
    assert advance(table, lambda v: _passed(v) is not None and v["to_act"] == 0)
    return table


@run_async(timeout=180)
async def test_a_pass_is_a_cross_on_the_sheet_without_any_setting():
    """ "Bran could not show a card" for three cards: Bran's three cells are ✗, facts, not yours."""
    table = _passed_table()
    seat, cards = _passed(table.view(0))
    async with _sheet(table, "sheet-fill", (120, 40)) as (pilot, screen):
        assert screen.app.sheet_help is False, "the solver's help is off by default in play"
        open_cards = [c for c in cards if not isinstance(screen._holder.get(c), int)]
        assert open_cards
        assert all(_cell(screen, c, seat) == "✗" for c in open_cards), "a pass is ✗"
        rows = {r.card: r for r in m.sheet_rows(screen.view, screen.board, screen._holder, screen._candidates,
                                                screen.marks, screen._lacks)}
        assert all(rows[c].source[seat] == "seen" for c in open_cards)
        # A seen fact cannot be overwritten by a mark.
        await pilot.press("2")
        sheet = screen.query_one("#sheet")
        sheet.move_cursor(row=screen.board.cards.index(open_cards[0]), column=seat + 1)
        await pilot.press("v")
        await pilot.pause()
        assert screen.marks.get(f"{open_cards[0]}|{seat}") is None
        assert _cell(screen, open_cards[0], seat) == "✗"


@run_async(timeout=180)
async def test_keys_put_every_mark_and_delete_clears():
    table = new_table(3, seed=3)
    async with _sheet(table, "sheet-keys") as (pilot, screen):
        card = _open_cards(screen)[0]
        await pilot.press("2")
        sheet = screen.query_one("#sheet")
        assert sheet.has_focus
        sheet.move_cursor(row=screen.board.cards.index(card), column=2)  # Bran's column (seat 1)
        log = list(table.log)
        for key, mark in (("v", "✓"), ("x", "✗"), ("question_mark", "?"), ("B", "B"), ("C", "C")):
            await pilot.press(key)
            await pilot.pause()
            assert screen.marks.get(f"{card}|1") == mark, key
            assert _cell(screen, card, 1) == mark
        await pilot.press("delete")
        await pilot.pause()
        assert f"{card}|1" not in screen.marks
        assert _cell(screen, card, 1) == ""
        assert table.log == log, "a mark is no move: x and v on the sheet never act"


@run_async(timeout=180)
async def test_taps_alone_cycle_a_cell_through_the_marks():
    table = new_table(3, seed=3)
    async with _sheet(table, "sheet-taps") as (pilot, screen):
        assert await pilot.click("#side Tab#--content-tab-tab-sheet")
        await pilot.pause()
        card = _open_cards(screen)[0]
        row = screen.board.cards.index(card)
        sheet = screen.query_one("#sheet")
        first = sheet.ordered_columns[0].get_render_width(sheet)
        width = sheet.ordered_columns[1].get_render_width(sheet)
        seen = []
        for _ in range(4):
            assert await pilot.click("#sheet", offset=(first + width + 1, row + 1))  # the second seat's column
            await pilot.pause()
            seen.append(screen.marks.get(f"{card}|1", ""))
        assert seen == ["✓", "✗", "?", ""]
        assert await pilot.click("#sheet", offset=(first + width + 1, row + 1))
        await pilot.pause()
        assert load_session("sheet-taps").extra["clue_marks"] == {f"{card}|1": "✓"}, "each mark is saved at once"


@run_async(timeout=180)
async def test_marks_are_saved_with_the_game_and_come_back_on_resume():
    table = new_table(3, seed=3)
    async with _sheet(table, "sheet-saved") as (pilot, screen):
        cards = _open_cards(screen)
        await pilot.press("2")
        sheet = screen.query_one("#sheet")
        for card, col, key in ((cards[0], 1, "x"), (cards[1], 2, "M"), (cards[2], 3, "question_mark")):
            sheet.move_cursor(row=screen.board.cards.index(card), column=col + 1)
            await pilot.press(key)
            await pilot.pause()
        marks = dict(screen.marks)
    assert marks == {f"{cards[0]}|1": "✗", f"{cards[1]}|2": "M", f"{cards[2]}|3": "?"}
    assert load_session("sheet-saved").extra["clue_marks"] == marks

    app2 = UnmaskApp(start="resume", bot_delay=0)
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        assert isinstance(app2.screen, ResumeScreen)
        assert await pilot.click("#resume-open-0")
        await pilot.pause(0.2)
        screen = app2.screen
        assert isinstance(screen, PlayScreen)
        assert screen.marks == marks
        assert _cell(screen, cards[1], 2) == "M"


def _saved_with(session_id: str, marks: object | None) -> None:
    session = new_table(3, seed=3).to_session()
    if marks is not None:
        session.extra["clue_marks"] = marks
    save_session(session, session_id)


async def _resume(pilot, app) -> PlayScreen:
    await pilot.pause(0.1)
    assert await pilot.click("#resume-open-0")
    await pilot.pause(0.2)
    assert isinstance(app.screen, PlayScreen)
    return app.screen


@run_async(timeout=120)
async def test_an_old_session_without_marks_loads_with_a_blank_sheet():
    _saved_with("old-game", None)
    app = UnmaskApp(start="resume", bot_delay=0)
    notes = record_notes(app)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _resume(pilot, app)
        assert screen.marks == {}
    assert not any("sheet" in n.lower() for n in notes)


@run_async(timeout=120)
async def test_damaged_marks_are_left_out_with_a_notice_and_the_good_ones_kept():
    board = load_board("red-keep")
    good = {f"{board.weapons[0]}|1": "✓", f"{board.suspects[0]}|3": "Q"}
    _saved_with("damaged-marks", {**good, "no card|1": "✗", f"{board.weapons[1]}|9": "✓",
                                  f"{board.weapons[2]}|0": "maybe", f"{board.weapons[3]}|x": "?", "5": 7})
    app = UnmaskApp(start="resume", bot_delay=0)
    notes = record_notes(app)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _resume(pilot, app)
        assert screen.marks == good
        assert any("5 sheet marks" in n for n in notes), notes


@run_async(timeout=120)
async def test_marks_that_are_not_a_table_are_dropped_with_a_notice():
    _saved_with("marks-list", ["✓", "✗"])
    app = UnmaskApp(start="resume", bot_delay=0)
    notes = record_notes(app)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _resume(pilot, app)
        assert screen.marks == {}
        assert any("1 sheet mark " in n for n in notes), notes


@run_async(timeout=240)
async def test_the_solvers_help_is_a_setting_off_by_default():
    """Off: only what you saw and your marks. On (Settings): the exact solver's certain facts, in their own colour."""
    table = _passed_table()
    async with _sheet(table, "sheet-help", (120, 40)) as (pilot, screen):
        app = screen.app

        def solver_cells() -> int:
            rows = m.sheet_rows(screen.view, screen.board, screen._holder, screen._candidates, screen.marks,
                                screen._lacks, screen._help())
            return sum(s == "solver" for r in rows for s in r.source)

        await app.workers.wait_for_complete()
        assert solver_cells() == 0
        app.action_settings()
        await pilot.pause(0.2)
        assert isinstance(app.screen, SettingsScreen)
        await pilot.click("#settings-sheet-1")
        await pilot.pause(0.1)
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert app.screen is screen
        for _ in range(50):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if screen._solver_help is not None:
                break
        assert solver_cells() > 0, "the solver deduces more than what you saw"
        rows = m.sheet_rows(screen.view, screen.board, screen._holder, screen._candidates, screen.marks,
                            screen._lacks, screen._solver_help)
        row, col = next((r, i) for r in rows for i, s in enumerate(r.source) if s == "solver")
        assert _cell(screen, row.card, col) == row.cells[col]
        app.set_sheet_help(False)
        await pilot.pause()
        assert solver_cells() == 0


# ----------------------------------------------------------------------------- snapshots

#: The sheet tab after a pass (Bran's ✗ facts in red) with marks of mine put by keys (in yellow):
#: ✓ and ✗ on the second column, a ? and a note letter below, and the legend under the sheet.
test_sheet_snapshot = snapshot_test(_passed_table, "2", "right", "down", "down", "down", "down", "v", "right",
                                    "x", "down", "question_mark", "right", "B", step=0.1)
