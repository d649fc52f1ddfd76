"""The app as run for one SSH or web connection: ``python -m tui.serve.child``.

It is an ordinary terminal app on its stdin/stdout. Under the SSH server those are the slave
side of a pty in a new session: we make that pty our controlling terminal so the kernel sends
SIGWINCH on resizes, and we quit cleanly on SIGHUP/SIGTERM so the client's terminal is restored.
Under the web server (textual-serve) they are pipes to textual-serve's web driver. The server
says who plays (``UNMASK_USER``) and where the shared tables are (``UNMASK_TABLES_SOCKET``).

Many of these processes share a small machine, so the served app skips two redraws Textual
does on every focus change (:func:`install_quiet_footer`, :func:`install_focus_repaint`); the
screens are the same (``tests/serve/test_served_drawing.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sys
import termios
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static

from tui.app import UnmaskApp, UnmaskCommands


def footer_signature(footer: Footer) -> tuple:
    """What :meth:`Footer.compose` would draw now: the shown bindings and how they look."""
    app = footer.app
    shown = tuple((b.key, app.get_key_display(b), b.description, b.action, enabled, tooltip,
                   b.group.description if b.group else None, b.group.compact if b.group else None)
                  for _ns, b, enabled, tooltip in footer.screen.active_bindings.values() if b.show)
    return shown, footer.show_command_palette, footer.compact, app.ENABLE_COMMAND_PALETTE


def install_quiet_footer() -> None:
    """Recompose a Footer only when what it shows changes.

    Textual's Footer removes and remounts every key on each bindings update, which a focus change
    triggers: on the home screen that was most of the CPU time of a Tab press. Twenty players may
    share two cores, so the served app skips recomposes whose result would be identical (same keys,
    labels, enabled states, tooltips). The screen looks exactly the same.
    """
    if getattr(Footer, "_unmask_quiet", False):
        return
    original = Footer.bindings_changed

    def bindings_changed(self: Footer, screen: Any) -> None:
        if self._bindings_ready and self.is_attached and screen is self.screen and screen.app.app_focus:
            try:
                sig = footer_signature(self)
            except Exception:  # never let an optimisation break the footer
                sig = None
            if sig is not None and sig == getattr(self, "_unmask_shown", None):
                return
            self._unmask_shown = sig
        original(self, screen)

    Footer.bindings_changed = bindings_changed  # type: ignore[method-assign]
    Footer._unmask_quiet = True  # type: ignore[attr-defined]


def install_focus_repaint() -> None:
    """On a focus change repaint the two widgets concerned, not the whole screen.

    ``Screen.focused`` is a reactive that repaints the entire screen (about 10 KB of escape
    codes through the pty and the SSH channel for one Tab). The styles of the focused and blurred
    widgets and of ``:focus-within`` ancestors are updated by Textual anyway; refreshing both
    widgets covers those that draw focus themselves. The bytes differ, the screen does not.
    """
    from textual.screen import Screen

    if getattr(Screen, "_unmask_focus_repaint", False):
        return
    Screen.__dict__["focused"]._repaint = False
    original = Screen.set_focus

    def set_focus(self: Screen, widget: Any, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        before = self.focused
        original(self, widget, scroll_visible, from_app_focus)
        if self.focused is not before:
            for w in (before, self.focused):
                if w is not None and w.is_attached:
                    w.refresh()

    Screen.set_focus = set_focus  # type: ignore[method-assign]
    Screen._unmask_focus_repaint = True  # type: ignore[attr-defined]


class ServedCommands(UnmaskCommands):
    """The palette of a served app: the same places, named for a user's own space."""

    RENAMED = {"Resume a saved game": ("My games", "Your saved games and table notes on this server"),
               "Home": ("Lobby", "Back to the lobby of shared tables")}

    def _commands(self) -> list[tuple[str, str, Any]]:
        app = self.app
        if getattr(app, "refused", None) is not None:
            return []
        served = []
        for name, help_text, callback in super()._commands():
            if name == "Home" and not getattr(app, "tables_socket", None):
                served.append(("Home", "Back to your home screen", callback))
                continue
            name, help_text = self.RENAMED.get(name, (name, help_text))
            served.append((name, help_text, callback))
        return served


