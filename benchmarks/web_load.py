"""Benchmark: N users arriving at once at ``unmask serve web`` with its default flags, on loopback.

Method
------
The server runs in its own process as ``unmask serve web`` runs it (default flags: shared tables
on, sessions and per-user caps, auth limits, the warm pool of one app per place), and the arrival
starts once it has announced its warm pool full (with ``--pool 0``, its fork server warm;
``--cold``: at once), with a temporary data dir holding ``--users``
accounts (``user00``.. with one password). All N clients start at the same instant, all from
127.0.0.1 (as players behind one NAT); each posts the login form (the **login** time: post →
the session cookie), then opens the websocket (100x30) and reads the app's output until the
lobby is drawn (the **lobby** time: from the start, so it includes the login). The report gives
median and worst of both, and how many got in (a refused login or a closed websocket counts as
not admitted).

Then, unless ``--no-tables-flood``, the **seated player's key → screen** figure: one user opens a
new Clue table from the lobby (``n``) and presses Tab every ``--gap`` s, ``--presses`` times alone
and as many times while tables are created as fast as the table service allows, for all the users
in turn (over its socket, as an app would; each user until the per-user cap refuses), with their
bots playing (measured last: those bots go on playing); before it, while another user's page
sends ``resize`` messages as fast as its websocket takes them, and while 12 connections that
never finish their headers are held; the median of each and its ratio to the quiet one.

Usage: ``python benchmarks/web_load.py [--users N] [--presses K] [--gap S] [--pool N]`` (``--pool``:
the server's ``--pool``, 0 for none, as before issue 22's web pool).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp

LOBBY = b"Shared tables"
PASSWORD = "bench-pass"


def _serve(port: int, data: str, pool: int | None) -> None:
    os.environ["UNMASK_DATA_DIR"] = data
    from tui.serve.web import serve_web

    def announce(line: str) -> None:
        with open(Path(data) / "announced", "a") as f:
            f.write(line + "\n")

    serve_web("127.0.0.1", port, announce=announce, pool=pool)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _wait_warm(data: str, timeout: float, what: str = "warm") -> float:
    """Seconds until the server announced ``what`` (its fork server warm, its pool full; nan if it
    did not in ``timeout``)."""
    t0 = time.monotonic()
    path = Path(data) / "announced"
    while time.monotonic() - t0 < timeout:
        if path.exists() and what in path.read_text():
            return time.monotonic() - t0
        await asyncio.sleep(0.1)
    return float("nan")


async def _wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            _r, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


class Client:
    """One browser: a cookie jar, a websocket, and the output with the time it last arrived."""

    def __init__(self, base: str, user: str) -> None:
        self.base, self.user = base, user
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.seen = bytearray()
        self.last = 0.0
        self.arrived = asyncio.Event()
        self.closed = False
        self._reader: asyncio.Task | None = None

    async def login(self) -> bool:
        r = await self.http.post(self.base + "/login", data={"user": self.user, "password": PASSWORD},
                                 allow_redirects=False)
        await r.read()
        return r.status == 303

    async def open(self) -> None:
        self.ws = await self.http.ws_connect(self.base + "/ws?width=100&height=30")
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.last = time.monotonic()
                if len(self.seen) < 1 << 20:
                    self.seen += msg.data
                self.arrived.set()
        self.closed = True
        self.arrived.set()

    async def wait_for(self, want: bytes, timeout: float = 120) -> bool:
        deadline = time.monotonic() + timeout
        while want not in self.seen and not self.closed and time.monotonic() < deadline:
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), max(0.05, deadline - time.monotonic()))
        return want in self.seen

    async def quiet(self, quiet: float = 0.3, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() - self.last < quiet and time.monotonic() < deadline:
            await asyncio.sleep(quiet / 4)

    async def press(self, key: str) -> float:
        """Seconds from sending ``key`` to the first output after it."""
        assert self.ws is not None
        await self.quiet(0.05, 2)
        self.arrived.clear()
        sent = time.monotonic()
        await self.ws.send_json(["stdin", key])
        await asyncio.wait_for(self.arrived.wait(), 30)
        return max(0.0, self.last - sent) if self.last >= sent else time.monotonic() - sent

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
        await self.http.close()


async def arrive(base: str, users: int) -> tuple[list[float], list[float], int, list[Client]]:
    """All users at once: login times, lobby times, how many were admitted, the clients."""
    clients = [Client(base, f"user{i:02d}") for i in range(users)]
    logins: list[float] = []
    lobbies: list[float] = []
    start = asyncio.Event()

    async def one(c: Client) -> None:
        await start.wait()
        t0 = time.monotonic()
        if not await c.login():
            return
        logins.append(time.monotonic() - t0)
        await c.open()
        if await c.wait_for(LOBBY):
            lobbies.append(time.monotonic() - t0)

    tasks = [asyncio.create_task(one(c)) for c in clients]
    await asyncio.sleep(0.1)
    start.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return logins, lobbies, len(lobbies), clients


async def flood_tables(sock: str, stop: asyncio.Event, made: list[int], users: int) -> None:
    """Create tables over the service's socket as fast as it answers (a human and three bots each),
    for every user in turn: each until the per-user cap refuses them."""
    reader, writer = await asyncio.open_unix_connection(sock, limit=1 << 22)
    n = 0
    while not stop.is_set():
        n += 1
        writer.write((json.dumps({"op": "create", "id": n, "game": "clue", "user": f"user{n % users:02d}",
                                  "seats": ["human", "random", "random", "random"], "config": {}}) + "\n").encode())
        await writer.drain()
        line = await reader.readline()
        if not line:
            break
        if json.loads(line).get("op") == "created":
            made[0] += 1
        else:
            made[1] += 1
    writer.close()


async def main(args: argparse.Namespace) -> None:
    data = tempfile.mkdtemp(prefix="unmask-webload-")
    os.environ["UNMASK_DATA_DIR"] = data
    from tui.serve.auth import add_password

    for i in range(args.users):
        add_password(f"user{i:02d}", PASSWORD, Path(data) / "ssh_passwords.json")
    port = _free_port()
    server = multiprocessing.get_context("spawn").Process(target=_serve, args=(port, data, args.pool), daemon=True)
    server.start()
    await _wait_port(port)
    base = f"http://127.0.0.1:{port}"
    warm = await _wait_warm(data, 0 if args.cold else 180)
    full = await _wait_warm(data, 0 if args.cold or args.pool == 0 else 180, "warm pool full")
    print(f"unmask serve web, default flags{'' if args.pool is None else f' but --pool {args.pool}'}; "
          f"{args.users} users at once from one address (os.cpu_count()={os.cpu_count()}, load "
          + "/".join(f"{x:.1f}" for x in os.getloadavg()) + "); "
          + ("cold: not waiting for the fork server" if args.cold else f"fork server warm after {warm:.1f} s"
             + ("" if args.pool == 0 else f", warm pool full after {warm + full:.1f} s")))
    logins, lobbies, admitted, clients = await arrive(base, args.users)
    print(f"admitted {admitted}/{args.users}")
    if logins:
        print(f"login  median {statistics.median(logins):6.2f} s  worst {max(logins):6.2f} s")
    if lobbies:
        print(f"lobby  median {statistics.median(lobbies):6.2f} s  worst {max(lobbies):6.2f} s")
    if not args.no_tables_flood and len(clients) > 1 and LOBBY in clients[0].seen:
        seated, other = clients[0], clients[1]
        for c in clients[2:]:
            await c.close()
        await seated.quiet(0.5)
        await seated.press("n")
        await seated.quiet(1.0, 30)
        quiet = [await _gap(seated, args.gap) for _ in range(args.presses)]
        q = statistics.median(quiet)
        print(f"seated key->screen median quiet {q * 1000:6.1f} ms (worst {max(quiet) * 1000:.0f} ms)")
        stop = asyncio.Event()
        sent = [0, 0]
        t0 = time.monotonic()
        flood = asyncio.create_task(flood_resizes(other, stop, sent))
        loaded = [await _gap(seated, args.gap) for _ in range(args.presses)]
        took = time.monotonic() - t0
        stop.set()
        await flood
        _report("while another user floods resizes", q, loaded, f"; {sent[0]} resize messages sent in {took:.1f} s"
                + ("; the flooding page was disconnected by the server" if sent[1] else ""))
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(12)]
        for _r, w in held:  # twelve connections that never finish their headers
            w.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        loaded = [await _gap(seated, args.gap) for _ in range(args.presses)]
        for _r, w in held:
            w.close()
        _report("while 12 unfinished connections are held", q, loaded, "")
        stop = asyncio.Event()
        made = [0, 0]
        flood = asyncio.create_task(flood_tables(str(Path(data) / "tables.sock"), stop, made, args.users))
        loaded = [await _gap(seated, args.gap) for _ in range(args.presses)]
        stop.set()
        await flood
        _report("while tables are created", q, loaded, f"; tables made {made[0]}, refused {made[1]}")
        await seated.close()
        await other.close()
    else:
        for c in clients:
            await c.close()
    server.terminate()
    server.join(10)


def _report(what: str, quiet: float, loaded: list[float], extra: str) -> None:
    m = statistics.median(loaded)
    print(f"seated key->screen median {what} {m * 1000:6.1f} ms ({m / quiet:.2f}x quiet), "
          f"worst {max(loaded) * 1000:.0f} ms{extra}")


async def flood_resizes(c: Client, stop: asyncio.Event, sent: list[int]) -> None:
    """Window changes from another user's page as fast as its websocket takes them. The server reads
    a page at most 200 messages a second, so the page's socket fills and its answers to the server's
    pings wait behind the flood: a flood that lasts long enough is disconnected (counted in sent[1])."""
    assert c.ws is not None
    try:
        while not stop.is_set():
            sent[0] += 1
            await c.ws.send_json(["resize", {"width": 100 + sent[0] % 2, "height": 30 + sent[0] % 2}])
            if sent[0] % 50 == 0:
                await asyncio.sleep(0)
    except (ConnectionError, aiohttp.ClientError):
        sent[1] += 1


async def _gap(c: Client, gap: float) -> float:
    await asyncio.sleep(gap)
    return await c.press("\t")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--presses", type=int, default=20)
    parser.add_argument("--gap", type=float, default=0.3)
    parser.add_argument("--no-tables-flood", action="store_true")
    parser.add_argument("--cold", action="store_true", help="do not wait for the fork server to be warm")
    parser.add_argument("--pool", type=int, default=None, help="the server's --pool (default: one app per place)")
    asyncio.run(main(parser.parse_args()))
