"""The assistant driven like a person at a table: taps only, a whole game until the envelope is certain.

Also: a damaged session file gives one line, an impossible entry is kept and highlighted while
the notes go stale, undo restores, edits and deletes are undoable, and every change is saved.
"""

from __future__ import annotations

import json
import random

import pytest
from assist_helpers import DECK, L, S, W, config, sample_log, sample_session, settle, sync
from textual.pilot import Pilot

from engine.session import Session
from tui.assist.widgets import LogList
from tui.clue import assist_model as m
from tui.clue.assist import AssistApp, ClueAssistScreen, run_assist
from tui.clue.assist_sheet import SheetTable
from tui.storage import load_session, save_session, sessions_dir

TABLET = (110, 42)
SSH = (80, 24)
CATS = m.CATEGORIES


def _screen(pilot: Pilot) -> ClueAssistScreen:
    for screen in pilot.app.screen_stack:
        if isinstance(screen, ClueAssistScreen):
            return screen
    raise AssertionError("no assistant screen")


async def _settled(pilot: Pilot) -> ClueAssistScreen:
    """The assistant screen once its workers are done."""
    await settle(pilot)
    return _screen(pilot)


async def _tap(pilot: Pilot, selector: str) -> None:
    """Scroll to the control as a person would, then tap it."""
    pilot.app.screen.query_one(selector).scroll_visible(animate=False, immediate=True)
    await pilot.pause()
    await pilot.click(selector)  # waits for the screen to process the click


async def _open(pilot: Pilot, button: str) -> None:
    await _tap(pilot, button)
    await pilot.pause(0.1)  # the dialog screen is pushed


async def _tap_card(pilot: Pilot, card: str) -> None:
    cat = next(c for c in CATS if card in DECK[c])
    await _tap(pilot, f"#ax-pick-{cat}-{DECK[cat].index(card)}")


async def _save(pilot: Pilot) -> None:
    await _tap(pilot, "#ax-dlg-save")
    await pilot.pause(0.1)
    await settle(pilot)


class Table:
    """The truth of one dealt game, and what the player in seat 0 ("me") has seen of it."""

    def __init__(self, seed: int, players: list[str]) -> None:
        rng = random.Random(seed)
        self.rng = rng
        self.players = players
        self.envelope = [rng.choice(DECK[c]) for c in CATS]
        rest = [c for cat in CATS for c in DECK[cat] if c not in self.envelope]
        rng.shuffle(rest)
        self.hands = {p: sorted(rest[6 * i: 6 * i + 6], key=rest.index) for i, p in enumerate(players)}
        self.face_up = rest[18:]
        self.holder = {c: p for p, cards in self.hands.items() for c in cards}
        self.me = players[0]
        self.known = set(self.hands[self.me]) | set(self.face_up)

    def my_rumor(self) -> list[str]:
        """Ask about cards I have not seen yet (the last unseen card of a category is the envelope's)."""
        return [next(c for c in DECK[cat] if c not in self.known) for cat in CATS]

    def answer(self, asker: str, cards: list[str]) -> tuple[list[str], str | None, str | None]:
        """Who passed, who shows (the first clockwise holding a rumor card) and the card (picked at random)."""
        n = len(self.players)
        i = self.players.index(asker)
        passed = []
        for k in range(1, n):
            p = self.players[(i + k) % n]
            held = [c for c in cards if self.holder.get(c) == p]
            if held:
                return passed, p, self.rng.choice(held)
            passed.append(p)
        return passed, None, None


