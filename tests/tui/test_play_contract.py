"""The play screen contract, the same for every game: bots take their turns at the app's pace,
the end screen follows the last move, every action is saved at once, and a saved game reopens
from the resume screen at the same position.

The screens of each game are tested for what is their own in ``test_<game>_play*.py``.
"""

from __future__ import annotations

import importlib
import itertools
import time

import pytest
from tui_helpers import run_async, wait_for

from engine.registry import GAMES
from solvers.bots import make_bot
from solvers.table import Table
from tui.app import UnmaskApp
from tui.screens.home import SetupScreen
from tui.screens.resume import ResumeScreen
from tui.storage import load_session

# The table of each game: its config and the bots beside the human seat.
TABLES = {
    "clue": ({"players": 3}, ["notes", "random"]),
    "mascarade": ({"players": 4}, ["honest", "random", "random"]),
    "masque": ({"players": 4}, ["heuristic", "random", "heuristic"]),
    "ghoul": ({"players": 5}, ["heuristic", "random", "heuristic", "random"]),
}
POLICY = {"clue": "notes", "mascarade": "honest", "masque": "heuristic", "ghoul": "heuristic"}


def test_every_game_is_here():
    assert set(TABLES) == set(GAMES)


def screens(game: str) -> tuple[type, type]:
    """The game's play screen and end screen."""
    return (importlib.import_module(f"tui.{game}.play").PlayScreen,
            importlib.import_module(f"tui.{game}.end").EndScreen)


def table_of(game: str, seed: int, human: int = 0, log: list | None = None) -> Table:
    config, bots = TABLES[game]
    seats = list(bots)
    seats.insert(human, "human")
    return Table(game, config, seed, seats, log)


async def close_questions(pilot, screen) -> None:
    """Close the dialog the play screen opened by itself (the test submits through the screen)."""
    await pilot.pause()
    for _ in range(3):
        if pilot.app.screen is screen:
            return
        await pilot.press("escape")
        await pilot.pause()
    assert pilot.app.screen is screen


def latest_seat(game: str, seed: int) -> int:
    """The seat whose first decision comes last, so that the most bot actions come before it."""
    table = Table(game, TABLES[game][0], seed, [POLICY[game]] * (len(TABLES[game][1]) + 1))
    first: dict[int, int] = {}
    while len(first) < len(table.seats) and not table.is_over():
        first.setdefault(table.to_act(), len(table.log))
        table.step_bot()
    return max(first, key=first.__getitem__)


def play_out(table: Table, human: int = 0) -> list:
    """The whole game, the human seat played by the game's ordinary bot (the test's strategy)."""
    me = make_bot(table.game, POLICY[table.game], human, 99)
    while not table.is_over():
        if table.to_act() == human:
            table.submit(human, tuple(me.choose(table.view(human))))
        else:
            table.step_bot()
    return list(table.log)


@pytest.mark.parametrize("game", sorted(GAMES))
@run_async
async def test_bots_take_their_turns_at_the_readable_pace(game):
    """With a delay, the bots before the human play one by one, each on its own timer tick (so at
    least the delay apart: a slow machine only spreads them more); without one, at once."""
    human = latest_seat(game, 1)
    paced = table_of(game, 1, human)
    times: list[float] = []
    paced.subscribe(lambda: times.append(time.monotonic()))
    app = UnmaskApp(table=paced, session_id="paced", bot_delay=0.05)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(400):
            if paced.to_act() == human or paced.is_over():
                break
            await pilot.pause(0.02)
        assert paced.to_act() == human
        assert len(times) >= 2, "this table must start with bot actions"
        gaps = [b - a for a, b in itertools.pairwise(times)]
        assert min(gaps) >= 0.04, f"bots played faster than the delay: {gaps}"
    instant = table_of(game, 1, human)
    app = UnmaskApp(table=instant, session_id="instant", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert instant.to_act() == human
        assert instant.log == paced.log, "the pace changes nothing in the game"


@pytest.mark.parametrize("leave", ["new game", "board twice", "replay"])
@pytest.mark.parametrize("game", sorted(GAMES))
@run_async
async def test_the_last_move_shows_the_end_screen_and_is_saved(game, leave):
    """The human's last action is submitted through the screen: the bots finish, the game's end
    screen opens, and the saved session holds the whole game. New game opens the same game's setup
    (Masque's once led to Clue's); a double tap on Board goes back to the board, not past it to Home;
    Replay opens the replay of the whole game (and Escape comes back)."""
    play_screen, end_screen = screens(game)
    whole = play_out(table_of(game, 2))
    last = max(i for i, (seat, _a) in enumerate(whole) if seat == 0)
    table = table_of(game, 2, log=whole[:last])
    app = UnmaskApp(table=table, session_id="ending", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, play_screen))
        action = table.spec.action_from_json(whole[last][1])
        await close_questions(pilot, screen)
        assert screen.submit(action)
        assert await wait_for(pilot, lambda: isinstance(app.screen, end_screen))
        await pilot.pause(0.1)  # let the end screen draw before the app closes
        assert table.is_over() and table.log == whole
        if leave == "replay":  # issue 25: the end screen's Replay button opens the whole game, from the deal
            from tui.screens.replay import ReplayScreen

            end = app.screen
            await pilot.click("#end-replay")
            assert await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
            replay = app.screen.replay
            assert app.screen.at == 0 and len(replay) == len(whole) + 1
            assert table.spec.state_to_json(replay.final) == table.spec.state_to_json(table.state)
            await pilot.press("escape")
            assert await wait_for(pilot, lambda: app.screen is end)
        elif leave == "new game":
            await pilot.press("n")
            assert await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
            assert app.screen.game == game
        else:
            board = app.screen.query_one("#end-board")
            board.press()
            board.press()
            await pilot.pause(0.1)
            assert app.screen is screen
    assert load_session("ending").log == whole


@pytest.mark.parametrize("game", sorted(GAMES))
@run_async
async def test_every_action_is_saved_and_the_game_resumes_where_it_was(game):
    play_screen, _end = screens(game)
    table = table_of(game, 3)
    me = make_bot(game, POLICY[game], 0, 99)
    app = UnmaskApp(table=table, session_id="saved-game", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, play_screen))
        for _ in range(3):
            await close_questions(pilot, screen)
            assert table.to_act() == 0
            assert screen.submit(tuple(me.choose(table.view(0))))
            await pilot.pause()
            assert load_session("saved-game").log == table.log, "every action is saved at once"
        expected_log, expected_view = list(table.log), table.view(0)

    app = UnmaskApp(start="resume", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        assert isinstance(app.screen, ResumeScreen)
        assert await pilot.click("#resume-open-0")
        assert await wait_for(pilot, lambda: isinstance(app.screen, play_screen) or len(app.screen_stack) > 3)
        screen = next(s for s in app.screen_stack if isinstance(s, play_screen))
        assert screen.table.log == expected_log
        assert screen.table.view(0) == expected_view


@pytest.mark.parametrize("game", sorted(GAMES))
@run_async
async def test_a_new_game_is_saved_before_its_first_move(game):
    """A game started from Home is in "Resume" (and a served user's "My games") at once, even while
    its first move waits (here the bots' pace is so slow that nobody moves)."""
    from tui.storage import sessions_dir

    before = set(sessions_dir().glob("*.json"))
    table = table_of(game, 4)
    app = UnmaskApp(bot_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_table(table, None, 0)
        await pilot.pause()
        new = set(sessions_dir().glob("*.json")) - before
        assert len(new) == 1, "the new game is saved as it starts"
        assert load_session(next(iter(new)).stem).log == table.log == []
