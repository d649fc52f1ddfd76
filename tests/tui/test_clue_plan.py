"""Issue 23 finding 3: a board a player can plan on, by keys and by taps, at 80 x 24 and 120 x 40.

The places this roll reaches carry a mark ("◆" and the steps), not only a shade; every other place
its distance; the Plan tab lists every place with steps and turns and the route to the chosen one;
a tap on a place when you cannot move tells its route and changes nothing.
"""

from __future__ import annotations

import pytest
from tui_helpers import SIZES, advance, me_to_act, new_table, record_notes, run_async

from engine.clue.board import load_board
from engine.clue.plan import plan, steps_needed
from tui.app import UnmaskApp
from tui.clue import dialogs as d
from tui.clue.board import LocationCell


def route_sentence(board, route, long: bool = True) -> str:
    from tui.clue.model import route_sentence as sentence  # here: on old code every test fails on its own

    return sentence(board, route, long)


def _here(view: dict) -> int:
    return view["positions"][view["characters"][view["seat"]]]


def _table_at(want, seed: int = 2, board: str = "red-keep"):
    """A 3-player table played on until ``want`` holds for me: its board, the table, my view, my place."""
    table = new_table(3, seed=seed, board=board)
    assert advance(table, want)
    view = table.view(0)
    return load_board(board), table, view, _here(view)


def _cell_text(app, node: int) -> str:
    return app.screen.query_one(f"#loc-{node}", LocationCell).render().plain


@pytest.mark.parametrize("size", SIZES)
@run_async
async def test_places_this_roll_reaches_carry_a_mark_and_the_others_their_distance(size):
    board, table, view, here = _table_at(me_to_act("move"))
    left = frozenset(view["left"])
    reach = {a[1] for a in view["legal"] if a[1] <= board.centre}
    assert reach, "the test needs a roll that reaches a place"
    routes = plan(board, here)
    app = UnmaskApp(table=table, session_id="plan-marks", bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for node in range(board.centre + 1):
            text = _cell_text(app, node)
            cell = app.screen.query_one(f"#loc-{node}", LocationCell)
            if node in reach:
                assert f"◆{steps_needed(board, here, node, left)}" in text, text
                assert cell.has_class("-reachable")
            elif node != here:
                assert "◆" not in text
                route = routes[node]
                mark = "⇄" if route.by_passage and route.steps == 0 else f"→{route.steps}"
                assert mark in text, (board.short[node], text)


@run_async
async def test_the_move_dialog_says_how_many_steps_each_place_takes():
    board, table, view, here = _table_at(me_to_act("move"))
    left = frozenset(view["left"])
    app = UnmaskApp(table=table, session_id="plan-move", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause(0.1)
        assert isinstance(app.screen, d.MoveDialog)
        labels = [label for label, _ in app.screen.options()]
        for node in (a[1] for a in view["legal"] if a[1] <= board.centre):
            steps = steps_needed(board, here, node, left)
            assert f"◆ Enter {board.node_names[node]} ({steps} step" in "\n".join(labels), labels


@pytest.mark.parametrize("size", SIZES)
@run_async
async def test_the_plan_tab_lists_every_place_and_the_route_follows_the_cursor(size):
    board, table, _, here = _table_at(me_to_act("start"))
    routes = plan(board, here)
    app = UnmaskApp(table=table, session_id="plan-tab", bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("5")
        await pilot.pause(0.1)
        grid = app.screen.query_one("#plan")
        assert app.focused is grid
        rows = {int(k.value): [str(c) for c in grid.get_row(k)] for k in grid.rows}
        assert set(rows) == set(range(board.centre + 1)) - {here}
        for node, cells in rows.items():
            assert cells[1].strip() == board.short[node]
            assert (int(cells[2]), int(cells[3])) == (routes[node].steps, routes[node].turns)
        for _ in range(3):
            await pilot.press("down")
            await pilot.pause()
            node = int(grid.coordinate_to_cell_key((grid.cursor_row, 0)).row_key.value)
            shown = str(app.screen.query_one("#plan-route").render())
            assert route_sentence(board, routes[node], long=False) in shown.replace("\n", " "), shown


@pytest.mark.parametrize("size", SIZES)
@run_async
async def test_a_tap_on_a_place_when_you_cannot_move_tells_its_route_and_changes_nothing(size):
    board, table, _, here = _table_at(me_to_act("start"))
    target = next(n for n in range(board.centre + 1) if n != here)
    route = plan(board, here)[target]
    app = UnmaskApp(table=table, session_id="plan-tap", bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        notes = record_notes(app)
        before = len(table.log)
        assert await pilot.click(f"#loc-{target}")
        await pilot.pause()
        assert len(table.log) == before
        assert route_sentence(board, route) in notes, notes
        # The Plan tab, opened by a tap on its tab, shows the same place's route.
        assert await pilot.click("#side Tab#--content-tab-tab-plan")
        await pilot.pause(0.1)
        shown = str(app.screen.query_one("#plan-route").render()).replace("\n", " ")
        assert route_sentence(board, route, long=False) in shown, shown


@run_async
async def test_a_tap_on_a_plan_row_shows_that_route():
    board, table, _, here = _table_at(me_to_act("start"), seed=4, board="meereen")
    routes = plan(board, here)
    app = UnmaskApp(table=table, session_id="plan-row", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert await pilot.click("#side Tab#--content-tab-tab-plan")
        await pilot.pause(0.1)
        grid = app.screen.query_one("#plan")
        assert await pilot.click("#plan", offset=(4, 4))  # the header, then the fourth row
        await pilot.pause()
        assert grid.cursor_row == 3
        node = int(grid.coordinate_to_cell_key((3, 0)).row_key.value)
        shown = str(app.screen.query_one("#plan-route").render()).replace("\n", " ")
        assert route_sentence(board, routes[node], long=False) in shown, shown


@run_async
async def test_a_tap_after_moving_tells_the_route_without_saying_roll_first():
    """Found in tmux: after moving, a tap on a place said "Roll the dice before you move." (wrong now)."""
    board, table, _, here = _table_at(lambda v: me_to_act("after")(v) and bool(v["dice"]))
    target = next(n for n in range(board.centre + 1) if n != here)
    app = UnmaskApp(table=table, session_id="plan-after", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        notes = record_notes(app)
        before = len(table.log)
        assert await pilot.click(f"#loc-{target}")
        await pilot.pause()
        assert len(table.log) == before
        assert notes == [route_sentence(board, plan(board, here)[target])], notes


def test_a_tap_on_a_place_no_single_path_leads_to_walks_the_best_route():
    """Found in tmux: 2 steps from the Great Pyramid, a tap on Meereen location 5 (no path from the
    centre) said "You cannot move from here with this roll"; it now walks toward the route's first stop."""
    from tui.clue.model import walk_target

    board = load_board("meereen")
    centre, five = board.centre, board.location_node("Meereen location 5")
    view = {"positions": {"Hizdahr zo Loraq": centre}, "characters": ["Hizdahr zo Loraq"], "seat": 0,
            "steps": 2, "left": []}
    first = plan(board, centre)[five].legs[0].to
    stop = walk_target(view, board, five)
    assert stop is not None and stop in board.destinations(centre, 2, frozenset())
    assert board.distance(stop, first) == board.distance(centre, first) - 2
