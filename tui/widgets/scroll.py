"""Explicit scroll buttons: on a tablet a swipe does nothing, so long text needs buttons."""

from __future__ import annotations

from collections.abc import Callable

from textual.containers import Horizontal
from textual.errors import NoWidget
from textual.widget import Widget
from textual.widgets import Button

from tui.widgets.choices import Btn


def scroll_by_button(widget: Widget, what: str) -> None:
    """Scroll ``widget`` at once as the scroll button ``what`` (top, up, down or end) says."""
    if what == "top":
        widget.scroll_home(animate=False)
    elif what == "end":
        widget.scroll_end(animate=False)
    elif what == "up":
        widget.scroll_page_up(animate=False)
    else:
        widget.scroll_page_down(animate=False)


class ScrollButtons(Horizontal):
    """Top / page up / page down / end buttons for a scrollable widget.

    ``target`` is a CSS selector (the first match that is on screen) or a function returning the widget.
    """

    def __init__(self, target: str | Callable[[], Widget], *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.target = target

    def compose(self):
        prefix = self.id or "scroll"
        yield Btn("Top", id=f"{prefix}-top", classes="scroll-btn")
        yield Btn("▲ Up", id=f"{prefix}-up", classes="scroll-btn")
        yield Btn("▼ Down", id=f"{prefix}-down", classes="scroll-btn")
        yield Btn("End", id=f"{prefix}-end", classes="scroll-btn")

    def _target(self) -> Widget | None:
        if callable(self.target):
            return self.target()
        for widget in self.screen.query(self.target):
            try:
                self.screen.find_widget(widget)
            except NoWidget:
                continue
            return widget
        return None

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        widget = self._target()
        if widget is None or event.button.id is None:
            return
        scroll_by_button(widget, event.button.id.rsplit("-", 1)[-1])
