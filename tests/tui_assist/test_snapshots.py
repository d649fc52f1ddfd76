"""Snapshots of the assistant: the setup form, the sheet, a rumor being entered, a contradiction.

Each at the SSH size (80 x 24) and at a tablet-like size. Every run waits for the solver and
advice workers, so what is drawn is the final state and never depends on timing.
"""

from __future__ import annotations

from assist_helpers import contradiction_log, sample_session, settle
from textual.pilot import Pilot

from tui.clue.assist import AssistApp

SSH = (80, 24)
WIDE = (120, 40)
TABLET = (110, 42)


def _app(log=None, sid: str = "snapshot") -> AssistApp:
    return AssistApp(sid, sample_session(log))


async def _settled(pilot: Pilot) -> None:
    await pilot.pause()
    await settle(pilot)


async def _rumor_in_progress(pilot: Pilot) -> None:
    """I (Ann) ask Sansa, War Axe, Location 9; Cat shows me a card, so Bob passed: all by taps."""
    await _settled(pilot)
    await pilot.press("r")
    await pilot.pause(0.1)
    screen = pilot.app.screen
    for pick in ("#ax-pick-by-0", "#ax-pick-suspects-3", "#ax-pick-weapons-4", "#ax-pick-locations-8",
                 "#ax-pick-shower-2", "#ax-pick-saw-1"):
        screen.query_one(pick).press()
        await pilot.pause()
    await pilot.pause()


def test_setup_form_ssh(snap_compare) -> None:
    assert snap_compare(AssistApp(), terminal_size=SSH, run_before=_settled)


def test_setup_form_tablet(snap_compare) -> None:
    assert snap_compare(AssistApp(), terminal_size=TABLET, run_before=_settled)


def test_sheet_ssh(snap_compare) -> None:
    assert snap_compare(_app(), terminal_size=SSH, run_before=_settled)


def test_sheet_wide(snap_compare) -> None:
    assert snap_compare(_app(), terminal_size=WIDE, run_before=_settled)


def test_rumor_dialog_ssh(snap_compare) -> None:
    assert snap_compare(_app(), terminal_size=SSH, run_before=_rumor_in_progress)


def test_rumor_dialog_wide(snap_compare) -> None:
    assert snap_compare(_app(), terminal_size=WIDE, run_before=_rumor_in_progress)


async def _contradiction(pilot: Pilot) -> None:
    """A consistent table, then an entry no deal fits: it stays, highlighted; the notes go stale."""
    await _settled(pilot)
    pilot.app.screen.change_log(contradiction_log())
    await settle(pilot)


def test_contradiction_ssh(snap_compare) -> None:
    assert snap_compare(_app(), terminal_size=SSH, run_before=_contradiction)


def test_contradiction_wide(snap_compare) -> None:
    assert snap_compare(_app(), terminal_size=WIDE, run_before=_contradiction)


async def _seen(pilot: Pilot) -> None:
    """The Advice view at 80 columns: "Seen of my cards" (Bob has seen the Margaery I showed him) on top."""
    await _settled(pilot)
    await pilot.press("d")
    await settle(pilot)


def test_seen_ssh(snap_compare) -> None:
    assert snap_compare(_app(), terminal_size=SSH, run_before=_seen)
