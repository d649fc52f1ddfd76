"""Issue 22: the SSH host survives abuse (findings 1, 2, 3, 4, 5, 10, 12).

Real clients on loopback (asyncssh, raw sockets, OpenSSH's ``ssh`` where installed), port 0,
bounded in time and count.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pytest
from sshterm import Term, serving_ssh

from tui.serve.auth import RepeatFilter, log
from tui.serve.forkserver import ForkServerError
from tui.serve.limits import MAX_COLS, MAX_ROWS, clamp_terminal_size, sane_term
from tui.serve.ssh import Startups, add_password, default_passwords_file

HOME = "Hidden-information board games"
LOBBY = "Shared tables"
ROOT = Path(__file__).resolve().parents[2]


def run(coro, timeout: float = 90.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def serving(scenario, **kw):
    kw.setdefault("warm", False)
    return await serving_ssh(scenario, {"alice": "secret", "bob": "hunter2", "carol": "pw"}, **kw)


def descendants(pid: int) -> set[int]:
    """Every process under ``pid`` (children, their children...), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in found:
                found.add(c)
                todo.append(c)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def open_fds(pids) -> int:
    n = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            n += len(os.listdir(f"/proc/{pid}/fd"))
    return n


# A stand-in app for the tests that need many sessions: it prints the pty's size ("rows cols"),
# then echoes what it reads (no Python start-up per session).
STTY = ["sh", "-c", "stty size; exec cat"]


async def open_raw(port: int, user: str, password: str, width: int, height: int,
                   source: str = "127.0.0.1") -> tuple[asyncssh.SSHClientConnection, asyncssh.SSHClientProcess]:
    conn = await asyncssh.connect("127.0.0.1", port, username=user, password=password, known_hosts=None,
                                  agent_path=None, client_keys=None, preferred_auth="password",
                                  local_addr=(source, 0))
    proc = await conn.create_process(term_type="xterm", term_size=(width, height), encoding=None)
    return conn, proc


async def read_until(proc: asyncssh.SSHClientProcess, word: bytes, timeout: float = 10.0) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while word not in seen:
        chunk = await asyncio.wait_for(proc.stdout.read(4096), max(0.1, deadline - time.monotonic()))
        if not chunk:
            break
        seen += chunk
    return seen


# --------------------------------------------------------------------------- finding 1: terminal sizes


def test_limits_clamp_sizes_and_terminal_names():
    assert clamp_terminal_size(32000, 32000) == (MAX_COLS, MAX_ROWS) == (500, 200)
    assert clamp_terminal_size(0, -5) == (1, 1)
    assert clamp_terminal_size(100, 30) == (100, 30)
    assert sane_term("xterm-256color") == "xterm-256color"
    assert sane_term("screen.xterm-256color") == "screen.xterm-256color"
    for bad in ("x" * 220_000, "", None, "xterm\nrm -rf", "a b", "-xterm", "x" * 65, "xterm\x1b[31m", "é"):
        assert sane_term(bad) == "xterm-256color"


def test_a_huge_pty_and_huge_window_changes_are_clamped():
    async def scenario(server):
        conn, proc = await open_raw(server.port, "alice", "secret", 32000, 32000)
        try:
            assert b"200 500" in await read_until(proc, b"200 500")  # rows cols, as the app sees them
            proc.change_terminal_size(40000, 40000, 70000, 70000)  # over what a signed short holds
            await asyncio.sleep(0.3)
            proc.stdin.write(b"stillhere\n")
            assert b"stillhere" in await read_until(proc, b"stillhere")  # the session goes on
            [session] = server.state.sessions
            import fcntl
            import struct
            import termios

            rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(session.master, termios.TIOCGWINSZ, bytes(8)))
            assert (cols, rows) == (500, 200)
        finally:
            conn.close()
            await conn.wait_closed()

    run(serving(scenario, app_argv=STTY))


WINCH_COUNTER = [sys.executable, "-c", """
import fcntl, os, signal, sys, termios
fcntl.ioctl(0, termios.TIOCSCTTY, 0)
seen = [0]
signal.signal(signal.SIGWINCH, lambda *a: seen.__setitem__(0, seen[0] + 1))
os.write(1, b"ready\\n")
for line in sys.stdin:
    size = os.get_terminal_size(0)
    os.write(1, f"winch={seen[0]} size={size.columns}x{size.lines}\\n".encode())
"""]


