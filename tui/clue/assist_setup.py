"""The setup form of the table assistant: board or custom deck, players in seat order, me, hand sizes.

The form edits a :class:`tui.clue.assist_model.SetupData` and validates it only when the user taps
Start, so a mistake costs nothing: every typed name and number stays where it was and the
problems are listed under the form. Six player rows exist from the start and unused ones are
hidden, so adding, removing and reordering players never mounts or removes widgets.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Click
from textual.message import Message
from textual.widgets import Button, Input, Static

from tui.assist.setup import AssistSetupForm
from tui.assist.widgets import Picker, Tap
from tui.clue import assist_model as m

DEFAULT_NAME = re.compile(r"Player \d+")  # the names the form starts with (and gives added seats)


class PlayerRow(Horizontal):
    """One seat of the table: name, "me", move up/down, hand size, remove."""

    BINDINGS: ClassVar = [
        Binding("ctrl+up", "row('up')", "Move up", id="assist.setup.up"),
        Binding("ctrl+down", "row('down')", "Move down", id="assist.setup.down"),
        Binding("ctrl+g", "row('me')", "It's me", id="assist.setup.me"),
        Binding("ctrl+r", "row('remove')", "Remove", id="assist.setup.remove"),
    ]

    class Act(Message):
        def __init__(self, index: int, what: str) -> None:
            super().__init__()
            self.index = index
            self.what = what

    def __init__(self, index: int) -> None:
        super().__init__(id=f"ax-row-{index}", classes="ax-row")
        self.index = index

    def compose(self) -> ComposeResult:
        i = self.index
        yield Static(f"{i + 1}.", classes="ax-row-num")
        yield Input(id=f"ax-name-{i}", classes="ax-input ax-name", placeholder="name", max_length=24)
        yield Tap("Me", id=f"ax-me-{i}", classes="ax-me")
        yield Tap("▲", id=f"ax-up-{i}", classes="ax-small")
        yield Tap("▼", id=f"ax-down-{i}", classes="ax-small")
        yield Static("hand", classes="ax-row-hand")
        yield Tap("−", id=f"ax-less-{i}", classes="ax-small")
        yield Input(id=f"ax-size-{i}", classes="ax-input ax-size", restrict=r"[0-9]*", max_length=2)
        yield Tap("+", id=f"ax-more-{i}", classes="ax-small")
        yield Tap("✕", id=f"ax-remove-{i}", classes="ax-small ax-remove")

    def action_row(self, what: str) -> None:
        self.post_message(self.Act(self.index, what))

    def on_click(self, event: Click) -> None:
        """A tap on a name still called "Player 2" selects it, so what you type replaces it.

        (Tab already selects a field's text; a tap put the cursor mid-word: "PlayAnner 2".)
        """
        name = self.query_one(f"#ax-name-{self.index}", Input)
        if event.widget is name and DEFAULT_NAME.fullmatch(name.value):
            name.call_after_refresh(name.select_all)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        what = (event.button.id or "").split("-")[1]
        self.post_message(self.Act(self.index, what))


class SetupForm(AssistSetupForm):
    """The whole form; posts :class:`SetupForm.Done` with a validated config, or ``Cancelled``."""

    BINDINGS: ClassVar = [
        Binding("ctrl+s", "start", "Start", id="assist.setup.start"),
        Binding("ctrl+o", "add_player", "Add player", id="assist.setup.add"),
        Binding("ctrl+l", "equal_hands", "Equal hands", id="assist.setup.equal"),
        Binding("escape", "cancel", "Cancel", id="assist.setup.cancel"),
    ]

    def __init__(self, data: m.SetupData | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.data = data or m.SetupData()

    def _fields(self) -> ComposeResult:
        yield Static("Board", classes="ax-label")
        yield Picker([(t, b) for b, t in m.BOARD_CHOICES], columns=3,
                     allow_none=False, selected=[self.data.board], id="ax-board")
        with Vertical(id="ax-custom"):
            for cat in m.CATEGORIES:
                with Horizontal(classes="ax-custom-row"):
                    yield Static(m.CATEGORY_TITLES[cat], classes="ax-custom-label")
                    yield Input(self.data.custom.get(cat, ""), id=f"ax-custom-{cat}",
                                classes="ax-input ax-custom-input",
                                placeholder=f"{cat}, separated by commas")
        yield Static("Players in seat order, clockwise", classes="ax-label")
        yield Static("Tap Me on your own row; ▲ ▼ change seats; hand sizes are editable.",
                     classes="ax-hint")
        for i in range(m.MAX_PLAYERS):
            yield PlayerRow(i)
        with Horizontal(classes="ax-form-buttons"):
            yield Tap("+ Add player", id="ax-add")
            yield Tap("Equal hands", id="ax-equal")
        yield Static("Cards left over after equal hands", classes="ax-label")
        yield Picker([("Face up", False), ("Face-down centre pile", True)], columns=2,
                     allow_none=False, selected=[self.data.centre], id="ax-centre")
        yield Static("", id="ax-summary")

    def on_mount(self) -> None:
        self.refresh_form()

    # ------------------------------------------------------------------ data -> widgets

    def refresh_form(self) -> None:
        """Draw ``self.data`` into the widgets (values set here are echoed back and ignored)."""
        d = self.data
        self.query_one("#ax-custom").display = d.board == "custom"
        sizes = d.sizes()
        n = len(d.players)
        for i in range(m.MAX_PLAYERS):
            row = self.query_one(f"#ax-row-{i}", PlayerRow)
            row.display = i < n
            if i >= n:
                continue
            name = self.query_one(f"#ax-name-{i}", Input)
            if name.value != d.players[i]:
                name.value = d.players[i]
            size = self.query_one(f"#ax-size-{i}", Input)
            if size.value != sizes[i]:
                size.value = sizes[i]
            me = self.query_one(f"#ax-me-{i}", Tap)
            me.label = "● Me" if i == d.me else "Me"
            me.set_class(i == d.me, "-on")
            self.query_one(f"#ax-up-{i}", Tap).disabled = i == 0
            self.query_one(f"#ax-down-{i}", Tap).disabled = i == n - 1
            self.query_one(f"#ax-remove-{i}", Tap).disabled = n <= m.MIN_PLAYERS
        self.query_one("#ax-add", Tap).disabled = n >= m.MAX_PLAYERS
        self.query_one("#ax-equal", Tap).disabled = d.hand_sizes is None
        self.query_one("#ax-summary", Static).update(d.summary())
        self._show_errors()

    def _custom_sizes(self) -> list[str]:
        if self.data.hand_sizes is None or len(self.data.hand_sizes) != len(self.data.players):
            self.data.hand_sizes = self.data.sizes()
        return self.data.hand_sizes

    # ------------------------------------------------------------------ widgets -> data

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self._read_inputs()
        self.refresh_form()

    def _read_inputs(self) -> None:
        """Copy what every field shows into the data.

        Every field, and its value now rather than the event's: several keys may have landed in
        several fields since this event was sent, and drawing the data before reading them all would
        write older text back over what was just typed.
        """
        d = self.data
        for i in range(len(d.players)):
            name = self.query_one(f"#ax-name-{i}", Input).value
            if d.players[i] != name:
                d.players[i] = name
        sizes = [self.query_one(f"#ax-size-{i}", Input).value for i in range(len(d.players))]
        if sizes != d.sizes():
            custom = self._custom_sizes()
            custom[:] = sizes
        for cat in m.CATEGORIES:
            d.custom[cat] = self.query_one(f"#ax-custom-{cat}", Input).value

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.screen.focus_next()

    @on(Picker.Changed, "#ax-board")
    def _board(self, event: Picker.Changed) -> None:
        event.stop()
        self._read_inputs()  # what the fields show now, before this change is drawn over them
        self.data.board = event.value
        self.refresh_form()

    @on(Picker.Changed, "#ax-centre")
    def _centre(self, event: Picker.Changed) -> None:
        event.stop()
        self._read_inputs()  # what the fields show now, before this change is drawn over them
        self.data.centre = bool(event.value)
        self.refresh_form()

    @on(PlayerRow.Act)
    def _row(self, event: PlayerRow.Act) -> None:
        event.stop()
        self._read_inputs()  # what the fields show now, before this change is drawn over them
        i, what = event.index, event.what
        d = self.data
        n = len(d.players)
        if i >= n:
            return
        sizes = d.hand_sizes
        if what == "me":
            d.me = i
        elif what in ("up", "down"):
            j = i - 1 if what == "up" else i + 1
            if not 0 <= j < n:
                return
            d.players[i], d.players[j] = d.players[j], d.players[i]
            if sizes is not None:
                sizes[i], sizes[j] = sizes[j], sizes[i]
            if d.me in (i, j):
                d.me = j if d.me == i else i
            self.refresh_form()
            self.query_one(f"#ax-name-{j}", Input).focus()
            return
        elif what == "remove":
            if n <= m.MIN_PLAYERS:
                return
            d.players.pop(i)
            if sizes is not None:
                sizes.pop(i)
            if d.me > i or d.me == len(d.players):
                d.me = max(d.me - 1, 0)
        elif what in ("less", "more"):
            sizes = self._custom_sizes()
            try:
                value = int(sizes[i] or 0)
            except ValueError:
                value = 0
            sizes[i] = str(max(0, value + (1 if what == "more" else -1)))
        self.refresh_form()

    def action_add_player(self) -> None:
        self._read_inputs()  # what the fields show now, before this change is drawn over them
        d = self.data
        if len(d.players) >= m.MAX_PLAYERS:
            return
        taken = set(d.players)
        k = len(d.players) + 1
        while f"Player {k}" in taken:
            k += 1
        d.players.append(f"Player {k}")
        if d.hand_sizes is not None:
            d.hand_sizes = None  # a new seat changes every fair share: back to equal hands
        self.refresh_form()
        self.query_one(f"#ax-name-{len(d.players) - 1}", Input).focus()

    def _checked(self) -> tuple[dict[str, Any] | None, dict[str, Any] | None, list[str]]:
        self._read_inputs()  # what the fields show now, before this change is drawn over them
        config, errors = self.data.validate()
        return config, None, errors

    @on(Button.Pressed, "#ax-add")
    def _add(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_add_player()

    def action_equal_hands(self) -> None:
        self._read_inputs()  # what the fields show now, before this change is drawn over them
        self.data.hand_sizes = None
        self.refresh_form()

    @on(Button.Pressed, "#ax-equal")
    def _equal(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_equal_hands()
