"""Issue 14, fast start: sessions are served by apps of the warm pool, which refills; a pooled app
serves one user, never a second; caps and each user's own space hold as before. Real asyncssh
clients on loopback, and the pool driven directly."""

from __future__ import annotations

import asyncio
import os
import socket

import asyncssh
import pytest
from sshterm import Term, serving_ssh
from waits import gone, run, until

from tui.serve.forkserver import ForkServer
from tui.serve.pool import WarmPool
from tui.serve.ssh import base_env, set_winsize


def test_sessions_come_from_the_pool_which_refills_and_never_reuses_an_app():
    async def scenario(server):
        pool = server.state.pool
        assert pool is not None and pool.size == 2
        await until(lambda: pool.was_full, what="the pool to fill")
        waiting = {a.child.pid for a in pool.idle}
        assert len(waiting) == 2
        t = await Term.open(server.port, "alice", password="secret", width=100, height=30)
        try:
            # The whole frame, not its first bytes: over a loaded link the lobby arrives in pieces.
            screen = await t.wait_for(lambda s: "you are alice" in s and "Create table" in s
                                      and "palette" in t.screen.display[29])
            [session] = server.state.sessions
            assert session.pooled is not None and session.child.pid in waiting
            alice_pid = session.child.pid
            # Drawn whole at the client's size (the pooled app waited at 80x24), nothing of before.
            assert "Create table" in screen and "palette" in t.screen.display[29]
            assert "you are ?" not in screen
            t.send("m")  # My games: alice's own space works (the app was confined to it when taken)
            await t.wait_for("My games")
            # The pool refills to two apps, none of them alice's.
            await until(lambda: len(pool.idle) == 2 and pool.started == 3, what="the pool to refill")
            assert alice_pid not in {a.child.pid for a in pool.idle}
        finally:
            await t.close()
        await until(lambda: not server.state.sessions, 10, "the session to end")
        await until(lambda: gone(alice_pid), 10, "alice's app to end")
        t = await Term.open(server.port, "bob", password="hunter2", width=80, height=24)
        try:
            screen = await t.wait_for("you are bob")
            [session] = server.state.sessions
            assert session.pooled is not None and session.child.pid != alice_pid
            assert "alice" not in screen
        finally:
            await t.close()
        assert pool.taken == 2

    run(serving_ssh(scenario, {"alice": "secret", "bob": "hunter2"}, tables=True, pool=2))


def test_the_cap_counts_connections_not_the_apps_waiting_in_the_pool():
    async def scenario(server):
        pool = server.state.pool
        await until(lambda: pool.was_full, what="the pool to fill")
        t = await Term.open(server.port, "alice", password="secret", width=100, height=30)
        try:
            await t.wait_for("you are alice")
            with pytest.raises((asyncssh.DisconnectError, asyncssh.ChannelOpenError)) as refused:
                async with asyncssh.connect("127.0.0.1", server.port, username="bob", password="hunter2",
                                            known_hosts=None, agent_path=None, client_keys=None) as conn:
                    await conn.run(term_type="xterm-256color", timeout=10)
            assert isinstance(refused.value, asyncssh.ChannelOpenError) or "server is full" in str(refused.value)
            assert pool.taken == 1
        finally:
            await t.close()

    run(serving_ssh(scenario, {"alice": "secret", "bob": "hunter2"}, tables=True, pool=2, max_sessions=1))


