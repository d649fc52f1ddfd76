"""Shared tables over SSH (asyncssh + pyte): names at the seats, the service going away, ending and archiving.

- Whoever sits at a seat is shown by their login on every other player's screens ("bob", not "Player 2").
- A seated player is told when the table service cannot be reached; the screen comes back by itself.
- The creator of a table can end it; a finished table leaves the lobby after ``archive_after``
  (kept on disk in ``served/archive/``).
"""

from __future__ import annotations

import asyncio
import time

import pytest
from sshterm import Term

from engine.clue import ClueConfig
from engine.registry import get_game
from solvers.table import Table
from tui.serve.lobby import table_names
from tui.serve.remote import RemoteError, RemoteTable, ServiceClient
from tui.serve.ssh import add_password, default_passwords_file, start_ssh_server
from tui.serve.tables import TableService, tables_dir

SEATS = ["human", "human", "random"]
DOWN = "table service is not reachable"


def run(coro, timeout: float = 90.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def clue_config() -> dict:
    return ClueConfig(board="red-keep", players=3, names=table_names("alice", SEATS)).to_json()


async def sit(t: Term, label: str) -> None:
    await t.wait_for(label)
    await t.settle()
    x, y = t.find(label)
    t.click(x + 2, y)
    await t.wait_for("Your cards:")
    await t.settle()


async def tap(t: Term, label: str) -> None:
    await t.wait_for(label)
    await t.settle()
    x, y = t.find(label)
    t.click(x + 1, y)


def test_a_player_who_joins_later_is_shown_by_login_on_the_other_screens():
    add_password("alice", "a")
    add_password("bob", "b")

    async def scenario():
        server = await start_ssh_server("127.0.0.1", 0, passwords_file=default_passwords_file(), tables=True)
        try:
            tid = server.tables.create(clue_config(), SEATS, seed=1)  # seat 2 acts first
            a = await Term.open(server.port, "alice", password="a", width=120, height=40)
            await sit(a, "Sit at seat 1")
            await a.wait_for("Player 2")  # nobody at seat 2 yet
            b = await Term.open(server.port, "bob", password="b", width=120, height=40)
            await sit(b, "Sit at seat 2")
            # Alice's screen now says bob wherever it said Player 2 (status, log, panels).
            await a.wait_for(lambda s: "bob" in s and "Player 2" not in s and "Your cards:" in s)
            # Bob's screen gets the same push; it may draw a moment after alice's (no race on it).
            await b.wait_for(lambda s: "Player 2" not in s and "alice" in s)
            truth = server.tables.tables[tid].table
            assert truth.view(0)["players"] == ["alice", "bob", "Bot 3"]
            # The same after alice leaves and comes back, and after a restart (it is saved).
            await a.close()
            a = await Term.open(server.port, "alice", password="a", width=120, height=40)
            await sit(a, "Return to seat 1")
            await a.wait_for(lambda s: "bob" in s and "Player 2" not in s)
            await a.close()
            await b.close()
        finally:
            server.close()
            await server.wait_closed()
        again = TableService(bot_delay=0)
        assert again.tables[tid].table.view(1)["players"] == ["alice", "bob", "Bot 3"]

    run(scenario())


@pytest.mark.parametrize("game", ["clue", "mascarade", "masque", "ghoul"])
def test_every_game_names_a_seat_after_its_login(game):
    """Every game's views (what every screen draws from) carry the login of whoever sits there."""
    from tui.serve.lobby import default_bot

    async def scenario():
        service = TableService(bot_delay=0)
        await service.start()
        try:
            players = {"clue": 3, "mascarade": 4, "masque": 4, "ghoul": 4}[game]
            seats = ["human", "human"] + [default_bot(game)] * (players - 2)
            config = {"players": players, "names": list(table_names("alice", seats))}
            tid = service.create(config, seats, seed=3, game=game)
            alice = await asyncio.to_thread(RemoteTable, service.path, tid, 0, "alice")
            bob = await asyncio.to_thread(RemoteTable, service.path, tid, 1, "bob")
            for _ in range(100):
                if alice.view(0)["players"][1] == "bob":
                    break
                await asyncio.sleep(0.02)
            assert alice.view(0)["players"][:2] == ["alice", "bob"]
            assert bob.view(1)["players"][:2] == ["alice", "bob"]
            # Only the names changed: the same deal and moves as under the old names.
            shared = service.tables[tid]
            async with shared.lock:
                log = [list(e) for e in shared.table.log]
                renamed = shared.table.view(0)
            unnamed = Table(game, config, 3, seats, log).view(0)
            named = ("players", "places", "config", "events", "log")
            assert {k: v for k, v in renamed.items() if k not in named} == \
                   {k: v for k, v in unnamed.items() if k not in named}
            assert get_game(game).config_from_json(alice.config.to_json()).seat_names()[1] == "bob"
            alice.close()
            bob.close()
        finally:
            await service.close()

    run(scenario(), 60)


def test_a_seated_player_is_told_when_the_table_service_is_away_and_the_screen_comes_back():
    add_password("alice", "a")

    async def scenario():
        service = TableService(bot_delay=0)
        await service.start()
        tid = service.create(clue_config(), SEATS, seed=3)  # alice (seat 1) acts first
        server = await start_ssh_server("127.0.0.1", 0, passwords_file=default_passwords_file(), tables=True)
        assert server.tables is None  # it uses the service started above
        again = None
        try:
            a = await Term.open(server.port, "alice", password="a", width=120, height=40)
            await sit(a, "Sit at seat 1")
            assert DOWN not in a.text()
            await service.close()
            await a.wait_for(DOWN, timeout=10)
            a.send("r")  # an action while it is away: a sentence, never a traceback
            await a.settle(0.5)
            assert DOWN in a.text() and "Traceback" not in a.text() and not a.closed
            again = TableService(bot_delay=0)
            await again.start()
            await a.wait_for(lambda s: DOWN not in s and "Your cards:" in s, timeout=15)
            deadline = time.monotonic() + 5
            while not again.tables[tid].watchers and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert list(again.tables[tid].watchers.values()) == [0]  # back in her seat
            await a.close()
        finally:
            server.close()
            await server.wait_closed()
            if again is not None:
                await again.close()

    run(scenario())


def test_an_action_without_the_service_is_refused_with_a_sentence():
    from tui.serve.remote import ServiceDown

    async def scenario():
        service = TableService(bot_delay=0)
        await service.start()
        tid = service.create(clue_config(), SEATS, seed=3)
        alice = await asyncio.to_thread(RemoteTable, service.path, tid, 0, "alice", retry=0.2)
        legal = tuple(alice.view(0)["legal"][0])
        await service.close()
        for _ in range(100):
            if not alice.connected:
                break
            await asyncio.sleep(0.02)
        assert not alice.connected
        with pytest.raises(ServiceDown, match="not reachable"):
            await asyncio.to_thread(alice.submit, 0, legal)
        again = TableService(bot_delay=0)
        await again.start()
        for _ in range(100):
            if alice.connected:
                break
            await asyncio.sleep(0.05)
        assert alice.connected
        await asyncio.to_thread(alice.submit, 0, legal)  # it plays on
        assert len(again.tables[tid].table.log) >= 1
        alice.close()
        await again.close()

    run(scenario(), 40)


def test_the_creator_ends_a_table_and_finished_tables_are_archived(monkeypatch):
    from tui.serve.tables import archive_dir

    monkeypatch.setenv("UNMASK_ARCHIVE_AFTER", "1")
    add_password("alice", "a")
    add_password("bob", "b")
    add_password("carol", "c")

    async def scenario():
        server = await start_ssh_server("127.0.0.1", 0, passwords_file=default_passwords_file(), tables=True)
        try:
            tid = server.tables.create(clue_config(), SEATS, seed=1, creator="alice")
            b = await Term.open(server.port, "bob", password="b", width=120, height=40)
            await sit(b, "Sit at seat 2")
            c = await Term.open(server.port, "carol", password="c", width=120, height=40)
            await c.wait_for("you are carol")
            await c.wait_for(f"Table {tid}")
            assert "End table" not in c.text()  # only its creator may end it
            client = await asyncio.to_thread(ServiceClient, server.tables.path)
            with pytest.raises(RemoteError, match="Only the player who made"):
                await asyncio.to_thread(client.request, {"op": "end", "table": tid, "user": "bob"})
            client.close()
            a = await Term.open(server.port, "alice", password="a", width=120, height=40)
            await tap(a, "End table")
            await a.wait_for("for everyone")
            a.send("y")
            await a.wait_for("ended by alice")
            await b.wait_for("alice ended this table")  # told at once, at the table
            assert server.tables.tables[tid].ended_by == "alice"
            b.send("s")  # trying to play on: a sentence, nothing changes
            await b.settle(0.5)
            assert not b.closed
            # Bob is still looking at it: it stays until he leaves; then it is archived.
            await asyncio.sleep(1.5)
            assert tid in server.tables.tables
            b.send("\x0c")
            await b.wait_for("you are bob")
            await a.wait_for(lambda s: f"Table {tid}" not in s, timeout=15)
            assert tid not in server.tables.tables
            assert (archive_dir() / f"{tid}.json").exists() and not (tables_dir() / f"{tid}.json").exists()
            for t in (a, b, c):
                await t.close()
        finally:
            server.close()
            await server.wait_closed()
        assert tid not in TableService(bot_delay=0).tables  # archived tables stay archived

    run(scenario(), 120)


def test_games_that_end_are_archived_after_the_configured_time():
    from tui.serve.tables import archive_dir

    async def scenario():
        service = TableService(bot_delay=0, archive_after=3600)
        await service.start()
        try:
            tid = service.create(clue_config(), ["human", "random", "random"], seed=2, creator="alice")
            shared = service.tables[tid]
            service.end(tid, "alice")
            assert shared.finished_at is not None
            assert service.archive_finished(now=shared.finished_at + 3599) == []
            assert service.archive_finished(now=shared.finished_at + 3601) == [tid]
            assert (archive_dir() / f"{tid}.json").exists()
        finally:
            await service.close()

    run(scenario(), 30)
