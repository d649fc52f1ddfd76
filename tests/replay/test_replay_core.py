"""The replay of a saved game is, at every step, exactly the state the live game had (issue 25).

Seeded bots-only games of all four are played while the live state is recorded after every
action; the session they save is then replayed and compared step by step (``state_to_json``:
every hidden card, the RNG state and the log included).
"""

from __future__ import annotations

import json

import pytest

from engine.registry import get_game
from engine.replay import replay_steps
from engine.session import Session, SessionError
from solvers.table import Table

GAMES = {
    "clue": ({"board": "red-keep", "players": 4}, ["notes", "random", "notes", "random"]),
    "mascarade": ({"players": 5}, ["honest", "random", "honest", "random", "honest"]),
    "masque": ({"players": 4}, ["heuristic", "random", "heuristic", "random"]),
    "ghoul": ({"players": 5}, ["heuristic", "random", "heuristic", "random", "heuristic"]),
}


def _live_game(game: str, seed: int) -> tuple[Session, list[dict]]:
    """A seeded bots-only game played to its end, with the live state's JSON after every action."""
    config, bots = GAMES[game]
    table = Table(game, config, seed, bots)
    spec = table.spec
    live = [spec.state_to_json(table.state)]
    while table.step_bot():
        live.append(spec.state_to_json(table.state))
    assert table.is_over()
    # through JSON text, as a saved file is read back
    return Session.from_json(json.loads(json.dumps(table.to_session().to_json()))), live


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_replay_equals_the_live_game_at_every_step(game, seed):
    session, live = _live_game(game, seed)
    replay = replay_steps(session)
    spec = get_game(game)
    assert len(replay) == len(live) == len(session.log) + 1
    for k, step in enumerate(replay.steps):
        assert step.index == k
        assert spec.state_to_json(step.state) == live[k], f"step {k}"
        if k:
            assert [step.seat, spec.action_to_json(step.action)] == session.log[k - 1]
    # the events of the steps, in order, are the whole log, each once
    ns = [n for step in replay.steps for n, _ev, _seats in step.events]
    assert ns == list(range(len(replay.final.log)))


def test_a_game_not_over_is_refused():
    session, _ = _live_game("mascarade", 1)
    session.log = session.log[: len(session.log) // 2]
    with pytest.raises(SessionError, match="not over yet"):
        replay_steps(session)
    assert len(replay_steps(session, finished=False)) == len(session.log) + 1


@pytest.mark.parametrize(("change", "words"), [
    (lambda s: setattr(s, "mode", "assist"), "table notes"),
    (lambda s: s.log.__setitem__(3, "oops"), "Log entry 3 is not a [seat, action] pair."),
    (lambda s: s.log.__setitem__(2, [(s.log[2][0] + 1) % 4, s.log[2][1]]), "not their turn"),
    (lambda s: setattr(s, "config", {"players": 99}), "config is not valid"),
])
def test_a_damaged_session_gives_one_line(change, words):
    session, _ = _live_game("masque", 1)
    change(session)
    with pytest.raises(SessionError) as e:
        replay_steps(session)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_a_table_gives_its_replay_only_once_the_game_is_over():
    """The end screen's Replay reads ``Table.replay_session``: before the end it is refused in one line."""
    config, bots = GAMES["ghoul"]
    table = Table("ghoul", config, 1, bots)
    for _ in range(5):
        table.step_bot()
    with pytest.raises(SessionError, match="not over yet"):
        table.replay_session()
    table.run_bots()
    assert table.is_over()
    assert replay_steps(table.replay_session()).spec.is_over(table.state)
