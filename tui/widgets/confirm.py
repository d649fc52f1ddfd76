"""A yes/no question as a modal dialog; the answer goes to the callback given to push_screen."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui.widgets.choices import Btn


class ConfirmDialog(ModalScreen[bool]):
    """Dismisses with True (yes) or False (no, or escape)."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm-yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm-no"),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "Cancel", *, title: str = "Are you sure?") -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.no = no
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog confirm-box"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static(self.question, classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Btn(f"{self.yes} (y)", id="confirm-yes", variant="error")
                yield Btn(f"{self.no} (n)", id="confirm-no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm-yes")
