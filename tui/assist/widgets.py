"""Small tappable widgets of the table assistant: buttons, option grids and scroll buttons.

On a tablet a tap arrives as a click and a swipe arrives as nothing, so every choice is a
button and every list that can overflow has explicit scroll buttons. Each grid is also one
focus stop for the keyboard: arrows move inside it, Enter or Space picks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Static

from tui.widgets.choices import GRID_MOVES, GridCursor
from tui.widgets.scroll import scroll_by_button

# The stylesheet every assistant screen shares; absolute, since Textual resolves a relative
# CSS_PATH beside the module that defines the screen, and each game's screens live in its wing.
ASSIST_CSS = str(Path(__file__).with_name("assist.tcss"))

# Layout breakpoints of every assistant screen: one panel below 100 columns, all above.
BREAKPOINTS_H = [(0, "-ax-narrow"), (100, "-ax-wide")]
BREAKPOINTS_V = [(0, "-ax-short"), (34, "-ax-tall")]


def run_button(event: Button.Pressed, actions: Mapping[str, Callable[[], object]]) -> None:
    """A press of one of the buttons ``actions`` names (by id) runs its action and goes no further."""
    action = actions.get(event.button.id or "")
    if action is not None:
        event.stop()
        action()


class Tap(Button, can_focus=False):
    """A button without the pressed flash (it swallows a quick second tap) that never takes the focus.

    Taps leave the keyboard focus where it was; every button has a key binding instead.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.active_effect_duration = 0