def test_a_pooled_app_serves_one_user_and_ends_when_offered_a_second(tmp_path):
    """Driven directly: the app draws nothing of anyone before it is given a user, takes the first,
    and a second user on its control socket ends it rather than being served."""
    env = base_env({"UNMASK_TABLES_SOCKET": str(tmp_path / "no-service.sock")})

    async def scenario():
        forks = ForkServer(env)
        forks.start()
        pool = WarmPool(forks, env, 2, lambda fd, w, h: set_winsize(fd, w, h))
        pool.start()
        loop = asyncio.get_running_loop()
        try:
            await until(lambda: pool.was_full, what="the pool to fill")
            first, second = pool.take(), pool.take()
            assert first is not None and second is not None and pool.take() is None  # each handed out once
            out = {first.master: bytearray(), second.master: bytearray()}

            def read(fd: int) -> None:
                try:
                    out[fd].extend(os.read(fd, 65536))
                except BlockingIOError:
                    pass
                except OSError:
                    loop.remove_reader(fd)

            for app in (first, second):
                os.set_blocking(app.master, False)
                loop.add_reader(app.master, read, app.master)
            a = out[first.master]
            mark = pool.give(first, dict(env, TERM="xterm-256color", UNMASK_USER="alice"))
            await until(lambda: mark in a and b"alice" in a[a.find(mark):], 20, "alice's lobby")
            assert b"alice" not in a[:a.find(mark)]  # nothing of hers before she was given it
            await until(lambda: b"Create table" in a[a.find(mark):], 10, "a whole frame after the marker")
            assert b"\x1b[?1049h" in a[a.find(mark):]  # the alternate screen again, for the client just arrived
            pool.give(first, dict(env, TERM="xterm-256color", UNMASK_USER="mallory"))
            await asyncio.wait_for(first.child.wait(), 10)  # a second user ends it
            assert b"mallory" not in a
            # A login that cannot have a space: one sentence, no lobby.
            b_out = out[second.master]
            mark = pool.give(second, dict(env, TERM="xterm-256color", UNMASK_USER="../../sessions"))
            await until(lambda: mark in b_out and b"saved games here" in b_out[b_out.find(mark):], 20,
                        "the refusal")
            await asyncio.sleep(0.5)
            assert b"Shared tables" not in b_out[b_out.find(mark):]
            for app in (first, second):
                loop.remove_reader(app.master)
                app.close()
        finally:
            await pool.close()
            await forks.close()

    os.environ["UNMASK_DATA_DIR"] = str(tmp_path / "data")
    run(scenario())


def test_a_pooled_app_has_no_storage_until_it_is_given_its_user(tmp_path, monkeypatch):
    from tui.serve.child import ServedApp
    from tui.storage import SpaceError, sessions_dir

    monkeypatch.setenv("UNMASK_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("UNMASK_USER", "alice")  # whatever the environment says before it is given one
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        app = ServedApp(control=theirs.detach())
        assert not app.bound and app.login == ""
        with pytest.raises(SpaceError):
            sessions_dir()
        app.control.close()
    finally:
        ours.close()
        from tui.storage import confine_to

        confine_to(None)


def test_a_pooled_lobby_looks_exactly_like_a_freshly_started_one():
    """Two users at once, a pool of one: one is served by the pool, the other by a new app; their
    screens are the same cell by cell (characters, colours, attributes), but for the name."""

    async def scenario(server):
        pool = server.state.pool
        await until(lambda: pool.was_full, what="the pool to fill")
        ann, bob = await asyncio.gather(Term.open(server.port, "annie", password="secret", width=100, height=30),
                                        Term.open(server.port, "bobby", password="hunter2", width=100, height=30,
                                                  term="tmux-256color"))
        try:
            await ann.wait_for("you are annie")
            await bob.wait_for("you are bobby")
            await ann.settle(0.5)
            await bob.settle(0.5)
            served = {s.process.get_extra_info("username"): s.pooled is not None for s in server.state.sessions}
            assert sorted(served.values()) == [False, True] and pool.taken == 1
            x, y = ann.find("annie")
            for row in range(30):
                for col in range(100):
                    a, b = ann.screen.buffer[row][col], bob.screen.buffer[row][col]
                    if row == y and x <= col < x + 5:
                        continue
                    assert (a.data, a.fg, a.bg, a.bold, a.italics, a.underscore, a.reverse) == (
                        b.data, b.fg, b.bg, b.bold, b.italics, b.underscore, b.reverse), (row, col)
        finally:
            await ann.close()
            await bob.close()

    run(serving_ssh(scenario, {"annie": "secret", "bobby": "hunter2"}, tables=True, pool=1))


def test_a_dumb_terminal_is_not_served_from_the_pool():
    async def scenario(server):
        pool = server.state.pool
        await until(lambda: pool.was_full, what="the pool to fill")
        t = await Term.open(server.port, "alice", password="secret", width=100, height=30, term="dumb")
        try:
            await t.wait_for("you are alice")
            [session] = server.state.sessions
            assert session.pooled is None and pool.taken == 0 and len(pool.idle) == 1
        finally:
            await t.close()

    run(serving_ssh(scenario, {"alice": "secret"}, tables=True, pool=1))
