"""Issue 14, finding 2 over the web: guessing passwords at the login form is slow, then locked out,
and logged; it never slows a player already in a session. Real aiohttp requests on loopback."""

from __future__ import annotations

import asyncio
import hashlib
import statistics
import threading
import time

import aiohttp
import pytest

from tui.serve.auth import AuthLimits
from tui.serve.ssh import ServeError, add_password
from tui.serve.web import COOKIE, start_web_server
from tui.storage import data_dir

LOCKS_AT_4 = AuthLimits(fail_delay=0.2, max_fail_delay=0.5, lockout_failures=4, lockout_time=60)
NO_LOCKOUT = AuthLimits(fail_delay=0.05, max_fail_delay=0.1, lockout_failures=1000, lockout_time=60)


def run(coro, timeout: float = 60.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def serving(scenario, **kw):
    add_password("alice", "secret")
    add_password("bob", "hunter2")
    kw.setdefault("tables", False)
    served = await start_web_server("127.0.0.1", 0, **kw)
    try:
        return await scenario(served, f"http://127.0.0.1:{served.port}")
    finally:
        await served.close()


async def login(base: str, user: str, password: str, source: str = "127.0.0.1",
                headers: dict[str, str] | None = None) -> tuple[int, str, float, aiohttp.ClientResponse]:
    """One login form posted from ``source``: (status, page, seconds it took, response)."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:
        t0 = time.monotonic()
        r = await s.post(base + "/login", data={"user": user, "password": password}, headers=headers,
                         allow_redirects=False)
        text = await r.text()
        return r.status, text, time.monotonic() - t0, r


def test_wrong_passwords_from_one_address_get_slower_then_locked_out_and_logged():
    async def scenario(served, base):
        answers = [await login(base, "alice", f"wrong{i}") for i in range(4)]
        hashed = served.server.guard.hashes
        # Locked out: even the right password is answered at once, without hashing, with 429.
        status, page, took, r = await login(base, "alice", "secret")
        return answers, hashed, (status, page, took, r.headers.get("Retry-After")), served.server.guard.hashes

    answers, hashed, locked, hashed_after = run(serving(scenario, limits=LOCKS_AT_4))
    assert [a[0] for a in answers[:3]] == [401, 401, 401]
    assert all("Wrong user or password" in a[1] for a in answers[:3])
    # The 2nd try waited 0.2 s after the 1st failure, the 3rd 0.4 s, the 4th 0.5 s (the cap).
    took = [a[2] for a in answers]
    assert took[1] >= 0.18 and took[2] >= 0.38 and took[3] >= 0.48
    assert answers[3][0] == 429 and "Too many wrong passwords" in answers[3][1]  # the failure that locks
    status, page, took_locked, retry_after = locked
    assert status == 429 and "Too many wrong passwords" in page and "Try again later" in page
    assert retry_after is not None and 1 <= int(retry_after) <= 60
    assert took_locked < took[3]  # no delay, no hash
    assert hashed == 4 and hashed_after == 4
    log = (data_dir() / "auth.log").read_text()
    assert log.count("failed password for user 'alice' from 127.0.0.1") == 4
    assert "address locked out" in log
    assert "refused web login for user 'alice' from 127.0.0.1: locked out" in log


def test_a_locked_out_address_does_not_lock_out_others():
    async def scenario(served, base):
        # 127.0.0.2 guesses four different names: the address is locked, none of the names is.
        for i in range(4):
            await login(base, f"user{i}", "guess", source="127.0.0.2")
        from_locked = await login(base, "bob", "hunter2", source="127.0.0.2")
        from_elsewhere = await login(base, "alice", "secret", source="127.0.0.1")
        return from_locked, from_elsewhere

    from_locked, (status, _page, _took, r) = run(serving(scenario, limits=LOCKS_AT_4))
    assert from_locked[0] == 429
    assert status == 303 and r.cookies.get(COOKIE) is not None
    assert "accepted password for user 'alice' from 127.0.0.1" in (data_dir() / "auth.log").read_text()


def test_x_forwarded_for_counts_only_from_a_trusted_proxy():
    async def untrusted(served, base):
        for i in range(4):  # a client naming a new address each time is still one address
            await login(base, f"user{i}", "guess", headers={"X-Forwarded-For": f"198.51.100.{i}"})
        return await login(base, "alice", "secret", headers={"X-Forwarded-For": "198.51.100.99"})

    assert run(serving(untrusted, limits=LOCKS_AT_4))[0] == 429

    async def behind_proxy(served, base):
        # The proxy (127.0.0.1) appends the address it saw: 203.0.113.5 guesses and is locked out.
        for i in range(4):
            await login(base, f"user{i}", "guess", headers={"X-Forwarded-For": "203.0.113.5"})
        forged = await login(base, "alice", "secret", headers={"X-Forwarded-For": "203.0.113.6, 203.0.113.5"})
        other = await login(base, "alice", "secret", headers={"X-Forwarded-For": "203.0.113.6"})
        return forged[0], other[0]

    assert run(serving(behind_proxy, limits=LOCKS_AT_4, trusted_proxies=["127.0.0.1"])) == (429, 303)
    assert "from 203.0.113.5" in (data_dir() / "auth.log").read_text()
    with pytest.raises(ServeError, match="trusted-proxy"):
        run(serving(behind_proxy, trusted_proxies=["proxy.example.org"]))


def test_a_name_that_cannot_be_a_user_is_refused_before_hashing():
    async def scenario(served, base):
        answers = [await login(base, name, "secret") for name in ("<b>mal", "[@click=app.quit]mal", "a" * 200)]
        return answers, served.server.guard.hashes

    answers, hashed = run(serving(scenario, limits=LOCKS_AT_4))
    assert hashed == 0
    assert [status for status, *_ in answers] == [401, 401, 401]
    assert "not a user name" in answers[0][1] and "not a user name" in answers[1][1]
    assert "at most 32 characters" in answers[2][1]
    assert "<b>mal" not in answers[0][1] and "&lt;b&gt;mal" in answers[0][1]  # shown escaped
    assert "refused web login for an invalid user name" in (data_dir() / "auth.log").read_text()


def test_a_served_session_keeps_answering_during_a_burst_of_wrong_logins(monkeypatch):
    real = hashlib.scrypt
    on_loop = {"hashes": 0, "on_loop": 0}
    main = threading.main_thread()

    def scrypt(*a, **kw):
        on_loop["hashes"] += 1
        on_loop["on_loop"] += threading.current_thread() is main
        return real(*a, **kw)

    async def scenario(served, base):
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:
            r = await s.post(base + "/login", data={"user": "bob", "password": "hunter2"}, allow_redirects=False)
            assert r.status == 303
            async with s.ws_connect(base + "/ws?width=100&height=30") as ws:
                got = bytearray()
                deadline = time.monotonic() + 30
                while b"Hidden-information" not in got and time.monotonic() < deadline:
                    msg = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
                    if msg.type != aiohttp.WSMsgType.BINARY:
                        assert msg.type == aiohttp.WSMsgType.TEXT
                        continue
                    got += msg.data
                assert b"Hidden-information" in got
                monkeypatch.setattr(hashlib, "scrypt", scrypt)
                # Thirty wrong logins at once, each from its own address (so each one is hashed).
                burst = asyncio.gather(*(login(base, "alice", f"guess{i}", source=f"127.0.0.{10 + i}")
                                         for i in range(30)))
                pongs: list[float] = []
                pages: list[float] = []
                for n in range(400):  # bounded: the burst takes a few seconds at most
                    if burst.done():
                        break
                    t0 = time.monotonic()
                    await ws.send_json(["ping", str(n)])
                    while True:
                        msg = await ws.receive(timeout=10)
                        if msg.type == aiohttp.WSMsgType.TEXT and msg.json() == ["pong", str(n)]:
                            break
                        assert msg.type in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY)
                    pongs.append(time.monotonic() - t0)
                    t0 = time.monotonic()
                    r = await s.get(base + "/", allow_redirects=False)
                    assert r.status == 200
                    pages.append(time.monotonic() - t0)
                answers = await burst
        return answers, pongs, pages, served.server.guard.hashes

    answers, pongs, pages, hashed = run(serving(scenario, limits=NO_LOCKOUT), 120)
    assert all(a[0] == 401 for a in answers) and hashed == 31
    assert on_loop["hashes"] == 30 and on_loop["on_loop"] == 0  # never hashed on the server's event loop
    assert len(pongs) >= 3  # the session was exercised during the burst, not after it
    assert max(pongs) < 1.0 and max(pages) < 1.5, (statistics.median(pongs), max(pongs), max(pages))
