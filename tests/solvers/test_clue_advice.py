"""Clue rumor advice against brute force over every physical deal of small decks.

The reference lists every deal (tests/solvers/test_clue_solver.py's enumerator, which reads the
rules and never the solver's compiler), keeps those that fit the log with their weight, and for a
rumor asks each deal directly: who is the first player clockwise from me holding one of the three
cards, and which cards could they show.  From that it computes the three figures by their
definitions, in exact fractions.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import log2
from typing import Any

import pytest
from test_clue_solver import _all_deals, _likelihood

import solvers.clue.advice as advice_mod
from solvers.clue import solve
from solvers.clue.advice import compute_advice
from solvers.clue.model import build_problem
from solvers.clue.simulate import RED_KEEP, random_game, tiny_deck


def _answers(deal: dict[str, str], config: dict[str, Any], rumor: tuple[str, str, str]) -> list[tuple[Any, Fraction]]:
    players = config["players"]
    me = players.index(config["me"])
    for i in range(1, len(players)):
        p = players[(me + i) % len(players)]
        shown = [c for c in rumor if deal[c] == p]
        if shown:
            return [((p, c), Fraction(1, len(shown))) for c in shown]
    return [(None, Fraction(1))]


_WORLDS: dict[str, list[tuple[Fraction, dict[str, str]]]] = {}


def _worlds(config: dict[str, Any], log, refuter: bool) -> list[tuple[Fraction, dict[str, str]]]:
    """Every consistent deal with its weight (kept per case: every rumor of a case reads them)."""
    key = repr((config, log, refuter))
    if key not in _WORLDS:
        _WORLDS.clear()
        weighted = ((_likelihood(deal, env, config, log, refuter), deal) for env, deal in _all_deals(config))
        _WORLDS[key] = [(w, deal) for w, deal in weighted if w]
    return _WORLDS[key]


def brute_figures(config: dict[str, Any], log, rumor: tuple[str, str, str], refuter: bool) -> dict[str, float]:
    """bits, deal_bits, deals_left by their definitions over every consistent deal."""
    worlds = _worlds(config, log, refuter)
    total = sum(w for w, _ in worlds)
    p_a: dict[Any, Fraction] = {}
    p_pat_a: dict[Any, Fraction] = {}
    p_pat: dict[Any, Fraction] = {}
    p_h_a: dict[Any, Fraction] = {}
    p_h: dict[Any, Fraction] = {}
    deals_with: dict[Any, int] = {}
    for w, deal in worlds:
        pw = w / total
        holders = tuple(deal[c] for c in rumor)
        pat = tuple(h == "envelope" for h in holders)
        p_pat[pat] = p_pat.get(pat, 0) + pw
        p_h[holders] = p_h.get(holders, 0) + pw
        for a, q in _answers(deal, config, rumor):
            p_a[a] = p_a.get(a, 0) + pw * q
            p_pat_a[(pat, a)] = p_pat_a.get((pat, a), 0) + pw * q
            p_h_a[(holders, a)] = p_h_a.get((holders, a), 0) + pw * q
            deals_with[a] = deals_with.get(a, 0) + 1
    bits = sum(float(p) * log2(float(p / (p_pat[pat] * p_a[a]))) for (pat, a), p in p_pat_a.items() if p)
    deal_bits = sum(float(p) * log2(float(p / (p_h[h] * p_a[a]))) for (h, a), p in p_h_a.items() if p)
    deals_left = sum(float(p) * deals_with[a] for a, p in p_a.items())
    return {"bits": bits, "deal_bits": deal_bits, "deals_left": deals_left}


def _small_games(seed: int, n: int) -> list[Any]:
    rng = random.Random(seed)
    games = []
    for _ in range(n):
        nplayers = rng.choice([2, 3])
        games.append(random_game(rng, tiny_deck(3), nplayers, rng.randrange(0, 9), me=rng.randrange(nplayers)))
    return games


def _rumors_equal_brute_force(game, refuter: bool) -> int:
    """Every rumor's bits, deal bits and expected deals left equal brute force; how many were checked."""
    sol = solve(game.config, game.log, refuter_model=refuter, advice=True)
    assert sol.advice is not None
    for rec in sol.advice["all"]:
        rumor = (rec["suspect"], rec["weapon"], rec["location"])
        want = brute_figures(game.config, game.log, rumor, refuter)
        for key in ("bits", "deal_bits"):
            assert rec[key] == pytest.approx(want[key], abs=1e-9), (key, rumor, game.log)
        assert rec["deals_left"] == pytest.approx(want["deals_left"], rel=1e-12, abs=1e-9)
    return len(sol.advice["all"])


@pytest.mark.parametrize("refuter", [False, True])
def test_every_rumor_figure_equals_brute_force(refuter: bool) -> None:
    """Each rumor's bits, deal bits and expected deals left are the exact figures of the model."""
    checked = sum(_rumors_equal_brute_force(game, refuter) for game in _small_games(5 + refuter, 8))
    assert checked >= 8 * 27


WAYS = [(1, 1, 1, 1), (1, 1, 3, 8), (1, 1, 2, 2), (1, 10**9, 1, 8), (10**9, 10**9, 1, 8)]


