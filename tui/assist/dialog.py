"""What every assistant's entry dialog shares: Save, Cancel, the preview line and paging the body.

A dialog is a full screen (it covers the notes anyway, and a modal screen would redraw the notes
beneath it on every tap). Its game says what the picks make (:meth:`AssistEntryDialog.build`: the
entry, or None and what is missing); Save dismisses with that entry, or shows what is missing in
the preview line, marked as a problem until the entry is whole; Cancel dismisses with None.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Static

from tui.assist.widgets import ASSIST_CSS, BREAKPOINTS_H, BREAKPOINTS_V, KeyBar, ScrollColumn, Tap, run_button


class AssistEntryDialog(Screen[Any]):
    """An entry dialog: the title, the body ``#{PREFIX}-dlg-body`` (it pages with PageUp / PageDown) with
    its scroll buttons, the preview line ``#ax-dlg-preview``, then Save and Cancel (``#{BUTTONS}-dlg-save``,
    ``#{BUTTONS}-dlg-cancel``) and the key bar."""

    CSS_PATH = ASSIST_CSS
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS_H
    VERTICAL_BREAKPOINTS = BREAKPOINTS_V
    BINDINGS: ClassVar = [
        Binding("pagedown", "scroll_body(1)", "Scroll", show=False),
        Binding("pageup", "scroll_body(-1)", "Scroll up", show=False),
    ]
    PREFIX: ClassVar[str] = "ax"
    BUTTONS: ClassVar[str] = "ax"

    problem = ""  # what a Save that failed said was missing ("" once the entry is whole)

    def compose(self) -> ComposeResult:
        body = f"{self.PREFIX}-dlg-body"
        with Vertical(id="ax-dialog"):
            yield Static(self._title(), id="ax-dlg-title")
            with Horizontal(id="ax-dlg-main"):
                with VerticalScroll(id=body):
                    yield from self._body()
                yield ScrollColumn(lambda: self.query_one(f"#{body}"), id=f"{self.PREFIX}-dlg-scroll")
            yield Static(self._first_preview(), id="ax-dlg-preview")
            with Horizontal(id="ax-dlg-buttons"):
                yield Tap("Save", id=f"{self.BUTTONS}-dlg-save", variant="primary")
                yield Tap("Cancel", id=f"{self.BUTTONS}-dlg-cancel")
        yield KeyBar(id="ax-keys")

    def _title(self) -> str:
        """The title line as the dialog opens."""
        return ""

    @property
    def HELP_TITLE(self) -> str:  # named as every screen's class attribute
        """The help screen's title: this dialog's own."""
        return self._title() or "Entry"

    def _first_preview(self) -> str:
        """The preview line as the dialog opens (what its first picks make), so the first frame is final."""
        return ""

    def _body(self) -> ComposeResult:
        """The questions, top to bottom (inside the scrolled body)."""
        raise NotImplementedError

    def build(self) -> tuple[Any, str]:
        """What the picks make now: the entry (or entries), or None and what is missing."""
        raise NotImplementedError

    def _preview(self, sentence: str | None, problem: str) -> None:
        """What Save would log (``sentence``), or what is missing: a problem only after a Save that failed."""
        preview = self.query_one("#ax-dlg-preview", Static)
        if sentence is None:
            preview.update(problem)
            preview.set_class(bool(self.problem), "-problem")
        else:
            self.problem = ""
            preview.update(sentence)
            preview.set_class(False, "-problem")

    def action_save(self) -> None:
        entry, problem = self.build()
        if entry is None:
            self.problem = problem
            preview = self.query_one("#ax-dlg-preview", Static)
            preview.update(problem)
            preview.add_class("-problem")
            return
        self.dismiss(entry)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_scroll_body(self, direction: int) -> None:
        body = self.query_one(f"#{self.PREFIX}-dlg-body")
        if direction > 0:
            body.scroll_page_down(animate=False)
        else:
            body.scroll_page_up(animate=False)

    @on(Button.Pressed)
    def _save_or_cancel(self, event: Button.Pressed) -> None:
        b = self.BUTTONS
        run_button(event, {f"{b}-dlg-save": self.action_save, f"{b}-dlg-cancel": self.action_cancel})
