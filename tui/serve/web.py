"""``unmask serve web``: the app in a browser (a tablet is enough), behind a password.

textual-serve starts one app process per websocket and has no authentication, so this module
puts an aiohttp middleware in front of every route: without a valid session cookie a request is
sent to ``/login`` (the websocket is refused). Users and passwords are those of
``unmask serve ssh`` (salted scrypt hashes, written by :func:`tui.serve.ssh.add_password`).
Sessions live in memory: restarting the server logs everyone out.

Logins go through the same :class:`~tui.serve.auth.AuthGuard` as ``serve ssh``: a growing delay
per source address and per user name after failures, then a lockout (answered with HTTP 429,
without hashing); every failure is a line in ``auth.log``; hashing runs off the event loop, a few
at a time. The source address is the connection's peer; ``X-Forwarded-For`` counts only when that
peer is a proxy the host named (``--trusted-proxy``), otherwise any client could pick its own.

Each websocket's app process is the served app (``python -m tui.serve.child``) on the lobby of
the shared tables, the same table service as ``unmask serve ssh``. The user name reaches it
in its environment (``UNMASK_USER``), taken from the server's own session store by the cookie;
nothing else the browser sends decides who plays.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import logging
import os
import secrets
import shlex
import signal
import socket
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import aiohttp
import aiohttp_jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from tui.serve.auth import (
    AuthGuard,
    AuthLimits,
    close_auth_log,
    safe_name,
    setup_auth_log,
    user_name_problem,
)
from tui.serve.auth import log as auth_log
from tui.serve.forkserver import ForkedChild, ForkServer, ForkServerError
from tui.serve.limits import clamp_terminal_size
from tui.serve.pool import PooledApp, WarmPool, read_past
from tui.serve.ssh import ServeError, default_passwords_file, open_tables, read_passwords, until_stopped

if TYPE_CHECKING:
    from tui.serve.tables import TableService

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
COOKIE = "unmask_session"
log = logging.getLogger("unmask.web")
SESSION_SECONDS = 12 * 3600
OPEN_PATHS = ("/login", "/favicon.ico")
DEFAULT_MAX_SESSIONS = 20
DEFAULT_MAX_PER_USER = 4
DEFAULT_HEADER_TIMEOUT = 10.0  # s to send a request's headers, and idle between requests
DEFAULT_BODY_TIMEOUT = 10.0  # s to send a login form's body
DEFAULT_MAX_CONNECTIONS = 512  # TCP connections in all (each is a file descriptor)
DEFAULT_MAX_UNFINISHED = 128  # connections without a complete request yet, in all ...
DEFAULT_MAX_UNFINISHED_PER_ADDRESS = 16  # ... and per address (the oldest is closed to make room)
MAX_LOGIN_BODY = 16 * 1024
BIND_TIMEOUT = 10.0  # s for a pooled app to answer its user (else it is killed and a fresh one forked)
MESSAGES_PER_SECOND = 200  # from one page (keys, pastes, sizes); more wait, and TCP slows the page
RESIZE_GAP = 0.05  # s: at most one size per this to the app (the latest; a drag sends dozens)
# Without --public-url the page names its websocket relatively: this makes it absolute from the
# browser's own address (old browsers need ws:// or wss://), never from the request's Host header.
WS_FROM_LOCATION = """<script>(function () {
  var t = document.getElementById("terminal"), u = t && t.dataset.sessionWebsocketUrl;
  if (u && u.charAt(0) === "/") {
    t.dataset.sessionWebsocketUrl = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + u;
  }
})();</script>
"""
FULL_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>unmask: full</title></head>
<body style="font-family: sans-serif; background: #1e1e2e; color: #eee; text-align: center; padding-top: 20vh">
<p>{message}</p><p><a style="color: #9cf" href="/">Try again</a></p></body></html>
"""


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of a URL, lower case, default ports dropped; None if it is not http(s)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in ("http", "https") or not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    if port is None or (scheme, port) in (("http", 80), ("https", 443)):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def parse_proxies(proxies: Iterable[str] | None) -> frozenset[str]:
    """The trusted proxies' addresses, normalised; ServeError (one line) for one that is not an IP."""
    out = set()
    for p in proxies or ():
        try:
            out.add(str(ipaddress.ip_address(p.strip())))
        except ValueError:
            raise ServeError(f"--trusted-proxy must be an IP address, not {p!r}.") from None
    return frozenset(out)


def _ip(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip().strip("[]")))
    except ValueError:
        return None


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host == "localhost"
    return True

