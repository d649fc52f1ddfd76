"""The shared engine core: the seeded RNG, derived seeds and the branch-safe event log.

Saved sessions replay from ``(config, seed, actions)``, so the RNG and ``derive_seed`` must
give the same numbers forever: a few outputs are pinned here.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest

from engine.core import EventLog, IllegalAction, Rng, derive_seed

# ----------------------------------------------------------------------------- Rng


def test_rng_is_splitmix64():
    """The first outputs for seed 0 are SplitMix64's published ones: old sessions keep replaying."""
    r = Rng(0)
    assert r.next64() == 0xE220A8397B1DCDAF
    assert r.next64() == 0x6E789E6AA1B965F4


def test_rng_pinned_draws():
    """A few derived draws pinned, so a change to ``below`` (and so every deal) is noticed."""
    r = Rng(1234567)
    assert [r.below(100) for _ in range(5)] == [17, 73, 23, 31, 21]


def test_same_seed_same_sequence():
    a, b = Rng(99), Rng(99)
    assert [a.next64() for _ in range(50)] == [b.next64() for _ in range(50)]
    assert Rng(99).next64() != Rng(100).next64()


def test_seed_is_reduced_to_64_bits():
    """Any int seeds the RNG; only its low 64 bits matter (negative seeds work too)."""
    assert Rng(2**64 + 5).next64() == Rng(5).next64()
    assert Rng(-1).state == 2**64 - 1


def test_copy_is_independent_and_state_round_trips():
    r = Rng(7)
    r.next64()
    c = r.copy()
    assert c.next64() == r.next64()
    c.next64()
    assert c.state != r.state
    again = Rng(0)
    again.state = r.state  # the whole state is one int: it round-trips through JSON
    assert again.next64() == r.next64()


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 11, 23])
def test_below_stays_in_range(n):
    r = Rng(n)
    assert all(0 <= r.below(n) < n for _ in range(2000))


def test_below_refuses_an_empty_range():
    with pytest.raises(ValueError):
        Rng(1).below(0)
    with pytest.raises(ValueError):
        Rng(1).below(-3)


def test_below_handles_huge_bounds():
    r = Rng(3)
    big = 2**63 + 12345
    assert all(0 <= r.below(big) < big for _ in range(100))


def _chi2(counts: Counter, cells: int, total: int) -> float:
    expected = total / cells
    return sum((counts.get(k, 0) - expected) ** 2 / expected for k in range(cells))


@pytest.mark.parametrize(("n", "critical"), [(6, 35.9), (23, 72.0)])
def test_below_is_uniform(n, critical):
    """Chi-square sanity check on 60,000 draws (critical values at p = 1e-6; the seed is fixed)."""
    r = Rng(2024)
    counts = Counter(r.below(n) for _ in range(60_000))
    assert set(counts) == set(range(n))
    assert _chi2(counts, n, 60_000) < critical


def test_shuffle_is_a_uniform_permutation():
    """Every ordering of 3 items comes up about equally often (Fisher-Yates)."""
    r = Rng(11)
    perms = {p: i for i, p in enumerate(permutations("abc"))}
    counts = Counter()
    for _ in range(30_000):
        items = list("abc")
        r.shuffle(items)
        counts[perms[tuple(items)]] += 1
    assert _chi2(counts, 6, 30_000) < 35.9


def test_shuffled_and_choice():
    r = Rng(5)
    items = list(range(20))
    out = r.shuffled(items)
    assert sorted(out) == items and items == list(range(20))  # the input is left alone
    assert {r.choice("xyz") for _ in range(200)} == set("xyz")


def test_random_is_a_unit_float():
    r = Rng(8)
    xs = [r.random() for _ in range(20_000)]
    assert all(0.0 <= x < 1.0 for x in xs)
    assert abs(sum(xs) / len(xs) - 0.5) < 0.02


# ----------------------------------------------------------------------------- derive_seed


def test_derive_seed_is_stable():
    """Pinned values: bots seeded from a session's seed choose the same forever."""
    assert derive_seed(0) == 16294208416658607535
    assert derive_seed(42, "bot", 1, "notes") == 11217604792612439072
    assert derive_seed(42, "bot", 2, "notes") == 7238044771835720279


def test_derive_seed_separates_streams():
    """Different labels (or label splits) give different seeds; the same labels the same seed."""
    assert derive_seed(7, "bot", 0) == derive_seed(7, "bot", 0)
    seeds = {derive_seed(7, "bot", i, kind) for i in range(6) for kind in ("random", "notes")}
    assert len(seeds) == 12
    assert derive_seed(7, "ab") != derive_seed(7, "a", "b")
    assert derive_seed(7, "x") != derive_seed(8, "x")
    assert all(0 <= s < 2**64 for s in seeds)


# ----------------------------------------------------------------------------- EventLog


def _log(*events: str) -> EventLog:
    log = EventLog()
    for e in events:
        log.append({"t": e})
    return log


def _types(log: EventLog) -> list[str]:
    return [e["t"] for e, _ in log.entries()]


def test_two_branches_from_one_parent_never_see_each_others_events():
    """Copies share storage until they diverge; then each keeps its own events."""
    parent = _log("a", "b")
    left, right = parent.copy(), parent.copy()
    left.append({"t": "L1"})
    right.append({"t": "R1"})
    left.append({"t": "L2"})
    right.append({"t": "R2"})
    assert _types(left) == ["a", "b", "L1", "L2"]
    assert _types(right) == ["a", "b", "R1", "R2"]
    assert _types(parent) == ["a", "b"] and len(parent) == 2
    parent.append({"t": "P"})
    assert _types(parent) == ["a", "b", "P"]
    assert _types(left) == ["a", "b", "L1", "L2"] and _types(right) == ["a", "b", "R1", "R2"]


def test_branch_of_a_branch_and_the_parent_growing_first():
    parent = _log("a")
    child = parent.copy()
    parent.append({"t": "P1"})  # the parent grows the shared list first
    grandchild = child.copy()
    child.append({"t": "C1"})
    grandchild.append({"t": "G1"})
    assert _types(parent) == ["a", "P1"]
    assert _types(child) == ["a", "C1"]
    assert _types(grandchild) == ["a", "G1"]


def test_entries_since_and_seats():
    log = EventLog()
    log.append({"t": "public"})
    log.append({"t": "private"}, (1, 2))
    assert log.entries(1) == [({"t": "private"}, (1, 2))]
    assert log.entries()[0][1] is None


def test_event_log_round_trips_through_json_without_sharing():
    log = EventLog()
    log.append({"t": "hand", "cards": ["x", "y"]}, (0,))
    log.append({"t": "roll", "dice": ["?", 3]})
    data = log.to_json()
    assert data == [{"event": {"t": "hand", "cards": ["x", "y"]}, "seats": [0]},
                    {"event": {"t": "roll", "dice": ["?", 3]}, "seats": None}]
    back = EventLog.from_json(data)
    assert back.entries() == log.entries()
    data[0]["event"]["cards"].append("z")  # editing the JSON leaves both logs alone
    assert log.entries()[0][0]["cards"] == ["x", "y"]
    assert back.entries()[0][0]["cards"] == ["x", "y"]


def test_illegal_action_is_an_exception_with_a_message():
    e = IllegalAction("You cannot roll now.")
    assert isinstance(e, Exception) and str(e) == "You cannot roll now."
