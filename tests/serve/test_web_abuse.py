"""Issue 22 on the web: no size, connection flood or login noise takes ``unmask serve web`` down.

Real aiohttp clients and raw sockets on loopback against :func:`start_web_server`. The app behind
the websocket is, where only the server's behaviour matters, a tiny stand-in that speaks
textual-serve's packet protocol and echoes every control (``M``) packet back as output.
"""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
import time

import aiohttp

from tui.serve.limits import clamp_terminal_size
from tui.serve.ssh import add_password
from tui.serve.web import start_web_server

# Speaks textual-serve's protocol: the prelude, then echoes control packets; "die" in the input ends it.
ECHO_APP = r"""
import os, sys, struct
out = sys.stdout.buffer
out.write(b"__GANGLION__\n"); out.flush()
inp = sys.stdin.buffer
while True:
    head = inp.read(5)
    if len(head) < 5:
        break
    kind, size = head[:1], struct.unpack(">I", head[1:])[0]
    body = inp.read(size)
    if kind == b"M":
        out.write(b"D" + struct.pack(">I", len(body)) + body); out.flush()
    elif b"die" in body:
        os._exit(3)
"""


def echo_command() -> str:
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(ECHO_APP)}"


def run(coro, timeout: float = 60.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def logged_in(base: str, user: str = "alice", password: str = "secret") -> aiohttp.ClientSession:
    s = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    r = await s.post(base + "/login", data={"user": user, "password": password}, allow_redirects=False)
    assert r.status == 303, r.status
    return s


async def metas(ws: aiohttp.ClientWebSocketResponse, count: int, timeout: float = 10) -> list[dict]:
    """The next ``count`` control packets the stand-in app echoed (its output frames)."""
    got: list[dict] = []
    buf = b""
    deadline = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        msg = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
        if msg.type != aiohttp.WSMsgType.BINARY:
            continue
        buf += msg.data
        try:
            got.append(json.loads(buf))
            buf = b""
        except ValueError:
            continue
    return got


def test_the_size_limits():
    assert clamp_terminal_size(32000, 32000) == (500, 200)
    assert clamp_terminal_size(0, -5) == (1, 1)
    assert clamp_terminal_size(120, 40) == (120, 40)


def test_every_websocket_resize_is_clamped_and_a_dead_app_frees_its_slot():
    add_password("alice", "secret")

    async def scenario():
        served = await start_web_server("127.0.0.1", 0, tables=False, command=echo_command(), max_per_user=1)
        base = f"http://127.0.0.1:{served.port}"
        try:
            s = await logged_in(base)
            ws = await s.ws_connect(base + "/ws?width=32000&height=32000")
            for msg in (["resize", {"width": 32000, "height": 32000}], ["resize", {"width": "9" * 9, "height": 5}],
                        ["resize", [1, 2]], ["resize"], "not a list", ["resize", {"width": 90, "height": 0}]):
                await ws.send_str(json.dumps(msg))
            await ws.send_str("{not json")
            await ws.send_json(["resize", {"width": 100, "height": 30}])
            sizes = [(m["width"], m["height"]) for m in await metas(ws, 3) if m.get("type") == "resize"]
            # The bad messages changed nothing and did not end the session.
            assert sizes == [(500, 200), (90, 1), (100, 30)]
            assert served.server.live == {"alice": 1}
            await ws.send_json(["stdin", "die"])  # the app process ends by itself
            closed = await ws.receive(timeout=10)
            assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
            for _ in range(100):
                if not served.server.live:
                    break
                await asyncio.sleep(0.05)
            assert served.server.live == {}
            # The slot is free again: the same user (capped at one session) opens another.
            async with s.ws_connect(base + "/ws?width=80&height=24") as ws2:
                await ws2.send_json(["resize", {"width": 81, "height": 25}])
                assert [(m["width"], m["height"]) for m in await metas(ws2, 1)] == [(81, 25)]
            await ws.close()
            await s.close()
        finally:
            await served.close()

    run(scenario())
