"""Sessions: plain data in and out, versioned, and a damaged file gives one clear line.

"A damaged file produces a clear message — never a traceback, never a lost session"
(DESIGN.md): every way a session can be wrong raises :class:`SessionError` whose message is
one sentence on one line.
"""

from __future__ import annotations

import json

import pytest

from engine.clue.game import ClueConfig, legal_actions, state_to_json
from engine.registry import GAMES, get_game
from engine.session import FORMAT, Session, SessionError

CONFIG = ClueConfig(players=3).to_json()


def _play_log(n: int, seed: int = 5) -> list:
    """The first ``n`` entries of a game in which every seat takes its first legal action."""
    spec = get_game("clue")
    state = spec.new_game(spec.config_from_json(CONFIG), seed)
    log = []
    for _ in range(n):
        seat = spec.to_act(state)
        action = legal_actions(state)[0]
        log.append([seat, spec.action_to_json(action)])
        state = spec.apply(state, action)
    return log


def _session(**over) -> dict:
    d = {"format": FORMAT, "game": "clue", "mode": "play", "config": CONFIG, "seed": 5, "log": _play_log(6)}
    d.update(over)
    return d


def _refused(data, words: str, replay: bool = False) -> str:
    with pytest.raises(SessionError) as e:
        s = Session.from_json(data)
        if replay:
            s.replay()
    msg = str(e.value)
    assert words.lower() in msg.lower(), msg
    assert "\n" not in msg and msg.endswith((".", ")")), msg
    assert "Traceback" not in msg
    return msg


def test_session_round_trips_through_json_text():
    """A session is plain data: to_json -> text -> from_json gives the same session."""
    s = Session.from_json(_session(seats=["human", "notes", "random"], note="kept"))
    text = json.dumps(s.to_json())
    back = Session.from_json(json.loads(text))
    assert back == s
    assert back.to_json() == s.to_json()
    assert back.extra == {"note": "kept"}  # unknown top-level keys survive a load and save


def test_replay_rebuilds_the_game():
    """A play session replays from its config, seed and log; ``upto`` replays a prefix."""
    s = Session.from_json(_session())
    spec = get_game("clue")
    state = spec.new_game(spec.config_from_json(CONFIG), 5)
    for seat, raw in s.log[:3]:
        assert spec.to_act(state) == seat
        state = spec.apply(state, spec.action_from_json(raw))
    assert state_to_json(s.replay(upto=3)) == state_to_json(state)
    assert len(s.replay().log) > len(state.log)


@pytest.mark.parametrize("data", ["a string", 42, None, ["format", FORMAT]])
def test_not_a_json_object(data):
    """Something that is not a JSON object at all."""
    _refused(data, "not an unmask session")


def test_wrong_format():
    _refused(_session(format="pickle/1"), "not an unmask session")
    _refused({k: v for k, v in _session().items() if k != "format"}, "not an unmask session")


def test_newer_version():
    """A file from a newer unmask says so, and names the format this one reads."""
    msg = _refused(_session(format="unmask-session/2"), "newer unmask")
    assert FORMAT in msg


def test_unknown_game():
    msg = _refused(_session(game="chess"), "unknown game")
    assert "chess" in msg


def test_unknown_game_of_the_wrong_type():
    """A game id that is not even a string still gets the one-line message."""
    _refused(_session(game=["clue"]), "unknown game")


def test_bad_fields():
    _refused(_session(mode="watch"), "unknown session mode")
    _refused(_session(config=[1, 2]), "config must be a JSON object")
    _refused({k: v for k, v in _session().items() if k != "seed"}, "needs an integer seed")
    _refused(_session(seed="12"), "needs an integer seed")
    _refused(_session(log={"0": "roll"}), "log must be a list")
    _refused(_session(seats="human"), "seats must be a list of names")
    _refused(_session(seats=["human", 3]), "seats must be a list of names")


def test_invalid_config():
    _refused(_session(config={**CONFIG, "players": 9}), "config is not valid", replay=True)
    _refused(_session(config={**CONFIG, "board": "winterfell"}), "config is not valid", replay=True)
    _refused(_session(config={**CONFIG, "colour": "red"}), "config is not valid", replay=True)


@pytest.mark.parametrize("entry", [5, "roll", [0], [0, "roll"], [0, []], [0, ["roll"], "extra"], None])
def test_bad_log_entry(entry):
    """A log entry that is not a ``[seat, action]`` pair names its index."""
    log = _play_log(3)
    msg = _refused(_session(log=[*log, entry]), "log entry 3 is not a [seat, action] pair", replay=True)
    assert "{" not in msg


def test_logged_move_by_the_wrong_seat():
    log = _play_log(3)
    seat, raw = log[2]
    log[2] = [(seat + 1) % 3, raw]
    _refused(_session(log=log), "log entry 2 is by seat", replay=True)


def test_illegal_logged_move():
    """An illegal move in the log says which entry and why, in the rules' own words."""
    log = _play_log(2)
    seat = log[1][0]
    msg = _refused(_session(log=[*log[:1], [seat, ["accuse", "Sansa Stark", "Arakh", "Privy"]]]),
                   "log entry 1 is not a legal move", replay=True)
    assert "accuse" in msg.lower()
    _refused(_session(log=[*log[:1], [seat, ["move", 1.5]]]), "log entry 1 is not a legal move", replay=True)


def test_assist_sessions_do_not_replay():
    s = Session.from_json(_session(mode="assist", seed=None, log=[]))
    with pytest.raises(SessionError, match="Only play sessions"):
        s.replay()


def test_registry_knows_clue_and_refuses_unknown_games():
    assert "clue" in GAMES
    assert get_game("clue").title == "Clue: Game of Thrones"
    with pytest.raises(ValueError, match="Unknown game"):
        get_game("chess")
