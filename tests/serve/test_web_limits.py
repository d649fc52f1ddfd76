"""``unmask serve web`` facing the internet: plain aiohttp requests on loopback.

- The page's URLs come from ``--public-url`` or are relative: a forged Host header never reaches it.
- The websocket (and every form post) checks Origin: a page of another origin cannot drive the app.
- Each websocket starts an app process, so their number is capped (in all, and per login).
"""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest
from webclient import first_frames

from tui.serve.ssh import ServeError, add_password
from tui.serve.web import start_web_server


def run(coro, timeout: float = 60.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def logged_in(base: str, user: str = "alice", password: str = "secret") -> aiohttp.ClientSession:
    s = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    r = await s.post(base + "/login", data={"user": user, "password": password}, allow_redirects=False)
    assert r.status == 303
    return s


def test_the_page_never_repeats_the_host_header():
    add_password("alice", "secret")

    async def scenario():
        for public in (None, "https://games.example.org"):
            served = await start_web_server("127.0.0.1", 0, tables=False, public_url=public)
            base = f"http://127.0.0.1:{served.port}"
            try:
                s = aiohttp.ClientSession()
                r = await s.post(base + "/login", data={"user": "alice", "password": "secret"},
                                 allow_redirects=False)
                token = r.cookies["unmask_session"].value  # Secure with an https public URL: sent by hand
                r = await s.get(base + "/", headers={"Host": "evil.example:666", "Cookie": f"unmask_session={token}"})
                page = await r.text()
                assert r.status == 200
                assert "evil.example" not in page
                if public:
                    assert 'data-session-websocket-url="wss://games.example.org/ws"' in page
                    assert "https://games.example.org/static/js/textual.js" in page
                else:  # relative, made absolute by the browser from its own address
                    assert 'data-session-websocket-url="/ws"' in page
                    assert 'src="/static/js/textual.js"' in page and "location.host" in page
                await s.close()
            finally:
                await served.close()

    run(scenario())


def test_a_public_url_must_be_http():
    add_password("alice", "secret")
    with pytest.raises(ServeError, match="public-url"):
        run(start_web_server("127.0.0.1", 0, tables=False, public_url="javascript:alert(1)"))


def test_the_websocket_and_the_login_check_origin():
    add_password("alice", "secret")

    async def scenario():
        served = await start_web_server("127.0.0.1", 0, tables=False)
        base = f"http://127.0.0.1:{served.port}"
        try:
            s = await logged_in(base)
            for bad in ("http://evil.example", f"http://127.0.0.1:{served.port + 1}", "null",
                        f"http://rebound.example:{served.port}"):
                with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                    await s.ws_connect(base + "/ws", origin=bad)
                assert e.value.status == 403, bad
            # The rebound name also in Host (DNS rebinding): still refused, it is not this server's address.
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await s.ws_connect(base + "/ws", origin=f"http://rebound.example:{served.port}",
                                   headers={"Host": f"rebound.example:{served.port}"})
            # The page's own origin opens the app.
            async with s.ws_connect(base + "/ws?width=100&height=30", origin=base) as ws:
                assert b"Hidden-information" in await first_frames(ws, b"Hidden-information")
            # A login form posted from another site is refused (no login CSRF).
            r = await s.post(base + "/login", data={"user": "alice", "password": "secret"},
                             headers={"Origin": "http://evil.example"}, allow_redirects=False)
            assert r.status == 403
            await s.close()
        finally:
            await served.close()
        # With a public URL, only that origin.
        served = await start_web_server("127.0.0.1", 0, tables=False, public_url="https://games.example.org")
        base = f"http://127.0.0.1:{served.port}"
        try:
            s = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
            r = await s.post(base + "/login", data={"user": "alice", "password": "secret"},
                             headers={"Origin": "https://games.example.org"}, allow_redirects=False)
            assert r.status == 303
            token = r.cookies["unmask_session"].value
            s.cookie_jar.update_cookies({"unmask_session": token})
            with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                await s.ws_connect(base + "/ws", origin=base)
            assert e.value.status == 403
            async with s.ws_connect(base + "/ws?width=100&height=30", origin="https://games.example.org") as ws:
                assert b"Hidden-information" in await first_frames(ws, b"Hidden-information")
            await s.close()
        finally:
            await served.close()

    run(scenario(), 90)


def test_sessions_are_capped_in_all_and_per_login():
    add_password("alice", "secret")
    add_password("bob", "secret")

    async def scenario():
        served = await start_web_server("127.0.0.1", 0, tables=False, max_sessions=2, max_per_user=1)
        base = f"http://127.0.0.1:{served.port}"
        try:
            alice = await logged_in(base, "alice")
            bob = await logged_in(base, "bob")
            carol_is_alice = await logged_in(base, "alice")
            a = await alice.ws_connect(base + "/ws?width=100&height=30")
            assert b"Hidden-information" in await first_frames(a, b"Hidden-information")
            # Alice's second tab: her own limit.
            a2 = await carol_is_alice.ws_connect(base + "/ws?width=100&height=30")
            said = await first_frames(a2, b"sessions open here", timeout=10)
            assert b"sessions open here" in said
            assert (await a2.receive(timeout=5)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            b = await bob.ws_connect(base + "/ws?width=100&height=30")
            assert b"Hidden-information" in await first_frames(b, b"Hidden-information")
            assert served.server.running == 2
            # Full: the page says so, and one more websocket gets a sentence, not an app.
            r = await bob.get(base + "/")
            assert r.status == 503 and "full" in await r.text()
            b2 = await bob.ws_connect(base + "/ws?width=100&height=30")
            assert b"the server is full (2 players)" in await first_frames(b2, b"full", timeout=10)
            assert served.server.running == 2
            # When one leaves, a place is free again.
            await a.close()
            deadline = time.monotonic() + 15
            while served.server.running > 1 and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert served.server.running == 1
            a3 = await alice.ws_connect(base + "/ws?width=100&height=30")
            assert b"Hidden-information" in await first_frames(a3, b"Hidden-information")
            for ws in (a2, b, b2, a3):
                await ws.close()
            for sess in (alice, bob, carol_is_alice):
                await sess.close()
        finally:
            await served.close()
            await asyncio.sleep(0.3)

    run(scenario(), 120)


def test_origins_are_compared_exactly():
    from tui.serve.web import origin_of

    assert origin_of("HTTPS://Games.Example.org:443/x") == "https://games.example.org"
    assert origin_of("http://127.0.0.1:8000") == "http://127.0.0.1:8000"
    assert origin_of("null") is None and origin_of("file:///etc") is None
