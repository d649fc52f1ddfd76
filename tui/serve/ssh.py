"""``unmask serve ssh``: every SSH connection gets its own unmask app in a pty.

Only the app is served: no shell, no commands, no port forwarding, no SFTP. Authentication is
by an authorized-keys file and/or a passwords file of salted scrypt hashes
(:func:`add_password` writes it; :mod:`tui.serve.auth` checks passwords off the event loop and
makes guessing slow). The host key is generated once into ``data_dir()/ssh_host_key`` so
clients see the same server after a restart.

Every connection, with a session or without (``ssh -N``), takes one of ``max_sessions``
places once it is authenticated and is closed after ``idle_timeout`` without input; before
that it has ``login_grace_time`` to authenticate (``banner_grace_time`` to send its SSH version
line); ``max_startups`` (OpenSSH's ``start:rate:full`` random early drop) and
``per_source_max_startups`` limit connections that have not logged in yet, ``max_per_user`` the
places one user name takes. Client values (window sizes, ``TERM``) are clamped
(:mod:`tui.serve.limits`).

Per session: an app of the warm pool (:mod:`tui.serve.pool`: already on the lobby, on a pty of
its own, given this session's user and window size), else ``os.openpty()`` and the app as a
child process on the slave side in a new session (forked from a warm
:mod:`tui.serve.forkserver`, or ``python -m tui.serve.child``);
this module copies bytes between the SSH channel and the master side, passes window-size
changes on, and ends the child cleanly (SIGHUP, then SIGTERM, then SIGKILL) when the client
goes away or stays idle too long.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import random
import secrets
import signal
import socket
import struct
import sys
import termios
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import asyncssh

from tui.serve.auth import (
    AuthGuard,
    AuthLimits,
    ServeError,
    add_password,
    check_password,
    close_auth_log,
    default_passwords_file,
    log,
    read_passwords,
    safe_name,
    setup_auth_log,
    user_name_problem,
    valid_user_name,
)
from tui.serve.limits import clamp_pixels, clamp_terminal_size, sane_term
from tui.storage import data_dir

__all__ = [
    "AuthLimits",
    "ServeError",
    "add_password",
    "check_password",
    "default_passwords_file",
    "read_passwords",
    "serve_ssh",
    "start_ssh_server",
]

if TYPE_CHECKING:
    from tui.serve.forkserver import ForkedChild, ForkServer
    from tui.serve.pool import PooledApp, WarmPool
    from tui.serve.tables import TableService

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 2222
DEFAULT_MAX_SESSIONS = 20
DEFAULT_IDLE_TIMEOUT = 30 * 60.0
DEFAULT_LOGIN_GRACE_TIME = 60.0
DEFAULT_MAX_STARTUPS = "50:30:150"  # start:rate:full, as OpenSSH's MaxStartups (see Startups)
DEFAULT_PER_SOURCE_MAX_STARTUPS = 20
DEFAULT_BANNER_GRACE_TIME = 10.0
DEFAULT_MAX_PER_USER = 4
RESIZE_INTERVAL = 0.1  # seconds between two window changes given to an app: 10 a second at most (AppSession._resize)
# Leave the alternate screen, stop mouse reporting, show the cursor: in case a child died badly.
TERMINAL_RESET = b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l\x1b[?25h\x1b[?1049l"


# --------------------------------------------------------------------------- files


def host_key_path() -> Path:
    return data_dir() / "ssh_host_key"


def default_authorized_keys() -> Path:
    return data_dir() / "ssh_authorized_keys"


def load_or_create_host_key(path: Path | None = None) -> asyncssh.SSHKey:
    """The server's persistent host key; generated (ed25519, mode 0600) the first time."""
    path = path or host_key_path()
    if path.exists():
        try:
            return asyncssh.read_private_key(str(path))
        except (asyncssh.KeyImportError, OSError) as e:
            raise ServeError(f"Cannot read the SSH host key {path}: {e}.") from None
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
    return key


def set_winsize(fd: int, width: int, height: int, pixwidth: int = 0, pixheight: int = 0) -> None:
    """Give the pty a window size, clamped to what a screen can use (:mod:`tui.serve.limits`).

    A client picks any size (a 32000x32000 pty grew its app by gigabytes; over 32767 did not fit
    the old signed pack and left the app or pty of the failed session behind: issue 22)."""
    width, height = clamp_terminal_size(width, height)
    packed = struct.pack("HHHH", height, width, clamp_pixels(pixwidth), clamp_pixels(pixheight))
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, termios.TIOCSWINSZ, packed)


