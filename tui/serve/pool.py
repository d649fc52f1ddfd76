"""A warm pool of served apps, each already showing the lobby and waiting for its one user.

Forking from the warm fork server (:mod:`tui.serve.forkserver`) still leaves each new app to
start Textual's driver, compose the lobby, style it and draw it: 0.3-1 s of CPU per app, so
twenty players connecting at once on two cores waited ~14 s (issue 14). The pool does that work
before anyone connects. Each pooled app is forked from the fork server onto a pty of its own
(80x24, ``TERM=xterm-256color``) with a control socket, runs the lobby for nobody (no user, no
storage, no table service asked), says ``{"ready": true}`` and waits.

When a session starts, :class:`tui.serve.ssh.AppSession` takes one ready app: the pty's master
side becomes the session's, it is given the client's window size, and the app is sent the
session's environment (its user) and a random token on the control socket. The app confines its
storage to that user's space, writes the token as a marker, Textual's start-up sequences again
and a full frame at the client's size; the server drops everything before the marker (the lobby
drawn for nobody). An app is given a user once: it leaves the pool when taken, and a second
message on its control socket ends it. Taken apps are replaced one at a time, a second after the
last take, so refilling does not compete with the sessions that just started.

Sessions on a dumb terminal (:func:`fits`) and sessions that find the pool empty start as before
(forked from the fork server, or a fresh process).

The web server (:mod:`tui.serve.web`) keeps the same pool with ``kind="web"``: each app runs
Textual's web driver on one end of a socketpair instead of a pty (its stdin and stdout, as
textual-serve's pipes), is given the page's size with its user, and the server reads its packets
from just after the marker (:func:`read_past`), which the app writes as a packet of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from tui.serve.forkserver import ForkedChild, ForkServer, ForkServerError

POOL_TERM = "xterm-256color"
POOL_SIZE = (80, 24)  # columns, rows of a pooled app's pty until its user's size is known
READY_TIMEOUT = 60.0
REFILL_DELAY = 1.0  # seconds after the last take before a replacement starts


def fits(term: str) -> bool:
    """Whether a client with terminal type ``term`` can be served by a pooled app.

    The server sets ``COLORTERM=truecolor`` for every app, so Rich picks the same colours
    whatever ``TERM`` says, except for a dumb terminal (no styles at all): those start afresh.
    """
    return bool(term) and term.strip().lower() not in ("dumb", "unknown")


def marker(token: str) -> bytes:
    """The bytes a pooled app writes when given its user (see :func:`tui.serve.child.pool_marker`)."""
    return f"\x1b_unmask-pool-{token}\x1b\\".encode()


def _end_late(launching: asyncio.Future) -> None:
    """An app forked for a pool that closed meanwhile: kill it."""
    if launching.cancelled() or launching.exception() is not None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(launching.result().pid, signal.SIGKILL)


@dataclass(eq=False)
class PooledApp:
    """One app of the pool: the server's side of its terminal (a pty's master side, or for the web
    the server's end of a socketpair), its control socket, its process."""

    master: int
    control: socket.socket
    child: ForkedChild
    ready: bool = False
    taken: bool = False  # handed to a session
    bound: bool = False  # given its user (from then on the session ends it, as any app)

    def detach(self) -> int:
        """The terminal's fd, now the caller's to close (:meth:`close` no longer does)."""
        fd, self.master = self.master, -1
        return fd

    def close(self, force: bool = False) -> None:
        """Forget this app and end it. It has no user (nobody sees it, it has nothing to save), so
        it is killed outright rather than asked to quit; with ``force`` even once given one (it
        failed to start for them: nobody has seen it yet either)."""
        if self.master >= 0:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.master)
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = -1
        with contextlib.suppress(OSError):
            self.control.close()
        if self.child.returncode is None and (force or not self.bound):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.child.pid, signal.SIGKILL)  # a session leader: its whole group


