"""What every game's end screen shares: its keys, its buttons and where they lead.

Each game's `EndScreen` draws its own result; the way out of it (a new game, home, back to the
board, quit) is the same everywhere, so it lives here once.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Button

from tui.widgets.choices import Btn


def end_bindings(board: str = "Board & log") -> list[Binding]:
    """The end screen's keys; `board` names what `b` goes back to."""
    return [
        Binding("n", "new_game", "New game", id="end-new"),
        Binding("h", "home", "Home", id="end-home"),
        Binding("b", "board", board, id="end-board"),
        Binding("q", "app.quit", "Quit", id="end-quit"),
    ]


class GameEndScreen(Screen):
    """The base of a game's end screen, which holds no game: only the final view it was given."""

    BINDINGS = end_bindings()
    HELP_TITLE = "Game over"

    @staticmethod
    def end_buttons(board: str = "Board (b)", quit: bool = True) -> ComposeResult:
        """The row of ways out, in the order of the keys."""
        yield Btn("New game (n)", id="end-new", variant="primary")
        yield Btn("Home (h)", id="end-home")
        yield Btn(board, id="end-board")
        if quit:
            yield Btn("Quit (q)", id="end-quit", variant="error")

    def action_new_game(self) -> None:
        """A new game of the same game: each game's end screen lives in its wing, ``tui.<game>.end``."""
        self.app.action_new_game(type(self).__module__.split(".")[1])  # type: ignore[attr-defined]

    def action_home(self) -> None:
        self.app.action_home()  # type: ignore[attr-defined]

    def action_board(self) -> None:
        """Back to the board, once: a double tap queues two presses, and a second pop would take the
        finished game's board away too (straight to Home)."""
        if self.app.screen is self:
            self.app.pop_screen()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"end-new": self.action_new_game, "end-home": self.action_home, "end-board": self.action_board,
                   "end-quit": self.app.exit}
        action = actions.get(event.button.id or "")
        if action:
            action()
