"""The Clue play sheet can fill itself from what you saw: a pass becomes ✗ (Settings), besides the manual sheet."""

from __future__ import annotations

from tui_helpers import advance, new_table, run_async

from tui.app import UnmaskApp
from tui.clue.play import PlayScreen
from tui.screens.settings import SettingsScreen


def _passed(v: dict) -> tuple[int, list[str]] | None:
    """A player (not you) who passed on a rumor, and that rumor's cards."""
    rumor = None
    for ev in v["events"]:
        if ev["t"] == "rumor":
            rumor = ev["cards"]
        elif ev["t"] == "pass" and rumor and ev["seat"] != v["seat"]:
            return ev["seat"], rumor
    return None


def _cell(screen: PlayScreen, card: str, col: int) -> str:
    return str(screen.query_one("#sheet").get_cell(card, f"c{col}")).strip()


@run_async(timeout=180)
async def test_a_pass_becomes_a_cross_when_the_sheet_fills_itself():
    table = new_table(4, seed=5)
    assert advance(table, lambda v: _passed(v) is not None and v["to_act"] == 0)
    seat, cards = _passed(table.view(0))
    app = UnmaskApp(table=table, session_id="sheet-fill", bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        holders = dict(screen._holder)
        open_cards = [c for c in cards if not isinstance(holders.get(c), int)]
        assert open_cards
        assert all(_cell(screen, c, seat) == "" for c in open_cards), "the manual sheet holds only your marks"
        app.action_settings()
        await pilot.pause(0.2)
        assert isinstance(app.screen, SettingsScreen)
        await pilot.click("#settings-sheet-1")
        await pilot.pause(0.1)
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert app.screen is screen
        assert all(_cell(screen, c, seat) == "✗" for c in open_cards), "a pass becomes ✗"
        # A filled cell is a fact: it cannot be cycled by hand.
        assert screen.marks.get(f"{open_cards[0]}|{seat}") is None
