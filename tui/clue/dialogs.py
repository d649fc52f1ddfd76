"""The Clue dialogs. Each is a modal screen that dismisses with an action tuple (or None).

They only offer what the view's legal list allows, and never submit anything themselves:
the play screen's callback does, so an illegal choice still ends in the engine's sentence.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from engine import words
from engine.clue.board import Board
from tui.clue.model import Seats, move_options, seen_hint
from tui.widgets.choices import Btn, Choices


def _holder_hint(holder: dict, card: str, seats: Seats) -> str:
    h = holder.get(card)
    if h is None:
        return ""
    if isinstance(h, int):
        return " · mine" if h == seats.me else f" · {seats.names[h]}"
    return {"face_up": " · face up", "centre": " · centre", "aside": " · aside", "envelope": " · envelope!"}.get(h, "")


class ClueDialog(ModalScreen[Any]):
    """Shared frame: a title, a line of text, the body, and a row of buttons."""

    BINDINGS = [Binding("escape", "close", "Close", id="dialog-close")]
    dialog_id = "dialog"
    title_text = ""
    close_label = "Cancel"

    def __init__(self, view: dict, board: Board) -> None:
        super().__init__()
        self.view = view
        self.board = board
        self.seats = Seats.from_view(view)

    def text(self) -> str:
        return ""

    def body(self) -> ComposeResult:
        yield from ()

    def buttons(self) -> ComposeResult:
        yield from ()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id=f"{self.dialog_id}-box"):
            yield Static(self.title_text, classes="dialog-title", markup=False)  # names are text, never markup
            # The body scrolls and the buttons stay below it: a roll can offer 15 ways to move. It takes
            # no focus of its own: Tab would stop on it with nothing shown as focused (the options
            # scroll themselves into view, and the wheel still scrolls it).
            with VerticalScroll(classes="dialog-body", can_focus=False):
                text = self.text()
                if text:
                    yield Static(text, classes="dialog-text", markup=False)
                yield from self.body()
            with Horizontal(classes="dialog-buttons"):
                yield from self.buttons()
                yield Btn(f"{self.close_label} (esc)", id=f"{self.dialog_id}-cancel")

    def on_mount(self) -> None:
        first = self.query(Choices)
        if first:
            first.first().focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        # Textual calls this handler once per class of the chain that defines one: a subclass handles
        # its own buttons and never calls super(), or Cancel would dismiss twice (and close the game).
        if event.button.id == f"{self.dialog_id}-cancel":
            event.stop()
            self.dismiss(None)


class PickOneDialog(ClueDialog):
    """One group of options; picking one answers the dialog."""

    columns = 1

    def options(self) -> list[tuple[str, Any]]:
        return []

    def body(self) -> ComposeResult:
        yield Choices(self.options(), columns=self.columns, id=f"{self.dialog_id}-opt", classes="big")

    def on_choices_chosen(self, event: Choices.Chosen) -> None:
        self.dismiss(event.value)


class ShowCardDialog(PickOneDialog):
    """Refuting a rumor: one button per matching card in your hand."""

    dialog_id = "show"
    title_text = "Show a card"
    close_label = "Later"

    def text(self) -> str:
        asker, cards = self.view["rumor"]
        name = self.seats.names[asker]
        return (f"{name}'s rumor: {', '.join(cards)}.\nPick the card to show {name}; only {name} sees it.\n"
                + seen_hint(self.view, asker))

    def options(self) -> list[tuple[str, Any]]:
        return [(a[1], ("show", a[1])) for a in self.view["legal"] if a[0] == "show"]


class OfferDialog(PickOneDialog):
    """A rumor moved your token: draw a Plot card or not."""

    dialog_id = "offer"
    title_text = "Draw a Plot card?"
    close_label = "Later"
    columns = 2

    def text(self) -> str:
        w = self.view["walkers"]
        return (f"A rumor moved your token. You may draw a Plot card. White Walkers beside the board: {w} of 8"
                + (" — the 8th eliminates whoever draws it!" if w >= 7 else "."))

    def options(self) -> list[tuple[str, Any]]:
        return [("Draw a Plot card (d)", ("draw",)), ("Decline (n)", ("decline",))]

    BINDINGS = [
        Binding("d", "pick(0)", "Draw", id="offer-draw"),
        Binding("n", "pick(1)", "Decline", id="offer-decline"),
    ]

    def action_pick(self, index: int) -> None:
        self.query_one(Choices).pick(index)


class TeleportDialog(PickOneDialog):
    """Master of Whisperers: go to any place."""

    dialog_id = "teleport"
    title_text = "Master of Whisperers"
    close_label = "Later"
    columns = 3

    def text(self) -> str:
        return "Go to the place of your choice."

    def options(self) -> list[tuple[str, Any]]:
        nodes = [a[1] for a in self.view["legal"] if a[0] == "teleport"]
        rooms = [n for n in nodes if n <= self.board.centre]
        return [(self.board.short[n], ("teleport", n)) for n in rooms]


class PeekDialog(PickOneDialog):
    """Raven: whose hand to look at (one card at random)."""

    dialog_id = "peek"
    title_text = "Raven"
    close_label = "Later"

    def text(self) -> str:
        return "Look at one card, drawn at random, from the hand of:"

    def options(self) -> list[tuple[str, Any]]:
        sizes = self.view["hand_sizes"]
        return [(f"{self.seats.full(a[1])} — {words.count(sizes[a[1]], 'card')}", ("peek", a[1]))
                for a in self.view["legal"] if a[0] == "peek"]


class AsideDialog(PickOneDialog):
    """Two players: nobody could show a card, so look at one of the set-aside cards."""

    dialog_id = "aside"
    title_text = "Look at a set-aside card"
    close_label = "Later"
    columns = 2

    def text(self) -> str:
        return "Nobody could show you a card. Look at one of the face-down cards set aside:"

    def options(self) -> list[tuple[str, Any]]:
        seen = {ev["index"]: ev["card"] for ev in self.view["events"]
                if ev["t"] == "aside" and ev.get("card") is not None}
        out = []
        for a in self.view["legal"]:
            if a[0] == "look_aside":
                i = a[1]
                label = f"Card {i + 1}" + (f" (seen: {seen[i]})" if i in seen else "")
                out.append((label, ("look_aside", i)))
        return out


class MoveDialog(PickOneDialog):
    """Every way to move with this roll, for the keyboard (the board takes clicks)."""

    dialog_id = "move"
    title_text = "Move"

    def text(self) -> str:
        return f"{words.count(self.view['steps'], 'step')}. Enter a place, walk toward one, or stop on a square."

    def options(self) -> list[tuple[str, Any]]:
        return [(o.label, ("move", o.node)) for o in move_options(self.view, self.board)]


class RumorDialog(ClueDialog):
    """Name a suspect and a weapon; the location is where your token stands."""

    dialog_id = "rumor"
    title_text = "Start a rumor"

    def __init__(self, view: dict, board: Board, holder: dict) -> None:
        super().__init__(view, board)
        self.holder = holder
        here = view["positions"][view["characters"][view["seat"]]]
        self.location = board.locations[here] if here < board.centre else "?"

    def text(self) -> str:
        return f"In {self.location}. Pick a suspect, then a weapon (Tab moves between the lists)."

    def body(self) -> ComposeResult:
        with Horizontal(classes="pick-columns"):
            with Vertical(classes="pick-column"):
                yield Static("Suspect", classes="pick-label")
                yield Choices([(s + _holder_hint(self.holder, s, self.seats), s) for s in self.board.suspects],
                              keep_selection=True, id="rumor-suspect")
            with Vertical(classes="pick-column"):
                yield Static("Weapon", classes="pick-label")
                yield Choices([(w + _holder_hint(self.holder, w, self.seats), w) for w in self.board.weapons],
                              keep_selection=True, id="rumor-weapon")

    def buttons(self) -> ComposeResult:
        yield Btn("Start rumor", id="rumor-go", variant="primary", disabled=True)

    def on_choices_chosen(self, event: Choices.Chosen) -> None:
        suspect = self.query_one("#rumor-suspect", Choices).value
        weapon = self.query_one("#rumor-weapon", Choices).value
        go = self.query_one("#rumor-go", Button)
        go.disabled = suspect is None or weapon is None
        if event.choices.id == "rumor-suspect" and weapon is None:
            self.query_one("#rumor-weapon", Choices).focus()
        elif not go.disabled:
            go.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "rumor-go":
            s = self.query_one("#rumor-suspect", Choices).value
            w = self.query_one("#rumor-weapon", Choices).value
            if s is not None and w is not None:
                self.dismiss(("rumor", s, w))


class AccuseDialog(ClueDialog):
    """Name the suspect, weapon and location; the play screen asks for confirmation next."""

    dialog_id = "accuse"
    title_text = "Accuse"

    def __init__(self, view: dict, board: Board, candidates: dict[str, list[str]]) -> None:
        super().__init__(view, board)
        self.candidates = candidates

    def text(self) -> str:
        return "Name the three cards in the envelope. A wrong accusation ends your chances."

    @property
    def narrow(self) -> bool:
        """An 80-column dialog: the board's short place names, columns as wide as their names."""
        return self.app.size.width < 110

    def _group(self, cat: str, cards: tuple[str, ...], gid: str) -> Choices:
        cand = self.candidates.get(cat, list(cards))
        short = dict(zip(self.board.locations, self.board.short, strict=False)) if self.narrow else {}
        labels = [(("" if c in cand else "✗ ") + short.get(c, c), c) for c in cards]
        return Choices(labels, keep_selection=True, id=gid)

    def body(self) -> ComposeResult:
        b = self.board
        with Horizontal(classes="pick-columns"):
            for cat, cards, gid, label in (("suspect", b.suspects, "accuse-suspect", "Suspect"),
                                           ("weapon", b.weapons, "accuse-weapon", "Weapon"),
                                           ("location", b.locations, "accuse-location", "Location")):
                with Vertical(classes=f"pick-column pick-{cat}"):
                    yield Static(label, classes="pick-label")
                    yield self._group(cat, cards, gid)

    def on_mount(self) -> None:
        super().on_mount()
        if self.narrow:
            # Each column as wide as its longest option ("● ✗ Tyrion Lannister"), so none is cut.
            for column in self.query(".pick-column"):
                longest = max(len(label) for label, _value in column.query_one(Choices).options)
                column.styles.width = f"{longest + 4}fr"

    def buttons(self) -> ComposeResult:
        yield Btn("Accuse…", id="accuse-go", variant="error", disabled=True)

    def _values(self) -> list[Any]:
        return [self.query_one(f"#accuse-{k}", Choices).value for k in ("suspect", "weapon", "location")]

    def on_choices_chosen(self, event: Choices.Chosen) -> None:
        values = self._values()
        go = self.query_one("#accuse-go", Button)
        go.disabled = None in values
        order = ["accuse-suspect", "accuse-weapon", "accuse-location"]
        i = order.index(event.choices.id or order[0])
        for nxt in order[i + 1:]:
            if values[order.index(nxt)] is None:
                self.query_one(f"#{nxt}", Choices).focus()
                return
        if not go.disabled:
            go.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "accuse-go":
            values = self._values()
            if None not in values:
                self.dismiss(("accuse", *values))


def accuse_question(action: tuple) -> str:
    return f"Accuse {action[1]} with the {action[2]} in {action[3]}? A wrong accusation ends your chances."