LOGIN_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>unmask: log in</title>
<style>
 body {{ font-family: sans-serif; background: #1e1e2e; color: #eee; display: flex; justify-content: center; }}
 form {{ margin-top: 12vh; display: flex; flex-direction: column; gap: 1em; width: min(22em, 90vw); }}
 input, button {{ font-size: 1.3em; padding: .6em; border-radius: .3em; border: 1px solid #666; }}
 button {{ background: #3b6fd4; color: white; }}
 .error {{ color: #ff8080; }}
</style></head>
<body><form method="post" action="/login">
<h1>unmask</h1>
{error}
<label>User <input name="user" autocomplete="username" autocapitalize="none" required autofocus></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Log in</button>
</form></body></html>
"""


@dataclass
class Sessions:
    """Logged-in browsers: random token → (user, expiry)."""

    seconds: float = SESSION_SECONDS
    tokens: dict[str, tuple[str, float]] = field(default_factory=dict)

    def new(self, user: str) -> str:
        token = secrets.token_urlsafe(32)
        self.tokens[token] = (user, time.time() + self.seconds)
        return token

    def user(self, token: str | None) -> str | None:
        if not token:
            return None
        entry = self.tokens.get(token)
        if entry is None:
            return None
        if entry[1] < time.time():
            self.tokens.pop(token, None)
            return None
        return entry[0]


class ForkedApp:
    """An app forked by the fork server on one end of a socketpair, shaped as the asyncio
    ``Process`` textual-serve's :class:`AppService` drives (``stdin``, ``stdout``, ``wait()``...).

    The app's stdin and stdout are the socket (the fork server makes them so; its stderr stays the
    server's, so nothing it prints can break the packets); it runs Textual's web driver (the fork
    server was started with ``TEXTUAL_DRIVER`` set to it).
    """

    def __init__(self, child: ForkedChild, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.pid = child.pid
        self._child = child
        self.stdout = reader
        self.stdin = writer
        self.stderr = asyncio.StreamReader()
        self.stderr.feed_eof()
        self._transport = writer.transport  # closed by UserAppService.stop

    @property
    def returncode(self) -> int | None:
        return self._child.returncode

    async def wait(self) -> int:
        return await self._child.wait()

    def _signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)  # the child is a session leader: its whole group

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)


def web_app_env(width: int = 80, height: int = 24) -> dict[str, str]:
    """What textual-serve gives an app process: Textual's web driver and the page's size."""
    return AppService("", write_bytes=_nothing, write_str=_nothing, close=_nothing,  # type: ignore[arg-type]
                      download_manager=None)._build_environment(width, height)  # type: ignore[arg-type]


async def _nothing(*_a: object) -> None:
    return None


class UserAppService(AppService):
    """textual-serve's app process, started with the logged-in user's name and the tables socket.

    An app of the warm ``pool`` (already on the lobby) when one is ready: it is given the user and
    the page's size and draws a full frame, with no start-up at all. Else, with a ready fork server
    (``forks``), the app is forked from it, warm (about a tenth of the CPU of a fresh
    interpreter); otherwise it is started as textual-serve does. ``pass_fds``: what the app
    inherits besides its pipes (the server's lifeline, :func:`tui.serve.child.watch_lifeline`).
    """

    def __init__(self, command: str, *, env: dict[str, str], forks: ForkServer | None = None,
                 pool: WarmPool | None = None, pass_fds: tuple[int, ...] = (), **kw) -> None:
        super().__init__(command, **kw)
        self.extra_env = env
        self.forks = forks
        self.pool = pool
        self.pass_fds = pass_fds
        self.pooled: PooledApp | None = None  # the warm-pool app this session was given, if any

    async def _open_pooled(self, width: int, height: int) -> ForkedApp | None:
        """This session's app from the warm pool (None if none is ready or it fails to answer)."""
        pool = self.pool
        app = pool.take() if pool is not None else None
        if pool is None or app is None:
            return None
        sock: socket.socket | None = None
        try:  # from here on the app is ours: every way out ends it
            env = self._build_environment(width=width, height=height)
            env.pop("UNMASK_SERVE_PTY", None)
            rest = await read_past(app.master, pool.give(app, env, (width, height)), BIND_TIMEOUT)
            loop = asyncio.get_running_loop()
            reader = asyncio.StreamReader(limit=1 << 20, loop=loop)
            reader.feed_data(rest)  # the prelude line textual-serve waits for, and what followed it
            sock = socket.socket(fileno=app.detach())
            transport, protocol = await loop.create_unix_connection(
                lambda: asyncio.StreamReaderProtocol(reader, loop=loop), sock=sock)
            writer = asyncio.StreamWriter(transport, protocol, reader, loop)
        except Exception as e:
            log.info("unmask web: a pooled app did not answer (%s); starting one", e.__class__.__name__)
            if sock is not None:
                sock.close()
            app.close(force=True)
            return None
        except BaseException:
            if sock is not None:
                sock.close()
            app.close(force=True)
            raise
        self.pooled = app
        self._process = process = ForkedApp(app.child, reader, writer)  # type: ignore[assignment]
        self._stdin = writer
        return process

    async def _open_app_process(self, width: int = 80, height: int = 24):  # type: ignore[no-untyped-def]
        pooled = await self._open_pooled(width, height)
        if pooled is not None:
            return pooled
        forks = self.forks
        if forks is None or not forks.ready:
            return await self._open_fresh(width, height)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            env = self._build_environment(width=width, height=height)
            env.pop("UNMASK_SERVE_PTY", None)  # a socket, not a pty
            child = await forks.launch(theirs.fileno(), env, [])
        except (ForkServerError, OSError):
            ours.close()
            return await self._open_fresh(width, height)
        finally:
            theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=ours, limit=1 << 20)
        self._process = process = ForkedApp(child, reader, writer)  # type: ignore[assignment]
        self._stdin = writer
        return process

    async def _open_fresh(self, width: int, height: int) -> asyncio.subprocess.Process:
        """A fresh process, as textual-serve starts one, also given ``pass_fds``."""
        self._process = process = await asyncio.create_subprocess_shell(
            self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self._build_environment(width=width, height=height),
            pass_fds=self.pass_fds)
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        for name in ("UNMASK_USER", "UNMASK_SSH_USER", "UNMASK_TABLES_SOCKET", "UNMASK_SERVE_PTY"):
            environment.pop(name, None)  # only what this server decides
        environment.update(self.extra_env)
        return environment

    async def stop(self) -> None:
        """textual-serve asks the app to quit; also wait for the process (no zombies), then insist."""
        try:
            await super().stop()
        except asyncio.CancelledError:  # the output task's, not this one's: go on ending the app
            if _cancelled():
                raise
        process = self._process
        if process is None:
            return
        try:
            for end in (None, process.terminate, process.kill):
                if process.returncode is not None:
                    break
                if end is not None:
                    with contextlib.suppress(ProcessLookupError):
                        end()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), 3.0)
        finally:  # its pipes too: textual-serve never closes them (one leaked transport per session)
            transport = getattr(process, "_transport", None)
            if transport is not None:
                transport.close()
            if self.pooled is not None:
                with contextlib.suppress(OSError):
                    self.pooled.control.close()

    async def run(self) -> None:
        """Copy the app's output; when the app ends (or dies), close its websocket, freeing the slot."""
        try:
            await super().run()
        except asyncio.CancelledError:
            if _cancelled():
                raise
            # not ours: textual-serve cancels its stderr reader when the output ends, and awaiting a
            # reader that never ran raises (a pooled app's output is already there, the page gone)
        finally:
            with contextlib.suppress(Exception):
                await self.remote_close()


def _cancelled() -> bool:
    """Whether the running task itself is being cancelled (not just an awaited one that was)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _size(value: str | None, default: int) -> int:
    """A terminal dimension from the page's query string; the caller clamps it."""
    try:
        return int(value or default)
    except ValueError:
        return default


def _resize(data: object) -> tuple[int, int] | None:
    """The clamped ``(width, height)`` of a page's ``resize`` message, None if it is not one."""
    if not isinstance(data, dict):
        return None
    width, height = data.get("width"), data.get("height")
    if type(width) is not int or type(height) is not int:  # bool, float, str: not a size
        return None
    return clamp_terminal_size(width, height)


class PasswordServer(Server):
    """textual-serve's Server with a login form and a session cookie in front of every route."""

    def __init__(self, command: str, host: str, port: int, passwords_file: Path, public_url: str | None = None,
                 secure_cookie: bool = False, tables_socket: Path | str | None = None,
                 max_sessions: int = DEFAULT_MAX_SESSIONS, max_per_user: int = DEFAULT_MAX_PER_USER,
                 limits: AuthLimits | None = None, trusted_proxies: Iterable[str] | None = None) -> None:
        public_url = public_url.rstrip("/") if public_url else None
        if public_url is not None and origin_of(public_url) is None:
            raise ServeError(f"--public-url must be an http:// or https:// address, not {public_url!r}.")
        super().__init__(command, host=host, port=port, title="unmask", public_url=public_url)
        self.passwords_file = passwords_file
        self.sessions = Sessions()
        self.secure_cookie = secure_cookie
        self.tables_socket = str(tables_socket) if tables_socket else None
        self.configured_url = public_url  # None: the page's URLs are relative
        self.max_sessions = max(1, max_sessions)
        self.max_per_user = max(1, max_per_user)
        self.live: dict[str, int] = {}  # user → app processes running for them
        self.trusted_proxies = parse_proxies(trusted_proxies)
        self.guard = AuthGuard(self._users, limits)
        self.body_timeout = DEFAULT_BODY_TIMEOUT
        self.forks: ForkServer | None = None  # warm app starts (start_web_server(warm=True))
        self.pool: WarmPool | None = None  # apps waiting on the lobby for their user (start_web_server(pool=))
        self.lifeline: tuple[int, int] | None = None  # (read, write): every app ends when this process does
        self._endings: set[asyncio.Future] = set()  # sessions being ended (each frees its place when done)

    def _users(self) -> dict[str, dict]:
        try:
            return read_passwords(self.passwords_file)
        except ServeError:
            return {}

    def client_address(self, request: web.Request) -> str:
        """Whom a login is counted against: the peer, or what a trusted proxy says the client is.

        A trusted proxy appends the address it saw to ``X-Forwarded-For``, so the entries are read
        from the right, skipping trusted proxies; anything a client wrote itself lies to the left.
        """
        peer = _ip(request.remote or "") or (request.remote or "unknown")
        if peer not in self.trusted_proxies:
            return peer
        hops = [h for v in request.headers.getall("X-Forwarded-For", []) for h in v.split(",")]
        for hop in reversed(hops):
            ip = _ip(hop)
            if ip is None:
                return peer  # a damaged header: count against the proxy itself, never a guessed address
            if ip not in self.trusted_proxies:
                return ip
        return peer

    # ------------------------------------------------------------- limits and origins

    @property
    def running(self) -> int:
        return sum(self.live.values())

    def full_message(self, user: str) -> str | None:
        """Why one more app process cannot start for ``user`` now (None: it can)."""
        if self.running >= self.max_sessions:
            return f"unmask: the server is full ({self.max_sessions} players); please try again later."
        if self.live.get(user, 0) >= self.max_per_user:
            return (f"unmask: you already have {self.max_per_user} sessions open here; "
                    "close one (another tab or device) and try again.")
        return None

    def origin_allowed(self, request: web.Request) -> bool:
        """May a page from the request's Origin drive this server? (A browser always says where it is.)

        With a public URL, only that origin. Without one, the origin must be this very server as the
        browser reached it (same as the Host it asked for) and be an address (an IP, or localhost)
        or the host the server listens on, so a page of another site, or a name rebound to this
        machine, is refused. No Origin at all is not a browser (and has no cookie of a victim).
        """
        origin = request.headers.get("Origin")
        if origin is None:
            return True
        got = origin_of(origin)
        if got is None:
            return False
        if self.configured_url is not None:
            return got == origin_of(self.configured_url)
        asked = origin_of(f"{request.scheme}://{request.host}")
        host = urlsplit(got).hostname or ""
        return got == asked and (_is_address(host) or host == self.host.lower())

    def app_env(self, user: str) -> dict[str, str]:
        """The environment that makes an app process this user's, at the shared tables."""
        env = {"UNMASK_USER": user}
        if self.tables_socket:
            env["UNMASK_TABLES_SOCKET"] = self.tables_socket
        if self.lifeline is not None:
            env["UNMASK_LIFELINE"] = str(self.lifeline[0])
        return env

    def close_lifeline(self) -> None:
        """Close both ends of the lifeline: apps still running (none after a clean stop) quit."""
        ends, self.lifeline = self.lifeline, None
        for fd in ends or ():
            with contextlib.suppress(OSError):
                os.close(fd)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One app process per websocket, as textual-serve does, but started for the cookie's user."""
        user = self.sessions.user(request.cookies.get(COOKIE))
        if not user:  # the middleware already refused it; never start an app for nobody
            raise web.HTTPUnauthorized(text="Log in first.")
        if not self.origin_allowed(request):
            log.warning("unmask web: websocket refused for Origin %r", request.headers.get("Origin"))
            raise web.HTTPForbidden(text="This page may not open a session here (Origin).")
        websocket = web.WebSocketResponse(heartbeat=15)
        full = self.full_message(user)
        if full is not None:  # say it in the terminal, then close: the page shows "Session ended"
            await websocket.prepare(request)
            with contextlib.suppress(Exception):
                await websocket.send_bytes(f"\r\n {full}\r\n".encode())
                await websocket.close(code=aiohttp.WSCloseCode.TRY_AGAIN_LATER, message=b"full")
            return websocket
        self.live[user] = self.live.get(user, 0) + 1
        service: AppService | None = None
        try:
            await websocket.prepare(request)
            service = UserAppService(self.command, env=self.app_env(user), forks=self.forks, pool=self.pool,
                                     pass_fds=self.lifeline[:1] if self.lifeline else (),
                                     write_bytes=websocket.send_bytes,
                                     write_str=websocket.send_str, close=websocket.close,
                                     download_manager=self.download_manager, debug=self.debug)
            await service.start(*clamp_terminal_size(_size(request.query.get("width"), 80),
                                                     _size(request.query.get("height"), 24)))
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as e:  # a broken socket or a bad message from the page: end this one quietly
            log.info("unmask web: a session ended: %s", e.__class__.__name__)
        finally:  # even if this handler is cancelled: the app ends and the place is freed
            ending = asyncio.ensure_future(self._end_session(user, service))
            self._endings.add(ending)
            ending.add_done_callback(self._endings.discard)
            await asyncio.shield(ending)
        return websocket

    async def _end_session(self, user: str, service: AppService | None) -> None:
        try:
            if service is not None:
                with contextlib.suppress(Exception):
                    await service.stop()
        finally:
            self.live[user] -= 1
            if self.live[user] <= 0:
                self.live.pop(user, None)

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: AppService) -> None:
        """The page's messages to its app, as textual-serve passes them, but every size clamped.

        A ``resize`` to 32000×32000 would make the app allocate gigabytes; a message that is not
        what the page sends is dropped (the session goes on). Sizes reach the app at most every
        ``RESIZE_GAP`` (the latest one), and a page sending more than ``MESSAGES_PER_SECOND``
        is read more slowly, so one user's flood cannot take the CPU from the others.
        """
        loop = asyncio.get_running_loop()
        budget, refilled = float(MESSAGES_PER_SECOND), loop.time()
        last_resize = -RESIZE_GAP
        pending: list[tuple[int, int]] = []  # the latest size not sent yet
        later: asyncio.TimerHandle | None = None
        sending: set[asyncio.Task] = set()

        def send_pending() -> None:
            nonlocal last_resize, later
            later = None
            if pending:
                last_resize = loop.time()
                task = loop.create_task(app_service.set_terminal_size(*pending.pop()))
                sending.add(task)
                task.add_done_callback(sending.discard)

        try:
            async for message in websocket:
                now = loop.time()  # a token bucket: a flood waits here, and TCP slows the page down
                budget = min(float(MESSAGES_PER_SECOND), budget + (now - refilled) * MESSAGES_PER_SECOND)
                refilled = now
                budget -= 1
                if budget < 0:
                    await asyncio.sleep(-budget / MESSAGES_PER_SECOND)
                if message.type != aiohttp.WSMsgType.TEXT:
                    continue
                try:
                    envelope = message.json()
                except ValueError:
                    continue
                if not isinstance(envelope, list) or len(envelope) < 1:
                    continue
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
                if kind == "stdin" and isinstance(data, str):
                    await app_service.send_bytes(data.encode("utf-8", "replace"))
                elif kind == "resize":
                    size = _resize(data)
                    if size is None:
                        continue
                    pending[:] = [size]  # only the latest counts: a dragged window sends dozens
                    wait = last_resize + RESIZE_GAP - loop.time()
                    if wait <= 0:
                        send_pending()
                    elif later is None:
                        later = loop.call_later(wait, send_pending)
                    continue
                elif kind == "ping" and isinstance(data, str) and len(data) <= 64:
                    await websocket.send_json(["pong", data])
                elif kind == "blur":
                    await app_service.blur()
                elif kind == "focus":
                    await app_service.focus()
        finally:
            if later is not None:
                later.cancel()

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self._require_login)
        app.router.add_get("/login", self.handle_login_page)
        app.router.add_post("/login", self.handle_login)
        app.router.add_get("/logout", self.handle_logout)
        return app

    async def on_startup(self, app: web.Application) -> None:  # no logo banner
        return None

    @web.middleware
    async def _require_login(self, request: web.Request, handler):
        if request.method not in ("GET", "HEAD") and not self.origin_allowed(request):
            raise web.HTTPForbidden(text="This page may not post here (Origin).")  # no login from other sites
        if request.path in OPEN_PATHS or self.sessions.user(request.cookies.get(COOKIE)):
            return await handler(request)
        if request.path == "/ws":
            raise web.HTTPUnauthorized(text="Log in first.")
        raise web.HTTPSeeOther("/login")

    async def handle_index(self, request: web.Request) -> web.Response:
        """The app's page. Its URLs come from ``--public-url``, or are relative: never from the Host header."""
        user = self.sessions.user(request.cookies.get(COOKIE)) or ""
        full = self.full_message(user)
        if full is not None:
            return web.Response(text=FULL_PAGE.format(message=html.escape(full)), content_type="text/html",
                                status=503, headers={"Cache-Control": "no-store", "Retry-After": "60"})
        base = self.configured_url or ""
        if base:
            scheme, rest = base.split(":", 1)
            ws_url = ("wss:" if scheme.lower() == "https" else "ws:") + rest + "/ws"
        else:
            ws_url = "/ws"
        try:
            font_size = max(6, min(48, int(request.query.get("fontsize", "16"))))
        except ValueError:
            font_size = 16
        context = {"font_size": font_size, "app_websocket_url": ws_url, "ping_url": "",
                   "config": {"static": {"url": base + "/static/"}}, "application": {"name": self.title}}
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        if not base and response.text:
            response.text = response.text.replace("</body>", WS_FROM_LOCATION + "</body>", 1)
        response.headers["Cache-Control"] = "no-store"
        return response

    def _page(self, error: str = "", status: int = 200) -> web.Response:
        err = f'<p class="error">{html.escape(error)}</p>' if error else ""
        return web.Response(text=LOGIN_PAGE.format(error=err), content_type="text/html", status=status,
                            headers={"Cache-Control": "no-store"})

    async def handle_login_page(self, request: web.Request) -> web.Response:
        return self._page()

    def _locked_page(self, seconds: float) -> web.Response:
        minutes = max(1, round(seconds / 60))
        response = self._page(f"Locked out. Too many wrong passwords from here: logging in from here is refused "
                              f"for about {minutes} minute{'s' if minutes > 1 else ''}. Try again later, from "
                              f"another network, or ask the host to run: unmask serve unlock NAME.", status=429)
        response.headers["Retry-After"] = str(max(1, int(seconds + 0.999)))
        return response

    async def handle_login(self, request: web.Request) -> web.Response:
        if (request.content_length or 0) > MAX_LOGIN_BODY:
            raise web.HTTPRequestEntityTooLarge(max_size=MAX_LOGIN_BODY, actual_size=request.content_length or 0)
        try:
            form = await asyncio.wait_for(request.post(), self.body_timeout)
        except TimeoutError:
            raise web.HTTPRequestTimeout(text="The login form took too long to arrive.") from None
        user = str(form.get("user", "")).strip()
        password = str(form.get("password", ""))
        address = self.client_address(request)
        problem = user_name_problem(user)
        if problem:  # never hashed (no account has such a name), but counted and delayed like a wrong password
            await self.guard.refuse(address, user, f"web login for an invalid user name {safe_name(user)}")
            left = self.guard.locked_for(address, user)
            return self._locked_page(left) if left > 0 else self._page(problem, status=401)
        left = self.guard.locked_for(address, user)
        if left > 0:  # answered at once and without hashing, however many tries wait in line
            auth_log.warning("refused web login for user %s from %s: locked out for %.0f s more",
                             safe_name(user), address, left, extra={"source": address})
            return self._locked_page(left)
        if not await self.guard.check(address, user, password):  # waits after failures; hashes in the pool
            left = self.guard.locked_for(address, user)
            if left > 0:
                return self._locked_page(left)
            return self._page("Wrong user or password.", status=401)
        response = web.HTTPSeeOther("/")
        response.set_cookie(COOKIE, self.sessions.new(user), max_age=int(self.sessions.seconds), httponly=True,
                            samesite="Strict", secure=self.secure_cookie, path="/")
        raise response

    async def handle_logout(self, request: web.Request) -> web.Response:
        self.sessions.tokens.pop(request.cookies.get(COOKIE, ""), None)
        response = web.HTTPSeeOther("/login")
        response.del_cookie(COOKIE, path="/")
        raise response


@dataclass
class WebServer:
    """A running web server: ``port`` (the real one when 0 was asked); ``await close()``."""

    server: PasswordServer
    runner: web.AppRunner
    host: str
    port: int
    tables: TableService | None = None  # None when tables are off or another server runs the service
    listener: asyncio.Server | None = None
    limiter: ConnectionLimiter | None = None

    async def close(self) -> None:
        if self.listener is not None:
            self.listener.close()
        if self.server.pool is not None:
            await self.server.pool.close()
        await self.runner.cleanup()
        if self.server.forks is not None:
            await self.server.forks.close()
        self.server.guard.close()
        close_auth_log()
        if self.tables is not None:
            await self.tables.close()
        self.server.close_lifeline()


class _Connection(asyncio.Protocol):
    """One TCP connection: aiohttp's handler behind a counter that can close it early."""

    def __init__(self, limiter: ConnectionLimiter, handler: asyncio.Protocol) -> None:
        self.limiter, self.handler = limiter, handler
        self.transport: asyncio.Transport | None = None
        self.address = "?"
        self.pending = True  # no request received yet: it counts against the unfinished caps
        self.opened = 0.0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.opened = time.monotonic()
        if not self.limiter.admit(self):
            transport.abort()
            return
        self.handler.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.handler.data_received(data)
        if self.pending and getattr(self.handler, "_request_count", 1):
            self.limiter.finished_headers(self)

    def eof_received(self) -> bool | None:
        return self.handler.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.limiter.forget(self):
            self.handler.connection_lost(exc)

    def pause_writing(self) -> None:
        self.handler.pause_writing()

    def resume_writing(self) -> None:
        self.handler.resume_writing()


class ConnectionLimiter:
    """Caps on TCP connections, so a slow-loris cannot take every place or every file descriptor.

    A connection is *unfinished* until its first request's headers are in (aiohttp closes it
    after ``header_timeout`` s). At most ``max_unfinished_per_address`` unfinished connections per
    address and ``max_unfinished`` in all: over either cap the *oldest* unfinished ones are closed to
    make room, if they are older than ``min_age`` (a browser sends its headers at once, so it is
    never the oldest for long, and a real login gets in however many idle connections others
    hold; twenty players arriving together behind one address are not closed before the server
    has read them). At most ``max_connections`` in all: over that the oldest unfinished one is
    closed, or, if none, the new one refused.
    """

    def __init__(self, factory: Callable[[], asyncio.Protocol], max_connections: int,
                 max_unfinished: int, max_unfinished_per_address: int) -> None:
        self.factory = factory
        self.max_connections = max(1, max_connections)
        self.max_unfinished = max(1, max_unfinished)
        self.max_per_address = max(1, max_unfinished_per_address)
        self.min_age = 1.0  # s: an unfinished connection younger than this is never closed for room
        self.open: set[_Connection] = set()
        self.unfinished: dict[str, list[_Connection]] = {}  # address -> oldest first
        self.evicted = 0
        self.refused = 0

    def __call__(self) -> _Connection:
        return _Connection(self, self.factory())

    @property
    def unfinished_count(self) -> int:
        return sum(len(v) for v in self.unfinished.values())

    def _evict(self, conn: _Connection) -> None:
        self.evicted += 1
        self._drop_unfinished(conn)
        if conn.transport is not None:
            conn.transport.abort()

    def _drop_unfinished(self, conn: _Connection) -> None:
        waiting = self.unfinished.get(conn.address)
        if waiting and conn in waiting:
            waiting.remove(conn)
            if not waiting:
                del self.unfinished[conn.address]
        conn.pending = False

    def _oldest(self) -> _Connection | None:
        firsts = [v[0] for v in self.unfinished.values() if v]
        return min(firsts, key=lambda c: c.opened) if firsts else None

    def admit(self, conn: _Connection) -> bool:
        """Room for ``conn``: old unfinished connections over the caps are closed first."""
        old = time.monotonic() - self.min_age  # younger ones may just not have been read yet
        if len(self.open) >= self.max_connections:
            victim = self._oldest()
            if victim is None:
                self.refused += 1
                if self.refused in (1, 10, 100) or self.refused % 1000 == 0:
                    log.warning("unmask web: %d connections open (the cap): refused one from %s "
                                "(%d refused so far)", len(self.open), conn.address, self.refused)
                return False
            self._evict(victim)
        mine = self.unfinished.get(conn.address, [])
        while len(mine) >= self.max_per_address and mine[0].opened <= old:
            self._evict(mine[0])
            mine = self.unfinished.get(conn.address, [])
        while self.unfinished_count >= self.max_unfinished:
            victim = self._oldest()
            if victim is None or victim.opened > old:
                break
            self._evict(victim)
        self.unfinished.setdefault(conn.address, []).append(conn)
        self.open.add(conn)
        return True

    def finished_headers(self, conn: _Connection) -> None:
        self._drop_unfinished(conn)

    def forget(self, conn: _Connection) -> bool:
        """The connection is gone; True if it had been admitted (its handler must hear of it)."""
        self._drop_unfinished(conn)
        if conn in self.open:
            self.open.discard(conn)
            return True
        return False


def app_command() -> str:
    return f"{shlex.quote(sys.executable)} -m tui.serve.child"


async def start_web_server(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                           passwords_file: Path | str | None = None, public_url: str | None = None,
                           command: str | None = None, tables: bool = True,
                           max_sessions: int = DEFAULT_MAX_SESSIONS,
                           max_per_user: int = DEFAULT_MAX_PER_USER, limits: AuthLimits | None = None,
                           trusted_proxies: Iterable[str] | None = None,
                           header_timeout: float = DEFAULT_HEADER_TIMEOUT, body_timeout: float = DEFAULT_BODY_TIMEOUT,
                           max_connections: int = DEFAULT_MAX_CONNECTIONS, max_unfinished: int = DEFAULT_MAX_UNFINISHED,
                           max_unfinished_per_address: int = DEFAULT_MAX_UNFINISHED_PER_ADDRESS,
                           warm: bool = True, pool: int | None = None) -> WebServer:
    """Listen on ``host:port`` (0 = any free port); ServeError (one line) for a bad configuration.

    ``limits`` set how guessing is slowed (as for ``serve ssh``; ``max_auth_tries`` does not apply:
    HTTP has no login connection). ``trusted_proxies``: peers whose ``X-Forwarded-For`` is believed.
    ``header_timeout`` / ``body_timeout``: seconds a client has to send a request's headers (and to
    wait idle between requests) / a login form's body; the connection caps: :class:`ConnectionLimiter`.
    With ``warm`` (and the default ``command``) app processes are forked from a warm fork server
    (:mod:`tui.serve.forkserver`, started here with Textual's web driver) once it is ready, and,
    with ``tables`` too, ``pool`` apps (default: ``max_sessions``; 0 for none) wait ready on the
    lobby, each for one user (:mod:`tui.serve.pool`): a page's lobby needs no start-up at all.
    Every app ends with this process, even under ``kill -9`` (the lifeline).

    With ``tables`` (the default) every app opens on the lobby of the shared tables: the table
    service of ``unmask serve ssh`` if one runs on this data dir, else one started here.
    """
    pw = Path(passwords_file) if passwords_file else default_passwords_file()
    if not read_passwords(pw):
        raise ServeError(f"No users in {pw}: add one first (unmask serve passwd USER).")
    if public_url and origin_of(public_url) is None:
        raise ServeError(f"--public-url must be an http:// or https:// address, not {public_url!r}.")
    parse_proxies(trusted_proxies)  # a bad address is a clear error before anything starts
    sock, service = await open_tables() if tables else (None, None)
    server = PasswordServer(command or app_command(), host, port, pw, public_url=public_url,
                            secure_cookie=bool(public_url and public_url.startswith("https")), tables_socket=sock,
                            max_sessions=max_sessions, max_per_user=max_per_user, limits=limits,
                            trusted_proxies=trusted_proxies)
    setup_auth_log()
    # keepalive_timeout is also how long aiohttp waits for a connection's first request headers
    runner = web.AppRunner(await server._make_app(), handle_signals=False, access_log=None,
                           keepalive_timeout=max(0.5, header_timeout))
    await runner.setup()
    assert runner.server is not None
    limiter = ConnectionLimiter(runner.server, max_connections, max_unfinished, max_unfinished_per_address)
    try:
        listener = await asyncio.get_running_loop().create_server(limiter, host, port, backlog=128,
                                                                  reuse_address=True)
    except OSError as e:
        await runner.cleanup()
        server.guard.close()
        close_auth_log()
        if service is not None:
            await service.close()
        raise ServeError(f"Cannot listen on {host}:{port}: {e.strerror or e}.") from None
    server.body_timeout = body_timeout
    # Apps end with this process, even under kill -9 (tui.serve.child.watch_lifeline): they get the
    # read end of a pipe whose write end only this process holds (not inheritable).
    server.lifeline = os.pipe()
    if warm and command is None:
        env = web_app_env()
        for name in ("UNMASK_USER", "UNMASK_SSH_USER", "UNMASK_SERVE_PTY", "COLUMNS", "ROWS", "LINES",
                     "UNMASK_TABLES_SOCKET"):
            env.pop(name, None)
        env["PYTHONIOENCODING"] = "utf-8"
        env["UNMASK_LIFELINE"] = str(server.lifeline[0])
        server.forks = ForkServer(env, pass_fds=server.lifeline[:1])
        server.forks.start()
        size = server.max_sessions if pool is None else pool
        if sock is not None and size > 0:
            server.pool = WarmPool(server.forks, {**env, "UNMASK_TABLES_SOCKET": str(sock)}, size, kind="web")
            server.pool.start()
    real_port = listener.sockets[0].getsockname()[1] if listener.sockets else port
    return WebServer(server, runner, host, real_port, service, listener, limiter)


def serve_web(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, passwords_file: Path | str | None = None,
              public_url: str | None = None, tables: bool = True, max_sessions: int = DEFAULT_MAX_SESSIONS,
              max_per_user: int = DEFAULT_MAX_PER_USER, limits: AuthLimits | None = None,
              trusted_proxies: Iterable[str] | None = None, pool: int | None = None, announce=print,
              **caps: float) -> None:
    """Run the web server until Ctrl+C / SIGTERM (``caps``: the timeouts and connection caps)."""

    async def main() -> None:
        served = await start_web_server(host, port, passwords_file=passwords_file, public_url=public_url,
                                        tables=tables, max_sessions=max_sessions, max_per_user=max_per_user,
                                        limits=limits, trusted_proxies=trusted_proxies, pool=pool,
                                        **caps)  # type: ignore[arg-type]
        shown = public_url or f"http://{host}:{served.port}"
        announce(f"unmask: serving in the browser at {shown} (log in with a user of unmask serve passwd)")
        forks, warm_pool = served.server.forks, served.server.pool

        async def say_warm() -> None:
            for _ in range(1200):
                if forks is None or forks.ready:
                    break
                await asyncio.sleep(0.1)
            if forks is None or not forks.ready:
                return
            announce("unmask: warm (app processes start forked from a warm one)")
            for _ in range(3000):
                if warm_pool is None:
                    return
                if warm_pool.was_full:
                    announce(f"unmask: warm pool full ({warm_pool.size} apps wait on the lobby)")
                    return
                await asyncio.sleep(0.1)

        warm_task = asyncio.get_running_loop().create_task(say_warm())
        await until_stopped()
        warm_task.cancel()
        announce("unmask: stopping…")
        await served.close()

    asyncio.run(main())
