"""The Tokyo Ghoul dialogs: one tappable pick list per decision, and the exchange picker.

They only offer what the view's legal actions allow and never submit anything themselves:
the play screen's callback does, so an illegal choice still ends in the engine's sentence.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui.ghoul import model as m
from tui.widgets.choicedialog import OptionsDialog
from tui.widgets.choices import Btn, Choices
from tui.widgets.scroll import ScrollButtons

# phase -> (columns of options, which action kinds it offers)
PICKS: dict[str, tuple[int, tuple[str, ...] | None]] = {
    "setup_face": (3, ("reveal",)),
    "refill": (3, ("reveal",)),
    "prelim_show": (2, ("show",)),
    "show": (2, ("show",)),
    "prelim_give": (3, ("give",)),
    "move": (1, ("move", "special")),
    "interrogate": (2, None),
    "cover_remove": (2, None),
    "cover_add": (2, None),
    "attack": (1, None),
    "support": (2, None),
}


class PickDialog(OptionsDialog):
    """A title, what you know, one group of options; picking one answers the dialog."""

    BINDINGS = [Binding("escape", "close", "Later", id="gh-dialog-close")]
    SCOPED_CSS = False  # the -tall breakpoint class sits on the screen itself
    DEFAULT_CSS = """
    .gh-pick-scroll { height: auto; max-height: 14; }
    Screen.-tall .gh-pick-scroll { max-height: 24; }
    """
    MAX_ROWS = 8  # rows of options that fit without scrolling at 80x24 and on a tablet

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id=f"gh-{self.kind}-box"):
            yield Static(self.title_text, classes="dialog-title", markup=False)  # names are text, never markup
            if self.text:
                yield Static(self.text, classes="dialog-text", markup=False)
            with VerticalScroll(classes="gh-pick-scroll"):
                yield Choices(self._options, columns=self.columns, id=f"{self.kind}-opt", classes="big")
            with Horizontal(classes="dialog-buttons"):
                yield Btn("Later (esc)", id=f"{self.kind}-cancel")
                if -(-len(self._options) // self.columns) > self.MAX_ROWS:
                    yield ScrollButtons(f"#gh-{self.kind}-box .gh-pick-scroll", id=f"{self.kind}-scrollbtn")


class ExchangeDialog(ModalScreen[Any]):
    """Pick the card you give and the card you take, then Exchange; or No exchange."""

    HELP_TITLE = "Exchange a card"

    BINDINGS = [
        Binding("e", "exchange", "Exchange", id="gh-exchange-do"),
        Binding("p", "no_exchange", "No exchange", id="gh-exchange-pass"),
        Binding("escape", "close", "Later", id="gh-exchange-close"),
    ]
    SCOPED_CSS = False
    DEFAULT_CSS = """
    #exchange-cols { height: auto; }
    .exchange-col { width: 1fr; height: auto; margin: 0 1 0 0; }
    """

    def __init__(self, view: dict) -> None:
        super().__init__()
        self.view = view
        acts = [a for a in view["legal"] if a[0] == "exchange"]
        self.gives = list(dict.fromkeys((a[1], a[3]) for a in acts))
        self.takes = list(dict.fromkeys((a[2], a[4]) for a in acts))
        self.give: tuple[str, str] | None = None
        self.take: tuple[str, str] | None = None

    @staticmethod
    def _label(card: tuple[str, str]) -> str:
        return m.suit(card[0]) + (" (face up)" if card[1] == "board" else "")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="gh-exchange-box"):
            yield Static("Exchange a card", classes="dialog-title")
            yield Static(m.dialog_text(self.view), classes="dialog-text")
            with Horizontal(id="exchange-cols"):
                with Vertical(classes="exchange-col"):
                    yield Static("You give", classes="pick-label")
                    yield Choices([(self._label(c), c) for c in self.gives], keep_selection=True,
                                  id="exchange-give", classes="big")
                with Vertical(classes="exchange-col"):
                    yield Static("You take", classes="pick-label")
                    yield Choices([(self._label(c), c) for c in self.takes], keep_selection=True,
                                  id="exchange-take", classes="big")
            yield Static(id="exchange-summary")
            with Horizontal(classes="dialog-buttons"):
                yield Btn("Exchange (e)", id="exchange-do", variant="primary", disabled=True)
                yield Btn("No exchange (p)", id="exchange-pass")
                yield Btn("Later (esc)", id="exchange-cancel")

    def on_mount(self) -> None:
        self.query_one("#exchange-give", Choices).focus()
        self._show()

    def _show(self) -> None:
        ready = self.give is not None and self.take is not None
        self.query_one("#exchange-do", Button).disabled = not ready
        text = (f"Give {self._label(self.give)}, take {self._label(self.take)}." if ready and self.give and self.take
                else "Pick one card on each side.")
        self.query_one("#exchange-summary", Static).update(text)

    def on_choices_chosen(self, event: Choices.Chosen) -> None:
        event.stop()
        if event.choices.id == "exchange-give":
            self.give = event.value
            self.query_one("#exchange-take", Choices).focus()
        else:
            self.take = event.value
        self._show()

    def action(self) -> tuple | None:
        """The chosen exchange as an action (None until both sides are picked)."""
        if self.give is None or self.take is None:
            return None
        return ("exchange", self.give[0], self.take[0], self.give[1], self.take[1])

    def action_exchange(self) -> None:
        act = self.action()
        if act is None:
            self.notify("Pick the card you give and the card you take.", title="Exchange", severity="warning")
            return
        self.dismiss(act)

    def action_no_exchange(self) -> None:
        self.dismiss(("pass",))

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id
        if bid == "exchange-do":
            self.action_exchange()
        elif bid == "exchange-pass":
            self.action_no_exchange()
        elif bid == "exchange-cancel":
            self.dismiss(None)


def decision_dialog(view: dict) -> ModalScreen[Any] | None:
    """The dialog for the seat's current decision (None when there is nothing to decide)."""
    kind = m.decision_kind(view)
    if kind is None:
        return None
    if kind == "exchange":
        return ExchangeDialog(view)
    columns, kinds = PICKS.get(kind, (1, None))
    opts = m.options(view, kinds)
    if not opts:
        return None
    if len(opts) > 4:
        columns = max(columns, 2)
    if len(opts) <= 3 and columns > 1 and kind not in ("setup_face", "refill", "prelim_give"):
        columns = 1
    return PickDialog(kind, m.PHASE_TITLE.get(kind, "Your decision"), m.dialog_text(view), opts, columns=columns)
