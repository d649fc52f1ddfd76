"""``unmask serve web``: the app in a browser (a tablet is enough), behind a password.

textual-serve starts one app process per websocket and has no authentication, so this module
puts an aiohttp middleware in front of every route: without a valid session cookie a request is
sent to ``/login`` (the websocket is refused). Users and passwords are those of
``unmask serve ssh`` (salted scrypt hashes, written by :func:`tui.serve.ssh.add_password`).
Sessions live in memory: restarting the server logs everyone out.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import secrets
import shlex
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import web
from textual_serve.server import Server

from tui.serve.ssh import ServeError, check_password, default_passwords_file, read_passwords

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
COOKIE = "unmask_session"
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


class PasswordServer(Server):
    """textual-serve's Server with a login form and a session cookie in front of every route."""

    def __init__(self, command: str, host: str, port: int, passwords_file: Path, public_url: str | None = None,
                 secure_cookie: bool = False) -> None:
        super().__init__(command, host=host, port=port, title="unmask", public_url=public_url)
        self.passwords_file = passwords_file
        self.sessions = Sessions()
        self.secure_cookie = secure_cookie
        self._url_from_request = public_url is None

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

    async def close(self) -> None:
        await self.runner.cleanup()


def app_command() -> str:
    return f"{shlex.quote(sys.executable)} -m tui.serve.child"


async def start_web_server(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                           passwords_file: Path | str | None = None, public_url: str | None = None,
                           command: str | None = None) -> WebServer:
    """Listen on ``host:port`` (0 = any free port); ServeError (one line) for a bad configuration."""
    pw = Path(passwords_file) if passwords_file else default_passwords_file()
    if not read_passwords(pw):
        raise ServeError(f"No users in {pw}: add one first (unmask serve passwd USER).")
    server = PasswordServer(command or app_command(), host, port, pw, public_url=public_url,
                            secure_cookie=bool(public_url and public_url.startswith("https")))
    runner = web.AppRunner(await server._make_app(), handle_signals=False, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as e:
        await runner.cleanup()
        raise ServeError(f"Cannot listen on {host}:{port}: {e.strerror or e}.") from None
    real_port = port
    with contextlib.suppress(Exception):
        real_port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return WebServer(server, runner, host, real_port)


def serve_web(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, passwords_file: Path | str | None = None,
              public_url: str | None = None, announce=print) -> None:
    """Run the web server until Ctrl+C / SIGTERM."""

    async def main() -> None:
        served = await start_web_server(host, port, passwords_file=passwords_file, public_url=public_url)
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
