"""What a client may ask of a served app: terminal sizes and terminal names kept to what a screen can use.

A client chooses its terminal size (an SSH pty request and every window change; a browser's
resize message) and its terminal type (``TERM``). The app draws a frame of width × height
cells for every change, so a 32000×32000 terminal grew an app by gigabytes (issue 22, finding
1), and a size over 32767 did not even fit the kernel's ``struct winsize`` (finding 2). A
220,000-character ``TERM`` did not fit the fork server's socket or ``execve`` (finding 10).
Both servers pass every such value through here first.
"""

from __future__ import annotations

import re

MAX_COLS = 500  # wider than any real screen at a readable font size (an 8K display is ~480 columns at 16 px)
MAX_ROWS = 200
MIN_COLS = 1
MIN_ROWS = 1
MAX_PIXELS = 65535  # struct winsize holds unsigned shorts

DEFAULT_TERM = "xterm-256color"
MAX_TERM_LENGTH = 64  # terminfo names are short ("xterm-256color", "screen.xterm-256color", "rxvt-unicode-256color")
_TERM_CHARS = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")


def clamp_terminal_size(cols: int, rows: int) -> tuple[int, int]:
    """``(cols, rows)`` within ``MIN_COLS..MAX_COLS`` × ``MIN_ROWS..MAX_ROWS`` (0 or less: the minimum)."""
    return (min(MAX_COLS, max(MIN_COLS, int(cols))), min(MAX_ROWS, max(MIN_ROWS, int(rows))))


def clamp_pixels(pixels: int) -> int:
    """A pixel width or height a client sent, within what ``struct winsize`` holds (0 = unknown)."""
    return min(MAX_PIXELS, max(0, int(pixels)))


def sane_term(term: str | None) -> str:
    """The client's ``TERM`` if it is a plausible terminfo name, else ``DEFAULT_TERM``.

    A plausible name is at most ``MAX_TERM_LENGTH`` ASCII letters, digits, ``.``, ``_``, ``+`` or
    ``-``, starting with a letter or digit. Anything else (empty, huge, control characters, spaces,
    ``=``) would reach the app's environment and terminfo look-ups as it is.
    """
    if term and len(term) <= MAX_TERM_LENGTH and term.isascii() and _TERM_CHARS.fullmatch(term):
        return term
    return DEFAULT_TERM
