"""``unmask serve web``: the app in a browser (a tablet is enough), behind a password.

textual-serve starts one app process per websocket and has no authentication, so this module
puts an aiohttp middleware in front of every route: without a valid session cookie a request is
sent to ``/login`` (the websocket is refused). Users and passwords are those of
``unmask serve ssh`` (salted scrypt hashes, written by :func:`tui.serve.ssh.add_password`).
Sessions live in memory: restarting the server logs everyone out.

Each websocket's app process is the served app (``python -m tui.serve.child``) on the lobby of
the shared tables, the same table service as ``unmask serve ssh``. The user name reaches it
in its environment (``UNMASK_USER``), taken from the server's own session store by the cookie;
nothing else the browser sends decides who plays.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import secrets
import shlex
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from tui.serve.ssh import ServeError, check_password, default_passwords_file, open_tables, read_passwords

if TYPE_CHECKING:
    from tui.serve.tables import TableService

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
COOKIE = "unmask_session"
log = logging.getLogger("unmask.web")
SESSION_SECONDS = 12 * 3600
OPEN_PATHS = ("/login", "/favicon.ico")

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


class UserAppService(AppService):
    """textual-serve's app process, started with the logged-in user's name and the tables socket."""

    def __init__(self, command: str, *, env: dict[str, str], **kw) -> None:
        super().__init__(command, **kw)
        self.extra_env = env

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        for name in ("UNMASK_USER", "UNMASK_SSH_USER", "UNMASK_TABLES_SOCKET", "UNMASK_SERVE_PTY"):
            environment.pop(name, None)  # only what this server decides
        environment.update(self.extra_env)
        return environment

    async def stop(self) -> None:
        """textual-serve asks the app to quit; also wait for the process (no zombies), then insist."""
        await super().stop()
        process = self._process
        if process is None or process.returncode is not None:
            return
        for end in (None, process.terminate, process.kill):
            if end is not None:
                with contextlib.suppress(ProcessLookupError):
                    end()
            try:
                await asyncio.wait_for(process.wait(), 3.0)
                return
            except TimeoutError:
                continue


def _size(value: str | None, default: int, limit: int) -> int:
    """A terminal dimension from the page's query string (the browser's own window: harmless)."""
    try:
        return max(10, min(limit, int(value or default)))
    except ValueError:
        return default


class PasswordServer(Server):
    """textual-serve's Server with a login form and a session cookie in front of every route."""

    def __init__(self, command: str, host: str, port: int, passwords_file: Path, public_url: str | None = None,
                 secure_cookie: bool = False, tables_socket: Path | str | None = None) -> None:
        super().__init__(command, host=host, port=port, title="unmask", public_url=public_url)
        self.passwords_file = passwords_file
        self.sessions = Sessions()
        self.secure_cookie = secure_cookie
        self.tables_socket = str(tables_socket) if tables_socket else None
        self._url_from_request = public_url is None

    def app_env(self, user: str) -> dict[str, str]:
        """The environment that makes an app process this user's, at the shared tables."""
        env = {"UNMASK_USER": user}
        if self.tables_socket:
            env["UNMASK_TABLES_SOCKET"] = self.tables_socket
        return env

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One app process per websocket, as textual-serve does, but started for the cookie's user."""
        user = self.sessions.user(request.cookies.get(COOKIE))
        if not user:  # the middleware already refused it; never start an app for nobody
            raise web.HTTPUnauthorized(text="Log in first.")
        websocket = web.WebSocketResponse(heartbeat=15)
        service: AppService | None = None
        try:
            await websocket.prepare(request)
            service = UserAppService(self.command, env=self.app_env(user), write_bytes=websocket.send_bytes,
                                     write_str=websocket.send_str, close=websocket.close,
                                     download_manager=self.download_manager, debug=self.debug)
            await service.start(_size(request.query.get("width"), 80, 500),
                                _size(request.query.get("height"), 24, 300))
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as e:  # a broken socket or a bad message from the page: end this one quietly
            log.info("unmask web: a session ended: %s", e.__class__.__name__)
        finally:
            if service is not None:
                with contextlib.suppress(Exception):
                    await service.stop()
        return websocket

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
        if request.path in OPEN_PATHS or self.sessions.user(request.cookies.get(COOKIE)):
            return await handler(request)
        if request.path == "/ws":
            raise web.HTTPUnauthorized(text="Log in first.")
        raise web.HTTPSeeOther("/login")

    async def handle_index(self, request: web.Request):
        if self._url_from_request:  # the address the browser used, so a tablet's websocket goes to the same place
            self.public_url = f"{request.scheme}://{request.host}"
        return await super().handle_index(request)

    def _page(self, error: str = "", status: int = 200) -> web.Response:
        err = f'<p class="error">{html.escape(error)}</p>' if error else ""
        return web.Response(text=LOGIN_PAGE.format(error=err), content_type="text/html", status=status,
                            headers={"Cache-Control": "no-store"})

    async def handle_login_page(self, request: web.Request) -> web.Response:
        return self._page()

    async def handle_login(self, request: web.Request) -> web.Response:
        form = await request.post()
        user = str(form.get("user", "")).strip()
        password = str(form.get("password", ""))
        try:
            users = read_passwords(self.passwords_file)
        except ServeError:
            users = {}
        loop = asyncio.get_running_loop()
        ok = await loop.run_in_executor(None, check_password, users, user, password)
        if not ok:
            await asyncio.sleep(0.5)  # slow down guessing
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

    async def close(self) -> None:
        await self.runner.cleanup()
        if self.tables is not None:
            await self.tables.close()


def app_command() -> str:
    return f"{shlex.quote(sys.executable)} -m tui.serve.child"


async def start_web_server(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                           passwords_file: Path | str | None = None, public_url: str | None = None,
                           command: str | None = None, tables: bool = True) -> WebServer:
    """Listen on ``host:port`` (0 = any free port); ServeError (one line) for a bad configuration.

    With ``tables`` (the default) every app opens on the lobby of the shared tables: the table
    service of ``unmask serve ssh`` if one runs on this data dir, else one started here.
    """
    pw = Path(passwords_file) if passwords_file else default_passwords_file()
    if not read_passwords(pw):
        raise ServeError(f"No users in {pw}: add one first (unmask serve passwd USER).")
    sock, service = await open_tables() if tables else (None, None)
    server = PasswordServer(command or app_command(), host, port, pw, public_url=public_url,
                            secure_cookie=bool(public_url and public_url.startswith("https")), tables_socket=sock)
    runner = web.AppRunner(await server._make_app(), handle_signals=False, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as e:
        await runner.cleanup()
        if service is not None:
            await service.close()
        raise ServeError(f"Cannot listen on {host}:{port}: {e.strerror or e}.") from None
    real_port = port
    with contextlib.suppress(Exception):
        real_port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return WebServer(server, runner, host, real_port, service)


def serve_web(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, passwords_file: Path | str | None = None,
              public_url: str | None = None, tables: bool = True, announce=print) -> None:
    """Run the web server until Ctrl+C / SIGTERM."""

    async def main() -> None:
        served = await start_web_server(host, port, passwords_file=passwords_file, public_url=public_url,
                                        tables=tables)
        shown = public_url or f"http://{host}:{served.port}"
        announce(f"unmask: serving in the browser at {shown} (log in with a user of unmask serve passwd)")
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        announce("unmask: stopping…")
        await served.close()

    asyncio.run(main())
