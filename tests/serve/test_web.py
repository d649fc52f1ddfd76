"""``unmask serve web``: a password in front of textual-serve (HTTP and websocket level)."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from webclient import first_frames

from tui.serve.auth import AuthLimits
from tui.serve.ssh import ServeError, add_password
from tui.serve.web import COOKIE, start_web_server


def run(coro, timeout: float = 45.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def test_no_users_is_a_clear_error():
    with pytest.raises(ServeError, match="No users"):
        run(start_web_server("127.0.0.1", 0))


def test_login_required_then_the_app_is_served():
    add_password("alice", "secret")

    async def scenario():
        served = await start_web_server("127.0.0.1", 0, limits=AuthLimits(fail_delay=0.05, max_fail_delay=0.1), pool=1)
        base = f"http://127.0.0.1:{served.port}"
        try:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:  # IP host
                # Not logged in: every page sends you to the login form; the websocket is refused.
                for path in ("/", "/static/js/textual.js", "/download/x"):
                    r = await s.get(base + path, allow_redirects=False)
                    assert r.status == 303 and r.headers["Location"] == "/login", path
                r = await s.get(base + "/ws")
                assert r.status == 401
                r = await s.get(base + "/login")
                assert r.status == 200 and 'type="password"' in await r.text()
                # Wrong password, unknown user.
                for user, pw in (("alice", "nope"), ("mallory", "secret")):
                    r = await s.post(base + "/login", data={"user": user, "password": pw}, allow_redirects=False)
                    assert r.status == 401 and "Wrong user or password" in await r.text()
                assert not s.cookie_jar.filter_cookies(base).get(COOKIE)
                # Right password: a session cookie (HttpOnly, SameSite=Strict), then the app page.
                r = await s.post(base + "/login", data={"user": "alice", "password": "secret"}, allow_redirects=False)
                assert r.status == 303
                cookie = r.cookies[COOKIE]
                assert cookie["httponly"] and cookie["samesite"] == "Strict"
                r = await s.get(base + "/")
                page = await r.text()
                assert r.status == 200 and 'data-session-websocket-url="/ws"' in page  # relative: see test_web_limits
                # The websocket runs the app: its first frames carry the lobby (the served app's root).
                async with s.ws_connect(base + "/ws?width=100&height=40") as ws:
                    got = await first_frames(ws, b"Shared tables", text=True)
                assert b"Shared tables" in got and b"Hidden-information" not in got
                # Logging out ends the session.
                r = await s.get(base + "/logout", allow_redirects=False)
                assert r.status == 303
                r = await s.get(base + "/", allow_redirects=False)
                assert r.status == 303
        finally:
            await served.close()

    run(scenario())