class WarmPool:
    """Keeps ``size`` ready apps; :meth:`take` hands one out, :meth:`give` gives it its user."""

    def __init__(self, forks: ForkServer, env: dict[str, str], size: int,
                 set_winsize: Callable[[int, int, int], None] | None = None,
                 on_full: Callable[[int], None] | None = None, *, kind: Literal["pty", "web"] = "pty") -> None:
        self.forks = forks
        self.kind = kind  # "pty": SSH sessions; "web": Textual's web driver on a socketpair
        self.env = dict(env)
        self.size = max(0, size)
        self.idle: list[PooledApp] = []  # ready, waiting for a user
        self.started = 0  # apps launched into the pool, ever
        self.taken = 0  # apps handed to a session, ever
        self.failures = 0
        self.was_full = False  # the pool has been full once (after a start it fills in the background)
        self._set_winsize = set_winsize
        self._on_full = on_full
        self._wake = asyncio.Event()
        self._last_take = 0.0
        self._task: asyncio.Task | None = None
        self._watchers: set[asyncio.Task] = set()
        self._closed = False

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._fill())

    # ------------------------------------------------------------- filling

    async def _fill(self) -> None:
        announced = False
        while not self._closed:
            if not self.forks.ready:
                await asyncio.sleep(0.1)
                continue
            if len(self.idle) >= self.size:
                if not announced:
                    announced = self.was_full = True
                    if self._on_full is not None:
                        self._on_full(len(self.idle))
                self._wake.clear()
                await self._wake.wait()
                continue
            wait = self._last_take + REFILL_DELAY - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            app = await self._launch()
            if app is None:
                self.failures += 1
                await asyncio.sleep(min(30.0, 0.5 * 2 ** min(self.failures, 6)))
                continue
            self.failures = 0
            self.idle.append(app)

    async def _launch(self) -> PooledApp | None:
        """Start one app for the pool and wait until it has drawn the lobby for nobody."""
        loop = asyncio.get_running_loop()
        env = dict(self.env)
        env.update({"UNMASK_USER": "", "UNMASK_SSH_USER": ""})
        if self.kind == "web":  # the app's stdin and stdout: a stream socket, as textual-serve's pipes
            a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            master, slave = a.detach(), b.detach()
            env.update({"COLUMNS": str(POOL_SIZE[0]), "ROWS": str(POOL_SIZE[1])})
            env.pop("UNMASK_SERVE_PTY", None)
        else:
            master, slave = os.openpty()
            if self._set_winsize is not None:
                self._set_winsize(slave, *POOL_SIZE)
            env.update({"TERM": POOL_TERM, "COLORTERM": "truecolor"})
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        launching = asyncio.ensure_future(self.forks.launch(slave, env, control=theirs.fileno()))
        try:
            child = await asyncio.shield(launching)
        except (OSError, ForkServerError):
            os.close(master)
            ours.close()
            return None
        except BaseException:  # the pool is closing: the app may still be forked; end it then
            launching.add_done_callback(_end_late)
            os.close(master)
            ours.close()
            raise
        finally:
            if launching.done():
                os.close(slave)
                theirs.close()
            else:
                launching.add_done_callback(lambda _f: (os.close(slave), theirs.close()))
        self.started += 1
        os.set_blocking(master, False)
        ours.setblocking(False)
        app = PooledApp(master, ours, child)
        loop.add_reader(master, self._drain, app)  # what it draws for nobody goes nowhere
        watcher = loop.create_task(self._watch(app))
        self._watchers.add(watcher)
        watcher.add_done_callback(self._watchers.discard)
        try:
            msg = await asyncio.wait_for(loop.sock_recv(ours, 4096), READY_TIMEOUT)
            app.ready = json.loads(msg or b"{}").get("ready") is True
        except (OSError, ValueError, TimeoutError):
            app.ready = False
        except BaseException:  # the pool is closing
            app.close()
            raise
        if not app.ready or app.child.returncode is not None:
            app.close()
            return None
        return app

    def _drain(self, app: PooledApp) -> None:
        try:
            data = os.read(app.master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(app.master)

    async def _watch(self, app: PooledApp) -> None:
        """An app that ends while it waits leaves the pool (a replacement starts)."""
        await app.child.wait()
        if not app.taken:
            if app in self.idle:
                self.idle.remove(app)
            app.close()
            self._wake.set()

    # ------------------------------------------------------------- handing out

    def take(self) -> PooledApp | None:
        """A ready app, out of the pool for good (None when none is ready)."""
        while self.idle:
            app = self.idle.pop(0)
            if app.child.returncode is not None:
                app.close()
                continue
            app.taken = True
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(app.master)
            self.taken += 1
            self._last_take = time.monotonic()
            self._wake.set()
            return app
        self._wake.set()
        return None

    def give(self, app: PooledApp, env: dict[str, str], size: tuple[int, int] | None = None) -> bytes:
        """Give ``app`` its user (``env``); the marker after which its output is theirs. OSError if it is gone.

        ``size`` (columns, rows; already clamped) is the web page's: a pty carries its own size."""
        token = secrets.token_hex(16)
        request: dict[str, object] = {"env": env, "token": token}
        if size is not None:
            request["size"] = [int(size[0]), int(size[1])]
        app.control.send(json.dumps(request).encode())
        app.bound = True
        return marker(token)

    async def close(self) -> None:
        self._closed = True
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        apps, self.idle = self.idle, []
        for app in apps:
            app.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(a.child.wait() for a in apps)), 3.0)
        for w in list(self._watchers):
            w.cancel()


def _wake(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


async def read_past(fd: int, mark: bytes, timeout: float) -> bytes:
    """Read the non-blocking ``fd`` until ``mark`` has gone by; the bytes read after it.

    What a pooled app wrote before it was given its user is dropped. TimeoutError if the mark does
    not come within ``timeout`` s, ConnectionError if the app's side closes first.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen = b""
    while True:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            readable = loop.create_future()
            loop.add_reader(fd, _wake, readable)
            try:
                await asyncio.wait_for(readable, max(0.0, deadline - loop.time()))
            finally:
                loop.remove_reader(fd)
            continue
        if not data:
            raise ConnectionError("the app closed its side before it was ready")
        seen += data
        at = seen.find(mark)
        if at >= 0:
            return seen[at + len(mark):]
        seen = seen[-len(mark):]