@sync
async def test_a_whole_game_by_taps_until_the_envelope_is_certain() -> None:
    players = ["Player 1", "Player 2", "Player 3"]
    table = Table(seed=2, players=players)  # a deal the solver cracks in four rumors
    app = AssistApp()
    async with app.run_test(size=SSH) as pilot:
        await pilot.pause()
        # Setup: Red Keep, three players, me in seat 1 (the defaults), and go.
        await _tap(pilot, "#ax-board-0")
        await _tap(pilot, "#ax-me-0")
        await _tap(pilot, "#ax-start")
        screen = await _settled(pilot)
        assert screen.mode == "main" and screen.config["players"] == players
        sid = screen.session_id
        assert sid is not None

        await _open(pilot, "#ax-do-hand")
        for card in table.hands[table.me]:
            await _tap_card(pilot, card)
        await _save(pilot)
        await _open(pilot, "#ax-do-face_up")
        for card in table.face_up:
            await _tap_card(pilot, card)
        await _save(pilot)
        assert [e["type"] for e in screen.entries] == ["hand", "face_up"]

        rumors = 0
        while m.solved_envelope(screen.solution or {}, DECK) is None:
            assert rumors < 12, "the solver should be certain long before this"
            default = m.default_asker(screen.entries, players)
            asker = default if rumors < 3 else table.me  # one round in turn, then I ask every time
            cards = table.my_rumor() if asker == table.me else [table.rng.choice(DECK[c]) for c in CATS]
            passed, shower, card = table.answer(asker, cards)
            await _open(pilot, "#ax-do-rumor")
            dialog = pilot.app.screen
            assert dialog.query_one("#ax-pick-by").value == default  # clockwise after the last asker
            if asker != default:
                await _tap(pilot, f"#ax-pick-by-{players.index(asker)}")
            for c in cards:
                await _tap_card(pilot, c)
            await _tap(pilot, f"#ax-pick-shower-{players.index(shower) if shower else len(players)}")
            if shower is not None and table.me in (asker, shower):
                saw = dialog.query_one("#ax-pick-saw")
                if saw.value != card:  # preselected when I hold exactly one of the three
                    await _tap(pilot, f"#ax-pick-saw-{cards.index(card)}")
            if asker == table.me and card is not None:
                table.known.add(card)
            await _save(pilot)
            entry = screen.entries[-1]
            assert entry["by"] == asker and entry["shown_by"] == shower and entry["passed"] == passed
            assert entry["card"] == (card if table.me in (asker, shower) else None)
            rumors += 1

        assert screen.state == "ok"
        assert m.solved_envelope(screen.solution, DECK) == table.envelope
        sheet = screen.query_one("#ax-sheet", SheetTable)
        for card in table.envelope:
            assert str(sheet.get_cell(card, "envelope")).strip() == "✓"
            for p in players:
                assert str(sheet.get_cell(card, p)).strip() == "✗"
        status = str(screen.query_one("#ax-status").render())
        assert status.startswith("★ Solved") and all(c in status for c in table.envelope)
        saved = load_session(sid)  # autosaved after every change
        assert saved.log == screen.entries and saved.mode == "assist" and saved.game == "clue"


@sync
async def test_an_impossible_entry_is_kept_highlighted_and_undo_restores() -> None:
    app = AssistApp("table", sample_session())
    async with app.run_test(size=TABLET) as pilot:
        screen = await _settled(pilot)
        good = screen.solution
        assert screen.state == "ok" and good is not None
        # Cat "shows me" the weapon Bob showed me before (the dialog no longer offers my own cards).
        await _open(pilot, "#ax-do-rumor")
        await _tap(pilot, "#ax-pick-by-0")
        for c in (S[3], W[2], DECK["locations"][7]):
            await _tap_card(pilot, c)
        await _tap(pilot, "#ax-pick-shower-2")
        await _tap(pilot, "#ax-pick-saw-1")
        await _save(pilot)
        assert screen.state == "contradiction"
        assert len(screen.entries) == 6 and screen.conflict == {2, 5}
        assert screen.query_one("#ax-entry-5").has_class("-conflict")
        assert screen.query_one("#ax-entry-2").has_class("-conflict")
        assert not screen.query_one("#ax-entry-3").has_class("-conflict")
        assert screen.query_one("#ax-sheet").has_class("-stale") and screen.solution == good
        assert "contradict" in str(screen.query_one("#ax-status").render())
        assert len(load_session("table").log) == 6  # the wrong entry is saved too: nothing is dropped

        await _tap(pilot, "#ax-do-undo")
        await settle(pilot)
        assert screen.state == "ok" and screen.entries == sample_log() and screen.conflict == set()
        assert not screen.query_one("#ax-sheet").has_class("-stale")
        assert load_session("table").log == sample_log()


