"""Draw a Static only when what it shows has changed, for the play screens that redraw on every move."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static


class DrawOnce:
    """Mixed into a screen: `_put` skips a Static whose content is what it last drew there."""

    _drawn: dict[str, Any]

    def _put(self, selector: str, content: Any) -> None:
        """Update a Static only when its content changed (a redraw of the same text costs a layout)."""
        key = content.markup if isinstance(content, Text) else content
        if self._drawn.get(selector) != key:
            self._drawn[selector] = key
            # Text, not markup: names chosen by players are drawn as they are (issue 14).
            self.query_one(selector, Static).update(  # type: ignore[attr-defined]
                Text(content) if isinstance(content, str) else content)
