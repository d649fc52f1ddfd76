"""The Tokyo Ghoul table assistant: snapshots (80x24, 120x40), a game entered by taps, save and resume.

Every test waits for the solver's thread workers (never a sleep), so what is drawn and checked
is the final state. Sessions go to the temp data dir of ``tests/conftest.py``.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from tui_helpers import run_async, settle_assist

from engine.session import Session
from tui.app import UnmaskApp
from tui.ghoul import assist_model as g
from tui.ghoul.assist import GhoulAssistScreen
from tui.ghoul.assist_dialogs import GhoulEntryDialog
from tui.storage import load_session, save_session

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
CONFIG = {
    "players": ["Ann", "Ben", "Cai", "Dee", "Eve"],
    "me": "Ann",
    "character": "kimi",
    "cast": ["kaneki", "kimi", "nishiki", "rize", "mado"],
    "mask": False,
    "support": False,
    "ring": g.default_ring(),
    "red": [p in g.RED_PLACES for p in range(8)],
    "token": 0,
}
LOG = [
    {"type": "hand", "cards": ["coffee", "food", "dove"]},
    {"type": "preliminary", "shown": ["transformation", "transformation"], "gave": "dove", "received": "coffee"},
    {"type": "hand", "cards": ["coffee", "coffee", "food"]},
    {"type": "move", "player": "Ben", "to": 2},
    {"type": "suspicion", "rule": "dove", "players": ["Cai"]},
    {"type": "cover", "by": "Ben", "removed": "Cai"},
    {"type": "move", "player": "Cai", "to": 3},
    {
        "type": "interrogation",
        "by": "Cai",
        "target": "Ann",
        "shown": ["coffee", "coffee"],
        "exchange": {"gave": "food", "took": "food"},
    },
    {"type": "suspicion", "rule": "pair", "players": ["Ann", "Cai"]},
]
# Only I matched a pair, although Cai holds two Doves (entry #5): no deal fits.
BAD = {"type": "suspicion", "rule": "pair", "players": ["Ann"]}


async def settle(pilot: Pilot) -> None:
    """Wait until the solver's answer to the current log is drawn."""
    await settle_assist(pilot)


def saved_app(sid: str, log: list | None = None) -> UnmaskApp:
    save_session(Session(game="ghoul", mode="assist", config=CONFIG, log=list(LOG if log is None else log)), sid)
    return UnmaskApp(bot_delay=0, start="assist:ghoul", session_id=sid)


async def _settled(pilot: Pilot) -> None:
    await pilot.pause(0.1)
    await settle(pilot)


async def _dialog(pilot: Pilot) -> None:
    """The interrogation dialog, half filled by taps: Ann asks Cai and saw two Transformation cards."""
    await _settled(pilot)
    await pilot.press("i")
    await pilot.pause(0.1)
    for sel in ("#gx-pick-by-0", "#gx-pick-target-2", "#gx-pick-shown0-2", "#gx-pick-shown1-2"):
        pilot.app.screen.query_one(sel).press()
        await pilot.pause()
    await pilot.pause()


async def _contradiction(pilot: Pilot) -> None:
    await _settled(pilot)
    pilot.app.screen.change_log([*LOG, BAD])
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_assist_setup(snap_compare, size):
    app = UnmaskApp(bot_delay=0, start="assist:ghoul", session_id="ghoul-new")
    assert snap_compare(app, terminal_size=size, run_before=_settled)


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_assist_grid(snap_compare, size):
    assert snap_compare(saved_app("ghoul-snap"), terminal_size=size, run_before=_settled)


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_assist_dialog(snap_compare, size):
    assert snap_compare(saved_app("ghoul-snap"), terminal_size=size, run_before=_dialog)


@pytest.mark.parametrize("size", SIZES)
def test_ghoul_assist_contradiction(snap_compare, size):
    assert snap_compare(saved_app("ghoul-snap"), terminal_size=size, run_before=_contradiction)


async def tap(pilot: Pilot, selector: str) -> None:
    """Click a widget like a finger would (scrolled into view first, as the scroll buttons would)."""
    widget = pilot.app.screen.query_one(selector)
    widget.scroll_visible(animate=False)
    await pilot.pause()
    assert await pilot.click(selector), selector
    await pilot.pause()


