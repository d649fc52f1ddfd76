"""Undo on the play screens stops at the last secret you saw, says why, and the help says so (issue 11, ex. 6)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tui_helpers import run_async

from tui.app import UnmaskApp
from tui.screens.help import binding_rows

sys.path.insert(0, str(Path(__file__).parents[1] / "solvers"))
from test_undo_secrets import CASES, _play_until_seen


@pytest.mark.parametrize("game,config,bot,seen", CASES)
@run_async(timeout=120)
async def test_undo_key_refuses_after_a_secret_and_says_why(game, config, bot, seen):
    table, _mine = _play_until_seen(game, config, bot, seen)
    app = UnmaskApp(table=table, session_id=f"undo-{game}", bot_delay=0)
    notes: list[str] = []
    original = app.notify

    def notify(message, *args, **kwargs):
        notes.append(str(message))
        return original(message, *args, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        for _ in range(5):  # close a dialog the position opened by itself
            if hasattr(app.screen, "table"):
                break
            await pilot.press("escape")
            await pilot.pause()
        screen = app.screen
        assert hasattr(screen, "table")
        log = [list(e) for e in table.log]
        assert screen.query_one("#act-undo").disabled
        await pilot.press("z")
        await pilot.pause()
        assert table.log == log, "undo never goes back past the secret"
        assert any("something hidden" in n for n in notes), "a refused undo says why"
        text = " ".join(desc for _k, desc, _now in binding_rows(screen))  # what ? shows for this screen
        assert "never past the last moment you saw something hidden" in text


@run_async(timeout=120)
async def test_mascarade_undo_takes_back_a_swap_and_the_bots_after_it():
    """Mascarade: z takes back your swap and the bots' turns after it; the Undo button does the same.

    The beliefs shown are always those of the position now: after an undo and a quick other move
    to the same number of events, never those of the moves taken back."""
    from engine.mascarade import MascaradeConfig
    from solvers.mascarade import ObservationLog, solve
    from solvers.table import HUMAN, Table
    from tui.mascarade.play import PlayScreen
    from tui.storage import load_session

    table = Table("mascarade", MascaradeConfig(players=4), 3, [HUMAN, "honest", "honest", "honest"])
    app = UnmaskApp(table=table, session_id="undo-mascarade", bot_delay=0)
    notes: list[str] = []
    original = app.notify
    app.notify = lambda message, *a, **k: (notes.append(str(message)), original(message, *a, **k))[1]  # type: ignore[method-assign]

    async def beliefs_are_fresh() -> None:
        await app.workers.wait_for_complete()
        await pilot.pause()
        obs = ObservationLog.from_view(table.view(0))
        res = solve(obs.config or {}, obs.log, advice=False)
        assert screen.probs == [res["probabilities"].get(name) for name in obs.places]

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and table.to_act() == 0
        assert screen.query_one("#act-undo").disabled, "nothing of yours to undo yet"
        await pilot.press("z")
        await pilot.pause()
        assert any("Nothing of yours" in n for n in notes)
        start = [list(e) for e in table.log]
        taken_back = None  # the position of the real swap, once taken back
        for real in (True, False):  # a real swap with place 1, then a pretended one: as many events
            await pilot.press("s")
            await pilot.pause()
            await app.screen.dismiss(("swap", 1, real))
            await pilot.pause()
            assert len(table.log) > len(start) + 1, "the bots played after our swap"
            assert table.to_act() == 0
            if app.screen is not screen:  # a bot's announcement asks us to claim or pass: later
                await pilot.press("escape")
                await pilot.pause()
            await beliefs_are_fresh()
            assert app.screen is screen and not screen.query_one("#act-undo").disabled
            if taken_back is not None:  # the real swap's beliefs, answered late (a slow worker): not taken
                fresh = screen.probs
                stale = [{mask: 0.0 for mask in p} for p in fresh]  # unlike any real answer
                screen._belief_ready(taken_back, stale)
                assert screen.probs == fresh
            taken_back = screen._probs_at
            if real:
                await pilot.press("z")
            else:
                await pilot.click("#act-undo")
            await pilot.pause()
            assert table.log == start, "the swap and the bots' turns after it are taken back"
            assert load_session("undo-mascarade").log == start
            assert isinstance(app.screen, PlayScreen) and screen.query_one("#act-undo").disabled
        await beliefs_are_fresh()
        text = " ".join(desc for _k, desc, _now in binding_rows(screen))
        assert "never past the last moment you saw something hidden" in text


@run_async(timeout=120)
async def test_mascarade_refused_undo_leaves_a_dialog_put_off_for_later():
    """Claim dialog put off with Later, then z refused (your last action was a look): the dialog stays
    closed, as Later asked; before, the refused undo opened it again over the notice."""
    from tui_helpers import first_table

    from engine.mascarade import MascaradeConfig
    from solvers.bots import make_bot
    from solvers.table import HUMAN, Table
    from tui.mascarade.play import PlayScreen

    def make(seed: int) -> Table:
        return Table("mascarade", MascaradeConfig(players=4), seed, [HUMAN, "honest", "honest", "honest"])

    def want(v: dict) -> bool:
        mine = [e for e in v["events"] if e.get("seat") == 0 and e["t"] not in ("turn", "setup")]
        return (v["to_act"] == 0 and (v["pending"] or {}).get("kind") == "claim"
                and bool(mine) and mine[-1]["t"] == "look")

    table = first_table(make, want, lambda: make_bot("mascarade", "honest", 0, 99).choose)
    assert table.undo_target(0) is None
    app = UnmaskApp(table=table, session_id="undo-mascarade-later", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        assert not isinstance(app.screen, PlayScreen), "the claim dialog opened by itself"
        await pilot.press("escape")  # Later
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await pilot.press("z")
        await pilot.pause(0.1)
        assert app.screen is screen, "a refused undo leaves the dialog closed"
        n = len(table.log)
        await pilot.press("c")  # the claim is still ours to make, by its key
        await pilot.pause()
        assert table.log[n] == [0, ["claim"]]
