"""A space per user on a served host: real SSH clients (asyncssh + pyte) against ``serve ssh``.

A served user gets the lobby and their own things (games against bots, table notes) saved under
their login, ``data_dir()/users/<login>/sessions``; never the host's own sessions, never another
user's. No key, palette entry or screen leads past the lobby to the host's files.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh
import pytest
from sshterm import Term

from engine.session import SessionError
from solvers.table import Table
from tui import storage
from tui.serve.ssh import add_password, default_passwords_file, start_ssh_server

HOST_GAME = "clue-play-hostsecret"
HOME = "Hidden-information board games"


def run(coro, timeout: float = 90.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


@pytest.fixture(autouse=True)
def _host_space():
    """Each test starts with the host's own saved game in the host's sessions folder."""
    getattr(storage, "confine_to", lambda path: None)(None)
    table = Table("clue", {"players": 3, "board": "red-keep"}, 5, ["human", "notes", "notes"])
    storage.save_session(table.to_session(), HOST_GAME)
    yield
    getattr(storage, "confine_to", lambda path: None)(None)


def host_files() -> set[str]:
    return {p.name for p in (storage.data_dir() / "sessions").glob("*.json")}


def user_files(login: str) -> set[str]:
    folder = storage.data_dir() / "users" / login / "sessions"
    return {p.name for p in folder.glob("*.json")} if folder.exists() else set()


async def tap(t: Term, label: str) -> None:
    await t.wait_for(label)
    await t.settle()
    x, y = t.find(label)
    t.click(x + 1, y)


async def palette(t: Term, query: str) -> None:
    """Open the command palette (ctrl+p), type ``query``, take the first hit."""
    t.send("\x10")
    await t.wait_for(lambda s: "Search for commands" in s or "›" in s or ">" in s)
    await t.settle()
    t.send(query)
    await t.settle(0.5)
    t.send("\r")
    await t.settle(0.5)


def test_a_served_user_sees_only_their_own_games_and_never_the_hosts():
    add_password("alice", "a")
    add_password("bob", "b")

    async def scenario():
        server = await start_ssh_server("127.0.0.1", 0, passwords_file=default_passwords_file(), tables=True)
        try:
            a = await Term.open(server.port, "alice", password="a", width=100, height=30)
            await a.wait_for("you are alice")
            await a.settle()
            # Escape in the lobby goes nowhere: no Home behind it, no host Resume.
            a.send("\x1b")
            await a.settle(0.6)
            assert "you are alice" in a.text() and HOME not in a.text()
            # The palette's Home leads to the lobby too.
            await palette(a, "Lobby")
            await a.wait_for("you are alice")
            assert HOME not in a.text()
            # "My games": alice has none yet; the host's saved game is not there.
            await tap(a, "My games")
            await a.wait_for("No saved games yet")
            assert "hostsecret" not in a.text() and "My games: your saved games" in a.text()
            a.send("\x1b")
            await a.wait_for("you are alice")
            # The palette's "My games" is the same list.
            await palette(a, "My games")
            await a.wait_for("No saved games yet")
            assert "hostsecret" not in a.text()
            a.send("\x1b")
            await a.wait_for("you are alice")
            # A solo game against bots is saved under alice's login, not in the host's folder.
            await tap(a, "Play vs bots")
            await a.wait_for("which game?")
            await tap(a, "Clue: Game")
            await tap(a, "Start game")
            await a.wait_for("Round 1")
            await a.settle()
            assert len(user_files("alice")) == 1
            assert host_files() == {f"{HOST_GAME}.json"}
            mine = next(iter(user_files("alice"))).removesuffix(".json")
            a.send("\x0c")  # ctrl+l: from a game (and any dialog it opened), the lobby
            await a.wait_for("you are alice")
            await tap(a, "My games")
            await a.wait_for(mine)
            assert "hostsecret" not in a.text()
            # Bob sees neither alice's game nor the host's, and cannot delete either.
            b = await Term.open(server.port, "bob", password="b", width=100, height=30)
            await b.wait_for("you are bob")
            b.send("m")
            await b.wait_for("No saved games yet")
            assert mine not in b.text() and "hostsecret" not in b.text()
            # Alice deletes her own game: only hers goes.
            await a.settle()
            x, y = a.find("Delete")
            a.click(x + 1, y)
            await a.wait_for("Delete saved game")
            a.send("y")
            await a.wait_for("No saved games yet")
            assert user_files("alice") == set() and host_files() == {f"{HOST_GAME}.json"}
            await a.close()
            await b.close()
        finally:
            server.close()
            await server.wait_closed()

    run(scenario())


def test_table_notes_are_the_users_own():
    """Alice's notes of a real table open from her "My games"; the host's and bob's notes are not listed."""
    add_password("alice", "a")
    notes = storage.read_session_file(Path(__file__).parents[2] / "examples" / "masque-assist.json")
    storage.save_session(notes, "masque-assist-hostnotes")
    for login in ("alice", "bob"):
        folder = storage.data_dir() / "users" / login / "sessions"
        storage.atomic_write_json(folder / f"masque-assist-{login}notes.json", notes.to_json())

    async def scenario():
        server = await start_ssh_server("127.0.0.1", 0, passwords_file=default_passwords_file(), tables=True)
        try:
            a = await Term.open(server.port, "alice", password="a", width=120, height=40)
            await a.wait_for("you are alice")
            await tap(a, "My games")
            await a.wait_for("alicenotes")
            text = a.text()
            assert "hostnotes" not in text and "bobnotes" not in text and "hostsecret" not in text
            await tap(a, "Open")
            await a.wait_for("Masque")  # her notes, in the Masque assistant
            await a.settle()
            assert "you are alice" not in a.text()
            a.send("\x0c")  # ctrl+l: the lobby
            # "Assist a table" starts new notes of the chosen game (saved under her login once set up).
            await a.wait_for("you are alice")
            await tap(a, "Assist a table")
            await a.wait_for("which game?")
            await tap(a, "Clue: Game")
            await a.wait_for(lambda s: "you are alice" not in s and "Clue" in s)
            await a.close()
        finally:
            server.close()
            await server.wait_closed()

    run(scenario())


