"""Snapshots of every screen and dialog at 80x24 and 120x40 (fixed seeds, instant bots)."""

from __future__ import annotations

import pytest
from tui_helpers import find_table, me_to_act, new_table

from tui.app import UnmaskApp

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def play_app(table) -> UnmaskApp:
    return UnmaskApp(table=table, session_id="snapshot", bot_delay=0)


def settle(*keys: str):
    async def run(pilot) -> None:
        await pilot.pause()
        await pilot.pause(0.1)
        for key in keys:
            await pilot.press(key)
            await pilot.pause(0.1)
        await pilot.pause()

    return run


def _legal(kind: str):
    return lambda v: v["to_act"] == v["seat"] and any(a[0] == kind for a in v["legal"])


@pytest.mark.parametrize("size", SIZES)
def test_home(snap_compare, size):
    assert snap_compare(UnmaskApp(bot_delay=0), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_rules(snap_compare, size):
    assert snap_compare(UnmaskApp(bot_delay=0, start="rules:clue"), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_play_start(snap_compare, size):
    table = new_table(4, 7, bots=("notes", "notes", "random"))
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_rumor_dialog(snap_compare, size):
    table = find_table(_legal("rumor"))
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("u"))


@pytest.mark.parametrize("size", SIZES)
def test_show_card_dialog(snap_compare, size):
    table = find_table(me_to_act("refute"))
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_accuse_dialog(snap_compare, size):
    table = find_table(_legal("accuse"), to_centre=True)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("a"))


@pytest.mark.parametrize("size", SIZES)
def test_accuse_confirmation(snap_compare, size):
    table = find_table(_legal("accuse"), to_centre=True)
    keys = ("a", "down", "enter", "down", "down", "enter", "end", "enter", "enter")
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle(*keys))


@pytest.mark.parametrize("size", SIZES)
def test_draw_offer_dialog(snap_compare, size):
    table = find_table(me_to_act("offer"))
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_teleport_dialog(snap_compare, size):
    table = find_table(me_to_act("teleport"))
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_peek_dialog(snap_compare, size):
    table = find_table(_legal("play"))
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("v"))


@pytest.mark.parametrize("size", SIZES)
def test_aside_dialog(snap_compare, size):
    table = find_table(me_to_act("aside"), players=2)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_end_screen(snap_compare, size):
    table = find_table(lambda v: v["over"])
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())
