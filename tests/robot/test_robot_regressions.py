"""The examples of issue 11, each replayed the way the person met it (they failed before their fixes)."""

from __future__ import annotations

import asyncio

from harness import burst, log_wrap_problem, unreachable
from rich.text import Text
from textual.app import App
from textual.widgets import Input, Static, TabbedContent, TabPane

from engine.mascarade import MascaradeConfig
from solvers.table import Table
from tui.app import UnmaskApp
from tui.widgets.logview import LogView


def run(coro, timeout: float = 120):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def clue_table(want, seeds=range(1, 200), to_centre: bool = False) -> Table:
    """The first seed whose game reaches a position where ``want(view of seat 0)`` holds."""
    from harness import play_until

    for seed in seeds:
        from engine.clue import ClueConfig

        t = Table("clue", ClueConfig(board="red-keep", players=3), seed, ["human", "notes", "random"])
        if play_until(t, want, to_centre=to_centre):
            return t
    raise AssertionError("no seed reaches the position")


def can(kind):
    return lambda v: v["to_act"] == v["seat"] and any(a[0] == kind for a in v["legal"])


# ----------------------------------------------------------------------------------------- 1


async def _cancel_stays(table: Table, key: str, dialog_id: str, how: str) -> None:
    from tui.clue.play import PlayScreen

    app = UnmaskApp(table=table, session_id="clue-robot-1", bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.1)
        assert isinstance(app.screen, PlayScreen)
        await pilot.press(key)
        await pilot.pause(0.1)
        assert app.screen.query(f"#{dialog_id}-cancel"), "the dialog opened"
        if how == "tap":
            await pilot.click(f"#{dialog_id}-cancel")
        else:
            app.screen.query_one(f"#{dialog_id}-cancel").focus()
            await pilot.press("enter")
        await pilot.pause(0.1)
        assert isinstance(app.screen, PlayScreen), f"{how} on Cancel left the game for {app.screen!r}"


def test_clue_rumor_cancel_by_tap_stays_in_the_game():
    run(_cancel_stays(clue_table(can("rumor")), "u", "rumor", "tap"))


def test_clue_rumor_cancel_by_enter_stays_in_the_game():
    run(_cancel_stays(clue_table(can("rumor")), "u", "rumor", "enter"))


def test_clue_accuse_cancel_by_tap_stays_in_the_game():
    run(_cancel_stays(clue_table(can("accuse"), to_centre=True), "a", "accuse", "tap"))


# ----------------------------------------------------------------------------------------- 2


class _Tabs(App[None]):
    def compose(self):
        with TabbedContent(initial="t-log"):
            with TabPane("Log", id="t-log"):
                yield LogView(id="log")
            with TabPane("Other", id="t-other"):
                yield Static("other")


SENTENCE = Text("You used Margaery Tyrell's power: every player shows you a card of their choice, in turn.")


def test_log_lines_added_behind_another_tab_follow_the_pane_width():
    async def go():
        app = _Tabs()
        async with app.run_test(size=(80, 24)) as pilot:
            log = app.query_one(LogView)
            log.extend([SENTENCE] * 3)
            await pilot.pause()
            app.query_one(TabbedContent).active = "t-other"
            await pilot.pause()
            log.extend([SENTENCE] * 30)
            await pilot.pause()
            app.query_one(TabbedContent).active = "t-log"
            await pilot.pause()
            await pilot.pause()
            assert log_wrap_problem(log) is None, log_wrap_problem(log)
            assert log.scroll_y == log.max_scroll_y, "the log opens on its newest line"

    run(go())


