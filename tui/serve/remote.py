"""A seat at a shared table, seen from one app process: :class:`RemoteTable` and its play screens.

:class:`RemoteTable` has the interface the play screens use from :class:`solvers.table.Table`,
but the table lives in the server's table service (``tui.serve.tables``): views are pushed to us
after every change and kept here; ``submit`` asks the service and waits for the answer (loopback,
milliseconds). Bots run in the service, so ``waiting_for_bot`` is always False here and
``step_bot`` does nothing. Undo is refused politely: other people are at the table.

:func:`remote_play_screen` gives the play screen of any game with one (``tui/<game>/play.py``):
that game's own ``PlayScreen`` with :class:`RemotePlayMixin` in front.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
import json
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.screen import Screen

from engine.core import IllegalAction
from engine.registry import get_game
from tui.clue.play import PlayScreen

TIMEOUT = 10.0
DOWN_MESSAGE = "The table service is not reachable: nothing was sent. Your seat is kept; reconnecting…"


class RemoteError(Exception):
    """The table service said no, or cannot be reached (the message is one line)."""


class ServiceClient:
    """A JSON-lines connection to the table service with request/answer and pushed messages."""

    def __init__(self, path: Path | str, on_push: Callable[[dict], None] | None = None,
                 on_lost: Callable[[], None] | None = None) -> None:
        self.on_lost = on_lost  # called (on the reader thread) when the service goes away, not after close()
        self._closing = False
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.settimeout(TIMEOUT)
            self.sock.connect(str(path))
            self.sock.settimeout(None)
        except OSError as e:
            self.sock.close()
            raise RemoteError(f"The table service is not reachable ({e.__class__.__name__}).") from None
        self.on_push = on_push
        self._ids = itertools.count(1)
        self._waiting: dict[int, tuple[threading.Event, list]] = {}
        self._lock = threading.Lock()
        self.closed = False
        self._thread = threading.Thread(target=self._read, name="unmask-table-client", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        buf = b""
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    break
                buf += data
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    try:
                        msg = json.loads(line)
                    except ValueError:
                        continue
                    self._dispatch(msg)
        except OSError:
            pass
        self.closed = True
        with self._lock:
            for event, box in self._waiting.values():
                box.append({"op": "error", "message": "The table service went away."})
                event.set()
        if self.on_lost is not None and not self._closing:
            self.on_lost()

    def _dispatch(self, msg: dict) -> None:
        rid = msg.get("id")
        if rid is not None:
            with self._lock:
                waiter = self._waiting.pop(rid, None)
            if waiter is not None:
                waiter[1].append(msg)
                waiter[0].set()
                return
        if self.on_push is not None:
            self.on_push(msg)

    def request(self, msg: dict, timeout: float = TIMEOUT) -> dict:
        """Send ``msg`` and wait for its answer; RemoteError for an error answer (with its sentence)."""
        if self.closed:
            raise RemoteError("The table service went away.")
        rid = next(self._ids)
        event, box = threading.Event(), []
        with self._lock:
            self._waiting[rid] = (event, box)
        try:
            self.sock.sendall((json.dumps({**msg, "id": rid}) + "\n").encode())
        except OSError:
            raise RemoteError("The table service went away.") from None
        if not event.wait(timeout):
            with self._lock:
                self._waiting.pop(rid, None)
            raise RemoteError("The table service did not answer.")
        answer = box[0]
        if answer.get("op") == "error":
            if answer.get("illegal"):
                raise IllegalAction(answer.get("message", "Not allowed."))
            raise RemoteError(answer.get("message", "The table service said no."))
        return answer

    def close(self) -> None:
        self._closing = True
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


class ServiceDown(IllegalAction):
    """An action that could not reach the table service: nothing changed; the screen says so."""


UNDO_REFUSED = "Undo is not possible at a shared table: other people are playing too."


class RemoteTable:
    """Our seat at a table held by the table service (same interface as ``Table`` for the play screen).

    When the service goes away (it stopped, or its server restarts) ``connected`` turns False,
    the listeners are told, and a thread tries to join the same seat again every ``retry``
    seconds; once the service answers, its first push redraws the screen as if nothing happened.
    """

    def __init__(self, path: Path | str, table_id: str, seat: int, user: str, *, retry: float = 1.0) -> None:
        self._listeners: list[tuple[Callable[[], None], asyncio.AbstractEventLoop | None, contextvars.Context]] = []
        self._push: dict | None = None
        self._have_view = threading.Event()
        self.path = path
        self.id = table_id
        self.seat = seat
        self.user = user
        self.retry = retry
        self.connected = True
        self._closed = False
        self.client = self._join()
        if not self._have_view.wait(TIMEOUT):
            self.client.close()
            raise RemoteError("The table service sent no view.")

    def _join(self) -> ServiceClient:
        """Connect and take our seat; the service then pushes the seat's view."""
        client = ServiceClient(self.path, on_push=self._on_push, on_lost=self._on_lost)
        try:
            joined = client.request({"op": "join", "table": self.id, "seat": self.seat, "user": self.user})
        except Exception:
            client.close()
            raise
        self.game = joined["game"]
        self.spec = get_game(self.game)
        self.config = self.spec.config_from_json(joined["config"])
        self.seats = [s["kind"] for s in joined["seats"]]
        self.owners = [s["owner"] for s in joined["seats"]]
        return client

    def _on_lost(self) -> None:
        if self._closed:
            return
        self.connected = False
        self._notify()
        threading.Thread(target=self._reconnect, name="unmask-table-reconnect", daemon=True).start()

    def _reconnect(self) -> None:
        while not self._closed:
            time.sleep(self.retry)
            if self._closed:
                return
            try:
                client = self._join()
            except (RemoteError, IllegalAction, OSError, KeyError, ValueError, TypeError):
                continue
            if self._closed:
                client.close()
                return
            self.client = client
            self.connected = True
            self._notify()
            return

    @property
    def ended_by(self) -> str | None:
        """Who ended this table (its creator), or None while it goes on."""
        return (self._push or {}).get("ended_by")

    def _on_push(self, msg: dict) -> None:
        if msg.get("op") != "view":
            return
        spec = getattr(self, "spec", None)  # the first push may come before the join's answer is read
        if spec is not None and isinstance(msg.get("config"), dict):
            with contextlib.suppress(TypeError, ValueError, KeyError):
                self.config = spec.config_from_json(msg["config"])
        self._push = msg
        self._have_view.set()
        self._notify()

    def _notify(self) -> None:
        for callback, loop, context in list(self._listeners):
            if loop is not None:
                with contextlib.suppress(RuntimeError):  # the app is closing
                    loop.call_soon_threadsafe(callback, context=context.copy())
            else:
                context.copy().run(callback)

    # ------------------------------------------------------------- reading

    @property
    def humans(self) -> list[int]:
        return [i for i, k in enumerate(self.seats) if k == "human"]

    @property
    def log(self) -> list[list]:
        """Who acted, in order (what was done is in each seat's view, redacted)."""
        assert self._push is not None
        return [[s, None] for s in self._push["log_seats"]]

    def view(self, seat: int, since: int = 0) -> dict:
        assert self._push is not None
        if seat == self.seat:
            return self._push["view"]
        hands = self._push.get("hands")
        if hands is not None:  # once the game is over every hand is public
            return {"hand": hands[seat]}
        raise RemoteError("Only your own seat's view is available.")

    def to_act(self) -> int | None:
        assert self._push is not None
        return self._push["to_act"]

    def is_over(self) -> bool:
        assert self._push is not None
        return bool(self._push["over"])

    def result(self) -> dict | None:
        assert self._push is not None
        return self._push["result"]

    def waiting_for_bot(self) -> bool:
        return False  # bots play in the service

    def bot_to_act(self) -> bool:
        return bool(self._push and self._push.get("bot_to_act"))

    # ------------------------------------------------------------- acting

    def subscribe(self, callback: Callable[[], None]) -> None:
        """``callback`` runs after every change; in the caller's event loop when there is one.

        It runs in a copy of the caller's context (so Textual's ``active_app`` is set there): the
        pushes arrive on the reader thread, whose context is empty, and a screen pushed from such
        a callback (a dialog the rules ask for) could not compose without it.
        """
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        self._listeners.append((callback, loop, contextvars.copy_context()))

    def unsubscribe(self, callback: Callable[[], None]) -> None:
        self._listeners = [entry for entry in self._listeners if entry[0] != callback]

    def submit(self, seat: int, action: tuple) -> None:
        """Our action, decided by the service; ServiceDown (an IllegalAction) when it cannot be reached."""
        if seat != self.seat:
            raise IllegalAction("You can only act for your own seat.")
        if not self.connected:
            raise ServiceDown(DOWN_MESSAGE)
        try:
            self.client.request({"op": "submit", "action": list(self.spec.action_to_json(tuple(action)))})
        except RemoteError:
            raise ServiceDown(DOWN_MESSAGE) from None

    def why_not(self, action: tuple) -> str | None:
        """The engine's sentence for ``action`` now (None if it is legal), asked of the service."""
        try:
            answer = self.client.request({"op": "probe", "action": list(self.spec.action_to_json(tuple(action)))})
        except (RemoteError, IllegalAction) as e:
            return str(e)
        return answer.get("reason")

    def step_bot(self) -> bool:
        return False  # bots play in the service

    def run_bots(self, limit: int = 0) -> int:
        return 0

    def undo(self, seat: int) -> bool:
        return False

    def undo_target(self, seat: int) -> int | None:
        return None  # other people are playing too: a shared table never undoes

    def why_no_undo(self, seat: int) -> str:
        return UNDO_REFUSED

    def to_session(self) -> Any:
        raise RemoteError("A shared table is saved by the server.")

    def replay_session(self) -> Any:
        """The finished game's session, from the table service: it refuses (one sentence) before the end."""
        from engine.session import Session, SessionError

        try:
            answer = self.client.request({"op": "replay"})
        except RemoteError as e:
            raise SessionError(str(e)) from None
        return Session.from_json(answer.get("session"))

    def close(self) -> None:
        self._closed = True
        self._listeners.clear()
        self.client.close()


