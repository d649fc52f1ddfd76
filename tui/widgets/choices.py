"""Large, tappable options that also work from the keyboard.

``Choices`` is one focusable widget holding a grid of buttons. The buttons themselves never
take focus, so Tab moves between groups (suspects, weapons, locations…) while the arrow keys
move inside a group and Enter or Space picks. A tap on a button picks it at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.binding import Binding
from textual.containers import Grid
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Checkbox


class Btn(Button):
    """A button without the 0.2 s "pressed" effect, which swallows a quick second tap."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.active_effect_duration = 0


class Tick(Checkbox):
    """A checkbox that shows a tick only when ticked: Textual's draws an X either way (dimmed when off),
    which a new player reads as ticked (issue 23: "face-down centre pile" looked chosen)."""

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = "✓" if self.value else " "
        return super()._button


GRID_MOVES = [
    Binding("up", "move(-1, 'row')", "Previous", show=False),
    Binding("down", "move(1, 'row')", "Next", show=False),
    Binding("left", "move(-1, 'col')", "Left", show=False),
    Binding("right", "move(1, 'col')", "Right", show=False),
    Binding("home", "jump(0)", "First", show=False),
    Binding("end", "jump(-1)", "Last", show=False),
]
"""The keys that move the cursor of an option grid (:class:`GridCursor`): arrows, Home and End."""


class GridCursor:
    """The keyboard cursor of a grid of options, ``columns`` wide: the arrows move it, Home / End jump.

    Mixed into a widget that has ``options``, ``columns``, ``current``, ``_paint()`` (draws the cursor)
    and ``_buttons()`` (one widget per option), and binds :data:`GRID_MOVES`.
    """

    options: list[tuple[Any, Any]]
    columns: int
    current: int

    def action_move(self, delta: int, axis: str) -> None:
        if not self.options:
            return
        step = delta if axis == "col" else delta * self.columns
        self.current = min(max(self.current + step, 0), len(self.options) - 1)
        self._paint()  # type: ignore[attr-defined]
        self._buttons()[self.current].scroll_visible(animate=False)  # type: ignore[attr-defined]

    def action_jump(self, index: int) -> None:
        if self.options:
            self.current = index % len(self.options)
            self._paint()  # type: ignore[attr-defined]


class Choice(Btn, can_focus=False):
    """One option of a :class:`Choices` group."""


class Choices(GridCursor, Grid, can_focus=True):
    """A group of options; ``selected`` marks the picked one when the group keeps a selection."""

    BINDINGS = [
        *GRID_MOVES,
        Binding("enter,space", "choose", "Choose", show=False),
    ]

    class Chosen(Message):
        """An option was picked (by tap, Enter or Space)."""

        def __init__(self, choices: Choices, index: int, value: Any) -> None:
            super().__init__()
            self.choices = choices
            self.index = index
            self.value = value

        @property
        def control(self) -> Choices:
            return self.choices

    def __init__(self, options: Sequence[tuple[str, Any]], *, columns: int = 1, keep_selection: bool = False,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.options = list(options)
        self.columns = max(1, columns)
        self.keep_selection = keep_selection
        self.current = 0
        self.selected: int | None = None
        self._painted: dict[int, tuple[bool, bool]] = {}

    @property
    def rows(self) -> int:
        return -(-len(self.options) // self.columns)

    def compose(self):
        prefix = self.id or "choice"
        for i, (label, _value) in enumerate(self.options):
            yield Choice(self._label(i, label), id=f"{prefix}-{i}", classes="choice")

    def on_mount(self) -> None:
        self.styles.grid_size_columns = self.columns
        self.styles.grid_size_rows = self.rows
        self.set_class(self.rows <= 8, "-few")
        self._paint()

    def _label(self, i: int, label: str) -> Content | str:
        """The option as text, never markup: options often name players (issue 14)."""
        if not isinstance(label, str):
            return label
        if not self.keep_selection:
            return Content(label)
        return Content(("● " if i == self.selected else "  ") + label)

    def _buttons(self) -> list[Choice]:
        return list(self.query(Choice))

    def _paint(self) -> None:
        """Restyle only the buttons whose state changed (restyling costs a CSS pass each)."""
        for i, button in enumerate(self._buttons()):
            state = (i == self.current, i == self.selected)
            if self._painted.get(i) == state:
                continue
            self._painted[i] = state
            button.set_class(state[0], "-current")
            button.set_class(state[1], "-selected")
            if self.keep_selection:
                button.label = self._label(i, self.options[i][0])

    @property
    def value(self) -> Any:
        return None if self.selected is None else self.options[self.selected][1]

    def action_choose(self) -> None:
        self.pick(self.current)

    def pick(self, index: int) -> None:
        """Pick option ``index`` as if it were tapped."""
        self.current = index
        if self.keep_selection:
            self.selected = index
        self._paint()
        self.post_message(self.Chosen(self, index, self.options[index][1]))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        buttons = self._buttons()
        if event.button in buttons:
            self.focus()
            self.pick(buttons.index(event.button))
