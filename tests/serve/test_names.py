"""Issue 14, finding 4: user names are letters, digits and ``._-``, and every name is drawn as text.

A name like ``[@click=app.quit]mal`` used to be read as Textual markup: clicked in another
player's lobby it quit that player's app.
"""

from __future__ import annotations

import asyncio

import pytest
from test_lobby_games import ServiceThread
from textual.widgets import Static
from typer.testing import CliRunner

from tui.app import UnmaskApp
from tui.cli import app as cli
from tui.serve.auth import MAX_USER_LEN, user_name_problem, valid_user_name
from tui.serve.lobby import LobbyScreen
from tui.serve.remote import RemoteTable, remote_play_screen
from tui.serve.ssh import ServeError, add_password, default_passwords_file, read_passwords

HOSTILE = "[@click=app.quit]mal"
BAD = [HOSTILE, "", "a b", "x" * (MAX_USER_LEN + 1), "-x", ".hidden", "..", "../etc", "a/b", "a:b", "ünï",
       "[b]bold[/b]", "tab\there", "new\nline"]
GOOD = ["a", "alice", "Al.ice_9-x", "x" * MAX_USER_LEN, "0day"]


@pytest.fixture
def service():
    s = ServiceThread()
    yield s
    s.close()


def test_only_letters_digits_and_dot_underscore_dash_make_a_name():
    for name in GOOD:
        assert valid_user_name(name) and user_name_problem(name) is None, name
    for name in BAD:
        assert not valid_user_name(name), name
        with pytest.raises(ServeError) as e:
            add_password(name, "secret")
        assert "\n" not in str(e.value) and "user name" in str(e.value)
    assert not default_passwords_file().exists()  # nothing was written for a bad name
    assert "at most 32" in user_name_problem("x" * 40)


def test_serve_passwd_refuses_a_markup_name_before_asking_for_a_password():
    runner = CliRunner()
    r = runner.invoke(cli, ["serve", "passwd", HOSTILE], input="pw\npw\n")
    assert r.exit_code == 2
    assert "is not a user name" in r.output and "letters" in r.output and "Password" not in r.output
    assert not default_passwords_file().exists()
    r = runner.invoke(cli, ["serve", "passwd", "mal"], input="pw\npw\n")
    assert r.exit_code == 0, r.output
    assert set(read_passwords(default_passwords_file())) == {"mal"}


def drawn(screen) -> str:
    return "\n".join(str(w.render()) for w in screen.query(Static))


def test_a_markup_name_is_drawn_as_text_in_the_lobby_and_clicking_it_does_nothing(service):
    tid = service.create("clue", ["human", "human", "notes"], seed=1)
    RemoteTable(service.path, tid, 1, HOSTILE).close()  # the seat now belongs to that name

    async def scenario() -> None:
        app = UnmaskApp(bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            lobby = LobbyScreen(service.path, "[b]alice[/b]")
            app.push_screen(lobby)
            for _ in range(50):
                await pilot.pause(0.1)
                if HOSTILE in drawn(lobby):
                    break
            text = drawn(lobby)
            assert f"2: {HOSTILE}" in text
            assert "you are [b]alice[/b]" in text
            # Click every cell of the line that shows the name: nothing happens.
            line = next(w for w in lobby.query(Static) if HOSTILE in str(w.render()))
            line.scroll_visible(animate=False)
            await pilot.pause()
            seen = line.region.intersection(app.screen.size.region)  # the part of the line a click reaches
            assert seen.width > 0
            for x in range(seen.x, seen.right):  # screen coordinates: every cell of the line's first row
                await pilot.click(offset=(x, seen.y))
            await pilot.pause(0.2)
            assert app.is_running and app.return_code is None and app.screen is lobby

    asyncio.run(asyncio.wait_for(scenario(), 90))


def test_a_markup_name_is_drawn_as_text_at_the_table(service):
    tid = service.create("clue", ["human", "notes", "notes"], seed=3, names=[HOSTILE, "[b]Bot[/b] 2", "Bot 3"])

    async def scenario() -> None:
        app = UnmaskApp(bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            rt = await asyncio.to_thread(RemoteTable, service.path, tid, 0, "mal")
            screen = remote_play_screen(rt)
            app.push_screen(screen)
            for _ in range(50):
                await pilot.pause(0.1)
                players = screen.query("#players").first(Static) if screen.query("#players") else None
                if players is not None and "Bot 3" in str(players.render()):
                    break
            assert players is not None
            assert "[b]Bot[/b] 2" in str(players.render())  # the list of players at the table
            # Every line the play screen draws goes through one funnel; a name in it stays text.
            screen._put("#status", f"{HOSTILE}'s turn · [b]Bot[/b] 2 to act")
            await pilot.pause()
            assert str(screen.query_one("#status", Static).render()) == f"{HOSTILE}'s turn · [b]Bot[/b] 2 to act"
            assert app.is_running

    asyncio.run(asyncio.wait_for(scenario(), 90))
