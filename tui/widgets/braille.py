"""A small chart in braille dots: each cell holds 2×4 dots, so a few rows draw a whole game's series.

Why braille: the charts sit beside the replay in 80×24 too, where a plotting library has no room
(and none is a dependency). Tap a point to jump to that step.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

_BITS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))  # [dot column][dot row], top row first


def braille_rows(values: list[float | None], width: int, height: int) -> list[str]:
    """``values`` (each in [0, 1], None for no point) as ``height`` rows of ``width`` braille cells.

    Step ``i`` of ``n`` sits at dot column ``round(i * (2 * width - 1) / (n - 1))``; 1 is the top dot
    row, 0 the bottom; a column between two steps holds the earlier one, and successive points are
    joined by a vertical run so the line reads as one; a None breaks the line.
    """
    cols, rows = 2 * width, 4 * height
    cells = [[0] * width for _ in range(height)]
    last = max(1, len(values) - 1)
    # Each dot column shows the latest step drawn at or before it: a belief holds until the next step.
    column: list[float | None] = [None] * cols
    filled = [False] * cols
    for i, v in enumerate(values):
        x = round(i * (cols - 1) / last)
        column[x], filled[x] = v, True
    for x in range(1, cols):
        if not filled[x]:
            column[x] = column[x - 1]
    prev_y: int | None = None
    for x in range(cols):
        v = column[x]
        if v is None:
            prev_y = None
            continue
        y = round((1.0 - min(max(v, 0.0), 1.0)) * (rows - 1))
        lo, hi = (y, y) if prev_y is None else (min(y, prev_y), max(y, prev_y))
        for yy in range(lo, hi + 1):
            cells[yy // 4][x // 2] |= _BITS[x % 2][yy % 4]
        prev_y = y
    return ["".join(chr(0x2800 + c) for c in row) for row in cells]


def step_at(x: int, width: int, steps: int) -> int:
    """The step a tap at cell ``x`` of a ``width``-cell chart of ``steps`` points lands on."""
    x = min(max(x, 0), width - 1)
    last = max(1, steps - 1)
    return min(last, round((2 * x + 0.5) * last / max(1, 2 * width - 1)))


def cell_of(step: int, width: int, steps: int) -> int:
    """The cell column step ``step`` is drawn in."""
    return round(step * (2 * width - 1) / max(1, steps - 1)) // 2


class BrailleChart(Static):
    """A series over the steps of a game, the current step's column highlighted; a tap jumps there."""

    class Jump(Message):
        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    def __init__(self, steps: int, **kw: object) -> None:
        super().__init__("", **kw)  # type: ignore[arg-type]
        self.steps = steps
        self.values: list[float | None] = []
        self.at = 0

    def plot(self, values: list[float | None], at: int) -> None:
        self.values, self.at = list(values), at
        self.refresh()

    def render(self) -> Text:
        width = max(1, self.content_region.width or self.size.width or 1)
        height = max(1, self.content_region.height or self.size.height or 1)
        padded = self.values + [None] * (self.steps - len(self.values))
        rows = braille_rows(padded, width, height)
        here = cell_of(self.at, width, self.steps)
        out = Text()
        for r, row in enumerate(rows):
            if r:
                out.append("\n")
            out.append(row[:here], style="bold")
            out.append(row[here : here + 1] if row[here : here + 1] != "⠀" else "│", style="reverse")
            out.append(row[here + 1 :], style="bold")
        return out

    def on_click(self, event: events.Click) -> None:
        width = max(1, self.content_region.width)
        self.post_message(self.Jump(step_at(event.x, width, self.steps)))
