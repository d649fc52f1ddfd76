"""The rulebook, and every assumption the engine makes where the rulebook is silent."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Static, TabbedContent, TabPane

from tui.widgets.choices import Btn
from tui.widgets.scroll import ScrollButtons


def rulebook_text(game: str = "clue") -> Text:
    """The rulebook with its headings in bold (a heading is a short line without a full stop)."""
    # A path next to this package, not importlib.resources: an editable install may see tui as a namespace.
    raw = (Path(__file__).resolve().parent.parent / "rules" / f"{game}.txt").read_text("utf-8")
    lines = raw.splitlines()
    out = Text()
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        heading = ((line and len(line) < 60 and not line.startswith(("•", " ", "*")) and not line.endswith((".", ":"))
                   and not nxt.strip().startswith("•")) or i == 0) and line.strip()
        out.append(line + "\n", style="bold" if heading else "")
    return out


def assumptions_text(game: str = "clue") -> Text:
    """Every assumption the game's data holds (engine/assumed.py), so a player can match them to the box."""
    from engine.registry import assumptions

    out = Text()
    out.append(f"Assumptions (editable in engine/{game}/data/*.toml)\n", style="bold")
    for section, items in assumptions(game):
        out.append(f"\n{section}\n", style="bold underline")
        for aid, text in items:
            out.append(f"• {text} ")
            out.append(f"[{aid}]\n", style="dim")
    return out


class RulesScreen(Screen):
    """Scrollable rulebook with explicit scroll buttons (a swipe does nothing on a tablet)."""

    HELP_TITLE = "Rules"

    BINDINGS = [
        Binding("escape,b", "app.pop_screen", "Back", id="rules-back"),
        Binding("1", "tab('rules-book')", "Rulebook", id="rules-tab-book"),
        Binding("2", "tab('rules-assumed')", "Assumptions", id="rules-tab-assumed"),
        Binding("pagedown,space", "page(1)", "Page down", show=False, id="rules-pgdn"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="rules-pgup"),
        Binding("down,j", "line(1)", "Line down", show=False, id="rules-down"),
        Binding("up,k", "line(-1)", "Line up", show=False, id="rules-up"),
    ]

    def __init__(self, game: str = "clue") -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        from engine.registry import GAMES

        yield Static(f"Rules — {GAMES.get(self.game, self.game)}", id="rules-title", classes="screen-title")
        with TabbedContent(id="rules-tabs"):
            with TabPane("Rulebook (1)", id="rules-book"), VerticalScroll(classes="rules-scroll",
                                                                          id="rules-book-scroll"):
                yield Static(rulebook_text(self.game), id="rules-text")
            with TabPane("Assumptions (2)", id="rules-assumed"), VerticalScroll(classes="rules-scroll",
                                                                                id="rules-assumed-scroll"):
                yield Static(assumptions_text(self.game), id="rules-assumptions")
        with Horizontal(classes="button-row"):
            yield ScrollButtons(self._scroll, id="rules-scroll")
            yield Btn("Back", id="rules-back")
        yield Footer()

    def _scroll(self) -> VerticalScroll:
        active = self.query_one("#rules-tabs", TabbedContent).active
        return self.query_one(f"#{active}-scroll", VerticalScroll)

    def action_tab(self, pane: str) -> None:
        self.query_one("#rules-tabs", TabbedContent).active = pane

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The key of the tab already shown is greyed out in the footer: it would do nothing."""
        if action == "tab" and self.is_mounted:
            tabs = self.query("#rules-tabs")
            if tabs and tabs.first(TabbedContent).active == parameters[0]:
                return None
        return True

    def on_tabbed_content_tab_activated(self, _event: TabbedContent.TabActivated) -> None:
        self.refresh_bindings()

    def action_page(self, d: int) -> None:
        s = self._scroll()
        (s.scroll_page_down if d > 0 else s.scroll_page_up)(animate=False)

    def action_line(self, d: int) -> None:
        s = self._scroll()
        s.scroll_relative(y=d, animate=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "rules-back":
            self.app.pop_screen()
