"""Shared tables: the table service, RemoteTable, and two SSH players at one table."""

from __future__ import annotations

import asyncio
import json

import pytest
from sshterm import Term

from engine.clue import ClueConfig
from engine.core import IllegalAction
from tui.serve.lobby import table_names
from tui.serve.remote import RemoteError, RemoteTable
from tui.serve.ssh import add_password, default_passwords_file, start_ssh_server
from tui.serve.tables import TableService

SEATS = ["human", "human", "random"]


def run(coro, timeout: float = 50.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def config() -> dict:
    return ClueConfig(board="red-keep", players=3, names=table_names("alice", SEATS)).to_json()


class Recorder:
    """Every message pushed to one RemoteTable, as JSON text."""

    def __init__(self, rt: RemoteTable) -> None:
        self.rt = rt
        self.pushes: list[str] = []
        original = rt.client.on_push

        def record(msg: dict) -> None:
            self.pushes.append(json.dumps(msg))
            original(msg)

        rt.client.on_push = record


def test_service_seats_views_bots_and_restart():
    async def scenario():
        service = TableService(bot_delay=0)
        await service.start()
        tid = service.create(config(), SEATS, seed=7)
        truth = service.tables[tid].table
        alice = await asyncio.to_thread(RemoteTable, service.path, tid, 0, "alice")
        bob = await asyncio.to_thread(RemoteTable, service.path, tid, 1, "bob")
        rec_a, rec_b = Recorder(alice), Recorder(bob)
        assert alice.view(0)["hand"] == truth.view(0)["hand"]
        assert bob.view(1)["hand"] == truth.view(1)["hand"]
        with pytest.raises(RemoteError):
            alice.view(1)  # only your own seat
        with pytest.raises(RemoteError, match="alice's"):
            await asyncio.to_thread(RemoteTable, service.path, tid, 0, "mallory")
        with pytest.raises(RemoteError, match="bot"):
            await asyncio.to_thread(RemoteTable, service.path, tid, 2, "mallory")
        # Play a while: the human to act takes its first legal action; the bot plays in the service.
        for _ in range(40):
            seat = truth.to_act()
            if seat is None:
                break
            if seat == 2:
                await asyncio.sleep(0.05)
                continue
            rt, other = (alice, bob) if seat == 0 else (bob, alice)
            for _wait in range(100):  # the push of the last change may still be on its way
                if len(rt.log) == len(truth.log):
                    break
                await asyncio.sleep(0.02)
            legal = [tuple(a) for a in rt.view(seat)["legal"] if a[0] != "accuse"]  # keep the game going
            with pytest.raises(IllegalAction):
                await asyncio.to_thread(other.submit, 1 - seat, legal[0])
            await asyncio.to_thread(rt.submit, seat, legal[0])
        await asyncio.sleep(0.2)
        assert len(alice.log) == len(truth.log) > 5
        assert alice.view(0) == truth.view(0) and bob.view(1) == truth.view(1)
        # No message to alice carries bob's view, and the reverse.
        assert rec_a.pushes and rec_b.pushes
        for text in rec_a.pushes:
            msg = json.loads(text)
            assert msg["view"]["seat"] == 0 and ("hands" not in msg or msg["over"])
        for text in rec_b.pushes:
            assert json.loads(text)["view"]["seat"] == 1
        assert await asyncio.to_thread(alice.why_not, ("accuse", "x", "y", "z")) is not None
        alice.close()
        bob.close()
        moves = len(truth.log)
        await service.close()
        # A restart loses nothing: the table, its moves and who sits where.
        again = TableService(bot_delay=0)
        await again.start()
        assert len(again.tables[tid].table.log) == moves
        back = await asyncio.to_thread(RemoteTable, again.path, tid, 0, "alice")
        assert back.view(0) == truth.view(0)
        with pytest.raises(RemoteError, match="bob's"):
            await asyncio.to_thread(RemoteTable, again.path, tid, 1, "alice")
        back.close()
        await again.close()

    run(scenario())


async def watchers_become(shared, seats: list[int], timeout: float = 8.0) -> None:
    """Wait until exactly ``seats`` are watched (an app process leaving takes a moment on a busy machine)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while sorted(shared.watchers.values()) != seats and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.1)
    assert sorted(shared.watchers.values()) == seats


def test_two_ssh_players_at_one_table_and_a_reconnect():
    add_password("alice", "a")
    add_password("bob", "b")

    async def sit(t: Term, label: str) -> None:
        await t.wait_for(label)
        await t.settle()
        x, y = t.find(label)
        t.click(x + 2, y)
        await t.wait_for(lambda s: "Roll" in s or ("Log" in s and label not in s))
        await t.settle()

    async def scenario():
        server = await start_ssh_server("127.0.0.1", 0, passwords_file=default_passwords_file(), tables=True)
        try:
            tid = server.tables.create(config(), SEATS, seed=11)
            truth = server.tables.tables[tid].table
            hand_a, hand_b = truth.view(0)["hand"], truth.view(1)["hand"]
            a = await Term.open(server.port, "alice", password="a", width=120, height=40)
            await sit(a, "Sit at seat 1")
            b = await Term.open(server.port, "bob", password="b", width=120, height=40)
            await b.wait_for("Sit at seat 2")
            assert "Sit at seat 1" not in b.text()  # alice's seat is not offered to bob
            await sit(b, "Sit at seat 2")
            # Alice's screen is drawn afresh with bob's name at seat 2 (see test_table_life.py).
            await a.wait_for(lambda s: "bob" in s and "Your cards:" in s)
            # The bot (seat 3) plays in the service; both screens follow.
            await a.wait_for(lambda s: "Bot 3 to act" not in s and "Your cards:" in s)
            await b.wait_for(lambda s: "Bot 3 to act" not in s and "Your cards:" in s)
            assert len(truth.log) > 0
            # Each sees its own hand, not the other's (the service never sends another seat's view).
            for term, mine, theirs in ((a, hand_a, hand_b), (b, hand_b, hand_a)):
                await term.wait_for(lambda s: "Your cards:" in s and "Plot:" in s)  # the screen is drawn
                text = " ".join(term.text().split())
                cards = text[text.index("Your cards:"):text.index("Plot:")]
                assert all(c in cards for c in mine), cards
                assert not any(c in cards for c in theirs if c not in mine), cards
            assert server.tables.tables[tid].owners == {0: "alice", 1: "bob"}
            assert sorted(server.tables.tables[tid].watchers.values()) == [0, 1]
            # Alice disconnects and comes back to her seat.
            await a.close()
            await watchers_become(server.tables.tables[tid], [1])
            a = await Term.open(server.port, "alice", password="a", width=120, height=40)
            await sit(a, "Return to seat 1")
            assert sorted(server.tables.tables[tid].watchers.values()) == [0, 1]
            # Escape leads back to the lobby; a new table from there seats its creator.
            a.send("\x1b")
            await a.wait_for("Create table")
            await watchers_become(server.tables.tables[tid], [1])
            await a.settle()
            x, y = a.find("Create table")
            a.click(x + 2, y)
            await a.wait_for("Your cards:")
            assert len(server.tables.tables) == 2
            new = next(s for s in server.tables.tables.values() if s.id != tid)
            assert new.owners == {0: "alice"} and new.table.seats == ["human", "human", "notes", "notes"]
            await a.close()
            await b.close()
            return hand_a, hand_b
        finally:
            server.close()
            await server.wait_closed()

    run(scenario(), 60)
