"""The end of a Clue game: the envelope, who won and why, and every hand."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from tui.clue.model import Seats, outcome
from tui.widgets.choices import Btn


class EndScreen(Screen):
    """Built from plain data (the final view and each seat's hand), so it holds no game."""

    BINDINGS = [
        Binding("n", "new_game", "New game", id="end-new"),
        Binding("h", "home", "Home", id="end-home"),
        Binding("b", "board", "Board & log", id="end-board"),
        Binding("q", "app.quit", "Quit", id="end-quit"),
    ]
    HELP_TITLE = "Game over"

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
                yield Btn("New game (n)", id="end-new", variant="primary")
                yield Btn("Home (h)", id="end-home")
                yield Btn("Board (b)", id="end-board")
                yield Btn("Quit (q)", id="end-quit", variant="error")
        yield Footer()

    def action_new_game(self) -> None:
        self.app.action_new_game()  # type: ignore[attr-defined]

    def action_home(self) -> None:
        self.app.action_home()  # type: ignore[attr-defined]

    def action_board(self) -> None:
        self.app.pop_screen()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"end-new": self.action_new_game, "end-home": self.action_home, "end-board": self.action_board,
                   "end-quit": self.app.exit}
        action = actions.get(event.button.id or "")
        if action:
            action()
