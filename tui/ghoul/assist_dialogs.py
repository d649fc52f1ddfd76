"""Tappable forms of the Tokyo Ghoul table assistant: the setup form and the entry dialogs.

Every question is a grid of large options (the shared :class:`tui.assist.widgets.Picker`), so a
whole entry is a few taps; only player names are typed. A dialog dismisses with one entry in
the solver's log format, or ``None``; a preview line says what will be logged or what is missing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Static

from tui.assist.dialog import AssistEntryDialog
from tui.assist.setup import AssistSetupForm
from tui.assist.widgets import ASSIST_CSS, BREAKPOINTS_H, BREAKPOINTS_V, KeyBar, Picker, Tap
from tui.ghoul import assist_model as g

DIALOG_CSS = """
#gx-more-grid { layout: grid; grid-size: 2; grid-gutter: 1 2; height: auto; padding: 1 0; }
#gx-more-grid Tap { width: 1fr; }
.-ax-short #gx-more-grid { grid-gutter: 0 2; }
"""


class GhoulEntryDialog(AssistEntryDialog):
    """Enter or edit one log entry of ``kind`` by taps; dismisses with the entry or None."""

    CSS = DIALOG_CSS
    BUTTONS = "gx"
    OTHERS: ClassVar[tuple[str, ...]] = ("target", "with")  # nobody interrogates, attacks or swaps with himself
    BINDINGS: ClassVar = [
        Binding("tab", "app.focus_next", "Next question", id="ghoul.dialog.next"),
        Binding("ctrl+s", "save", "Save", id="ghoul.dialog.save"),
        Binding("escape", "cancel", "Cancel", id="ghoul.dialog.cancel"),
    ]

    def __init__(
        self, kind: str, config: Mapping[str, Any], prior: Sequence[Any] = (), entry: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__()
        self.kind = kind
        self.config = config
        self.prior = list(prior)
        self.entry = dict(entry) if entry else None
        self.fields = g.fields(kind, g.with_reveals(config, self.prior))  # places named as the table sees them
        self._start = g.values_of(kind, self.entry, config, self.prior)

    def _title(self) -> str:
        title = g.TITLES.get(self.kind, self.kind)
        return title if self.entry is None else f"Edit: {title}"

    def _body(self) -> ComposeResult:
        """Every question as it will stand: its picks, shown or hidden, options greyed out.

        Built here, not after mounting: under load the first frame came seconds before the dialog's
        mount handler, so a tap on it landed on an option that then moved (issue 23)."""
        values = self._first_values()
        for f in self.fields:
            shown = f.show is None or f.show(values)
            label = Static(f.label, classes="ax-dlg-label", id=f"gx-lbl-{f.key}")
            picked = values[f.key] if f.multi else [values[f.key]]
            pick = Picker(list(f.options), multi=f.multi, columns=f.columns, allow_none=f.multi,
                          selected=[v for v in picked if v is not None], id=f"gx-pick-{f.key}")
            if f.key in self.OTHERS and values.get("by"):
                pick.disabled_values = {values["by"]}
            label.display = pick.display = shown
            yield label
            yield pick

    def _first_values(self) -> dict[str, Any]:
        """The picks the dialog opens with, by question."""
        return {f.key: self._start.get(f.key, [] if f.multi else None) for f in self.fields}

    def _first_preview(self) -> str:
        return self._preview_text(g.build(self.kind, self._first_values(), self.config))

    def _preview_text(self, built: tuple[dict[str, Any] | None, str]) -> str:
        entry, problem = built
        return g.describe(entry, g.with_reveals(self.config, self.prior)) if entry else problem

    def on_mount(self) -> None:
        self._update()
        first = next((f for f in self.fields if f.key not in self._start), self.fields[0])
        self.query_one(f"#gx-pick-{first.key}", Picker).focus()

    def values(self) -> dict[str, Any]:
        """What is picked now, by question."""
        return {f.key: self.query_one(f"#gx-pick-{f.key}", Picker).value for f in self.fields}

    def build(self) -> tuple[dict[str, Any] | None, str]:
        return g.build(self.kind, self.values(), self.config)

    def _update(self) -> None:
        values = self.values()
        for f in self.fields:
            shown = f.show is None or f.show(values)
            self.query_one(f"#gx-lbl-{f.key}").display = shown
            self.query_one(f"#gx-pick-{f.key}").display = shown
        for other in self.OTHERS:
            if other in values and "by" in values:
                self.query_one(f"#gx-pick-{other}", Picker).set_disabled_values([values["by"]] if values["by"] else [])
        preview = self.query_one("#ax-dlg-preview", Static)
        preview.update(self._preview_text(self.build()))
        preview.set_class(False, "-problem")

    @on(Picker.Changed)
    def _picked(self, event: Picker.Changed) -> None:
        event.stop()
        self._update()



class MoreDialog(Screen[str | None]):
    """The rarer entry kinds, one large button each; dismisses with the kind or None."""

    HELP_TITLE = "More entries"

    CSS_PATH = ASSIST_CSS
    CSS = DIALOG_CSS
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS_H
    VERTICAL_BREAKPOINTS = BREAKPOINTS_V
    BINDINGS: ClassVar = [
        Binding("escape", "cancel", "Cancel", id="ghoul.more.cancel"),
        *[Binding(key, f"pick('{kind}')", label, show=False) for kind, label, _s, key in g.MORE_KINDS],
        Binding("k", "pick('exchange_chance')", "Exchange chance", show=False, id="ghoul.more.exchange_chance"),
    ]

    def __init__(self, config: Mapping[str, Any], chance: str = "") -> None:
        super().__init__()
        self.config = config
        self.chance = chance  # "50% → 75%": the exchange-chance step a tap makes (k on the main screen)

    def available(self, kind: str) -> bool:
        if kind == "face_up":
            return bool(self.config.get("mask"))
        if kind.startswith("support"):
            return bool(self.config.get("support"))
        if kind == "exchange_chance":
            return bool(self.chance)
        return True

    def compose(self) -> ComposeResult:
        with Vertical(id="ax-dialog"):
            yield Static("More entries", id="ax-dlg-title")
            with Vertical(id="gx-more-grid"):
                for kind, label, _short, key in g.MORE_KINDS:
                    yield Tap(f"{label} ({key})", id=f"gx-more-{kind}", disabled=not self.available(kind))
                if self.chance:  # a setting, not an entry: here so that it can be tapped too
                    yield Tap(f"Unseen exchange {self.chance} (k)", id="gx-more-exchange_chance")
            with Horizontal(id="ax-dlg-buttons"):
                yield Tap("Cancel", id="gx-more-cancel")
        yield KeyBar(id="ax-keys")

    def action_pick(self, kind: str) -> None:
        if self.available(kind):
            self.dismiss(kind)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        bid = event.button.id or ""
        if bid == "gx-more-cancel":
            self.action_cancel()
        elif bid.startswith("gx-more-"):
            self.action_pick(bid.removeprefix("gx-more-"))


class GhoulSetup(AssistSetupForm):
    """The new-table form: players, me, variants, the cast, my character and the ring.

    Posts :class:`GhoulSetup.Done` with a checked solver config, or ``Cancelled``. Problems are
    listed under the form and nothing picked or typed is lost.
    """

    BUTTONS = "gs"
    BINDINGS: ClassVar = [
        Binding("ctrl+s", "start", "Start", id="ghoul.setup.start"),
        Binding("escape", "cancel", "Cancel", id="ghoul.setup.cancel"),
    ]

    def __init__(self, *, wide: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.wide = wide
        self.n = 5

    def _fields(self) -> ComposeResult:
        cols = 4
        chars = list(g.CHARS)
        yield Static("Players at the table", classes="ax-label")
        yield Picker(
            [(str(k), k) for k in range(g.MIN_PLAYERS, g.MAX_PLAYERS + 1)],
            columns=5,
            allow_none=False,
            selected=[self.n],
            id="gs-count",
        )
        yield Static("Names, clockwise (your left neighbour follows you)", classes="ax-label")
        for row in range(2):
            with Horizontal(classes="gs-names"):
                for i in range(row * 4, row * 4 + 4):
                    box = Input(
                        g.DEFAULT_NAMES[i],
                        id=f"gs-name-{i}",
                        classes="ax-input gs-name",
                        max_length=12,
                        placeholder=f"player {i + 1}",
                    )
                    box.cursor_blink = False
                    yield box
        yield Static("Which one is me", classes="ax-label")
        yield Picker(
            [(g.DEFAULT_NAMES[i], i) for i in range(g.MAX_PLAYERS)],
            columns=cols,
            allow_none=False,
            selected=[0],
            id="gs-me",
        )
        yield Static("Variants", classes="ax-label")
        yield Picker(
            [("Mask variant", "mask"), ("Support variant", "support")], multi=True, columns=2, id="gs-variants"
        )
        yield Static("Setup (6 and 7 players)", classes="ax-label")
        yield Picker(
            [("Setup A", "a"), ("Setup B", "b")], columns=2, allow_none=False, selected=["a"], id="gs-setup"
        )
        yield Static("Characters in play (public)", classes="ax-label")
        yield Picker(
            [(f"{g.char_label(c)} {g.faction_letter(c)}", c) for c in chars],
            multi=True,
            columns=cols,
            id="gs-cast",
        )
        yield Static("My character", classes="ax-label")
        yield Picker([(g.char_label(c), c) for c in chars], columns=cols, id="gs-char")
        yield Static(
            "Ring: the tile on each face-up place (1-8, clockwise)",
            classes="ax-label",
        )
        for p in g.OTHER_PLACES:
            yield Static(f"Place {p + 1}", classes="ax-dlg-label")
            yield Picker(
                [(g.tile_label(t), t) for t in g.OTHER_TILES],
                columns=6 if self.wide else 3,
                allow_none=False,
                id=f"gs-ring-{p}",
            )

    def on_mount(self) -> None:
        ring = g.default_ring()
        for p in g.OTHER_PLACES:
            self.query_one(f"#gs-ring-{p}", Picker).set_value(ring[p])
        self._reset_cast()
        self.refresh_form()

    # ------------------------------------------------------------------ state

    def names(self) -> list[str]:
        return [self.query_one(f"#gs-name-{i}", Input).value for i in range(self.n)]

    def _variants(self) -> list[str]:
        return list(self.query_one("#gs-variants", Picker).value)

    def _reset_cast(self) -> None:
        mask = "mask" in self._variants()
        setup = self.query_one("#gs-setup", Picker).value or "a"
        cast = g.default_cast(self.n, setup if self.n in (6, 7) else "a", mask)
        self.query_one("#gs-cast", Picker).set_value(cast)
        char = self.query_one("#gs-char", Picker)
        if char.value not in cast:
            char.set_value(None)

    def refresh_form(self) -> None:
        """Bring the dependent options up to date: names on the Me row, what can be picked."""
        names = self.names()
        for i in range(g.MAX_PLAYERS):
            # hidden, not removed: the other names keep their columns
            box = self.query_one(f"#gs-name-{i}", Input)
            box.styles.visibility = "visible" if i < self.n else "hidden"
            box.disabled = i >= self.n  # and out of the Tab order
        me = self.query_one("#gs-me", Picker)
        me.set_options(
            [(names[i] if i < self.n and names[i].strip() else f"#{i + 1}", i) for i in range(g.MAX_PLAYERS)]
        )
        me.set_disabled_values(range(self.n, g.MAX_PLAYERS))
        if me.value is None:
            me.set_value(0)
        self.query_one("#gs-setup", Picker).set_disabled_values([] if self.n in (6, 7) else ["b"])
        mask = "mask" in self._variants()
        allowed = set(g.allowed_characters(self.n, mask))
        cast = self.query_one("#gs-cast", Picker)
        cast.set_disabled_values([c for c in g.CHARS if c not in allowed])
        self.query_one("#gs-char", Picker).set_disabled_values([c for c in g.CHARS if c not in cast.value])
        self._show_errors()

    def config(self) -> tuple[dict[str, Any] | None, list[str]]:
        """The solver config the form holds now, or the problems."""
        ring: list[str | None] = [None] * 8
        for p in g.OTHER_PLACES:
            ring[p] = self.query_one(f"#gs-ring-{p}", Picker).value
        setup = self.query_one("#gs-setup", Picker).value or "a"
        variants = self._variants()
        return g.make_config(
            self.names(),
            self.query_one("#gs-me", Picker).value or 0,
            self.query_one("#gs-char", Picker).value,
            self.query_one("#gs-cast", Picker).value,
            "mask" in variants,
            "support" in variants,
            setup if self.n in (6, 7) else "a",
            ring,
        )

    # ------------------------------------------------------------------ events

    @on(Picker.Changed)
    def _picked(self, event: Picker.Changed) -> None:
        event.stop()
        pid = event.picker.id
        if pid == "gs-count":
            self.n = int(event.value)
            self._reset_cast()
        elif pid in ("gs-variants", "gs-setup"):
            self._reset_cast()
        self.refresh_form()

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self.refresh_form()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.screen.focus_next()

    def _checked(self) -> tuple[dict[str, Any] | None, dict[str, Any] | None, list[str]]:
        config, errors = self.config()
        return config, None, errors
