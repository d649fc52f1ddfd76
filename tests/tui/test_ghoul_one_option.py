"""Issue 20: a decision forced by what only you know is asked like any other, on the Tokyo Ghoul
play screen: its dialog opens with the single option, and a tap on it plays it."""

from __future__ import annotations

from tui_helpers import first_table, option_index, run_async, wait_for

from engine.ghoul import GhoulConfig
from solvers.bots import make_bot
from solvers.table import Table
from tui.app import UnmaskApp
from tui.ghoul.dialogs import PickDialog
from tui.ghoul.play import PlayScreen


def _table(seed: int) -> Table:
    return Table("ghoul", GhoulConfig(players=6), seed, ["human", *(["heuristic", "random"] * 3)[:5]])


def _keep_going():
    me = make_bot("ghoul", "heuristic", 0, 99)

    def choose(v: dict) -> tuple:
        if v["phase"] == "attack":
            return ("pass",)
        return tuple(me.choose(v))

    return choose


@run_async
async def test_a_player_who_cannot_kill_is_asked_about_the_attack_and_taps_its_only_option():
    table = first_table(_table, lambda v: v["to_act"] == 0 and v["phase"] == "attack" and not v["character"]["kill"],
                        _keep_going, seeds=range(55, 300))  # seed 55 is the first that gets there
    assert table.view(0)["legal"] == [["pass"]]
    n = len(table.log)
    app = UnmaskApp(table=table, session_id="one-option", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        if isinstance(app.screen, PlayScreen):
            await pilot.press("a")
            await pilot.pause(0.1)
        dialog = app.screen
        assert isinstance(dialog, PickDialog) and dialog.kind == "attack"
        assert [tuple(v) for _label, v in dialog.options()] == [("pass",)]
        await pilot.click(f"#attack-opt-{option_index(dialog, ('pass',))}")
        assert await wait_for(pilot, lambda: len(table.log) > n)
        assert table.log[n] == [0, ["pass"]]