class Option(Static, can_focus=False):
    """One option of a :class:`Picker`: a light tappable label (a grid holds dozens of them).

    The picker holds the focus, not the option; a tap posts :class:`Option.Tapped` to it.
    """

    class Tapped(Message):
        def __init__(self, option: Option) -> None:
            super().__init__()
            self.option = option

    def __init__(self, label: str, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(label, id=id, classes=classes, markup=False)
        self.label = label

    def set_label(self, label: str) -> None:
        """Change the text only when it differs (every update costs a redraw)."""
        if label != self.label:
            self.label = label
            self.update(label)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if not self.disabled:
            self.post_message(self.Tapped(self))

    def press(self) -> None:
        """Tap by code (as a test or a keyboard shortcut would)."""
        if not self.disabled:
            self.post_message(self.Tapped(self))


class Picker(GridCursor, Widget, can_focus=True):
    """A grid of options, single or multiple choice, that posts :class:`Picker.Changed` on a pick."""

    BINDINGS = [
        *GRID_MOVES,
        Binding("enter,space", "toggle_current", "Pick", key_display="space"),
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
            classes = " ".join(["ax-option", *self._classes_for(i, value)])
            yield Option(self._label(label, value), id=f"{prefix}-{i}", classes=classes)

    def _classes_for(self, i: int, value: Any) -> list[str]:
        out = []
        if value in self.selected:
            out.append("-on")
        if i == self.current:
            out.append("-cursor")
        return out

    def on_mount(self) -> None:
        self.set_columns(self.columns)
        self._paint()

    def set_columns(self, columns: int) -> None:
        """Lay the options out ``columns`` to a row."""
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
        """Grey out options that make no sense now (the asker cannot show); drops them if picked."""
        self.disabled_values = set(values)
        self.selected = [v for v in self.selected if v not in self.disabled_values]
        self._paint()

    def _label(self, label: str, value: Any) -> str:
        return f"✓{label}" if value in self.selected else label

    def _buttons(self) -> list[Option]:
        return list(self.query(Option))

    def _paint(self) -> None:
        """Bring every option up to date, touching only what changed (each change restyles a widget)."""
        for i, button in enumerate(self._buttons()):
            label, value = self.options[i]
            button.set_label(self._label(label, value))
            on = value in self.selected
            if button.has_class("-on") != on:
                button.set_class(on, "-on")
            cursor = i == self.current
            if button.has_class("-cursor") != cursor:
                button.set_class(cursor, "-cursor")
            disabled = value in self.disabled_values or value is None
            if button.disabled != disabled:
                button.disabled = disabled
        self.refresh_bindings()  # "Pick" may have become possible, or pointless

    # ---------------------------------------------------------------- picking

    def pick(self, index: int) -> None:
        """Pick option ``index`` exactly as a tap would."""
        value = self.options[index][1]
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """"Pick" shows greyed out where it would change nothing (the one option already picked)."""
        if action == "toggle_current":
            if not self.options:
                return None
            value = self.options[self.current][1]
            if value in self.disabled_values or value is None:
                return None
            if not self.multi and not self.allow_none and value in self.selected:
                return None
        return True

    def on_option_tapped(self, event: Option.Tapped) -> None:
        event.stop()
        buttons = self._buttons()
        if event.option in buttons:
            self.pick(buttons.index(event.option))


class ScrollColumn(Vertical):
    """Top / page up / page down / end buttons beside a list, because a tablet cannot swipe.

    The column fills its row's height and gives up space as the row gets shorter (a wide but short
    terminal squeezes the log): first the gaps and borders, then Top and End, so that every button
    it shows can be tapped and none is cut off.
    """

    FITS: ClassVar[tuple[str, ...]] = ("-fit-full", "-fit-tight", "-fit-two", "-fit-none")

    def __init__(self, target: Callable[[], Widget], *, id: str) -> None:
        super().__init__(id=id, classes="ax-scroll -fit-full")
        self.target = target

    def compose(self) -> ComposeResult:
        prefix = self.id or "scroll"
        for what, label in (("top", "⤒"), ("up", "▲"), ("down", "▼"), ("end", "⤓")):
            yield Tap(label, id=f"{prefix}-{what}", classes=f"ax-scroll-btn ax-scroll-{what}")

    def _fit(self, rows: int) -> str:
        """The roomiest arrangement of the buttons that fits in ``rows``."""
        short = any(node.has_class("-ax-short") for node in self.ancestors_with_self)
        full = 8 if short else 12  # four buttons of one row and a gap each, or four of three rows
        if rows >= full:
            return "-fit-full"
        if rows >= 4:
            return "-fit-tight"
        return "-fit-two" if rows >= 2 else "-fit-none"

    def on_resize(self, event: events.Resize) -> None:
        self._refit()  # from the size now, not event.size: a later resize can arrive folded into this one
        self.call_after_refresh(self._refit)

    def _refit(self) -> None:
        fit = self._fit(self.size.height)
        if not self.has_class(fit):
            self.remove_class(*self.FITS)
            self.add_class(fit)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        widget = self.target()
        what = (event.button.id or "").rsplit("-", 1)[-1]
        if what in ("top", "up", "down", "end"):
            scroll_by_button(widget, what)


class KeyBar(Static):
    """The keys of the current screen in one line (what each key does can also be tapped).

    A light stand-in for Textual's Footer, which rebuilds one widget per key whenever the bindings
    change (every focus change and every tap here): on this screen that doubled the cost of a tap.
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.call_after_refresh(self.refresh_keys)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen) -> None:
        if self.is_attached and screen is self.screen:
            self.refresh_keys()

    def refresh_keys(self) -> None:
        """Redraw from the screen's active bindings (one entry per action, disabled ones dimmed)."""
        screen = self.screen
        seen: set[tuple[int, str]] = set()
        parts: list[Content] = []
        for node, binding, enabled, _tooltip in screen.active_bindings.values():
            if not binding.show or (id(node), binding.action) in seen:
                continue
            seen.add((id(node), binding.action))
            key = Content.styled(self.app.get_key_display(binding), "bold $accent" if enabled else "$text-disabled")
            text = Content.styled(binding.description, "" if enabled else "$text-disabled")
            parts.append(Content.assemble(key, " ", text))
        self.update(Content("  ").join(parts))


class LogRow(Static):
    """One log entry as a sentence; a tap selects it."""

    def __init__(self, index: int) -> None:
        super().__init__("", id=f"ax-entry-{index}", classes="ax-entry")
        self.index = index

    def on_click(self, event: events.Click) -> None:
        event.stop()
        list_ = self.parent
        if isinstance(list_, LogList):
            list_.focus()
            list_.select(self.index)


class LogList(VerticalScroll, can_focus=True):
    """The event log: rows are reused (hidden when unused) so redrawing never waits on a mount."""

    BINDINGS: ClassVar = [
        Binding("up", "move(-1)", "Previous", show=False),
        Binding("down", "move(1)", "Next", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
    ]

    class Selected(Message):
        def __init__(self, index: int | None) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.count = 0
        self.selected: int | None = None

    def show(self, sentences: list[str], conflict: set[int], selected: int | None) -> None:
        """Draw the log: one numbered sentence per entry, conflicting ones marked."""
        rows = list(self.query(LogRow))
        for i in range(len(rows), len(sentences)):
            row = LogRow(i)
            self.mount(row)
            rows.append(row)
        self.count = len(sentences)
        self.selected = selected if selected is not None and selected < self.count else None
        for i, row in enumerate(rows):
            if i >= self.count:
                row.display = False
                continue
            row.display = True
            mark = "⚠ " if i in conflict else ""
            row.update(Content(f"#{i + 1} {mark}{sentences[i]}"))  # plain text: a name like "[/]" is no markup
            row.set_class(i in conflict, "-conflict")
            row.set_class(i == self.selected, "-selected")

    def select(self, index: int | None) -> None:
        """Select entry ``index`` (None: nothing) and tell the screen, which enables Edit and Delete."""
        self.selected = index if index is not None and 0 <= index < self.count else None
        for row in self.query(LogRow):
            row.set_class(row.index == self.selected, "-selected")
        if self.selected is not None:
            self.query_one(f"#ax-entry-{self.selected}", LogRow).scroll_visible(animate=False)
        self.post_message(self.Selected(self.selected))

    def action_move(self, delta: int) -> None:
        if not self.count:
            return
        if self.selected is None:
            self.select(self.count - 1 if delta < 0 else 0)
        else:
            self.select(min(max(self.selected + delta, 0), self.count - 1))

    def action_jump(self, index: int) -> None:
        if self.count:
            self.select(index % self.count)
