"""The pinned-pairs count (one run for every holder pair of two cards) against a count per pin."""

from __future__ import annotations

import random

import pytest

from solvers.clue.counting import count, count_pinned_blocks, count_pinned_pairs
from solvers.clue.model import build_inputs, build_problem
from solvers.clue.simulate import MEEREEN, RED_KEEP, random_game, tiny_deck


def _check(caps: list[int], allowed: list[int], clauses, wfactors, x: int, y: int) -> int:
    """Assert pin by pin that the shared run equals the plain count; return the pins with deals."""
    got = count_pinned_pairs(caps, allowed, clauses, wfactors, x, y)
    seen = 0
    for a in range(len(caps)):
        for b in range(len(caps)):
            al = list(allowed)
            al[x] &= 1 << a
            al[y] &= 1 << b
            want = count(caps, al, clauses, wfactors)
            if want.total == 0:
                assert (a, b) not in got
                continue
            seen += 1
            assert got[(a, b)].total == want.total, (a, b)
            assert got[(a, b)].marg == want.marg, (a, b)
    assert len(got) == seen
    return seen


@pytest.mark.parametrize("seed", range(4))
def test_pinned_pairs_equal_one_count_per_pin(seed: int) -> None:
    rng = random.Random(seed)
    pins = 0
    for _ in range(6):
        deck = rng.choice([RED_KEEP, MEEREEN])
        nplayers = rng.randint(3, 6)
        game = random_game(rng, deck, nplayers, rng.randint(0, 30), me=rng.randrange(nplayers))
        problem = build_problem(game.config, game.log)
        caps, allowed, clauses, wfactors = build_inputs(
            problem, range(len(problem.entries)), refuter_model=rng.random() < 0.5
        )
        x, y = rng.sample(range(len(allowed)), 2)
        pins += _check(caps, allowed, clauses, wfactors, x, y)
    assert pins > 6


def test_pinned_pairs_need_only_some_marginals() -> None:
    """With ``need`` the rows asked for are exact and the others are left at 0."""
    rng = random.Random(5)
    game = random_game(rng, MEEREEN, 5, 9, me=0)
    problem = build_problem(game.config, game.log)
    caps, allowed, clauses, wfactors = build_inputs(problem, range(len(problem.entries)))
    x = problem.category.index(0)
    y = problem.category.index(1)
    need = [c for c, cat in enumerate(problem.category) if cat == 2]
    full = count_pinned_pairs(caps, allowed, clauses, wfactors, x, y)
    part = count_pinned_pairs(caps, allowed, clauses, wfactors, x, y, need)
    assert full.keys() == part.keys() and full
    skipped = 0
    for pin, res in part.items():
        assert res.total == full[pin].total
        assert res.marg is not None and full[pin].marg is not None
        for c in range(len(allowed)):
            if c in need or c in (x, y):
                assert res.marg[c] == full[pin].marg[c]
            elif res.marg[c] != full[pin].marg[c]:
                assert res.marg[c] == [0] * len(caps)
                skipped += 1
    assert skipped


def test_pinned_pairs_with_a_fixed_card_and_no_deal() -> None:
    """A card the log fixes still gets its one pin; an impossible problem has no pins at all."""
    deck = tiny_deck(3)
    config = {"deck": deck, "players": ["Ann", "Bob", "Cat"], "me": "Ann"}
    log = [{"type": "hand", "cards": ["S0", "W0"]}]
    problem = build_problem(config, log)
    caps, allowed, clauses, wfactors = build_inputs(problem, range(1))
    s0, s1 = problem.cards.index("S0"), problem.cards.index("S1")
    assert _check(caps, allowed, clauses, wfactors, s0, s1) > 0
    assert all(a == 0 for a, _b in count_pinned_pairs(caps, allowed, clauses, wfactors, s0, s1))
    blocked = list(allowed)
    blocked[s1] = 0
    assert count_pinned_pairs(caps, blocked, clauses, wfactors, s0, s1) == {}
    with pytest.raises(ValueError):
        count_pinned_pairs(caps, allowed, clauses, wfactors, s0, s0)


@pytest.mark.parametrize("seed", range(3))
def test_pinned_blocks_equal_one_run_per_pair(seed: int) -> None:
    """Every pair of a block run (fixed cards among them too) is the pair's own pinned run."""
    rng = random.Random(100 + seed)
    for _ in range(3):
        nplayers = rng.randint(3, 6)
        game = random_game(
            rng, rng.choice([RED_KEEP, MEEREEN]), nplayers, rng.randint(0, 25), me=rng.randrange(nplayers)
        )
        problem = build_problem(game.config, game.log)
        caps, allowed, clauses, wfactors = build_inputs(
            problem, range(len(problem.entries)), refuter_model=rng.random() < 0.5
        )
        suspects = [c for c, cat in enumerate(problem.category) if cat == 0]
        weapons = [c for c, cat in enumerate(problem.category) if cat == 1]
        xs = rng.sample(suspects, 3)
        ys = rng.sample(weapons, 2)
        need = [c for c, cat in enumerate(problem.category) if cat == 2]
        got = count_pinned_blocks(caps, allowed, clauses, wfactors, xs, ys, need)
        assert set(got) == {(x, y) for x in xs for y in ys}
        for (x, y), pins in got.items():
            want = count_pinned_pairs(caps, allowed, clauses, wfactors, x, y, need)
            assert pins.keys() == want.keys()
            for pin, res in pins.items():
                assert res.total == want[pin].total
                assert res.marg is not None and want[pin].marg is not None
                for c in (*need, x, y):
                    assert res.marg[c] == want[pin].marg[c], (x, y, pin, c)
    with pytest.raises(ValueError):
        count_pinned_blocks(caps, allowed, clauses, wfactors, xs, [xs[0]])


def test_pinned_blocks_sized_by_the_whole_count() -> None:
    """Fields sized by the problem's count give the same pins; a count that is not it is caught."""
    rng = random.Random(9)
    game = random_game(rng, MEEREEN, 6, 6, me=1)
    problem = build_problem(game.config, game.log)
    caps, allowed, clauses, wfactors = build_inputs(problem, range(len(problem.entries)), refuter_model=True)
    whole = count(caps, allowed, clauses, wfactors, marginals=False).total
    xs = [c for c, cat in enumerate(problem.category) if cat == 0][:3]
    ys = [c for c, cat in enumerate(problem.category) if cat == 1]
    need = [c for c, cat in enumerate(problem.category) if cat == 2]
    wide = count_pinned_blocks(caps, allowed, clauses, wfactors, xs, ys, need)
    narrow = count_pinned_blocks(caps, allowed, clauses, wfactors, xs, ys, need, whole)
    for pair, pins in wide.items():
        assert sum(r.total for r in pins.values()) == whole
        assert {p: (r.total, r.marg) for p, r in pins.items()} == {
            p: (r.total, r.marg) for p, r in narrow[pair].items()
        }
    with pytest.raises(AssertionError):
        count_pinned_blocks(caps, allowed, clauses, wfactors, xs, ys, need, whole + 1)
