"""``unmask serve ssh``: real SSH clients (asyncssh, with a pty) against the server on loopback."""

from __future__ import annotations

import asyncio
import time

import asyncssh
import pytest
from sshterm import Term, serving_ssh

from tui.serve.ssh import (
    ServeError,
    add_password,
    check_password,
    host_key_path,
    load_or_create_host_key,
    read_passwords,
    start_ssh_server,
)

HOME = "Hidden-information board games"


def run(coro, timeout: float = 45.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def serving(scenario, **kw):
    return await serving_ssh(scenario, {"alice": "secret"}, **kw)


async def wait_no_sessions(server, timeout: float = 8.0) -> None:
    deadline = time.monotonic() + timeout
    while server.state.sessions and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert not server.state.sessions


def test_passwords_are_salted_scrypt_hashes():
    path = add_password("bob", "hunter2")
    add_password("carol", "hunter2")
    users = read_passwords(path)
    assert users["bob"]["hash"] != users["carol"]["hash"]  # salted
    assert "hunter2" not in path.read_text()
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert check_password(users, "bob", "hunter2")
    assert not check_password(users, "bob", "hunter3")
    assert not check_password(users, "nobody", "hunter2")
    with pytest.raises(ServeError):
        add_password("bad user", "x")


def test_host_key_is_generated_once():
    a = load_or_create_host_key()
    b = load_or_create_host_key()
    assert a.get_fingerprint() == b.get_fingerprint()
    assert oct(host_key_path().stat().st_mode & 0o777) == "0o600"


def test_no_way_to_log_in_is_a_clear_error():
    with pytest.raises(ServeError, match="No way to log in"):
        run(start_ssh_server("127.0.0.1", 0))


def test_home_screen_keys_mouse_resize_and_clean_exit():
    async def scenario(server):
        t = await Term.open(server.port, "alice", password="secret")
        try:
            await t.wait_for(HOME)
            t.send("p")  # Play vs bots → the setup screen
            await t.wait_for("New game")
            t.send("\x1b")  # Escape → back home
            await t.wait_for(lambda s: HOME in s and "New game" not in s)
            await t.settle()
            x, y = t.find("Rules")
            t.click(x + 1, y)  # the Rules button
            await t.wait_for("Rules — ")
            # A bigger window: the app redraws to fill it.
            t.screen.resize(30, 100)
            t.proc.change_terminal_size(100, 30)
            await t.wait_for(lambda s: any(line[80:].strip() for line in s.splitlines()))
        finally:
            await t.close()
        await wait_no_sessions(server)
        return t

    t = run(serving(scenario))
    assert b"\x1b[?1049h" in t.raw  # the app took the alternate screen


def test_quitting_the_app_restores_the_terminal_and_closes():
    async def scenario(server):
        t = await Term.open(server.port, "alice", password="secret")
        await t.wait_for(HOME)
        await t.settle()
        t.send("q")
        await asyncio.wait_for(t.proc.wait_closed(), 15)
        await t.close()
        await wait_no_sessions(server)
        return t

    t = run(serving(scenario))
    assert t.raw.rfind(b"\x1b[?1049l") > t.raw.rfind(b"\x1b[?1049h")  # left the alternate screen


def test_wrong_password_and_unknown_key_are_refused(tmp_path):
    good = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(good.export_public_key())

    async def scenario(server):
        with pytest.raises(asyncssh.PermissionDenied):
            await Term.open(server.port, "alice", password="wrong")
        with pytest.raises(asyncssh.PermissionDenied):
            await Term.open(server.port, "mallory", password="secret")
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect("127.0.0.1", server.port, username="alice", client_keys=[stranger],
                                   known_hosts=None, agent_path=None, preferred_auth="publickey")
        t = await Term.open(server.port, "alice", client_keys=[good])
        try:
            await t.wait_for(HOME)
        finally:
            await t.close()

    run(serving(scenario, authorized_keys=keys))


def test_per_user_keys_bind_the_user_name(tmp_path):
    alice_key = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "alice").write_bytes(alice_key.export_public_key())

    async def scenario(server):
        with pytest.raises(asyncssh.PermissionDenied):  # alice's key does not log in as bob
            await asyncssh.connect("127.0.0.1", server.port, username="bob", client_keys=[alice_key],
                                   known_hosts=None, agent_path=None, preferred_auth="publickey")
        async with asyncssh.connect("127.0.0.1", server.port, username="alice", client_keys=[alice_key],
                                    known_hosts=None, agent_path=None, preferred_auth="publickey") as conn:
            r = await conn.run(timeout=10)
            assert "needs a terminal" in r.stdout  # logged in; no pty asked

    run(serving(scenario, authorized_keys=keys))


def test_no_pty_no_command_no_forwarding():
    async def scenario(server):
        async with asyncssh.connect("127.0.0.1", server.port, username="alice", password="secret",
                                    known_hosts=None, agent_path=None, client_keys=None) as conn:
            r = await conn.run(timeout=10)
            assert "needs a terminal" in r.stdout and r.exit_status == 1
            assert r.stdout.count("\n") == 1  # one line
            r = await conn.run("cat /etc/passwd", timeout=10)
            assert "only runs the game" in r.stdout and "root:" not in r.stdout
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.run(subsystem="sftp", timeout=10)
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_connection("127.0.0.1", 22)
        await wait_no_sessions(server)

    run(serving(scenario))


def test_max_sessions_and_idle_timeout():
    async def scenario(server):
        t = await Term.open(server.port, "alice", password="secret")
        try:
            await t.wait_for(HOME)
            with pytest.raises((asyncssh.DisconnectError, asyncssh.ChannelOpenError)) as refused:
                async with asyncssh.connect("127.0.0.1", server.port, username="alice", password="secret",
                                            known_hosts=None, agent_path=None, client_keys=None) as conn:
                    await conn.run(term_type="xterm", timeout=10)
                    await asyncio.wait_for(conn.wait_closed(), 10)
            assert isinstance(refused.value, asyncssh.ChannelOpenError) or "server is full" in str(refused.value)
            # Nobody types: the session ends with a message, the terminal restored.
            await t.wait_for("without input", timeout=20)
            await asyncio.wait_for(t.proc.wait_closed(), 10)
        finally:
            await t.close()
        await wait_no_sessions(server)

    run(serving(scenario, max_sessions=1, idle_timeout=4))