def served_login() -> str:
    """Who plays: the login name the server put into our environment (never asked of the player)."""
    return os.environ.get("UNMASK_USER") or os.environ.get("UNMASK_SSH_USER", "")


class ServedApp(UnmaskApp):
    """UnmaskApp for one served user: the lobby at the bottom, their own space, nothing of the host's.

    Every session this process reads or writes lives in ``data_dir()/users/<login>/sessions``
    (:func:`tui.storage.confine_to`, set before any screen exists), so Resume ("My games"), the
    assistants and new games against bots see only this user's files. With shared tables the
    lobby is the root screen: Home, Escape and the palette lead there, never past it. A login
    that cannot have a space (not a plain name) gets one sentence and nothing else.
    """

    CSS_PATH = str(Path(__file__).resolve().parent.parent / "app.tcss")  # relative paths follow the subclass
    BINDINGS = [Binding("ctrl+l", "lobby", "Tables", id="served-lobby", priority=True)]  # even under a dialog
    COMMANDS = App.COMMANDS | {ServedCommands}
    RESUME_TITLE = "My games: your saved games and table notes on this server"

    def __init__(self, *, control: int | None = None, **kw: Any) -> None:
        from tui.storage import forbid_storage

        if os.environ.get("UNMASK_SERVE_PLAIN") != "1":  # =1: Textual as shipped, to compare
            install_quiet_footer()
            install_focus_repaint()
        super().__init__(**kw)
        self.login = ""
        self.refused: str | None = None
        self.tables_socket = os.environ.get("UNMASK_TABLES_SOCKET") or None
        # A pooled app (warm pool, tui.serve.pool) starts for nobody: no storage at all until the
        # server gives it its one user on ``control``; it never takes a second one.
        self.control: socket.socket | None = None
        self.bound = control is None
        if control is None:
            self._take_user()
        else:
            self.control = socket.socket(fileno=control)
            self.control.setblocking(False)
            forbid_storage("this app has no user yet")

    def _take_user(self) -> None:
        """Confine storage to the login in our environment (or refuse a login that has no space)."""
        from tui.storage import SpaceError, confine_to, forbid_storage, user_space

        self.login = served_login()
        try:
            confine_to(user_space(self.login))
        except SpaceError as e:
            forbid_storage(str(e))
            self.refused = str(e)

    def get_system_commands(self, screen: Screen) -> Any:
        """Textual's own palette entries, without those that write files on the host (screenshots)."""
        for command in super().get_system_commands(screen):
            if isinstance(command, SystemCommand) and "screenshot" in command.title.lower():
                continue
            if self.refused is not None and command.title.lower() != "quit":
                continue
            yield command

    def root_screen(self) -> Any:
        if self.refused is not None:
            return RefusedScreen(self.refused)
        if self.tables_socket:
            from tui.serve.lobby import LobbyScreen

            return LobbyScreen(self.tables_socket, self.login, waiting=not self.bound)
        return super().root_screen()

    def on_mount(self) -> None:  # Textual also runs UnmaskApp.on_mount (handlers run along the MRO)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGHUP, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self._hang_up)
        if self.control is not None:
            loop.add_reader(self.control.fileno(), self._on_control)

    def _hang_up(self) -> None:
        """Quit cleanly (the client's terminal is restored); a pooled app with no user just ends.

        Nobody sees an app that has no user, and it has nothing to save, so it does not go through
        Textual's shutdown, which can wait forever to write to a pty whose other side is gone.
        """
        if not self.bound:
            os._exit(0)
        self.exit()

    # ------------------------------------------------------------- the warm pool

    def pool_ready(self) -> None:
        """The lobby is drawn for nobody: tell the server this app may be given a user."""
        if self.control is not None and not self.bound:
            with contextlib.suppress(OSError):
                self.control.send(json.dumps({"ready": True}).encode())

    def _on_control(self) -> None:
        assert self.control is not None
        try:
            msg = self.control.recv(1 << 20)
        except BlockingIOError:
            return
        except OSError:
            msg = b""
        if not msg:  # the server closed our socket: a pooled app nobody took has nothing to do
            asyncio.get_running_loop().remove_reader(self.control.fileno())
            if not self.bound:
                self._hang_up()
            return
        if self.bound:  # a second user: never serve one; this app ends
            asyncio.get_running_loop().remove_reader(self.control.fileno())
            self.exit(1)
            return
        try:
            request = json.loads(msg)
            env = {str(k): str(v) for k, v in request["env"].items()}
            token = str(request["token"])
            size = request.get("size")
            if size is not None:  # the web page's size (the server clamped it too); a pty has its own
                from tui.serve.limits import clamp_terminal_size

                width, height = size
                size = clamp_terminal_size(int(width), int(height))
        except (ValueError, KeyError, TypeError, AttributeError):
            self.exit(1)
            return
        self.bind_user(env, token, size)

    def bind_user(self, env: dict[str, str], token: str, size: tuple[int, int] | None = None) -> None:
        """Become the app of the one user ``env`` names, and draw the whole screen for them.

        Everything written before (the lobby drawn for nobody, at the pool's size) precedes the
        marker ``token`` in the output: the server drops it. After the marker come Textual's
        start-up sequences again (alternate screen, mouse, paste...) and a full frame, at ``size``
        when given (Textual's web driver: the page's size), else at the pty's.
        """
        from textual import events
        from textual.geometry import Size

        self.bound = True
        os.environ.clear()
        os.environ.update(env)
        self._take_user()
        self.tables_socket = os.environ.get("UNMASK_TABLES_SOCKET") or None
        driver = self._driver
        if driver is not None:
            driver.write(pool_marker(token))  # one write: for the web driver, one packet of its own
            if driver.is_web:
                replay_web_start(driver)
            else:
                replay_start_sequences(driver)
        if self.refused is not None:
            self.switch_screen(RefusedScreen(self.refused))
        else:
            from tui.serve.lobby import LobbyScreen

            if isinstance(self.screen, LobbyScreen):
                self.screen.bind_user(self.login)
        if size is not None:
            width, height = size
            if driver is not None:
                driver._size = size  # what the web driver reports until the page's next resize
        elif driver is not None:
            width, height = driver._get_terminal_size()  # type: ignore[attr-defined]
        else:
            width, height = self.size
        if (width, height) != tuple(self.size):
            self.post_message(events.Resize(Size(width, height), Size(width, height)))
        else:
            screen = self.screen
            self._display(screen, screen._compositor.render_update(full=True, screen_stack=self._background_screens))

    def _at_root(self) -> bool:
        return len(self.screen_stack) <= 2  # Textual's default screen, then ours

    def pop_screen(self) -> Any:
        """Never below the root screen (the lobby): under it is nothing, and nothing of the host's."""
        if self._at_root():
            from textual.await_complete import AwaitComplete

            return AwaitComplete.nothing()
        return super().pop_screen()

    def action_home(self) -> None:
        """Home is the root screen: the lobby with shared tables, else this user's home screen."""
        if self.refused is not None:
            return
        while not self._at_root():
            super().pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """"Tables" is offered where it leads somewhere: not on the lobby itself."""
        if action == "lobby":
            from tui.serve.lobby import LobbyScreen

            if not os.environ.get("UNMASK_TABLES_SOCKET") or isinstance(self.screen, LobbyScreen):
                return False
        return super().check_action(action, parameters)

    def action_lobby(self) -> None:
        if self.tables_socket:
            self.action_home()

    def action_resume(self) -> None:
        if self.refused is None:
            super().action_resume()

    def action_new_game(self, game: str = "clue") -> None:
        if self.refused is None:
            super().action_new_game(game)

    def action_assist(self, game: str = "clue") -> None:
        if self.refused is None:
            super().action_assist(game)


