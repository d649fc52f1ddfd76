"""CP-SAT's certain facts of Tokyo Ghoul equal the exact card-flow counter's wherever both run.

A fact is certain if and only if no world of positive weight breaks it; ``solvers.ghoul.cpsat``
decides that by feasibility (issue 21: the complete oracle where counting runs out). Here the
counter (``solve()`` with ``"method": "flow"``) is the reference: every hand-written case of
``test_ghoul_flow`` (every entry kind, 4 and 5 players, Mask and Support, every exchange chance)
and seat logs of seeded engine games up to 6 players; at 7 and 8 players (Mask and Support) the
whole fallback of ``solve()`` (sampled worlds, the per-player bound as a sound outer bound, then
CP-SAT) wherever the exact pass also runs.
"""

from __future__ import annotations

import pytest

from engine.core import Rng
from engine.ghoul.game import GhoulConfig, apply, is_over, legal_actions, new_game, view
from solvers.ghoul import cpsat
from solvers.ghoul.flow import solve_flow
from solvers.ghoul.model import build_problem
from solvers.ghoul.observations import ObservationLog
from solvers.ghoul.solver import _bound, _certain, _from_flow, _sampled, filter_log, solve
from tests.solvers.test_ghoul_flow import CASES4, CASES5, cfg4, cfg5


def cpsat_certain(config: dict, log: list[dict], outer: bool = False) -> dict | None:
    """CP-SAT's certain facts alone, or (``outer``) with the per-player bound as the outer bound
    (its sets as constraints, its facts unchecked), as ``solve()``'s fallback uses it."""
    problem = build_problem(config, log)
    f = filter_log(problem)
    hands = chars = None
    if outer:
        bound = _bound(f, None, True)
        if bound.status != "ok":
            return None
        hands = [{hi for (_c, hi), v in bound.joint[q].items() if v > 0} for q in range(problem.n)]
        chars = [{c for c, v in bound.identity[q].items() if v > 0} for q in range(problem.n)]
    try:
        pos = cpsat.possible(problem, f.fixed, f.allowed, problem.exchange_chance, outer_hands=hands,
                             outer_characters=chars)
    except cpsat.FlowConflict:
        return None
    assert pos.undecided == []
    return cpsat.certain(problem, pos)


def same_facts(config: dict, log: list[dict], pure: bool = True) -> None:
    out = solve(config, log, advice=False)
    got = cpsat_certain(config, log, outer=True)
    if out["status"] != "ok":
        assert got is None
        return
    assert out["method"] == "flow"
    assert got == out["certain"]
    if pure:
        assert cpsat_certain(config, log) == out["certain"]


CASES = [(4, k) for k in sorted(CASES4)] + [(5, k) for k in sorted(CASES5)]


