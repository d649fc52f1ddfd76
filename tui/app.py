"""The unmask Textual app: home, rules, resume, settings, and the Clue play screen.

``run_app`` is what the CLI calls. The app either opens on a screen by name
(``start="home" | "resume" | "rules:clue"``) or, given a :class:`solvers.table.Table`, goes
straight to that game for ``human_seat`` and autosaves it after every action.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider

from tui.env import env_seconds
from tui.keygate import KeyGate

if TYPE_CHECKING:
    from solvers.table import Table

READABLE_DELAY = 0.6
THEMES = ("textual-dark", "textual-light", "nord", "gruvbox", "tokyo-night", "solarized-light")


def _never_a_negative_timer() -> None:
    """Guard against a Textual 8.2.8 freeze found by the robot soak: a toast made a moment after its
    notification ran out gets a negative timer (``Toast`` takes ``time_left`` when it is built), and
    a negative interval makes ``Timer._run`` loop forever without yielding (the app hangs at 100% CPU).
    A timer's interval is at least a millisecond here."""
    from textual import timer

    if getattr(timer.Timer.__init__, "_unmask_guard", False):
        return
    original = timer.Timer.__init__

    def init(self: Any, event_target: Any, interval: float, *args: Any, **kwargs: Any) -> None:
        original(self, event_target, max(0.001, interval), *args, **kwargs)

    init._unmask_guard = True  # type: ignore[attr-defined]
    timer.Timer.__init__ = init  # type: ignore[method-assign]


_never_a_negative_timer()


def default_bot_delay() -> float:
    """Seconds between two bot actions: ``UNMASK_BOT_DELAY`` or a pace a person can follow."""
    return env_seconds("UNMASK_BOT_DELAY", READABLE_DELAY)


class UnmaskCommands(Provider):
    """Command palette entries for the whole app (ctrl+p)."""

    def _commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        app = self.app
        assert isinstance(app, UnmaskApp)
        speed = "readable" if app.bot_delay == 0 else "instant"
        from tui.screens.home import GAMES, _built

        games: list[tuple[str, str, Callable[[], Any]]] = []
        for gid, title in GAMES:  # only what is built, like the home screen
            games.append((f"New game: {title} vs bots", f"Set up a game of {title} against bots",
                          partial(app.action_new_game, gid)))
            if _built(f"tui.{gid}.assist"):
                games.append((f"Assist a table game: {title}", f"Keep the notes of a real {title} table",
                              partial(app.action_assist, gid)))
            games.append((f"Rules: {title}", "The rulebook and our assumptions", partial(app.action_rules, gid)))
        return [
            *games,
            ("Resume a saved game", "List the saved sessions", app.action_resume),
            ("Help: keys of this screen", "Every key binding of the current screen", app.action_help),
            (f"Bot speed: make it {speed}", "Toggle between instant and readable bot moves",
             app.action_toggle_bot_speed),
            ("Theme: next", "Switch to the next colour theme", app.action_next_theme),
            ("Settings", "Bot speed and theme", app.action_settings),
            ("Home", "Back to the home screen", app.action_home),
        ]

    async def discover(self) -> Hits:
        for name, help_text, callback in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)


