"""The Masque table assistant: snapshots (80x24, 120x40) and a Pilot test by taps."""

from __future__ import annotations

import pytest
from tui_helpers import run_async

from engine.session import Session
from tui.app import UnmaskApp
from tui.masque.assist import AssistScreen
from tui.storage import load_session, save_session

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]

LOG = [
    {"type": "rumor", "card": "12:00 black"},
    {"type": "rumor", "card": "12:20 violet"},
    {"type": "seen", "card": "12:10 black", "from": "Ann"},
    {"type": "evidence", "slot": "12:10", "room": "blue", "index": 0},
    {"type": "start", "room": "blue"},
]


def saved_app() -> UnmaskApp:
    save_session(Session(game="masque", mode="assist", config={"red_death": 2}, log=list(LOG)), "masque-snap")
    return UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-snap")


async def _solved(pilot):
    """The assistant screen once its solve worker is done and the answer drawn."""
    await pilot.pause(0.3)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    return pilot.app.screen


async def _settle(pilot) -> None:
    await pilot.pause()
    await pilot.pause(0.3)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_masque_assist_empty(snap_compare, size):
    app = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-empty")
    assert snap_compare(app, terminal_size=size, run_before=_settle)


@pytest.mark.parametrize("size", SIZES)
def test_masque_assist_entries(snap_compare, size):
    assert snap_compare(saved_app(), terminal_size=size, run_before=_settle)


@run_async(timeout=120)
async def test_masque_assist_by_taps():
    app = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-taps")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, AssistScreen)
        await pilot.pause(0.2)
        assert screen.result and screen.result["status"] == "ok"
        assert screen.result["deadly"]["12:10"]["purple"] == pytest.approx(2 / 7)
        # 12:10 purple is my card: surely safe
        await pilot.click("#mq-slot-1")
        await pilot.click("#mq-room-2")
        await pilot.click("#mq-do-0")
        await pilot.pause(0.3)
        assert screen.entries == [{"type": "rumor", "card": "12:10 purple"}]
        assert screen.result["deadly"]["12:10"]["purple"] == 0.0
        assert "12:10 purple" in screen.result["certain"]["safe"]
        # Evidence: 12:10 green is deadly; I stand in Green
        await pilot.click("#mq-room-3")
        await pilot.click("#mq-do-2")
        await pilot.click("#mq-do-3")
        await pilot.pause(0.3)
        assert screen.result["deadly"]["12:10"]["green"] == 1.0
        assert screen.result["best_plan"]["start"] == "green"
        assert screen.result["best_plan"]["rooms"][1] != "green"
        saved = load_session(screen.session_id)
        assert saved.game == "masque" and saved.mode == "assist"
        assert saved.log == screen.entries and len(saved.log) == 3
        # undo by tap, then select an entry and replace it
        await pilot.click("#mq-tools-0")
        await pilot.pause(0.2)
        assert len(screen.entries) == 2
        await pilot.click(".mq-log #" + screen._log_widget.id + "-0")
        await pilot.click("#mq-room-5")
        await pilot.click("#mq-tools-2")
        await pilot.pause(0.3)
        assert screen.entries[0] == {"type": "rumor", "card": "12:10 white"}
        # a contradiction is reported, nothing is lost
        await pilot.click("#mq-room-5")
        await pilot.click("#mq-do-2")
        await pilot.pause(0.3)
        assert screen.result["status"] == "contradiction"
        assert len(load_session(screen.session_id).log) == 3

    # resume: the same notes come back
    app2 = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-taps")
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.4)
        screen2 = app2.screen
        assert isinstance(screen2, AssistScreen)
        assert len(screen2.entries) == 3
        assert screen2.result["status"] == "contradiction"


