"""The end of a Tokyo Ghoul game: every identity, every hand, and why each player won or lost."""

from __future__ import annotations

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Static

from tui.ghoul import model as m
from tui.screens.end import GameEndScreen
from tui.widgets.scroll import ScrollButtons


class EndScreen(GameEndScreen):
    """Built from the final view only (the result reveals every character), so it holds no game."""

    DEFAULT_CSS = """
    #gh-end-box { height: 1fr; padding: 0 1; }
    #gh-end-title { text-style: bold; color: $text-primary; width: 100%; content-align: center middle; }
    #gh-end-reason { margin: 0 0 1 0; }
    #gh-end-scroll { height: 1fr; }
    #gh-end-buttons { height: auto; }
    #gh-end-buttons Button { margin: 0 1 0 0; min-width: 8; }
    #gh-end-buttons ScrollButtons Button { min-width: 6; }
    """

    def __init__(self, view: dict) -> None:
        super().__init__()
        self.view = view

    def _rows_table(self) -> RichTable:
        """One row per player: who they were, what they held, and why they won or lost."""
        v = self.view
        wide = self.app.size.width >= 110
        grid = RichTable(box=None, padding=(0, 1), show_header=True, header_style="bold", expand=True,
                         pad_edge=False)
        grid.add_column("Player", no_wrap=True)
        grid.add_column("Character")
        if wide:
            grid.add_column("Cards")
            grid.add_column("Markers", justify="right")
        grid.add_column("Result", ratio=1)
        for row in m.end_rows(v):
            style = "bold green" if row.won else "bold"
            fac = m.FACTION_STYLE.get(row.faction, "")
            who = Text(row.name, style=style)
            char = Text(row.character, style="bold " + fac)
            char.append(f"\n{row.faction}", style=fac)
            result = Text("WON: " if row.won else "lost: ", style="bold green" if row.won else "")
            result.append("; ".join(row.why), style="green" if row.won else "")
            if wide:
                grid.add_row(who, char, row.cards, str(row.markers), result)
            else:
                result.append(f"\n{row.cards} · {m.markers(row.markers)}", style="dim")
                grid.add_row(who, char, result)
        return grid

    def compose(self) -> ComposeResult:
        v = self.view
        with Vertical(id="gh-end-box"):
            yield Static(m.headline(v), id="gh-end-title", markup=False)  # names are text, never markup
            yield Static(m.end_reason(v), id="gh-end-reason", markup=False)
            with VerticalScroll(id="gh-end-scroll"):
                yield Static(id="gh-end-rows")
            with Horizontal(id="gh-end-buttons"):
                yield from self.end_buttons(quit=False, replay="Replay")  # the scroll buttons share the row
                yield ScrollButtons("#gh-end-scroll", id="gh-end-scrollbtn")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#gh-end-rows", Static).update(self._rows_table())
