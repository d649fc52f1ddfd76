"""The key gate under a slow machine: keys typed ahead wait while the screen is still working.

A burst test failed under load (a rumor's weapon picked in the suspect list): the gate handed a
held key on after half a second however busy the screen still was, so on a machine slow enough
for a dialog's next step to take longer than that, the key went to the old step's list."""

from __future__ import annotations

import asyncio
import time

from textual import on
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList
from tui_helpers import burst, run_async

from tui.keygate import KeyGate


class Step(Message):
    def __init__(self, left: int) -> None:
        super().__init__()
        self.left = left


class TwoLists(Screen[None]):
    """Pick in the first list; the second gets the focus after a chain of slow steps."""

    def __init__(self, steps: int, step_time: float) -> None:
        super().__init__()
        self.steps, self.step_time = steps, step_time

    def compose(self) -> ComposeResult:
        yield OptionList("a1", "a2", "a3", id="first")
        yield OptionList("b1", "b2", "b3", id="second")

    def on_mount(self) -> None:
        self.query_one("#first").focus()

    @on(OptionList.OptionSelected, "#first")
    def picked(self) -> None:
        self.post_message(Step(self.steps))

    async def on_step(self, message: Step) -> None:
        time.sleep(self.step_time)  # a slow machine: each step of the next dialog takes this long,
        await asyncio.sleep(0)  # and awaits the next (nothing waits in any queue meanwhile)
        if message.left > 1:
            self.post_message(Step(message.left - 1))
        else:
            self.query_one("#second").focus()


class Gate(KeyGate):
    def __init__(self, steps: int, step_time: float) -> None:
        super().__init__()
        self.steps, self.step_time = steps, step_time
        self.picks: list[tuple[str, int]] = []

    def on_mount(self) -> None:
        self.push_screen(TwoLists(self.steps, self.step_time))

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        self.picks.append((message.option_list.id or "", message.option_index))


@run_async
async def test_keys_typed_ahead_wait_for_a_screen_that_is_still_working():
    app = Gate(steps=9, step_time=0.1)  # the next list gets the focus 0.9 s after the pick
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        await burst(pilot, ["enter", "down", "enter"])
        for _ in range(200):
            if len(app.picks) >= 2 and not app.keys_held:
                break
            await pilot.pause(0.02)
        assert app.picks == [("first", 0), ("second", 1)], app.picks


class Ticking(TwoLists):
    """A screen whose messages never stop (a timer far faster than any redraw)."""

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(0.001, lambda: None)


class TickingGate(Gate):
    def on_mount(self) -> None:
        self.push_screen(Ticking(self.steps, self.step_time))


@run_async
async def test_a_screen_that_never_goes_quiet_still_gets_its_keys(monkeypatch):
    """The safety valve stays: an app that is never quiet must not swallow the keyboard."""
    monkeypatch.setattr("tui.keygate.MAX_HOLD", 0.3)
    app = TickingGate(steps=1, step_time=0.0)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        await burst(pilot, ["down", "enter", "enter"])
        for _ in range(300):
            if len(app.picks) >= 2 and not app.keys_held:
                break
            await pilot.pause(0.02)
        assert app.picks == [("first", 1), ("second", 0)], app.picks
