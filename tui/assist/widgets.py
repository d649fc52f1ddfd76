"""Small tappable widgets of the table assistant: buttons, option grids and scroll buttons.

On a tablet a tap arrives as a click and a swipe arrives as nothing, so every choice is a
button and every list that can overflow has explicit scroll buttons. Each grid is also one
focus stop for the keyboard: arrows move inside it, Enter or Space picks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button


class Tap(Button):
    """A button without the pressed flash, which would swallow a quick second tap."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.active_effect_duration = 0


class Option(Tap, can_focus=False):
    """One option of a :class:`Picker`; the picker holds the focus, not the option."""


class Picker(Widget, can_focus=True):
    """A grid of options, single or multiple choice, that posts :class:`Picker.Changed` on a pick."""

    BINDINGS = [
        Binding("up", "move(-1, 'row')", "Previous", show=False),
        Binding("down", "move(1, 'row')", "Next", show=False),
        Binding("left", "move(-1, 'col')", "Left", show=False),
        Binding("right", "move(1, 'col')", "Right", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("enter,space", "toggle_current", "Pick", show=False),
    ]

    class Changed(Message):
        """The selection changed because the user picked (not when set by code)."""

        def __init__(self, picker: Picker, value: Any) -> None:
            super().__init__()
            self.picker = picker
            self.value = value

        @property
        def control(self) -> Picker:
            return self.picker

    def __init__(self, options: Sequence[tuple[str, Any]], *, multi: bool = False, columns: int = 3,
                 selected: Iterable[Any] = (), allow_none: bool = True, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.options: list[tuple[str, Any]] = list(options)
        self.multi = multi
        self.columns = max(1, columns)
        self.allow_none = allow_none
        self.selected: list[Any] = [v for _, v in self.options if v in set(selected)]
        self.current = 0
        self.disabled_values: set[Any] = set()

    def compose(self) -> ComposeResult:
        prefix = self.id or "pick"
        for i, (label, value) in enumerate(self.options):
            yield Option(self._label(label, value), id=f"{prefix}-{i}", classes="ax-option")

    def on_mount(self) -> None:
        self.set_columns(self.columns)
        self._paint()

    def set_columns(self, columns: int) -> None:
        self.columns = max(1, columns)
        self.styles.grid_size_columns = self.columns
        self.styles.grid_size_rows = max(1, -(-len(self.options) // self.columns))

    # ---------------------------------------------------------------- state

    @property
    def value(self) -> Any:
        """The picked value (single choice) or the list of picked values (multiple choice)."""
        if self.multi:
            return list(self.selected)
        return self.selected[0] if self.selected else None

    def set_value(self, value: Any) -> None:
        """Select by code: a value, a list of values (multiple choice) or None."""
        wanted = set(value) if self.multi else ({value} if value is not None else set())
        self.selected = [v for _, v in self.options if v in wanted]
        self._paint()

    def set_options(self, options: Sequence[tuple[str, Any]]) -> None:
        """Relabel in place (same number of options): keeps the widgets, drops stale picks."""
        assert len(options) == len(self.options)
        self.options = list(options)
        values = {v for _, v in self.options}
        self.selected = [v for v in self.selected if v in values]
        self._paint()

    def set_disabled_values(self, values: Iterable[Any]) -> None:
        self.disabled_values = set(values)
        self.selected = [v for v in self.selected if v not in self.disabled_values]
        self._paint()

    def _label(self, label: str, value: Any) -> str:
        return f"✓ {label}" if value in self.selected else label

    def _buttons(self) -> list[Option]:
        return list(self.query(Option))

    def _paint(self) -> None:
        focused = self.has_focus
        for i, button in enumerate(self._buttons()):
            label, value = self.options[i]
            button.label = self._label(label, value)
            button.set_class(value in self.selected, "-on")
            button.set_class(focused and i == self.current, "-cursor")
            button.disabled = value in self.disabled_values or value is None

    def on_focus(self, _event: events.Focus) -> None:
        self._paint()

    def on_blur(self, _event: events.Blur) -> None:
        self._paint()

    # ---------------------------------------------------------------- picking

    def pick(self, index: int) -> None:
        """Pick option ``index`` exactly as a tap would."""
        label, value = self.options[index]
        if value in self.disabled_values or value is None:
            return
        self.current = index
        if self.multi:
            if value in self.selected:
                self.selected.remove(value)
            else:
                self.selected.append(value)
                order = [v for _, v in self.options]
                self.selected.sort(key=order.index)
        elif value in self.selected and self.allow_none:
            self.selected = []
        else:
            self.selected = [value]
        self._paint()
        self.post_message(self.Changed(self, self.value))

    def action_toggle_current(self) -> None:
        if self.options:
            self.pick(self.current)

    def action_move(self, delta: int, axis: str) -> None:
        if not self.options:
            return
        step = delta if axis == "col" else delta * self.columns
        self.current = min(max(self.current + step, 0), len(self.options) - 1)
        self._paint()
        self._buttons()[self.current].scroll_visible(animate=False)

    def action_jump(self, index: int) -> None:
        if self.options:
            self.current = index % len(self.options)
            self._paint()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        buttons = self._buttons()
        if event.button in buttons:
            self.pick(buttons.index(event.button))


class ScrollColumn(Vertical):
    """Top / page up / page down / end buttons beside a list, because a tablet cannot swipe."""

    def __init__(self, target: Callable[[], Widget], *, id: str) -> None:
        super().__init__(id=id, classes="ax-scroll")
        self.target = target

    def compose(self) -> ComposeResult:
        prefix = self.id or "scroll"
        for what, label in (("top", "⤒"), ("up", "▲"), ("down", "▼"), ("end", "⤓")):
            yield Tap(label, id=f"{prefix}-{what}", classes="ax-scroll-btn")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        widget = self.target()
        what = (event.button.id or "").rsplit("-", 1)[-1]
        if what == "top":
            widget.scroll_home(animate=False)
        elif what == "end":
            widget.scroll_end(animate=False)
        elif what == "up":
            widget.scroll_page_up(animate=False)
        elif what == "down":
            widget.scroll_page_down(animate=False)
