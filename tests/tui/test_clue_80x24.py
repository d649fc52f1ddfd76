"""Issue 11, acceptance 3 (Clue): what a person trips over at 80 x 24, by keys and by taps.

Each test pins one problem found by playing the real app in tmux at 80 x 24: text that was cut,
a Tab stop that showed nothing as focused, a sentence that said the wrong thing.
"""

from __future__ import annotations

from tui_helpers import advance, find_table, new_table, run_async

from tui.app import UnmaskApp
from tui.clue import dialogs as d
from tui.widgets.choices import Choices


def _me_to_act(kind: str):
    return lambda v: v["to_act"] == 0 and any(a[0] == kind for a in v["legal"])


@run_async
async def test_tab_in_a_clue_dialog_always_lands_on_something_you_can_see():
    """The dialog's scrolling body took focus: one Tab in three showed nothing focused."""
    table = new_table(3, seed=3)
    assert advance(table, _me_to_act("rumor"))
    app = UnmaskApp(table=table, session_id="tabs", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, d.RumorDialog)
        seen = []
        for _ in range(6):
            await pilot.press("tab")
            await pilot.pause()
            focused = app.focused
            seen.append(type(focused).__name__)
            assert isinstance(focused, Choices) or getattr(focused, "id", "") == "rumor-cancel", seen


def _status_text(app) -> str:
    from tui.clue.play import PlayScreen

    play = next(s for s in app.screen_stack if isinstance(s, PlayScreen))  # under the show-a-card dialog
    return str(play.query_one("#status").render())


