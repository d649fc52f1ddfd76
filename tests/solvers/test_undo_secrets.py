"""Undo is for slips, not for seeing the answer and choosing again (issue 11, example 6).

"Undo in play goes back at most to the last moment you saw something hidden (a card shown to
you, a look, an interrogation)." Before this, undo took back a Clue rumor after its answer, and
a Tokyo Ghoul choice after the interrogation it led to.
"""

from __future__ import annotations

import pytest

from engine.clue import ClueConfig
from engine.ghoul import GhoulConfig
from engine.mascarade import MascaradeConfig
from engine.masque import MasqueConfig
from solvers.bots import make_bot
from solvers.table import HUMAN, Table


def _clue_shown(ev: dict, seats) -> bool:
    return ev["t"] == "show" and ev["to"] == 0  # a card shown to you in answer to your rumor


def _ghoul_shown(ev: dict, seats) -> bool:
    return ev["t"] == "shown" and ev["to"] == 0  # the cards an interrogation made them show you


def _masque_look(ev: dict, seats) -> bool:
    return ev["t"] == "look" and ev["seat"] == 0  # you looked at a Red Death card


def _mascarade_look(ev: dict, seats) -> bool:
    return ev["t"] in ("look", "spy_look") and ev["seat"] == 0  # you looked at your card


CASES = [
    pytest.param("clue", ClueConfig(players=4), "notes", _clue_shown, id="clue-rumor-answered"),
    pytest.param("ghoul", GhoulConfig(players=5), "heuristic", _ghoul_shown, id="ghoul-interrogation"),
    pytest.param("masque", MasqueConfig(players=4), "heuristic", _masque_look, id="masque-look"),
    pytest.param("mascarade", MascaradeConfig(players=5), "honest", _mascarade_look, id="mascarade-look"),
]


def _play_until_seen(game: str, config, bot: str, seen, seed: int = 4) -> tuple[Table, int]:
    """Seat 0 (a human played by a bot here) acts until an action of its own shows it something hidden."""
    players = config.players
    table = Table(game, config, seed, [HUMAN, *[bot] * (players - 1)])
    me = make_bot(game, bot, 0, 99)
    for _ in range(20000):
        assert not table.is_over(), "the game ended before the secret"
        if table.to_act() != 0:
            table.step_bot()
            continue
        start = len(table.state.log)
        table.submit(0, tuple(me.choose(table.view(0))))
        mine = len(table.log) - 1
        while table.waiting_for_bot() and not any(seen(ev, s) for ev, s in table.state.log.entries(start)):
            table.step_bot()
        if any(seen(ev, s) for ev, s in table.state.log.entries(start)):
            return table, mine
    raise AssertionError("no secret seen")


@pytest.mark.parametrize("game,config,bot,seen", CASES)
def test_undo_never_takes_back_a_decision_whose_answer_you_saw(game, config, bot, seen):
    table, mine = _play_until_seen(game, config, bot, seen)
    log = [list(e) for e in table.log]
    assert table.undo(0) is False
    assert table.log == log, "a refused undo changes nothing"
    assert table.undo_floor(0) > mine
    assert table.undo_target(0) is None
    assert "something hidden" in table.why_no_undo(0)


def test_a_later_slip_can_still_be_undone_back_to_the_secret():
    """After a look, the Masque plan tiles you set can be taken back, one by one, but not the look."""
    table, mine = _play_until_seen("masque", MasqueConfig(players=4), "heuristic", _masque_look)
    me = make_bot("masque", "heuristic", 0, 99)
    for _ in range(5000):  # on to a moment where seat 0 may edit its midnight plan
        v = table.view(0)
        if v["to_act"] == 0 and any(a[0] == "tile" for a in v["legal"]):
            break
        if table.to_act() == 0:
            table.submit(0, tuple(me.choose(v)))
        else:
            table.step_bot()
    floor = table.undo_floor(0)
    before = [list(e) for e in table.log]
    tile = next(a for a in table.view(0)["legal"] if a[0] == "tile")
    table.submit(0, tuple(tile))
    assert table.undo_floor(0) == floor, "your own plan tile shows you nothing hidden"
    assert table.undo(0)
    assert table.log == before
    while table.undo(0):
        pass
    assert len(table.log) >= floor > mine
