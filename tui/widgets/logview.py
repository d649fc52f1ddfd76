"""A log that re-wraps when its width changes (RichLog wraps once, at write time)."""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static


class LogView(VerticalScroll):
    """Append-only lines, kept at the bottom like a chat."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.lines: list[Text] = []
        self._body = Static("", classes="log-body")

    def compose(self):
        yield self._body

    def clear(self) -> None:
        self.lines = []
        self._body.update("")

    def extend(self, lines: list[Text]) -> None:
        if not lines:
            return
        self.lines.extend(lines)
        self._body.update(Text("\n").join(self.lines))
        self.call_after_refresh(self.scroll_end, animate=False)
