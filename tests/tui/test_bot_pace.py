"""Issue 20: the bots' pace tells nothing about their hidden options.

A bot thinks as soon as it must act, while its delay runs; its move appears when the delay is
over. Before, the delay started only after the previous move and the bot thought when it ended,
so a bot with more to weigh (cards it could show, a kill it could make) visibly took longer.
These tests check the order of things (which is what the rule is), never a measured time.
"""

from __future__ import annotations

import asyncio

from tui_helpers import run_async

from solvers.table import Table
from tui.app import UnmaskApp
from tui.serve import tables as served
from tui.serve.tables import Shared, TableService


def ghoul_table(seed: int = 4) -> Table:
    """Seed 4: seats 0 to 3 (bots) decide before the human at seat 4."""
    return Table("ghoul", {"players": 5}, seed, ["heuristic", "random", "heuristic", "random", "human"])


def spy_on_bots(table: Table, record) -> None:
    """Every bot's ``choose`` calls ``record()`` first (bots are remade on undo: spy on the current ones)."""
    for bot in table.bots.values():
        inner = bot.choose

        def choose(view, inner=inner):
            record()
            return inner(view)

        bot.choose = choose


def test_a_choice_is_thought_out_first_and_played_only_where_it_was_made():
    table, twin = ghoul_table(), ghoul_table()
    choice = table.bot_choice()
    assert choice is not None and choice[1] == table.to_act()
    twin.step_bot()
    assert table.play_bot_choice(choice) and table.log == twin.log  # the same move as step_bot
    stale = table.bot_choice()
    table.step_bot()  # the table moves on: the choice made before is not played
    moved = list(table.log)
    assert stale is not None and not table.play_bot_choice(stale) and table.log == moved
    assert Table("ghoul", {"players": 5}, 4, ["human"] * 5).bot_choice() is None


@run_async
async def test_a_bot_thinks_while_its_delay_runs_not_after_it():
    """Each bot thinks while the timer of its move is already running (the window opened when it
    had to act), and the timer's tick only plays what was thought out."""
    from tui.ghoul.play import PlayScreen

    table = ghoul_table()
    app = UnmaskApp(table=table, session_id="pace", bot_delay=0.4)
    windows: list[bool] = []

    def timer_running() -> bool:
        screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
        return screen._timer is not None

    spy_on_bots(table, lambda: windows.append(timer_running()))
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(300):
            if table.to_act() == 4 or table.is_over():
                break
            await pilot.pause(0.02)
    assert table.to_act() == 4 and len(windows) == len(table.log) >= 3, "the bots before the human must have played"
    assert all(windows), f"a bot thought outside its delay window: {windows}"


def test_instant_bots_think_once_per_move():
    """With no delay the bots play at once, each decision thought out exactly once."""
    table = ghoul_table()
    calls: list[int] = []
    spy_on_bots(table, lambda: calls.append(len(table.log)))
    table.run_bots()
    assert calls == list(range(len(calls))) and len(calls) == len(table.log)


def test_a_served_bot_thinks_before_the_wait_and_waits_only_what_is_left(monkeypatch):
    """The service waits ``bot_delay`` minus the thinking time, after the thinking, never both."""
    table = ghoul_table()
    order: list[tuple[str, float]] = []
    spy_on_bots(table, lambda: order.append(("think", 0.0)))
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        order.append(("wait", seconds))
        await real_sleep(0)

    monkeypatch.setattr(served.asyncio, "sleep", sleep)
    service = TableService(path=None, bot_delay=10.0)
    shared = Shared(id="pace", table=table)

    async def go() -> None:
        await service._run_bots(shared)

    asyncio.run(go())
    assert table.to_act() == 4 or table.is_over()
    kinds = [k for k, _ in order]
    assert kinds[:2] == ["think", "wait"] and kinds == ["think", "wait"] * (len(kinds) // 2), order
    assert all(0 <= s < 10.0 for k, s in order if k == "wait")