async def _clue_log_behind_sheet() -> None:
    from tui.clue.play import PlayScreen

    table = clue_table(lambda v: v["to_act"] == v["seat"] and v["phase"] == "start" and len(v["events"]) > 6)
    app = UnmaskApp(table=table, session_id="clue-robot-2", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        assert isinstance(app.screen, PlayScreen)
        await pilot.press("2")  # the sheet tab
        await pilot.pause()
        await pilot.press("r")  # roll: a log line while the sheet shows
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        await pilot.pause()
        log = app.screen.query_one(LogView)
        assert log_wrap_problem(log) is None, log_wrap_problem(log)
        assert log.scroll_y == log.max_scroll_y


def test_clue_log_written_behind_the_sheet_reads_at_full_width():
    run(_clue_log_behind_sheet())


# ----------------------------------------------------------------------------------------- 3


def test_mascarade_announce_dialog_reachable_at_80x24_with_12_players():
    from tui.mascarade.play import PlayScreen

    table = None
    for seed in range(1, 60):
        t = Table("mascarade", MascaradeConfig(players=12), seed, ["human"] + ["random"] * 11)
        for _ in range(2000):
            if t.is_over():
                break
            v = t.view(0)
            if t.to_act() == 0 and any(a[0] == "announce" for a in v["legal"]):
                table = t
                break
            if t.to_act() == 0:
                t.submit(0, next(tuple(a) for a in v["legal"] if a[0] in ("swap", "pass", "look", "claim"))
                         if any(a[0] in ("swap", "pass", "look", "claim") for a in v["legal"])
                         else tuple(v["legal"][0]))
            else:
                t.step_bot()
        if table is not None:
            break
    assert table is not None

    async def go():
        app = UnmaskApp(table=table, session_id="mascarade-robot-3", bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.1)
            assert isinstance(app.screen, PlayScreen)
            await pilot.press("a")
            await pilot.pause(0.1)
            assert app.screen.query("#announce-cancel")
            bad = unreachable(app)
            assert not bad, f"out of reach at 80×24: {bad}"

    run(go())


# ----------------------------------------------------------------------------------------- 4


def test_clue_assist_setup_burst_of_names_keeps_one_name_per_row():
    from tui.clue.assist_setup import SetupForm

    async def go():
        app = UnmaskApp(start="assist:clue", bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.1)
            form = app.screen.query_one(SetupForm)
            app.screen.query_one("#ax-board").focus()
            await pilot.pause()
            for i in range(3):
                app.screen.query_one(f"#ax-name-{i}", Input).value = ""
            await pilot.pause()
            app.screen.query_one("#ax-board").focus()
            await pilot.pause()
            await burst(pilot, ["tab", *"Ann", "tab", "tab", *"Bob", "tab", "tab", *"Cat"])
            await pilot.pause()
            await pilot.pause()
            shown = [app.screen.query_one(f"#ax-name-{i}", Input).value for i in range(3)]
            assert shown == ["Ann", "Bob", "Cat"], shown
            assert form.data.players[:3] == shown, (form.data.players, shown)

    run(go())


# ----------------------------------------------------------------------------------- found by the robot


def test_footer_pick_key_is_greyed_where_it_would_change_nothing():
    """Found by the robot: the footer showed "space Pick" on a picker whose only choice was already picked."""

    async def go():
        app = UnmaskApp(start="assist:clue", bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.1)
            board = app.screen.query_one("#ax-board")
            board.focus()
            board.current = [v for _, v in board.options].index(board.value)
            board._paint()
            await pilot.pause()
            active = app.screen.active_bindings.get("space")
            assert active is None or not active.enabled, "space Pick shown, though it changes nothing"
            board.action_move(1, "col")
            await pilot.pause()
            assert app.screen.active_bindings["space"].enabled, "on another board, Pick picks it"

    run(go())



def test_mascarade_assist_setup_typing_a_name_in_a_burst_does_not_crash():
    """Found by the robot: each key typed in a name rebuilt the opening rows; a burst of them crashed the
    repaint that the first rebuild had scheduled (NoMatches: no Picker in an OpeningRow)."""
    from harness import Scenario, replay

    replay(Scenario("assist", "mascarade", (80, 24)), 1,
           [("tap", "#mx-count-5", 0, "Option"), ("tap", "#mx-op2x6-0", 0, "Option"),
            ("tap", "#mx-op2x4-7", 0, "Option"), ("type", "#mx-name-4", (" ", " ", "backspace", "Z", "o", "ë"))])


def test_clue_move_dialog_reachable_at_120x40():
    """Found by the robot: at 120×40 (tall options) a roll with 15 ways to move put the last ones, and
    Cancel, below the dialog's edge with no way to scroll."""
    from harness import Scenario, replay

    replay(Scenario("play", "clue", (120, 40)), 1, [("key", "r", "footer"), ("key", "m", "binding")])


def test_lobby_footer_tables_key_is_not_offered_in_the_lobby():
    """Found by the robot: the served app's footer offered ctrl+l "Tables" on the lobby itself, where it did nothing."""
    from harness import Scenario, replay

    replay(Scenario("lobby", "", (80, 24)), 1, [("key", "ctrl+l", "footer")])


def test_lobby_footer_does_not_offer_f5_which_the_list_does_by_itself():
    """Robot soak, seed 9000: the lobby's footer offered F5 "Refresh"; the list refreshes every 2 s,
    so a press found nothing new and did nothing."""
    from harness import Scenario, replay

    replay(Scenario("lobby", "", (80, 24)), 9000, [("key", "f5", "footer")])


def test_rules_footer_tab_key_is_greyed_on_its_own_tab():
    """Found by the robot (soak): the Rules footer offered "1 Rulebook" while the rulebook showed; it did nothing."""
    from harness import Scenario, replay

    replay(Scenario("rules", "clue", (80, 24)), 100, [("key", "1", "footer")])


def test_a_mistyped_seed_is_refused_as_input_not_shown_as_an_app_error():
    """Robot soak, seeds 40000 and 60000: a seed of "-" (what is left of "'; rm -rf" in the integer
    field) was refused with an error toast, the kind kept for the app's own failures (a bot or an
    autosave that failed); it is the person's input, so a warning that names it, and nothing else changes."""
    from tui.screens.home import SetupScreen

    async def go():
        app = UnmaskApp(bot_delay=0)
        notes: list = []
        original = app.notify

        def notify(message, *args, **kwargs):
            notes.append((str(message), kwargs.get("severity", "information")))
            return original(message, *args, **kwargs)

        app.notify = notify
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.action_new_game("ghoul")
            await pilot.pause(0.1)
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            screen.query_one("#setup-seed", Input).value = "-"
            screen.action_start()
            await pilot.pause(0.1)
            assert app.screen is screen, "the setup stays"
            assert notes and notes[-1][1] == "warning" and "'-'" in notes[-1][0], notes
            assert not [n for n in notes if n[1] == "error"], notes

    run(go())


# ----------------------------------------------------------------------------------------- issue 23


def test_the_widened_invariants_catch_each_class_of_slip():
    """Issue 23: the robot now fails a screen with nothing visibly focused (Home's box had the focus), a class
    name in visible text ("Keys — ClueAssist"), a count whose noun disagrees ("1 steps") and a tied belief
    drawn as one name. Each is shown here on a screen that has it, and absent from one that does not."""
    from harness import focus_problem, text_problem, tie_problem
    from textual.containers import VerticalScroll

    from tui.mascarade.play import PlayScreen as MascaradePlay
    from tui.screens.help import HelpScreen

    async def go() -> None:
        app = UnmaskApp(bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert focus_problem(app) is None and text_problem(app) is None
            app.screen.set_focus(app.screen.query_one("#home-box", VerticalScroll))
            assert "nothing to scroll" in (focus_problem(app) or "")
            app.push_screen(HelpScreen(app.screen))
            await pilot.pause(0.1)
            title = app.screen.query_one(".dialog-title", Static)
            title.update("Keys — HelpScreen")
            await pilot.pause()
            assert "internal name 'HelpScreen'" in (text_problem(app) or "")
            title.update("1 steps to go")
            await pilot.pause()
            assert "disagree" in (text_problem(app) or "")

        table = Table("mascarade", MascaradeConfig(players=4), 3, ["human", "honest", "honest", "honest"])
        app = UnmaskApp(table=table, session_id="robot-tie", bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, MascaradePlay) and screen._probs_at is not None
            assert tie_problem(screen) is None
            view = screen.view
            masks = list(dict.fromkeys(view["masks"]))
            screen.probs = [{masks[0]: 0.5, masks[1]: 0.5}] * (len(view["players"]) + view["table"])
            screen.query_one("#mq-table", Static).update(Text(
                "\n".join(f"  {r.name:<10}  ▮ {m_name} 50%" for r, m_name in
                          ((r, r.belief.split(" or ")[0]) for r in screen_rows(screen)))))
            assert "tie drawn as one name" in (tie_problem(screen) or "")

    def screen_rows(screen):
        from tui.mascarade import model as m

        return m.place_rows(screen.view, screen.probs)

    run(go())
