"""Tokyo Ghoul play screen: snapshots of the screen, every dialog and the end (80x24, 120x40),
a whole game by mouse only, and illegal input that changes nothing."""

from __future__ import annotations

import pytest
from tui_helpers import run_async

from engine.ghoul import GhoulConfig
from solvers.bots import make_bot
from solvers.table import Table
from tui.app import UnmaskApp
from tui.ghoul.dialogs import ExchangeDialog, PickDialog
from tui.ghoul.end import EndScreen
from tui.ghoul.play import PlayScreen
from tui.storage import load_session
from tui.widgets.confirm import ConfirmDialog

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def new_table(seed: int = 1, players: int = 6, mask: bool = False, support: bool = False,
              characters: tuple[str, ...] = ()) -> Table:
    config = GhoulConfig(players=players, mask=mask, support=support, characters=characters)
    bots = (["heuristic", "random"] * 4)[: players - 1]
    return Table("ghoul", config, seed, ["human", *bots])


def advance(table: Table, want, limit: int = 3000, policy=None) -> bool:
    """Play seat 0 (a heuristic bot's choices, or ``policy``) until ``want(view of seat 0)`` holds."""
    me = make_bot("ghoul", "heuristic", 0, 99)
    for _ in range(limit):
        v = table.view(0)
        if want(v):
            return True
        if table.is_over():
            return False
        if table.to_act() == 0:
            act = (policy(v) if policy else None) or tuple(me.choose(v))
            table.submit(0, tuple(act))
        else:
            table.step_bot()
    return False


def find_table(want, seeds=range(1, 300), policy=None, **kw) -> Table:
    for seed in seeds:
        t = new_table(seed, **kw)
        if advance(t, want, policy=policy):
            return t
    raise AssertionError("no seed reaches the wanted position")


def my(phase: str):
    return lambda v: v["to_act"] == 0 and v["phase"] == phase


def settle(*keys: str):
    async def run(pilot) -> None:
        await pilot.pause()
        await pilot.pause(0.2)
        for key in keys:
            await pilot.press(key)
            await pilot.pause(0.2)
        await pilot.pause(0.2)

    return run


def play_app(table: Table) -> UnmaskApp:
    return UnmaskApp(table=table, session_id="snapshot", bot_delay=0)


def no_attack(v: dict):
    """Keep the game going: never attack and never use the special action while looking for a position."""
    if v["phase"] == "attack":
        return ("pass",)
    if v["phase"] == "move":
        moves = [a for a in v["legal"] if a[0] == "move"]
        return tuple(moves[0])
    return None