@dataclass(frozen=True)
class Startups:
    """OpenSSH's ``MaxStartups start:rate:full`` for connections that have not logged in yet.

    Below ``start`` unauthenticated connections every new one is let in; from ``start`` on, a
    new one is dropped with probability ``rate`` % rising linearly to 100 % at ``full``. Someone
    holding connections open can then slow others down but not keep them all out (random early
    drop), and a per-address cap (``per_source_max_startups``) keeps one address from getting there.
    """

    start: int
    rate: int = 100
    full: int = 0

    def __post_init__(self) -> None:
        if self.start < 1 or not 0 <= self.rate <= 100 or (self.full and self.full < self.start):
            raise ValueError("start:rate:full needs start >= 1, rate 0-100 and full >= start")

    @classmethod
    def parse(cls, value: str | int | Startups) -> Startups:
        """``"50:30:150"`` or ``10`` (= ``10:100:10``, a hard cap); ValueError with the rule otherwise."""
        if isinstance(value, Startups):
            return value
        try:
            parts = [int(x) for x in str(value).split(":")]
            if len(parts) == 1:
                return cls(parts[0], 100, parts[0])
            if len(parts) == 3:
                return cls(*parts)
        except ValueError:
            pass
        raise ValueError(f"--max-startups is N or start:rate:full (e.g. {DEFAULT_MAX_STARTUPS}), "
                         f"with start >= 1, rate 0-100 and full >= start; not {str(value)[:40]!r}")

    def drop(self, unauthenticated: int, rng: random.Random) -> bool:
        """Whether a new connection, arriving while ``unauthenticated`` others log in, is dropped."""
        full = self.full or self.start
        if unauthenticated < self.start:
            return False
        if unauthenticated >= full:
            return True
        chance = self.rate + (100 - self.rate) * (unauthenticated - self.start) / (full - self.start)
        return rng.random() * 100 < chance

    def __str__(self) -> str:
        return f"{self.start}:{self.rate}:{self.full or self.start}"


# --------------------------------------------------------------------------- sessions



@dataclass
class ServerState:
    """What every connection shares: limits, auth, the command that runs the app, live connections."""

    passwords_file: Path | None
    authorized_keys: Path | None
    max_sessions: int
    idle_timeout: float | None
    app_argv: list[str]
    extra_env: dict[str, str] = field(default_factory=dict)
    sessions: set[AppSession] = field(default_factory=set)
    connections: set[_Server] = field(default_factory=set)
    limits: AuthLimits = field(default_factory=AuthLimits)
    max_startups: Startups = field(default_factory=lambda: Startups.parse(DEFAULT_MAX_STARTUPS))
    per_source_max_startups: int = DEFAULT_PER_SOURCE_MAX_STARTUPS
    banner_grace_time: float | None = DEFAULT_BANNER_GRACE_TIME
    max_per_user: int = DEFAULT_MAX_PER_USER
    # Random early drop (Startups.drop); seeded from the OS so nobody can predict which connection goes.
    rng: random.Random = field(default_factory=lambda: random.Random(secrets.randbits(64)))
    guard: AuthGuard | None = None
    forks: ForkServer | None = None
    pool: WarmPool | None = None
    lifeline: tuple[int, int] | None = None  # (read, write) ends of the pipe every app watches (watch_lifeline)

    def close_lifeline(self) -> None:
        """Close both ends: apps still running (none, after a clean stop) quit."""
        ends, self.lifeline = self.lifeline, None
        for fd in ends or ():
            with contextlib.suppress(OSError):
                os.close(fd)

    def __post_init__(self) -> None:
        if self.guard is None and self.passwords_file is not None:
            self.guard = AuthGuard(self._users, self.limits)

    def _users(self) -> dict[str, dict]:
        if self.passwords_file is None:
            return {}
        try:
            return read_passwords(self.passwords_file)
        except ServeError:
            return {}

    def places_used(self, but: _Server | None = None) -> int:
        """Places taken: one per authenticated connection, or one per app session when it has more."""
        return sum(max(1, len(c.sessions)) for c in self.connections if c.authenticated and c is not but)

    def places_of(self, user: str, but: _Server | None = None) -> int:
        """Places ``user`` takes (as :meth:`places_used`, for their connections only)."""
        return sum(max(1, len(c.sessions)) for c in self.connections
                   if c.authenticated and c is not but and c.user == user)

    def unauthenticated(self, address: str | None = None) -> int:
        """Connections still logging in (from ``address`` only, when given)."""
        return sum(1 for c in self.connections if not c.authenticated and (address is None or c.address == address))