@run_async
async def test_the_header_shows_the_dice_whole_at_80_columns():
    """"… · Plot deck 12 · Dice" lost its numbers at 80 columns while you were asked to show a card."""
    table = new_table(4, seed=7)

    def asked_with_dice(v: dict) -> bool:
        return v["to_act"] == 0 and v["phase"] == "refute" and bool(v["dice"]) and v["plot_deck"] >= 10

    assert advance(table, asked_with_dice)
    view = table.view(0)
    dice = "Dice " + "+".join(str(x) for x in view["dice"])
    app = UnmaskApp(table=table, session_id="dice", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = _status_text(app).strip()
        assert text.endswith(dice), text
        assert len(text) <= 78, text  # the header's width less its padding
        assert "You show a card" in text
    wide = UnmaskApp(table=table, session_id="dice-wide", bot_delay=0)
    async with wide.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert _status_text(wide).strip().startswith("The Red Keep")  # room enough: nothing dropped


@run_async
async def test_board_cells_at_80x24_cut_no_name_and_drop_no_token():
    """"⇄ Bedchambe", "Faceless Ma" and a room whose weapons vanished when its tokens took every line."""
    from engine.clue import load_board
    from tui.clue.board import LocationCell
    from tui.clue.model import CellModel, abbreviations

    board = load_board("red-keep")
    table = new_table(4, seed=7)
    app = UnmaskApp(table=table, session_id="cells", bot_delay=0)
    crowd = ["Margaery Tyrell", "Cersei Lannister", "Tyrion Lannister", "Sansa Stark", "Petyr Baelish"]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        cells = [c for c in app.screen.query(LocationCell) if c.node != board.centre]
        assert cells and all(c.content_size.width <= 11 for c in cells)  # the width this was seen at
        wab, sab = abbreviations(board.weapons), abbreviations(board.suspects)
        for tokens, weapons in (([], ["Faceless Man"]), (["Jaime Lannister"], ["Vial of Poison"]),
                                (crowd, ["Catspaw's Dagger", "Faceless Man", "Arakh"])):
            for cell in cells:
                passage = board.passages.get(cell.node)
                dest = board.short[passage] if passage is not None else None
                cell.show(CellModel(node=cell.node, name=board.short[cell.node], tokens=tokens, weapons=weapons,
                                    passage_to=dest), "Margaery Tyrell", set(crowd))
            await pilot.pause()
            for cell in cells:
                size = cell.content_size
                text = cell.render().plain
                lines = text.split("\n")
                assert len(lines) <= size.height and all(len(x) <= size.width for x in lines), text
                flat = " ".join(lines)
                if cell.model.passage_to:
                    assert cell.model.passage_to in flat, text
                for w in weapons:  # whole (maybe over two lines) or by its initials, never cut
                    assert w in flat or f" {wab[w]} " in f" {flat} ", (w, text)
                for t in tokens:
                    assert t.split()[0] in flat.split() or sab[t] in flat.split(), (t, text)


@run_async
async def test_the_sheet_fits_80_columns_with_every_card_name_readable():
    """"Margaery Ty", "Vial of Poi"; and with five or six players the envelope column was off screen."""
    from engine.clue import load_board

    board = load_board("red-keep")
    for players in (4, 6):
        table = new_table(players, seed=5)
        app = UnmaskApp(table=table, session_id=f"sheet-{players}", bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if isinstance(app.screen, d.ClueDialog):
                await pilot.press("escape")  # a bot's rumor asked us first: later
                await pilot.pause()
            await pilot.press("2")
            await pilot.pause()
            sheet = app.screen.query_one("#sheet")
            widths = [c.get_render_width(sheet) for c in sheet.ordered_columns]
            assert len(widths) == players + 2
            assert sum(widths) <= sheet.scrollable_content_region.width, (players, widths)
            assert sheet.max_scroll_x == 0, players
            for card in board.cards:
                label = str(sheet.get_cell(card, "card")).strip()
                words = card.split()
                short = board.short[board.locations.index(card)] if card in board.locations else None
                for note in (" up", " ctr", " set"):  # a card no player holds says where it is
                    label = label.removesuffix(note)
                assert label in (card, words[0], words[-1], short), (players, card, label)


def _cut_choices(screen) -> list[str]:
    """Every option of the dialog whose label is wider than its button shows."""
    from tui.widgets.choices import Choice

    cut = []
    for button in screen.query(Choice):
        label = str(button.label)
        if len(label) > button.content_size.width:
            cut.append(f"{label!r} in {button.content_size.width}")
    return cut


@run_async
async def test_the_accuse_dialog_cuts_no_name_at_80x24():
    """"✗ Tyrion Lannist…" in the suspect column once Tyrion was known elsewhere."""
    table = find_table(_me_to_act("accuse"), players=3, to_centre=True)
    app = UnmaskApp(table=table, session_id="accuse", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        screen._candidates = {"suspect": [], "weapon": [], "location": []}  # every card crossed: the longest labels
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, d.AccuseDialog)
        assert _cut_choices(app.screen) == []
        await pilot.click("#accuse-suspect-2")
        await pilot.click("#accuse-weapon-3")
        await pilot.click("#accuse-location-3")
        await pilot.pause()
        assert _cut_choices(app.screen) == []  # "● ✗ …" with the selection mark too


@run_async
async def test_the_end_does_not_call_eliminated_players_wrong():
    """Three players taken by the White Walkers and one wrong accusation ended in "everyone who could
    accuse was wrong"."""
    from tui.clue.end import EndScreen

    table = new_table(4, seed=5)
    assert advance(table, lambda v: v["over"])
    view = table.view(0)
    assert view["result"]["reason"] == "unsolved"
    assert any(e and not w for e, w in zip(view["eliminated"], view["wrong"], strict=True))
    app = UnmaskApp(table=table, session_id="end", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, EndScreen):
                break
        assert isinstance(app.screen, EndScreen)
        reason = str(app.screen.query_one("#end-reason").render())
        assert "wrong" not in reason, reason
        assert "Nobody is left who may accuse" in reason, reason


# ----------------------------------------------------------------------------- the table assistant


async def _quiet(pilot) -> None:
    """Let the assistant's solve workers finish and the screen redraw (they may start one another)."""
    for _ in range(10):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def _open_rumor(pilot) -> None:
    await _quiet(pilot)
    await pilot.click("#ax-do-rumor")
    await pilot.pause(0.1)


def _assist_session(log: list):
    from engine.session import Session
    from tui.clue.assist_model import board_deck

    config = {"board": "red-keep", "deck": board_deck("red-keep"), "players": ["Bob", "Bea", "Cy", "Dee"],
              "me": "Bob"}
    return Session(game="clue", mode="assist", config=config, log=log)


@run_async
async def test_assistant_says_the_others_and_i_passed_not_i_and_the_others():
    """A tapped rumor where I passed with others read "I, Cy and Dee passed"."""
    from tui.clue.assist import AssistApp
    from tui.clue.assist_model import board_deck, describe

    deck = board_deck("red-keep")
    hand = {"type": "hand", "cards": [deck["suspects"][0], deck["weapons"][2], deck["locations"][4],
                                      deck["locations"][7], deck["locations"][10]]}
    app = AssistApp("passed", _assist_session([hand]))
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_rumor(pilot)
        for selector in ("#ax-pick-by-1", "#ax-pick-suspects-3", "#ax-pick-weapons-5", "#ax-pick-locations-2",
                         "#ax-pick-shower-4"):  # Bea asks; nobody shows: Cy, Dee and I pass
            assert await pilot.click(selector), selector
            await pilot.pause()
        preview = str(app.screen.query_one("#ax-dlg-preview").render())
        assert "Cy, Dee and I passed." in preview, preview
        await pilot.click("#ax-dlg-save")
        await _quiet(pilot)
        assert len(app.screen.entries) == 2  # saved, and the log says it the same way
        assert "Cy, Dee and I passed." in describe(app.screen.entries[-1], "Bob")


TABLE_LOG = [
    {"type": "hand", "cards": ["Margaery Tyrell", "Arakh", "Privy", "Red Keep location 8", "Red Keep location 11"]},
    {"type": "rumor", "by": "Bob", "cards": ["Cersei Lannister", "Catspaw's Dagger", "Red Keep location 6"],
     "passed": ["Bea"], "shown_by": "Cy", "card": "Red Keep location 6"},
    {"type": "rumor", "by": "Bea", "cards": ["Tyrion Lannister", "Vial of Poison", "Privy"], "passed": ["Cy", "Dee"],
     "shown_by": "Bob", "card": "Privy"},
    {"type": "rumor", "by": "Cy", "cards": ["Sansa Stark", "Arakh", "King Tommen's Bedchamber"], "passed": [],
     "shown_by": "Dee", "card": None},
    {"type": "rumor", "by": "Dee", "cards": ["Jaime Lannister", "Crossbow", "Training Yard"], "passed": ["Bob"],
     "shown_by": "Bea", "card": None},
    {"type": "rumor", "by": "Bob", "cards": ["Petyr Baelish", "War Axe", "Hand's Tower"], "passed": [],
     "shown_by": "Bea", "card": "Hand's Tower"},
    {"type": "rumor", "by": "Bea", "cards": ["Sansa Stark", "Faceless Man", "Qyburn's Laboratory"],
     "passed": ["Bob", "Cy", "Dee"], "shown_by": None, "card": None},
    {"type": "reveal", "player": "Cy", "cards": ["Petyr Baelish"]},
]  # the table entered by taps in tmux


@run_async
async def test_assistant_toolbar_stays_put_when_the_status_gets_shorter():
    """The status took one line or two as the deals shrank, and the toolbar jumped: a tap meant for
    Rumor landed on the sheet's title."""
    from tui.clue.assist import AssistApp

    rows = []
    for log in (TABLE_LOG[:1], TABLE_LOG):
        app = AssistApp(None, _assist_session(list(log)))
        async with app.run_test(size=(80, 24)) as pilot:
            await _quiet(pilot)
            status = app.screen.query_one("#ax-status")
            rows.append((app.screen.query_one("#ax-do-rumor").region.y, str(status.render())))
    assert rows[0][0] == rows[1][0], rows  # two lines of status, then one: the same row for Rumor


@run_async
async def test_assistant_setup_a_tapped_default_name_is_replaced_by_what_you_type():
    """A tap on "Player 1" put the cursor mid-word, so typing Ann gave "PlayAnner 1"."""
    from textual.widgets import Input

    from tui.clue.assist import AssistApp

    app = AssistApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        name = app.screen.query_one("#ax-name-0", Input)
        assert name.value == "Player 1"
        await pilot.click("#ax-name-0", offset=(5, 0))  # inside the word, as a finger lands
        await pilot.pause()
        await pilot.press("A", "n", "n")
        await pilot.pause()
        assert name.value == "Ann"
        await pilot.click("#ax-name-0", offset=(2, 0))  # a name you typed: a tap only moves the cursor
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        assert name.value == "Axnn"


@run_async
async def test_on_paths_line_names_every_token_at_80x24():
    """Three tokens on paths made "On paths: …" three lines in a box of two: the third was cut."""
    from engine.clue import load_board
    from tui.clue.model import abbreviations, short_names

    board = load_board("red-keep")
    table = new_table(4, seed=7)
    app = UnmaskApp(table=table, session_id="paths", bot_delay=0)
    squares = list(range(board.centre + 1, board.centre + 40, 3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        for count in (3, 6):
            view = dict(table.view(0))
            view["positions"] = dict(view["positions"])
            for i, sus in enumerate(board.suspects[:count]):
                view["positions"][sus] = squares[i]
            screen.view = view
            screen._redraw()
            await pilot.pause()
            box = screen.query_one("#paths")
            text = " ".join(s.text for s in box.render_lines(box.region.reset_offset))
            shown = [w.strip(":;,") for w in text.split()]
            for sus in board.suspects[:count]:
                name = short_names(board.suspects)[sus]
                assert name in shown or abbreviations(board.suspects)[sus] in shown, (count, sus, shown)


@run_async
async def test_assistant_rumor_says_what_is_missing_in_one_plain_list():
    """"Tap a suspect and a weapon and a location." read like a stutter."""
    from tui.clue.assist import AssistApp

    app = AssistApp("missing", _assist_session(TABLE_LOG[:1]))
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_rumor(pilot)
        preview = app.screen.query_one("#ax-dlg-preview")
        assert str(preview.render()).strip() == "Tap a suspect, a weapon and a location."
        await pilot.click("#ax-pick-suspects-0")
        await pilot.pause()
        assert str(preview.render()).strip() == "Tap a weapon and a location."
        await pilot.click("#ax-pick-weapons-0")
        await pilot.pause()
        assert str(preview.render()).strip() == "Tap a location."