async def enter(pilot: Pilot, button: str, *taps: str) -> None:
    """Open an entry dialog by its toolbar button, tap the options, Save; wait for the solver."""
    await tap(pilot, button)
    await pilot.pause(0.1)
    for sel in taps:
        await tap(pilot, sel)
    await tap(pilot, "#gx-dlg-save")
    await pilot.pause(0.1)
    await settle(pilot)


@run_async(timeout=180)
async def test_ghoul_assist_by_taps():
    """A short 4-player game entered only with the mouse; the solver's certain facts appear."""
    app = UnmaskApp(bot_delay=0, start="assist:ghoul", session_id="ghoul-taps")
    async with app.run_test(size=(110, 42)) as pilot:
        await _settled(pilot)
        screen = app.screen
        assert isinstance(screen, GhoulAssistScreen) and screen.mode == "setup"
        # 4 players (default names Ann, Ben, Cai, Dee), me = Ann, the default cast, I am Kimi.
        await tap(pilot, "#gs-count-0")
        await tap(pilot, "#gs-char-1")
        await tap(pilot, "#gs-start")
        await settle(pilot)
        assert screen.mode == "main"
        assert screen.config["players"] == ["Ann", "Ben", "Cai", "Dee"]
        assert screen.config["character"] == "kimi"
        assert sorted(screen.config["cast"]) == ["kaneki", "kimi", "mado", "nishiki"]
        # My hand: Coffee, Coffee, Food.
        await enter(pilot, "#gx-do-hand", "#gx-pick-card0-0", "#gx-pick-card1-0", "#gx-pick-card2-1")
        # My turn: the token to place 1 (Anteiku); I interrogate Cai and see two Transformation cards.
        await enter(pilot, "#gx-do-move", "#gx-pick-player-0", "#gx-pick-to-1")
        await enter(
            pilot,
            "#gx-do-interrogation",
            "#gx-pick-target-2",
            "#gx-pick-shown0-2",
            "#gx-pick-shown1-2",
            "#gx-pick-exchange-0",
        )
        # Anteiku's Suspicion (two Coffee): only I match.
        await enter(pilot, "#gx-do-suspicion", "#gx-pick-rule-1", "#gx-pick-players-0")
        # Ben's turn: CCG Office; Suspicion two Doves: Dee; Ben covers up and removes Dee's marker.
        await enter(pilot, "#gx-do-move", "#gx-pick-player-1", "#gx-pick-to-2")
        await enter(pilot, "#gx-do-suspicion", "#gx-pick-rule-3", "#gx-pick-players-3")
        await enter(pilot, "#gx-do-cover", "#gx-pick-removed-3")
        assert [e["type"] for e in screen.entries] == [
            "hand",
            "move",
            "interrogation",
            "suspicion",
            "move",
            "suspicion",
            "cover",
        ]
        assert screen.entries[2] == {
            "type": "interrogation",
            "by": "Ann",
            "target": "Cai",
            "shown": ["transformation", "transformation"],
            "exchange": "none",
        }
        assert screen.entries[6] == {"type": "cover", "by": "Ben", "removed": "Dee"}
        r = screen.result
        assert r is not None and r["status"] == "ok"
        assert r["certain"]["Cai"]["has"] == {"transformation": 2}
        assert r["certain"]["Dee"]["has"] == {"dove": 2}
        assert r["certain"]["Ann"]["hand"] == ["coffee", "coffee", "food"]
        assert r["markers"] == {"Ann": 1, "Ben": 0, "Cai": 0, "Dee": 0}
        grid = str(screen.query_one("#gx-grid").render())
        assert "✓2" in grid
        assert load_session("ghoul-taps").log == screen.entries  # autosaved

        # An impossible entry: nobody had a pair (I hold two Coffee). It is kept and named.
        await enter(pilot, "#gx-do-suspicion", "#gx-pick-rule-0")
        assert screen.state == "contradiction"
        assert len(screen.entries) == 8 and len(load_session("ghoul-taps").log) == 8
        assert 7 in screen.conflict
        status = str(screen.query_one("#ax-status").render())
        assert "Contradiction" in status and "#8" in status
        # Undo by tap: consistent again.
        await tap(pilot, "#gx-do-undo")
        await settle(pilot)
        assert screen.state == "ok" and len(screen.entries) == 7

        # Edit by taps: the cover removed Cai's marker, not Dee's... then delete it.
        await tap(pilot, "#ax-entry-6")
        await enter(pilot, "#gx-do-edit", "#gx-pick-removed-2")
        assert screen.entries[6] == {"type": "cover", "by": "Ben", "removed": "Cai"}
        assert len(screen.entries) == 7
        await tap(pilot, "#ax-entry-6")
        await tap(pilot, "#gx-do-delete")
        await settle(pilot)
        assert len(screen.entries) == 6
        assert screen.result["markers"]["Dee"] == 1