class UnmaskApp(KeyGate):
    """Play hidden-information board games against bots."""

    TITLE = "unmask"
    CSS_PATH = "app.tcss"
    COMMANDS = App.COMMANDS | {UnmaskCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        Binding("f2", "settings", "Settings", show=False, id="settings"),
        Binding("ctrl+t", "next_theme", "Next theme", show=False, id="theme"),
        Binding("ctrl+b", "toggle_bot_speed", "Bot speed", show=False, id="bot-speed"),
    ]

    def __init__(self, *, table: Table | None = None, session_id: str | None = None, human_seat: int = 0,
                 bot_delay: float | None = None, start: str = "home", session: Any = None,
                 replay: Any = None, replay_seat: int = 0, replay_path: Any = None) -> None:
        super().__init__()
        self._session = session  # an assist session to reopen (start="assist:GAME")
        self._replay = replay  # a finished game to replay at start (unmask replay FILE), with the seat to watch
        self._replay_seat = replay_seat
        self._replay_path = replay_path
        self.bot_delay = default_bot_delay() if bot_delay is None else max(0.0, bot_delay)
        self.last_setup: dict[str, dict[str, Any]] = {}  # per game: the options and seats last played (New game)
        self.sheet_help = False  # the Clue play sheet: what you saw and your marks; Settings adds the solver's facts
        self._table = table
        self._session_id = session_id
        self._human_seat = human_seat
        self._start = start

    async def _check_bindings(self, key: str, priority: bool = False) -> bool:
        """Tab and Shift+Tab move the focus as soon as they arrive.

        Otherwise the focused widget handles them in its turn, and the keys typed right after a Tab
        (a quick typist, a laggy SSH link) would go to the field being left: "Ann", Tab, "Bob" became
        "AnnBob". Only when the binding in force for the key is the plain focus move (a widget with a
        Tab of its own keeps it), and without a priority binding, so the footer is unchanged.
        """
        moves = {"tab": "focus_next", "shift+tab": "focus_previous"}
        if priority and key in moves:
            active = self.screen.active_bindings.get(key)
            action = active.binding.action.removeprefix("app.") if active else moves[key]
            if action == moves[key]:
                getattr(self.screen, action)()
                return True
        return await super()._check_bindings(key, priority)

    # ----------------------------------------------------------------- start-up

    def root_screen(self) -> Any:
        """The screen at the bottom of the stack, where Home leads: the home screen here."""
        from tui.screens.home import HomeScreen

        return HomeScreen()

    def on_mount(self) -> None:
        self.push_screen(self.root_screen())
        if self._table is not None:
            self.open_table(self._table, self._session_id, self._human_seat)
        elif self._replay is not None:
            self.open_replay(self._replay, self._replay_seat, self._replay_path)
        elif self._start == "resume":
            self.action_resume()
        elif self._start.startswith("assist"):
            self.open_assist(self._session_id, session=self._session, game=self._start.partition(":")[2] or "clue")
        elif self._start.startswith("rules"):
            self.action_rules(self._start.partition(":")[2] or "clue")

    def open_table(self, table: Table, session_id: str | None, human_seat: int, marks: dict | None = None) -> None:
        """Open the play screen for ``table``; it autosaves to ``session_id`` (a new one if None)."""
        import importlib

        from tui.storage import new_session_id

        self.last_setup[table.game] = {"options": table.config.to_json(), "seats": list(table.seats)}
        new = session_id is None
        if session_id is None:
            session_id = new_session_id(table.game)
        cls = importlib.import_module(f"tui.{table.game}.play").PlayScreen
        extra = {"marks": marks} if marks is not None else {}
        screen = cls(table, human_seat, session_id, **extra)
        if new:
            # Saved before the first move, so "Resume" / "My games" list a game the moment it starts.
            screen._save()
        self.push_screen(screen)

    def open_assist(self, session_id: str | None = None, session: Any = None, game: str = "clue") -> None:
        """Open a game's table assistant: a new table, or a saved one."""
        import importlib

        if session is not None:
            game = session.game
        screen = importlib.import_module(f"tui.{game}.assist").AssistScreen
        self.push_screen(screen(session_id=session_id, session=session))

    def open_replay(self, replay: Any, seat: int = 0, path: Any = None) -> None:
        """Open the replay of a finished game (an ``engine.replay.Replay``), through ``seat``'s eyes;
        its belief series are kept in the session file at ``path`` (None: not kept)."""
        from tui.screens.replay import ReplayScreen

        self.push_screen(ReplayScreen(replay, seat, path))

    # ----------------------------------------------------------------- navigation

    def action_home(self) -> None:
        """Pop back to the home screen."""
        from tui.screens.home import HomeScreen

        while len(self.screen_stack) > 2 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()
        if not isinstance(self.screen, HomeScreen):
            self.switch_screen(HomeScreen())

    def action_new_game(self, game: str = "clue") -> None:
        from tui.screens.home import SetupScreen

        self.action_home()
        self.push_screen(SetupScreen(game))

    def action_assist(self, game: str = "clue") -> None:
        self.action_home()
        self.open_assist(game=game)

    def action_resume(self) -> None:
        from tui.screens.resume import ResumeScreen

        self.action_home()
        self.push_screen(ResumeScreen())

    def action_rules(self, game: str = "clue") -> None:
        from tui.screens.rules import RulesScreen

        self.push_screen(RulesScreen(game))

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.screen))

    def action_settings(self) -> None:
        from tui.screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen())

    # ----------------------------------------------------------------- settings

    def action_toggle_bot_speed(self) -> None:
        self.set_bot_delay(READABLE_DELAY if self.bot_delay == 0 else 0.0)

    def set_bot_delay(self, delay: float) -> None:
        self.bot_delay = delay
        self.notify("Bots now move instantly." if delay == 0 else f"Bots now move every {delay:g} s.",
                    title="Bot speed")
        for screen in self.screen_stack:
            hook = getattr(screen, "bot_delay_changed", None)
            if hook:
                hook()

    def set_sheet_help(self, on: bool) -> None:
        """The Clue play sheet with or without the solver's certain facts (off: a game is still a game)."""
        self.sheet_help = on
        self.notify("The detective sheet shows the solver's certain facts (in blue)." if on
                    else "The detective sheet holds what you saw and your own marks.", title="Detective sheet")
        for screen in self.screen_stack:
            hook = getattr(screen, "sheet_mode_changed", None)
            if hook:
                hook()

    def action_next_theme(self) -> None:
        names = list(THEMES)
        i = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(i + 1) % len(names)]
        self.notify(f"Theme: {self.theme}", title="Theme")


def run_app(**kw: Any) -> None:
    """Run the app full screen (the CLI's entry point); ``kw`` goes to :class:`UnmaskApp`."""
    UnmaskApp(**kw).run()
