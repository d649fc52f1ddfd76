"""The app as run for one SSH or web connection: ``python -m tui.serve.child``.

It is an ordinary terminal app on its stdin/stdout. Under the SSH server those are the slave
side of a pty in a new session: we make that pty our controlling terminal so the kernel sends
SIGWINCH on resizes, and we quit cleanly on SIGHUP/SIGTERM so the client's terminal is restored.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import termios
from pathlib import Path
from typing import Any

from textual.binding import Binding

from tui.app import UnmaskApp


class ServedApp(UnmaskApp):
    """UnmaskApp that leaves (restoring the terminal) when the server hangs up on it."""

    CSS_PATH = str(Path(__file__).resolve().parent.parent / "app.tcss")  # relative paths follow the subclass
    BINDINGS = [Binding("ctrl+l", "lobby", "Tables", id="served-lobby")]

    def on_mount(self) -> None:  # Textual also runs UnmaskApp.on_mount (handlers run along the MRO)
        import asyncio

        loop = asyncio.get_running_loop()
        for sig in (signal.SIGHUP, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self.exit)
        sock = os.environ.get("UNMASK_TABLES_SOCKET")
        if sock:  # a server with shared tables: open on the lobby (Escape leads home)
            self.call_after_refresh(self._open_lobby, sock)

    def _open_lobby(self, sock: str) -> None:
        from tui.serve.lobby import LobbyScreen

        self.push_screen(LobbyScreen(sock, os.environ.get("UNMASK_SSH_USER", "")))

    def action_home(self) -> None:
        """At a served table, Escape leads back to the lobby (and from there, home)."""
        from tui.serve.lobby import LobbyScreen

        if any(isinstance(s, LobbyScreen) for s in self.screen_stack):
            while not isinstance(self.screen, LobbyScreen):
                self.pop_screen()
            return
        super().action_home()

    def action_lobby(self) -> None:
        from tui.serve.lobby import LobbyScreen

        sock = os.environ.get("UNMASK_TABLES_SOCKET")
        if sock and not any(isinstance(s, LobbyScreen) for s in self.screen_stack):
            self._open_lobby(sock)
        elif sock:
            self.action_home()


def _take_terminal() -> None:
    """Make the pty on stdin our controlling terminal (we are a session leader: start_new_session)."""
    if os.environ.get("UNMASK_SERVE_PTY") != "1":
        return
    with contextlib.suppress(OSError):
        import fcntl

        fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    _take_terminal()
    kw: dict[str, Any] = {}
    if (argv and argv[0] in ("resume", "home")) or (argv and argv[0].startswith("rules")):
        kw["start"] = argv[0]
    ServedApp(**kw).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
