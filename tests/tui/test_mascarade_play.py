"""The Mascarade play screen: snapshots (fixed seeds, instant bots) and a whole game by mouse only."""

from __future__ import annotations

from tui_helpers import first_table, option_index, play_until, record_notes, run_async, snapshot_test

from engine.mascarade import MascaradeConfig
from solvers.bots import make_bot
from solvers.table import Table
from tui.app import UnmaskApp
from tui.mascarade import model as m
from tui.mascarade.dialogs import PickDialog
from tui.mascarade.end import EndScreen
from tui.mascarade.play import PlayScreen
from tui.storage import load_session

BOTS = ["honest", "strong", "random"]


def new_table(seed: int = 3, players: int = 4) -> Table:
    bots = (BOTS * 4)[: players - 1]
    return Table("mascarade", MascaradeConfig(players=players), seed, ["human", *bots])


def at(want, players: int = 4):
    """The first table whose game (seat 0 by an honest bot's choices) reaches ``want``."""
    return lambda: first_table(lambda seed: new_table(seed, players), want,
                               lambda: make_bot("mascarade", "honest", 0, 99).choose, range(1, 100))


def claim_asked(v: dict) -> bool:
    return v["to_act"] == 0 and (v["pending"] or {}).get("kind") == "claim"


def snapshot(make, *keys: str, doc: str = ""):
    return snapshot_test(make, *keys, doc=doc, step=0.1, workers=True)  # the strong bot's worker


test_mascarade_play_start = snapshot(new_table)
test_mascarade_midgame_announce_dialog = snapshot(
    at(lambda v: v["to_act"] == 0 and any(a[0] == "announce" for a in v["legal"])), "a")
test_mascarade_claim_prompt = snapshot(at(claim_asked))
test_mascarade_power_dialog = snapshot(
    at(lambda v: v["to_act"] == 0 and (v["pending"] or {}).get("kind") == "power", players=5),
    doc="The Sorceress's choice (5 players), opened by itself when the power waits for us.")
test_mascarade_end_screen = snapshot(at(lambda v: v["over"]))


# ----------------------------------------------------------------------------- Pilot


@run_async(timeout=240)
async def test_mascarade_whole_game_by_mouse():
    """Every decision of seat 0 made with clicks only: the action bar, then the dialog's option."""
    table = new_table(5)
    me = make_bot("mascarade", "honest", 0, 7)
    app = UnmaskApp(table=table, session_id="mouse", bot_delay=0)
    kinds = {"swap": "swap", "look": "look", "announce": "announce", "claim": "claim", "pass": "pass",
             "power": "choose", "spy_swap": "choose", "name": "choose"}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.1)
        for _ in range(400):
            if isinstance(app.screen, EndScreen):
                break
            screen = app.screen
            v = table.view(0)
            if table.is_over():
                await pilot.pause(0.1)
                continue
            assert v["to_act"] == 0, "bots play instantly: the game waits for us"
            action = tuple(me.choose(v))
            n = len(table.log)
            if isinstance(screen, PickDialog):
                if action[0] in ("claim", "pass") and screen.kind != "claim":
                    await pilot.click(f"#{screen.kind}-cancel")
                    await pilot.pause()
                    continue
                if action[0] in ("swap", "announce", "look"):
                    await pilot.click(f"#{screen.kind}-cancel")
                    await pilot.pause()
                    continue
                await pilot.click(f"#{screen.kind}-opt-{option_index(screen, action)}")
            else:
                assert isinstance(screen, PlayScreen)
                await pilot.click(f"#act-{kinds[action[0]]}")
                await pilot.pause()
                if action[0] not in ("look", "pass", "claim"):
                    dialog = app.screen
                    assert isinstance(dialog, PickDialog)
                    await pilot.click(f"#{dialog.kind}-opt-{option_index(dialog, action)}")
            await pilot.pause()
            assert len(table.log) > n, f"{action} was not played"
        await pilot.pause(0.2)
        assert table.is_over()
        assert isinstance(app.screen, EndScreen)
        assert load_session("mouse").log == table.to_session().log  # autosaved after every action


@run_async
async def test_mascarade_keys_and_illegal_attempts():
    """An action the rules forbid becomes the engine's sentence and changes nothing; keys drive the dialogs."""
    table = new_table()
    app = UnmaskApp(table=table, session_id="keys", bot_delay=0)
    notes = record_notes(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        n = len(table.log)
        await pilot.press("l")  # no looking in the first four turns
        await pilot.pause()
        assert len(table.log) == n
        assert any("first 4 turns" in x for x in notes), notes
        await pilot.press("s")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, PickDialog) and dialog.kind == "swap"
        await pilot.press("escape")  # later: nothing happens
        await pilot.pause()
        assert isinstance(app.screen, PlayScreen) and len(table.log) == n
        await pilot.press("s", "enter")  # the first option: a real swap with the next place
        await pilot.pause()
        assert table.log[n] == [0, ["swap", 1, True]]
        assert load_session("keys").log == table.to_session().log


@run_async
async def test_mascarade_claim_dialog_answers_to_the_prompts_keys():
    """The prompt under the claim dialog says "Claim it too (c) or pass (p)?": those keys answer the
    dialog itself (before, they did nothing while it was open)."""
    for key, kind in (("p", "pass"), ("c", "claim")):
        table = at(claim_asked)()
        app = UnmaskApp(table=table, session_id="claim-keys", bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.1)
            assert isinstance(app.screen, PickDialog) and app.screen.kind == "claim"
            n = len(table.log)
            await pilot.press(key)
            await pilot.pause()
            assert table.log[n] == [0, [kind]]


