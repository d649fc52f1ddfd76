"""The Table: seats act only through it, undo replays, sessions round-trip, bots are deterministic.

"A screen plays a seat only through the table's interface (submit an action, receive that
seat's new view); it never touches State." (DESIGN.md, Tables)
"""

from __future__ import annotations

import json

import pytest

from engine.clue.game import ClueConfig, legal_actions, state_to_json, view
from engine.core import IllegalAction
from engine.session import Session, SessionError
from solvers.table import HUMAN, Table

CONFIG = ClueConfig(players=4)


def _all_bots(seed: int = 3, config: ClueConfig = CONFIG) -> Table:
    return Table("clue", config, seed, ["notes", "random", "notes", "random"][: config.players])


def _human_table(seed: int = 3) -> Table:
    return Table("clue", CONFIG, seed, [HUMAN, "notes", "random", "notes"])


def _snapshot(t: Table) -> tuple:
    return json.dumps(state_to_json(t.state), sort_keys=True), json.dumps(t.log)


def _until_human(t: Table) -> None:
    t.run_bots()
    assert t.to_act() == 0 or t.is_over()


def test_submit_out_of_turn_is_refused_and_changes_nothing():
    t = _human_table()
    _until_human(t)
    before = _snapshot(t)
    for seat in (1, 2, 3):
        with pytest.raises(IllegalAction, match="not your turn"):
            t.submit(seat, legal_actions(t.state)[0])
    assert _snapshot(t) == before


def test_submit_illegal_action_in_turn_is_refused_and_changes_nothing():
    t = _human_table()
    _until_human(t)
    before = _snapshot(t)
    with pytest.raises(IllegalAction):
        t.submit(0, ("fly",))
    assert _snapshot(t) == before


def test_submit_applies_logs_and_notifies():
    t = _human_table()
    _until_human(t)
    calls = []
    t.subscribe(lambda: calls.append(1))
    action = legal_actions(t.state)[0]
    n = len(t.log)
    t.submit(0, list(action))  # a list is accepted like a tuple
    assert t.log[-1] == [0, list(action)] and len(t.log) == n + 1
    assert calls == [1]
    cb = t._listeners[0]
    t.unsubscribe(cb)
    t.run_bots()
    assert calls == [1]


def test_view_is_the_seats_view():
    t = _human_table()
    _until_human(t)
    assert t.view(0) == view(t.state, 0)
    assert t.view(2, since=5)["events"][0]["n"] == 5
    assert t.humans == [0]
    assert not t.waiting_for_bot()


def test_undo_takes_back_the_seats_last_action_and_replays_the_rest():
    for seed in range(11, 80):  # two actions of seat 0 after which it has seen nothing hidden
        t = _human_table(seed=seed)
        _until_human(t)
        before_first = _snapshot(t)
        t.submit(0, legal_actions(t.state)[0])
        if t.to_act() != 0:
            continue
        before_second = _snapshot(t)
        t.submit(0, legal_actions(t.state)[-1])
        if t.undo_floor(0) == 0:
            break
    else:
        raise AssertionError("no such game")
    assert t.undo(0)
    assert _snapshot(t) == before_second
    # Undo again until nothing of seat 0 is left: back to where seat 0 first had to act.
    while t.undo(0):
        pass
    assert _snapshot(t) == before_first
    assert not t.undo(0)


def test_undo_without_actions_is_a_no_op():
    t = _human_table()
    assert t.log == [] or all(s != 0 for s, _ in t.log)
    before = _snapshot(t)
    assert t.undo(0) is False
    assert _snapshot(t) == before


def test_bots_play_the_same_after_an_undo():
    """Bots rebuilt by an undo choose exactly as before: their choices depend only on their
    seed and what they have seen."""
    t = _human_table(seed=21)
    _until_human(t)
    t.submit(0, legal_actions(t.state)[0])
    t.run_bots()
    first_run = list(t.log)
    t.undo(0)
    t.submit(0, legal_actions(t.state)[0])
    t.run_bots()
    assert t.log == first_run


def test_session_round_trip():
    """to_session -> JSON text -> from_session gives the same table: seats, log and state."""
    t = _human_table(seed=8)
    _until_human(t)
    t.submit(0, legal_actions(t.state)[0])
    t.run_bots()
    data = json.loads(json.dumps(t.to_session().to_json()))
    back = Table.from_session(Session.from_json(data))
    assert back.seats == t.seats and back.seed == t.seed and back.log == t.log
    assert _snapshot(back) == _snapshot(t)
    assert back.config.to_json() == t.config.to_json()


@pytest.mark.parametrize("stop", [1, 17, 60, 140])
def test_bots_are_deterministic_after_resume(stop):
    """A game saved after ``stop`` actions and resumed ends exactly as the unbroken game."""
    whole = _all_bots(seed=31)
    whole.run_bots()
    part = _all_bots(seed=31)
    part.run_bots(limit=stop)
    text = json.dumps(part.to_session().to_json())
    resumed = Table.from_session(Session.from_json(json.loads(text)))
    resumed.run_bots()
    assert resumed.log == whole.log
    assert _snapshot(resumed) == _snapshot(whole)


def test_same_seed_same_game_different_seed_different_game():
    a, b, c = _all_bots(seed=4), _all_bots(seed=4), _all_bots(seed=5)
    for t in (a, b, c):
        t.run_bots()
    assert a.log == b.log
    assert a.log != c.log
    assert a.is_over() and a.result() is not None


def test_from_session_refuses_a_bad_log():
    t = _all_bots()
    t.run_bots(limit=5)
    s = t.to_session()
    s.log[3] = [s.log[3][0], ["fly"]]
    with pytest.raises(SessionError, match="Log entry 3"):
        Table.from_session(s)


def test_table_checks_its_seats():
    with pytest.raises(ValueError, match="4 seats"):
        Table("clue", CONFIG, 1, [HUMAN, "notes"])
    with pytest.raises(ValueError, match="Unknown clue bot"):
        Table("clue", CONFIG, 1, [HUMAN, "notes", "random", "genius"])
    with pytest.raises(ValueError, match="Unknown game"):
        Table("chess", CONFIG, 1, [HUMAN] * 4)


def test_config_may_be_given_as_json():
    t = Table("clue", CONFIG.to_json(), 2, [HUMAN] * 4)
    assert t.config.to_json() == CONFIG.to_json()
    assert not t.waiting_for_bot() and t.step_bot() is False
