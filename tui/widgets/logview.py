"""A game log that re-wraps when its width changes (RichLog wraps each line once, when written).

Lines added while the log is hidden (another tab shows) are kept and wrapped when it shows again:
a hidden RichLog has no width and would wrap them at its minimum width, for good. The first
scrollbar narrows the pane without a resize: the lines are re-wrapped after the redraw too.
"""

from __future__ import annotations

from rich.text import Text
from textual.events import Resize, Show
from textual.widgets import RichLog


class LogView(RichLog):
    """Append-only lines, newest at the bottom; cheap to extend, re-wrapped on resize and on show."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, wrap=True, markup=False, auto_scroll=True, min_width=10)
        self.texts: list[Text] = []
        self._wrapped_at = 0  # the content width the written lines were wrapped at (0: none written)
        self._written = 0  # how many of ``texts`` are written

    def _width_now(self) -> int:
        """The width lines can be wrapped at now, or 0 while the log is hidden or not laid out."""
        if not self.is_mounted or not self._size_known or self.region.width == 0:
            return 0
        return self.scrollable_content_region.width

    @property
    def caught_up(self) -> bool:
        """True when every line is written at the width the log has now (or the log is not shown):
        after a show, a resize or a scrollbar, the re-wrap waits for the next refresh."""
        width = self._width_now()
        return width == 0 or (width == self._wrapped_at and self._written == len(self.texts))

    def extend(self, lines: list[Text]) -> None:
        self.texts.extend(lines)
        width = self._width_now()
        if width == 0:
            return  # wrapped when the log shows (on_show / on_resize)
        if width != self._wrapped_at:
            self._rewrap(width)
            return
        self._write_rest()
        self.call_after_refresh(self._catch_up)  # a scrollbar that appeared narrows the pane

    def _write_rest(self) -> None:
        for line in self.texts[self._written:]:
            self.write(line)
        self._written = len(self.texts)

    def reset(self) -> None:
        self.texts = []
        self._wrapped_at = 0
        self._written = 0
        self.clear()

    def _rewrap(self, width: int) -> None:
        self._wrapped_at = width
        self.clear()
        for line in self.texts:
            self.write(line, scroll_end=False)
        self._written = len(self.texts)
        self.scroll_end(animate=False, immediate=False, x_axis=False)

    def _catch_up(self) -> None:
        width = self._width_now()
        if width and width != self._wrapped_at:
            self._rewrap(width)
        elif width and self._written < len(self.texts):
            self._write_rest()

    def on_resize(self, event: Resize) -> None:
        # Runs before RichLog's own handler, which would flush writes deferred before the size was known.
        self._deferred_renders.clear()
        if event.size.width:
            self._size_known = True
        self.call_after_refresh(self._catch_up)

    def on_show(self, _event: Show) -> None:
        self.call_after_refresh(self._catch_up)
