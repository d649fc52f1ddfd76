"""Tokyo Ghoul assistant at 80x24 by taps only: the header is never cut, and the unseen-exchange
chance (``k``) can be stepped with a tap too."""

from __future__ import annotations

from test_ghoul_assist import CONFIG
from test_ghoul_fit import fits
from tui_helpers import run_async, settle_assist

from engine.session import Session
from tui.app import UnmaskApp
from tui.ghoul import assist_model as g
from tui.ghoul.assist import GhoulAssistScreen
from tui.storage import load_session, save_session

NAMES = ["Annabelle Xu", "Bartholomew", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal"]  # 12 letters at most
CAST = ["kaneki-half", "kimi", "hide", "nishiki", "touka", "uta", "mado", "amon"]


def variants_app(sid: str) -> UnmaskApp:
    config, errors = g.make_config(NAMES, 0, "kaneki-half", CAST, True, True, "a", g.default_ring())
    assert errors == [] and config is not None
    save_session(Session(game="ghoul", mode="assist", config=config, log=[]), sid)
    return UnmaskApp(bot_delay=0, start="assist:ghoul", session_id=sid)


@run_async(timeout=120)
async def test_ghoul_assist_header_fits_80x24():
    """8 players, both variants, a 12-letter name as Half-Kaneki: the whole header shows at 80x24."""
    app = variants_app("ghoul-assist-session-with-a-long-name")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        await settle_assist(pilot)
        assert isinstance(app.screen, GhoulAssistScreen)
        head = app.screen.query_one("#ax-head")
        text = str(head.render())
        assert "Annabelle Xu (Half-Kaneki)" in text and "mask+support" in text
        assert fits(head), text


@run_async(timeout=120)
async def test_ghoul_assist_exchange_chance_by_tap():
    """More… holds the exchange-chance step: one tap, solved again and saved, no key needed."""
    sid = "ghoul-chance-tap"
    app = variants_app(sid)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        await settle_assist(pilot)
        screen = app.screen
        assert isinstance(screen, GhoulAssistScreen)
        assert await pilot.click("#gx-do-more")
        await pilot.pause(0.1)
        assert await pilot.click("#gx-more-exchange_chance")
        await pilot.pause(0.1)
        await settle_assist(pilot)
        assert app.screen is screen
        assert screen.config["exchange_chance"] == 0.75
        assert "exch. 75%" in str(screen.query_one("#ax-status").render())
    assert load_session(sid).config["exchange_chance"] == 0.75


@run_async(timeout=120)
async def test_ghoul_assist_names_a_revealed_red_place():
    """Once a move turned red place 5 face up as Cochlea, the log and the next Move dialog call it
    "5 Cochlea", not "5 red ?" (the tile never changes place)."""
    sid = "ghoul-revealed"
    log = [
        {"type": "hand", "cards": ["coffee", "food", "dove"]},
        {"type": "move", "player": "Ann", "to": 3, "revealed": {"4": "cochlea"}},
        {"type": "move", "player": "Ben", "to": 4},
    ]
    save_session(Session(game="ghoul", mode="assist", config=CONFIG, log=log), sid)
    app = UnmaskApp(bot_delay=0, start="assist:ghoul", session_id=sid)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        await settle_assist(pilot)
        screen = app.screen
        assert isinstance(screen, GhoulAssistScreen)
        lines = screen._log_sentences()
        assert lines[2] == "Ben's turn: token to 5 Cochlea", lines
        assert "red ?" in g.describe(log[2], CONFIG)  # the setup alone does not know it
        assert await pilot.click("#gx-do-move")
        await pilot.pause(0.1)
        labels = [label for label, _v in next(f for f in app.screen.fields if f.key == "to").options]
        assert "5 Cochlea" in labels and "5 red ?" not in labels
