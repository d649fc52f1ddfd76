"""Issue 22, findings 9 and 11: one table service per data dir, and no account can fill the lobby.

Real servers and raw clients on the service's Unix socket (one JSON object per line)."""

from __future__ import annotations

import asyncio
import json
import threading
import time

from solvers.table import Table
from tui.serve.ssh import add_password
from tui.serve.tables import TableService, service_alive, socket_path
from tui.serve.web import start_web_server

SEATS = ["human", "random", "random", "random"]


def run(coro, timeout: float = 60.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


class Client:
    """A raw connection to the table service."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer, self.n = reader, writer, 0

    @classmethod
    async def open(cls, path) -> Client:
        return cls(*await asyncio.open_unix_connection(str(path), limit=1 << 22))

    async def ask(self, **msg) -> dict:
        self.n += 1
        self.writer.write((json.dumps({**msg, "id": self.n}) + "\n").encode())
        await self.writer.drain()
        while True:
            answer = json.loads(await asyncio.wait_for(self.reader.readline(), 10))
            if answer.get("id") == self.n:
                return answer

    def close(self) -> None:
        self.writer.close()


def test_two_servers_starting_together_share_one_service_and_stopping_one_keeps_the_others_socket():
    add_password("alice", "secret")

    async def scenario():
        a, b = await asyncio.gather(start_web_server("127.0.0.1", 0, pool=0), start_web_server("127.0.0.1", 0, pool=0))
        owners = [s for s in (a, b) if s.tables is not None]
        others = [s for s in (a, b) if s.tables is None]
        assert len(owners) == 1 and len(others) == 1, "exactly one table service on the data dir"
        await others[0].close()
        assert await service_alive(socket_path())  # the other's socket is still there and answers
        c = await start_web_server("127.0.0.1", 0, pool=0)  # a third server attaches to it
        assert c.tables is None
        await owners[0].close()
        assert not socket_path().exists()
        await c.close()
        d = await start_web_server("127.0.0.1", 0, pool=0)  # with nobody running it, the next one starts it
        try:
            assert d.tables is not None and await service_alive(socket_path())
        finally:
            await d.close()

    run(scenario())


def test_tables_per_user_are_capped_and_idle_unfinished_tables_are_archived():
    async def scenario():
        service = TableService(bot_delay=0, max_per_user=3, idle_after=1.0, archive_after=1.0)
        await service.start()
        try:
            alice, bob = await Client.open(service.path), await Client.open(service.path)
            made = [await alice.ask(op="create", game="clue", seats=SEATS, config={}, user="alice") for _ in range(4)]
            assert [m["op"] for m in made] == ["created", "created", "created", "error"]
            assert "3 unfinished tables" in made[3]["message"]
            assert (await bob.ask(op="create", game="clue", seats=SEATS, config={}, user="bob"))["op"] == "created"
            ended = await alice.ask(op="end", table=made[0]["table"], user="alice")
            assert ended["op"] == "ended"  # a finished table no longer counts
            again = await alice.ask(op="create", game="clue", seats=SEATS, config={}, user="alice")
            assert again["op"] == "created"
            # Bob sits at his table and stays; nobody touches alice's: after a second they are archived.
            bobs = [t["table"] for t in (await bob.ask(op="list"))["tables"] if t["creator"] == "bob"]
            assert (await bob.ask(op="join", table=bobs[0], seat=0, user="bob"))["op"] == "joined"
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                left = [t["table"] for t in (await alice.ask(op="list"))["tables"]]
                if left == bobs:
                    break
                await asyncio.sleep(0.2)
            assert left == bobs  # only the watched one is left
            archived = sorted(p.stem for p in (service.path.parent / "served" / "archive").glob("*.json"))
            assert again["table"] in archived and made[1]["table"] in archived
            alice.close()
            bob.close()
        finally:
            await service.close()

    run(scenario())


def test_bots_think_in_the_services_bot_threads_not_on_its_loop(monkeypatch):
    threads: list[str] = []
    real = Table.bot_choice

    def bot_choice(self):
        threads.append(threading.current_thread().name)
        return real(self)

    monkeypatch.setattr(Table, "bot_choice", bot_choice)

    async def scenario():
        service = TableService(bot_delay=0)
        await service.start()
        try:
            # seed 0: a bot (seat 0) starts; with a random seed the human started one game in four, no bot
            # thought before the deadline and the test failed
            tid = service.create({}, ["random", "human", "random", "random"], seed=0, game="clue")
            table = service.tables[tid].table
            deadline = time.monotonic() + 20
            while not (threads and table.to_act() == 1) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert table.to_act() == 1
        finally:
            await service.close()

    run(scenario())
    assert threads and all(name.startswith("unmask-bot") for name in threads), threads