@run_async(timeout=120)
async def test_ghoul_assist_save_and_resume():
    """What was entered comes back after a restart (``unmask resume``), undo history included."""
    app = UnmaskApp(bot_delay=0, start="assist:ghoul", session_id="ghoul-resume")
    save_session(Session(game="ghoul", mode="assist", config=CONFIG, log=list(LOG[:3])), "ghoul-resume")
    async with app.run_test(size=(80, 24)) as pilot:
        await _settled(pilot)
        screen = app.screen
        assert isinstance(screen, GhoulAssistScreen) and screen.mode == "main"
        screen.change_log(list(LOG))
        await settle(pilot)
        certain = screen.result["certain"]
    saved = load_session("ghoul-resume")
    assert saved.game == "ghoul" and saved.mode == "assist"
    assert saved.config == CONFIG and saved.log == LOG
    assert saved.extra["undo"] == [LOG[:3]]

    from tui.screens.resume import ResumeScreen

    app2 = UnmaskApp(bot_delay=0, start="resume")
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        assert isinstance(app2.screen, ResumeScreen)
        await pilot.click("#resume-open-0")
        await pilot.pause(0.2)
        await settle(pilot)
        screen2 = app2.screen
        assert isinstance(screen2, GhoulAssistScreen)
        assert screen2.entries == LOG and screen2.result["status"] == "ok"
        assert screen2.result["certain"] == certain
        await pilot.press("u")
        await settle(pilot)
        assert screen2.entries == LOG[:3]


@run_async(timeout=60)
async def test_ghoul_assist_damaged_session():
    """A session whose setup cannot be used is reported in one line and left untouched."""
    save_session(Session(game="ghoul", mode="assist", config={"players": ["A", "B"]}, log=[]), "ghoul-bad")
    app = UnmaskApp(bot_delay=0, start="assist:ghoul", session_id="ghoul-bad")
    async with app.run_test(size=(80, 24)) as pilot:
        await _settled(pilot)
        screen = app.screen
        assert isinstance(screen, GhoulAssistScreen) and screen.mode == "damaged"
        assert "4 to 8 players" in screen.load_error
    assert load_session("ghoul-bad").config == {"players": ["A", "B"]}


@pytest.mark.parametrize(
    ("kind", "values", "entry"),
    [
        (
            "preliminary",
            {"shown0": "food", "shown1": "dove", "gave": "coffee", "received": g.NONE},
            {"type": "preliminary", "shown": ["food", "dove"], "gave": "coffee"},
        ),
        (
            "move",
            {"player": "Ben", "to": 4, "red4": "cochlea", "red0": g.NONE},
            {"type": "move", "player": "Ben", "to": 4, "revealed": {"4": "cochlea"}},
        ),
        (
            "interrogation",
            {"by": "Ben", "target": "Cai", "exchange": None},
            {"type": "interrogation", "by": "Ben", "target": "Cai", "exchange": "unknown"},
        ),
        (
            "attack",
            {
                "how": "attack",
                "by": "Ben",
                "target": "Ann",
                "by_character": "rize",
                "target_character": "kimi",
                "victim": "Ann",
            },
            {
                "type": "attack",
                "by": "Ben",
                "target": "Ann",
                "by_character": "rize",
                "target_character": "kimi",
                "victim": "Ann",
            },
        ),
        (
            "reveal",
            {"player": "Cai", "character": "mado", "card0": "dove", "card1": "dove", "card2": "food"},
            {"type": "reveal", "player": "Cai", "character": "mado", "cards": ["dove", "dove", "food"]},
        ),
        (
            "instant",
            {"player": "Dee", "character": "kaneki"},
            {"type": "instant", "player": "Dee", "character": "kaneki"},
        ),
    ],
)
def test_entry_forms_round_trip(kind, values, entry):
    """Each form builds the solver's entry, and editing it picks the same options again."""
    built, problem = g.build(kind, values, CONFIG)
    assert built == entry, problem
    again, _ = g.build(kind, g.values_of(kind, built, CONFIG, []), CONFIG)
    assert again == entry
    from solvers.ghoul.model import build_problem

    build_problem(CONFIG, [built])  # the solver reads it


