"""The replay's "Why this move?" (issue 25): the key is there only at a step where the strong bot
weighed its moves; the panel gives the value of the move made and of the best alternative."""

from __future__ import annotations

import pytest
from tui_helpers import SIZES, run_async, wait_for

from engine.replay import replay_steps
from solvers.beliefs import belief_series, store_series
from solvers.table import Table
from tui.app import UnmaskApp
from tui.screens.replay import ReplayScreen, WhyPanel

SEED, SEATS = 26, ["heuristic", "strong", "random", "strong"]
WHY_STEP = 26  # a strong seat's exchange: its search weighed every card to give and take
PLAIN_STEP = 1  # a strong seat's move its heuristic made (no search, so no values)


def strong_replay():
    table = Table("ghoul", {"players": 4}, SEED, SEATS)
    table.run_bots()
    session = table.to_session()
    store_series(session, 0, belief_series(replay_steps(session), 0))  # the chart whole at once
    return replay_steps(session)


async def opened(pilot, k: int) -> ReplayScreen:
    assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen))
    screen = pilot.app.screen
    screen.show(k)
    await pilot.pause()
    return screen


@run_async
async def test_why_is_offered_only_where_the_bot_weighed_its_moves():
    app = UnmaskApp(replay=strong_replay())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, PLAIN_STEP)
        assert screen.check_action("why", ()) is False
        await pilot.press("w")
        assert app.screen is screen  # nothing opens
        screen.show(WHY_STEP)
        await pilot.pause()
        assert screen.check_action("why", ()) is True
        await pilot.press("w")
        assert await wait_for(pilot, lambda: isinstance(app.screen, WhyPanel) and app.screen.done, tries=100)
        text = str(app.screen.query_one("#why-text").render())
        assert "why Aiko (the strong bot)" in text
        assert "Made: Give" in text and "— chance to win 88%" in text
        assert "Best alternative: Give" in text and "— 81%" in text
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen is screen)


async def why_open(pilot) -> None:
    screen = await opened(pilot, WHY_STEP)
    assert screen.beliefs_done
    await pilot.press("w")
    assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, WhyPanel) and pilot.app.screen.done, tries=100)
    await pilot.pause(0.2)


@pytest.mark.parametrize("size", SIZES)
def test_why_panel_snapshot(snap_compare, size):
    assert snap_compare(UnmaskApp(replay=strong_replay()), terminal_size=size, run_before=why_open)


@run_async(timeout=180)
async def test_the_why_panel_closes_three_ways_and_changes_nothing():
    """Esc, Close by key (Tab to it, Enter) and a tap on Close each close the panel: the replay stays
    at its step and seat, draws the same, and the focus is where it was (80x24)."""
    from tui_helpers import cancel_three_ways

    app = UnmaskApp(replay=strong_replay())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, WHY_STEP)
        assert await wait_for(pilot, lambda: screen.beliefs_done, tries=200)
        await pilot.pause(0.2)

        async def open_why() -> None:
            await pilot.press("w")
            assert await wait_for(pilot, lambda: isinstance(app.screen, WhyPanel) and app.screen.done, tries=100)

        def state() -> tuple:
            drawn = tuple(strip.text for strip in screen._compositor.render_strips())
            return screen.at, screen.model.seat, screen.board_shown, drawn

        await cancel_three_ways(pilot, open_why, "#why-close", state)