def idle_words(seconds: float) -> str:
    """``1800`` → "30 minutes", ``2`` → "2 seconds"."""
    if seconds >= 60:
        return f"{seconds / 60:g} minute{'s' if seconds != 60 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"


def base_env(extra_env: dict[str, str]) -> dict[str, str]:
    """The environment every app process starts from (the server's, less SSH_* and TEXTUAL_DRIVER)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SSH_", "TEXTUAL_DRIVER", "UNMASK_USER"))}
    env.update(extra_env)
    env["PYTHONIOENCODING"] = "utf-8"
    env.setdefault("LANG", "C.UTF-8")
    env["UNMASK_SERVE_PTY"] = "1"
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    return env


class AppSession:
    """One SSH session running one app child process on a pty."""

    def __init__(self, state: ServerState, process: asyncssh.SSHServerProcess) -> None:
        self.state = state
        self.process = process
        owner = process.channel.get_connection().get_owner()
        self.conn: _Server | None = owner if isinstance(owner, _Server) else None
        self.child: asyncio.subprocess.Process | ForkedChild | None = None
        self.master: int | None = None
        self.pooled: PooledApp | None = None  # the warm-pool app this session was given, if any
        self._skip_to: bytes | None = None  # a pooled app's output counts from this marker on
        self._skipped = b""
        self.last_input = time.monotonic()
        self._drawn = False
        self._output_done = asyncio.Event()
        self._resized_at = 0.0  # when a window size was last given to the pty
        self._pending_size: tuple[int, int, int, int] | None = None
        self._resize_timer: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------- refusing

    def _refuse(self, message: str, code: int = 1) -> None:
        self.process.stdout.write((f"unmask: {message}\r\n").encode())
        self.process.exit(code)

    async def run(self) -> None:
        p = self.process
        if p.command is not None or p.subsystem is not None:
            self._refuse("this server only runs the game; connect without a command (ssh -t host -p port).")
            return
        if not p.get_terminal_type():
            self._refuse("this server needs a terminal; connect with ssh -t.")
            return
        conn = self.conn
        # This connection already holds one place; a second session on it needs another.
        if conn is not None and conn.sessions and self.state.places_used() >= self.state.max_sessions:
            self._refuse(f"the server is full ({self.state.max_sessions} players); please try again later.")
            return
        if conn is not None and conn.sessions and self.state.places_of(conn.user) >= self.state.max_per_user:
            self._refuse(f"you already have {self.state.max_per_user} sessions open on this server.")
            return
        self.state.sessions.add(self)
        if conn is not None:
            conn.sessions.add(self)
            conn.touch()
        timed_out = False
        try:
            timed_out = await self._serve()
        finally:
            self.state.sessions.discard(self)
            if conn is not None:
                conn.sessions.discard(self)
                conn.touch()
                if timed_out and not conn.sessions:  # the person is gone: do not keep the connection
                    conn.close_idle()

    # ------------------------------------------------------------- serving

    def _env(self) -> dict[str, str]:
        p = self.process
        env = base_env(self.state.extra_env)
        env["TERM"] = sane_term(p.get_terminal_type())  # a client's value: never as it came (issue 22)
        env["COLORTERM"] = "truecolor"  # OpenSSH does not pass it; without it colours fall to 256
        env["PYTHONIOENCODING"] = "utf-8"
        env.setdefault("LANG", "C.UTF-8")
        env["UNMASK_SERVE_PTY"] = "1"
        env["UNMASK_USER"] = env["UNMASK_SSH_USER"] = p.get_extra_info("username") or ""
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        return env

    async def _start_child(self, slave: int) -> asyncio.subprocess.Process | ForkedChild:
        """The app on the pty's slave side: forked from the warm fork server, else started afresh."""
        from tui.serve.forkserver import ForkServerError

        env = self._env()
        forks = self.state.forks
        if forks is not None and forks.ready:
            with contextlib.suppress(OSError, ForkServerError):
                return await forks.launch(slave, env)
        lifeline = self.state.lifeline
        return await asyncio.create_subprocess_exec(
            *self.state.app_argv, stdin=slave, stdout=slave, stderr=slave,
            start_new_session=True, env=env, close_fds=True, pass_fds=lifeline[:1] if lifeline else ())

    def _take_pooled(self, width: int, height: int, pw: int, ph: int) -> bool:
        """Serve this session from a warm-pool app (already showing the lobby); False if none fits."""
        from tui.serve.pool import fits

        pool = self.state.pool
        if pool is None or not fits(sane_term(self.process.get_terminal_type())):
            return False
        app = pool.take()
        if app is None:
            return False
        try:  # from here on the app is ours: every way out closes it
            set_winsize(app.master, width, height, pw, ph)
            self._skip_to = pool.give(app, self._env())
        except Exception:
            app.close()
            return False
        except BaseException:
            app.close()
            raise
        self.pooled, self.master, self.child = app, app.master, app.child
        return True

    async def _serve(self) -> bool:
        """Run the app until it ends or the client goes; True when it ended for lack of input."""
        p = self.process
        width, height, pw, ph = p.term_size
        width, height = clamp_terminal_size(width or 80, height or 24)
        if not self._take_pooled(width, height, pw, ph):
            master, slave = os.openpty()
            self.master = master
            try:  # every way out closes both sides of the pty
                set_winsize(slave, width, height, pw, ph)
                self.child = await self._start_child(slave)
                os.set_blocking(master, False)
            except Exception as e:
                self._close_master()
                self._refuse(f"the game could not start ({e.__class__.__name__}).")
                return False
            except BaseException:
                self._close_master()
                raise
            finally:
                os.close(slave)
        try:
            return await self._run_child()
        finally:  # whatever happened (the client gone, a bug): the app ends and the pty closes
            if self.child is not None and self.child.returncode is None:
                await self._end_child()
            self._close_master()

    async def _run_child(self) -> bool:
        p = self.process
        loop = asyncio.get_running_loop()
        master = self.master
        assert master is not None and self.child is not None
        loop.add_reader(master, self._on_output)
        reader = asyncio.create_task(self._pump_input())
        child_done = asyncio.create_task(self.child.wait())
        waits = {reader, child_done}
        idle = None
        if self.state.idle_timeout:
            idle = asyncio.create_task(self._watch_idle(self.state.idle_timeout))
            waits.add(idle)
        try:
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for t in (reader, idle):
                if t is not None and not t.done():
                    t.cancel()
        timed_out = idle is not None and idle in done
        if not child_done.done():
            await self._end_child()
        # Let the last frames (the app restoring the terminal) reach the client.
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._output_done.wait(), 1.0)
        self._close_master()
        code = self.child.returncode if self.child.returncode is not None else 0
        with contextlib.suppress(Exception):
            if not p.channel.is_closing():  # type: ignore[attr-defined]
                p.stdout.write(TERMINAL_RESET)
                if timed_out:
                    words = idle_words(self.state.idle_timeout or 0)
                    p.stdout.write(f"\r\nunmask: disconnected after {words} without input.\r\n".encode())
                p.exit(code if code >= 0 else 0)
        return timed_out

    def _on_output(self) -> None:
        assert self.master is not None
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: every slave fd is closed, the child is gone
            data = b""
        if not data:
            self._stop_output()
            return
        if self._skip_to is not None:  # a pooled app: what it drew before it was ours is not the client's
            data = self._skipped + data
            at = data.find(self._skip_to)
            if at < 0:
                self._skipped = data[-len(self._skip_to):]
                return
            data = data[at + len(self._skip_to):]
            self._skip_to, self._skipped = None, b""
            if not data:
                return
        if not self._drawn:  # the idle clock starts when the player first sees something
            self._drawn = True
            self.last_input = time.monotonic()
        try:
            self.process.stdout.write(data)
        except Exception:  # the channel is closed: the client is gone
            self._stop_output()

    def _stop_output(self) -> None:
        if self.master is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.master)
        self._output_done.set()

    def _close_master(self) -> None:
        if self._resize_timer is not None:
            self._resize_timer.cancel()
            self._resize_timer = None
        if self.master is not None:
            self._stop_output()
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = None
        if self.pooled is not None:
            with contextlib.suppress(OSError):
                self.pooled.control.close()

    async def _pump_input(self) -> None:
        p = self.process
        while True:
            try:
                data = await p.stdin.read(65536)
            except asyncssh.TerminalSizeChanged as e:
                self._resize(e.width, e.height, e.pixwidth, e.pixheight)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (asyncssh.Error, OSError, asyncio.IncompleteReadError):
                return
            if not data:
                return
            self.last_input = time.monotonic()
            if self.conn is not None:
                self.conn.touch()
            await self._write_master(data)

    def _resize(self, width: int, height: int, pw: int, ph: int) -> None:
        """Pass a window change on: clamped, and at most one per ``RESIZE_INTERVAL`` (the last one wins).

        Every change makes the app lay out and draw a whole frame; a client sending thousands a
        second would keep a core busy and flood its own channel (issue 22). A person dragging a
        window corner still sees it follow, and the final size always arrives."""
        self._pending_size = (width, height, pw, ph)
        if self._resize_timer is not None:
            return
        wait = self._resized_at + RESIZE_INTERVAL - time.monotonic()
        if wait <= 0:
            self._apply_resize()
        else:
            self._resize_timer = asyncio.get_running_loop().call_later(wait, self._apply_resize)

    def _apply_resize(self) -> None:
        self._resize_timer = None
        size, self._pending_size = self._pending_size, None
        if size is not None and self.master is not None:
            set_winsize(self.master, *size)
            self._resized_at = time.monotonic()

    async def _write_master(self, data: bytes) -> None:
        view = memoryview(data)
        while view and self.master is not None:
            try:
                n = os.write(self.master, view)
            except BlockingIOError:
                await asyncio.sleep(0.01)
                continue
            except OSError:
                return
            view = view[n:]

    async def _watch_idle(self, timeout: float) -> None:
        while True:
            left = self.last_input + timeout - time.monotonic()
            if left <= 0:
                return
            await asyncio.sleep(min(left, 5.0))

    async def _end_child(self) -> None:
        """Ask the app to quit (it restores the terminal), then insist."""
        child = self.child
        if child is None or child.returncode is not None:
            return
        for sig, wait in ((signal.SIGHUP, 3.0), (signal.SIGTERM, 2.0), (signal.SIGKILL, 2.0)):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, sig)
            try:
                await asyncio.wait_for(child.wait(), wait)
                return
            except TimeoutError:
                continue

    async def close(self) -> None:
        await self._end_child()