def test_a_flood_of_window_changes_reaches_the_app_at_a_bounded_rate():
    async def scenario(server):
        conn, proc = await open_raw(server.port, "alice", "secret", 80, 24)
        try:
            await read_until(proc, b"ready")
            t0 = time.monotonic()
            for i in range(300):
                proc.change_terminal_size(100 + i % 2, 30)
                if i % 50 == 0:
                    await asyncio.sleep(0)
            proc.change_terminal_size(120, 40)
            took = time.monotonic() - t0
            await asyncio.sleep(0.5)
            proc.stdin.write(b"?\n")
            line = (await read_until(proc, b"size=")).decode()
            return took, line
        finally:
            conn.close()
            await conn.wait_closed()

    took, line = run(serving(scenario, app_argv=WINCH_COUNTER))
    assert "size=120x40" in line  # the last size always arrives
    winches = int(line.split("winch=")[1].split()[0])
    assert 1 <= winches <= took / 0.1 + 3, (winches, took)  # ten a second at most, not 301


# --------------------------------------------------------------------------- finding 2: nothing leaks


def test_thirty_connections_with_sizes_over_32767_leave_no_process_or_fd():
    me = os.getpid()

    async def scenario(server):
        async def one(i: int) -> bytes:
            conn, proc = await open_raw(server.port, "alice", "secret", 40000 + i, 33000)
            try:
                return await read_until(proc, b"200 500", timeout=5)
            except (TimeoutError, asyncssh.Error, OSError):  # the session failed: counted below
                return b""
            finally:
                conn.close()
                await conn.wait_closed()

        await asyncio.sleep(0.5)
        before = open_fds([me, *descendants(me)])
        seen = []
        for batch in range(3):  # ten at a time (the per-user cap is for people, not this test)
            seen += await asyncio.gather(*(one(10 * batch + i) for i in range(10)))
        deadline = time.monotonic() + 15
        while (server.state.sessions or descendants(me)) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        return seen, before, open_fds([me, *descendants(me)]), descendants(me)

    seen, before, after, left = run(serving(scenario, app_argv=STTY, max_per_user=10), timeout=120)
    assert left == set()  # no app left behind
    assert after <= before + 2, (before, after)  # no pty left open
    assert all(b"200 500" in s for s in seen)  # every one of them served, at the clamped size

# --------------------------------------------------------------------------- finding 12: apps end with their server

SERVER = """
import sys
from pathlib import Path
from tui.serve.ssh import serve_ssh
serve_ssh("127.0.0.1", 0, passwords_file=Path(sys.argv[1]), pool=1, announce=lambda s: print(s, flush=True))
"""


def test_apps_end_when_the_server_is_killed(tmp_path):
    users = {"alice": "secret", "bob": "hunter2", "carol": "pw"}
    for user, password in users.items():
        add_password(user, password)
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(default_passwords_file())], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        port = 0
        deadline = time.monotonic() + 60
        for line in proc.stdout:  # "unmask: serving over SSH on 127.0.0.1:PORT ..."
            if "serving over SSH on" in line:
                port = int(line.split("127.0.0.1:", 1)[1].split()[0].rstrip(")"))
            if "warm pool full" in line or time.monotonic() > deadline:
                break
        assert port

        async def scenario():
            alice = await Term.open(port, "alice", password="secret")
            await alice.wait_for(LOBBY, timeout=60)
            await alice.settle()
            alice.send("n")  # a new table: alice is seated at it, her app talks to the table service
            await alice.wait_for("^l Tables", timeout=60)
            await alice.settle()
            # Two more arrive; the server is killed the moment their lobbies show (their apps still busy).
            others = await asyncio.gather(*(Term.open(port, u, password=users[u]) for u in ("bob", "carol")))
            await asyncio.gather(*(t.wait_for(LOBBY, timeout=60) for t in others))
            terms = [alice, *others]
            under = descendants(proc.pid)
            assert len(under) >= 4  # the fork server and three apps (forked by it)
            proc.kill()  # kill -9: the server gets no chance to end anything
            proc.wait(10)
            deadline = time.monotonic() + 20
            while any(alive(p) for p in under) and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            left = [p for p in under if alive(p)]
            for t in terms:
                await t.close()
            return left

        left = run(scenario(), timeout=150)
        assert left == []  # nothing left to come back "online" at the next server's tables
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


HUNG_APP = """
import os, signal, sys, time
import tui.serve.child as child
child.LIFELINE_GRACE = 0.5
signal.signal(signal.SIGHUP, signal.SIG_IGN)  # an app whose quitting hangs
child.watch_lifeline()
print("watching", flush=True)
time.sleep(60)
"""


