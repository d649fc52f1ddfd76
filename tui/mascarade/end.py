"""The end of a Mascarade game: who won and why, and every card face up."""

from __future__ import annotations

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Static

from engine import words
from tui.mascarade.model import REASONS, coins_text, mask_name, place_label, winners_text
from tui.screens.end import GameEndScreen, end_bindings


class EndScreen(GameEndScreen):
    """Built from plain data (the final view and the final cards), so it holds no game."""

    BINDINGS = end_bindings("Table & log")
    DEFAULT_CSS = """
    #mq-end-box { width: 78; max-width: 100%; height: auto; max-height: 100%; border: thick $primary;
                  background: $surface; padding: 0 1; }
    EndScreen { align: center middle; }
    #mq-end-title { text-style: bold; width: 100%; content-align: center middle; color: $text-primary; }
    #mq-end-scroll { height: auto; max-height: 16; }
    """

    def __init__(self, view: dict, cards: list[str]) -> None:
        super().__init__()
        self.view = view
        self.cards = cards

    def compose(self) -> ComposeResult:
        v = self.view
        res = v["result"] or {"winners": [], "reason": "", "coins": v["coins"], "court": v["court"], "turns": 0}
        winners = res["winners"]
        headline = "You won!" if v["seat"] in winners else "Game over"
        n = len(v["players"])
        grid = RichTable(box=None, padding=(0, 2), show_header=True, header_style="bold")
        grid.add_column("Place")
        grid.add_column("Coins", justify="right")
        grid.add_column("Card")
        grid.add_column("")
        for p in range(len(self.cards)):
            coins = str(res["coins"][p]) if p < n else ""
            mark = "winner" if p in winners else ""
            style = "bold green" if p in winners else ""
            name = place_label(v, p)
            grid.add_row(Text(name, style=style), coins, mask_name(v, self.cards[p]), Text(mark, style=style))
        reason = REASONS.get(res["reason"], res["reason"])
        who = winners_text(v, winners)  # "you win", "nobody wins": it starts the sentence here
        with Vertical(id="mq-end-box"):
            yield Static(headline, id="mq-end-title", markup=False)  # names are text, never markup
            yield Static(f"{who[:1].upper()}{who[1:]} — {reason}. {words.count(res['turns'], 'turn')}; "
                         f"{coins_text(res['court'])} left in the courthouse.", id="mq-end-reason", markup=False)
            with VerticalScroll(id="mq-end-scroll"):
                yield Static(grid, id="mq-end-cards")
            with Horizontal(classes="dialog-buttons"):
                yield from self.end_buttons("Table (b)")
        yield Footer()
