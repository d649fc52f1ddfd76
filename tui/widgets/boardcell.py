"""A tappable cell of a board drawn as a grid of places (the Tokyo Ghoul ring, the Masque abbey)."""

from __future__ import annotations

from typing import Any

from textual.events import Click
from textual.message import Message
from textual.widgets import Static


class BoardCell(Static):
    """One place of a board; a tap reports its ``key`` to the play screen, which decides what it means."""

    class Clicked(Message):
        """The cell of place ``key`` was tapped."""

        def __init__(self, key: Any) -> None:
            super().__init__()
            self.key = key

    def __init__(self, key: Any, *, id: str, classes: str) -> None:
        super().__init__(id=id, classes=classes)
        self.key = key

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.key))
