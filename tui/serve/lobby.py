"""The lobby of a served app: the shared tables, a seat to take, a new table to set up, your own space.

Every action is a button (a tablet tap is a click). A new table can be of any game with a play
screen, with that game's player range and options; the seats nobody takes get the game's
sensible bot. A seat belongs to the first user who takes it; the same login takes it back
after a disconnect (its button says "Return"). The creator of a table can end it.

The lobby is the served app's root screen. Its top row is the user's own space on this server
(``tui.storage.user_space``): games against bots, "My games" (their saved games and table
notes, nobody else's) and "Assist a table" (new table notes).
"""

from __future__ import annotations

import json
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Footer, Select, Static

from tui.serve.remote import RemoteError, RemoteTable, ServiceClient, remote_play_screen
from tui.widgets.choices import Btn
from tui.widgets.confirm import ConfirmDialog

DEFAULT_GAME = "clue"
DEFAULT_HUMANS = 2
# Options the create form offers per game, beyond Home's FLAGS: (key, label, default).
EXTRA_FLAGS: dict[str, list[tuple[str, str, bool]]] = {
    "mascarade": [("opening", "Opening: every mask seen face up", True)],
}
SHORT_FLAG = {"centre_pile": "centre pile", "harder": "harder", "mask": "mask variant",
              "support": "support variant", "opening": "opening seen"}


def game_flags(game: str) -> list[tuple[str, str, bool]]:
    """The on/off options of ``game`` in the create form: (key, label, default)."""
    from tui.screens.home import FLAGS

    return [(k, label, False) for k, label in FLAGS.get(game, [])] + EXTRA_FLAGS.get(game, [])


def short_title(game: str) -> str:
    """A game's name short enough for a button ("Tokyo Ghoul", "Masque")."""
    from engine.registry import GAMES

    return {"masque": "Masque", "ghoul": "Tokyo Ghoul"}.get(game, GAMES.get(game, game).split(":")[0])


def default_bot(game: str) -> str:
    """The bot that fills the seats nobody takes: the game's sensible one, not the random one."""
    from solvers.bots import bot_names

    kinds = bot_names(game)
    return next((k for k in ("notes", "honest", "heuristic") if k in kinds), kinds[0])


def options_text(game: str, config: dict) -> str:
    """A table's game and key options for the table list ("Clue: Game of Thrones, The Red Keep")."""
    from engine.registry import GAMES

    parts = [GAMES.get(game, game)]
    if game == "clue":
        from engine.clue.board import BOARDS, load_board

        board = config.get("board")
        parts.append(load_board(board).name if board in BOARDS else str(board))
    for key, _label, default in game_flags(game):
        value = bool(config.get(key, default))
        if value != default or key == "opening":
            parts.append(SHORT_FLAG.get(key, key) if value else f"no {SHORT_FLAG.get(key, key)}")
    return ", ".join(parts)