@pytest.mark.parametrize("case", CASES, ids=[f"{p}-{k}" for p, k in CASES])
def test_cpsat_facts_equal_the_counters_on_every_entry_kind(case):
    players, name = case
    config, log = (cfg4(), CASES4[name]) if players == 4 else (cfg5(), CASES5[name])
    for k in sorted({(len(log) + 1) // 2, len(log)}):
        same_facts(config, log[:k])


@pytest.mark.soak
@pytest.mark.parametrize("case", CASES, ids=[f"{p}-{k}" for p, k in CASES])
def test_cpsat_facts_equal_the_counters_on_every_prefix_soak(case):
    players, name = case
    config, log = (cfg4(), CASES4[name]) if players == 4 else (cfg5(), CASES5[name])
    for k in range(1, len(log) + 1):
        same_facts(config, log[:k])


@pytest.mark.parametrize("chance", [0.0, 0.25, 1.0])
def test_cpsat_facts_follow_the_exchange_chance_like_the_counter(chance):
    for name in ("unseen exchange, another chance", "interrogation I could not see"):
        if name in CASES4:
            same_facts(cfg4(exchange_chance=chance), CASES4[name])


def _seat_logs(players: int, seed: int, mask: bool, support: bool, every: int = 5, steps: int = 60):
    s = new_game(GhoulConfig(players=players, mask=mask, support=support), seed)
    r = Rng(seed)
    seat = seed % players
    obs = ObservationLog(seat)
    k = 0
    while not is_over(s) and k < steps:
        s = apply(s, r.choice(legal_actions(s)))
        k += 1
        if k % every == 0:
            obs.update(view(s, seat, obs.since)["events"])
            yield obs.config, obs.entries()


ENGINE = [(4, True, True, 3), (5, False, True, 4), (6, False, False, 6)]
SOAK = [(4 + k % 3, k % 2 == 1, k % 4 >= 2, 100 + k) for k in range(24)]


def _engine_games(players: int, mask: bool, support: bool, seed: int, every: int, least: int) -> None:
    compared = 0
    for config, log in _seat_logs(players, seed, mask, support, every=every):
        out = solve(config, log, advice=False)
        if out["method"] != "flow":
            continue
        same_facts(config, log, pure=False)
        compared += 1
    assert compared >= least


@pytest.mark.parametrize(("players", "mask", "support", "seed"), ENGINE)
def test_cpsat_facts_equal_the_counters_on_engine_games(players, mask, support, seed):
    _engine_games(players, mask, support, seed, every=9, least=3)


@pytest.mark.soak
@pytest.mark.parametrize(("players", "mask", "support", "seed"), SOAK)
def test_cpsat_facts_equal_the_counters_on_engine_games_soak(players, mask, support, seed):
    _engine_games(players, mask, support, seed, every=3, least=5)


def test_a_turn_without_an_instant_victory_rules_the_character_out_like_the_counter():
    """Ben starts a turn without claiming, then shows his whole hand (three Coffee) at the end:
    he is not Hide (who wins with three Coffee). CP-SAT must find that as the counter does."""
    log = [
        {"type": "hand", "cards": ["food", "dove", "dove"]},
        {"type": "turn", "player": "Ben"},
        {"type": "reveal", "player": "Ben", "cards": ["coffee", "coffee", "coffee"]},
    ]
    got = cpsat_certain(cfg4(), log)
    assert got is not None and "hide" in got["Ben"]["not_characters"]
    same_facts(cfg4(), log)


def _fallback_equals_the_counter(players: int, mask: bool, support: bool, seed: int, every: int, most: int) -> int:
    """``solve()``'s fallback past the budget (sampled worlds + the bound + CP-SAT, ``_sampled``)
    run on positions the exact pass also solves: the same certain facts, none undecided."""
    compared = 0
    for config, log in _seat_logs(players, seed, mask, support, every=every, steps=80):
        problem = build_problem(config, log)
        f = filter_log(problem)
        fr = solve_flow(problem, f.fixed, f.allowed, chance=problem.exchange_chance, prune=True,
                        restricted_deal=True)
        if fr is None:
            continue
        sol = _sampled(f, None, True)
        assert sol.undecided == []
        assert sol.certain == _certain(_from_flow(f, fr))
        compared += 1
        if compared >= most:
            break
    return compared


@pytest.mark.parametrize(("players", "mask", "support", "seed", "least"),
                         [(7, True, True, 31, 2), (8, True, True, 33, 1), (8, False, True, 34, 2)])
def test_the_fallbacks_facts_equal_the_counters_at_seven_and_eight_players(players, mask, support, seed, least):
    # (At 8 players with Masks the exact pass mostly runs only once the cards are revealed.)
    assert _fallback_equals_the_counter(players, mask, support, seed, every=5, most=3) >= least


@pytest.mark.soak
@pytest.mark.parametrize(("players", "mask", "support", "seed"),
                         [(7 + k % 2, k % 4 < 2, k % 3 == 0, 300 + k) for k in range(12)])
def test_the_fallbacks_facts_equal_the_counters_at_seven_and_eight_players_soak(players, mask, support, seed):
    assert _fallback_equals_the_counter(players, mask, support, seed, every=3, most=40) >= 1
