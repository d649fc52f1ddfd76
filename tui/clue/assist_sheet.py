"""The detective sheet: every card against every holder, from the exact solver's answer.

A cell shows ✓ (certainly there), ✗ (certainly not) or the exact probability, shaded by it, so
the likely holders stand out at a glance. The row cursor picks a card; the line under the
table then spells out the card's full name and its whole distribution.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.color import Color
from textual.message import Message
from textual.widgets import DataTable

from tui.clue import assist_model as m

GROUP_PREFIX = "group:"


class SheetTable(DataTable):
    """Cards (grouped by category) x holders; rebuilt on setup or resize, cells updated per solution."""

    class Tapped(Message):
        """A tap on the cell of ``card`` at ``holder`` (DataTable itself selects only on a second tap)."""

        def __init__(self, sheet: SheetTable, card: str, holder: str) -> None:
            super().__init__()
            self.sheet = sheet
            self.card = card
            self.holder = holder

        @property
        def control(self) -> SheetTable:
            return self.sheet

    def action_select_cursor(self) -> None:
        """Enter: the screen tells a key from a tap by ``by_key`` (taps come as :class:`Tapped`)."""
        self.by_key = True
        super().action_select_cursor()

    async def _on_click(self, event: events.Click) -> None:
        meta = event.style.meta
        await super()._on_click(event)
        row, column = meta.get("row", -1), meta.get("column", -1)
        if row >= 0 and 0 <= column < len(self.holders) and row < self.row_count:
            key = self.ordered_rows[row].key.value
            if key is not None and not key.startswith(GROUP_PREFIX):
                self.post_message(self.Tapped(self, key, self.holders[column]))

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False, show_row_labels=True,
                         cursor_foreground_priority="renderable")
        self.cell_padding = 0
        self.config: Mapping[str, Any] = {}
        self.holders: list[str] = []
        self.deck: dict[str, list[str]] = {}
        self.labels: dict[str, str] = {}
        self.width_each = 6
        self.solution: Mapping[str, Any] | None = None
        self.built_for: tuple[Any, ...] | None = None
        self.by_key = False

    # ------------------------------------------------------------------ colours

    def _palette(self) -> dict[str, Color]:
        v = self.app.get_css_variables()

        def color(name: str, fallback: str) -> Color:
            try:
                return Color.parse(v.get(name, fallback))
            except Exception:  # a theme variable that is not a plain colour
                return Color.parse(fallback)

        return {
            "surface": color("surface", "#1e1e1e"),
            "primary": color("primary", "#0178d4"),
            "accent": color("accent", "#fea62b"),
            "success": color("success", "#4ebf71"),
            "error": color("error", "#b93c5b"),
            "foreground": color("foreground", "#e0e0e0"),
        }

    def _style_cell(self, cell: m.Cell, envelope: bool, pal: dict[str, Color]) -> Style:
        if cell.mark == "yes":
            bg = pal["accent"] if envelope else pal["success"]
            return Style(bgcolor=bg.rich_color, color=bg.get_contrast_text().rich_color, bold=True)
        if cell.mark == "no":
            fg = pal["surface"].blend(pal["foreground"], 0.45)
            return Style(bgcolor=pal["surface"].rich_color, color=fg.rich_color)
        bg = pal["surface"].blend(pal["accent"] if envelope else pal["primary"], 0.12 + 0.78 * cell.shade)
        return Style(bgcolor=bg.rich_color, color=bg.get_contrast_text().rich_color)

    # ------------------------------------------------------------------ building

    def build(self, config: Mapping[str, Any], *, width: int) -> None:
        """(Re)create the columns and rows for ``config`` on a ``width``-cell screen (only when that changes).

        Three sizes: SSH (< 100 cells: short labels, narrow columns), tablet (< 130) and wide.
        """
        narrow = width < 100
        tier = 0 if narrow else 1 if width < 130 else 2
        key = (id(config), tier, tuple(m.sheet_holders(config)))
        if key == self.built_for:
            return
        self.built_for = key
        self.config = config
        self.holders = m.sheet_holders(config)
        self.deck = m.deck_of(config)
        self.width_each = (6, 7, 8)[tier]
        self.labels = m.short_labels(self.deck, config.get("board"), (11, 14, 18)[tier])
        self.clear(columns=True)
        me = config.get("me")
        names = m.player_labels(list(config.get("players") or []), self.width_each - 1)
        for holder in self.holders:
            title = names.get(holder) or m.short_player(self._title(holder, tier < 2), self.width_each - 1)
            style = "bold underline" if holder == me else "bold"
            self.add_column(Text(title, style=style, justify="center"), width=self.width_each, key=holder)
        for cat in m.CATEGORIES:
            self.add_row(*[""] * len(self.holders), key=GROUP_PREFIX + cat,
                         label=Text(m.CATEGORY_TITLES[cat].upper(), style="bold"))
            for card in self.deck[cat]:
                self.add_row(*[""] * len(self.holders), key=card, label=Text(" " + self.labels[card]))
        self.move_cursor(row=1, animate=False)
        if self.solution is not None:
            self.show(self.solution)

    @staticmethod
    def _title(holder: str, short: bool) -> str:
        if holder == m.ENVELOPE:
            return "Env"
        if short:
            return {m.FACE_UP: "Up", m.CENTRE: "Ctr"}.get(holder, m.holder_title(holder))
        return m.holder_title(holder)

    def panel_width(self) -> int:
        """Cells the table needs: row labels, every column, and room for a scrollbar."""
        label = max((len(v) for v in self.labels.values()), default=8) + 1
        return max(label, len("LOCATIONS")) + self.width_each * len(self.holders) + 1

    def show(self, solution: Mapping[str, Any] | None) -> None:
        """Fill every cell from a solver answer (``None`` clears the sheet)."""
        self.solution = solution
        if not self.holders:
            return
        pal = self._palette()
        w = self.width_each
        for cat in m.CATEGORIES:
            for card in self.deck[cat]:
                for holder in self.holders:
                    if solution is None:
                        value: Text | str = ""
                    else:
                        cell = m.sheet_cell(solution, card, holder)
                        value = Text(cell.text.center(w), style=self._style_cell(cell, holder == m.ENVELOPE, pal),
                                     justify="center")
                    self.update_cell(card, holder, value)

    def card_at_cursor(self) -> str | None:
        """The card on the cursor row (None on a category heading)."""
        if not self.row_count:
            return None
        try:
            key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        except Exception:  # an empty or rebuilding table
            return None
        if key is None or key.startswith(GROUP_PREFIX):
            return None
        return key

    def describe_card(self, card: str | None) -> str:
        """The full name of ``card`` and where it may be, for the line under the table."""
        if card is None or self.solution is None:
            return "Tap a card row to see its full name and every holder's chance."
        parts = []
        for holder in self.holders:
            cell = m.sheet_cell(self.solution, card, holder)
            parts.append(f"{m.holder_title(holder)} {cell.text}")
        return f"{card}: " + " · ".join(parts)