class RemotePlayMixin:
    """What a play screen does differently at a shared table, for every game.

    Mixed in before a game's own ``PlayScreen`` (see :func:`remote_play_screen`), so that screen
    stays the one source of truth for drawing and acting: this mixin only redraws on every
    push, does not save (the server does), asks the service why an action is illegal, and
    refuses undo politely. Bots play in the service (``RemoteTable.waiting_for_bot`` is False),
    so the screen's bot loop never steps one here.
    """

    #: The reason a screen shows when the service finds the probed action legal after all, for
    #: screens whose ``_why_not`` always returns a sentence (Masque); None for the others.
    WHY_NOT_WHEN_LEGAL: str | None = None

    remote: RemoteTable

    def __init__(self, table: RemoteTable, marks: dict | None = None) -> None:
        # Clue's sheet marks live in this session only.
        extra: dict[str, Any] = {"marks": marks or {}} if table.game == "clue" else {}
        super().__init__(table, table.seat, session_id=f"served-{table.id}", **extra)  # type: ignore[call-arg]
        self.remote = table
        self._names = self._seat_names()
        self._handed_over = False
        self._rebuild_pending = False
        self._banner_text: str | None = None

    def _seat_names(self) -> tuple:
        view = self.remote._push.get("view") if self.remote._push else None
        return tuple(view.get("players") or ()) if isinstance(view, dict) else ()

    def on_mount(self) -> None:  # the game's PlayScreen.on_mount runs too (Textual calls handlers along the MRO)
        self.remote.subscribe(self._pushed)
        self._show_banner()

    def on_screen_resume(self) -> None:
        if self._rebuild_pending:
            self.call_after_refresh(self._rebuild)  # type: ignore[attr-defined]
            return
        self.call_after_refresh(self._check_breakpoints)  # type: ignore[attr-defined]

    def _check_breakpoints(self) -> None:
        """Make sure the size classes (``-wide``, ``-tall``) match the terminal.

        Pushed from the lobby, this screen sometimes missed its first Resize and kept the narrow
        layout (no hand strip, a narrow log) at any size; a Resize of the same size sets them.
        """
        from textual import events

        screen: Any = self
        app = screen.app
        width, height = app.size
        across = (screen.HORIZONTAL_BREAKPOINTS if screen.HORIZONTAL_BREAKPOINTS is not None
                  else app.HORIZONTAL_BREAKPOINTS)
        down = screen.VERTICAL_BREAKPOINTS if screen.VERTICAL_BREAKPOINTS is not None else app.VERTICAL_BREAKPOINTS
        want = set()
        for limits, size in ((across or [], width), (down or [], height)):
            fitting = [name for at, name in sorted(limits) if size >= at]
            if fitting:
                want.add(fitting[-1])
        if not want <= set(screen.classes):
            screen.post_message(events.Resize(app.size, app.size))

    def on_unmount(self) -> None:
        if not self._handed_over:
            self.remote.close()

    def _pushed(self) -> None:
        screen: Any = self
        if not screen.is_mounted or self._handed_over:
            return
        self._show_banner()
        if not self.remote.connected:
            return
        if self._seat_names() != self._names:  # someone sat down: their login replaces "Player n" everywhere
            self._rebuild()
            return
        screen.sync()

    def _banner(self) -> str | None:
        """The sentence over the table when it cannot go on: the service is away, or the table ended."""
        if not self.remote.connected:
            return ("The table service is not reachable. Your seat is kept; this screen comes back by itself "
                    "when the service returns.")
        if self.remote.ended_by:
            return f"{self.remote.ended_by} ended this table. Escape: back to the lobby."
        return None

    def _show_banner(self) -> None:
        from textual.widgets import Static

        screen: Any = self
        text = self._banner()
        if text == self._banner_text:
            return
        self._banner_text = text
        for old in screen.query("#remote-banner"):
            old.remove()
        if text is not None:
            banner = Static(Text(text), id="remote-banner")
            banner.styles.dock = "top"
            banner.styles.height = "auto"
            banner.styles.padding = (0, 1)
            banner.styles.background = "darkred"
            banner.styles.color = "white"
            banner.styles.text_style = "bold"
            screen.mount(banner)

    def _rebuild(self) -> None:
        """Draw the table afresh (new names reach the log, the sheet and every panel): a new screen, same seat."""
        screen: Any = self
        app = screen.app
        if app.screen is not screen:  # a dialog is open over us: when we are shown again
            self._rebuild_pending = True
            return
        self._rebuild_pending = False
        self._handed_over = True
        self.remote.unsubscribe(self._pushed)
        new = type(self)(self.remote, **({"marks": dict(screen.marks)} if self.remote.game == "clue" else {}))
        app.switch_screen(new)

    def _save(self) -> None:
        """The server saves the table; anything screen-only (Clue's sheet marks) stays in this session."""

    def _why_not(self, action: tuple) -> str | None:
        reason = self.remote.why_not(action)
        return reason if reason is not None else self.WHY_NOT_WHEN_LEGAL

    def action_undo(self) -> None:
        self.notify(UNDO_REFUSED, title="Undo")  # type: ignore[attr-defined]