_LINGERING = 64  # refused connections kept open a moment at most at once (see _Server._refuse)
_LINGER_TIME = 2.0
_lingering: set[socket.socket] = set()


def _linger(sock: socket.socket) -> None:
    """Half-close ``sock`` (what was sent is read before the FIN), drop what comes, close it soon."""
    loop = asyncio.get_running_loop()
    _lingering.add(sock)

    def close() -> None:
        if sock in _lingering:
            _lingering.discard(sock)
            with contextlib.suppress(Exception):
                loop.remove_reader(sock.fileno())
            sock.close()

    def drain() -> None:
        try:
            if not sock.recv(65536):
                close()
        except BlockingIOError:
            pass
        except OSError:
            close()

    try:
        sock.setblocking(False)
        sock.shutdown(socket.SHUT_WR)
        loop.add_reader(sock.fileno(), drain)
    except OSError:
        close()
        return
    loop.call_later(_LINGER_TIME, close)


class _Server(asyncssh.SSHServer):
    """One connection: its login tries, its place under ``max_sessions``, its idle clock."""

    def __init__(self, state: ServerState) -> None:
        self._state = state
        self._conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.user = ""
        self.authenticated = False
        self.tries = 0
        self.sessions: set[AppSession] = set()
        self.last_activity = time.monotonic()
        self._idle: asyncio.Task | None = None
        self._banner_timer: asyncio.TimerHandle | None = None
        self._closing = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        """Let the connection log in, or refuse it (per-address cap, then OpenSSH's random early drop)."""
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        state = self._state
        loop = asyncio.get_running_loop()
        waiting, here = state.unauthenticated(), state.unauthenticated(self.address)
        reason = None
        if here >= state.per_source_max_startups:
            reason = f"too many connections from {self.address} are logging in; try again"
        elif state.max_startups.drop(waiting, state.rng):
            reason = "too many connections are logging in; try again"
        if reason is not None:
            log.warning("dropped a connection from %s: %d connections are still logging in (%d from there)",
                        self.address, waiting, here, extra={"source": self.address, "noise": True})
            self._closing = True  # counts nowhere; refused once asyncssh has sent its version line,
            # so the client reads an SSH disconnect with the reason, not a packet where a banner belongs
            loop.call_soon(self._refuse, reason)
            return
        state.connections.add(self)
        if state.banner_grace_time:
            self._banner_timer = loop.call_later(state.banner_grace_time, self._check_banner)

    def _refuse(self, reason: str) -> None:
        """Send the SSH disconnect with ``reason``, then let the client read it.

        asyncssh aborts the socket after a disconnect; the client's version line and key exchange
        still unread here would turn that into a reset, and OpenSSH would show only "Broken pipe".
        A duplicate of the socket keeps it open a moment: it says FIN after the disconnect, reads
        and drops what the client still sends, then closes (at most ``_LINGERING`` at once).
        """
        if self._conn is None:
            return
        dup = None
        sock = self._conn.get_extra_info("socket")
        if sock is not None and len(_lingering) < _LINGERING:
            with contextlib.suppress(OSError):
                dup = socket.socket(fileno=os.dup(sock.fileno()))
        with contextlib.suppress(Exception):
            self._conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, reason)
        if dup is not None:
            _linger(dup)

    def _check_banner(self) -> None:
        """A client sends its version line at once: a connection that has not is someone holding a place."""
        self._banner_timer = None
        if self._conn is not None and not self._conn.get_extra_info("client_version"):
            log.warning("closed a connection from %s: no SSH version line within %s", self.address,
                        idle_words(self._state.banner_grace_time or 0), extra={"source": self.address, "noise": True})
            self._disconnect(asyncssh.DISC_PROTOCOL_ERROR, "no SSH version line")

    def connection_lost(self, exc: Exception | None) -> None:
        self._state.connections.discard(self)
        if self._idle is not None:
            self._idle.cancel()
        if self._banner_timer is not None:
            self._banner_timer.cancel()

    def _disconnect(self, code: int, reason: str) -> None:
        if self._conn is not None and not self._closing:
            self._closing = True
            self._state.connections.discard(self)
            with contextlib.suppress(Exception):
                self._conn.disconnect(code, reason)

    def touch(self) -> None:
        self.last_activity = time.monotonic()

    # ------------------------------------------------------------- authentication

    def begin_auth(self, username: str) -> bool:
        if not valid_user_name(username):
            log.warning("refused user name %s from %s: %s", safe_name(username), self.address,
                        user_name_problem(username))
            self._disconnect(asyncssh.DISC_ILLEGAL_USER_NAME, "not a user name on this server")
            return True
        keys = self._state.authorized_keys
        if keys is not None and keys.is_dir() and self._conn is not None:
            path = keys / username  # per-user keys: the name a player is known by is bound to their key
            if path.is_file():
                with contextlib.suppress(ValueError, OSError):
                    self._conn.set_authorized_keys(str(path))
        return True  # always authenticate

    def password_auth_supported(self) -> bool:
        return self._state.guard is not None

    async def validate_password(self, username: str, password: str) -> bool:
        guard = self._state.guard
        limit = self._state.limits.max_auth_tries
        if guard is None or self._closing or not valid_user_name(username) or self.tries >= limit:
            return False
        self.tries += 1
        ok = await guard.check(self.address, username, password)
        if not ok and self.tries >= limit:
            log.warning("closed the connection from %s after %d failed passwords", self.address, self.tries)
            asyncio.get_running_loop().call_soon(
                self._disconnect, asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, "too many authentication failures")
        return ok

    def auth_completed(self) -> None:
        state = self._state
        if self._closing:
            return
        if state.places_used(but=self) >= state.max_sessions:
            log.info("refused %s from %s: the server is full", safe_name(self._username()), self.address)
            self._disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                             f"the server is full ({state.max_sessions} players); please try again later.")
            return
        user = self._username()
        if state.places_of(user, but=self) >= state.max_per_user:
            log.info("refused %s from %s: %d sessions open already", safe_name(user), self.address,
                     state.max_per_user)
            self._disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                             f"you already have {state.max_per_user} sessions open on this server.")
            return
        self.user = user
        self.authenticated = True
        self.touch()
        if state.idle_timeout:
            self._idle = asyncio.get_running_loop().create_task(self._watch_idle(state.idle_timeout))

    def _username(self) -> str:
        return str(self._conn.get_extra_info("username") or "") if self._conn is not None else ""

    # ------------------------------------------------------------- idle connections

    async def _watch_idle(self, timeout: float) -> None:
        """Close the connection after ``timeout`` without input, with no session open (``ssh -N``)."""
        while not self._closing:
            left = self.last_activity + timeout - time.monotonic()
            if self.sessions:  # each session watches its own input
                left = timeout
            if left <= 0:
                self.close_idle()
                return
            await asyncio.sleep(min(left, 5.0))

    def close_idle(self) -> None:
        idle = idle_words(self._state.idle_timeout or 0)
        if not self._closing:
            log.info("closed the connection of %s from %s after %s without input",
                     safe_name(self._username()), self.address, idle)
        self._disconnect(asyncssh.DISC_BY_APPLICATION, f"disconnected after {idle} without input")