@run_async(timeout=120)
async def test_a_contradiction_keeps_the_last_consistent_notes_marked_stale_and_marks_the_entries():
    """As in the other assistants: the conflicting entries are marked, the notes from before the
    problem stay on screen marked STALE, and Undo brings the live notes back."""
    save_session(Session(game="masque", mode="assist", config={"red_death": 2}, log=list(LOG)), "masque-bad")
    app = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-bad")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        screen = app.screen
        assert isinstance(screen, AssistScreen)
        assert screen.result and screen.result["status"] == "ok"
        good = screen.result["deadly"]
        # The Red Death in 12:00 Black, though my own Rumor card says 12:00 Black is safe.
        await pilot.click("#mq-slot-0")
        await pilot.click("#mq-room-0")
        await pilot.click("#mq-do-2")
        await pilot.pause(0.5)
        assert screen.result["status"] == "contradiction"
        assert screen.result["before"]["deadly"] == good, "the last consistent notes stand in"
        grid = str(screen.query_one("#mq-grid").render())
        assert "STALE" in grid and "?" not in grid.split("\n", 2)[2]
        labels = [str(o[0]) for o in screen.query_one(".mq-log").options]
        marked = [i for i, label in enumerate(labels) if label.startswith("⚠")]
        assert marked == sorted(screen.result["conflict"]) and len(LOG) in marked and 0 in marked
        await pilot.press("u")
        await pilot.pause(0.5)
        assert screen.result["status"] == "ok"
        assert not any(str(o[0]).startswith("⚠") for o in screen.query_one(".mq-log").options)
        assert "STALE" not in str(screen.query_one("#mq-grid").render())


def grid_cell(screen, slot: str, room: str) -> tuple[int, int]:
    """Where the grid shows ``slot`` x ``room`` (offset inside #mq-grid), read from what it shows."""
    from textual.geometry import Region

    from engine.masque import ROOMS

    grid = screen.query_one("#mq-grid")
    lines = [s.text for s in grid.render_lines(Region(0, 0, grid.size.width, grid.size.height))]
    row = next(i for i, line in enumerate(lines) if line.startswith(slot))
    return 7 + 4 * ROOMS.index(room) + 3, row


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_tap_on_a_certain_room_of_the_grid_explains_that_room(size):
    """Found by taps at 80x24: the grid's title wraps there, and a tap on a row was read as the row
    below it (the ✗ of 12:10 blue opened nothing; a ✓ could explain another slot's room)."""
    from tui.assist.why import WhyScreen

    @run_async(timeout=120)
    async def run() -> None:
        save_session(Session(game="masque", mode="assist", config={"red_death": 2}, log=list(LOG)), "masque-tap")
        app = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-tap")
        async with app.run_test(size=size) as pilot:
            screen = await _solved(pilot)
            for kind, slot, room in (("deadly", "12:10", "blue"), ("safe", "12:00", "black"),
                                     ("safe", "12:20", "violet")):
                await pilot.click("#mq-grid", offset=grid_cell(screen, slot, room))
                await pilot.pause(0.2)
                await app.workers.wait_for_complete()
                await pilot.pause()
                assert isinstance(app.screen, WhyScreen), f"a tap on {slot} {room} opens its Why view"
                assert app.screen.shown[0] == (kind, f"{slot} {room}")
                await pilot.press("escape")
                await pilot.pause()
                assert app.screen is screen

    run()


@run_async(timeout=120)
async def test_every_log_entry_is_shown_whole_at_80x24():
    """Found by taps at 80x24: "#5 Evidence 12:30: purple is dead…" (and with its ⚠ mark on a
    contradiction, "…is de…"): a log entry never ends in "…", it wraps (an ask from a saved
    ``unmask solve`` log names two players, too long for one line)."""
    from textual.geometry import Region

    log = [*LOG, {"type": "ask", "by": "Prospero", "target": "Fortunato", "slot": "12:40", "matched": True},
           {"type": "evidence", "slot": "12:30", "room": "purple", "index": 0},
           {"type": "rumor", "card": "12:30 purple"}]
    save_session(Session(game="masque", mode="assist", config={"red_death": 2}, log=log), "masque-long")
    app = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-long")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _solved(pilot)
        assert screen.result["status"] == "contradiction"
        log_widget = screen.query_one(".mq-log")
        buttons = list(log_widget.query("Choice"))
        assert len(buttons) == len(log)
        assert any(str(label).startswith("⚠") for label, _i in log_widget.options)
        for (label, _i), button in zip(log_widget.options, buttons, strict=True):
            lines = button.render_lines(Region(0, 0, button.size.width, button.size.height))
            shown = " ".join(" ".join(s.text for s in lines).split())
            assert "…" not in shown and shown == " ".join(str(label).split()), (label, shown)


