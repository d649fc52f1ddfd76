"""The lobby of a served app: the shared tables, a seat to take, a new table to set up.

Every action is a button (a tablet tap is a click). A seat belongs to the first user who takes
it; the same SSH user name takes it back after a disconnect (its button says "Return").
"""

from __future__ import annotations

import json
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Select, Static

from tui.serve.remote import RemoteError, RemotePlayScreen, RemoteTable, ServiceClient
from tui.widgets.choices import Btn

BOARDS = (("The Red Keep", "red-keep"), ("Meereen", "meereen"))
DEFAULT_BOT = "notes"


def seat_label(i: int, seat: dict, user: str) -> str:
    if seat["kind"] != "human":
        return f"{i + 1}: bot ({seat['kind']})"
    owner = seat.get("owner")
    if owner is None:
        return f"{i + 1}: open"
    here = " (online)" if seat.get("online") else ""
    return f"{i + 1}: {owner}{here}"


def table_names(creator: str, seats: list[str]) -> tuple[str, ...]:
    """Names at a shared table: the creator's user name, then "Player n" and "Bot n" (nobody is "You")."""
    names = []
    for i, kind in enumerate(seats):
        name = creator if i == 0 and creator else f"{'Player' if kind == 'human' else 'Bot'} {i + 1}"
        names.append(name[:20])
    return tuple(names)


class LobbyScreen(Screen):
    """Tables on this server: sit at an open seat (or your own), or create a table."""

    HELP_TITLE = "Lobby"
    BINDINGS = [
        Binding("n", "create", "New table", id="lobby-new"),
        Binding("f5", "refresh", "Refresh", id="lobby-refresh"),
        Binding("escape", "app.pop_screen", "Home", id="lobby-home"),
    ]
    DEFAULT_CSS = """
    LobbyScreen { padding: 0 1; }
    #lobby-title { text-style: bold; margin-bottom: 1; }
    #lobby-tables { height: 1fr; }
    .lobby-table { height: auto; margin-bottom: 1; }
    .lobby-seats { height: auto; }
    .lobby-seats Button { margin-right: 1; min-width: 10; }
    #lobby-new { height: auto; dock: bottom; margin-bottom: 1; }
    #lobby-new Select { width: 22; }
    """

    def __init__(self, socket_path: Path | str, user: str) -> None:
        super().__init__()
        self.socket_path = socket_path
        self.user = user
        self.client: ServiceClient | None = None
        self._shown: str | None = None
        self._seat_buttons: dict[str, tuple[str, int]] = {}

    def compose(self) -> ComposeResult:
        yield Static(f"Shared tables — you are {self.user or '?'}", id="lobby-title")
        yield VerticalScroll(id="lobby-tables")
        with Horizontal(id="lobby-new"):
            yield Select(BOARDS, value="red-keep", allow_blank=False, id="lobby-board")
            yield Select([(f"{n} players", n) for n in range(2, 7)], value=4, allow_blank=False, id="lobby-players")
            yield Select([(f"{n} human{'s' if n > 1 else ''}", n) for n in range(1, 7)], value=2,
                         allow_blank=False, id="lobby-humans")
            yield Btn("Create table", id="lobby-create", variant="primary")
            yield Btn("Refresh", id="lobby-refresh-btn")
        yield Footer()

    def on_mount(self) -> None:
        self.action_refresh()
        self.set_interval(2.0, self.action_refresh)

    def on_unmount(self) -> None:
        if self.client is not None:
            self.client.close()

    def _client(self) -> ServiceClient:
        if self.client is None or self.client.closed:
            self.client = ServiceClient(self.socket_path)
        return self.client

    def action_refresh(self) -> None:
        try:
            tables = self._client().request({"op": "list"})["tables"]
        except RemoteError as e:
            self._show_message(str(e))
            return
        key = json.dumps(tables, sort_keys=True)
        if key == self._shown:
            return
        self._shown = key
        box = self.query_one("#lobby-tables", VerticalScroll)
        box.remove_children()
        self._seat_buttons = {}
        if not tables:
            box.mount(Static("No tables yet: create one below.", classes="lobby-table"))
            return
        n = 0
        for t in tables:
            cfg = t["config"]
            state = "over" if t["over"] else "playing"
            seats = ", ".join(seat_label(i, s, self.user) for i, s in enumerate(t["seats"]))
            buttons = []
            for i, s in enumerate(t["seats"]):
                if s["kind"] != "human" or t["over"] or s.get("owner") not in (None, self.user):
                    continue
                bid = f"sit-{n}"
                n += 1
                self._seat_buttons[bid] = (t["table"], i)
                label = f"Return to seat {i + 1}" if s.get("owner") == self.user else f"Sit at seat {i + 1}"
                buttons.append(Btn(label, id=bid))
            box.mount(Vertical(Static(f"Table {t['table']} · {cfg.get('board')} · {state} · seats {seats}"),
                               Horizontal(*buttons, classes="lobby-seats"), classes="lobby-table"))

    def _show_message(self, text: str) -> None:
        box = self.query_one("#lobby-tables", VerticalScroll)
        box.remove_children()
        self._shown = None
        box.mount(Static(text, classes="lobby-table"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if bid == "lobby-create":
            self.action_create()
        elif bid == "lobby-refresh-btn":
            self._shown = None
            self.action_refresh()
        elif bid in self._seat_buttons:
            self.sit(*self._seat_buttons[bid])

    def action_create(self) -> None:
        from engine.clue import ClueConfig

        board = self.query_one("#lobby-board", Select).value
        players = int(self.query_one("#lobby-players", Select).value)  # type: ignore[arg-type]
        humans = min(players, int(self.query_one("#lobby-humans", Select).value))  # type: ignore[arg-type]
        try:
            seats = ["human"] * humans + [DEFAULT_BOT] * (players - humans)
            names = table_names(self.user, seats)
            config = ClueConfig(board=str(board), players=players, names=names).to_json()
            tid = self._client().request({"op": "create", "game": "clue", "config": config, "seats": seats})["table"]
        except (ValueError, RemoteError) as e:
            self.notify(str(e), title="New table", severity="warning")
            return
        self.sit(tid, 0)

    def sit(self, table_id: str, seat: int) -> None:
        try:
            table = RemoteTable(self.socket_path, table_id, seat, self.user)
        except RemoteError as e:
            self.notify(str(e), title="Cannot sit there", severity="warning")
            self._shown = None
            return
        self._shown = None
        self.app.push_screen(RemotePlayScreen(table))