# ----------------------------------------------------------------------------- snapshots: the screen


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_play_move(snap_compare, size):
    """Our turn: the ring with the reachable locations in green, the players, the log."""
    table = find_table(lambda v: my("move")(v) and v["round"] >= 2, policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_play_you_tab(snap_compare, size):
    table = find_table(lambda v: my("move")(v) and v["round"] >= 2, policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("2"))


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_play_cast_tab(snap_compare, size):
    """Every character in play (public) with its objectives."""
    table = find_table(lambda v: my("move")(v) and v["round"] >= 2, policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("3"))


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_play_mask_variant(snap_compare, size):
    """Mask variant, 8 players: face-up cards in the players' list."""
    table = find_table(lambda v: my("move")(v), players=8, mask=True)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


# ----------------------------------------------------------------------------- snapshots: every dialog


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_prelim_show_dialog(snap_compare, size):
    table = find_table(my("prelim_show"))
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_prelim_give_dialog(snap_compare, size):
    table = find_table(my("prelim_give"))
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_move_dialog(snap_compare, size):
    table = find_table(my("move"))
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("a"))


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_special_action_dialog(snap_compare, size):
    """An Inspector with two Doves: the special action beside the moves."""
    table = find_table(lambda v: my("move")(v) and any(a[0] == "special" for a in v["legal"]),
                       characters=("kaneki", "kimi", "hide", "mado", "touka", "tsukiyama"), policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("a"))


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_interrogate_dialog(snap_compare, size):
    table = find_table(my("interrogate"), policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_show_dialog(snap_compare, size):
    """A bot interrogates us: we pick the two cards it sees."""
    table = find_table(my("show"), policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_exchange_dialog(snap_compare, size):
    table = find_table(my("exchange"), policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("enter"))


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_cover_remove_dialog(snap_compare, size):
    table = find_table(my("cover_remove"), policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_cover_add_dialog(snap_compare, size):
    table = find_table(my("cover_add"), policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_attack_dialog(snap_compare, size):
    table = find_table(my("attack"), policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_attack_confirm(snap_compare, size):
    """An attack ends the game: the screen asks first."""
    table = find_table(my("attack"), policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle("enter"))


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_setup_face_dialog(snap_compare, size):
    """Mask variant: the card to place face up at setup."""
    table = find_table(my("setup_face"), mask=True)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_refill_dialog(snap_compare, size):
    """Mask variant: a new face-up card after an exchange took ours."""
    table = find_table(my("refill"), mask=True, policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_support_dialog(snap_compare, size):
    table = find_table(my("support"), support=True, policy=no_attack)
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_end_screen(snap_compare, size):
    table = find_table(lambda v: v["over"])
    assert snap_compare(play_app(table), terminal_size=size, run_before=settle())


# ----------------------------------------------------------------------------- Pilot


async def _wait_for(pilot, cond, tries: int = 20) -> bool:
    """Screen switches take a few frames in Textual 8: wait for ``cond`` (at most a second)."""
    for _ in range(tries):
        if cond():
            return True
        await pilot.pause(0.05)
    return cond()


def _option_index(dialog: PickDialog, action: tuple) -> int:
    return [tuple(v) for _label, v in dialog.options()].index(tuple(action))


async def _click_exchange(pilot, dialog: ExchangeDialog, action: tuple) -> None:
    if action == ("pass",):
        await pilot.click("#exchange-pass")
        return
    give = dialog.gives.index((action[1], action[3]))
    take = dialog.takes.index((action[2], action[4]))
    await pilot.click(f"#exchange-give-{give}")
    await pilot.click(f"#exchange-take-{take}")
    await pilot.pause()
    await pilot.click("#exchange-do")


@pytest.mark.parametrize("seed,size", [(5, (120, 40)), (11, (80, 24))])
def test_ghoul_whole_game_by_mouse(seed, size):
    """Every decision of seat 0 is a click: a location on the ring, a dialog option, a button."""

    @run_async(timeout=300)
    async def run() -> None:
        table = new_table(seed, support=True)
        me = make_bot("ghoul", "heuristic", 0, 7)
        app = UnmaskApp(table=table, session_id="mouse", bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause(0.2)
            play = next(x for x in app.screen_stack if isinstance(x, PlayScreen))
            for _ in range(400):
                await pilot.pause()
                screen = app.screen
                if isinstance(screen, EndScreen):
                    break
                if table.is_over():
                    await pilot.pause(0.1)
                    continue
                v = table.view(0)
                assert v["to_act"] == 0, "instant bots: the game waits for us"
                action = tuple(me.choose(v))
                n = len(table.log)
                if isinstance(screen, ConfirmDialog):
                    await pilot.click("#confirm-yes")
                elif isinstance(screen, ExchangeDialog):
                    await _click_exchange(pilot, screen, action)
                elif isinstance(screen, PickDialog):
                    await pilot.click(f"#{screen.kind}-opt-{_option_index(screen, action)}")
                    if action[0] in ("attack", "special"):
                        assert await _wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog))
                        await pilot.click("#confirm-yes")
                else:
                    assert screen is play
                    if action[0] == "move":
                        await pilot.click(f"#place-{action[1]}")
                    else:
                        await pilot.click("#act-act")
                        continue
                assert await _wait_for(pilot, lambda n=n: len(table.log) > n), f"{action} was not played"
            else:
                raise AssertionError("the game did not end")
            await pilot.pause(0.1)
            assert table.is_over()
            assert isinstance(app.screen, EndScreen)
            assert load_session("mouse").log == table.to_session().log  # autosaved after every action
            await pilot.click("#end-board")
            await pilot.pause(0.1)
            assert app.screen is play

    run()


@run_async
async def test_ghoul_illegal_taps_change_nothing():
    """A tap on a location the token cannot reach, or a key with nothing to decide: a sentence, no change."""
    table = find_table(my("move"))
    app = UnmaskApp(table=table, session_id="keys", bot_delay=0)
    notes: list[str] = []
    original = app.notify

    def notify(message, *args, **kwargs):
        notes.append(str(message))
        return original(message, *args, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        v = table.view(0)
        n = len(table.log)
        far = next(p for p in range(8) if p not in v["reachable"] and p != v["token"])
        await pilot.click(f"#place-{far}")
        await pilot.pause()
        assert len(table.log) == n and notes, "an unreachable location must say why"
        assert "token" in notes[-1]
        await pilot.press("p")  # nothing to pass in the move phase
        await pilot.pause()
        assert len(table.log) == n
        await pilot.press("a")
        await pilot.pause(0.1)
        assert isinstance(app.screen, PickDialog) and app.screen.kind == "move"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, PlayScreen) and len(table.log) == n
        dest = v["reachable"][0]
        await pilot.click(f"#place-{dest}")
        await pilot.pause()
        assert table.log[n] == [0, ["move", dest]]
        if not isinstance(app.screen, PlayScreen):  # the location's first decision opened its dialog
            await pilot.press("escape")
            await pilot.pause()
        await pilot.press("z")  # undo: back to our move
        await pilot.pause()
        assert len(table.log) == n and table.view(0)["phase"] == "move"
        assert load_session("keys").log == table.to_session().log
