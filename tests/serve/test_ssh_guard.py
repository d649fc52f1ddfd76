"""Issue 14, findings 2, 3 and 9: guessing is slow and logged, every connection takes a place and
is closed when idle, apps start warm. Real asyncssh clients on loopback."""

from __future__ import annotations

import asyncio
import hashlib
import socket
import threading
import time

import asyncssh
import pytest
from sshterm import Term, serving_ssh

from tui.serve.auth import AuthGuard, AuthLimits
from tui.storage import data_dir

HOME = "Hidden-information board games"
FAST = AuthLimits(max_auth_tries=3, fail_delay=0.05, max_fail_delay=0.2, lockout_failures=50, lockout_time=60)


def run(coro, timeout: float = 60.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def serving(scenario, **kw):
    kw.setdefault("warm", False)
    return await serving_ssh(scenario, {"alice": "secret", "bob": "hunter2"}, **kw)


class Guesser(asyncssh.SSHClient):
    """A client that tries one password after another on the same connection, as long as it may."""

    def __init__(self, passwords: list[str]) -> None:
        self.passwords = list(passwords)
        self.tried = 0
        self.lost: Exception | None = None

    def password_auth_requested(self) -> str | None:
        if not self.passwords:
            return None
        self.tried += 1
        return self.passwords.pop(0)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = exc


async def try_login(port: int, user: str, password: str, source: str = "127.0.0.1") -> bool:
    """One connection, one password: did it log in?"""
    try:
        conn = await asyncssh.connect("127.0.0.1", port, username=user, password=password, known_hosts=None,
                                      agent_path=None, client_keys=None, preferred_auth="password",
                                      local_addr=(source, 0))
    except (asyncssh.PermissionDenied, asyncssh.DisconnectError):
        return False
    conn.close()
    await conn.wait_closed()
    return True


async def closed_within(port: int, seconds: float, **kw) -> str:
    """Log in, open no session (``ssh -N``), and wait for the server to close the connection."""
    client = Guesser([])
    conn, _ = await asyncssh.create_connection(lambda: client, "127.0.0.1", port, known_hosts=None,
                                               agent_path=None, client_keys=None, **kw)
    await asyncio.wait_for(conn.wait_closed(), seconds)
    return str(client.lost)


# --------------------------------------------------------------------------- finding 2: guessing


def test_a_connection_gets_a_few_password_tries_then_is_closed():
    async def scenario(server):
        client = Guesser([f"guess{i}" for i in range(20)])
        with pytest.raises((asyncssh.PermissionDenied, asyncssh.DisconnectError)):
            await asyncssh.create_connection(lambda: client, "127.0.0.1", server.port, username="alice",
                                             known_hosts=None, agent_path=None, client_keys=None,
                                             preferred_auth="password")
        return client, server.state.guard.hashes

    client, hashed = run(serving(scenario, limits=FAST))
    assert client.tried <= 3 + 1  # the server hangs up after the third failure (one more may be in flight)
    assert hashed == 3


def test_failures_slow_down_each_address_then_lock_it_out_and_are_logged():
    limits = AuthLimits(max_auth_tries=3, fail_delay=0.4, max_fail_delay=1.0, lockout_failures=4, lockout_time=60)

    async def scenario(server):
        answered = []
        for i in range(4):  # four wrong passwords, one connection each, from 127.0.0.1
            t0 = time.monotonic()
            assert not await try_login(server.port, "alice", f"wrong{i}")
            answered.append(time.monotonic() - t0)
        # Locked out: even the right password, even for another user, from that address.
        assert not await try_login(server.port, "bob", "hunter2")
        # alice's name is locked only from where it was guessed (issue 22): from another address she
        # and bob log in.
        assert await try_login(server.port, "alice", "secret", source="127.0.0.2")
        assert await try_login(server.port, "bob", "hunter2", source="127.0.0.2")
        return answered

    answered = run(serving(scenario, limits=limits))
    # The 2nd try waited 0.4 s after the 1st failure, the 3rd 0.8 s, the 4th 1.0 s (the cap).
    assert answered[1] >= 0.35 and answered[2] >= 0.75 and answered[3] >= 0.95
    log = (data_dir() / "auth.log").read_text()
    assert log.count("failed password for user 'alice' from 127.0.0.1") == 4
    assert "locked out" in log
    assert "accepted password for user 'bob' from 127.0.0.2" in log


def test_parallel_connections_from_one_address_do_not_guess_faster():
    limits = AuthLimits(max_auth_tries=1, fail_delay=0.5, max_fail_delay=0.5, lockout_failures=50, lockout_time=60)

    async def scenario(server):
        t0 = time.monotonic()
        results = await asyncio.gather(*(try_login(server.port, "alice", f"wrong{i}") for i in range(5)))
        return results, time.monotonic() - t0

    results, took = run(serving(scenario, limits=limits))
    assert not any(results)
    assert took >= 4 * 0.5 - 0.1  # answered one at a time, 0.5 s apart


def test_hashing_never_runs_on_the_event_loop_and_one_at_a_time(monkeypatch):
    real = hashlib.scrypt
    seen = {"loop_thread": 0, "at_once": 0, "max_at_once": 0, "calls": 0}
    lock = threading.Lock()
    main = threading.main_thread()

    def scrypt(*a, **kw):
        with lock:
            seen["calls"] += 1
            seen["loop_thread"] += threading.current_thread() is main
            seen["at_once"] += 1
            seen["max_at_once"] = max(seen["max_at_once"], seen["at_once"])
        try:
            time.sleep(0.02)  # long enough for overlaps to show
            return real(*a, **kw)
        finally:
            with lock:
                seen["at_once"] -= 1

    async def scenario(server):
        monkeypatch.setattr(hashlib, "scrypt", scrypt)
        # Thirty guesses at once, each from its own address and for its own name (no throttling applies).
        results = await asyncio.gather(*(try_login(server.port, f"user{i}", "guess", source=f"127.0.0.{10 + i}")
                                         for i in range(30)))
        assert not any(results)
        assert await try_login(server.port, "alice", "secret")

    run(serving(scenario, limits=FAST, max_startups=40))
    assert seen["calls"] == 31
    assert seen["loop_thread"] == 0
    assert seen["max_at_once"] == 1


def test_the_guard_doubles_ignores_repeats_locks_out_and_forgets():
    now = [1000.0]
    guard = AuthGuard(lambda: {}, AuthLimits(fail_delay=2, max_fail_delay=15, lockout_failures=6, lockout_time=600),
                      clock=lambda: now[0])

    async def scenario():
        rec = guard._record("addr", "10.0.0.1")
        delays = []
        for i in range(5):
            assert not await guard.check("10.0.0.1", "alice", f"w{i}")
            delays.append(rec.not_before - now[0])
            now[0] = rec.not_before  # the next try comes when allowed
        assert delays == [2, 4, 8, 15, 15]
        assert not await guard.check("10.0.0.1", "alice", "w4")  # the same wrong password again
        assert rec.failures == 5 and not guard.locked("10.0.0.1", "alice")
        now[0] = rec.not_before
        assert not await guard.check("10.0.0.1", "alice", "w5")
        assert guard.locked("10.0.0.1", "alice") and not guard.locked("10.0.0.9", "alice")  # per source
        hashed = guard.hashes
        assert not await guard.check("10.0.0.1", "bob", "x")  # locked: not even hashed
        assert guard.hashes == hashed
        now[0] += 601  # ten minutes later everything is forgotten
        assert not guard.locked("10.0.0.1", "alice")
        assert guard.delay_after(guard._record("addr", "10.0.0.1").failures) == 0

    try:
        asyncio.run(scenario())
    finally:
        guard.close()


# --------------------------------------------------------------------------- finding 3: every connection


def test_a_connection_without_a_session_takes_a_place_and_is_closed_when_idle():
    async def scenario(server):
        idle = asyncio.ensure_future(closed_within(server.port, 20, username="alice", password="secret"))
        deadline = time.monotonic() + 10
        while server.state.places_used() < 1 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert server.state.places_used() == 1
        # The place is taken: a second player is refused.
        assert "server is full" in await closed_within(server.port, 10, username="bob", password="hunter2")
        await idle  # nobody typed: the server closed the session-less connection
        assert "'alice' from 127.0.0.1 after" in (data_dir() / "auth.log").read_text()
        assert await try_login(server.port, "bob", "hunter2")  # its place is free again

    run(serving(scenario, max_sessions=1, idle_timeout=2))


def test_unauthenticated_connections_have_a_grace_time_and_a_cap():
    async def scenario(server):
        loop = asyncio.get_running_loop()

        def silent() -> socket.socket:
            s = socket.create_connection(("127.0.0.1", server.port))
            s.settimeout(15)
            return s

        quiet = [await loop.run_in_executor(None, silent) for _ in range(2)]
        third = await loop.run_in_executor(None, silent)  # beyond max_startups: dropped at once

        def read_to_eof(s: socket.socket) -> float:
            t0 = time.monotonic()
            with s:
                while True:
                    try:
                        if not s.recv(4096):
                            break
                    except ConnectionResetError:
                        break
            return time.monotonic() - t0

        dropped = await loop.run_in_executor(None, read_to_eof, third)
        graced = await asyncio.gather(*(loop.run_in_executor(None, read_to_eof, s) for s in quiet))
        return dropped, graced

    dropped, graced = run(serving(scenario, login_grace_time=2, max_startups=2))
    assert dropped < 1.5
    assert all(1.0 < g < 10 for g in graced)  # closed for never logging in, ~2 s after connecting


# --------------------------------------------------------------------------- finding 4: names at login


def test_a_key_cannot_log_in_under_a_name_that_is_markup(tmp_path):
    key = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(key.export_public_key())  # a keys *file*: any name would do before

    async def scenario(server):
        with pytest.raises((asyncssh.PermissionDenied, asyncssh.DisconnectError)):
            await asyncssh.connect("127.0.0.1", server.port, username="[@click=app.quit]mal", client_keys=[key],
                                   known_hosts=None, agent_path=None, preferred_auth="publickey")
        async with asyncssh.connect("127.0.0.1", server.port, username="mal", client_keys=[key],
                                    known_hosts=None, agent_path=None, preferred_auth="publickey") as conn:
            r = await conn.run(timeout=10)
            assert "needs a terminal" in r.stdout

    run(serving(scenario, authorized_keys=keys))


# --------------------------------------------------------------------------- finding 9: warm start


def test_apps_are_forked_from_the_warm_fork_server():
    async def scenario(server):
        forks = server.state.forks
        assert forks is not None
        deadline = time.monotonic() + 60
        while not forks.ready and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert forks.ready
        t = await Term.open(server.port, "alice", password="secret")
        try:
            await t.wait_for(HOME)
            [session] = server.state.sessions
            with open(f"/proc/{session.child.pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            assert ppid == forks.proc.pid  # forked by the warm helper, not a fresh interpreter
            t.send("p")
            await t.wait_for("New game")
        finally:
            await t.close()
        deadline = time.monotonic() + 10
        while server.state.sessions and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert not server.state.sessions

    run(serving(scenario, warm=True), timeout=120)
