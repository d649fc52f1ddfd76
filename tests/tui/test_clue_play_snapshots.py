"""Snapshots of every screen and dialog at 80x24 and 120x40 (fixed seeds, instant bots)."""

from __future__ import annotations

import pytest
from tui_helpers import SIZES, advance, find_table, me_to_act, new_table, settle, snapshot_test

from tui.app import UnmaskApp


def _legal(kind: str):
    return lambda v: v["to_act"] == v["seat"] and any(a[0] == kind for a in v["legal"])


def at(want, **kw):
    return lambda: find_table(want, **kw)


def snapshot(make, *keys: str):
    return snapshot_test(make, *keys, step=0.1)


@pytest.mark.parametrize("size", SIZES)
def test_home(snap_compare, size):
    assert snap_compare(UnmaskApp(bot_delay=0), terminal_size=size, run_before=settle(step=0.1))


@pytest.mark.parametrize("size", SIZES)
def test_rules(snap_compare, size):
    assert snap_compare(UnmaskApp(bot_delay=0, start="rules:clue"), terminal_size=size, run_before=settle(step=0.1))


test_play_start = snapshot(lambda: new_table(4, 7, bots=("notes", "notes", "random")))
test_rumor_dialog = snapshot(at(_legal("rumor")), "u")
test_show_card_dialog = snapshot(at(me_to_act("refute")))
test_accuse_dialog = snapshot(at(_legal("accuse"), to_centre=True), "a")
test_accuse_confirmation = snapshot(
    at(_legal("accuse"), to_centre=True), "a", "down", "enter", "down", "down", "enter", "end", "enter", "enter")
test_draw_offer_dialog = snapshot(at(me_to_act("offer")))
test_teleport_dialog = snapshot(at(me_to_act("teleport")))
test_peek_dialog = snapshot(at(_legal("play")), "v")
test_aside_dialog = snapshot(at(me_to_act("aside"), players=2))
test_end_screen = snapshot(at(lambda v: v["over"]))

# Issue 23 finding 3: the board a player can plan on. After a roll the places in reach carry "◆" and
# their steps, the others their distance; the Plan tab (5) lists every place with the route to one.
test_board_after_a_roll = snapshot(lambda: _at_move(2))
test_plan_tab = snapshot(lambda: _at_move(2), "5", "down", "down")


def _at_move(seed: int):
    table = new_table(3, seed)
    assert advance(table, me_to_act("move"))
    return table
