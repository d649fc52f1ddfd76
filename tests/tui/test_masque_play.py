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


@run_async(timeout=120)
async def test_midnight_is_played_out_on_the_board_slot_by_slot():
    """Issue 11, example 5: after the last Ready the board plays midnight out (plans revealed, each
    slot's moves, the Red Death's cards, who dies) before the end screen, and never tells the end early."""
    from engine.masque import SLOTS

    table = advance(new_table(5), at_plan)
    app = UnmaskApp(table=table, session_id="midnight", bot_delay=0.05)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        seen: list[tuple[str, str, set[str], bool]] = []

        def record() -> None:
            red = {r for r in ("black", "blue", "purple", "green", "orange", "white", "violet")
                   if screen.query_one(f"#room-{r}").has_class("-red-death")}
            seen.append((str(screen.query_one("#status").render()), str(screen.query_one("#prompt").render()),
                         red, isinstance(app.screen, EndScreen)))

        tick = screen._midnight_tick

        def recording_tick() -> None:
            tick()
            record()

        over = screen._game_over

        def recording_over() -> None:
            over()
            if not seen:
                record()  # the first thing midnight shows

        screen._midnight_tick = recording_tick  # type: ignore[method-assign]
        screen._game_over = recording_over  # type: ignore[method-assign]
        await pilot.press("y")
        for _ in range(400):
            await pilot.pause(0.05)
            if isinstance(app.screen, EndScreen):
                break
        assert isinstance(app.screen, EndScreen), "the end screen follows the play-out"
        v = table.view(0)
        result = v["result"]
        prompts = [p for _s, p, _r, _e in seen]
        assert "every plan is revealed" in prompts[0]
        assert all("game is over" not in status for status, _p, _r, _e in seen[:-1]), "the end is not told early"
        assert not any(end for *_x, end in seen[:-1]), "the end screen waits for the last slot"
        strikes = [(p, red) for _s, p, red, _e in seen if "the Red Death appears" in p]
        moves = [p for p in prompts if p[:5] in SLOTS and "the nobles move" in p]
        assert len(strikes) == len(SLOTS) and len(moves) == len(SLOTS)
        for k, slot in enumerate(SLOTS):
            sentence, red = strikes[k]
            assert sentence.startswith(slot)
            assert red == set(result["red_death"][slot]), "the slot's Red Death rooms are marked on the board"
            for room in result["red_death"][slot]:
                assert room.title() in sentence
        killed = {s for row in v["midnight"] for group in row["killed"] for s in group}
        for s in killed - {0}:
            assert any(v["players"][s] in p and "takes" in p for p, _r in strikes), "who dies is said"
