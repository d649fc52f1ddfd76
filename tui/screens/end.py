"""What every game's end screen shares: its keys, its buttons and where they lead.

Each game's `EndScreen` draws its own result; the way out of it (a new game, home, back to the
board, the replay, quit) is the same everywhere, so it lives here once.
"""

from __future__ import annotations

import contextlib

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
        Binding("r", "replay", "Replay", id="end-replay"),
        Binding("q", "app.quit", "Quit", id="end-quit"),
    ]


class GameEndScreen(Screen):
    """The base of a game's end screen, which holds no game: only the final view it was given."""

    BINDINGS = end_bindings()
    HELP_TITLE = "Game over"

    @staticmethod
    def end_buttons(board: str = "Board (b)", quit: bool = True, replay: str = "Replay (r)") -> ComposeResult:
        """The row of ways out, in the order of the keys (``replay``: a shorter label where the row is full)."""
        yield Btn("New game (n)", id="end-new", variant="primary")
        yield Btn("Home (h)", id="end-home")
        yield Btn(board, id="end-board")
        yield Btn(replay, id="end-replay")
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

    def action_replay(self) -> None:
        """The replay of the game that just ended: its table (the play screen's, below) gives the session,
        a shared table's from the table service; any problem is one notification."""
        from engine.replay import replay_steps
        from engine.session import SessionError

        below = next((s for s in reversed(self.app.screen_stack[:-1]) if hasattr(s, "table")), None)
        if below is None:
            self.notify("There is no game here to replay.", title="No replay", severity="warning")
            return
        try:
            replay = replay_steps(below.table.replay_session())
        except SessionError as e:
            self.notify(str(e), title="No replay", severity="warning", markup=False)
            return
        except Exception as e:  # a lost table service: one line, never a traceback
            self.notify(f"{e.__class__.__name__}: {e}".splitlines()[0], title="No replay", severity="error",
                        markup=False)
            return
        path = None
        sid = getattr(below, "session_id", None)
        if isinstance(sid, str) and not hasattr(below, "remote"):  # a local game: its file keeps the beliefs
            from tui.storage import session_path

            with contextlib.suppress(SessionError, OSError):
                path = session_path(sid)
        self.app.open_replay(replay, getattr(below, "seat", 0), path)  # type: ignore[attr-defined]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"end-new": self.action_new_game, "end-home": self.action_home, "end-board": self.action_board,
                   "end-replay": self.action_replay, "end-quit": self.app.exit}
        action = actions.get(event.button.id or "")
        if action:
            action()
