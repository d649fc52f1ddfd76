"""Sizes a client may ask for, kept to what a screen can use.

A terminal of 32000×32000 cells makes the app allocate gigabytes for its screen buffers, so every
size a client sends (an SSH pty request or window change, a web page's query string or ``resize``
message) passes through :func:`clamp_terminal_size` before it reaches an app.
"""

from __future__ import annotations

MAX_COLS = 500
MAX_ROWS = 200
MIN_COLS = 1
MIN_ROWS = 1


def clamp_terminal_size(cols: int, rows: int) -> tuple[int, int]:
    """``(cols, rows)`` kept within 1×1 .. 500×200 (a 4K screen at a tiny font is ~480×135)."""
    return max(MIN_COLS, min(MAX_COLS, int(cols))), max(MIN_ROWS, min(MAX_ROWS, int(rows)))
