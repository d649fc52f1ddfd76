"""`?`: every key of the screen underneath, generated from its live bindings."""

from __future__ import annotations

from rich.table import Table as RichTable
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from tui.widgets.choices import Btn
from tui.widgets.scroll import ScrollButtons


def binding_rows(screen: Screen) -> list[tuple[str, str, str]]:
    """(keys, what it does, "now" or "not now") for each described binding active on ``screen``."""
    app = screen.app
    seen: dict[str, list[str]] = {}
    order: list[str] = []
    state: dict[str, str] = {}
    def rank(item: tuple) -> int:  # the screen's own keys first, then the app's, then the focused widget's
        node = item[1].node
        return 0 if node is screen else 1 if node is app else 2

    for key, active in sorted(screen.active_bindings.items(), key=rank):
        b = active.binding
        if not b.description:
            continue
        desc = f"{b.description} — {b.tooltip}" if b.tooltip and b.tooltip != b.description else b.description
        # "illegal" fallbacks stand in for actions the rules do not allow right now
        now = "not now" if b.action.startswith("illegal") or not active.enabled else "now"
        display = app.get_key_display(Binding(key, b.action, b.description, key_display=b.key_display))
        if desc not in seen:
            seen[desc] = []
            order.append(desc)
        if display not in seen[desc]:
            seen[desc].append(display)
        state[desc] = "now" if "now" in (state.get(desc), now) else now
    palette = getattr(app, "COMMAND_PALETTE_BINDING", "ctrl+p")
    rows = [(", ".join(seen[d]), d, state[d]) for d in order]
    if all(d != "Command palette" for d in order):
        rows.append((app.get_key_display(Binding(palette, "command_palette")), "Command palette", "now"))
    return rows


def help_title(screen: Screen) -> str:
    """What the screen is called in words: its ``HELP_TITLE``, else its dialog title, never its class
    name ("Keys — ClueAssist", issue 23)."""
    title = getattr(screen, "HELP_TITLE", None)
    if isinstance(title, str) and title:
        return title
    text = getattr(screen, "title_text", None)
    if isinstance(text, str) and text:
        return text
    return "this screen"


class HelpScreen(ModalScreen):
    """The keys of the screen underneath: built from its bindings, so it never goes stale."""

    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close help", id="help-close")]

    def __init__(self, under: Screen) -> None:
        super().__init__()
        self.rows = binding_rows(under)
        self.title_text = help_title(under)

    def compose(self) -> ComposeResult:
        table = RichTable(box=None, show_header=True, header_style="bold", expand=True, pad_edge=False)
        table.add_column("Key", no_wrap=True)
        table.add_column("Does")
        table.add_column("", no_wrap=True, style="dim")
        for keys, desc, now in self.rows:
            table.add_row(keys, desc, "" if now == "now" else "(not now)")
        with Vertical(id="help-box", classes="dialog"):
            yield Static(f"Keys — {self.title_text}", classes="dialog-title")
            yield Static("Every action also has a button; click or tap it.", classes="dialog-note")
            with VerticalScroll(id="help-scroll"):
                yield Static(table, id="help-table")
            with Horizontal(classes="dialog-buttons"):
                yield ScrollButtons("#help-scroll", id="help-scrollbtn")
                yield Btn("Close", id="help-close", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "help-close":
            self.dismiss()