@dataclass
class SSHServer:
    """A running server: ``port`` (the real one when 0 was asked), ``close()`` then ``await wait_closed()``."""

    acceptor: asyncssh.SSHAcceptor
    state: ServerState
    host: str
    port: int

    tables: TableService | None = None  # None when tables are off or another server runs the service

    def close(self) -> None:
        self.acceptor.close()

    async def wait_closed(self) -> None:
        await self.acceptor.wait_closed()
        await asyncio.gather(*(s.close() for s in list(self.state.sessions)), return_exceptions=True)
        for c in list(self.state.connections):
            c._disconnect(asyncssh.DISC_BY_APPLICATION, "the server is stopping")
        if self.state.pool is not None:
            await self.state.pool.close()
        if self.state.forks is not None:
            await self.state.forks.close()
        if self.state.guard is not None:
            self.state.guard.close()
        if self.tables is not None:
            await self.tables.close()
        self.state.close_lifeline()
        close_auth_log()


async def until_stopped() -> None:
    """Return on Ctrl+C or SIGTERM, so a server that runs until then can close its sessions (ssh and web)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # a loop without signal handlers runs until killed
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()


async def open_tables() -> tuple[Path, TableService | None]:
    """The shared table service's socket, starting the service unless another server runs it."""
    from tui.serve.tables import socket_path, start_or_attach

    try:
        return await start_or_attach()
    except OSError as e:
        raise ServeError(f"Cannot open the table service socket {socket_path()}: {e.strerror or e}.") from None