class GamePick(ModalScreen[str | None]):
    """Which game: one button per game (those with an assistant, for "Assist a table")."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="pick-cancel")]
    DEFAULT_CSS = """
    GamePick { align: center middle; }
    GamePick > Vertical { width: auto; height: auto; max-height: 100%; padding: 0 2; border: round $primary;
                          background: $surface; }
    GamePick Button { width: 30; }
    """

    def __init__(self, title: str, games: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.games = games

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="dialog-title")
            for gid, title in self.games:
                yield Btn(title.split(":")[0] if len(title) > 28 else title, id=f"pick-{gid}")
            yield Btn("Cancel", id="pick-cancel-btn", variant="error")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        bid = event.button.id or ""
        self.dismiss(bid.removeprefix("pick-") if bid.startswith("pick-") and bid != "pick-cancel-btn" else None)


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
    """Tables on this server: sit at an open seat (or your own), or create a table of any game."""

    HELP_TITLE = "Lobby"
    BINDINGS = [
        Binding("n", "create", "New table", id="lobby-new"),
        Binding("p", "solo", "Play vs bots", id="lobby-solo"),
        Binding("m", "app.resume", "My games", id="lobby-mine"),
        Binding("a", "assist", "Assist a table", id="lobby-assist"),
        Binding("f5", "refresh", "Refresh", show=False, id="lobby-refresh"),  # it refreshes every 2 s anyway
    ]
    DEFAULT_CSS = """
    LobbyScreen { padding: 0 1; }
    #lobby-top { height: auto; }
    #lobby-top Button { margin-left: 1; }
    #lobby-title { text-style: bold; width: 1fr; padding-top: 1; }
    .lobby-end { min-width: 10; }
    #lobby-tables { height: 1fr; }
    .lobby-table { height: auto; margin-bottom: 1; }
    .lobby-seats { height: auto; }
    .lobby-seats Button { margin-right: 1; min-width: 10; }
    #lobby-new { height: auto; dock: bottom; margin-bottom: 1; }
    #lobby-new Horizontal { height: auto; }
    #lobby-new Button { margin-right: 1; }
    #lobby-games Button { min-width: 11; }
    #lobby-new Select { width: 20; margin-right: 1; }
    #lobby-counts Select { width: 17; }
    #lobby-counts Button { min-width: 10; }
    #lobby-new Checkbox { margin-right: 1; }
    #lobby-counts .lobby-scroll { min-width: 5; width: 5; }
    """

    def __init__(self, socket_path: Path | str, user: str, *, waiting: bool = False) -> None:
        super().__init__()
        self.socket_path = socket_path
        self.user = user
        self.waiting = waiting  # drawn in a pooled app for nobody yet: no tables asked for until bind_user
        self.client: ServiceClient | None = None
        self._shown: str | None = None
        self._seat_buttons: dict[str, tuple[str, int]] = {}
        self._end_buttons: dict[str, str] = {}
        self.game = DEFAULT_GAME

    def compose(self) -> ComposeResult:
        from engine.clue.board import BOARDS, load_board
        from tui.screens.home import GAMES, PLAYERS

        # Text (or markup=False) here and below: user names are drawn as text, never read as markup (issue 14).
        with Horizontal(id="lobby-top"):
            yield Static(Text(f"Shared tables — you are {self.user or '?'}"), id="lobby-title")
            yield Btn("Play vs bots", id="lobby-solo-btn", tooltip="A game of your own against bots")
            yield Btn("My games", id="lobby-mine-btn", tooltip="Your saved games and table notes")
            yield Btn("Assist a table", id="lobby-assist-btn", tooltip="Keep the notes of a real table")
        yield VerticalScroll(id="lobby-tables")
        _lo, hi, default = PLAYERS.get(self.game, (2, 6, 4))
        with Vertical(id="lobby-new"):
            with Horizontal(id="lobby-games"):
                for gid, _title in GAMES:
                    yield Btn(short_title(gid), id=f"lobby-game-{gid}",
                              variant="primary" if gid == self.game else "default")
            with Horizontal(id="lobby-options"):
                yield Select([(load_board(b).name, b) for b in BOARDS], value="red-keep", allow_blank=False,
                             id="lobby-board", classes="lobby-opt lobby-opt-clue")
                for gid, _title in GAMES:
                    for key, label, value in game_flags(gid):
                        yield Checkbox(label, value, id=f"lobby-flag-{gid}-{key}", classes=f"lobby-opt lobby-opt-{gid}")
            with Horizontal(id="lobby-counts"):
                yield Select(self._player_options(), value=default, allow_blank=False, id="lobby-players")
                yield Select([(f"{n} human{'s' if n > 1 else ''}", n) for n in range(1, hi + 1)],
                             value=DEFAULT_HUMANS, allow_blank=False, id="lobby-humans")
                yield Btn("Create table", id="lobby-create", variant="primary")
                yield Btn("Refresh", id="lobby-refresh-btn")
                yield Btn("▲", id="lobby-up", classes="lobby-scroll", tooltip="Scroll the tables up")
                yield Btn("▼", id="lobby-down", classes="lobby-scroll", tooltip="Scroll the tables down")
        yield Footer()

    def _player_options(self) -> list[tuple[str, int]]:
        from tui.screens.home import PLAYERS

        lo, hi, _default = PLAYERS.get(self.game, (2, 6, 4))
        return [(f"{n} players", n) for n in range(lo, hi + 1)]

    def choose_game(self, game: str) -> None:
        """Show the create form for ``game``: its player range, its options; the other games' hidden."""
        from tui.screens.home import GAMES, PLAYERS

        if game not in dict(GAMES):
            return
        self.game = game
        for gid, _title in GAMES:
            self.query_one(f"#lobby-game-{gid}", Button).variant = "primary" if gid == game else "default"
        for widget in self.query(".lobby-opt"):
            widget.display = widget.has_class(f"lobby-opt-{game}")
        _lo, hi, default = PLAYERS.get(game, (2, 6, 4))
        players = self.query_one("#lobby-players", Select)
        players.set_options(self._player_options())
        players.value = default
        humans = self.query_one("#lobby-humans", Select)
        keep = humans.value if isinstance(humans.value, int) else DEFAULT_HUMANS
        humans.set_options([(f"{n} human{'s' if n > 1 else ''}", n) for n in range(1, hi + 1)])
        humans.value = min(keep, hi)

    def on_mount(self) -> None:
        for widget in self.query(".lobby-opt"):
            widget.display = widget.has_class(f"lobby-opt-{self.game}")
        if self.waiting:
            self.call_after_refresh(getattr(self.app, "pool_ready", lambda: None))
            return
        self.action_refresh()
        self.set_interval(2.0, self.action_refresh)

    def bind_user(self, user: str) -> None:
        """A pooled app has been given its user: their name, their tables, from now on."""
        if not self.waiting:
            return
        self.waiting = False
        self.user = user
        self.query_one("#lobby-title", Static).update(Text(f"Shared tables — you are {self.user or '?'}"))
        self._shown = None
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
        self._end_buttons = {}
        if not tables:
            box.mount(Static("No tables yet: create one below.", classes="lobby-table"))
            return
        n = 0
        for t in tables:
            cfg = t["config"]
            if t.get("ended_by"):
                state = f"ended by {t['ended_by']}"
            else:
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
            if t.get("creator") == self.user and not t.get("ended_by") and not t["over"]:
                bid = f"end-{n}"
                n += 1
                self._end_buttons[bid] = t["table"]
                buttons.append(Btn("End table", id=bid, variant="error", classes="lobby-end",
                                   tooltip="End this table for everyone (it stays in the list for a while)"))
            game = t.get("game", "clue")
            line = Text(f"Table {t['table']} · {options_text(game, cfg)} · {state} · seats {seats}")
            box.mount(Vertical(Static(line), Horizontal(*buttons, classes="lobby-seats"), classes="lobby-table"))

    def _show_message(self, text: str) -> None:
        box = self.query_one("#lobby-tables", VerticalScroll)
        box.remove_children()
        self._shown = None
        box.mount(Static(text, classes="lobby-table", markup=False))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if bid == "lobby-create":
            self.action_create()
        elif bid.startswith("lobby-game-"):
            self.choose_game(bid.removeprefix("lobby-game-"))
        elif bid in ("lobby-up", "lobby-down"):
            box = self.query_one("#lobby-tables", VerticalScroll)
            box.scroll_page_up() if bid == "lobby-up" else box.scroll_page_down()
        elif bid == "lobby-refresh-btn":
            self._shown = None
            self.action_refresh()
        elif bid in self._seat_buttons:
            self.sit(*self._seat_buttons[bid])
        elif bid in self._end_buttons:
            self.ask_end(self._end_buttons[bid])
        elif bid == "lobby-solo-btn":
            self.action_solo()
        elif bid == "lobby-mine-btn":
            self.app.action_resume()  # type: ignore[attr-defined]
        elif bid == "lobby-assist-btn":
            self.action_assist()

    # ------------------------------------------------------------- your own space

    def action_solo(self) -> None:
        """A game of your own against bots (saved in your space): which game first."""
        from tui.screens.home import GAMES

        def chosen(game: str | None) -> None:
            if game:
                self.app.action_new_game(game)  # type: ignore[attr-defined]

        self.app.push_screen(GamePick("Play vs bots: which game?", list(GAMES)), chosen)

    def action_assist(self) -> None:
        """Notes of a real table (saved in your space): which game first."""
        from tui.screens.home import GAMES, _built

        games = [(g, title) for g, title in GAMES if _built(f"tui.{g}.assist")]

        def chosen(game: str | None) -> None:
            if game:
                self.app.action_assist(game)  # type: ignore[attr-defined]

        self.app.push_screen(GamePick("Assist a table: which game?", games), chosen)

    # ------------------------------------------------------------- ending a table

    def ask_end(self, table_id: str) -> None:
        def done(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self._client().request({"op": "end", "table": table_id, "user": self.user})
            except RemoteError as e:
                self.notify(str(e), title="End table", severity="warning", markup=False)
                return
            self._shown = None
            self.action_refresh()

        self.app.push_screen(ConfirmDialog(f"End table {table_id} for everyone at it? Nobody can play on there.",
                                           yes="End table", title="End table"), done)

    def action_create(self) -> None:
        """Make a table of the chosen game with the form's options and sit at its seat 1."""
        from tui.screens.home import PLAYERS

        game = self.game
        lo, hi, _default = PLAYERS.get(game, (2, 6, 4))
        players = self.query_one("#lobby-players", Select).value
        humans = self.query_one("#lobby-humans", Select).value
        if not isinstance(players, int) or not lo <= players <= hi or not isinstance(humans, int):
            self.notify(f"Choose {lo} to {hi} players and how many are people.", title="New table",
                        severity="warning")
            return
        humans = max(1, min(players, humans))
        seats = ["human"] * humans + [default_bot(game)] * (players - humans)
        options: dict = {"players": players, "names": list(table_names(self.user, seats))}
        if game == "clue":
            options["board"] = str(self.query_one("#lobby-board", Select).value)
        for key, _label, _default in game_flags(game):
            options[key] = self.query_one(f"#lobby-flag-{game}-{key}", Checkbox).value
        try:
            tid = self._client().request({"op": "create", "game": game, "config": options, "seats": seats,
                                          "user": self.user})["table"]
        except RemoteError as e:
            self.notify(str(e), title="New table", severity="warning", markup=False)
            return
        self.sit(tid, 0)

    def sit(self, table_id: str, seat: int) -> None:
        try:
            table = RemoteTable(self.socket_path, table_id, seat, self.user)
        except RemoteError as e:
            self.notify(str(e), title="Cannot sit there", severity="warning", markup=False)
            self._shown = None
            return
        self._shown = None
        try:
            screen = remote_play_screen(table)
        except ValueError as e:  # a game this app cannot show
            table.close()
            self.notify(str(e), title="Cannot sit there", severity="warning", markup=False)
            return
        self.app.push_screen(screen)
