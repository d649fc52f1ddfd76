"""Solver soundness against the engine's hidden truth.

Engine games are played by bots; after every event, each seat's view is turned into the
public observation log (``solvers.clue.observations``) and solved. The true deal must stay
possible, every certain fact must be true, and every card's holder probabilities sum to 1.
"""

from __future__ import annotations

import pytest

from engine.clue import ClueConfig
from engine.core import derive_seed
from solvers.clue.observations import ObservationLog
from solvers.clue.solver import solve
from solvers.table import Table

KINDS = ["notes", "random", "strong", "notes", "random", "notes"]


def truth(table: Table) -> dict[str, str]:
    """Who really holds each card (test-only access to the hidden state)."""
    s = table.state
    names = list(s.config.seat_names())
    where = {c: "envelope" for c in s.envelope}
    for i, hand in enumerate(s.hands):
        for c in hand:
            where[c] = names[i]
    for c in s.face_up:
        where[c] = "face_up"
    for c in s.centre:
        where[c] = "centre"
    for c in s.aside:
        where[c] = "aside"
    return where


def check_game(g: int) -> int:
    players = 2 + g % 5
    config = ClueConfig(board="meereen" if g % 2 else "red-keep", players=players, centre_pile=g % 3 == 0,
                        max_rounds=60)
    table = Table("clue", config, derive_seed(7, g), [KINDS[(g + i) % len(KINDS)] for i in range(players)])
    real = truth(table)
    logs = [ObservationLog(seat) for seat in range(players)]
    seen = [None] * players
    checks = 0
    while True:
        for seat, obs in enumerate(logs):
            obs.update(table.view(seat, obs.since)["events"])
            key = (len(obs.log), repr(obs.entries()[-1:]))
            if key == seen[seat]:
                continue
            seen[seat] = key
            sol = solve(obs.config, obs.entries())
            assert sol.status == "ok", f"game {g} seat {seat}: {sol.message}"
            for card, row in sol.holders.items():
                assert abs(sum(row.values()) - 1) < 1e-9
                assert row[real[card]] > 0, f"game {g} seat {seat}: the true holder of {card} was ruled out"
            for card, holder in sol.certain.items():
                assert holder == real[card], f"game {g} seat {seat}: 'certain' {card} -> {holder} is false"
            checks += 1
        if table.is_over() or not table.step_bot():
            return checks


def test_the_truth_stays_possible_and_certain_facts_are_true_sample():
    assert sum(check_game(g) for g in range(12)) > 100


@pytest.mark.soak
@pytest.mark.parametrize("block", range(20))
def test_the_truth_stays_possible_over_2000_engine_games(block):
    for g in range(block * 100, block * 100 + 100):
        check_game(g)
