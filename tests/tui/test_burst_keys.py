"""Issue 23, finding 1: keys typed in a burst act where slow typing would, in every dialog of every game.

A registry of the dialogs (play and assistant, all four games), each with the keys a player types to
answer it. Each is answered twice: key by key with the app settled in between, then all keys sent
before the app handles any (as tmux ``send-keys``, a quick typist or a laggy SSH link does). Both
must give the same answer, and a real one (the keys do answer the dialog).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from test_ghoul_assist import CONFIG as GHOUL_CONFIG
from test_ghoul_play import find_table as ghoul_table
from test_ghoul_play import my as ghoul_my
from test_masque_play import at as masque_at
from test_masque_play import at_choose, at_plan
from textual.screen import Screen
from tui_helpers import advance, burst, new_table, run_async

from engine.clue import load_board
from tui.app import UnmaskApp
from tui.clue import assist_dialogs as clue_assist
from tui.clue import dialogs as clue
from tui.ghoul import assist_dialogs as ghoul_assist
from tui.ghoul import dialogs as ghoul
from tui.mascarade import assist_dialogs as mascarade_assist
from tui.mascarade import dialogs as mascarade
from tui.masque import dialogs as masque

EXAMPLES = Path(__file__).parents[2] / "examples"
NO_ANSWER = "no answer"


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[], Screen[Any]]
    keys: tuple[str, ...]


def _clue_view(want: Callable[[dict], bool], players: int = 6, seed: int = 2) -> dict:
    table = new_table(players, seed=seed)
    assert advance(table, want)
    return table.view(0)


def _can(kind: str) -> Callable[[dict], bool]:
    return lambda v: v["to_act"] == 0 and any(a[0] == kind for a in v["legal"])


def _clue_rumor() -> Screen[Any]:
    view = _clue_view(_can("rumor"))
    return clue.RumorDialog(view, load_board(view["board"]), {})


def _clue_accuse() -> Screen[Any]:
    view = _clue_view(_can("rumor"))
    return clue.AccuseDialog(view, load_board(view["board"]), {})


def _clue_move() -> Screen[Any]:
    view = _clue_view(lambda v: v["to_act"] == 0 and v["phase"] == "move")
    return clue.MoveDialog(view, load_board(view["board"]))


def _clue_config() -> dict:
    return json.loads((EXAMPLES / "clue-assist-red-keep.json").read_text())["config"]


def _mascarade_config() -> dict:
    return json.loads((EXAMPLES / "mascarade-assist.json").read_text())["config"]


def _mascarade_entry(kind: str) -> Callable[[], Screen[Any]]:
    return lambda: mascarade_assist.MascaradeEntryDialog(_mascarade_config()).prepare(kind, [])


CASES = [
    # Clue, play: the two multi-step pickers and a one-step one.
    Case("clue-rumor", _clue_rumor, ("down", "enter", "down", "down", "enter", "enter")),
    Case("clue-accuse", _clue_accuse, ("down", "enter", "down", "enter", "down", "down", "enter", "enter")),
    Case("clue-move", _clue_move, ("down", "enter")),
    # Clue, assistant: every kind of entry.
    *[Case(f"clue-assist-{kind}", lambda kind=kind: clue_assist.EntryDialog(kind, _clue_config()), keys)
      for kind, keys in (
          ("rumor", ("right", "enter", "tab", "right", "enter", "tab", "enter", "tab", "enter", "tab", "right",
                     "right", "enter", "ctrl+s")),
          ("reveal", ("right", "enter", "tab", "right", "enter", "tab", "tab", "right", "enter", "ctrl+s")),
          ("hand", ("enter", "right", "enter", "right", "enter", "tab", "enter", "right", "enter", "ctrl+s")),
          ("accusation", ("right", "enter", "tab", "enter", "tab", "enter", "tab", "enter", "ctrl+s")),
      )],
    # Tokyo Ghoul, play: the two-sided exchange and a one-step decision.
    Case("ghoul-exchange", lambda: ghoul.ExchangeDialog(ghoul_table(ghoul_my("exchange")).view(0)),
         ("down", "enter", "down", "enter", "e")),
    Case("ghoul-move", lambda: ghoul.decision_dialog(ghoul_table(ghoul_my("move")).view(0)),  # type: ignore[arg-type,return-value]
         ("down", "enter")),
    # Tokyo Ghoul, assistant: every entry kind of the main row, and the More… menu.
    *[Case(f"ghoul-assist-{kind}", lambda kind=kind: ghoul_assist.GhoulEntryDialog(kind, GHOUL_CONFIG), keys)
      for kind, keys in (
          ("hand", ("enter", "tab", "right", "enter", "tab", "right", "right", "enter", "ctrl+s")),
          ("move", ("right", "enter", "tab", "right", "right", "enter", "ctrl+s")),
          ("interrogation", ("right", "enter", "tab", "right", "right", "enter", "tab", "enter", "tab", "enter",
                             "tab", "enter", "tab", "enter", "ctrl+s")),
          ("suspicion", ("right", "enter", "tab", "right", "enter", "ctrl+s")),
          ("cover", ("right", "enter", "tab", "right", "right", "enter", "ctrl+s")),
          ("attack", ("right", "enter", "tab", "right", "right", "enter", "tab", "enter", "tab", "right", "enter",
                      "tab", "enter", "ctrl+s")),
      )],
    Case("ghoul-assist-more", lambda: ghoul_assist.MoreDialog(GHOUL_CONFIG), ("v",)),
    # Mascarade, play: a grid of options; assistant: an entry whose questions follow the kind picked.
    Case("mascarade-announce", lambda: mascarade.PickDialog("announce", "Announce a mask", "Which one?",
                                                            [("King", "king"), ("Queen", "queen"),
                                                             ("Judge", "judge"), ("Thief", "thief")], columns=2),
         ("right", "down", "enter")),
    *[Case(f"mascarade-assist-{kind}", _mascarade_entry(kind), keys)
      for kind, keys in (
          ("swap", ("tab", "right", "enter", "tab", "right", "right", "enter", "tab", "enter", "ctrl+s")),
          ("look", ("tab", "right", "enter", "ctrl+s")),
          ("announce", ("tab", "right", "enter", "tab", "right", "enter", "ctrl+s")),
      )],
    # Masque of the Red Death, play: the action list and the six-slot plan.
    Case("masque-action", lambda: masque.ActionDialog(masque_at(at_choose)().view(0)), ("down", "enter")),
    Case("masque-plan", lambda: masque.PlanDialog(masque_at(at_plan)().view(0), None),
         ("right", "enter", "tab", "left", "enter", "tab", "right", "right", "enter", "s")),
]


async def _answer(case: Case, all_at_once: bool) -> Any:
    """What the dialog dismisses with after ``case.keys``: typed one by one, or sent all at once."""
    answers: list[Any] = []
    app = UnmaskApp(bot_delay=0)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        app.push_screen(case.make(), answers.append)
        await pilot.pause(0.1)
        if all_at_once:
            await burst(pilot, case.keys)
        else:
            for key in case.keys:
                await pilot.press(key)
                await pilot.pause()
        await pilot.pause()
    return answers[0] if answers else NO_ANSWER


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@run_async
async def test_a_burst_of_keys_answers_as_slow_typing_does(case: Case) -> None:
    slow = await _answer(case, all_at_once=False)
    assert slow not in (None, NO_ANSWER), f"{case.name}: the keys {case.keys} do not answer the dialog"
    fast = await _answer(case, all_at_once=True)
    assert fast == slow, f"{case.name}: typed slowly {slow!r}, in a burst {fast!r}"
