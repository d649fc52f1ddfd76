"""App-level behaviour: start screens, new game from Home, help, command palette, theme and bot speed.

(Bots playing at the chosen pace, for every game: ``test_play_contract.py``.)
"""

from __future__ import annotations

from tui_helpers import new_table, run_async

from tui.app import READABLE_DELAY, UnmaskApp, default_bot_delay
from tui.clue.model import Seats, describe
from tui.clue.play import PlayScreen
from tui.screens.help import HelpScreen, binding_rows
from tui.screens.home import HomeScreen, SetupScreen
from tui.screens.rules import RulesScreen
from tui.screens.settings import SettingsScreen


def test_bot_delay_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("UNMASK_BOT_DELAY", "0")
    assert default_bot_delay() == 0
    monkeypatch.delenv("UNMASK_BOT_DELAY")
    assert default_bot_delay() == READABLE_DELAY
    monkeypatch.setenv("UNMASK_BOT_DELAY", "soon")
    assert default_bot_delay() == READABLE_DELAY


@run_async
async def test_new_game_from_home_by_keys():
    app = UnmaskApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("p")
        await pilot.pause(0.1)
        assert isinstance(app.screen, SetupScreen)
        await pilot.click("#setup-seed")
        await pilot.press("4", "2", "ctrl+s")
        await pilot.pause(0.1)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.table.seed == 42 and screen.table.seats[0] == "human"
        assert len(screen.table.seats) == 4


@run_async
async def test_help_lists_the_bindings_of_the_screen():
    table = new_table(3, seed=7)
    app = UnmaskApp(table=table, session_id="help", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = binding_rows(app.screen)
        described = {desc.split(" — ")[0] for _keys, desc, _now in rows}
        assert {"Roll", "Rumor…", "Accuse…", "End turn", "Undo", "Help", "Command palette"} <= described
        await pilot.press("question_mark")
        await pilot.pause(0.1)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert isinstance(app.screen, PlayScreen)


@run_async
async def test_home_opens_with_a_button_focused_and_arrows_move_between_them():
    """Issue 23: the scrolling box around Home's buttons had the focus, so Enter and the arrows did
    nothing until Tab."""
    app = UnmaskApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.focused is not None and app.focused.id == "home-play"
        await pilot.press("down")
        assert app.focused is not None and app.focused.id != "home-play"
        await pilot.press("up", "enter")
        await pilot.pause(0.1)
        assert isinstance(app.screen, SetupScreen)


@run_async
async def test_help_is_titled_in_words_never_by_a_class_name():
    """Issue 23: the Clue assistant's help said "Keys — ClueAssist"."""
    app = UnmaskApp(bot_delay=0, start="assist:clue")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        under = app.screen
        await pilot.press("question_mark")
        await pilot.pause(0.1)
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.title_text == "Clue: table assistant"
        assert type(under).__name__.removesuffix("Screen") not in app.screen.title_text


@run_async
async def test_command_palette_opens_rules_and_toggles_bot_speed():
    app = UnmaskApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause(0.1)
        await pilot.press(*"rules: clue", "enter")
        await pilot.pause(0.2)
        assert isinstance(app.screen, RulesScreen)
        await pilot.click("#rules-scroll-down")
        await pilot.pause()
        assert app.screen.query_one("#rules-book-scroll").scroll_y > 0
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await pilot.pause(0.1)
        await pilot.press(*"bot speed", "enter")
        await pilot.pause(0.2)
        assert app.bot_delay == READABLE_DELAY
        theme = app.theme
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.theme != theme
        await pilot.press("f2")
        await pilot.pause(0.1)
        assert isinstance(app.screen, SettingsScreen)
        await pilot.click("#settings-speed-0")
        await pilot.pause()
        assert app.bot_delay == 0


def test_log_sentences():
    view = new_table(3, seed=7).view(0)
    seats = Seats.from_view(view)
    from engine.clue import load_board

    board = load_board("red-keep")
    assert describe({"t": "show", "seat": 1, "to": 0, "card": "Crossbow", "n": 1}, seats, board) == \
        "Bran showed you the Crossbow."
    assert describe({"t": "pass", "seat": 2, "n": 1}, seats, board) == "Arya could not show a card."
    assert describe({"t": "rumor", "seat": 1, "cards": ["Cersei Lannister", "War Axe", "Privy"], "n": 1},
                    seats, board) == "Bran started a rumor: Cersei Lannister, War Axe, Privy."
    assert describe({"t": "show", "seat": 2, "to": 1, "card": None, "n": 1}, seats, board) == \
        "Arya showed Bran a card."


@run_async(timeout=30)
async def test_a_timer_made_too_late_still_fires_and_never_freezes_the_app():
    """Robot soak, seed 500: a toast built a moment after its notification ran out got a negative
    timer, and Textual's timer loop spun forever on it (the app froze at 100% CPU)."""
    fired: list[bool] = []
    app = UnmaskApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.set_timer(-0.0001, lambda: fired.append(True))
        await pilot.pause(0.1)
        assert fired == [True]


@run_async
async def test_new_game_after_a_game_keeps_the_settings_just_played():
    """Issue 23: "New game" from an end screen opened the setup with the defaults, not the game just played."""
    from textual.widgets import Select

    from engine.clue import ClueConfig
    from solvers.table import Table
    from tui.widgets.choices import Tick

    seats = ["human", "random", "random", "notes", "random"]
    table = Table("clue", ClueConfig(board="red-keep", players=5, centre_pile=True), 3, seats)
    app = UnmaskApp(table=table, session_id="again", bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.action_new_game("clue")  # what every end screen's New game does
        await pilot.pause(0.1)
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert setup.query_one("#setup-players", Select).value == 5
        assert [setup.query_one(f"#setup-bot-{s}", Select).value for s in range(1, 5)] == seats[1:]
        assert setup.query_one("#setup-flag-centre_pile", Tick).value is True
        await pilot.press("ctrl+s")
        await pilot.pause(0.1)
        again = [s for s in app.screen_stack if isinstance(s, PlayScreen)][-1]  # a bot may already ask something
        assert again.table is not table and again.table.seats == seats
        assert again.table.config.centre_pile and again.table.config.players == 5


@run_async
async def test_an_unticked_box_shows_no_mark():
    """Issue 23: Textual's checkbox draws an X even when off, so "Face-down centre pile" looked chosen
    while the game (and the CLI) default to face up."""
    app = UnmaskApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause(0.1)
        box = app.screen.query_one("#setup-flag-centre_pile")
        assert box.value is False and box._button.plain.strip("▐▌ ") == ""
        box.value = True
        assert box._button.plain.strip("▐▌ ") == "✓"
