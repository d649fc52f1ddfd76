"""Shared tables for every game: the service, two seats' secrets, the remote play screens, the lobby.

The table service runs in its own thread and event loop here (as it runs in the server's process):
the app under test calls the service synchronously from its own loop.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time

import pytest
from textual.widgets import Static

from engine.core import IllegalAction
from engine.registry import get_game
from tui.app import UnmaskApp
from tui.serve.lobby import LobbyScreen, default_bot, options_text, table_names
from tui.serve.remote import RemotePlayMixin, RemoteTable, remote_play_screen
from tui.serve.tables import TableService
from tui.storage import data_dir

GAMES = ["mascarade", "masque", "ghoul"]


class ServiceThread:
    """A TableService on its own event loop in a thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

        async def start() -> TableService:
            service = TableService(bot_delay=0)
            await service.start()
            return service

        self.service = self.call(start())
        self.path = self.service.path

    def call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def create(self, game: str, seats: list[str], seed: int, **options) -> str:
        config = {"players": len(seats), "names": list(table_names("alice", seats)), **options}

        async def make() -> str:
            return self.service.create(config, seats, seed=seed, game=game)

        return self.call(make())

    def close(self) -> None:
        self.call(self.service.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def service():
    s = ServiceThread()
    yield s
    s.close()


class Recorder:
    """Every message pushed to one RemoteTable."""

    def __init__(self, rt: RemoteTable) -> None:
        self.pushes: list[dict] = []
        original = rt.client.on_push

        def record(msg: dict) -> None:
            self.pushes.append(json.loads(json.dumps(msg)))
            original(msg)

        rt.client.on_push = record


def engine_views(game: str, config, seed: int, log: list, seat: int) -> list[dict]:
    """The engine's view for ``seat`` after each prefix of the table's log (index = number of actions)."""
    spec = get_game(game)
    state = spec.new_game(config, seed)
    views = [spec.view(state, seat)]
    for _s, raw in log:
        state = spec.apply(state, spec.action_from_json(raw))
        views.append(spec.view(state, seat))
    return views


def wait_until(check, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.01)


@pytest.mark.parametrize("game", GAMES)
def test_two_humans_each_see_only_their_own_seat(service, game):
    """Two people and two bots at one table: every push to a seat is exactly the engine's view for that seat."""
    seats = ["human", "human", default_bot(game), "random"]
    tid = service.create(game, seats, seed=5)
    truth = service.service.tables[tid].table
    alice = RemoteTable(service.path, tid, 0, "alice")
    bob = RemoteTable(service.path, tid, 1, "bob")
    recs = {0: Recorder(alice), 1: Recorder(bob)}
    assert alice.game == bob.game == game
    rng = random.Random(3)
    acted = 0
    for _ in range(400):
        if acted >= 25 or truth.is_over():
            break
        seat = truth.to_act()
        if seat not in (0, 1):
            time.sleep(0.01)
            continue
        rt, other = (alice, bob) if seat == 0 else (bob, alice)
        n = len(truth.log)
        wait_until(lambda rt=rt, n=n: len(rt.log) == n)
        legal = [tuple(a) for a in rt.view(seat)["legal"]]
        assert legal
        with pytest.raises(IllegalAction):
            other.submit(other.seat, legal[0])  # not the other's turn: nothing changes
        assert len(truth.log) == n
        rt.submit(seat, rng.choice(legal))
        acted += 1
    assert acted >= 5
    time.sleep(0.3)
    wait_until(lambda: len(alice.log) == len(truth.log) and len(bob.log) == len(truth.log))
    log = [list(e) for e in truth.log]
    for seat, rec in recs.items():
        views = engine_views(game, truth.config, truth.seed, log, seat)
        assert rec.pushes
        for msg in rec.pushes:
            k = len(msg["log_seats"])
            assert msg["view"] == json.loads(json.dumps(views[k])), (seat, k)
            assert "hands" not in msg  # only Clue's end screen needs the other seats' hands
    with pytest.raises(Exception, match="own seat"):
        alice.view(1)
    alice.close()
    bob.close()


def test_service_refuses_bad_tables(service):
    """A bad game, bot, option or seat list is a sentence; no table is made."""
    s = service.service
    cases = [
        ("chess", {"players": 2}, ["human", "human"], "chess"),
        ("masque", {"players": 4}, ["human", "notes", "notes", "notes"], "notes"),
        ("ghoul", {"players": 4, "mask": "yes"}, ["human", "random", "random", "random"], "true or false"),
        ("mascarade", {"players": 4, "colour": 1}, ["human", "random", "random", "random"], "colour"),
        ("masque", {"players": 4}, ["random"] * 4, "human"),
        ("masque", {"players": 5}, ["human", "random"], "seats"),
        ("masque", "four", ["human"], "JSON object"),
    ]
    for game, config, seats, words in cases:
        with pytest.raises(ValueError, match=words):
            s.create(config, seats, seed=1, game=game)
    assert s.tables == {}


def drive_to_end(game: str, service: ServiceThread, size: tuple[int, int]) -> None:
    """One human and bots at a table of ``game``: the remote play screen draws, plays and shows the end."""
    lo = {"mascarade": 4, "masque": 4, "ghoul": 4}[game]
    seats = ["human"] + ["random"] * (lo - 1)
    tid = service.create(game, seats, seed=2)
    truth = service.service.tables[tid].table
    end_module = __import__(f"tui.{game}.end", fromlist=["EndScreen"])
    play_module = __import__(f"tui.{game}.play", fromlist=["PlayScreen"])

    async def scenario() -> None:
        app = UnmaskApp(bot_delay=0)
        async with app.run_test(size=size) as pilot:
            rt = await asyncio.to_thread(RemoteTable, service.path, tid, 0, "alice")
            screen = remote_play_screen(rt)
            assert isinstance(screen, play_module.PlayScreen) and isinstance(screen, RemotePlayMixin)
            app.push_screen(screen)
            await pilot.pause(0.2)
            assert screen.is_mounted and screen in app.screen_stack  # (a dialog may be open on it)
            drawn = " ".join(str(w.render()) for w in screen.query(Static))
            assert "Bot 2" in drawn  # drawn from the pushed view: the other seats' names are on the table
            rng = random.Random(1)
            for _ in range(3000):
                if isinstance(app.screen, end_module.EndScreen):
                    break
                await pilot.pause(0.02)
                if rt.is_over() or rt.to_act() != 0 or len(rt.log) != len(truth.log):
                    continue
                while app.screen is not screen:  # a dialog the screen opened for this decision: close it
                    await pilot.pause(0.05)
                    if app.screen is not screen and app.screen.is_mounted:
                        await app.screen.dismiss(None)
                if rt.to_act() != 0:
                    continue
                legal = [tuple(a) for a in rt.view(0)["legal"]]
                assert screen.submit(rng.choice(legal))
            assert truth.is_over()
            assert isinstance(app.screen, end_module.EndScreen), app.screen
            moves = len(truth.log)
            assert screen.view == truth.view(0)
            # The screen never saved (the server does) and refuses undo politely.
            screen.action_undo()
            await pilot.pause()
            assert len(truth.log) == moves
            # The end screen's Replay: the whole game, from the table service, now that it is over (issue 25).
            from tui.screens.replay import ReplayScreen

            await pilot.click("#end-replay")
            for _ in range(200):
                if isinstance(app.screen, ReplayScreen):
                    break
                await pilot.pause(0.02)
            assert isinstance(app.screen, ReplayScreen), app.screen
            assert app.screen.path is None  # a shared table's file is the server's: nothing is written here
            assert truth.spec.state_to_json(app.screen.replay.final) == truth.spec.state_to_json(truth.state)
        assert not [p for p in data_dir().rglob("*") if p.is_file() and "served-" in p.name]

    asyncio.run(asyncio.wait_for(scenario(), 240))


@pytest.mark.parametrize("game", GAMES)
def test_remote_play_screen_reaches_the_end(service, game):
    drive_to_end(game, service, (100, 32))


def test_lobby_creates_a_masque_table_by_taps(service):
    """At 80x24: tap Masque, tap Harder, tap Create table; seated at seat 1 of a new Masque table."""
    from tui.masque.play import PlayScreen as MasquePlay

    async def scenario() -> None:
        app = UnmaskApp(bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = LobbyScreen(service.path, "alice")
            app.push_screen(lobby)
            await pilot.pause(0.3)
            # Every part of the form is on screen at 80x24.
            for wid in ("#lobby-game-clue", "#lobby-game-ghoul", "#lobby-board", "#lobby-players",
                        "#lobby-humans", "#lobby-create", "#lobby-down"):
                region = lobby.query_one(wid).region
                assert region.right <= 80 and region.bottom <= 23 and region.width > 0, (wid, region)
            await pilot.click("#lobby-game-masque")
            await pilot.pause(0.2)
            assert lobby.game == "masque"
            assert not lobby.query_one("#lobby-board").display
            await pilot.click("#lobby-flag-masque-harder")
            await pilot.pause(0.2)
            await pilot.click("#lobby-create")
            await pilot.pause(0.5)
            assert isinstance(app.screen, MasquePlay) and isinstance(app.screen, RemotePlayMixin)
            await pilot.pause(0.3)
            assert app.screen.query_one("#status").render()
        [shared] = service.service.tables.values()
        assert shared.table.game == "masque" and shared.table.config.harder
        assert shared.owners == {0: "alice"}
        assert shared.table.seats == ["human", "human", "heuristic", "heuristic"]

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_options_text_names_the_game_and_its_options():
    clue = options_text("clue", {"board": "meereen", "centre_pile": True})
    assert clue == "Clue: Game of Thrones, Meereen, centre pile"
    assert options_text("masque", {"harder": True}) == "Masque of the Red Death, harder"
    assert options_text("ghoul", {"mask": False}) == "Tokyo Ghoul: Bloody Masquerade"
    assert options_text("mascarade", {"opening": False}) == "Mascarade, no opening seen"


def test_clue_sheet_marks_stay_with_their_seat(service):
    """Two people at one Clue table: the marks one puts on the sheet reach neither the other seat nor
    the table's file (issue 23: a served table's sheet is per seat)."""
    from tui.clue.play import PlayScreen

    tid = service.create("clue", ["human", "human", "random"], seed=5)

    async def sit(seat: int, user: str, keys: tuple[str, ...]) -> dict[str, str]:
        app = UnmaskApp(bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            rt = await asyncio.to_thread(RemoteTable, service.path, tid, seat, user)
            screen = remote_play_screen(rt)
            assert isinstance(screen, PlayScreen)
            app.push_screen(screen)
            await pilot.pause(0.3)
            while app.screen is not screen:  # a dialog this seat must answer: not now
                await app.screen.dismiss(None)
                await pilot.pause(0.1)
            await pilot.press("2")
            sheet = screen.query_one("#sheet")
            card = next(c for c in screen.board.cards if screen._holder.get(c) is None)
            sheet.move_cursor(row=screen.board.cards.index(card), column=3)
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
            marks = dict(screen.marks)
            rt.close()
        return marks

    alice = asyncio.run(asyncio.wait_for(sit(0, "alice", ("x", "A")), 120))
    assert list(alice.values()) == ["A"]
    bob = asyncio.run(asyncio.wait_for(sit(1, "bob", ()), 120))
    assert bob == {}, "alice's marks never reach bob's sheet"
    saved = [p.read_text(encoding="utf-8") for p in data_dir().rglob("*.json") if p.is_file()]
    assert saved and not any("clue_marks" in text for text in saved), "nor any file of the server"
