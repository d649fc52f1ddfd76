"""The Mascarade play screen: snapshots (fixed seeds, instant bots) and a whole game by mouse only."""

from __future__ import annotations

import pytest
from tui_helpers import run_async

from engine.mascarade import MascaradeConfig
from solvers.bots import make_bot
from solvers.table import Table
from tui.app import UnmaskApp
from tui.mascarade.dialogs import PickDialog
from tui.mascarade.end import EndScreen
from tui.mascarade.play import PlayScreen
from tui.storage import load_session

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
BOTS = ["honest", "strong", "random"]


def new_table(seed: int = 3, players: int = 4) -> Table:
    bots = (BOTS * 4)[: players - 1]
    return Table("mascarade", MascaradeConfig(players=players), seed, ["human", *bots])


def advance(table: Table, want, limit: int = 3000) -> bool:
    """Play (seat 0 by an honest bot's choices) until ``want(view of seat 0)`` holds."""
    me = make_bot("mascarade", "honest", 0, 99)
    for _ in range(limit):
        v = table.view(0)
        if want(v):
            return True
        if table.is_over():
            return False
        if table.to_act() == 0:
            table.submit(0, tuple(me.choose(v)))
        else:
            table.step_bot()
    return False


def find_table(want, players: int = 4) -> Table:
    for seed in range(1, 100):
        t = new_table(seed, players)
        if advance(t, want):
            return t
    raise AssertionError("no seed reaches the wanted position")


def claim_asked(v: dict) -> bool:
    return v["to_act"] == 0 and (v["pending"] or {}).get("kind") == "claim"


def settle(*keys: str):
    async def run(pilot) -> None:
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.1)
        for key in keys:
            await pilot.press(key)
            await pilot.pause(0.1)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return run


def play_app(table: Table) -> UnmaskApp:
    return UnmaskApp(table=table, session_id="snapshot", bot_delay=0)


@pytest.mark.parametrize("size", SIZES)
def test_mascarade_play_start(snap_compare, size):
    assert snap_compare(play_app(new_table()), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_mascarade_midgame_announce_dialog(snap_compare, size):
    table = find_table(lambda v: v["to_act"] == 0 and any(a[0] == "announce" for a in v["legal"]))
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("a"))


@pytest.mark.parametrize("size", SIZES)
def test_mascarade_claim_prompt(snap_compare, size):
    assert snap_compare(play_app(find_table(claim_asked)), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_mascarade_power_dialog(snap_compare, size):
    """The Sorceress's choice (5 players), opened by itself when the power waits for us."""
    table = find_table(lambda v: v["to_act"] == 0 and (v["pending"] or {}).get("kind") == "power", players=5)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_mascarade_end_screen(snap_compare, size):
    assert snap_compare(play_app(find_table(lambda v: v["over"])), terminal_size=size, run_before=settle())


# ----------------------------------------------------------------------------- Pilot


def _option_index(dialog: PickDialog, action: tuple) -> int:
    return [tuple(v) for _label, v in dialog.options()].index(tuple(action))


@run_async(timeout=240)
async def test_mascarade_whole_game_by_mouse():
    """Every decision of seat 0 made with clicks only: the action bar, then the dialog's option."""
    table = new_table(5)
    me = make_bot("mascarade", "honest", 0, 7)
    app = UnmaskApp(table=table, session_id="mouse", bot_delay=0)
    kinds = {"swap": "swap", "look": "look", "announce": "announce", "claim": "claim", "pass": "pass",
             "power": "choose", "spy_swap": "choose", "name": "choose"}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.1)
        for _ in range(400):
            if isinstance(app.screen, EndScreen):
                break
            screen = app.screen
            v = table.view(0)
            if table.is_over():
                await pilot.pause(0.1)
                continue
            assert v["to_act"] == 0, "bots play instantly: the game waits for us"
            action = tuple(me.choose(v))
            n = len(table.log)
            if isinstance(screen, PickDialog):
                if action[0] in ("claim", "pass") and screen.kind != "claim":
                    await pilot.click(f"#{screen.kind}-cancel")
                    await pilot.pause()
                    continue
                if action[0] in ("swap", "announce", "look"):
                    await pilot.click(f"#{screen.kind}-cancel")
                    await pilot.pause()
                    continue
                await pilot.click(f"#{screen.kind}-opt-{_option_index(screen, action)}")
            else:
                assert isinstance(screen, PlayScreen)
                await pilot.click(f"#act-{kinds[action[0]]}")
                await pilot.pause()
                if action[0] not in ("look", "pass", "claim"):
                    dialog = app.screen
                    assert isinstance(dialog, PickDialog)
                    await pilot.click(f"#{dialog.kind}-opt-{_option_index(dialog, action)}")
            await pilot.pause()
            assert len(table.log) > n, f"{action} was not played"
        await pilot.pause(0.2)
        assert table.is_over()
        assert isinstance(app.screen, EndScreen)
        assert load_session("mouse").log == table.to_session().log  # autosaved after every action


@run_async
async def test_mascarade_keys_and_illegal_attempts():
    """An action the rules forbid becomes the engine's sentence and changes nothing; keys drive the dialogs."""
    table = new_table()
    app = UnmaskApp(table=table, session_id="keys", bot_delay=0)
    notes: list[str] = []
    original = app.notify

    def notify(message, *args, **kwargs):
        notes.append(str(message))
        return original(message, *args, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        n = len(table.log)
        await pilot.press("l")  # no looking in the first four turns
        await pilot.pause()
        assert len(table.log) == n
        assert any("first 4 turns" in x for x in notes), notes
        await pilot.press("s")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, PickDialog) and dialog.kind == "swap"
        await pilot.press("escape")  # later: nothing happens
        await pilot.pause()
        assert isinstance(app.screen, PlayScreen) and len(table.log) == n
        await pilot.press("s", "enter")  # the first option: a real swap with the next place
        await pilot.pause()
        assert table.log[n] == [0, ["swap", 1, True]]
        assert load_session("keys").log == table.to_session().log
