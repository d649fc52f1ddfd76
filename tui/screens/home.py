"""Home (pick a game and what to do with it) and the "Play vs bots" setup form."""

from __future__ import annotations

import random

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from tui.widgets.choices import Btn

GAMES = (("clue", "Clue: Game of Thrones"),)  # only the games that really work


class HomeScreen(Screen):
    """The games that work, and what you can do with each."""

    BINDINGS = [
        Binding("p", "app.new_game", "Play vs bots", id="home-play"),
        Binding("a", "app.assist", "Assist a table", id="home-assist"),
        Binding("r", "app.resume", "Resume", id="home-resume"),
        Binding("l", "app.rules('clue')", "Rules", id="home-rules"),
        Binding("s", "app.settings", "Settings", id="home-settings"),
        Binding("q", "app.quit", "Quit", id="home-quit"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="home-box"):
            yield Static("unmask", id="home-title")
            yield Static("Hidden-information board games in the terminal.", id="home-sub")
            for _gid, title in GAMES:
                yield Static(title, classes="home-game")
                with Horizontal(classes="home-actions"):
                    yield Btn("Play vs bots", id="home-play", variant="primary")
                    yield Btn("Assist a table", id="home-assist")
                    yield Btn("Resume", id="home-resume")
                    yield Btn("Rules", id="home-rules")
            with Horizontal(classes="home-actions"):
                yield Btn("Settings", id="home-settings")
                yield Btn("Quit", id="home-quit", variant="error")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"home-play": self.app.action_new_game, "home-resume": self.app.action_resume,
                   "home-assist": self.app.action_assist,
                   "home-rules": lambda: self.app.action_rules("clue"), "home-settings": self.app.action_settings,
                   "home-quit": self.app.exit}
        action = actions.get(event.button.id or "")
        if action:
            action()


class SetupScreen(Screen):
    """Board, players, one bot kind per seat, the centre variant and an optional seed."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="setup-back"),
        Binding("ctrl+s", "start", "Start game", id="setup-start"),
    ]

    def compose(self) -> ComposeResult:
        from engine.clue.board import BOARDS, load_board
        from solvers.bots import BOT_HELP, bot_names

        boards = [(load_board(b).name, b) for b in BOARDS]
        kinds = bot_names("clue")
        with VerticalScroll(id="setup-box"):
            yield Static("New game — Clue: Game of Thrones vs bots", id="setup-title")
            with Grid(id="setup-top"):
                yield Label("Board")
                yield Select(boards, value="red-keep", allow_blank=False, id="setup-board")
                yield Label("Players")
                yield Select([(f"{n} players", n) for n in range(2, 7)], value=4, allow_blank=False,
                             id="setup-players")
            yield Static("You play seat 1. Bots: " + "; ".join(f"{k}: {BOT_HELP['clue'].get(k, '')}" for k in kinds)
                         + ".", classes="setup-note")
            with Grid(id="setup-bots"):
                for seat in range(1, 6):
                    yield Select([(f"Seat {seat + 1}: {k} bot", k) for k in kinds],
                                 value="notes" if seat % 2 else "random", allow_blank=False, id=f"setup-bot-{seat}")
            with Horizontal(id="setup-row"):
                yield Checkbox("Face-down centre pile", id="setup-centre")
                yield Input(placeholder="seed (optional)", id="setup-seed", type="integer")
            with Horizontal(classes="dialog-buttons"):
                yield Btn("Start game", id="setup-start", variant="primary")
                yield Btn("Back", id="setup-back")
        yield Footer()

    def on_mount(self) -> None:
        self._show_seats(4)
        for inp in self.query(Input):
            inp.cursor_blink = False

    def _show_seats(self, players: int) -> None:
        for seat in range(1, 6):
            self.query_one(f"#setup-bot-{seat}", Select).display = seat < players

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "setup-players" and isinstance(event.value, int):
            self._show_seats(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "setup-start":
            self.action_start()
        elif event.button.id == "setup-back":
            self.app.pop_screen()

    def action_start(self) -> None:
        from engine.clue import ClueConfig
        from solvers.table import Table

        board = self.query_one("#setup-board", Select).value
        players = self.query_one("#setup-players", Select).value
        assert isinstance(players, int) and isinstance(board, str)
        seats = ["human"] + [str(self.query_one(f"#setup-bot-{s}", Select).value) for s in range(1, players)]
        raw = self.query_one("#setup-seed", Input).value.strip()
        try:
            seed = int(raw) if raw else random.randrange(1, 2**31)
        except ValueError:
            self.notify("The seed must be a whole number.", severity="error")
            return
        centre = self.query_one("#setup-centre", Checkbox).value
        try:
            table = Table("clue", ClueConfig(board=board, players=players, centre_pile=centre), seed, seats)
        except ValueError as e:
            self.notify(str(e), severity="error")
            return
        self.app.pop_screen()
        self.app.open_table(table, None, 0)  # type: ignore[attr-defined]
