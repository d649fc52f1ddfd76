"""Issue 22 on the web: ``serve web`` keeps a warm pool of apps already on the lobby, as ``serve ssh``
does, so twenty players arriving at once are not waiting for twenty app start-ups.

Real aiohttp clients on loopback (port 0) against :func:`start_web_server`; each page's output is
drawn through ``pyte`` as xterm.js would. The pool is the SSH server's (:mod:`tui.serve.pool`,
``kind="web"``): an app is handed out once, the pool refills, a pooled app ends with its server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pyte
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager
from waits import alive, run, until

from tui.serve import web
from tui.serve.ssh import add_password, default_passwords_file
from tui.serve.web import UserAppService, start_web_server

ROOT = Path(__file__).resolve().parents[2]


class Page:
    """A logged-in browser page: its websocket's output drawn on a ``pyte`` screen."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse, width: int,
                 height: int) -> None:
        self.http, self.ws = http, ws
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.changed = asyncio.Event()
        self.closed = False
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, base: str, user: str, password: str, width: int = 100, height: int = 30) -> Page:
        http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        r = await http.post(base + "/login", data={"user": user, "password": password}, allow_redirects=False)
        assert r.status == 303, r.status
        ws = await http.ws_connect(f"{base}/ws?width={width}&height={height}")
        return cls(http, ws, min(width, 500), min(height, 200))

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.raw += msg.data
                self.stream.feed(msg.data)
                self.changed.set()
        self.closed = True
        self.changed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, *wanted: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while not all(w in self.text() for w in wanted):
            if self.closed or time.monotonic() > deadline:
                raise AssertionError(f"never drawn: {wanted}\n{self.text()}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), max(0.05, deadline - time.monotonic()))
        return self.text()

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()
        await self.http.close()


def spy_services(monkeypatch) -> list[UserAppService]:
    """Every app service the server starts, in order (to see which app each page was given)."""
    services: list[UserAppService] = []
    real = UserAppService._open_app_process

    async def spy(self, width=80, height=24):
        services.append(self)
        return await real(self, width, height)

    monkeypatch.setattr(UserAppService, "_open_app_process", spy)
    return services


def test_pages_get_pooled_apps_which_refill_and_are_never_reused(monkeypatch):
    add_password("alice", "secret")
    add_password("bob", "hunter2")
    services = spy_services(monkeypatch)

    async def scenario():
        served = await start_web_server("127.0.0.1", 0, pool=2)
        base = f"http://127.0.0.1:{served.port}"
        pool = served.server.pool
        try:
            assert pool is not None and pool.size == 2 and pool.kind == "web"
            await until(lambda: pool.was_full, what="the pool to fill")
            waiting = {a.child.pid for a in pool.idle}
            assert len(waiting) == 2
            alice = await Page.open(base, "alice", "secret", 100, 30)
            # The whole frame at the page's size (the pooled app waited at 80x24), nothing of before.
            screen = await alice.wait_for("you are alice", "Create table")
            [service] = services
            assert service.pooled is not None and service.pooled.child.pid in waiting
            alice_pid = service.pooled.child.pid
            assert "you are ?" not in screen and "palette" in alice.screen.display[29]
            assert alice.raw.count(b"__GANGLION__") == 0  # textual-serve's prelude never reaches a page
            await alice.ws.send_json(["stdin", "m"])  # My games: alice's own space, confined when taken
            await alice.wait_for("My games")
            await until(lambda: len(pool.idle) == 2 and pool.started == 3, what="the pool to refill")
            assert alice_pid not in {a.child.pid for a in pool.idle}
            await alice.close()
            await until(lambda: not alive(alice_pid), 20, "alice's app to end with her page")
            await until(lambda: served.server.live == {}, 10, "alice's session to end")
            assert service.pooled.control.fileno() == -1  # the server closed its side of the control socket
            given: list[tuple[int, int] | None] = []
            real_give = pool.give
            monkeypatch.setattr(pool, "give",
                                lambda app, env, size=None: given.append(size) or real_give(app, env, size))
            bob = await Page.open(base, "bob", "hunter2", 32000, 24)  # a page's size is clamped for a pooled app too
            screen = await bob.wait_for("you are bob", "Create table")
            assert services[1].pooled is not None and services[1].pooled.child.pid not in (alice_pid, None)
            assert given == [(500, 24)] and "alice" not in screen
            await bob.close()
            assert pool.taken == 2
            waiting = {a.child.pid for a in pool.idle}
        finally:
            await served.close()
        await until(lambda: not any(alive(p) for p in waiting), 10, "the pooled apps to end with the server")

    run(scenario())


def test_every_failure_path_ends_what_it_took_and_leaving_returns_nothing_broken_to_the_pool(monkeypatch):
    """An app dying while it waits, one that does not answer its user, a page gone while its app
    binds: each app taken ends, the player is served anyway, the pool holds only fresh apps."""
    for user in ("alice", "bob", "carol"):
        add_password(user, "pw-" + user)
    services = spy_services(monkeypatch)
    monkeypatch.setattr(web, "BIND_TIMEOUT", 1.0)

    async def scenario():
        served = await start_web_server("127.0.0.1", 0, pool=1)
        base = f"http://127.0.0.1:{served.port}"
        pool = served.server.pool
        assert pool is not None
        taken: set[int] = set()
        try:
            await until(lambda: pool.was_full, what="the pool to fill")
            # An app that dies while it waits leaves the pool; a fresh one takes its place.
            [first] = pool.idle
            os.kill(first.child.pid, signal.SIGKILL)
            await until(lambda: pool.started == 2 and len(pool.idle) == 1, what="a replacement")
            assert first not in pool.idle
            # An app that never answers its user (stopped here) is killed; the page gets a forked app.
            [stuck] = pool.idle
            os.kill(stuck.child.pid, signal.SIGSTOP)
            alice = await Page.open(base, "alice", "pw-alice")
            await alice.wait_for("you are alice", "Create table")
            assert services[0].pooled is None and not alive(stuck.child.pid)
            assert stuck.master == -1 and stuck.control.fileno() == -1  # its socket and pty side closed
            taken.add(stuck.child.pid)
            await until(lambda: pool.started == 3 and len(pool.idle) == 1, what="the pool to refill")
            # A page that goes away while its app is being given to it: that app ends too, and the
            # page's place is freed (the race inside textual-serve: the last test of this file).
            monkeypatch.setattr(web, "BIND_TIMEOUT", 60.0)
            [slow] = pool.idle
            os.kill(slow.child.pid, signal.SIGSTOP)  # it answers only once the page is gone
            http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
            r = await http.post(base + "/login", data={"user": "bob", "password": "pw-bob"}, allow_redirects=False)
            assert r.status == 303
            ws = await http.ws_connect(base + "/ws?width=90&height=25")
            await until(lambda: len(services) == 2 and not pool.idle, 10, "bob's app to be taken")
            assert served.limiter is not None
            connections = len(served.limiter.open)
            ws.get_extra_info("socket").shutdown(socket.SHUT_RDWR)  # no close frame: the connection just drops
            await until(lambda: len(served.limiter.open) < connections, 10, "the server to see bob's page gone")
            os.kill(slow.child.pid, signal.SIGCONT)
            await until(lambda: services[1].pooled is not None, 20, "bob's app to answer")
            bob_pid = slow.child.pid
            taken.add(bob_pid)
            await until(lambda: not alive(bob_pid), 20, "bob's app to end")
            await until(lambda: "bob" not in served.server.live, 10, "bob's place to be free")
            await http.close()
            # What the pool holds now: fresh apps, never one that was taken, waiting for their user.
            await until(lambda: len(pool.idle) == 1 and pool.started == 4, what="the pool to refill again")
            assert all(alive(a.child.pid) and a.ready and not a.bound and not a.taken for a in pool.idle)
            assert not taken & {a.child.pid for a in pool.idle}
            carol = await Page.open(base, "carol", "pw-carol", 100, 30)
            screen = await carol.wait_for("you are carol", "Create table")
            assert services[2].pooled is not None and "bob" not in screen and "alice" not in screen
            await carol.close()
            await alice.close()
        finally:
            await served.close()

    run(scenario())


SERVER = """
import sys
from pathlib import Path
from tui.serve.web import serve_web
serve_web("127.0.0.1", 0, passwords_file=Path(sys.argv[1]), pool=2, announce=lambda s: print(s, flush=True))
"""


def descendants(pid: int) -> set[int]:
    """Every process under ``pid`` (children, their children...), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                parent = int(Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def test_pooled_apps_and_the_apps_given_out_end_when_the_server_is_killed():
    add_password("alice", "secret")
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(default_passwords_file())], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        base = ""
        deadline = time.monotonic() + 90
        for line in proc.stdout:  # "unmask: serving in the browser at http://127.0.0.1:PORT ..."
            if "serving in the browser at" in line:
                base = line.split(" at ", 1)[1].split()[0]
            if "warm pool full" in line or time.monotonic() > deadline:
                break
        assert base and "warm pool full" in line

        async def scenario():
            alice = await Page.open(base, "alice", "secret")
            await alice.wait_for("you are alice", "Create table")
            under = {p for p in descendants(proc.pid) if alive(p)}
            assert len(under) >= 3  # the fork server, alice's app and the other pooled one (refilling: more)
            proc.kill()  # kill -9: the server gets no chance to end anything
            proc.wait(10)
            deadline = time.monotonic() + 20
            while any(alive(p) for p in under) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            await alice.close()
            return [p for p in under if alive(p)]

        assert run(scenario()) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_a_bad_pool_size_on_the_command_line_is_one_line():
    from typer.testing import CliRunner

    from tui.cli import app

    r = CliRunner().invoke(app, ["serve", "web", "--port", "0", "--pool", "-1"])
    assert r.exit_code != 0 and "--pool must be at least 0 (not -1)" in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1, r.output


def test_a_session_whose_page_is_gone_before_its_app_answered_still_stops_its_app():
    """A pooled app's output is often all there when its page has already gone: textual-serve's
    output task then ends without ever yielding, and awaiting its never-started stderr reader raised
    CancelledError out of ``stop()``, which left the app unended and the page's place taken."""

    class Writer:
        def write(self, data: bytes) -> None:
            sent.append(data)

        async def drain(self) -> None:
            return None

    class Process:
        pid = -1
        returncode = 0

        def __init__(self) -> None:
            self.stdout = asyncio.StreamReader()
            self.stdout.feed_data(b"__GANGLION__\n" + AppService.encode_packet(b"D", b"\x1b[?1049h"))
            self.stderr = asyncio.StreamReader()
            self.stderr.feed_eof()

        async def wait(self) -> int:
            return 0

        def terminate(self) -> None:
            raise AssertionError("it had ended")

        kill = terminate

    async def gone(_data: bytes) -> None:
        raise ConnectionResetError("Cannot write to closing transport")

    async def scenario() -> None:
        service = UserAppService("true", env={}, write_bytes=gone, write_str=gone, close=closed,
                                 download_manager=DownloadManager())
        service._process = Process()  # type: ignore[assignment]
        service._stdin = Writer()  # type: ignore[assignment]
        service._task = asyncio.create_task(service.run())
        await service.stop()  # before: CancelledError from textual-serve's stderr reader

    async def closed() -> None:
        closes.append(True)

    sent: list[bytes] = []
    closes: list[bool] = []
    run(scenario(), 10)
    assert any(b'"quit"' in s for s in sent) and closes  # the app was asked to quit, the page closed
