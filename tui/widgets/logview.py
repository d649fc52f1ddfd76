"""A game log that re-wraps when its width changes (RichLog wraps each line once, when written)."""

from __future__ import annotations

from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog


class LogView(RichLog):
    """Append-only lines, newest at the bottom; cheap to extend, re-wrapped on resize."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, wrap=True, markup=False, auto_scroll=True, min_width=10)
        self.texts: list[Text] = []
        self._wrapped_at = 0

    def extend(self, lines: list[Text]) -> None:
        for line in lines:
            self.texts.append(line)
            self.write(line)

    def reset(self) -> None:
        self.texts = []
        self.clear()

    def on_resize(self, event: Resize) -> None:
        # Runs before RichLog's own handler, which flushes the writes made before the size was known.
        width = event.size.width
        if self._size_known and width != self._wrapped_at and self.texts:
            self._wrapped_at = width
            self.clear()
            for line in self.texts:
                self.write(line)
        elif width:
            self._wrapped_at = width
