"""Masque play screen: snapshots (80x24, 120x40) and a whole game by mouse only."""

from __future__ import annotations

from tui_helpers import play_until, record_notes, run_async, snapshot_test

from engine.masque import MasqueConfig
from solvers.bots import make_bot
from solvers.table import Table
from tui.app import UnmaskApp
from tui.masque.dialogs import ActionDialog, PlanDialog
from tui.masque.end import EndScreen
from tui.masque.play import PlayScreen
from tui.storage import load_session

SEED = 3


def new_table(seed: int = SEED) -> Table:
    return Table("masque", MasqueConfig(players=4), seed, ["human", "heuristic", "heuristic", "random"])


def at(want):
    """The seed-3 table, seat 0 played by a heuristic bot until ``want(view of seat 0)`` holds."""

    def make() -> Table:
        table = new_table()
        assert play_until(table, want, make_bot("masque", "heuristic", 0, 99).choose, limit=5000)
        return table

    return make


def at_plan(v: dict) -> bool:
    return v["phase"] == "plan" and v["to_act"] == 0


def at_choose(v: dict) -> bool:
    return v["phase"] == "choose" and v["to_act"] == 0 and v["round"] == 5


test_masque_play_round = snapshot_test(at(at_choose), "3")
test_masque_before_midnight = snapshot_test(at(at_plan), "2")
test_masque_plan_editor = snapshot_test(at(at_plan), "p", "right", "enter")
test_masque_end_screen = snapshot_test(at(at_plan), "y")
test_masque_after_midnight = snapshot_test(at(at_plan), "y", "b")


