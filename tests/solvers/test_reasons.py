"""The bot's reasons in a replay (issue 25): rebuilt from the bot's seed at a step, the strong bot
makes the logged move again, and its value is the best of those it weighed."""

from __future__ import annotations

import pytest

from engine.replay import replay_steps
from engine.session import Session
from solvers.ghoul.strong import StrongBot
from solvers.reasons import SCORED, explain, may_explain
from solvers.table import Table

# Seeded Tokyo Ghoul games with a strong seat (each plays in about a second).
GHOUL = [(24, ["strong", "random", "heuristic", "random"]), (25, ["strong", "random", "heuristic", "random"]),
         (26, ["heuristic", "strong", "random", "strong"])]


def played(game: str, config: dict, seed: int, seats: list[str], limit: int = 100_000) -> Session:
    table = Table(game, config, seed, seats)
    table.run_bots(limit)
    return table.to_session()


@pytest.mark.parametrize(("seed", "seats"), GHOUL)
def test_the_rebuilt_strong_bot_makes_the_logged_move_and_it_scores_best(seed, seats):
    replay = replay_steps(played("ghoul", {"players": 4}, seed, seats))
    explained = 0
    for k in range(1, len(replay)):
        step = replay.steps[k]
        if not may_explain(replay, k):
            assert seats[step.seat] != "strong" or not StrongBot.searches(
                StrongBot(step.seat, 0), replay.spec.view(replay.steps[k - 1].state, step.seat))
            continue
        assert seats[step.seat] == "strong"
        why = explain(replay, k)
        assert why is not None, f"step {k}: the rebuilt bot did not make the logged move"
        assert why.action == step.action and why.seat == step.seat
        assert 0.0 <= why.value <= 1.0
        if why.alternative is not None:
            assert why.alternative != why.action
            # the best by its value, but for the tie-break towards the heuristic's own choice
            assert why.value >= why.alt_value - StrongBot.PREFER_HEURISTIC - 1e-12
        explained += 1
    assert explained >= 3


def test_a_move_the_bot_would_not_make_has_no_reasons():
    """Another legal move logged where the strong bot searched: "not available", never its numbers."""
    session = played("ghoul", {"players": 4}, 25, ["strong", "random", "heuristic", "random"])
    replay = replay_steps(session)
    k = next(k for k in range(1, len(replay)) if may_explain(replay, k))
    view = replay.spec.view(replay.steps[k - 1].state, replay.steps[k].seat)
    other = next(tuple(a) for a in view["legal"] if tuple(a) != replay.steps[k].action)
    assert explain(replay, k) is not None
    session.log = [*session.log[: k - 1], [replay.steps[k].seat, replay.spec.action_to_json(other)]]
    changed = replay_steps(session, finished=False)
    assert may_explain(changed, k) and explain(changed, k) is None


@pytest.mark.parametrize(("game", "config"), [("clue", {"board": "red-keep", "players": 3}),
                                              ("mascarade", {"players": 4}), ("masque", {"players": 4})])
def test_no_reasons_where_the_strong_bot_weighs_no_moves(game, config):
    assert (game, "strong") not in SCORED
    replay = replay_steps(played(game, config, 7, ["strong"] * config["players"], limit=20), finished=False)
    assert not any(may_explain(replay, k) for k in range(len(replay)))
    assert all(explain(replay, k) is None for k in range(len(replay)))
