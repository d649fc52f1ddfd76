"""The end of a Clue game: the envelope, who won and why, and every hand."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Static

from tui.clue.model import Seats, outcome
from tui.screens.end import GameEndScreen


class EndScreen(GameEndScreen):
    """Built from plain data (the final view and each seat's hand), so it holds no game."""

    def __init__(self, view: dict, hands: list[list[str]]) -> None:
        super().__init__()
        self.view = view
        self.hands = hands

    def compose(self) -> ComposeResult:
        v = self.view
        seats = Seats.from_view(v)
        result = v["result"] or {"winners": [], "reason": "unsolved", "envelope": []}
        winners = result["winners"]
        headline = "You won!" if seats.me in winners else "Game over"
        hands = Text()
        for i in range(len(seats.names)):
            status = ("winner" if i in winners else "eliminated" if v["eliminated"][i]
                      else "accused wrongly" if v["wrong"][i] else "")
            hands.append(seats.full(i), style="bold")
            if status:
                hands.append(f": {status}", style="bold" if i in winners else "dim")
            hand = self.hands[i] if i < len(self.hands) else []
            hands.append("\n• " + (", ".join(hand) or "no cards") + "\n")
        extra = []
        if v["face_up"]:
            extra.append(f"Face up beside the board: {', '.join(v['face_up'])}.")
        with Vertical(id="end-box"):
            yield Static(headline, id="end-title", markup=False)  # names are text, never markup
            line = outcome(result, seats)
            yield Static(line[:1].upper() + line[1:] + ".", id="end-reason", markup=False)
            yield Static(Text.assemble(("The envelope: ", "bold"), " · ".join(result["envelope"])), id="end-envelope")
            with VerticalScroll(id="end-scroll"):
                yield Static(hands, id="end-hands")
                if extra:
                    yield Static("\n".join(extra), id="end-extra")
            with Horizontal(classes="dialog-buttons"):
                yield from self.end_buttons()
        yield Footer()