@sync
async def test_edit_and_delete_are_undoable_and_survive_a_resume() -> None:
    app = AssistApp("edits", sample_session())
    async with app.run_test(size=TABLET) as pilot:
        screen = await _settled(pilot)
        await _tap(pilot, "#ax-entry-2")
        assert screen.query_one("#ax-log", LogList).selected == 2
        await _open(pilot, "#ax-do-edit")
        dialog = pilot.app.screen
        assert dialog.query_one("#ax-pick-weapons").value == W[2]  # prefilled from the entry
        assert dialog.query_one("#ax-pick-saw").value == W[2]
        await _tap_card(pilot, W[3])
        await _tap(pilot, "#ax-pick-saw-1")
        await _save(pilot)
        assert screen.entries[2]["cards"] == [S[2], W[3], DECK["locations"][4]] and screen.entries[2]["card"] == W[3]
        await _tap(pilot, "#ax-do-delete")
        await settle(pilot)
        assert len(screen.entries) == 4
    resumed = AssistApp("edits")
    async with resumed.run_test(size=TABLET) as pilot:
        screen = await _settled(pilot)
        assert len(screen.entries) == 4 and screen.state == "ok"
        await _tap(pilot, "#ax-do-undo")  # undoes the delete, even after a resume
        await settle(pilot)
        assert screen.entries[2]["card"] == W[3]
        await pilot.press("u")  # and the edit, from the keyboard
        await settle(pilot)
        assert screen.entries == sample_log()