def _resolve_auth(authorized_keys: Path | str | None,
                  passwords_file: Path | str | None) -> tuple[Path | None, Path | None]:
    keys = Path(authorized_keys) if authorized_keys else None
    pw = Path(passwords_file) if passwords_file else None
    if keys is None and pw is None:
        if default_authorized_keys().exists():
            keys = default_authorized_keys()
        if default_passwords_file().exists():
            pw = default_passwords_file()
    if keys is not None and not keys.exists():
        raise ServeError(f"No authorized-keys file or directory at {keys}.")
    if keys is None and pw is None:
        raise ServeError(f"No way to log in: give an authorized-keys file, or add a password "
                         f"(unmask serve passwd USER) which writes {default_passwords_file()}.")
    return keys, pw


async def start_ssh_server(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                           authorized_keys: Path | str | None = None, passwords_file: Path | str | None = None,
                           max_sessions: int = DEFAULT_MAX_SESSIONS,
                           idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
                           app_argv: Sequence[str] | None = None,
                           extra_env: dict[str, str] | None = None, tables: bool = True,
                           limits: AuthLimits | None = None,
                           login_grace_time: float = DEFAULT_LOGIN_GRACE_TIME,
                           max_startups: str | int | Startups = DEFAULT_MAX_STARTUPS,
                           per_source_max_startups: int = DEFAULT_PER_SOURCE_MAX_STARTUPS,
                           banner_grace_time: float = DEFAULT_BANNER_GRACE_TIME,
                           max_per_user: int = DEFAULT_MAX_PER_USER,
                           warm: bool = True, pool: int | None = None) -> SSHServer:
    """Listen on ``host:port`` (0 = any free port); ServeError (one line) for a bad configuration.

    ``authorized_keys`` is an OpenSSH authorized_keys file (its keys log in under any user name)
    or a directory holding one such file per user, named after the user (a key then logs in
    only as its user: use this when seats at shared tables matter).

    With ``tables`` (the default) the server also runs the table service, and every app opens
    on the lobby of shared tables. ``limits`` (:class:`AuthLimits`) set how guessing passwords is
    slowed; ``login_grace_time`` is the time a connection has to log in (``banner_grace_time`` to
    send its SSH version line), ``max_startups`` how many may be logging in at once
    (``start:rate:full``, :class:`Startups`), ``per_source_max_startups`` how many of those from one
    address; ``max_per_user`` is the most places one user name takes. With ``warm`` (and the
    default ``app_argv``) apps are forked from a fork server that has already imported and drawn
    the app once (:mod:`tui.serve.forkserver`).
    With ``warm`` and ``tables``, ``pool`` apps (default: ``max_sessions``; 0 for none) wait
    ready on the lobby, each for one user (:mod:`tui.serve.pool`), so a session starts drawn.
    """
    keys, pw = _resolve_auth(authorized_keys, passwords_file)
    try:
        startups = Startups.parse(max_startups)
    except ValueError as e:
        raise ServeError(f"{e}.") from None
    service = None
    extra_env = dict(extra_env or {})
    if tables:
        sock, service = await open_tables()
        extra_env["UNMASK_TABLES_SOCKET"] = str(sock)
    # Apps end with this process, even under kill -9 (tui.serve.child.watch_lifeline): they get the
    # read end of a pipe whose write end only this process holds (not inheritable).
    lifeline = os.pipe()
    extra_env["UNMASK_LIFELINE"] = str(lifeline[0])
    state = ServerState(passwords_file=pw, authorized_keys=keys, max_sessions=max(1, max_sessions),
                        idle_timeout=idle_timeout if idle_timeout and idle_timeout > 0 else None,
                        app_argv=list(app_argv or [sys.executable, "-m", "tui.serve.child"]),
                        extra_env=extra_env, limits=limits or AuthLimits(), max_startups=startups,
                        per_source_max_startups=max(1, per_source_max_startups),
                        banner_grace_time=banner_grace_time if banner_grace_time > 0 else None,
                        max_per_user=max(1, max_per_user), lifeline=lifeline)
    host_key = load_or_create_host_key()
    setup_auth_log()
    if warm and app_argv is None:
        from tui.serve.forkserver import ForkServer

        state.forks = ForkServer(base_env(extra_env), pass_fds=lifeline[:1])
        state.forks.start()
        size = state.max_sessions if pool is None else pool
        if tables and size > 0:
            from tui.serve.pool import WarmPool

            state.pool = WarmPool(state.forks, base_env(extra_env), size,
                                  lambda fd, w, h: set_winsize(fd, w, h))
            state.pool.start()

    async def handle(process: asyncssh.SSHServerProcess) -> None:
        await AppSession(state, process).run()

    try:
        acceptor = await asyncssh.create_server(
            lambda: _Server(state), host, port,
            server_host_keys=[host_key],
            authorized_client_keys=str(keys) if keys and keys.is_file() else None,
            process_factory=handle, encoding=None, line_editor=False,
            allow_pty=True, x11_forwarding=False, agent_forwarding=False,
            sftp_factory=None, allow_scp=False, kbdint_auth=False,
            login_timeout=login_grace_time if login_grace_time > 0 else None,
            keepalive_interval=30, keepalive_count_max=4,
        )
    except OSError as e:
        if service is not None:
            await service.close()
        if state.pool is not None:
            await state.pool.close()
        if state.forks is not None:
            await state.forks.close()
        if state.guard is not None:
            state.guard.close()
        state.close_lifeline()
        close_auth_log()
        raise ServeError(f"Cannot listen on {host}:{port}: {e.strerror or e}.") from None
    real_port = acceptor.sockets[0].getsockname()[1] if acceptor.sockets else port
    return SSHServer(acceptor, state, host, real_port, service)


