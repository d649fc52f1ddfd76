"""Settings: how fast the bots play, the colour theme, and how the Clue play sheet is kept."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui.widgets.choices import Btn, Choices


class SettingsScreen(ModalScreen):
    """Bot speed (instant or readable) and theme; both also in the command palette."""

    HELP_TITLE = "Settings"

    BINDINGS = [Binding("escape", "dismiss", "Close", id="settings-close")]

    def compose(self) -> ComposeResult:
        from tui.app import READABLE_DELAY, THEMES

        app = self.app
        delay = getattr(app, "bot_delay", READABLE_DELAY)
        speed = Choices([("Instant", 0.0), (f"Readable ({READABLE_DELAY:g} s per move)", READABLE_DELAY)],
                        columns=2, keep_selection=True, id="settings-speed")
        speed.selected = speed.current = 0 if delay == 0 else 1
        themes = Choices([(t, t) for t in THEMES], columns=2, keep_selection=True, id="settings-theme")
        if app.theme in THEMES:
            themes.selected = themes.current = THEMES.index(app.theme)
        sheet = Choices([("Off", False), ("Solver's certain facts", True)],
                        columns=2, keep_selection=True, id="settings-sheet")
        sheet.selected = sheet.current = 1 if getattr(app, "sheet_help", False) else 0
        with Vertical(id="settings-box", classes="dialog"):
            yield Static("Settings", classes="dialog-title")
            yield Static("Bot speed", classes="dialog-label")
            yield speed
            yield Static("Theme (also ctrl+t)", classes="dialog-label")
            yield themes
            yield Static("Clue sheet in play: the solver's help", classes="dialog-label")
            yield sheet
            with Horizontal(classes="dialog-buttons"):
                yield Btn("Close", id="settings-close", variant="primary")

    def on_choices_chosen(self, event: Choices.Chosen) -> None:
        if event.choices.id == "settings-speed":
            self.app.set_bot_delay(event.value)  # type: ignore[attr-defined]
        elif event.choices.id == "settings-theme":
            self.app.theme = event.value
        elif event.choices.id == "settings-sheet":
            self.app.set_sheet_help(bool(event.value))  # type: ignore[attr-defined]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "settings-close":
            self.dismiss()