@sync
async def test_keys_open_a_dialog_pick_and_save() -> None:
    app = AssistApp("keys", sample_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _settled(pilot)
        await pilot.press("a")  # a wrong accusation, keyboard only
        await pilot.pause(0.1)
        await pilot.press("space", "tab", "right", "space", "tab", "down", "space", "tab", "right", "space")
        await pilot.press("ctrl+s")
        await pilot.pause(0.1)
        await settle(pilot)
        assert screen.entries[-1] == {"type": "accusation", "by": "Bob", "cards": [S[0], W[1], DECK["locations"][3]],
                                      "correct": False}
        await pilot.press("l", "up", "x")
        await settle(pilot)
        assert len(screen.entries) == 5


@sync
async def test_setup_problems_are_listed_and_nothing_typed_is_lost() -> None:
    app = AssistApp()
    async with app.run_test(size=TABLET) as pilot:
        await pilot.pause()
        await _tap(pilot, "#ax-board-2")  # custom deck, left empty
        await _tap(pilot, "#ax-name-1")
        await pilot.press("end", "ctrl+u", *"Bob")
        await _tap(pilot, "#ax-more-0")
        await _tap(pilot, "#ax-start")
        screen = _screen(pilot)
        assert screen.mode == "setup"
        errors = str(screen.query_one("#ax-errors").render())
        assert "Type the suspects of the custom deck" in errors
        form = screen.query_one("#ax-setup")
        assert form.data.players == ["Player 1", "Bob", "Player 3"] and form.data.sizes() == ["1", "0", "0"]
        await _tap(pilot, "#ax-board-0")
        await _tap(pilot, "#ax-equal")
        await _tap(pilot, "#ax-remove-2")
        await _tap(pilot, "#ax-down-0")  # Player 1 (me) now sits second
        await _tap(pilot, "#ax-start")
        await settle(pilot)
        assert screen.mode == "main"
        assert screen.config["players"] == ["Bob", "Player 1"] and screen.config["me"] == "Player 1"
        assert screen.config["piles"] == {"aside": 4} and screen.config["hand_sizes"] == {"Bob": 8, "Player 1": 8}
        assert screen.state == "ok"


@sync
async def test_a_damaged_session_file_gives_one_line(capsys) -> None:
    path = sessions_dir() / "broken.json"
    path.write_text('{"format": "unmask-session/1", "game": "clue", ', encoding="utf-8")
    app = AssistApp("broken")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = _screen(pilot)
        assert screen.mode == "damaged"
        assert "\n" not in screen.load_error and "broken.json is damaged" in screen.load_error
        assert screen.query_one("#ax-damaged").display
    assert path.read_text(encoding="utf-8").endswith('"clue", ')  # left as it was
    with pytest.raises(SystemExit) as exit_info:
        run_assist("broken")
    assert exit_info.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "broken.json is damaged" in err


def test_a_play_session_is_refused_with_one_line(capsys) -> None:
    save_session(Session(game="clue", mode="play", config={"board": "red-keep"}, seed=1), "played")
    with pytest.raises(SystemExit):
        run_assist("played")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a Clue table-assistant one" in err


@sync
async def test_a_session_loaded_with_a_contradiction_shows_the_notes_before_it() -> None:
    bad = [*sample_log(), {"type": "reveal", "player": "Bob", "cards": [S[0]]}]  # my own card
    save_session(sample_session(bad), "loaded")
    data = json.loads((sessions_dir() / "loaded.json").read_text(encoding="utf-8"))
    assert data["format"] == "unmask-session/1" and data["mode"] == "assist"
    app = AssistApp("loaded")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _settled(pilot)
        assert screen.state == "contradiction" and 5 in screen.conflict
        assert screen.solution is not None and screen.solution["status"] == "ok"  # the log before #6
        assert screen.current_view == "log"  # narrow: the highlighted entries are what matters now


@sync
async def test_a_centre_pile_reveal_is_tapped_in_and_shown_on_the_sheet() -> None:
    cfg = {**config(), "piles": {"centre": 2}}
    hand = sample_log()[0]
    app = AssistApp("centre", Session(game="clue", mode="assist", config=cfg, log=[hand]))
    async with app.run_test(size=TABLET) as pilot:
        screen = await _settled(pilot)
        sheet = screen.query_one("#ax-sheet", SheetTable)
        assert sheet.holders == ["Ann", "Bob", "Cat", "envelope", "centre"]
        assert screen.query_one("#ax-do-face_up").disabled  # nothing lies face up in this variant
        await _open(pilot, "#ax-do-reveal")
        await _tap(pilot, "#ax-pick-by-3")  # the centre pile
        for card in (DECK["locations"][2], DECK["locations"][3]):
            await _tap_card(pilot, card)
        await _save(pilot)
        assert screen.entries[-1] == {"type": "reveal", "player": "centre",
                                      "cards": [DECK["locations"][2], DECK["locations"][3]]}
        assert str(sheet.get_cell(DECK["locations"][2], "centre")).strip() == "✓"
        assert str(sheet.get_cell(DECK["locations"][4], "centre")).strip() == "✗"


@sync
async def test_the_custom_deck_inputs_are_all_in_view_on_a_large_terminal() -> None:
    """Robot soak, seed 5000: at 120×40 with six players the custom deck's box was a share of the
    form's height, so its weapon and location inputs were cut off where nothing could scroll to them."""
    app = AssistApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(3):
            await _tap(pilot, "#ax-add")
        await _tap(pilot, "#ax-board-2")
        await pilot.pause()
        box = _screen(pilot).query_one("#ax-custom")
        for cat in CATS:
            field = box.query_one(f"#ax-custom-{cat}")
            assert box.region.contains_region(field.region), f"the {cat} input is cut off"


@sync
async def test_the_card_seen_offers_only_cards_that_can_be_it() -> None:
    """Issue 23: "Card shown to me" offered my own cards (and kept one picked as I switched from showing),
    and the Reveal dialog opened on another question than the rumor one."""
    app = AssistApp("seen", sample_session())
    async with app.run_test(size=TABLET) as pilot:
        await _settled(pilot)
        await _open(pilot, "#ax-do-rumor")
        dialog = pilot.app.screen
        assert pilot.app.focused is dialog.query_one("#ax-pick-suspects")
        for c in (S[0], W[3], L[5]):  # Margaery is mine; the weapon and the place are not
            await _tap_card(pilot, c)
        await _tap(pilot, "#ax-pick-by-1")  # Bob asks, I show: only my own card can be it
        await _tap(pilot, "#ax-pick-shower-0")
        saw = dialog.query_one("#ax-pick-saw")
        # With which of my cards Bob has seen already (the sample's #4: I showed him Margaery).
        assert str(dialog.query_one("#ax-saw-label").render()) == "Card I showed (Bob has seen Margaery)"
        assert saw.disabled_values == {W[3], L[5]} and saw.value == S[0]
        await _tap(pilot, "#ax-pick-by-0")  # now I ask and Bob shows: anything but my own card
        await _tap(pilot, "#ax-pick-shower-1")
        assert str(dialog.query_one("#ax-saw-label").render()) == "Card shown to me"
        assert saw.disabled_values == {S[0]} and saw.value is None
        await _tap(pilot, "#ax-pick-saw-0")  # a tap on my own card picks nothing
        assert saw.value is None
        await pilot.press("escape")
        await pilot.pause(0.1)
        await _open(pilot, "#ax-do-reveal")
        assert pilot.app.focused is pilot.app.screen.query_one("#ax-pick-suspects")
