"""What every assistant's new-table form shares: Start, Cancel and the list of problems.

Each game's form lays out its own fields (:meth:`AssistSetupForm._fields`) and says what they hold
(:meth:`AssistSetupForm._checked`); this class frames them (a scrolled column with its scroll
buttons, the problems under the fields, Start and Cancel below) and turns Start into a
:class:`AssistSetupForm.Done` with a checked config, or lists the problems and scrolls to them
(nothing picked or typed is lost), and Cancel (or Escape) into :class:`AssistSetupForm.Cancelled`.
The assistant screen starts the table from Done.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Static

from tui.assist.widgets import ScrollColumn, Tap, run_button


class AssistSetupForm(Vertical):
    """A new-table form: ``#{PREFIX}-setup-scroll`` holds the fields and ``#{PREFIX}-errors`` the problems;
    the buttons are ``#{BUTTONS}-start`` and ``#{BUTTONS}-cancel``."""

    PREFIX: ClassVar[str] = "ax"
    BUTTONS: ClassVar[str] = "ax"

    class Done(Message):
        """The form holds a usable table: its config and the session's extra fields (a game's variant)."""

        def __init__(self, config: dict[str, Any], extra: dict[str, Any] | None = None) -> None:
            super().__init__()
            self.config = config
            self.extra = extra or {}

    class Cancelled(Message):
        """The form was left without starting a table."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.errors: list[str] = []

    def compose(self) -> ComposeResult:
        with Horizontal(id=f"{self.PREFIX}-setup-main"):
            with VerticalScroll(id=f"{self.PREFIX}-setup-scroll"):
                yield from self._fields()
                yield Static("", id=f"{self.PREFIX}-errors")
            yield ScrollColumn(lambda: self.query_one(f"#{self.PREFIX}-setup-scroll"),
                               id=f"{self.PREFIX}-setup-scrollbtns")
        with Horizontal(id=f"{self.PREFIX}-setup-buttons", classes="ax-form-buttons"):
            yield Tap("Start", id=f"{self.BUTTONS}-start", variant="primary")
            yield Tap("Cancel", id=f"{self.BUTTONS}-cancel")

    def _fields(self) -> ComposeResult:
        """The form's own fields, top to bottom."""
        raise NotImplementedError

    def refresh_form(self) -> None:
        """Bring the widgets up to date with what the form holds, the problems included."""
        raise NotImplementedError

    def _checked(self) -> tuple[dict[str, Any] | None, dict[str, Any] | None, list[str]]:
        """The config the form holds now (None when it cannot be used), the session's extra fields, the problems."""
        raise NotImplementedError

    def _show_errors(self) -> None:
        errors = self.query_one(f"#{self.PREFIX}-errors", Static)
        errors.update("\n".join(f"• {e}" for e in self.errors))
        errors.display = bool(self.errors)

    def action_start(self) -> None:
        config, extra, errors = self._checked()
        self.errors = errors
        self.refresh_form()
        if config is None:
            self.query_one(f"#{self.PREFIX}-setup-scroll", VerticalScroll).scroll_end(animate=False)
            return
        self.post_message(self.Done(config, extra))

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())

    @on(Button.Pressed)
    def _start_or_cancel(self, event: Button.Pressed) -> None:
        run_button(event, {f"{self.BUTTONS}-start": self.action_start, f"{self.BUTTONS}-cancel": self.action_cancel})