@pytest.mark.parametrize(("shared_from", "block_from", "block_xs", "block_ys"), WAYS)
def test_every_way_of_counting_pins_equals_brute_force(
    shared_from: int, block_from: int, block_xs: int, block_ys: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pins by block runs (of several sizes), by one run per pair, or one by one."""
    monkeypatch.setattr(advice_mod, "SHARED_PINS", shared_from)
    monkeypatch.setattr(advice_mod, "BLOCK_PAIRS", block_from)
    monkeypatch.setattr(advice_mod, "BLOCK_XS", block_xs)
    monkeypatch.setattr(advice_mod, "BLOCK_YS", block_ys)
    blocks = []
    real = advice_mod.count_pinned_blocks

    def counted(*args: Any) -> Any:
        blocks.append((args[4], args[5]))
        return real(*args)

    monkeypatch.setattr(advice_mod, "count_pinned_blocks", counted)
    for refuter in (False, True):
        for game in _small_games(11 + refuter, 4):
            _rumors_equal_brute_force(game, refuter)
    assert bool(blocks) == (block_from == 1)
    assert all(len(xs) <= block_xs and len(ys) <= block_ys for xs, ys in blocks)


def test_shared_pins_give_the_same_advice_on_a_full_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a 6-player Red Keep game both ways give the very same figures (too big for brute force)."""
    game = random_game(random.Random(21), RED_KEEP, 6, 7)
    problem = build_problem(game.config, game.log)
    reach = RED_KEEP["locations"][:3]
    monkeypatch.setattr(advice_mod, "SHARED_PINS", 10**9)
    alone = compute_advice(problem, locations=reach)
    for shared_from, block_from, block_xs, block_ys in WAYS[:-1]:
        monkeypatch.setattr(advice_mod, "SHARED_PINS", shared_from)
        monkeypatch.setattr(advice_mod, "BLOCK_PAIRS", block_from)
        monkeypatch.setattr(advice_mod, "BLOCK_XS", block_xs)
        monkeypatch.setattr(advice_mod, "BLOCK_YS", block_ys)
        assert compute_advice(problem, locations=reach) == alone


@pytest.mark.parametrize("refuter", [False, True])
def test_envelope_triples_from_the_pinned_runs_equal_a_count_per_pair(refuter: bool) -> None:
    """The accuse-now counts read from the rumor pairs' runs are the per-pair counts, exactly."""
    rng = random.Random(31 + refuter)
    for _ in range(5):
        nplayers = rng.randint(3, 6)
        game = random_game(rng, RED_KEEP, nplayers, rng.randint(0, 20), me=rng.randrange(nplayers))
        problem = build_problem(game.config, game.log)
        for pinned in ((0, 1), (0, 2), (1, 2)):
            joints = advice_mod.RumorJoints(problem, refuter_model=refuter)
            joints.pinned = pinned
            shared = advice_mod.envelope_triples(problem, refuter_model=refuter, joints=joints)
            assert shared == advice_mod.envelope_triples(problem, refuter_model=refuter)


def test_the_best_rumor_per_location_is_the_maximum_of_all() -> None:
    game = random_game(random.Random(3), RED_KEEP, 4, 12)
    sol = solve(game.config, game.log, advice=True)
    advice = sol.advice
    assert advice is not None
    assert set(advice["rumors"]) == set(RED_KEEP["locations"])
    assert len(advice["all"]) == 6 * 6 * len(RED_KEEP["locations"])
    for loc, rec in advice["rumors"].items():
        here = [r for r in advice["all"] if r["location"] == loc]
        assert rec["bits"] == pytest.approx(max(r["bits"] for r in here), abs=1e-12)
        assert all(r["bits"] >= 0 and r["deal_bits"] >= r["bits"] - 1e-9 for r in here)
        assert all(0 < r["deals_left"] <= sol.deals for r in here)


def test_rumors_are_limited_to_the_reachable_locations() -> None:
    game = random_game(random.Random(4), RED_KEEP, 4, 8)
    problem = build_problem(game.config, game.log)
    reach = RED_KEEP["locations"][:2]
    advice = compute_advice(problem, locations=reach)
    assert set(advice["rumors"]) == set(reach)
    assert {r["location"] for r in advice["all"]} == set(reach)
    # Fewer locations pin another pair of categories: the figures are the same.
    everywhere = {(r["suspect"], r["weapon"], r["location"]): r for r in compute_advice(problem)["all"]}
    for r in advice["all"]:
        other = everywhere[(r["suspect"], r["weapon"], r["location"])]
        for key in ("bits", "deal_bits", "deals_left"):
            assert r[key] == pytest.approx(other[key], rel=1e-12, abs=1e-12)


def test_one_location_matches_brute_force() -> None:
    for game in _small_games(9, 4):
        problem = build_problem(game.config, game.log)
        loc = game.config["deck"]["locations"][1]
        for rec in compute_advice(problem, locations=[loc])["all"]:
            want = brute_figures(game.config, game.log, (rec["suspect"], rec["weapon"], loc), False)
            assert rec["bits"] == pytest.approx(want["bits"], abs=1e-9)
            assert rec["deals_left"] == pytest.approx(want["deals_left"], abs=1e-9)


def test_a_rumor_of_known_cards_tells_nothing() -> None:
    """Once every card's holder is known, no answer can surprise: 0 bits, one deal left."""
    deck = tiny_deck(3)
    config = {"deck": deck, "players": ["Ann", "Bob"], "me": "Ann"}
    hand = ["S0", "W0", "L0"]
    log = [
        {"type": "hand", "cards": hand},
        {"type": "reveal", "player": "Bob", "cards": ["S1", "W1", "L1"]},
    ]
    sol = solve(config, log, advice=True)
    assert sol.deals == 1
    assert sol.advice is not None
    assert all(r["bits"] == 0 and r["deal_bits"] == 0 and r["deals_left"] == 1 for r in sol.advice["all"])
    assert sol.advice["best_envelope"] == {"cards": ["S2", "W2", "L2"], "p": 1.0}
