"""The end of a Masque game: the winner, who died where, and every Red Death card."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Static

from engine.masque import SLOTS
from tui.masque import model as m
from tui.screens.end import GameEndScreen


class EndScreen(GameEndScreen):
    """Built from the final view only, so it holds no game."""

    def __init__(self, view: dict) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        v = self.view
        result = v["result"] or {"winners": [], "reason": "all-dead", "red_death": {}, "popularity": []}
        winners = result["winners"]
        me = v["seat"]
        headline = "You survived and won!" if me in winners else "Game over"
        reason = (
            f"{m.name(v, winners[0])} {'win' if winners[0] == me else 'wins'}: "
            f"{m.REASONS.get(result['reason'], result['reason'])}."
            if winners
            else "Nobody wins: " + m.REASONS.get(result["reason"], result["reason"]) + "."
        )
        died = m.deaths(v)
        nobles = Text()
        order = sorted(range(len(v["players"])), key=lambda s: -result["popularity"][s])
        for s in order:
            nobles.append(f"{m.name(v, s):<10}", style="bold" if s in winners else "")
            nobles.append(f" popularity {result['popularity'][s]:>3}  ")
            if s in died:
                slot, room = died[s]
                nobles.append(f"died at {slot} in {room.title()}", style="red")
            else:
                nobles.append("survived", style="bold green")
            if s in winners:
                nobles.append("  ★ winner", style="bold yellow")
            nobles.append("\n")
        cards = Text()
        for slot in SLOTS:
            rooms = result["red_death"].get(slot, [])
            cards.append(f"{slot}  ", style="bold")
            for i, room in enumerate(rooms):
                if i:
                    cards.append(", ")
                cards.append(room.title(), style=m.ROOM_STYLE.get(room, ""))
            cards.append("\n")
        with Vertical(id="end-box"):
            yield Static(headline, id="end-title", markup=False)  # names are text, never markup
            yield Static(reason, id="end-reason", markup=False)
            with VerticalScroll(id="end-scroll"):
                yield Static(nobles, id="end-nobles")
                yield Static(Text("The Red Death cards", style="bold underline"))
                yield Static(cards, id="end-cards")
            with Horizontal(classes="dialog-buttons"):
                yield from self.end_buttons()
        yield Footer()
