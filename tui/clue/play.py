"""The Clue play screen: one human seat at a :class:`solvers.table.Table`, the other seats bots.

The screen reads only its seat's view and acts only through ``table.submit`` / ``table.undo``.
Bots move one action per ``app.bot_delay`` seconds on a timer (all at once when the delay is
0), so the screen stays responsive. After every change the session is saved atomically.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.coordinate import Coordinate
from textual.events import Click, Key
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Static, TabbedContent, TabPane
from textual.worker import get_current_worker

from engine import words
from engine.clue.plan import best_roll
from tui.clue import model as m
from tui.clue.board import BoardView, LocationCell
from tui.widgets.botloop import UNDO_HELP
from tui.widgets.choices import Btn
from tui.widgets.draw import DrawOnce
from tui.widgets.logview import LogView
from tui.widgets.playseat import PlaySeat

if TYPE_CHECKING:
    from solvers.table import Table

# (action kind, key, short description for the footer and the button, what it does in full for help)
ACTIONS: tuple[tuple[str, str, str, str], ...] = (
    ("roll", "r", "Roll", "Roll the dice"),
    ("passage", "g", "Passage", "Take the secret passage"),
    ("stay", "y", "Stay", "Stay where a rumor moved you"),
    ("move", "m", "Move…", "Choose where to move (or click the board)"),
    ("rumor", "u", "Rumor…", "Start a rumor here"),
    ("accuse", "a", "Accuse…", "Accuse (in the centre)"),
    ("look_centre", "c", "Centre cards", "Look at the face-down cards in the centre"),
    ("power", "x", "Move again", "Character power: roll and move again"),
    ("play", "v", "Raven", "Play a Raven: see a random card of a player"),
    ("show", "s", "Show…", "Show a card to disprove the rumor"),
    ("draw", "d", "Draw", "Draw a Plot card"),
    ("decline", "n", "Decline", "Do not draw a Plot card"),
    ("teleport", "t", "Go to…", "Master of Whisperers: go anywhere"),
    ("peek", "k", "Peek…", "Raven: choose whose card to see"),
    ("look_aside", "o", "Aside…", "Look at a set-aside card"),
    ("end", "e", "End turn", "End your turn"),
)
DIALOG_KINDS = {"move", "rumor", "accuse", "show", "teleport", "peek", "look_aside"}
AUTO_DIALOG = {"refute": "show", "offer": "offer", "teleport": "teleport", "peek": "peek", "aside": "look_aside"}
TABS = ("tab-log", "tab-sheet", "tab-hand", "tab-players", "tab-plan")


def sheet_legend() -> Text:
    """Two short lines under the sheet (33 columns at 80): the marking keys, then what the colours mean."""
    t = Text()
    t.append("Tap", style="bold")
    t.append(": ✓ ✗ ? · keys ")
    t.append("v x ? A-Z Del", style="bold")
    t.append("\n")
    t.append("●", style="bold green")
    t.append(" ✗", style="bold red")
    t.append(" seen  ")
    t.append("●", style="bold blue")
    t.append(" solver  ")
    t.append("✓", style="bold yellow")
    t.append(" yours")
    return t


class SheetTable(DataTable):
    """The detective sheet, a paper sheet: keys or a tap put your own marks in a cell.

    While the sheet has the focus its keys are marks (v, x and ? shadow the screen's Raven, power
    and help keys, as a pencil on paper would): 1 (the Log tab) or Tab leaves it.
    """

    BINDINGS = [
        Binding("space", "select_cursor", "Cycle mark", show=False),
        Binding("v", "mark('✓')", "✓", tooltip="Mark ✓ in the cell (a capital letter: a note)", id="sheet-yes"),
        Binding("x", "mark('✗')", "✗", tooltip="Mark ✗ in the cell", id="sheet-no"),
        Binding("question_mark", "mark('?')", "Mark ?", tooltip="Mark ? in the cell", id="sheet-maybe"),
        Binding("delete,backspace", "mark('')", "Clear", tooltip="Clear your mark in the cell", id="sheet-clear"),
    ]

    class MarkRequested(Message):
        """Put ``mark`` in a cell (None: the next mark of the tap cycle)."""

        def __init__(self, row: int, column: int, mark: str | None = None) -> None:
            super().__init__()
            self.row = row
            self.column = column
            self.mark = mark

    def action_mark(self, mark: str) -> None:
        row, col = self.cursor_coordinate
        if col >= 1:
            self.post_message(self.MarkRequested(row, col, mark))

    def on_key(self, event: Key) -> None:
        """A capital letter is a note of your own (who showed it, a hunch) in the cell."""
        char = event.character or ""
        if len(char) == 1 and char in m.NOTE_LETTERS:
            event.stop()
            event.prevent_default()
            self.action_mark(char)

    def on_click(self, event: Click) -> None:
        meta = event.style.meta
        if "row" not in meta or "column" not in meta:
            return
        row, col = meta["row"], meta["column"]
        if row < 0 or col < 1:
            return
        event.prevent_default()
        self.cursor_coordinate = Coordinate(row, col)
        self.post_message(self.MarkRequested(row, col))

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        if event.coordinate.column >= 1:
            self.post_message(self.MarkRequested(event.coordinate.row, event.coordinate.column))


class PlayScreen(PlaySeat, DrawOnce, Screen):
    """Board, hand, detective sheet, log, and an action bar; bots play on a timer."""

    HELP_TITLE = "Clue: play"
    AUTO_FOCUS = None
    BINDINGS = [
        *[Binding(key, f"act('{kind}')", desc, tooltip=full, id=f"play-{kind}") for kind, key, desc, full in ACTIONS],
        # The same keys when the rules do not allow the action now: say why instead of doing nothing.
        *[Binding(key, f"illegal('{kind}')", desc, tooltip=full, show=False) for kind, key, desc, full in ACTIONS],
        Binding("z", "undo", "Undo", tooltip=UNDO_HELP, id="play-undo"),
        Binding("f", "results", "Results", id="play-results"),
        Binding("1", "tab(0)", "Log tab", show=False, id="play-tab-log"),
        Binding("2", "tab(1)", "Sheet tab", show=False, id="play-tab-sheet"),
        Binding("3", "tab(2)", "Hand tab", show=False, id="play-tab-hand"),
        Binding("4", "tab(3)", "Players tab", show=False, id="play-tab-players"),
        Binding("5", "tab(4)", "Plan tab", show=False, id="play-tab-plan"),
        Binding("escape", "app.home", "Home", id="play-home"),
    ]

    def __init__(self, table: Table, seat: int, session_id: str, marks: dict | None = None) -> None:
        super().__init__(table, seat, session_id)
        from engine.clue.board import load_board

        self._marks_given = marks is not None
        self.board = load_board(table.config.board)
        self.marks, self._marks_dropped = m.read_marks(marks, self.board, table.config.players)
        self._solver_help: dict[str, list[float]] | None = None  # the solver's sheet (Settings), when asked
        self._solver_for = -1  # the log length it was solved for
        self._sheet_ready = False
        self._name_width = 12
        self._cell_width = 4
        self._paths_rows = 2  # the "On paths" line's height limit (app.tcss: 2)
        self._labels: dict[str, str] = {}
        self._sheet_drawn: dict[str, list[str]] = {}
        self._actions_drawn: tuple | None = None
        self._holder: dict = {}
        self._lacks: dict[int, set[str]] | None = None
        self._candidates: dict[str, list[str]] = {}
        self._plan_drawn: tuple = ()
        self._plan_node: int | None = None

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="play-main"):
            with Vertical(id="play-left"):
                yield BoardView(self.board, id="board")
                yield Static(id="paths")
                yield Static(id="hand-strip")
            with TabbedContent(id="side", initial="tab-log"):
                with TabPane("Log", id="tab-log"):
                    yield LogView(id="log")
                with TabPane("Sheet", id="tab-sheet"):
                    yield SheetTable(id="sheet", cursor_type="cell", zebra_stripes=True, cell_padding=0)
                    yield Static(sheet_legend(), id="sheet-legend")
                with TabPane("Hand", id="tab-hand"), VerticalScroll(classes="side-scroll"):
                    yield Static(id="hand")
                with TabPane("Players", id="tab-players"), VerticalScroll(classes="side-scroll"):
                    yield Static(id="players")
                with TabPane("Plan", id="tab-plan"):
                    yield DataTable(id="plan", cursor_type="row", zebra_stripes=True, cell_padding=0)
                    yield Static(id="plan-route")
        yield Static(id="prompt")
        with Horizontal(id="actions"):
            for kind, _key, label, full in ACTIONS:
                yield Btn(label, id=f"act-{kind}", classes="act", tooltip=full)
            yield Btn("Undo", id="act-undo", classes="act", tooltip=UNDO_HELP)
            yield Btn("Results", id="act-results", classes="act", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        if not self._marks_given:
            self._load_marks_from_disk()
        if self._marks_dropped:
            self.notify(f"{words.count(self._marks_dropped, 'sheet mark')} in the saved game could not be read "
                        "and {0} left out; the game and your other marks are as saved.".format(
                            "was" if self._marks_dropped == 1 else "were"),
                        title="Detective sheet", severity="warning", markup=False)
        self.sync()

    def _load_marks_from_disk(self) -> None:
        """A table opened by the CLI may continue a saved session: keep its sheet marks."""
        from tui.storage import load_session

        try:
            raw = load_session(self.session_id).extra.get("clue_marks")
        except Exception:
            return
        self.marks, self._marks_dropped = m.read_marks(raw, self.board, self.table.config.players)

    def _ready_to_ask(self) -> bool:
        return self._sheet_ready

    # ----------------------------------------------------------------- the loop

    def _maybe_ask(self) -> None:
        """Open the dialog the rules require now (show a card, draw or not, …), once per decision."""
        v = self.view
        if v["to_act"] != self.seat or v["phase"] not in AUTO_DIALOG:
            return
        if self._first_ask((len(self.table.log), v["phase"])):
            self.open_dialog(AUTO_DIALOG[v["phase"]])

    # ----------------------------------------------------------------- drawing

    def _redraw(self) -> None:
        v = self.view
        b = self.board
        self._put("#status", m.status_line(v, b, self._status_width()))
        self._put("#prompt", Text(m.prompt(v, b), style="bold"))
        reach = m.reachable(v, b)
        me = v["characters"][self.seat]
        self.query_one(BoardView).show(m.board_cells(v, b, reach), me, set(v["characters"]))
        width = self._paths_width()
        paths = m.paths_line(v, b, width)
        self._put("#paths", paths)
        box = self.query_one("#paths", Static)
        box.display = bool(paths)
        # Two lines as a rule; more only when even initials need them (all six tokens on paths).
        rows = min(max(2, m.wrapped_lines(paths, width)), 4)
        if rows != self._paths_rows:
            self._paths_rows = rows
            box.styles.max_height = rows
        self._put("#hand-strip", self._hand_strip())
        self._render_log()
        self._render_sheet()
        self._put("#hand", self._hand_text())
        self._put("#players", self._players_text())
        self._render_plan()
        self._render_actions()

    def _status_width(self) -> int:
        """Cells the header has for text (the screen's width less its padding)."""
        return max(self.app.size.width - 2, 20)

    def _paths_width(self) -> int:
        """Cells the "On paths" line has: the board's column less its padding."""
        width = self.app.size.width
        return max(width - (56 if width >= 110 else 33) - 2, 20)  # the side panel's width is in app.tcss

    def on_resize(self) -> None:
        """A narrower terminal gets a shorter header, never one cut at the dice."""
        if self._sheet_ready:
            self._put("#status", m.status_line(self.view, self.board, self._status_width()))

    def _render_log(self) -> None:
        seats = m.Seats.from_view(self.view)

        def style(ev: dict) -> str:
            if ev["t"] in ("show", "peek", "aside", "centre_look", "hand") and seats.me in (
                    ev.get("seat"), ev.get("to"), ev.get("target")):
                return "bold green"
            return "bold" if ev["t"] in ("turn", "end") else ""

        self._show_events(self.query_one("#log", LogView), self.view["events"],
                          lambda ev: m.describe(ev, seats, self.board), style)

    def _sheet_layout(self) -> None:
        """Fit the sheet to the side panel once, when it is built: card labels and column widths.

        Four cells a column while the card names keep 11 characters, else three (five or six players
        at 80 columns), so the envelope column is never pushed out of sight. Card labels are the
        assistant's short labels (first names, "Poison", the board's short place names), never cut.
        """
        from tui.clue.assist_model import board_deck, short_labels

        wide = self.app.size.width >= 110
        room = (56 if wide else 33) - 1  # the side panel, less the sheet's scrollbar
        columns = len(self.view["characters"]) + 1
        self._cell_width = 4 if room - 4 * columns >= 11 else 3
        self._name_width = min(22 if wide else 12, room - self._cell_width * columns)
        deck = board_deck(self.board.id)
        self._labels = short_labels(deck, self.board.id, self._name_width)  # every mark cell starts with a space

    def _sheet_columns(self) -> list[str]:
        seats = m.Seats.from_view(self.view)
        names = ["You" if i == seats.me else seats.names[i] for i in range(len(seats.names))]
        if self._cell_width >= 4:
            return [f"{n[:3]:<4}" for n in [*names, "Env"]]
        heads = ["Me" if i == seats.me else n[:2] for i, n in enumerate(names)]
        # Two players alike ("Bran", "Brienne"): those two by initial and seat number.
        heads = [h if heads.count(h) == 1 else f"{h[:1]}{i + 1}" for i, h in enumerate(heads)]
        return [f"{h:<3}" for h in [*heads, "En"]]

    def _render_sheet(self) -> None:
        from solvers.clue.sheet import Sheet

        sheet = Sheet.from_view(self.view)
        b = self.board
        self._holder = dict(sheet.holder)
        self._candidates = {"suspect": sheet.candidates(b.suspects), "weapon": sheet.candidates(b.weapons),
                            "location": sheet.candidates(b.locations)}
        self._lacks = sheet.lacks  # passes are facts you saw: always on the sheet
        rows = m.sheet_rows(self.view, b, self._holder, self._candidates, self.marks, self._lacks,
                            self._help())
        table = self.query_one("#sheet", SheetTable)
        if not self._sheet_ready:
            # Card names as long as the room allows when the sheet is built (the side panel is wider then).
            self._sheet_layout()
        cols = self._sheet_columns()
        if not self._sheet_ready:
            table.add_column("Card", key="card")
            for i, name in enumerate(cols):
                table.add_column(Text(name), key=f"c{i}")  # a player's name: text, not markup
            for row in rows:
                cells = self._sheet_cells(row)
                table.add_row(*cells, key=row.card)
                self._sheet_drawn[row.card] = [c.markup for c in cells]
            table.move_cursor(row=0, column=1)
            self._sheet_ready = True
            return
        for row in rows:
            drawn = self._sheet_drawn[row.card]
            for i, cell in enumerate(self._sheet_cells(row)):
                if drawn[i] != cell.markup:
                    drawn[i] = cell.markup
                    table.update_cell(row.card, "card" if i == 0 else f"c{i - 1}", cell)

    def _sheet_cells(self, row: m.SheetRow) -> list[Text]:
        width = self._name_width
        name = self._labels.get(row.card, row.card)
        style = "bold" if row.category == "suspect" else ""
        label = Text(name[:width].ljust(width), style=style)
        if row.note and len(name) + 1 + len(row.note) <= width:  # the next cell starts with a space
            label = Text(name + " ", style=style)
            label.append(f"{row.note}".ljust(width - label.cell_len), style="dim italic")
        elif row.note:  # no room for "up" / "ctr" beside the name: the name whole, dim (the Hand tab says where)
            label = Text(name[:width].ljust(width), style=f"{style} dim italic".strip())
        cells = [label]
        for value, source in zip(row.cells, row.source, strict=True):
            if source == "seen":
                style = "bold green" if value == "●" else "bold red" if value == "✗" else "dim"
            elif source == "solver":
                style = "bold blue" if value == "●" else "blue"
            else:
                style = "bold yellow"
            cells.append(Text(f" {value or ' '} ".ljust(self._cell_width), style=style))
        return cells

    def _help(self) -> dict[str, list[float]] | None:
        """The solver's sheet when Settings asks for it (solved in a worker; None until it answers)."""
        if not getattr(self.app, "sheet_help", False):
            return None
        if self._solver_for != len(self.table.log):
            self._solver_for = len(self.table.log)
            self._solve_sheet(self.view, self._solver_for)
        return self._solver_help

    @work(thread=True, exclusive=True, group="sheet-help", exit_on_error=False)
    def _solve_sheet(self, view: dict, length: int) -> None:
        """The exact solver on what this seat saw (the notes a person would keep), off the event loop."""
        from solvers.clue.observations import ObservationLog
        from solvers.clue.solver import solve

        obs = ObservationLog.from_view(view)
        try:
            answer = solve(obs.config or {}, obs.entries()).to_json()
        except Exception:  # help is a bonus: the sheet stands without it
            return
        if answer.get("status") != "ok" or get_current_worker().is_cancelled:
            return
        names = list(view["players"])
        probs = {card: [float(h.get(name, 0.0)) for name in names] + [float(h.get("envelope", 0.0))]
                 for card, h in answer["holders"].items()}
        self.app.call_from_thread(self._solved, length, probs)

    def _solved(self, length: int, probs: dict[str, list[float]]) -> None:
        if length == self._solver_for and self.is_mounted and getattr(self.app, "sheet_help", False):
            self._solver_help = probs
            self._render_sheet()

    def _hand_text(self) -> Text:
        from engine.clue.board import load_rules

        v = self.view
        rules = load_rules()
        t = Text()
        t.append("Your cards\n", style="bold underline")
        for card in v["hand"]:
            t.append(f"• {card}\n")
        t.append("\nWho has seen your cards\n", style="bold underline")
        seats = m.Seats.from_view(v)
        for seat, cards in m.seen_of_mine(v).items():
            t.append(f"{seats.names[seat]}: ", style="bold")
            t.append(f"{', '.join(cards)}\n" if cards else "none\n", style="" if cards else "dim")
        t.append("\nPlot cards\n", style="bold underline")
        if v["plot_hand"]:
            for card in v["plot_hand"]:
                p = rules.plot_type(card)
                t.append(f"• {p.name}", style="bold")
                t.append(f": {p.text}\n")
        else:
            t.append("none\n", style="dim")
        t.append(f"\nWhite Walkers beside the board: {v['walkers']} of 8\n")
        t.append(f"Plot deck: {words.count(v['plot_deck'], 'card')}\n")
        if v["face_up"]:
            t.append(f"Face up: {', '.join(v['face_up'])}\n")
        if v["centre_count"]:
            t.append(f"Face down in the {self.board.centre_name}: {v['centre_count']}\n")
        if v["aside_count"]:
            t.append(f"Set aside face down: {v['aside_count']}\n")
        for seat, cards in v["revealed"].items():
            t.append(f"Eliminated {m.Seats.from_view(v).name(int(seat))}: {', '.join(cards)}\n")
        return t

    def _hand_strip(self) -> Text:
        from engine.clue.board import load_rules

        v = self.view
        t = Text()
        t.append("Your cards: ", style="bold")
        t.append(", ".join(v["hand"]))
        plot = [load_rules().plot_type(c).name for c in v["plot_hand"]]
        t.append("  ·  Plot: ", style="bold")
        t.append(", ".join(plot) or "none")
        if v["face_up"]:
            t.append("  ·  Face up: ", style="bold")
            t.append(", ".join(v["face_up"]))
        return t

    def _players_text(self) -> Text:
        v = self.view
        b = self.board
        t = Text()
        for line in m.players_lines(v):
            t.append(line + "\n")
        t.append("\nTokens\n", style="bold underline")
        abbr = m.abbreviations(b.suspects)
        for s in b.suspects:
            t.append(f"{abbr[s]:<3} {s}\n", style="bold" if s in v["characters"] else "dim")
        t.append("\nWeapons\n", style="bold underline")
        wab = m.abbreviations(b.weapons)
        for w in b.weapons:
            t.append(f"{wab[w]:<3} {w}\n", style="italic")
        return t

    def _render_plan(self) -> None:
        """The Plan tab: every place's distance from your token (◆ in reach of this roll), nearest first."""
        rows = m.plan_rows(self.view, self.board)
        table = self.query_one("#plan", DataTable)
        drawn = tuple(rows)
        if drawn == self._plan_drawn:
            return
        self._plan_drawn = drawn
        keep = self._plan_node
        if not table.columns:
            name_width = 22 if self.app.size.width >= 110 else 13
            table.add_column(" ", key="mark", width=2)
            table.add_column("Place", key="place", width=name_width)
            table.add_column("Steps", key="steps", width=6)
            table.add_column("Turns", key="turns", width=6)
        table.clear()
        for row in rows:
            style = "bold" if row.mark == "◆" else ""
            table.add_row(Text(row.mark, style=style), Text(row.name, style=style),
                          Text(f"{row.steps:>5}"), Text(f"{row.turns:>5}"), key=str(row.node))
        nodes = [r.node for r in rows]
        if nodes:
            table.move_cursor(row=nodes.index(keep) if keep in nodes else 0)
        self._show_route(keep if keep in nodes else (nodes[0] if nodes else None))

    def _show_route(self, node: int | None) -> None:
        """The Plan tab's line under the table: the chosen place's route, turn by turn."""
        self._plan_node = node
        best = m.routes(self.view, self.board)
        if node is None or node not in best:
            text = "You are here." if node == m.my_node(self.view) else ""
        else:
            text = m.route_sentence(self.board, best[node], long=False)
        legend = f"◆ this roll · ⇄ passage · turns at best ({best_roll()} a roll)"
        out = Text(f"{text}\n" if text else "")
        out.append(legend, style="dim")
        self._put("#plan-route", out)

    @on(DataTable.RowHighlighted, "#plan")
    def _plan_row(self, event: DataTable.RowHighlighted) -> None:
        """The route follows the cursor; read the row under it now, not the event's (the table may
        have been redrawn since the event was posted)."""
        table = self.query_one("#plan", DataTable)
        if table.row_count:
            key = table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value
            if key is not None:
                self._show_route(int(key))

    def _available(self) -> set[str]:
        if self.view["to_act"] != self.seat:
            return set()
        return m.legal_kinds(self.view)

    def _render_actions(self) -> None:
        kinds = self._available()
        state = (frozenset(kinds), self.view["over"], self._can_undo())
        if state == self._actions_drawn:
            return
        self._actions_drawn = state
        for kind, *_ in ACTIONS:
            self.query_one(f"#act-{kind}", Button).display = kind in kinds
        undo = self.query_one("#act-undo", Button)
        undo.display = not self.view["over"]
        undo.disabled = not self._can_undo()
        self.query_one("#act-results", Button).display = self.view["over"]
        self.refresh_bindings()

    def _can_undo(self) -> bool:
        return self.table.undo_target(self.seat) is not None

    # ----------------------------------------------------------------- acting

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "act":
            return parameters[0] in self._available()
        if action == "undo":
            return not self.view["over"]
        if action == "results":
            return bool(self.view["over"])
        return True

    def action_act(self, kind: str) -> None:
        if kind in DIALOG_KINDS:
            self.open_dialog(kind)
        elif kind == "play":
            self.submit(("play", "raven"))
        else:
            self.submit((kind,))

    def action_illegal(self, kind: str) -> None:
        """The key of an action the rules do not allow now: let the engine say why."""
        v = self.view
        b = self.board
        here = v["positions"][v["characters"][self.seat]]
        probes: dict[str, tuple] = {
            "move": ("move", here), "rumor": ("rumor", b.suspects[0], b.weapons[0]),
            "accuse": ("accuse", b.suspects[0], b.weapons[0], b.locations[0]), "show": ("show", ""),
            "play": ("play", "raven"), "teleport": ("teleport", here), "peek": ("peek", self.seat),
            "look_aside": ("look_aside", -1),
        }
        custom = {"teleport": "You have no Master of Whisperers to use now.",
                  "peek": "Play a Raven first, then choose whose card to see.",
                  "look_aside": "You look at a set-aside card only when nobody could show you one."}
        reason = self._why_not(probes.get(kind, (kind,)))
        if reason is None:  # allowed after all
            self.action_act(kind)
            return
        if v["to_act"] == self.seat and kind in custom:
            reason = custom[kind]
        self.notify(reason, title="Not allowed", severity="warning", markup=False)

    def open_dialog(self, kind: str) -> None:
        from tui.clue import dialogs as d

        v, b = self.view, self.board
        if kind == "offer":
            if "draw" in self._available():
                self.app.push_screen(d.OfferDialog(v, b), self._chosen)
            return
        if kind not in self._available():
            self.action_illegal(kind)
            return
        screen: d.ClueDialog
        if kind == "move":
            screen = d.MoveDialog(v, b)
        elif kind == "rumor":
            screen = d.RumorDialog(v, b, self._holder)
        elif kind == "accuse":
            screen = d.AccuseDialog(v, b, self._candidates)
            self.app.push_screen(screen, self._accuse_chosen)
            return
        elif kind == "show":
            screen = d.ShowCardDialog(v, b)
        elif kind == "teleport":
            screen = d.TeleportDialog(v, b)
        elif kind == "peek":
            screen = d.PeekDialog(v, b)
        else:
            screen = d.AsideDialog(v, b)
        self.app.push_screen(screen, self._chosen)

    def _chosen(self, action: Any) -> None:
        if action:
            self.submit(tuple(action))

    def _accuse_chosen(self, action: Any) -> None:
        from tui.clue.dialogs import accuse_question
        from tui.widgets.confirm import ConfirmDialog

        if not action:
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.submit(tuple(action))

        self.app.push_screen(ConfirmDialog(accuse_question(action), yes="Accuse", title="Accuse?"), confirmed)

    def action_results(self) -> None:
        from tui.clue.end import EndScreen

        if not self.table.is_over():
            return
        hands = [self.table.view(s)["hand"] for s in range(len(self.view["players"]))]  # public once it is over
        self.app.push_screen(EndScreen(self.view, hands))

    def action_tab(self, index: int) -> None:
        """Show a side tab and focus it, so the arrow keys scroll it (and Enter marks the sheet)."""
        self.query_one("#side", TabbedContent).active = TABS[index]
        target = {"tab-log": "#log", "tab-sheet": "#sheet", "tab-plan": "#plan"}.get(TABS[index])
        if target:
            self.query_one(target).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if bid == "act-undo":
            self.action_undo()
        elif bid == "act-results":
            self.action_results()
        elif bid.startswith("act-"):
            self._act_or_say_why(bid.removeprefix("act-"))

    def on_location_cell_clicked(self, event: LocationCell.Clicked) -> None:
        """Click a place: go there; out of reach this roll, walk toward it."""
        v = self.view
        node = event.node
        if v["to_act"] == self.seat and v["phase"] == "move":
            target = m.walk_target(v, self.board, node)
            if target is None:
                self.notify("You cannot move from here with this roll.", severity="warning")
                return
            if target != node:
                self.notify(f"{self.board.short[node]} is out of reach this roll: you walk toward it, "
                            f"to {m.node_label(self.board, target)}.", title="Move")
            self.submit(("move", target))
        elif v["to_act"] == self.seat and v["phase"] == "teleport":
            self.submit(("teleport", node))
        else:
            if v["to_act"] == self.seat and v["phase"] == "start":  # say why first: "Roll the dice …"
                reason = self._why_not(("move", node))
                if reason:
                    self.notify(reason, title="Not allowed", severity="warning", markup=False)
            self._tell_route(node)

    def _tell_route(self, node: int) -> None:
        """A tap on a place when you cannot move: how far it is, and the way there (also on the Plan tab)."""
        best = m.routes(self.view, self.board)
        if node not in best:
            self.notify(f"You are in {self.board.short[node]}.", title="Plan")
            return
        table = self.query_one("#plan", DataTable)
        if str(node) in table.rows:
            table.move_cursor(row=table.get_row_index(str(node)))
        self._show_route(node)
        self.notify(m.route_sentence(self.board, best[node]), title="Plan", markup=False)

    def sheet_mode_changed(self) -> None:
        """Called by the app when the sheet setting changes: redraw the sheet in the new mode."""
        if not getattr(self.app, "sheet_help", False):
            self._solver_help, self._solver_for = None, -1
        if self.is_mounted and self._sheet_ready:
            self._render_sheet()

    def on_sheet_table_mark_requested(self, event: SheetTable.MarkRequested) -> None:
        rows = m.sheet_rows(self.view, self.board, self._holder, self._candidates, self.marks, self._lacks,
                            self._solver_help if getattr(self.app, "sheet_help", False) else None)
        if not 0 <= event.row < len(rows):
            return
        row = rows[event.row]
        col = event.column - 1
        if row.known[col]:
            why = "known from what you saw" if row.source[col] == "seen" else "certain by the solver's help"
            self.notify(f"{row.card}: {why}.", title="Detective sheet")
            return
        key = f"{row.card}|{col}"
        mark = m.next_mark(self.marks.get(key, "")) if event.mark is None else event.mark
        if mark:
            self.marks[key] = mark
        else:
            self.marks.pop(key, None)
        self._render_sheet()
        self._save()

    # ----------------------------------------------------------------- saving

    def _session_to_save(self) -> Any:
        """The table's session with this seat's sheet marks, which only the screen knows."""
        session = self.table.to_session()
        session.extra["clue_marks"] = dict(self.marks)
        return session
