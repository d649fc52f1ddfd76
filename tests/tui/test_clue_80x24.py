"""Issue 11, acceptance 3 (Clue): what a person trips over at 80 x 24, by keys and by taps.

Each test pins one problem found by playing the real app in tmux at 80 x 24: text that was cut,
a Tab stop that showed nothing as focused, a sentence that said the wrong thing.
"""

from __future__ import annotations

from tui_helpers import advance, new_table, run_async

from tui.app import UnmaskApp
from tui.clue import dialogs as d
from tui.widgets.choices import Choices


def _me_to_act(kind: str):
    return lambda v: v["to_act"] == 0 and any(a[0] == kind for a in v["legal"])


@run_async
async def test_tab_in_a_clue_dialog_always_lands_on_something_you_can_see():
    """The dialog's scrolling body took focus: one Tab in three showed nothing focused."""
    table = new_table(3, seed=3)
    assert advance(table, _me_to_act("rumor"))
    app = UnmaskApp(table=table, session_id="tabs", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, d.RumorDialog)
        seen = []
        for _ in range(6):
            await pilot.press("tab")
            await pilot.pause()
            focused = app.focused
            seen.append(type(focused).__name__)
            assert isinstance(focused, Choices) or getattr(focused, "id", "") == "rumor-cancel", seen
