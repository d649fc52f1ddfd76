"""Beliefs over time (issue 25): each seat's series equals its solver's answer on its own notes at that step,
and ends at 1 where the seat named the truth (a correct Clue accusation, a Mascarade card revealed)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from engine.masque import ROOMS, SLOTS
from engine.registry import GAMES
from engine.replay import replay_steps
from solvers.beliefs import belief_series, series_json
from solvers.table import Table
from tui.storage import read_session_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(game: str):
    return replay_steps(read_session_file(EXAMPLES / f"{game}-finished.json"))


def solver_answer(game: str, session, seat: int, k: int) -> float | None:
    """The solver's number straight from a table replayed to ``k`` actions and a fresh set of notes."""
    table = Table(game, session.config, session.seed, session.seats, session.log[:k])
    obs = importlib.import_module(f"solvers.{game}.observations").ObservationLog(seat)
    obs.update(table.view(seat)["events"])
    log = obs.entries() if hasattr(obs, "entries") else obs.log
    solve = importlib.import_module(f"solvers.{game}.solver").solve
    s, me = table.state, obs.config["me"]
    if game == "clue":
        env = list(s.envelope)
        return solve(obs.config, [*log, {"type": "accusation", "by": me, "cards": env, "correct": True}]).deals \
            / solve(obs.config, log).deals
    if game == "mascarade":
        return solve(obs.config, log, advice=False)["probabilities"][me][s.cards[seat]]
    if game == "masque":
        if s.pos[seat] < 0 or not s.alive[seat]:
            return None
        deadly, room, p = solve(obs.config, log)["deadly"], s.pos[seat], 1.0
        for slot, move in zip(SLOTS, s.plans[seat], strict=True):
            room = (room + {"cw": 1, "ccw": -1, "stay": 0}[move]) % len(ROOMS)
            p *= 1 - deadly[slot][ROOMS[room]]
        return p
    ids = solve(obs.config, log, advice=False)["identities"]
    names = obs.config["players"]
    return sum(ids[names[i]].get(s.chars[i], 0.0) for i in range(len(names)) if i != seat) / (len(names) - 1)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_series_is_the_solver_on_the_seat_notes(game):
    replay = example(game)
    session = replay.session
    last = len(replay) - 1
    for seat in (0, 1):
        series = belief_series(replay, seat)
        assert [p.step for p in series] == list(range(len(replay)))
        for k in sorted({1, last // 3, last // 2, (2 * last) // 3, last}):
            want = solver_answer(game, session, seat, k)
            got = series[k].p
            assert (got is None) == (want is None), (seat, k)
            if want is not None:
                assert got == pytest.approx(want, abs=1e-9), (seat, k)
                assert 0.0 <= got <= 1.0


def test_clue_ends_at_one_for_the_seat_that_accused_correctly():
    replay = example("clue")
    right = [(st.index, ev["seat"]) for st in replay.steps for _n, ev, _s in st.events
             if ev["t"] == "accuse" and ev["correct"]]
    assert right, "the example game ends with a correct accusation"
    for step, seat in right:
        series = belief_series(replay, seat)
        assert series[step].certain and series[-1].p == pytest.approx(1.0)
        assert not series[0].certain  # it was not certain from the deal
    wrong = [(st.index, ev["seat"]) for st in replay.steps for _n, ev, _s in st.events
             if ev["t"] == "accuse" and not ev["correct"]]
    for step, seat in wrong:
        assert not belief_series(replay, seat)[step].certain


def test_mascarade_a_revealed_card_is_certain_to_its_holder():
    replay = example("mascarade")
    reveals = [(st.index, place) for st in replay.steps for _n, ev, _s in st.events if ev["t"] == "reveal"
               for place, _mask in ev["cards"] if place < replay.players]
    assert reveals
    series = {s: belief_series(replay, s) for s in range(replay.players)}
    for step, seat in reveals:
        assert series[seat][step].certain, (step, seat)
    assert any(not p.certain for s in series.values() for p in s)  # the swaps do leave doubt


def test_the_json_has_every_seat_and_step():
    replay = example("ghoul")
    out = series_json(replay)
    assert out["game"] == "ghoul" and out["steps"] == len(replay) - 1
    assert [s["seat"] for s in out["seats"]] == list(range(replay.players))
    assert all(len(s["series"]) == len(replay) for s in out["seats"])
