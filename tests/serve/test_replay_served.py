"""A shared table's replay (issue 25): it opens for a seated player once the game has ended, never before."""

from __future__ import annotations

import asyncio

import pytest

from engine.replay import replay_steps
from engine.session import SessionError
from tui.serve.remote import RemoteError, RemoteTable, ServiceClient
from tui.serve.tables import TableService

SEATS = ["human", "random", "random", "random"]


def run(coro, timeout: float = 50.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def test_the_replay_is_refused_before_the_end_and_given_after():
    async def scenario():
        service = TableService(bot_delay=0)
        await service.start()
        tid = service.create({"players": 4}, SEATS, seed=3, game="mascarade")
        truth = service.tables[tid].table
        alice = await asyncio.to_thread(RemoteTable, service.path, tid, 0, "alice")
        with pytest.raises(SessionError, match="not over yet"):
            await asyncio.to_thread(alice.replay_session)
        stranger = await asyncio.to_thread(ServiceClient, service.path)  # connected, seated nowhere
        with pytest.raises(RemoteError, match="Join a table first"):
            await asyncio.to_thread(stranger.request, {"op": "replay"})
        refused_midway = False
        for _ in range(3000):
            if truth.is_over():
                break
            if truth.to_act() != 0:
                await asyncio.sleep(0.01)
                continue
            for _wait in range(100):  # the push of the last change may still be on its way
                if len(alice.log) == len(truth.log):
                    break
                await asyncio.sleep(0.01)
            if not refused_midway and len(truth.log) > 5:
                with pytest.raises(SessionError, match="not over yet"):
                    await asyncio.to_thread(alice.replay_session)
                refused_midway = True
            await asyncio.to_thread(alice.submit, 0, tuple(alice.view(0)["legal"][0]))
        assert truth.is_over() and refused_midway
        session = await asyncio.to_thread(alice.replay_session)
        assert session.to_json() == truth.to_session().to_json()
        replay = replay_steps(session)
        assert replay.spec.is_over(replay.final)
        stranger.close()
        alice.close()
        await service.close()

    run(scenario())
