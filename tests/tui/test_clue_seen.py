"""Which of my cards has each player seen? (issue 23, finding 4): in play, in the Show dialog, in the assistant.

The expected answers are worked out here from the raw events and notes, independently of the app's
own function, so a wrong answer on screen cannot agree with itself.
"""

from __future__ import annotations

import pytest
from tui_helpers import SIZES, find_table, first_table, human_choice, new_table, run_async, settle

from tui.app import UnmaskApp
from tui.clue.dialogs import ShowCardDialog
from tui.clue.play import PlayScreen


def _shown(v: dict) -> dict[int, list[str]]:
    """seat -> cards of mine it saw: the cards I showed it and those its Raven saw."""
    out: dict[int, list[str]] = {}
    for ev in v["events"]:
        if ev["t"] == "show" and ev["seat"] == v["seat"]:
            out.setdefault(ev["to"], []).append(ev["card"])
        elif ev["t"] == "peek" and ev["target"] == v["seat"]:
            out.setdefault(ev["seat"], []).append(ev["card"])
    return {s: list(dict.fromkeys(cards)) for s, cards in out.items()}


def _showed_a_card(v: dict) -> bool:
    return any(len(cards) >= 1 for cards in _shown(v).values()) and v["to_act"] == 0 and v["phase"] != "refute"


def _asked_again(v: dict) -> bool:
    """I must show a card to someone who has seen one of mine already."""
    if v["to_act"] != v["seat"] or v["phase"] != "refute":
        return False
    return bool(_shown(v).get(v["rumor"][0]))


def _hand_text(screen: PlayScreen) -> str:
    return str(screen.query_one("#hand").render())


@run_async(timeout=240)
async def test_the_hand_tab_says_which_of_my_cards_each_player_has_seen_by_taps():
    table = find_table(_showed_a_card, players=4)
    v = table.view(0)
    shown = _shown(v)
    app = UnmaskApp(table=table, session_id="seen-play", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert await pilot.click("#side Tab#--content-tab-tab-hand")  # a tap, no key
        await pilot.pause()
        text = _hand_text(screen)
        assert "Who has seen your cards" in text
        for seat in range(1, 4):
            cards = shown.get(seat, [])
            line = f"{v['players'][seat]}: {', '.join(cards) if cards else 'none'}"
            assert line in text, (line, text)


@run_async(timeout=300)
async def test_the_show_dialog_says_what_the_asker_has_seen_already():
    table = first_table(lambda seed: new_table(4, seed), _asked_again, lambda: human_choice, seeds=range(1, 400))
    v = table.view(0)
    asker = v["rumor"][0]
    app = UnmaskApp(table=table, session_id="seen-show", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        assert isinstance(app.screen, ShowCardDialog)
        text = str(app.screen.query_one(".dialog-text").render())
        assert f"{v['players'][asker]} has seen: {', '.join(_shown(v)[asker])}." in text, text


def test_the_hint_says_none_when_the_asker_has_seen_nothing():
    from tui.clue.model import seen_hint

    v = new_table(3, 1).view(0)
    assert seen_hint(v, 1) == f"{v['players'][1]} has seen none of your cards."


# ----------------------------------------------------------------------------- the assistant


def _session():
    from engine.session import Session
    from tui.clue.assist_model import board_deck

    deck = board_deck("red-keep")
    s, w, loc = deck["suspects"], deck["weapons"], deck["locations"]
    log = [
        {"type": "hand", "cards": [s[0], s[1], w[0], w[1], loc[0], loc[1]]},
        {"type": "rumor", "by": "Bob", "cards": [s[0], w[3], loc[5]], "passed": [], "shown_by": "Ann", "card": s[0]},
        {"type": "rumor", "by": "Bob", "cards": [s[2], w[0], loc[6]], "passed": [], "shown_by": "Ann", "card": w[0]},
        {"type": "rumor", "by": "Cat", "cards": [s[3], w[4], loc[0]], "passed": ["Bob"], "shown_by": "Ann",
         "card": None},
        {"type": "rumor", "by": "Ann", "cards": [s[2], w[2], loc[4]], "passed": [], "shown_by": "Bob", "card": w[2]},
    ]
    config = {"board": "red-keep", "deck": deck, "players": ["Ann", "Bob", "Cat"], "me": "Ann"}
    return Session(game="clue", mode="assist", config=config, log=log), s, w


def test_the_assistant_counts_only_the_cards_i_showed():
    from tui.clue.assist_model import seen_by, seen_lines

    session, s, w = _session()
    assert seen_by(session.config, session.log) == {"Bob": [s[0], w[0]], "Cat": []}
    assert seen_lines(session.config, session.log) == [f"Bob: {s[0]}, {w[0]}", "Cat: none"]


async def _assist_settled(pilot) -> None:
    for _ in range(40):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not any(w.is_running for w in pilot.app.workers):
            break
    await pilot.pause()


@run_async(timeout=180)
async def test_the_assistant_shows_the_seen_panel_by_a_tap():
    from tui.clue.assist import AssistApp

    session, s, w = _session()
    app = AssistApp("seen-assist", session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _assist_settled(pilot)
        assert await pilot.click("#ax-tab-advice")
        await pilot.pause()
        seen = app.screen.query_one("#ax-seen")
        assert seen.region.height > 0 or seen.virtual_region.height > 0
        text = str(seen.render())
        assert f"Bob: {s[0]}, {w[0]}" in text and "Cat: none" in text, text


@run_async(timeout=180)
async def test_the_assistants_rumor_dialog_says_what_the_asker_has_seen_when_i_show():
    from tui.clue.assist import AssistApp
    from tui.clue.assist_dialogs import LABEL_WIDTH
    from tui.clue.assist_model import short_labels

    session, s, w = _session()
    labels = short_labels(session.config["deck"], "red-keep", LABEL_WIDTH)
    app = AssistApp("seen-assist-dialog", session)
    async with app.run_test(size=(120, 40)) as pilot:
        await _assist_settled(pilot)
        await pilot.press("r")
        await pilot.pause(0.1)
        screen = app.screen
        for pick in ("#ax-pick-by-1", "#ax-pick-shower-0"):  # Bob asks, I (Ann) show
            screen.query_one(pick).press()
            await pilot.pause()
        label = str(screen.query_one("#ax-saw-label").render())
        assert label == f"Card I showed (Bob has seen {labels[s[0]]}, {labels[w[0]]})", label


# ----------------------------------------------------------------------------- snapshots


@pytest.mark.parametrize("size", SIZES)
def test_seen_view_snapshot(snap_compare, size):
    app = UnmaskApp(table=find_table(_showed_a_card, players=4), session_id="snapshot", bot_delay=0)
    assert snap_compare(app, terminal_size=size, run_before=settle("3", step=0.1))