def serve_ssh(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
              authorized_keys: Path | str | None = None, passwords_file: Path | str | None = None,
              max_sessions: int = DEFAULT_MAX_SESSIONS, idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
              tables: bool = True, limits: AuthLimits | None = None,
              login_grace_time: float = DEFAULT_LOGIN_GRACE_TIME,
              max_startups: str | int | Startups = DEFAULT_MAX_STARTUPS,
              per_source_max_startups: int = DEFAULT_PER_SOURCE_MAX_STARTUPS,
              banner_grace_time: float = DEFAULT_BANNER_GRACE_TIME, max_per_user: int = DEFAULT_MAX_PER_USER,
              warm: bool = True, pool: int | None = None, announce=print) -> None:
    """Run the server until Ctrl+C / SIGTERM; every running app is ended cleanly on the way out."""

    async def main() -> None:
        server = await start_ssh_server(host, port, authorized_keys=authorized_keys, passwords_file=passwords_file,
                                        max_sessions=max_sessions, idle_timeout=idle_timeout, tables=tables,
                                        limits=limits, login_grace_time=login_grace_time,
                                        max_startups=max_startups, per_source_max_startups=per_source_max_startups,
                                        banner_grace_time=banner_grace_time, max_per_user=max_per_user,
                                        warm=warm, pool=pool)
        key = load_or_create_host_key()
        announce(f"unmask: serving over SSH on {server.host}:{server.port} (ssh -p {server.port} USER@{server.host})")
        announce(f"unmask: host key {key.get_fingerprint()}")
        forks = server.state.forks
        if forks is not None:
            async def say_warm() -> None:
                said = False
                warm_pool = server.state.pool
                for _ in range(3000):
                    if forks.ready and not said:
                        announce("unmask: apps start warm (fork server ready)")
                        said = True
                    if said and warm_pool is None:
                        return
                    if warm_pool is not None and warm_pool.was_full:
                        announce(f"unmask: warm pool full ({warm_pool.size} apps wait on the lobby)")
                        return
                    await asyncio.sleep(0.1)

            warm_task = asyncio.get_running_loop().create_task(say_warm())  # noqa: F841 (kept until the end)
        await until_stopped()
        announce("unmask: stopping; ending every session…")
        server.close()
        await server.wait_closed()

    asyncio.run(main())
