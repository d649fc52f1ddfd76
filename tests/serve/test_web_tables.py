"""``unmask serve web`` at the shared tables: the login's user reaches the app; web and SSH share tables."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

import aiohttp
import pyte
from sshterm import Term

from engine.clue import ClueConfig
from tui.serve.lobby import table_names
from tui.serve.ssh import add_password, default_passwords_file, start_ssh_server
from tui.serve.web import start_web_server

SEATS = ["human", "human", "random"]


def run(coro, timeout: float = 80.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


class WebTerm:
    """A logged-in browser's websocket with the app's frames fed to a pyte screen."""

    def __init__(self, session: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse,
                 width: int, height: int) -> None:
        self.session = session
        self.ws = ws
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, base: str, user: str, password: str, width: int = 120, height: int = 40,
                   query: str = "") -> WebTerm:
        session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        r = await session.post(base + "/login", data={"user": user, "password": password}, allow_redirects=False)
        assert r.status == 303, await r.text()
        ws = await session.ws_connect(f"{base}/ws?width={width}&height={height}{query}")
        return cls(session, ws, width, height)

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.stream.feed(msg.data)
                self.changed.set()
        self.changed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, predicate, timeout: float = 30.0) -> str:
        test = (lambda s: predicate in s) if isinstance(predicate, str) else predicate
        deadline = time.monotonic() + timeout
        while not test(self.text()):
            left = deadline - time.monotonic()
            if left <= 0 or self._reader.done():
                raise AssertionError(f"timed out waiting for {predicate!r}; screen:\n{self.text()}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
        return self.text()

    async def settle(self, quiet: float = 0.3) -> None:
        while True:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), quiet)
            except TimeoutError:
                return

    def find(self, word: str) -> tuple[int, int]:
        for y, line in enumerate(self.screen.display):
            if word in line:
                return line.index(word), y
        raise AssertionError(f"{word!r} is not on screen:\n{self.text()}")

    async def click(self, x: int, y: int) -> None:
        """A tap: what xterm.js sends for a left click at 0-based cell (x, y)."""
        await self.ws.send_str(json.dumps(["stdin", f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m"]))

    async def close(self) -> None:
        await self.ws.close()
        await self.session.close()
        self._reader.cancel()


def test_the_web_app_belongs_to_the_logged_in_user(monkeypatch):
    add_password("alice", "secret")
    monkeypatch.setenv("UNMASK_USER", "mallory")  # the server's own environment does not decide either

    async def scenario():
        served = await start_web_server("127.0.0.1", 0, pool=1)
        base = f"http://127.0.0.1:{served.port}"
        assert served.tables is not None  # no SSH server here: the web server runs the table service
        try:
            # Whatever the page asks for in its query string, the app is alice's.
            t = await WebTerm.open(base, "alice", "secret", query="&user=mallory&UNMASK_USER=mallory")
            await t.wait_for("you are alice")
            assert "mallory" not in t.text()
            await t.close()
        finally:
            await served.close()
            await asyncio.sleep(0.3)

    run(scenario())


def test_a_web_player_and_an_ssh_player_at_one_table():
    add_password("alice", "a")
    add_password("bob", "b")

    async def scenario():
        ssh = await start_ssh_server("127.0.0.1", 0, passwords_file=default_passwords_file(), tables=True)
        web = await start_web_server("127.0.0.1", 0, pool=1)
        try:
            assert ssh.tables is not None and web.tables is None  # one service: the web server attached
            tid = ssh.tables.create(ClueConfig(board="red-keep", players=3,
                                               names=table_names("alice", SEATS)).to_json(), SEATS, seed=5)
            truth = ssh.tables.tables[tid].table
            hand_a, hand_b = truth.view(0)["hand"], truth.view(1)["hand"]
            a = await Term.open(ssh.port, "alice", password="a", width=120, height=40)
            await a.wait_for("Sit at seat 1")
            await a.settle()
            x, y = a.find("Sit at seat 1")
            a.click(x + 2, y)
            await a.wait_for("Your cards:")
            # Bob in a browser: the table made over SSH is in his lobby, with alice at seat 1.
            b = await WebTerm.open(f"http://127.0.0.1:{web.port}", "bob", "b")
            await b.wait_for("you are bob")
            await b.wait_for("Sit at seat 2")
            assert "Sit at seat 1" not in b.text() and "alice" in b.text()
            await b.settle()
            x, y = b.find("Sit at seat 2")
            await b.click(x + 2, y)
            await b.wait_for("Your cards:")
            await a.wait_for(lambda s: "Bot 3 to act" not in s)
            await b.wait_for(lambda s: "Bot 3 to act" not in s)
            await a.settle()
            await b.settle()
            assert ssh.tables.tables[tid].owners == {0: "alice", 1: "bob"}
            assert sorted(ssh.tables.tables[tid].watchers.values()) == [0, 1]
            # Each sees only their own cards.
            for text, mine, theirs in ((a.text(), hand_a, hand_b), (b.text(), hand_b, hand_a)):
                flat = " ".join(text.split())
                cards = flat[flat.index("Your cards:"):flat.index("Plot:")]
                assert all(c in cards for c in mine), cards
                assert not any(c in cards for c in theirs if c not in mine), cards
            await a.close()
            await b.close()
        finally:
            await web.close()
            ssh.close()
            await ssh.wait_closed()
            await asyncio.sleep(0.3)

    run(scenario())