def test_mask_variant_forms():
    """Mask variant: my face-up card in the hand, exchanges with the face-up card, a card that left the board."""
    config, errors = g.make_config(
        ["A", "B", "C", "D"], 0, "uta", ["kaneki", "kimi", "uta", "mado"], True, False, "a", g.default_ring()
    )
    assert errors == [] and config is not None and config["mask"]
    hand, _ = g.build("hand", {"card0": "mask", "card1": "mask", "card2": "coffee", "face_up": "mask"}, config)
    assert hand == {"type": "hand", "cards": ["mask", "mask", "coffee"], "face_up": "mask"}
    values = {
        "by": "A",
        "target": "B",
        "exchange": "seen",
        "gave": "mask",
        "took": "coffee",
        "gave_from": "board",
        "took_from": "hand",
        "fu_by": g.LEFT,
        "fu_target": g.NONE,
    }
    entry, _ = g.build("interrogation", values, config)
    assert entry == {
        "type": "interrogation",
        "by": "A",
        "target": "B",
        "face_up": {"A": None},
        "exchange": {"gave": "mask", "took": "coffee", "gave_from": "board", "took_from": "hand"},
    }
    assert g.build("interrogation", g.values_of("interrogation", entry, config, []), config)[0] == entry
    from solvers.ghoul.solver import solve

    assert solve(config, [hand, entry])["status"] == "ok"


def test_setup_problems_are_sentences():
    """A cast that does not fit the setup table, or a missing character, is explained, not raised."""
    config, errors = g.make_config(
        ["A", "B", "C", "D"], 0, None, ["kaneki", "kimi", "hide", "mado"], False, False, "a", None
    )
    assert config is None
    assert any("1 Ghoul, 1 Inspector and 2 Humans" in e for e in errors)
    assert any("your own character" in e for e in errors)
    config, errors = g.make_config(
        ["A", "A", "C", "D"], 0, "kimi", ["kaneki", "kimi", "nishiki", "mado"], False, False, "a", None
    )
    assert config is None and errors == ["Two players have the same name."]