def test_an_app_whose_quit_hangs_still_ends_with_its_server():
    read, write = os.pipe()
    env = dict(os.environ, UNMASK_LIFELINE=str(read))
    app = subprocess.Popen([sys.executable, "-c", HUNG_APP], cwd=ROOT, env=env, pass_fds=(read,),
                           stdout=subprocess.PIPE, text=True)
    try:
        os.close(read)
        assert app.stdout.readline().strip() == "watching"
        assert app.poll() is None
        t0 = time.monotonic()
        os.close(write)  # what the kernel does when the server dies, kill -9 included
        app.wait(15)
        assert time.monotonic() - t0 < 10
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()


# --------------------------------------------------------------------------- finding 3: holding the door


def hold(port: int, n: int, source: str) -> list[socket.socket]:
    """``n`` TCP connections that never say anything (no SSH version line, no login)."""
    held = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
        s.settimeout(30)
        held.append(s)
    return held


def closed_by_server(s: socket.socket) -> bool:
    """Read (with the socket's timeout) until the server closes it; False if it stays open."""
    try:
        while s.recv(4096):
            pass
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


async def logs_in(port: int, user: str, password: str, source: str = "127.0.0.1") -> bool:
    try:
        conn = await asyncssh.connect("127.0.0.1", port, username=user, password=password, known_hosts=None,
                                      agent_path=None, client_keys=None, preferred_auth="password",
                                      local_addr=(source, 0), connect_timeout=20)
    except (asyncssh.Error, OSError):
        return False
    conn.close()
    await conn.wait_closed()
    return True


def test_idle_connections_from_one_address_keep_nobody_out():
    async def scenario(server):
        loop = asyncio.get_running_loop()
        held = await loop.run_in_executor(None, hold, server.port, 12, "127.0.0.2")
        extra = await loop.run_in_executor(None, hold, server.port, 12, "127.0.0.3")
        await asyncio.sleep(0.3)
        t0 = time.monotonic()
        assert await logs_in(server.port, "alice", "secret")  # a real player, with the default flags
        took = time.monotonic() - t0
        assert server.state.unauthenticated("127.0.0.2") == 12
        # They never sent an SSH version line: closed after the banner grace time, not the login one.
        t0 = time.monotonic()
        gone = await asyncio.gather(*(loop.run_in_executor(None, closed_by_server, s) for s in held + extra))
        for s in held + extra:
            s.close()
        return took, gone, time.monotonic() - t0

    took, gone, after = run(serving(scenario, banner_grace_time=2))
    assert took < 5
    assert all(gone) and after < 10


def test_one_address_cannot_take_every_unauthenticated_place():
    async def scenario(server):
        loop = asyncio.get_running_loop()
        held = await loop.run_in_executor(None, hold, server.port, 6, "127.0.0.4")
        await asyncio.sleep(0.3)
        s = (await loop.run_in_executor(None, hold, server.port, 1, "127.0.0.4"))[0]
        s.settimeout(3)
        first = await loop.run_in_executor(None, s.recv, 4096)  # the version line, then the disconnect
        refused = await loop.run_in_executor(None, closed_by_server, s)
        s.close()
        ok = await logs_in(server.port, "bob", "hunter2", source="127.0.0.5")
        for h in held:
            h.close()
        return first, refused, ok

    first, refused, ok = run(serving(scenario, per_source_max_startups=6))
    assert first.startswith(b"SSH-2.0-") and refused
    assert ok  # another address is not affected


def test_random_early_drop_follows_openssh_start_rate_full():
    rng = random.Random(7)
    s = Startups.parse("10:30:20")
    assert str(s) == "10:30:20" and Startups.parse(5) == Startups(5, 100, 5)
    assert not any(s.drop(9, rng) for _ in range(1000))
    assert all(s.drop(20, rng) for _ in range(100))
    at_start = sum(s.drop(10, rng) for _ in range(4000)) / 4000
    halfway = sum(s.drop(15, rng) for _ in range(4000)) / 4000
    assert 0.27 < at_start < 0.33 and 0.62 < halfway < 0.68  # 30 %, then 65 % halfway to full
    for bad in ("0", "10:30", "10:130:20", "20:30:10", "x", ""):
        with pytest.raises(ValueError):
            Startups.parse(bad)


