"""The Tokyo Ghoul: Bloody Masquerade play screen: one human seat at a :class:`solvers.table.Table`.

The screen reads only its seat's view (``table.view(seat)``) and acts only through
``table.submit`` / ``table.undo``, so it cannot show what the seat may not know. Bots move one
action per ``app.bot_delay`` seconds on a timer (all at once when the delay is 0). The dialog a
decision needs (show, give, interrogate, exchange, cover up, attack…) opens by itself; moves are
a tap on a green location. After every change the session is saved.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Static, TabbedContent, TabPane

from tui.ghoul import model as m
from tui.widgets.boardcell import BoardCell
from tui.widgets.botloop import UNDO_HELP
from tui.widgets.choices import Btn
from tui.widgets.draw import DrawOnce
from tui.widgets.logview import LogView
from tui.widgets.playseat import PlaySeat
from tui.widgets.scroll import ScrollButtons

TABS = ("gh-tab-log", "gh-tab-me", "gh-tab-cast")
SHORT_TILE = {
    "cochlea": "Cochlea",
    "anteiku": "Anteiku",
    "ccg-office": "CCG Office",
    "kamii-university": "Kamii Uni",
    "11th-ward": "11th Ward",
    "ghoul-restaurant": "Restaurant",
    "20th-ward-streets": "20th Ward",
    "aogiri-hideout": "Aogiri",
}


class LocationCell(BoardCell):
    """One place of the ring; a tap moves the Action token there (when the rules allow it)."""


class PlayScreen(PlaySeat, DrawOnce, Screen):
    """The ring, the players, your character and the log; an action bar; bots play on a timer."""

    HELP_TITLE = "Tokyo Ghoul: play"
    AUTO_FOCUS = None
    SCOPED_CSS = False  # the -wide/-tall breakpoint classes sit on the screen; every id here is this screen's
    DEFAULT_CSS = """
    #gh-status { height: 1; padding: 0 1; background: $panel; }
    #gh-main { height: 1fr; }
    #gh-left { width: 1fr; height: 100%; }
    #gh-ring { grid-size: 4 2; grid-gutter: 0 1; height: 1fr; min-height: 8; }
    LocationCell { width: 1fr; height: 1fr; background: $boost; overflow: hidden; padding: 0 0 0 1;
                   pointer: pointer; }
    LocationCell:hover { background: $primary 30%; }
    LocationCell.-red { border-left: outer $error; padding: 0; }
    LocationCell.-down { color: $text-muted; background: $panel; }
    LocationCell.-token { background: $accent 35%; }
    LocationCell.-reachable { background: $success 45%; }
    LocationCell.-reachable:hover { background: $success 70%; }
    #gh-players { height: auto; padding: 0 1; }
    #gh-me-strip { display: none; height: auto; max-height: 8; padding: 0 1; background: $boost; }
    Screen.-tall #gh-me-strip { display: block; }
    #gh-side { width: 32; height: 100%; border-left: tall $panel; }
    Screen.-wide #gh-side { width: 42; }
    #gh-tabs { height: 1fr; }
    #gh-tabs TabPane { padding: 0; }
    #gh-tabs Tab { padding: 0 1; }
    #gh-log { height: 1fr; padding: 0 1; scrollbar-size-vertical: 1; }
    .gh-scroll { height: 1fr; padding: 0 1; scrollbar-size-vertical: 1; }
    #gh-scrollbtn { height: 1; width: 100%; }
    #gh-scrollbtn Button { height: 1; border: none; min-width: 0; width: 1fr; margin: 0; padding: 0; }
    #gh-scrollbtn-top { display: none; }
    Screen.-wide #gh-scrollbtn-top { display: block; }
    Screen.-tall #gh-scrollbtn { height: 3; }
    Screen.-tall #gh-scrollbtn Button { height: 3; margin: 0 1 0 0; background: $boost; }
    #gh-prompt { height: auto; padding: 0 1; background: $primary 20%; }
    #gh-actions { height: 3; }
    Button.gh-act { min-width: 10; width: auto; margin: 0 1 0 0; }
    """
    BINDINGS = [
        Binding("a", "act", "Act…", tooltip="Open the choices of your current decision", id="gh-act"),
        Binding("p", "pass", "Pass", tooltip="Skip this optional action", id="gh-pass"),
        Binding("z", "undo", "Undo", tooltip=UNDO_HELP, id="gh-undo"),
        Binding("f", "results", "Results", id="gh-results"),
        Binding("1", "tab(0)", "Log tab", show=False, id="gh-tab-log"),
        Binding("2", "tab(1)", "You tab", tooltip="Your character, objectives and cards", show=False,
                id="gh-tab-me"),
        Binding("3", "tab(2)", "Cast tab", tooltip="Every character in play", show=False, id="gh-tab-cast"),
        Binding("escape", "app.home", "Home", id="gh-home"),
    ]

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="gh-status")
        with Horizontal(id="gh-main"):
            with Vertical(id="gh-left"):
                with Grid(id="gh-ring"):
                    for place in m.RING_ORDER:
                        yield LocationCell(place, id=f"place-{place}", classes="gh-place")
                yield Static(id="gh-players")
                yield Static(id="gh-me-strip")
            with Vertical(id="gh-side"):
                with TabbedContent(id="gh-tabs", initial="gh-tab-log"):
                    with TabPane("Log", id="gh-tab-log"):
                        yield LogView(id="gh-log")
                    with TabPane("You", id="gh-tab-me"), VerticalScroll(classes="gh-scroll", id="gh-me-scroll"):
                        yield Static(id="gh-me")
                    with TabPane("Cast", id="gh-tab-cast"), VerticalScroll(classes="gh-scroll",
                                                                           id="gh-cast-scroll"):
                        yield Static(id="gh-cast")
                yield ScrollButtons(self._scroll_target, id="gh-scrollbtn")
        yield Static(id="gh-prompt")
        with Horizontal(id="gh-actions"):
            yield Btn("Act… (a)", id="act-act", classes="gh-act", variant="primary")
            yield Btn("Pass (p)", id="act-pass", classes="gh-act")
            yield Btn("Undo (z)", id="act-undo", classes="gh-act", tooltip=UNDO_HELP)
            yield Btn("Results (f)", id="act-results", classes="gh-act", variant="primary")
        yield Footer()

    def _scroll_target(self) -> Widget:
        active = self.query_one("#gh-tabs", TabbedContent).active
        return self.query_one({"gh-tab-me": "#gh-me-scroll", "gh-tab-cast": "#gh-cast-scroll"}.get(active, "#gh-log"))

    def on_mount(self) -> None:
        self.sync()

    def on_resize(self, event: Resize) -> None:
        if self.is_mounted:
            self._drawn.clear()
            self._redraw()

    # ----------------------------------------------------------------- the loop

    def _maybe_ask(self) -> None:
        """Open the current decision's dialog once per decision (a move waits for a tap on the ring)."""
        v = self.view
        kind = m.decision_kind(v)
        if kind is None or kind == "move":
            return
        if self._first_ask((len(self.table.log), kind)):
            self.action_act()

    # ----------------------------------------------------------------- drawing

    def _wide(self) -> bool:
        return self.app.size.width >= 110

    def _redraw(self) -> None:
        v = self.view
        self._put("#gh-status", m.status_line(v, max(20, self.app.size.width - 2)))  # 1 cell of padding each side
        self._put("#gh-prompt", Text(m.prompt(v), style="bold"))
        self._redraw_ring()
        self._put("#gh-players", self._players_text())
        self._put("#gh-me", self._lines_text(m.me_lines(v)))
        self._put("#gh-me-strip", self._lines_text(m.me_lines(v)))
        self._put("#gh-cast", self._lines_text(m.cast_lines(v)))
        self._render_log()
        self._render_actions()

    def _redraw_ring(self) -> None:
        wide = self._wide()
        full = self.app.size.width >= 150
        for cell in m.ring_cells(self.view, short=not wide, medium=wide and not full):
            widget = self.query_one(f"#place-{cell.place}", LocationCell)
            t = Text()
            title = cell.title if wide or not cell.known else SHORT_TILE.get(
                self.view["ring"][cell.place]["tile"] or "", cell.title)
            if wide:
                t.append(f"{cell.place + 1} ", style="bold")
            t.append(title if cell.known else ("Red-edged" if cell.red else "Unknown"),
                     style="bold" if cell.face_up else "")
            t.append("\n")
            for i, line in enumerate(cell.lines):
                current = cell.current == i
                style = "bold reverse" if current else "" if cell.face_up else "dim"
                t.append(line + "\n", style=style)
            if not cell.lines:
                t.append(" tile never seen\n" if wide else " not seen\n", style="dim")
            flags = []
            if not wide:
                flags.append(f"#{cell.place + 1}")
            if cell.token:
                flags.append("◆ TOKEN" if not wide else "◆ Action token")
            if not cell.face_up:
                flags.append("face down" if wide else "(down)")
            if cell.red and wide:
                flags.append("red edge")
            t.append((" " if not wide else " · ").join(flags), style="bold yellow" if cell.token else "dim")
            key = t.markup
            if self._drawn.get(f"#place-{cell.place}") != key:
                self._drawn[f"#place-{cell.place}"] = key
                widget.update(t)
            widget.set_class(cell.red, "-red")
            widget.set_class(not cell.face_up, "-down")
            widget.set_class(cell.token, "-token")
            widget.set_class(cell.reachable, "-reachable")

    def _players_text(self) -> Text:
        v = self.view
        wide = self._wide()
        mask = v["variants"]["mask"]
        rows = m.player_rows(v)
        name_w = self._name_width(rows, mask, 10 if wide else 7)
        t = Text()
        for row in rows:
            mark = "> " if row.to_act else "· " if row.turn else "  "
            t.append(mark, style="bold yellow")
            style = "strike dim" if row.dead else "bold green" if row.me else "bold" if row.turn else ""
            t.append(f"{row.name[:name_w]:<{name_w}}", style=style)
            t.append(f" {m.markers_text(row.markers):<6}", style="bold red" if row.markers else "")
            if mask:
                up = row.face_up
                t.append(f" {m.SUIT_ABBR.get(up or '', '—'):<3}", style=m.SUIT_STYLE.get(up or "", "dim"))
            if row.me:
                for c in v["hand"]:
                    t.append(" " + m.SUIT_ABBR[c], style=m.SUIT_STYLE.get(c, ""))
                t.append(" " * max(0, 12 - 4 * len(v["hand"])))
            else:
                t.append(f" {row.hand:<11}", style="dim")
            if row.character:
                label = m.char_short(row.character)
                fac = m.cast_by_id(v).get(row.character, {}).get("faction", "")
                t.append(f" {label}", style=m.FACTION_STYLE.get(fac, ""))
            t.append("\n")
        t.append(f"Pool: {v['pool']} of {v['pool_total']} Suspicion markers left", style="bold")
        if wide:
            t.append("  (> to act, · turn)", style="dim")
        return t

    def _name_width(self, rows: list[m.PlayerRow], mask: bool, least: int) -> int:
        """Room for names: ``least``, or more when the row has it, so that long names (a served table
        names seats after their owners) stay apart ("Alexandra S", "Alexander J", not "Alexand" twice)."""
        longest = max(len(r.name) for r in rows)
        if longest <= least:
            return least
        side = 42 if self._wide() else 32  # #gh-side (Screen.-wide from 110 columns, as _wide)
        room = self.app.size.width - side - 2  # the left column, less its padding
        labels = [len(m.char_short(r.character)) + 1 for r in rows if r.character]
        used = 2 + 7 + (4 if mask else 0) + 12 + max(labels, default=0)  # mark, markers, face up, cards, character
        return max(least, min(longest, room - used))

    @staticmethod
    def _lines_text(lines: list[tuple[str, str]]) -> Text:
        t = Text()
        for text, style in lines:
            t.append(text + "\n", style=style)
        return t

    def _render_log(self) -> None:
        self._show_events(self.query_one("#gh-log", LogView), self.view["events"],
                          lambda ev: m.describe(ev, self.view), self._log_style)

    def _log_style(self, ev: dict) -> str:
        t = ev["t"]
        if t in ("turn", "end", "preliminary_done"):
            return "bold"
        if t in ("attack", "special", "instant"):
            return "bold red"
        if t == "suspicion" and self.seat in ev["matched"]:
            return "yellow"
        if t in ("identity", "hand", "shown", "prelim_shown", "prelim_given", "exchange", "support_look",
                 "support_token"):
            return "green"
        return ""

    def _render_actions(self) -> None:
        v = self.view
        mine = m.decision_kind(v) is not None
        self.query_one("#act-act", Button).display = not v["over"]
        self.query_one("#act-act", Button).disabled = not mine
        self.query_one("#act-pass", Button).display = mine and ["pass"] in v["legal"]
        undo = self.query_one("#act-undo", Button)
        undo.display = not v["over"]
        undo.disabled = not self._can_undo()
        self.query_one("#act-results", Button).display = bool(v["over"])
        self.refresh_bindings()

    def _can_undo(self) -> bool:
        return self.table.undo_target(self.seat) is not None

    # ----------------------------------------------------------------- acting

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        over = bool(self.view["over"])
        if action in ("act", "undo"):
            return not over
        if action == "pass":
            return m.decision_kind(self.view) is not None and ["pass"] in self.view["legal"]
        if action == "results":
            return over
        return True

    def action_act(self) -> None:
        from tui.ghoul.dialogs import decision_dialog

        v = self.view
        if v["over"]:
            return
        dialog = decision_dialog(v)
        if dialog is None:
            who = v["players"][v["to_act"]] if v["to_act"] is not None else "nobody"
            self.notify(f"Nothing to decide now: {who} is deciding.", title="Wait", severity="warning",
                        markup=False)
            return
        self.app.push_screen(dialog, self._chosen)

    def _chosen(self, action: Any) -> None:
        from tui.widgets.confirm import ConfirmDialog

        if not action:
            return
        action = tuple(action)
        if m.is_final(action):
            verb = "Attack" if action[0] == "attack" else "Kill"
            self.app.push_screen(
                ConfirmDialog(m.final_question(self.view, action), yes=verb, no="Back", title="This ends the game"),
                lambda yes: self.submit(action) if yes else None,
            )
            return
        self.submit(action)

    def action_pass(self) -> None:
        self.submit(("pass",))

    def action_results(self) -> None:
        from tui.ghoul.end import EndScreen

        if not self.table.is_over() or not self.is_attached:
            return
        self._end_shown = True
        self.app.push_screen(EndScreen(self.view))

    def action_tab(self, index: int) -> None:
        self.query_one("#gh-tabs", TabbedContent).active = TABS[index]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        handlers = {
            "act-act": self.action_act,
            "act-pass": self.action_pass,
            "act-undo": self.action_undo,
            "act-results": self.action_results,
        }
        handler = handlers.get(event.button.id or "")
        if handler:
            handler()

    def on_board_cell_clicked(self, event: BoardCell.Clicked) -> None:
        """A tap on a location: move there if it is reachable, else say why not (nothing changes)."""
        place: int = event.key
        v = self.view
        if v["over"]:
            return
        if v["to_act"] == self.seat and v["phase"] == "move" and place not in m.move_targets(v):
            cell = v["ring"][place]
            why = ("That location is face down: the token moves only to face-up locations."
                   if not cell["face_up"] else
                   "The token moves 1 or 2 face-up locations clockwise (the green ones).")
            self.notify(why, title="Not allowed", severity="warning", markup=False)
            return
        self.submit(("move", place))