@run_async(timeout=180)
async def test_every_dialog_opens_with_both_variants():
    """8 players, Mask and Support: every entry dialog opens at 80x24, says what is missing, and cancels."""
    names = ["Ann", "Ben", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal"]
    cast = ["kaneki-half", "kimi", "hide", "nishiki", "touka", "uta", "mado", "amon"]
    config, errors = g.make_config(names, 2, "uta", cast, True, True, "a", g.default_ring())
    assert errors == [] and config is not None
    save_session(Session(game="ghoul", mode="assist", config=config, log=[]), "ghoul-variants")
    app = UnmaskApp(bot_delay=0, start="assist:ghoul", session_id="ghoul-variants")
    async with app.run_test(size=(80, 24)) as pilot:
        await _settled(pilot)
        screen = app.screen
        assert isinstance(screen, GhoulAssistScreen) and screen.result["status"] == "ok"
        more = {k for k, *_ in g.MORE_KINDS}
        for kind, _label, _short, key in (*g.MAIN_KINDS, *g.MORE_KINDS):
            if kind in more:
                await pilot.press("plus")
                await pilot.pause(0.1)
            await pilot.press(key)
            await pilot.pause(0.1)
            dialog = app.screen
            assert dialog.__class__.__name__ == "GhoulEntryDialog", kind
            await pilot.press("ctrl+s")  # nothing picked yet (or defaults only): a sentence, or a saved entry
            await pilot.pause()
            if app.screen is dialog:
                assert str(dialog.query_one("#ax-dlg-preview").render()).strip()
                await pilot.press("escape")
                await pilot.pause(0.1)
            assert app.screen is screen, kind
        await settle(pilot)
        assert screen.state in ("ok", "contradiction")


@run_async(timeout=60)
async def test_exchange_chance_is_shown_and_stepped_with_k():
    """The chance that an interrogation I could not see ended in an exchange is on the status line;
    ``k`` steps it (saved in the session config, solved again), and the label says exact or bound."""
    sid = "ghoul-chance"
    log = [*LOG, {"type": "interrogation", "by": "Dee", "target": "Eve"}]
    app = saved_app(sid, log)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settled(pilot)
        screen = app.screen
        assert isinstance(screen, GhoulAssistScreen)
        status = str(screen.query_one("#ax-status").render())
        assert "exact" in status and "exch. 50%" in status
        before = screen.result["hands"]["Eve"]
        await pilot.press("k")
        await settle(pilot)
        assert screen.config["exchange_chance"] == 0.75
        assert screen.result["exchange_chance"] == 0.75
        assert "exch. 75%" in str(screen.query_one("#ax-status").render())
        assert screen.result["hands"]["Eve"] != before
        seen = []
        for _ in range(2):  # 90%, then round to 10%: never 0 or 100% (a false certainty, issue 21)
            await pilot.press("k")
            await settle(pilot)
            seen.append(screen.result["exchange_chance"])
        assert seen == [0.9, 0.1]
        assert "exch. 10%" in str(screen.query_one("#ax-status").render())
        await pilot.press("k", "k")
        await settle(pilot)
    assert load_session(sid).config["exchange_chance"] == 0.5


def _dialog_state(dialog: GhoulEntryDialog) -> list[tuple]:
    """What a player sees of an entry dialog: each question shown or not, its picks and greyed options,
    and the preview line."""
    from tui.assist.widgets import Picker

    state: list[tuple] = [(p.id, p.display, tuple(p.selected), tuple(sorted(p.disabled_values, key=str)))
                          for p in dialog.query(Picker)]
    state += [(s.id, s.display) for s in dialog.query(".ax-dlg-label")]
    state.append(("preview", str(dialog.query_one("#ax-dlg-preview").render())))
    return state


@run_async(timeout=300)
async def test_entry_dialogs_are_final_when_first_shown():
    """Issue 23: the entry dialogs hid questions and set their first picks in their mount handler, which
    under load ran seconds after the first frame: an early tap landed on an option that then moved (a Move
    saved as "Fay's turn" with no move). What the dialog shows before it is mounted is what it shows after."""
    names = ["Ann", "Ben", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal"]
    cast = ["kaneki-half", "kimi", "hide", "nishiki", "touka", "uta", "mado", "amon"]
    variants, errors = g.make_config(names, 2, "uta", cast, True, True, "a", g.default_ring())
    assert errors == [] and variants is not None
    before_mount: dict[str, list[tuple]] = {}

    class Probe(GhoulEntryDialog):
        def on_mount(self) -> None:  # Textual runs this one first, then GhoulEntryDialog's own
            before_mount[self.kind] = _dialog_state(self)

    app = UnmaskApp(bot_delay=0)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        for config, kinds in ((CONFIG, g.MAIN_KINDS), (variants, g.MORE_KINDS)):
            for kind, *_ in kinds:
                dialog = Probe(kind, config, LOG if config is CONFIG else [])
                await app.push_screen(dialog)
                await pilot.pause()
                assert before_mount[kind] == _dialog_state(dialog), kind
                app.pop_screen()
                await pilot.pause()


@run_async(timeout=120)
async def test_recomputing_notes_say_so(monkeypatch):
    """Issue 23: while the notes recompute (1.7–3.3 s under load) the old numbers stayed with no sign of work."""
    import threading

    from tui.ghoul import assist as ga

    app = saved_app("ghoul-working")
    async with app.run_test(size=(120, 40)) as pilot:
        await _settled(pilot)
        screen = app.screen
        assert isinstance(screen, GhoulAssistScreen) and screen.solution is not None
        head, status = screen.query_one("#gx-notes-head"), screen.query_one("#ax-status")
        assert "updating" not in str(head.render()) + str(status.render())
        release = threading.Event()
        slow = ga.solve_log

        def held(config, log):
            release.wait(30)
            return slow(config, log)

        monkeypatch.setattr(GhoulAssistScreen, "_solve_log", staticmethod(held))
        screen._solve_now()
        await pilot.pause()
        assert "updating" in str(status.render()) and "updating" in str(head.render())
        release.set()
        await settle(pilot)
        assert "updating" not in str(head.render()) + str(status.render())
