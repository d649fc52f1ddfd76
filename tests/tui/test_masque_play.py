"""Masque play screen: snapshots (80x24, 120x40) and a whole game by mouse only."""

from __future__ import annotations

import pytest
from tui_helpers import run_async

from engine.masque import MasqueConfig
from solvers.bots import make_bot
from solvers.table import Table
from tui.app import UnmaskApp
from tui.masque.dialogs import ActionDialog, PlanDialog
from tui.masque.end import EndScreen
from tui.masque.play import PlayScreen
from tui.storage import load_session

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
SEED = 3


def new_table(seed: int = SEED) -> Table:
    return Table("masque", MasqueConfig(players=4), seed, ["human", "heuristic", "heuristic", "random"])


def advance(table: Table, want) -> Table:
    """Play seat 0 with a heuristic bot until ``want(view of seat 0)`` holds."""
    bot = make_bot("masque", "heuristic", 0, 99)
    for _ in range(5000):
        v = table.view(0)
        if want(v):
            return table
        assert not table.is_over()
        if table.to_act() == 0:
            table.submit(0, tuple(bot.choose(v)))
        else:
            table.step_bot()
    raise AssertionError("position not reached")


def at_plan(v: dict) -> bool:
    return v["phase"] == "plan" and v["to_act"] == 0


def at_choose(v: dict) -> bool:
    return v["phase"] == "choose" and v["to_act"] == 0 and v["round"] == 5


def play_app(table: Table) -> UnmaskApp:
    return UnmaskApp(table=table, session_id="snapshot", bot_delay=0)


def settle(*keys: str):
    async def run(pilot) -> None:
        await pilot.pause()
        await pilot.pause(0.2)
        for key in keys:
            await pilot.press(key)
            await pilot.pause(0.2)
        await pilot.pause(0.2)

    return run


@pytest.mark.parametrize("size", SIZES)
def test_masque_play_round(snap_compare, size):
    table = advance(new_table(), at_choose)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("3"))


@pytest.mark.parametrize("size", SIZES)
def test_masque_before_midnight(snap_compare, size):
    table = advance(new_table(), at_plan)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("2"))


@pytest.mark.parametrize("size", SIZES)
def test_masque_plan_editor(snap_compare, size):
    table = advance(new_table(), at_plan)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("p", "right", "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_masque_end_screen(snap_compare, size):
    table = advance(new_table(), at_plan)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("y"))


@pytest.mark.parametrize("size", SIZES)
def test_masque_after_midnight(snap_compare, size):
    table = advance(new_table(), at_plan)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("y", "b"))


@run_async(timeout=300)
async def test_masque_whole_game_by_mouse():
    table = new_table(5)
    app = UnmaskApp(table=table, session_id="mouse", bot_delay=0)
    notes: list[str] = []
    original = app.notify

    def notify(message, *args, **kwargs):
        notes.append(str(message))
        return original(message, *args, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        tried_illegal = False
        for _ in range(400):
            await pilot.pause()
            if isinstance(app.screen, EndScreen):
                break
            v = screen.view
            if isinstance(app.screen, ActionDialog):
                await pilot.click("#masque-act-0")
                continue
            if isinstance(app.screen, PlanDialog):
                await pilot.click("#plan-save")
                continue
            assert app.screen is screen
            if v["to_act"] != 0:
                continue
            phase = v["phase"]
            if phase in ("place", "move", "waltz"):
                room = [a for a in v["legal"] if a[0] == phase][-1][1]
                await pilot.click(f"#room-{room}")
            elif phase == "plan":
                if not tried_illegal:  # an illegal click: nobody moves in the planning step
                    tried_illegal = True
                    before, moves = len(notes), len(table.log)
                    await pilot.click("#room-black")
                    await pilot.pause()
                    assert len(notes) == before + 1, "an illegal click must say why"
                    assert len(table.log) == moves
                await pilot.click("#act-plan")
                await pilot.pause(0.1)
                assert isinstance(app.screen, PlanDialog)
                await pilot.click("#plan-0-2")
                await pilot.click("#plan-save")
                await pilot.pause()
                assert screen.view["plan"][0] == "cw"
                await pilot.click("#act-ready")
            else:
                await pilot.click("#act-act")
        else:
            raise AssertionError("the game did not end")
        await pilot.pause(0.1)
        assert tried_illegal
        assert isinstance(app.screen, EndScreen)
        assert table.is_over()
        saved = load_session("mouse")
        assert len(saved.log) == len(table.log)