def test_without_shared_tables_home_is_the_users_own():
    add_password("alice", "a")

    async def scenario():
        server = await start_ssh_server("127.0.0.1", 0, passwords_file=default_passwords_file(), tables=False)
        try:
            a = await Term.open(server.port, "alice", password="a", width=100, height=30)
            await a.wait_for(HOME)
            a.send("r")
            await a.wait_for("No saved games yet")
            assert "hostsecret" not in a.text()
            await a.close()
        finally:
            server.close()
            await server.wait_closed()

    run(scenario())


def test_a_login_that_is_not_a_plain_name_gets_no_space(tmp_path, monkeypatch):
    """A name that would point outside users/ never gets a space: the SSH server refuses it at login,
    and the served app itself (the last line, for any server) shows one sentence and nothing else."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_text(key.export_public_key().decode())

    async def over_ssh():
        server = await start_ssh_server("127.0.0.1", 0, authorized_keys=keys, tables=True)
        try:
            try:
                t = await Term.open(server.port, "../../sessions", client_keys=[key], width=100, height=30)
            except (asyncssh.Error, OSError):
                return  # refused at login
            await t.wait_for("cannot have saved games here")
            assert "Shared tables" not in t.text() and HOME not in t.text()
            await t.close()
        finally:
            server.close()
            await server.wait_closed()

    run(over_ssh())

    async def the_app_itself():
        from textual.widgets import Static

        from tui.serve.child import RefusedScreen, ServedApp

        monkeypatch.setenv("UNMASK_USER", "../../sessions")
        monkeypatch.setenv("UNMASK_TABLES_SOCKET", str(tmp_path / "none.sock"))
        app = ServedApp()
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, RefusedScreen)
            assert "cannot have saved games here" in str(app.screen.query_one("#refused", Static).render())
            for action in (app.action_resume, app.action_home, lambda: app.action_new_game("clue"),
                           lambda: app.action_assist("clue")):
                action()
                await pilot.pause()
                assert isinstance(app.screen, RefusedScreen)
            with pytest.raises(SessionError):
                storage.list_sessions()

    run(the_app_itself(), 30)
    storage.confine_to(None)
    assert not (storage.data_dir() / "users").exists() or not any((storage.data_dir() / "users").iterdir())


def test_names_that_would_leave_the_space_are_refused():
    for bad in ("../alice", "..", ".hidden", "a/b", "", "a b", "x" * 65, "al\x00ice"):
        with pytest.raises(storage.SpaceError):
            storage.user_space(bad)
    space = storage.user_space("alice")
    assert space == storage.data_dir() / "users" / "alice" / "sessions"
    assert oct(space.stat().st_mode & 0o777) == "0o700"
    storage.confine_to(space)
    for bad in ("../../sessions/" + HOST_GAME, "../" + HOST_GAME, "/etc/passwd", ".x", "a/b"):
        with pytest.raises(SessionError):
            storage.load_session(bad)
        with pytest.raises(SessionError):
            storage.delete_session(bad)
    assert [i.id for i in storage.list_sessions()] == []
    # A symlink planted in the space is neither listed nor opened.
    (space / "planted.json").symlink_to(storage.data_dir() / "sessions" / f"{HOST_GAME}.json")
    assert [i.id for i in storage.list_sessions()] == []
    with pytest.raises(SessionError):
        storage.load_session("planted")
    storage.forbid_storage("no space")
    with pytest.raises(SessionError, match="no space"):
        storage.list_sessions()