def pool_marker(token: str) -> str:
    """What a pooled app writes when it is given its user: the server drops everything before it."""
    return f"\x1b_unmask-pool-{token}\x1b\\"


def replay_start_sequences(driver: Any) -> None:
    """Write again what Textual's Linux driver wrote at start-up, for a client that just arrived."""
    write = driver.write
    write("\x1b[?1049h")  # alternate screen
    driver._enable_mouse_support()
    write("\x1b[?25l")  # hide the cursor
    write("\x1b[?1004h")  # focus in/out
    from textual import constants

    if not constants.DISABLE_KITTY_KEY:
        from textual.drivers.linux_driver import (
            KITTY_DISAMBIGUATE_ESCAPE_CODES,
            KITTY_REPORT_ALL_KEYS,
            KITTY_REPORT_ASSOCIATED_TEXT,
        )

        write(f"\x1b[>{KITTY_DISAMBIGUATE_ESCAPE_CODES | KITTY_REPORT_ALL_KEYS | KITTY_REPORT_ASSOCIATED_TEXT}u")
    driver._request_terminal_sync_mode_support()
    driver._query_in_band_window_resize()
    driver._enable_bracketed_paste()
    driver._disable_line_wrap()
    driver.flush()


def replay_web_start(driver: Any) -> None:
    """The same for Textual's web driver: its prelude line (textual-serve waits for it before
    reading packets) and what its ``start_application_mode`` writes, for a page that just arrived."""
    driver._write(b"__GANGLION__\n")
    driver.write("\x1b[?1049h")  # alternate screen
    driver._enable_mouse_support()
    driver.write("\x1b[?25l")  # hide the cursor
    driver.write("\033[?1003h")
    driver._request_terminal_sync_mode_support()
    driver._enable_bracketed_paste()


