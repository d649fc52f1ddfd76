"""Whole games through the UI only: one by keys, one by mouse; illegal moves; autosave and resume."""

from __future__ import annotations

import json

from tui_helpers import advance, human_choice, new_table, record_notes, run_async

from engine.clue import load_board
from tui.app import UnmaskApp
from tui.clue import dialogs as d
from tui.clue.end import EndScreen
from tui.clue.model import move_options
from tui.clue.play import PlayScreen
from tui.screens.resume import ResumeScreen
from tui.storage import load_session, save_session, sessions_dir
from tui.widgets.confirm import ConfirmDialog

KEYS = {"roll": "r", "passage": "g", "stay": "y", "power": "x", "end": "e", "look_centre": "c",
        "draw": "d", "decline": "n"}


def _index(options: list, value) -> int:
    return [o[1] for o in options].index(value)


def wanted(view: dict) -> tuple:
    """The test player's next action (a view-reading strategy; the app never sees it)."""
    return human_choice(view)


async def _pick_by_keys(pilot, index: int) -> None:
    await pilot.press("home", *(["right"] * index), "enter")


async def act_by_keys(pilot, app: UnmaskApp, view: dict, action: tuple) -> None:
    """Do ``action`` with key presses only."""
    board = load_board(view["board"])
    screen = app.screen
    kind = action[0]
    if isinstance(screen, d.PickOneDialog):
        options = screen.options()
        await _pick_by_keys(pilot, _index(options, action))
        return
    if kind in KEYS:
        await pilot.press(KEYS[kind])
    elif kind == "play":
        await pilot.press("v")
    elif kind == "move":
        await pilot.press("m")
        await pilot.pause()
        nodes = [o.node for o in move_options(view, board)]
        await _pick_by_keys(pilot, nodes.index(action[1]))
    elif kind == "rumor":
        await pilot.press("u")
        await pilot.pause()
        await _pick_by_keys(pilot, board.suspects.index(action[1]))
        await _pick_by_keys(pilot, board.weapons.index(action[2]))
        await pilot.press("enter")
    elif kind == "accuse":
        await pilot.press("a")
        await pilot.pause()
        await _pick_by_keys(pilot, board.suspects.index(action[1]))
        await _pick_by_keys(pilot, board.weapons.index(action[2]))
        await _pick_by_keys(pilot, board.locations.index(action[3]))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
    else:  # a question whose dialog was closed: reopen it by its key
        await pilot.press({"show": "s", "teleport": "t", "peek": "k", "look_aside": "o"}[kind])
        await pilot.pause()
        await act_by_keys(pilot, app, view, action)


async def act_by_mouse(pilot, app: UnmaskApp, view: dict, action: tuple) -> None:
    """Do ``action`` with mouse clicks only."""
    board = load_board(view["board"])
    screen = app.screen
    kind = action[0]

    async def click(selector: str) -> None:
        await pilot.pause()
        assert await pilot.click(selector), f"could not click {selector}"

    if isinstance(screen, d.PickOneDialog):
        await click(f"#{screen.dialog_id}-opt-{_index(screen.options(), action)}")
        return
    if kind == "move" and action[1] <= board.centre:
        await click(f"#loc-{action[1]}")  # the place itself, on the board
    elif kind == "move":
        await click("#act-move")
        nodes = [o.node for o in move_options(view, board)]
        await click(f"#move-opt-{nodes.index(action[1])}")
    elif kind == "rumor":
        await click("#act-rumor")
        await click(f"#rumor-suspect-{board.suspects.index(action[1])}")
        await click(f"#rumor-weapon-{board.weapons.index(action[2])}")
        await click("#rumor-go")
    elif kind == "accuse":
        await click("#act-accuse")
        await click(f"#accuse-suspect-{board.suspects.index(action[1])}")
        await click(f"#accuse-weapon-{board.weapons.index(action[2])}")
        await click(f"#accuse-location-{board.locations.index(action[3])}")
        await click("#accuse-go")
        await click("#confirm-yes")
    elif kind in ("show", "teleport", "peek", "look_aside"):
        await click(f"#act-{kind}")
        await pilot.pause()
        await act_by_mouse(pilot, app, view, action)
    else:
        await click(f"#act-{kind}")


async def play_to_the_end(pilot, app: UnmaskApp, table, act) -> int:
    """Play seat 0 until the end screen shows; returns the number of human actions."""
    done = 0
    for _ in range(1500):
        await pilot.pause()
        if isinstance(app.screen, EndScreen):
            return done
        view = table.view(0)
        if view["to_act"] != 0:
            continue  # bots are instant (delay 0); the end screen is on its way
        before = len(table.log)
        await act(pilot, app, view, wanted(view))
        await pilot.pause()
        assert len(table.log) > before, f"the UI did not submit {wanted(view)} (screen {app.screen})"
        done += 1
    raise AssertionError("the game did not reach the end screen")


