"""Saved sessions: open one, or delete it. A damaged file is listed with its one-line problem."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from engine import words
from tui.widgets.choices import Btn
from tui.widgets.confirm import ConfirmDialog
from tui.widgets.scroll import ScrollButtons


class ResumeScreen(Screen):
    """Every saved session, newest first, each with Open and Delete."""

    HELP_TITLE = "Resume a game"

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="resume-back"),
        Binding("enter", "open_focused", "Open", show=False, id="resume-open"),
        Binding("delete,d", "delete_focused", "Delete", id="resume-delete"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(getattr(self.app, "RESUME_TITLE", "Resume a saved game"), classes="screen-title")
        yield VerticalScroll(id="resume-list")
        with Horizontal(classes="button-row"):
            yield ScrollButtons("#resume-list", id="resume-scroll")
            yield Btn("Back", id="resume-back")
        yield Footer()

    async def on_screen_resume(self) -> None:
        await self.reload()

    async def reload(self) -> None:
        from engine.registry import GAMES
        from tui.storage import list_sessions

        box = self.query_one("#resume-list", VerticalScroll)
        await box.remove_children()
        try:
            infos = list_sessions()
        except OSError as e:
            await box.mount(Static(f"Cannot read the sessions folder: {e.__class__.__name__}.", classes="resume-empty"))
            return
        self.infos = {i.id: i for i in infos}
        if not infos:
            await box.mount(Static("No saved games yet. Start one from Home: Play vs bots.", classes="resume-empty"))
            return
        rows = []
        for i, info in enumerate(infos):
            if info.error:
                text = f"⚠ {info.id}\n  {info.error}"
            else:
                moves = words.count(info.moves, "move")
                ended = " · ended" if info.over else ""
                text = f"{GAMES.get(info.game, info.game)} · {moves}{ended} · {info.when}\n  {info.id}"
            buttons = [Btn("Open", id=f"resume-open-{i}", classes="resume-open", variant="primary",
                           disabled=bool(info.error))]
            if info.over:  # a finished game: its replay, every hidden card face up (issue 25)
                buttons.append(Btn("Replay", id=f"resume-replay-{i}", classes="resume-replay"))
            row = Horizontal(
                Static(text, classes="resume-info" + (" -damaged" if info.error else "")),
                *buttons,
                Btn("Delete", id=f"resume-delete-{i}", classes="resume-delete", variant="error"),
                classes="resume-row",
            )
            row.session_id = info.id  # type: ignore[attr-defined]
            rows.append(row)
        await box.mount_all(rows)
        self.call_after_refresh(self._focus_first)

    def _focus_first(self) -> None:
        buttons = [b for b in self.query(".resume-open, .resume-delete").results(Button) if not b.disabled]
        if buttons:
            buttons[0].focus()

    def _session_of(self, button: Button | None) -> str | None:
        node = button.parent if button is not None else None
        return getattr(node, "session_id", None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if bid == "resume-back":
            self.app.pop_screen()
        elif bid.startswith("resume-open-"):
            self.open(self._session_of(event.button))
        elif bid.startswith("resume-replay-"):
            self.replay(self._session_of(event.button))
        elif bid.startswith("resume-delete-"):
            self.ask_delete(self._session_of(event.button))

    def action_open_focused(self) -> None:
        focused = self.focused
        if isinstance(focused, Button) and (focused.id or "").startswith("resume-delete-"):
            self.ask_delete(self._session_of(focused))
        elif isinstance(focused, Button) and (focused.id or "").startswith("resume-open-"):
            self.open(self._session_of(focused))
        elif isinstance(focused, Button) and (focused.id or "").startswith("resume-replay-"):
            self.replay(self._session_of(focused))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Delete is offered only while a saved game's button has the focus (Back or nothing: no Delete)."""
        if action == "delete_focused":
            focused = self.focused
            return self._session_of(focused if isinstance(focused, Button) else None) is not None
        return True

    def action_delete_focused(self) -> None:
        focused = self.focused
        if isinstance(focused, Button):
            self.ask_delete(self._session_of(focused))

    def open(self, session_id: str | None) -> None:
        """Replay the session and open it; any problem becomes a one-line notification."""
        from engine.session import SessionError
        from solvers.table import Table
        from tui.storage import load_session

        if session_id is None:
            return
        try:
            session = load_session(session_id)
            if session.mode == "assist":
                self.app.open_assist(session_id, session)  # type: ignore[attr-defined]
                return
            if "human" not in session.seats:
                raise SessionError("This session has no human seat to play.")
            table = Table.from_session(session)
        except SessionError as e:
            self.notify(str(e), title="Cannot open this session", severity="error")
            return
        except Exception as e:  # a bad config or bot name must never crash the app
            self.notify(f"{e.__class__.__name__}: {e}".splitlines()[0], title="Cannot open this session",
                        severity="error")
            return
        marks = session.extra.get("clue_marks")
        self.app.open_table(table, session_id, session.seats.index("human"),  # type: ignore[attr-defined]
                            marks=marks if isinstance(marks, dict) else None)

    def replay(self, session_id: str | None) -> None:
        """Open the replay of a finished game; any problem becomes a one-line notification."""
        from engine.replay import replay_steps
        from engine.session import SessionError
        from tui.storage import load_session, session_path

        if session_id is None:
            return
        try:
            session = load_session(session_id)
            game = replay_steps(session)
            path = session_path(session_id)
        except SessionError as e:
            self.notify(str(e), title="Cannot replay this game", severity="error", markup=False)
            return
        seat = session.seats.index("human") if "human" in session.seats else 0
        self.app.open_replay(game, seat, path)  # type: ignore[attr-defined]

    def ask_delete(self, session_id: str | None) -> None:
        if session_id is None:
            return

        def done(yes: bool | None) -> None:
            if yes:
                from tui.storage import delete_session

                try:
                    delete_session(session_id)
                except Exception as e:
                    self.notify(f"Could not delete: {e.__class__.__name__}", severity="error")
                self.call_later(self.reload)

        self.app.push_screen(ConfirmDialog(f"Delete the saved game {session_id}? This cannot be undone.",
                                           yes="Delete", title="Delete saved game"), done)
