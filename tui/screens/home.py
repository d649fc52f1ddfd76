"""Home (pick a game and what to do with it) and the "Play vs bots" setup form."""

from __future__ import annotations

import random

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from tui.widgets.choices import Btn, Tick


def _built(module: str) -> bool:
    from importlib.util import find_spec

    try:
        return find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def playable_games() -> list[tuple[str, str]]:
    """Only the games whose play screen is built, in the registry's order."""
    from engine.registry import GAMES as ALL

    return [(g, title) for g, title in ALL.items() if _built(f"tui.{g}.play")]


GAMES = tuple(playable_games())

# Per game: players allowed, default, and the options the setup form offers.
PLAYERS = {"clue": (2, 6, 4), "mascarade": (4, 12, 5), "masque": (4, 7, 4), "ghoul": (4, 8, 6)}
FLAGS = {
    "clue": [("centre_pile", "Face-down centre pile")],
    "masque": [("harder", "Harder: 3 Red Death cards per slot")],
    "ghoul": [("mask", "Mask variant"), ("support", "Support variant")],
}


class HomeScreen(Screen):
    """The games that work, and what you can do with each."""

    BINDINGS = [
        Binding("p", "app.new_game", "Play vs bots", id="home-play"),
        Binding("a", "app.assist", "Assist a table", id="home-assist"),
        Binding("r", "app.resume", "Resume", id="home-resume"),
        Binding("l", "app.rules('clue')", "Rules", id="home-rules"),
        Binding("s", "app.settings", "Settings", id="home-settings"),
        Binding("q", "app.quit", "Quit", id="home-quit"),
        Binding("down,right", "app.focus_next", "Next", show=False, id="home-next"),
        Binding("up,left", "app.focus_previous", "Previous", show=False, id="home-previous"),
    ]
    HELP_TITLE = "Home"
    AUTO_FOCUS = "#home-play"  # not the scrolling box around the buttons: it showed nothing as focused (issue 23)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="home-box"):
            yield Static("unmask", id="home-title")
            yield Static("Hidden-information board games in the terminal.", id="home-sub")
            for gid, title in GAMES:
                with Horizontal(classes="home-actions home-row"):
                    yield Static(title, classes="home-game")
                    suffix = "" if gid == "clue" else f"-{gid}"
                    yield Btn("Play vs bots", id=f"home-play{suffix}", variant="primary")
                    if _built(f"tui.{gid}.assist"):
                        yield Btn("Assist a table", id=f"home-assist{suffix}")
                    yield Btn("Rules", id=f"home-rules{suffix}")
            with Horizontal(classes="home-actions"):
                yield Btn("Resume", id="home-resume")
                yield Btn("Settings", id="home-settings")
                yield Btn("Quit", id="home-quit", variant="error")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        for gid, _title in GAMES:
            if gid != "clue" and bid.endswith(f"-{gid}"):
                kind = bid.removesuffix(f"-{gid}")
                if kind == "home-play":
                    self.app.action_new_game(gid)
                elif kind == "home-assist":
                    self.app.action_assist(gid)
                elif kind == "home-rules":
                    self.app.action_rules(gid)
                return
        actions = {"home-play": self.app.action_new_game, "home-resume": self.app.action_resume,
                   "home-assist": self.app.action_assist,
                   "home-rules": lambda: self.app.action_rules("clue"), "home-settings": self.app.action_settings,
                   "home-quit": self.app.exit}
        action = actions.get(event.button.id or "")
        if action:
            action()


class SetupScreen(Screen):
    """Players, one bot kind per seat, the game's variants and an optional seed."""

    HELP_TITLE = "New game"

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="setup-back"),
        Binding("ctrl+s", "start", "Start game", id="setup-start"),
    ]

    def __init__(self, game: str = "clue") -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        from engine.registry import GAMES as ALL
        from solvers.bots import BOT_HELP, bot_names

        lo, hi, default = PLAYERS.get(self.game, (2, 6, 4))
        kinds = bot_names(self.game)
        # The settings of the last game of this game played here (a new game from its end screen), else defaults.
        last = getattr(self.app, "last_setup", {}).get(self.game) or {}
        options, last_seats = last.get("options", {}), last.get("seats", [])
        if options.get("players") in range(lo, hi + 1):
            default = options["players"]
        with VerticalScroll(id="setup-box"):
            yield Static(f"New game — {ALL[self.game]} vs bots", id="setup-title")
            with Grid(id="setup-top"):
                if self.game == "clue":
                    from engine.clue.board import BOARDS, load_board

                    boards = [(load_board(b).name, b) for b in BOARDS]
                    yield Label("Board")
                    board = options.get("board") if options.get("board") in BOARDS else "red-keep"
                    yield Select(boards, value=board, allow_blank=False, id="setup-board")
                yield Label("Players")
                yield Select([(f"{n} players", n) for n in range(lo, hi + 1)], value=default, allow_blank=False,
                             id="setup-players")
            yield Static("You play seat 1. Bots: " + "; ".join(f"{k}: {BOT_HELP.get(self.game, {}).get(k, '')}"
                                                              for k in kinds) + ".", classes="setup-note")
            smart = next((k for k in ("notes", "honest", "heuristic") if k in kinds), kinds[0])
            with Grid(id="setup-bots"):
                for seat in range(1, hi):
                    kind = smart if seat % 2 or "random" not in kinds else "random"
                    if seat < len(last_seats) and last_seats[seat] in kinds:
                        kind = last_seats[seat]
                    yield Select([(f"Seat {seat + 1}: {k} bot", k) for k in kinds], value=kind, allow_blank=False,
                                 id=f"setup-bot-{seat}")
            with Horizontal(id="setup-row"):
                for key, label in FLAGS.get(self.game, []):
                    yield Tick(label, bool(options.get(key, False)), id=f"setup-flag-{key}")
                yield Input(placeholder="seed (optional)", id="setup-seed", type="integer")
            with Horizontal(classes="dialog-buttons"):
                yield Btn("Start game", id="setup-start", variant="primary")
                yield Btn("Back", id="setup-back")
        yield Footer()

    def on_mount(self) -> None:
        players = self.query_one("#setup-players", Select).value
        self._show_seats(players if isinstance(players, int) else PLAYERS.get(self.game, (2, 6, 4))[2])
        for inp in self.query(Input):
            inp.cursor_blink = False

    def _show_seats(self, players: int) -> None:
        for seat in range(1, PLAYERS.get(self.game, (2, 6, 4))[1]):
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
        from engine.registry import get_game
        from solvers.table import Table

        players = self.query_one("#setup-players", Select).value
        assert isinstance(players, int)
        seats = ["human"] + [str(self.query_one(f"#setup-bot-{s}", Select).value) for s in range(1, players)]
        raw = self.query_one("#setup-seed", Input).value.strip()
        try:
            seed = int(raw) if raw else random.randrange(1, 2**31)
        except ValueError:
            self.notify(f"The seed must be a whole number, not {raw[:20]!r}.", title="Seed", severity="warning")
            return
        options: dict = {"players": players}
        if self.game == "clue":
            options["board"] = self.query_one("#setup-board", Select).value
        for key, _label in FLAGS.get(self.game, []):
            options[key] = self.query_one(f"#setup-flag-{key}", Checkbox).value
        try:
            config = get_game(self.game).config_from_json(options)
            table = Table(self.game, config, seed, seats)
        except ValueError as e:  # options that do not make a game: the person's input, not a failure of the app
            self.notify(str(e), title="New game", severity="warning")
            return
        self.app.pop_screen()
        self.app.open_table(table, None, 0)  # type: ignore[attr-defined]