@run_async
async def test_whole_game_by_keys_only():
    table = new_table(3, seed=23)  # a short game that still needs rumors, a teleport and an accusation
    app = UnmaskApp(table=table, session_id="keys", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        moves = await play_to_the_end(pilot, app, table, act_by_keys)
        assert moves > 3
        assert table.is_over()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("h")
        await pilot.pause(0.1)
        assert type(app.screen).__name__ == "HomeScreen"


@run_async
async def test_whole_game_by_mouse_only():
    table = new_table(3, seed=75)  # a short game with a passage, a Raven, a teleport and a Plot offer
    app = UnmaskApp(table=table, session_id="mouse", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        moves = await play_to_the_end(pilot, app, table, act_by_mouse)
        assert moves > 3
        assert isinstance(app.screen, EndScreen)
        assert await pilot.click("#end-home")
        await pilot.pause(0.1)
        assert type(app.screen).__name__ == "HomeScreen"


def at_my_first_turn(session_id: str) -> tuple:
    """The seed-7 table at the start of seat 0's turn, and the app opened on it."""
    table = new_table(3, seed=7)
    advance(table, lambda v: v["to_act"] == 0 and v["phase"] == "start")
    return table, UnmaskApp(table=table, session_id=session_id, bot_delay=0)


@run_async
async def test_illegal_action_notifies_and_changes_nothing():
    table, app = at_my_first_turn("illegal")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        notes = record_notes(app)
        log, view = list(table.log), table.view(0)
        await pilot.press("e")  # end turn before moving
        await pilot.pause()
        assert "You cannot end your turn yet." in notes
        await pilot.click("#loc-0")  # walk somewhere without rolling
        await pilot.pause()
        assert "Roll the dice before you move." in notes
        await pilot.press("a")  # accuse outside the centre
        await pilot.pause()
        assert any("accuse" in n for n in notes[2:])
        assert table.log == log and table.view(0) == view
        assert isinstance(app.screen, PlayScreen)


@run_async
async def test_undo_takes_back_the_last_action():
    table, app = at_my_first_turn("undo")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = list(table.log)
        await pilot.press("r")
        await pilot.pause()
        assert len(table.log) > len(log)
        await pilot.press("z")
        await pilot.pause()
        assert table.log == log
        assert load_session("undo").log == log


@run_async
async def test_autosave_then_resume_reopens_the_same_position():
    table = new_table(3, seed=3)
    app = UnmaskApp(table=table, session_id="saved-game", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(6):
            await pilot.pause()
            view = table.view(0)
            if view["to_act"] == 0:
                await act_by_keys(pilot, app, view, wanted(view))
        await pilot.pause()
        await pilot.press("2")  # the sheet tab; mark a cell of an unknown card
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        row = next(i for i, card in enumerate(load_board("red-keep").cards) if card not in screen._holder)
        sheet = screen.query_one("#sheet")
        first = sheet.ordered_columns[0].get_render_width(sheet)
        await pilot.click("#sheet", offset=(first + 1, row + 1))  # the "You" column of that card
        await pilot.pause()
        assert screen.marks
        marks = dict(screen.marks)
        expected_log = list(table.log)
        expected_view = table.view(0)
    assert load_session("saved-game").log == expected_log

    app2 = UnmaskApp(start="resume", bot_delay=0)
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        assert isinstance(app2.screen, ResumeScreen)
        assert await pilot.click("#resume-open-0")
        await pilot.pause(0.1)
        screen = app2.screen
        assert isinstance(screen, PlayScreen)
        assert screen.table.log == expected_log
        assert screen.table.view(0) == expected_view
        assert screen.marks == marks


@run_async
async def test_damaged_sessions_are_listed_and_cannot_crash():
    folder = sessions_dir()
    (folder / "broken.json").write_text("{ not json", encoding="utf-8")
    good = new_table(3, seed=4)
    advance(good, lambda v: v["to_act"] == 0 and v["phase"] == "start")
    session = good.to_session()
    session.log = [[2, ["roll"]], *session.log]  # a move out of turn: only replaying finds it
    save_session(session, "bad-log")
    (folder / "future.json").write_text(json.dumps({"format": "unmask-session/9", "game": "clue"}), encoding="utf-8")

    app = UnmaskApp(start="resume", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        notes = record_notes(app)
        text = " ".join(str(s.render()) for s in app.screen.query(".resume-info"))
        assert "broken" in text and "not valid JSON" in text
        assert "newer unmask" in text
        buttons = {b.id: b for b in app.screen.query("Button")}
        damaged = [b for b in buttons.values() if (b.id or "").startswith("resume-open-") and b.disabled]
        assert len(damaged) == 2
        row = next(r for r in app.screen.query(".resume-row") if r.session_id == "bad-log")
        await pilot.click(f"#{row.query_one('.resume-open').id}")
        await pilot.pause()
        assert any("not their turn" in n for n in notes)
        assert isinstance(app.screen, ResumeScreen)
        # deleting the damaged file works too
        row = next(r for r in app.screen.query(".resume-row") if r.session_id == "broken")
        await pilot.click(f"#{row.query_one('.resume-delete').id}")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause(0.1)
        assert not (folder / "broken.json").exists()


@run_async
async def test_click_on_a_far_place_walks_toward_it():
    board = load_board("red-keep")

    def far_move(v: dict) -> bool:
        if v["to_act"] != 0 or v["phase"] != "move":
            return False
        dests = {a[1] for a in v["legal"]}
        return any(n not in dests for n in range(board.centre))

    table = new_table(3, seed=9)
    assert advance(table, far_move)
    view = table.view(0)
    dests = {a[1] for a in view["legal"]}
    here = view["positions"][view["characters"][0]]
    target = next(n for n in range(board.centre) if n not in dests and n != here
                  and board.path_toward(here, n, view["steps"], frozenset(view["left"])) is not None)
    stop = board.path_toward(here, target, view["steps"], frozenset(view["left"]))
    app = UnmaskApp(table=table, session_id="toward", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = len(table.log)
        assert await pilot.click(f"#loc-{target}")
        await pilot.pause()
        assert table.log[before] == [0, ["move", stop]]
