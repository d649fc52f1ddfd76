"""Tokyo Ghoul play screen at 80x24: nothing a player needs is cut, even with long player names
(a served table names seats after their owners, up to 20 characters)."""

from __future__ import annotations

from tui_helpers import first_table, run_async

from engine.ghoul import GhoulConfig
from solvers.bots import make_bot
from solvers.table import Table
from tui.app import UnmaskApp
from tui.ghoul.play import PlayScreen

LONG = ("You", "Alexandrina Smithson", "Bartholomew Jenkinss", "Cornelia Whitfields",
        "Demetrius Hollowayss", "Evangeline Marchands", "Florentino Castillos", "Gwendolyn Ashworthss")
CAST = ("kaneki-half", "kimi", "hide", "amon", "suzuya", "touka", "tsukiyama", "yoriko")


def long_names_table(seed: int) -> Table:
    config = GhoulConfig(players=8, names=LONG, mask=True, support=True, characters=CAST)
    return Table("ghoul", config, seed, ["human", *["heuristic"] * 7])


def fits(widget) -> bool:
    """The widget's text needs no more rows than it has (a height-1 line that wraps is cut)."""
    need = widget.get_content_height(widget.size, widget.app.size, widget.content_region.width)
    return need <= widget.content_region.height


def status_text(screen: PlayScreen) -> str:
    return str(screen.query_one("#gh-status").render())


@run_async
async def test_ghoul_header_fits_80x24_with_long_names():
    """The header (round, whose turn, you) is never cut at 80x24: the actor's whole name shows."""
    def bot_turn(v: dict) -> bool:
        return (v["character"]["id"] == "kaneki-half" and v["turn"] != 0
                and v["phase"] not in ("setup_face", "prelim_show", "prelim_give"))

    me = make_bot("ghoul", "heuristic", 0, 3)
    table = first_table(long_names_table, bot_turn, lambda: lambda v: tuple(me.choose(v)), range(1, 80))
    app = UnmaskApp(table=table, session_id="fit", bot_delay=10**6)  # the bots wait: the position stays
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = next(x for x in app.screen_stack if isinstance(x, PlayScreen))
        status = screen.query_one("#gh-status")
        v = table.view(0)
        assert fits(status), status_text(screen)
        assert LONG[v["turn"]] in status_text(screen)
        assert "Kaneki (half)" in status_text(screen)


@run_async
async def test_ghoul_end_screen_says_1_marker():
    """The narrow end screen counts markers in words: "1 marker", never "1 markers"."""
    from rich.console import Console

    from tui.ghoul.end import EndScreen

    me = make_bot("ghoul", "heuristic", 0, 3)

    def over_with_one(v: dict) -> bool:
        return bool(v["over"]) and 1 in v["markers"]

    table = first_table(long_names_table, over_with_one, lambda: lambda v: tuple(me.choose(v)), range(1, 80))
    app = UnmaskApp(table=table, session_id="fit-end", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        assert isinstance(app.screen, EndScreen)
        console = Console(width=78, record=True)
        console.print(app.screen._rows_table())
        text = console.export_text()
        assert "1 marker" in text and "1 markers" not in text, text


@run_async
async def test_ghoul_move_dialog_spells_out_the_ring_abbreviations():
    """At 80x24 the ring says "Sus 2 Foo" / "Interrog.": the move dialog says what each location does in full."""
    from test_ghoul_play import find_table, my

    from tui.ghoul import model as m
    from tui.ghoul.dialogs import PickDialog

    table = find_table(my("move"))
    app = UnmaskApp(table=table, session_id="fit-move", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        await pilot.press("a")
        await pilot.pause(0.1)
        dialog = app.screen
        assert isinstance(dialog, PickDialog) and dialog.kind == "move"
        v = table.view(0)
        text = dialog.query_one(".dialog-text")
        said = str(text.render())
        for place in m.move_targets(v):
            for act in v["ring"][place]["actions"]:
                assert m.action_text(act) in said, said  # "Suspicion: two Food", "Interrogation"
        assert fits(text), said


@run_async
async def test_ghoul_players_list_keeps_long_names_apart_80x24():
    """Two long names that start alike stay apart in the players' list at 80x24, and no row wraps."""
    names = ("You", "Alexandra Smith", "Alexander Jones", "Cornelia", "Demetrius", "Evangeline")
    config = GhoulConfig(players=6, names=names)
    table = Table("ghoul", config, 1, ["human", *["heuristic"] * 5])
    app = UnmaskApp(table=table, session_id="fit-names", bot_delay=10**6)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = next(x for x in app.screen_stack if isinstance(x, PlayScreen))
        players = screen.query_one("#gh-players")
        lines = str(players.render()).splitlines()
        assert fits(players), lines
        shown = [line[2:].split("  ")[0].strip() for line in lines[: len(names)]]
        assert len(set(shown)) == len(names), shown