def test_a_late_player_still_gets_in_while_many_addresses_hold_the_door():
    async def scenario(server):
        loop = asyncio.get_running_loop()
        held = []
        for i in range(8):  # 2 per address: 8 open, beyond start (4), short of full (10)
            held += await loop.run_in_executor(None, hold, server.port, 2, f"127.0.1.{i + 1}")
        await asyncio.sleep(0.3)
        tries = 0
        while True:
            tries += 1
            if await logs_in(server.port, "alice", "secret"):
                break
            assert tries < 40
        for h in held:
            h.close()
        return tries

    run(serving(scenario, max_startups="4:50:10", per_source_max_startups=2, banner_grace_time=30))


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH's ssh is not installed")
def test_openssh_shows_a_refused_player_why(tmp_path):
    async def scenario(server):
        loop = asyncio.get_running_loop()
        held = await loop.run_in_executor(None, hold, server.port, 1, "127.0.0.1")
        await asyncio.sleep(0.3)
        r = await asyncio.create_subprocess_exec(
            "ssh", "-F", "/dev/null", "-p", str(server.port), "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={tmp_path / 'known'}",
            "-o", "ConnectTimeout=10", "alice@127.0.0.1", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _out, err = await asyncio.wait_for(r.communicate(), 30)
        for h in held:
            h.close()
        return err.decode(errors="replace")

    err = run(serving(scenario, max_startups=1))
    assert "invalid characters" not in err
    assert "too many connections" in err, err


# --------------------------------------------------------------------------- finding 4: 20 at once


def test_twenty_players_arriving_together_all_get_in_with_the_default_flags(tmp_path):
    key = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(key.export_public_key())

    async def scenario(server):
        async def one(i: int) -> bool:
            try:
                conn = await asyncssh.connect("127.0.0.1", server.port, username=f"player{i}", client_keys=[key],
                                              known_hosts=None, agent_path=None, preferred_auth="publickey",
                                              connect_timeout=30)
            except (asyncssh.Error, OSError):
                return False
            await asyncio.sleep(1.0)  # all logged in together
            conn.close()
            await conn.wait_closed()
            return True

        return await asyncio.gather(*(one(i) for i in range(20)))

    ok = run(serving(scenario, authorized_keys=keys))
    assert sum(ok) == 20


# --------------------------------------------------------------------------- finding 5: one account


def test_one_account_cannot_take_every_place():
    async def scenario(server):
        async def dash_n(user: str, password: str) -> asyncssh.SSHClientConnection | None:
            try:
                return await asyncssh.connect("127.0.0.1", server.port, username=user, password=password,
                                              known_hosts=None, agent_path=None, client_keys=None,
                                              preferred_auth="password")
            except (asyncssh.Error, OSError):
                return None

        carols = [await dash_n("carol", "pw") for _ in range(4)]  # ssh -N carol@host, four times
        assert all(carols)
        fifth = await dash_n("carol", "pw")
        if fifth is not None:  # refused right after logging in: the connection is closed at once
            await asyncio.wait_for(fifth.wait_closed(), 5)
        bob = await dash_n("bob", "hunter2")
        places = server.state.places_used()
        for c in [*carols, bob]:
            if c is not None:
                c.close()
        return fifth is None or fifth._transport is None, bob is not None, places

    refused, bob_in, places = run(serving(scenario, max_sessions=6))
    assert refused and bob_in and places == 5


# --------------------------------------------------------------------------- findings 10 and 2: the warm pool


async def until(test, timeout: float = 60.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.1)


def test_a_hostile_term_or_size_never_drains_the_warm_pool():
    async def scenario(server):
        forks, pool = server.state.forks, server.state.pool
        await until(lambda: pool.was_full, what="the pool to fill")
        # A 220,000-character TERM: served (as xterm-256color), and the fork server stays ready.
        hostile = await Term.open(server.port, "alice", password="secret", term="x" * 220_000)
        try:
            await hostile.wait_for(LOBBY)
            [session] = server.state.sessions
            assert session.pooled is not None and session._env()["TERM"] == "xterm-256color"
        finally:
            await hostile.close()
        assert forks.ready
        # A request the fork server's socket cannot carry is refused without marking it not ready.
        master, slave = os.openpty()
        try:
            with pytest.raises(ForkServerError, match="too large"):
                await forks.launch(slave, {"TERM": "x" * 400_000})
        finally:
            os.close(master)
            os.close(slave)
        assert forks.ready
        # A pooled app given a size over 32767 serves at the clamped size, then ends with its session.
        await until(lambda: len(pool.idle) >= 1, what="the pool to refill")
        t = await Term.open(server.port, "bob", password="hunter2", width=40000, height=40000)
        try:
            await until(lambda: len(server.state.sessions) == 1, what="bob's session")
            [session] = server.state.sessions
            assert session.pooled is not None
            import fcntl
            import struct
            import termios

            rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(session.master, termios.TIOCGWINSZ, bytes(8)))
            assert (cols, rows) == (500, 200)
            bob_pid = session.child.pid
        finally:
            await t.close()
        await until(lambda: not alive(bob_pid), timeout=15, what="bob's app to end")
        # The next lobby comes from the pool again.
        await until(lambda: len(pool.idle) >= 1, what="the pool to refill")
        t0 = time.monotonic()
        late = await Term.open(server.port, "carol", password="pw")
        try:
            await late.wait_for(LOBBY)
            [session] = server.state.sessions
            assert session.pooled is not None
        finally:
            await late.close()
        return time.monotonic() - t0

    run(serving(scenario, warm=True, tables=True, pool=1), timeout=180)