class RemotePlayScreen(RemotePlayMixin, PlayScreen):
    """The Clue play screen at a shared table: redraws on every pushed change; the server saves."""


_SCREENS: dict[str, type[Screen]] = {"clue": RemotePlayScreen}
_WHY_NOT_WHEN_LEGAL = {"masque": "That is not possible now."}  # what masque's own _why_not says then


def remote_play_screen_class(game: str) -> type[Screen]:
    """The play screen of ``game`` at a shared table: ``tui.<game>.play.PlayScreen`` with the remote mixin.

    Built once per game, so each game's screen stays the source of truth; ValueError for a game
    without a play screen.
    """
    if game not in _SCREENS:
        import importlib

        from engine.registry import GAMES

        if game not in GAMES:
            raise ValueError(f"Unknown game {game!r}.")
        try:
            base = importlib.import_module(f"tui.{game}.play").PlayScreen
        except (ImportError, AttributeError):
            raise ValueError(f"{GAMES[game]} has no play screen yet.") from None
        name = f"Remote{game.capitalize()}PlayScreen"
        _SCREENS[game] = type(name, (RemotePlayMixin, base), {
            "__doc__": f"The {GAMES[game]} play screen at a shared table.", "__module__": __name__,
            "WHY_NOT_WHEN_LEGAL": _WHY_NOT_WHEN_LEGAL.get(game)})
    return _SCREENS[game]


def remote_play_screen(table: RemoteTable) -> Screen:
    """The play screen for our seat at ``table``, whatever its game."""
    return remote_play_screen_class(table.game)(table)
