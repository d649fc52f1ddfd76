"""Test-only helpers: drive a Table to a wanted position, and a player strategy that reads the view.

The strategy may read the view (tests are allowed to); the app under test never sees it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from engine.clue import ClueConfig, load_board
from solvers.bots import make_bot
from solvers.clue.sheet import Sheet
from solvers.table import Table

if TYPE_CHECKING:
    from collections.abc import Awaitable, Iterable

    from textual.pilot import Pilot

    from tui.app import UnmaskApp


def new_table(players: int = 3, seed: int = 1, board: str = "red-keep", bots: tuple[str, ...] = ()) -> Table:
    kinds = list(bots) or ["notes", "random", "notes", "random", "notes"][: players - 1]
    return Table("clue", ClueConfig(board=board, players=players), seed, ["human", *kinds])


def human_choice(view: dict, to_centre: bool = False) -> tuple:
    """A plain strategy for the human seat: notes-bot moves, or head for the centre."""
    board = load_board(view["board"])
    legal = [tuple(a) for a in view["legal"]]
    kinds = {a[0] for a in legal}
    if to_centre:
        if view["phase"] == "start":
            return ("roll",)
        if view["phase"] == "move":
            dests = [a[1] for a in legal]
            return ("move", min(dests, key=lambda d: (board.distance(d, board.centre) or 0, d)))
        if "end" in kinds and "accuse" not in kinds:
            if "power" in kinds and view["positions"][view["characters"][view["seat"]]] != board.centre:
                return ("power",)
            return ("end",)
    bot = make_bot("clue", "notes", view["seat"], 99)
    return tuple(bot.choose(view))


def advance(table: Table, want: Callable[[dict], bool], limit: int = 3000, to_centre: bool = False,
            before: Callable[[dict], tuple | None] | None = None) -> bool:
    """Play (human seat 0 by ``human_choice``) until ``want(view of seat 0)`` holds."""
    return play_until(table, want, lambda v: (before(v) if before else None) or human_choice(v, to_centre), limit)


def find_table(want: Callable[[dict], bool], players: int = 3, to_centre: bool = False, seeds=range(1, 200),
               before: Callable[[dict], tuple | None] | None = None) -> Table:
    """The first seed whose game reaches a position where ``want`` holds for seat 0."""
    return first_table(lambda seed: new_table(players, seed), want,
                       lambda: lambda v: (before(v) if before else None) or human_choice(v, to_centre), seeds)


def me_to_act(phase: str) -> Callable[[dict], bool]:
    return lambda v: v["to_act"] == v["seat"] and v["phase"] == phase


def sheet_of(view: dict) -> Sheet:
    return Sheet.from_view(view)


def run_async(fn=None, *, timeout: float = 120):
    """Run an async test with asyncio (no pytest-asyncio plugin here); a hung app fails, never blocks."""
    import asyncio
    import functools

    def decorate(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            return asyncio.run(asyncio.wait_for(f(*args, **kwargs), timeout))

        return wrapper

    return decorate(fn) if fn is not None else decorate


async def settle_assist(pilot) -> None:
    """Wait until the assistant has shown the answer to its current log, and the redraw is done.

    Under load the solve worker can start after a fixed pause; waiting on the screen's own state
    (never "solving", and not before the screen is up) does not depend on timing.
    """
    from tui.assist.base import AssistScreenBase

    await pilot.pause()
    for _ in range(400):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        screens = [s for s in pilot.app.screen_stack if isinstance(s, AssistScreenBase)]
        if screens and screens[-1].state != "solving" and (screens[-1].mode != "main" or screens[-1].state != "idle"):
            break
    await pilot.app.workers.wait_for_complete()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()  # the answer's redraw, then the layout it causes
    await pilot.pause()


# ----------------------------------------------------------------------------- every game's play screens


def play_app(table: Table, session_id: str = "snapshot") -> UnmaskApp:
    """The app opened on ``table``, bots instant, autosaving to ``session_id``."""
    from tui.app import UnmaskApp

    return UnmaskApp(table=table, session_id=session_id, bot_delay=0)


def settle(*keys: str, step: float = 0.2, workers: bool = False):
    """A snapshot's ``run_before``: let the screen draw, press ``keys`` one by one, let it draw again
    (``workers``: also wait for the screen's workers, before and after the keys)."""

    async def run(pilot) -> None:
        await pilot.pause()
        if workers:
            await pilot.app.workers.wait_for_complete()
        await pilot.pause(step)
        for key in keys:
            await pilot.press(key)
            await pilot.pause(step)
        if workers:
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
        else:
            await pilot.pause(step if step >= 0.2 else None)
        await logs_caught_up(pilot)

    return run


async def logs_caught_up(pilot, tries: int = 50) -> None:
    """Wait (on state, not on time) until every game log of every screen is wrapped at its width:
    a loaded machine can take a snapshot between a log's show or scrollbar and its re-wrap."""
    from tui.widgets.logview import LogView

    for _ in range(tries):
        logs = [log for screen in pilot.app.screen_stack for log in screen.query(LogView)]
        if all(log.caught_up for log in logs):
            return
        await pilot.pause()


def record_notes(app) -> list[str]:
    """Every notification the app shows from now on (what a refused action said)."""
    notes: list[str] = []
    original = app.notify

    def notify(message, *args, **kwargs):
        notes.append(str(message))
        return original(message, *args, **kwargs)

    app.notify = notify
    return notes


async def wait_for(pilot, cond: Callable[[], bool], tries: int = 20) -> bool:
    """Screen switches take a few frames in Textual 8: wait for ``cond`` (at most a second)."""
    for _ in range(tries):
        if cond():
            return True
        await pilot.pause(0.05)
    return cond()


def play_until(table: Table, want: Callable[[dict], bool], choose: Callable[[dict], tuple],
               limit: int = 3000) -> bool:
    """Play (seat 0 by ``choose(view)``, the others by their bots) until ``want(view of seat 0)`` holds."""
    for _ in range(limit):
        v = table.view(0)
        if want(v):
            return True
        if table.is_over():
            return False
        if table.to_act() == 0:
            table.submit(0, tuple(choose(v)))
        else:
            table.step_bot()
    return False


def first_table(make: Callable[[int], Table], want: Callable[[dict], bool],
                chooser: Callable[[], Callable[[dict], tuple]], seeds=range(1, 300)) -> Table:
    """The first seed's table (``make(seed)``) whose game reaches a position where ``want`` holds
    (seat 0 played by a fresh ``chooser()`` at each seed: a bot remembers its game)."""
    for seed in seeds:
        t = make(seed)
        if play_until(t, want, chooser()):
            return t
    raise AssertionError("no seed reaches the wanted position")


def option_index(dialog, action: tuple) -> int:
    """Where ``action`` stands among a pick dialog's options."""
    return [tuple(v) for _label, v in dialog.options()].index(tuple(action))


SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def snapshot_test(make_table: Callable[[], Table], *keys: str, doc: str = "", step: float = 0.2,
                  workers: bool = False):
    """A snapshot test at both sizes: the app opened on ``make_table()``, ``keys`` pressed.

    Assign it to a ``test_...`` name in the module: pytest (and the snapshot's file name) take
    that name, so a test written this way keeps its snapshots.
    """

    @pytest.mark.parametrize("size", SIZES)
    def test(snap_compare, size) -> None:
        app = play_app(make_table())
        assert snap_compare(app, terminal_size=size, run_before=settle(*keys, step=step, workers=workers))

    test.__doc__ = doc or None
    return test


async def burst(pilot: Pilot, keys: Iterable[str]) -> None:
    """Send every key before the app handles any, as a quick typist over a slow link does."""
    import unicodedata

    from textual import events
    from textual.app import _get_unicode_name_from_key  # type: ignore[attr-defined]
    from textual.keys import REPLACED_KEYS, _character_to_key

    app = pilot.app
    driver = app._driver
    assert driver is not None
    for key in keys:
        if len(key) == 1 and not key.isalnum():
            key = _character_to_key(key)
        original = REPLACED_KEYS.get(key, key)
        try:
            char: str | None = unicodedata.lookup(_get_unicode_name_from_key(original))
        except KeyError:
            char = key if len(key) == 1 else None
        event = events.Key(key, char)
        event.set_sender(app)
        driver.send_message(event)
    await pilot.pause()
    await keys_handled(pilot)
    await pilot.pause()


async def keys_handled(pilot: Pilot) -> None:
    """Wait until the app has handed on every key it held for a busy screen (``tui.keygate``): its short
    waits look idle to ``pilot.pause``."""
    import asyncio

    for _ in range(500):
        if not getattr(pilot.app, "keys_held", 0):
            break
        await asyncio.sleep(0.01)
    await pilot.pause()


CANCEL_WAYS = ("escape", "key", "tap")


async def cancel_three_ways(pilot: Pilot, open_dialog: Callable[[], Awaitable[object]], cancel: str,
                            state: Callable[[], object]) -> None:
    """Open a dialog (``open_dialog``) and close it each of three ways: Escape; its Cancel button by
    key (Tab to it, then Enter; a button that never takes the focus, the assistants' ``Tap``, is
    pressed by its own key, so by the Escape its key bar shows); a mouse tap on it (``cancel``, a
    selector). Each time: the dialog is gone, the screen that opened it is on top again, ``state()``
    (the session's bytes, say) equals what it was before it opened, and the focus is back where it was."""
    app = pilot.app
    for how in CANCEL_WAYS:
        opener, focus, before = app.screen, app.focused, state()
        assert focus is not None, f"nothing has the focus on {type(opener).__name__} before the dialog opens"
        await open_dialog()
        await pilot.pause()
        dialog = app.screen
        assert dialog is not opener, f"{how}: the dialog did not open"
        button = dialog.query_one(cancel)
        if how == "escape" or (how == "key" and not button.can_focus):
            await pilot.press("escape")
        elif how == "key":
            for _ in range(80):
                if app.focused is button:
                    break
                await pilot.press("tab")
            assert app.focused is button, f"Tab never reaches {cancel} on {type(dialog).__name__}"
            await pilot.press("enter")
        else:
            await pilot.click(cancel)
        for _ in range(40):
            if app.screen is opener:
                break
            await pilot.pause(0.05)
        assert app.screen is opener, f"{how} on {type(dialog).__name__} left {type(app.screen).__name__} on top"
        await pilot.pause()
        assert state() == before, f"{how} on {type(dialog).__name__} changed the state"
        assert app.focused is focus, f"{how} on {type(dialog).__name__}: focus {app.focused!r}, was {focus!r}"