def test_the_command_line_refuses_bad_limits_in_one_line():
    from typer.testing import CliRunner

    from tui.cli import app

    for args, words in ((["--max-startups", "10:200"], "start:rate:full"), (["--max-startups", "x" * 500], "not 'xxx"),
                        (["--max-per-user", "0"], "--max-per-user must be at least 1"),
                        (["--banner-grace-time", "-1"], "--banner-grace-time must be at least 0"),
                        (["--max-tables-per-user", "0"], "--max-tables-per-user must be at least 1"),
                        (["--idle-table-hours", "-2"], "--idle-table-hours must be at least 0")):
        r = CliRunner().invoke(app, ["serve", "ssh", "--port", "0", *args])
        assert r.exit_code != 0 and words in r.output and "Traceback" not in r.output, r.output
        assert len(r.output.strip().splitlines()) == 1


def test_refused_connections_cannot_flood_the_auth_log():
    now = [0.0]

    async def scenario(server):
        [limiter] = [f for h in log.handlers for f in h.filters if isinstance(f, RepeatFilter)]
        limiter.clock, limiter._start = (lambda: now[0]), 0.0
        loop = asyncio.get_running_loop()
        held = await loop.run_in_executor(None, hold, server.port, 1, "127.0.0.6")
        for _ in range(3):  # 60 connections refused, as fast as they come, within one minute
            batch = await loop.run_in_executor(None, hold, server.port, 20, "127.0.0.6")
            await asyncio.sleep(0.2)
            for s in batch:
                s.close()
        now[0] = 61.0  # the next minute: one more line, saying how many were left out
        last = await loop.run_in_executor(None, hold, server.port, 1, "127.0.0.6")
        await asyncio.sleep(0.3)
        for h in held + last:
            h.close()

    run(serving(scenario, per_source_max_startups=1))
    from tui.storage import data_dir

    lines = [x for x in (data_dir() / "auth.log").read_text().splitlines() if "dropped a connection" in x]
    assert len(lines) == 11  # 10 a minute from one address (the log's one limiter), then the next minute's
    assert "[50 similar lines left out before this one, most from 127.0.0.6 (50)]" in lines[-1]


def test_refused_connections_from_many_addresses_have_a_budget_of_their_own():
    """Anyone can cause a refused connection, so such lines get 20 a minute of the log's 120."""
    now = [0.0]
    limiter = RepeatFilter(clock=lambda: now[0])

    def record(message: str, source: str, noise: bool) -> logging.LogRecord:
        r = logging.LogRecord("unmask.auth", logging.WARNING, __file__, 0, message, None, None)
        r.source, r.noise = source, noise
        return r

    refused = [limiter.filter(record("dropped", f"10.0.0.{i}", True)) for i in range(60)]
    assert sum(refused) == 20
    wrong = [record("wrong password", f"10.0.1.{i}", False) for i in range(60)]
    assert all(limiter.filter(r) for r in wrong), "a flood of refused connections must not crowd out failed logins"
    assert "[40 similar lines left out before this one" in wrong[0].msg  # the next line says so
    assert limiter.filter(record("dropped", "10.0.0.99", True)) is False
    now[0] = 61.0  # a new window: refused connections are written again
    later = record("dropped", "10.0.0.1", True)
    assert limiter.filter(later) and "[1 similar line left out" in later.msg