@run_async
async def test_mascarade_end_screen_sentence_starts_with_a_capital():
    """"You win — reached 13 coins." (it read "you win — …" when you won, and "nobody wins — …")."""
    from textual.widgets import Static

    table = at(lambda v: v["over"])()
    view = table.view(0)
    for winners, start in (([0], "You win — "), ([], "Nobody wins — "), ([1], "Ada wins — ")):
        v = {**view, "result": {**view["result"], "winners": winners}}
        app = UnmaskApp(table=table, session_id="end-capital", bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.1)
            app.push_screen(EndScreen(v, list(view["final_cards"])))
            await pilot.pause()
            text = str(app.screen.query_one("#mq-end-reason", Static).render())
            assert text.startswith(start), text


@run_async
async def test_mascarade_table_after_the_end_shows_the_cards_face_up():
    """Back on the table after the end (Table & log), each place shows its true card at 100%, as the
    end screen does; before, the last beliefs stayed (e.g. "Cheater 50%" on a Trickster)."""
    from textual.widgets import Static

    table = new_table(3)  # its end leaves some cards unsure from seat 0's own observations
    assert play_until(table, lambda v: v["over"], make_bot("mascarade", "honest", 0, 99).choose)
    cards = table.view(0)["final_cards"]
    for size in ((80, 24), (120, 40)):
        app = UnmaskApp(table=table, session_id="end-table", bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause(0.2)
            assert isinstance(app.screen, EndScreen)
            await pilot.press("b")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            await app.workers.wait_for_complete()
            await pilot.pause()
            view = screen.view
            for row in m.place_rows(view, screen.probs):
                assert row.belief == f"{m.mask_name(view, cards[row.place])} 100%" and row.sure
            drawn = str(screen.query_one("#mq-table", Static).render())
            for card in cards:
                assert f"{m.mask_name(view, card)} 100%" in drawn


@run_async
async def test_mascarade_end_screen_new_game_sets_up_mascarade():
    """New game on Mascarade's end screen (key n, or its button) opens Mascarade's setup, not Clue's."""
    from tui.screens.home import SetupScreen

    for how in ("key", "tap"):
        table = at(lambda v: v["over"])()
        app = UnmaskApp(table=table, session_id="end-new", bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.2)
            assert isinstance(app.screen, EndScreen)
            if how == "key":
                await pilot.press("n")
            else:
                await pilot.click("#end-new")
            await pilot.pause(0.2)
            assert isinstance(app.screen, SetupScreen) and app.screen.game == "mascarade"


def test_a_tie_is_shown_as_a_tie_at_every_width():
    """Issue 23: a 50/50 (or 4-way) belief showed one mask name ("Chloe ▮ Empress 50%")."""
    view = new_table().view(0)
    masks = list(dict.fromkeys(view["masks"]))
    n = len(view["players"]) + view["table"]
    probs: list = [None] * n
    probs[1] = {masks[0]: 0.5, masks[1]: 0.5}
    probs[2] = {x: 0.25 for x in masks[:4]}
    probs[3] = {masks[0]: 0.6, masks[1]: 0.4}
    rows = {r.place: r.belief for r in m.place_rows(view, probs)}
    first, second = m.mask_name(view, masks[0]), m.mask_name(view, masks[1])
    assert rows[1] == f"{first} or {second} 50%"
    assert rows[2] == "4 masks tie, 25% each"
    assert rows[3] == f"{first} 60%"
    wide = m.top_beliefs(view, probs, 2, 2)
    assert wide.startswith("tie: ") and all(m.mask_name(view, x) in wide for x in masks[:4])
    assert m.top_beliefs(view, probs, 1, 2) == f"tie: {first}, {second} 50% each"


@run_async
async def test_the_table_follows_a_resize_at_once():
    """Issue 23: after a resize the table kept the old width's layout until the next move."""
    app = UnmaskApp(table=new_table(), session_id="mq-resize", bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        table = app.screen.query_one("#mq-table")
        assert "What you believe is there" in str(table.render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "What you believe is there" not in str(table.render())


@run_async
async def test_a_tie_of_long_names_fits_its_row_in_the_narrow_table():
    """A tie drawn in full ("Judge or Trickster 50%") wrapped its row at 80 columns: the coins and
    beliefs of the seats below no longer lined up with their names."""
    app = UnmaskApp(table=new_table(), session_id="mq-tie-fit", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        view = screen.view
        masks = sorted(dict.fromkeys(view["masks"]), key=lambda x: -len(m.mask_name(view, x)))
        n = len(view["players"]) + view["table"]
        probs: list = [{masks[k]: 1.0} for k in range(n)]
        probs[1] = {masks[0]: 0.5, masks[1]: 0.5}  # the two longest names, tied
        probs[2] = {x: 0.25 for x in masks[:4]}
        probs[3] = {masks[0]: 0.5, masks[2]: 0.5}
        screen.probs, screen._probs_at = probs, screen._probs_at if screen._probs_at is not None else 0
        table = screen.query_one("#mq-table")
        width = table.content_size.width
        lines = screen._table_text().split("\n")
        assert all(line.cell_len <= width for line in lines), [str(x) for x in lines if x.cell_len > width]
        text = "\n".join(str(x) for x in lines)
        assert "/" in text and "%" in text and "tie" in text  # still drawn as ties, never one name