class RefusedScreen(Screen):
    """What a login that cannot be served sees: one sentence; any key or tap leaves."""

    BINDINGS = [Binding("escape,enter,q", "app.quit", "Leave", id="refused-quit")]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        yield Static(Text(f"unmask: {self.message}\nPress Enter to leave."), id="refused")

    def on_click(self) -> None:
        self.app.exit()


def _take_terminal() -> None:
    """Make the pty on stdin our controlling terminal (we are a session leader: start_new_session)."""
    if os.environ.get("UNMASK_SERVE_PTY") != "1":
        return
    with contextlib.suppress(OSError):
        import fcntl

        fcntl.ioctl(0, termios.TIOCSCTTY, 0)


LIFELINE_GRACE = 5.0  # seconds an app has to quit cleanly once its server is gone


def watch_lifeline() -> None:
    """End this app when its server ends, however it ends (``kill -9`` included).

    The server holds the write end of a pipe and gives every app (and the fork server, which
    forks them) the read end, named by ``UNMASK_LIFELINE``. Nothing is ever written: when the
    server's process ends, the kernel closes the write end and the read sees end-of-file. A
    thread waiting on it then asks the app to quit as on a hang-up and, should quitting hang,
    ends the process ``LIFELINE_GRACE`` seconds later. Before, apps of a killed server lived on
    and reattached to the next server's tables as "online" (issue 22, finding 12).
    """
    try:
        fd = int(os.environ.get("UNMASK_LIFELINE", ""))
        os.fstat(fd)
    except (ValueError, OSError):
        return
    import threading
    import time

    def watch() -> None:
        with contextlib.suppress(OSError):
            while os.read(fd, 64):
                pass
        with contextlib.suppress(OSError):
            os.kill(os.getpid(), signal.SIGHUP)
        time.sleep(LIFELINE_GRACE)
        os._exit(0)

    threading.Thread(target=watch, name="unmask-lifeline", daemon=True).start()


def main(argv: list[str] | None = None, control: int | None = None) -> int:
    """Run the app on our terminal; with ``control``, as a pooled app waiting there for its user."""
    argv = sys.argv[1:] if argv is None else argv
    _take_terminal()
    watch_lifeline()
    kw: dict[str, Any] = {"control": control}
    if (argv and argv[0] in ("resume", "home")) or (argv and argv[0].startswith("rules")):
        kw["start"] = argv[0]
    profile = os.environ.get("UNMASK_CHILD_PROFILE")
    if profile:  # UNMASK_CHILD_PROFILE=/tmp/p: where each app process spends its time (/tmp/p.<pid>)
        import cProfile

        cProfile.runctx("ServedApp(**kw).run()", globals(), {"ServedApp": ServedApp, "kw": kw},
                        f"{profile}.{os.getpid()}")
    else:
        ServedApp(**kw).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