@run_async(timeout=300)
async def test_masque_whole_game_by_mouse():
    table = new_table(5)
    app = UnmaskApp(table=table, session_id="mouse", bot_delay=0)
    notes = record_notes(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        tried_illegal = False
        for _ in range(400):
            await pilot.pause()
            if isinstance(app.screen, EndScreen):
                break
            v = screen.view
            if isinstance(app.screen, ActionDialog):
                await pilot.click("#masque-act-0")
                continue
            if isinstance(app.screen, PlanDialog):
                await pilot.click("#plan-save")
                continue
            assert app.screen is screen
            if v["to_act"] != 0:
                continue
            phase = v["phase"]
            if phase in ("place", "move", "waltz"):
                room = [a for a in v["legal"] if a[0] == phase][-1][1]
                await pilot.click(f"#room-{room}")
            elif phase == "plan":
                if not tried_illegal:  # an illegal click: nobody moves in the planning step
                    tried_illegal = True
                    before, moves = len(notes), len(table.log)
                    await pilot.click("#room-black")
                    await pilot.pause()
                    assert len(notes) == before + 1, "an illegal click must say why"
                    assert len(table.log) == moves
                await pilot.click("#act-plan")
                await pilot.pause(0.1)
                assert isinstance(app.screen, PlanDialog)
                await pilot.click("#plan-0-2")
                await pilot.click("#plan-save")
                await pilot.pause()
                assert screen.view["plan"][0] == "cw"
                await pilot.click("#act-ready")
            else:
                await pilot.click("#act-act")
        else:
            raise AssertionError("the game did not end")
        await pilot.pause(0.1)
        assert tried_illegal
        assert isinstance(app.screen, EndScreen)
        assert table.is_over()
        saved = load_session("mouse")
        assert len(saved.log) == len(table.log)


@run_async(timeout=120)
async def test_midnight_is_played_out_on_the_board_slot_by_slot():
    """Issue 11, example 5: after the last Ready the board plays midnight out (plans revealed, each
    slot's moves, the Red Death's cards, who dies) before the end screen, and never tells the end early."""
    from engine.masque import SLOTS

    table = new_table(5)
    assert play_until(table, at_plan, make_bot("masque", "heuristic", 0, 99).choose, limit=5000)
    app = UnmaskApp(table=table, session_id="midnight", bot_delay=0.05)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        seen: list[tuple[str, str, set[str], bool]] = []

        def record() -> None:
            red = {r for r in ("black", "blue", "purple", "green", "orange", "white", "violet")
                   if screen.query_one(f"#room-{r}").has_class("-red-death")}
            seen.append((str(screen.query_one("#status").render()), str(screen.query_one("#prompt").render()),
                         red, isinstance(app.screen, EndScreen)))

        tick = screen._midnight_tick

        def recording_tick() -> None:
            tick()
            record()

        over = screen._game_over

        def recording_over() -> None:
            over()
            if not seen:
                record()  # the first thing midnight shows

        screen._midnight_tick = recording_tick  # type: ignore[method-assign]
        screen._game_over = recording_over  # type: ignore[method-assign]
        await pilot.press("y")
        for _ in range(400):
            await pilot.pause(0.05)
            if isinstance(app.screen, EndScreen):
                break
        assert isinstance(app.screen, EndScreen), "the end screen follows the play-out"
        v = table.view(0)
        result = v["result"]
        prompts = [p for _s, p, _r, _e in seen]
        assert "every plan is revealed" in prompts[0]
        assert all("game is over" not in status for status, _p, _r, _e in seen[:-1]), "the end is not told early"
        assert not any(end for *_x, end in seen[:-1]), "the end screen waits for the last slot"
        strikes = [(p, red) for _s, p, red, _e in seen if "the Red Death appears" in p]
        moves = [p for p in prompts if p[:5] in SLOTS and "the nobles move" in p]
        assert len(strikes) == len(SLOTS) and len(moves) == len(SLOTS)
        for k, slot in enumerate(SLOTS):
            sentence, red = strikes[k]
            assert sentence.startswith(slot)
            assert red == set(result["red_death"][slot]), "the slot's Red Death rooms are marked on the board"
            for room in result["red_death"][slot]:
                assert room.title() in sentence
        killed = {s for row in v["midnight"] for group in row["killed"] for s in group}
        for s in killed - {0}:
            assert any(v["players"][s] in p and "takes" in p for p, _r in strikes), "who dies is said"


async def burst(pilot, keys: list[str]) -> None:
    """Send every key before the app handles any (a quick typist, a slow link)."""
    from textual import events

    driver = pilot.app._driver
    for key in keys:
        event = events.Key(key, "\r" if key == "enter" else key)
        event.set_sender(pilot.app)
        driver.send_message(event)
    await pilot.pause()
    await pilot.pause()


@run_async(timeout=120)
async def test_a_burst_of_enter_in_the_action_dialog_answers_once():
    """Issue 11: Enter pressed several times with no pause in the action dialog picked the first option
    once per press; each pick dismissed again, and a dialog's second dismissal popped the play screen
    (Home, or a blank screen, or a crash). The dialog answers once and the game stays on screen."""
    for presses in (2, 3, 6):
        table = at(at_choose)()
        mine = sum(1 for s, _a in table.log if s == 0)
        app = UnmaskApp(table=table, session_id="burst", bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.2)
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            await pilot.press("a")
            assert isinstance(app.screen, ActionDialog)
            await burst(pilot, ["enter"] * presses)
            await pilot.pause(0.1)
            assert screen in app.screen_stack, f"{presses} Enters left the game"
            assert app.screen is screen or isinstance(app.screen, ActionDialog)
            assert sum(1 for s, _a in table.log if s == 0) == mine + 1, "one pick, one action"
            if isinstance(app.screen, ActionDialog):  # the card's next step asks by itself
                await pilot.press("escape")
            assert app.screen is screen


@run_async(timeout=120)
async def test_a_double_tap_on_cancel_closes_only_the_dialog():
    """Two quick taps on Cancel used to dismiss twice: the play screen went too."""
    table = at(at_plan)()
    app = UnmaskApp(table=table, session_id="tap2", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        for key, cancel in (("a", "#masque-act-cancel"), ("p", "#plan-cancel")):
            await pilot.press(key)
            dialog = app.screen
            assert dialog is not screen
            button = dialog.query_one(cancel)
            button.press()
            button.press()
            await pilot.pause(0.1)
            assert app.screen is screen, f"{cancel}: the game must stay on screen"


def _shown(widget) -> str:
    """What a widget shows on screen, as one line of words."""
    from textual.geometry import Region

    lines = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return " ".join(" ".join(strip.text for strip in lines).split())


@run_async(timeout=300)
async def test_every_option_of_the_action_dialog_is_shown_whole_at_80x24():
    """Issue 11: at 80x24 the action dialog cut the cards' texts with "…" (Discuss, Dance…). A player
    chooses by that text, so every option of every decision in a whole game shows it whole."""
    table = new_table(5)
    app = UnmaskApp(table=table, session_id="whole", bot_delay=0)
    seen = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        for _ in range(400):
            await pilot.pause()
            if table.is_over():
                break
            if isinstance(app.screen, PlanDialog):
                await pilot.press("escape")
                continue
            if not isinstance(app.screen, ActionDialog):
                if screen.view["to_act"] != 0:
                    continue
                if screen.view["phase"] == "plan":
                    await pilot.press("y")
                    continue
                await pilot.press("a")
                await pilot.pause()
                assert isinstance(app.screen, ActionDialog)
            dialog = app.screen
            options = dialog.options()
            buttons = list(dialog.query("Choice"))
            assert len(buttons) == len(options)
            for (label, _action), button in zip(options, buttons, strict=True):
                shown = _shown(button)
                assert "…" not in shown and shown == " ".join(label.split()), (label, shown)
                seen += 1
            await pilot.press("end", "enter")  # the last option: usually a card with a long text
        else:
            raise AssertionError("the game did not end")
    assert seen > 30


@run_async(timeout=120)
async def test_a_double_tap_on_board_at_the_end_goes_back_to_the_board_only():
    """Found by mouse at 80x24: two quick taps on the end screen's Board button popped twice, so the
    finished game's board went too and Home showed."""
    table = at(at_plan)()
    app = UnmaskApp(table=table, session_id="board2", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        await pilot.press("y")
        await pilot.pause(0.1)
        assert isinstance(app.screen, EndScreen)
        button = app.screen.query_one("#end-board")
        button.press()
        button.press()
        await pilot.pause(0.1)
        assert app.screen is screen, "Board goes back to the finished game's board, not Home"


def test_an_ask_that_found_no_card_of_the_slot_says_so_in_the_log():
    """Found playing at 80x24: "You look at a 12:20 card of Ligeia (1 offered): 12:00 green" — the card
    was not a 12:20 card: Ligeia had none, so it came from her whole hand. The line says that."""
    from tui.masque import model as m

    v = new_table().view(0)
    names = v["players"]
    miss = {"t": "ask", "seat": 0, "target": 1, "slot": 2, "offered": 3, "matched": False, "how": "look",
            "card": "12:00 green", "n": 1}
    line = m.describe(miss, v)
    assert line == f"You ask {names[1]} for 12:20: none, so you look at any card (3 offered): 12:00 green."
    other = dict(miss, seat=2, how="take", card=None)
    want = f"{names[2]} asks {names[1]} for 12:20: none, so {names[2]} takes any card (3 offered)."
    assert m.describe(other, v) == want
    hit = dict(miss, matched=True, offered=1, card="12:20 black")
    assert m.describe(hit, v) == f"You look at a 12:20 card of {names[1]} (1 offered): 12:20 black."


@run_async(timeout=120)
async def test_the_popularity_track_shows_every_noble_at_80x24_with_7_players():
    """Found playing with 7 at 80x24: the track has two lines, the seven full names need three, and
    the last noble (the least popular) was cut off. The names are shortened to fit instead."""
    from textual.geometry import Region

    table = Table("masque", MasqueConfig(players=7), 11, ["human", *["heuristic"] * 6])
    app = UnmaskApp(table=table, session_id="track7", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        track = screen.query_one("#track")
        lines = track.render_lines(Region(0, 0, track.size.width, track.size.height))
        shown = " ".join(" ".join(s.text for s in lines).split())
        v = screen.view
        for s in v["order"]:
            name = "You" if s == 0 else v["players"][s][:3]
            assert f"{name}" in shown and f" {v['popularity'][s]}" in shown, (name, shown)
        assert shown.count(">") == 6, shown