@run_async(timeout=120)
async def test_jumping_to_a_note_from_the_why_view_shows_its_slot_and_room_for_replace():
    """Found by taps: "Tap or Enter: jump to it and edit it" selected the note but left the pickers
    on whatever they showed, so changing only the room and tapping Replace also changed the slot.
    A tap in the log showed the note's own slot and room; the jump from Why does the same now."""
    from tui.assist.why import WhyScreen

    save_session(Session(game="masque", mode="assist", config={"red_death": 2}, log=list(LOG)), "masque-jump")
    app = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-jump")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _solved(pilot)
        await pilot.click("#mq-slot-5")
        await pilot.click("#mq-room-6")  # the pickers on 12:50 violet
        await pilot.click("#mq-grid", offset=grid_cell(screen, "12:10", "blue"))
        await pilot.pause(0.2)
        await app.workers.wait_for_complete()
        await pilot.pause()
        why = app.screen
        assert isinstance(why, WhyScreen)
        for _ in range(50):
            if why.done:
                break
            await pilot.pause(0.1)
        assert str(why.query_one("#why-list").options[1].prompt).strip().startswith("#4 ")
        await pilot.click("#why-list", offset=(6, 1))  # the note behind it: #4, the Evidence look
        await pilot.pause(0.2)
        assert app.screen is screen and screen.selected == 3
        assert screen._pick("#mq-slot") == "12:10" and screen._pick("#mq-room") == "blue"
        await pilot.click("#mq-room-3")
        await pilot.click("#mq-tools-2")  # Replace: only the room changes
        await pilot.pause()
        assert screen.entries[3] == {"type": "evidence", "slot": "12:10", "room": "green"}


@run_async(timeout=120)
async def test_the_footer_offers_undo_delete_and_replace_only_when_they_can_act():
    """Robot soak, seed 100: the footer showed Undo (u, ctrl+z) on a new table, where it did nothing."""
    app = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-keys")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _solved(pilot)
        live = lambda: {b.binding.action for b in screen.active_bindings.values() if b.enabled}  # noqa: E731
        assert not {"undo", "delete", "replace"} & live(), "nothing to undo, nothing selected"
        await pilot.click("#mq-slot-1")
        await pilot.click("#mq-room-2")
        await pilot.click("#mq-do-0")
        await pilot.pause(0.3)
        assert "undo" in live() and not {"delete", "replace"} & live()
        await pilot.press("u")
        await pilot.pause(0.3)
        assert screen.entries == [] and "undo" not in live()


@run_async(timeout=120)
async def test_replace_with_the_same_slot_and_room_says_so_and_changes_nothing():
    """Robot soak, seed 30000: a tap on an entry puts its slot and room in the pickers, and r (Replace)
    then did nothing at all: no message, and an Undo step that changed nothing."""
    from tui_helpers import record_notes

    app = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-replace")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _solved(pilot)
        notes = record_notes(app)
        await pilot.click("#mq-slot-1")
        await pilot.click("#mq-room-2")
        await pilot.click("#mq-do-0")
        await pilot.pause(0.3)
        entries, history = list(screen.entries), len(screen.history)
        screen._select(0)
        await pilot.press("r")
        await pilot.pause(0.3)
        assert screen.entries == entries and len(screen.history) == history
        assert any("already says that" in n for n in notes), notes
        await pilot.click("#mq-room-3")
        await pilot.press("r")
        await pilot.pause(0.3)
        assert screen.entries != entries and len(screen.history) == history + 1, "another room: replaced"


@run_async(timeout=120)
async def test_the_variant_is_a_toggle_and_gives_undo_no_empty_step():
    """Robot soak, seed 300: after a tap on Variant, Undo was offered and did nothing (it put back the
    same notes and left the variant as it was). Variant switches back by itself; Undo takes back notes."""
    app = UnmaskApp(bot_delay=0, start="assist:masque", session_id="masque-variant")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _solved(pilot)
        before = screen.config.get("red_death")
        await pilot.click("#mq-tools-3")
        await pilot.pause(0.3)
        assert screen.config.get("red_death") != before
        assert screen.check_action("undo", ()) is None, "nothing to undo: no note changed"
        await pilot.click("#mq-tools-3")
        await pilot.pause(0.3)
        assert screen.config.get("red_death") == before
