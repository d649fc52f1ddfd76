"""The Masque safe-room solver: exact against brute force, sound against the engine's truth.

* The per-slot probabilities equal a brute-force enumeration of every ordered deal of the Red
  Death cards of that slot that fits what the seat saw (its Gossip cards are not Red Death;
  each Evidence look fixes the card at that position).
* The best plan's survival equals an exhaustive search over all 3^6 plans; the next-best
  plans are the next values of that search.
* Over seeded engine games, every seat's observations (turned into the solver's log by the
  converter) never call a Red Death room "surely safe", never call a safe room "surely
  deadly", and always leave the true Red Death rooms possible (sample by default, 1,000 games
  with ``-m soak``).
"""

from __future__ import annotations

import itertools
import json
import math

import pytest

from engine.core import Rng, derive_seed
from engine.masque import NR, NS, ROOMS, SLOTS, MasqueConfig, apply, is_over, legal_actions, new_game, view
from engine.masque.game import MOVE, PLAN
from solvers.masque.observations import ObservationLog, log_from_events
from solvers.masque.solver import (
    SolverInputError,
    best_by_start,
    best_plans,
    death_table,
    learn_gains,
    slot_probs,
    solve,
    survival_of,
)
from solvers.table import Table

DIRS = ("cw", "ccw", "stay")


# ============================================================================ brute force


def brute_slot(safe: set[int], looks: dict[int, int], r: int) -> list[float]:
    """P(Red Death in each room) by enumerating every ordered deal of ``r`` of the slot's 7 Gossip
    cards onto the board, keeping those that fit: no known-safe room among them, and the card at
    each looked-at position is the room seen there."""
    fits = []
    for deal in itertools.permutations(range(NR), r):
        if any(x in safe for x in deal):
            continue
        if any(deal[i] != room for i, room in looks.items()):
            continue
        fits.append(deal)
    return [sum(1 for d in fits if x in d) / len(fits) for x in range(NR)]


def random_knowledge(rng: Rng, r: int) -> tuple[list[set[int]], list[dict[int, int]]]:
    """What a seat may know, drawn from a real deal so it is never contradictory."""
    safe, looks = [], []
    for _ in range(NS):
        rooms = rng.shuffled(range(NR))
        red, rest = rooms[:r], rooms[r:]
        safe.append(set(rest[: rng.below(len(rest) + 1)]))
        lk = {}
        for i in range(r):
            if rng.below(3) == 0:
                lk[i] = red[i]
        looks.append(lk)
    return safe, looks


def masks(safe: list[set[int]], looks: list[dict[int, int]]) -> tuple[list[int], list[int]]:
    return ([sum(1 << x for x in s) for s in safe], [sum(1 << x for x in lk.values()) for lk in looks])


@pytest.mark.parametrize("r", [2, 3])
def test_slot_probabilities_equal_brute_force(r):
    """Exact: the solver's counting over unordered sets equals the ordered brute force."""
    rng = Rng(r)
    for _ in range(300):
        safe, looks = random_knowledge(rng, r)
        sm, dm = masks(safe, looks)
        for k in range(NS):
            got = slot_probs(sm[k], dm[k], r)
            want = brute_slot(safe[k], looks[k], r)
            assert all(math.isclose(a, b, abs_tol=1e-12) for a, b in zip(got, want, strict=True))


def test_slots_are_independent_given_the_knowledge():
    """A joint brute force over two slots (each deal of both) gives the product of the marginals,
    so survival over six slots is a product."""
    rng = Rng(7)
    for _ in range(20):
        safe, looks = random_knowledge(rng, 2)
        deals = [
            (a, b)
            for a in itertools.permutations(range(NR), 2)
            for b in itertools.permutations(range(NR), 2)
            if not (set(a) & safe[0] or set(b) & safe[1])
            and all(a[i] == x for i, x in looks[0].items()) and all(b[i] == x for i, x in looks[1].items())
        ]
        for x in range(NR):
            for y in range(NR):
                joint = sum(1 for a, b in deals if x not in a and y not in b) / len(deals)
                pa = brute_slot(safe[0], looks[0], 2)[x]
                pb = brute_slot(safe[1], looks[1], 2)[y]
                assert math.isclose(joint, (1 - pa) * (1 - pb), abs_tol=1e-12)


def all_plans() -> list[tuple[str, ...]]:
    return list(itertools.product(DIRS, repeat=NS))


def test_best_plan_equals_exhaustive_search_over_all_3_to_the_6_plans():
    rng = Rng(11)
    plans = all_plans()
    assert len(plans) == 729
    for trial in range(40):
        r = 2 + trial % 2
        safe, looks = random_knowledge(rng, r)
        p = death_table(*masks(safe, looks), r)
        f = best_by_start(p)
        for start in range(NR):
            values = sorted((survival_of(p, start, m) for m in plans), reverse=True)
            assert math.isclose(f[start], values[0], abs_tol=1e-12)
            top = best_plans(p, [start], top=6)
            assert [round(t.survival, 12) for t in top] == [round(v, 12) for v in values[:6]]
            for t in top:
                assert math.isclose(t.survival, survival_of(p, start, t.moves), abs_tol=1e-12)
            assert len({t.moves for t in top}) == 6
        free = best_plans(p, range(NR), top=3)
        assert math.isclose(free[0].survival, max(f), abs_tol=1e-12)


def test_plan_rooms_follow_the_ring():
    p = death_table([0] * NS, [0] * NS, 2)
    plan = best_plans(p, [ROOMS.index("violet")], top=1)[0]
    assert plan.to_json()["start"] == "violet"
    pl = type(plan)(ROOMS.index("violet"), ("cw", "cw", "ccw", "stay", "ccw", "ccw"), 0.0)
    assert [ROOMS[x] for x in pl.rooms] == ["black", "blue", "black", "black", "violet", "white"]


# ============================================================================ solve()


def test_solve_reports_probabilities_certain_facts_and_the_best_plan():
    log = [
        {"type": "hand", "cards": ["12:00 blue", "12:00 purple"]},
        {"type": "seen", "card": "12:00 green", "from": "Ann"},
        {"type": "rumor", "card": "12:00 orange"},
        {"type": "evidence", "slot": "12:00", "room": "black", "index": 0},
        {"type": "evidence", "slot": "12:10", "room": "white"},
        {"type": "start", "room": "blue"},
    ]
    out = solve({"red_death": 2}, log)
    json.dumps(out)
    assert out["status"] == "ok" and out["exact"] is True
    d = out["deadly"]["12:00"]
    assert d["black"] == 1.0 and d["blue"] == 0.0 and d["white"] == 0.5 and d["violet"] == 0.5
    assert out["deadly"]["12:10"]["white"] == 1.0
    assert math.isclose(out["deadly"]["12:10"]["blue"], 1 / 6)
    assert "12:00 blue" in out["certain"]["safe"] and "12:00 black" in out["certain"]["deadly"]
    assert "12:10 white" in out["certain"]["deadly"]
    assert out["best_plan"]["start"] == "blue"
    assert len(out["best_plan"]["moves"]) == NS
    p = death_table(*masks([{1, 2, 3, 4}, set(), set(), set(), set(), set()], [{0: 0}, {0: 5}, {}, {}, {}, {}]), 2)
    assert math.isclose(out["best_plan"]["survival"], best_by_start(p)[1])
    assert len(out["next_best"]) == 4
    assert out["ask_slot"]["slot"] in SLOTS


def test_solve_without_a_start_picks_the_best_start_room():
    out = solve({"red_death": 2}, [{"type": "rumor", "card": "12:00 violet"}])
    assert math.isclose(out["best_plan"]["survival"], max(out["by_start"].values()))
    out = solve({"red_death": 2, "start": ["blue", "green"]}, [])
    assert out["best_plan"]["start"] in ("blue", "green")


def test_the_harder_variant_uses_three_red_death_cards():
    out = solve({"variant": "harder"}, [])
    assert math.isclose(out["deadly"]["12:30"]["green"], 3 / 7)
    assert math.isclose(out["best_plan"]["survival"], (4 / 7) ** 6)


def test_ask_slot_names_the_slot_that_helps_the_plan_most():
    """Five slots are solved; 12:30 is blind: naming 12:30 is the only ask that helps."""
    log = []
    for k in range(NS):
        if SLOTS[k] != "12:30":
            log.append({"type": "hand", "cards": [f"{SLOTS[k]} {r}" for r in ("black", "blue", "purple", "green",
                                                                              "orange")]})
    out = solve({"red_death": 2, "target": {"hand": 3}}, log)
    assert out["ask_slot"]["slot"] == "12:30"
    by = out["ask_slot"]["by_slot"]
    assert by["12:30"] == max(by.values()) and by["12:30"] > 0
    base, gains = learn_gains(*masks([set() for _ in range(NS)], [{} for _ in range(NS)]), 2, list(range(NR)))
    assert math.isclose(base, (5 / 7) ** 6) and all(g > 0 for g in gains)


def test_soft_evidence_from_asks_is_off_by_default():
    log = [{"type": "ask", "by": "Ann", "target": "Bob", "slot": "12:20", "matched": True, "offered": 2}]
    plain = solve({"target": {"name": "Bob", "hand": 2}}, log)
    soft = solve({"target": {"name": "Bob", "hand": 2}, "soft": True}, log)
    assert plain["ask_slot"]["soft"] is False and soft["ask_slot"]["soft"] is True
    assert plain["deadly"] == soft["deadly"]  # slot names say nothing about rooms
    assert soft["ask_slot"]["by_slot"]["12:20"] >= plain["ask_slot"]["by_slot"]["12:20"]


@pytest.mark.parametrize(
    ("log", "conflict"),
    [
        ([{"type": "rumor", "card": "12:10 blue"}, {"type": "evidence", "slot": "12:10", "room": "blue"}], [0, 1]),
        ([{"type": "evidence", "slot": "12:20", "room": r} for r in ("blue", "green", "white")], [0, 1, 2]),
        ([{"type": "hand", "cards": [f"12:40 {r}" for r in ROOMS[:6]]}], [0]),
        ([{"type": "evidence", "slot": "12:50", "room": "blue", "index": 1}, {"type": "rumor", "card": "12:00 blue"},
          {"type": "evidence", "slot": "12:50", "room": "green", "index": 1}], [0, 2]),
        # two different Red Death cards of one slot cannot both be White: one card per slot and room
        ([{"type": "evidence", "slot": "12:10", "room": "white", "index": 0}, {"type": "rumor", "card": "12:00 blue"},
          {"type": "evidence", "slot": "12:10", "room": "white", "index": 1}], [0, 2]),
    ],
)
def test_contradictions_name_the_conflicting_entries(log, conflict):
    """Each contradiction of docs/formats.md, with the entries that cannot all hold."""
    out = solve({"red_death": 2}, log)
    assert out["status"] == "contradiction"
    assert out["conflict"] == conflict
    assert out["message"] and "\n" not in out["message"]


@pytest.mark.parametrize(
    ("config", "log", "words"),
    [
        ({}, [{"type": "rumor", "card": "12:15 blue"}], "time slot"),
        ({}, [{"type": "rumor", "card": "12:10 pink"}], "room"),
        ({}, [{"type": "rumor", "card": "blue"}], "Gossip card"),
        ({}, [{"type": "guess"}], "type"),
        ({}, ["12:10 blue"], "type"),
        ({}, [{"type": "evidence", "slot": "12:10", "room": "blue", "index": 5}], "index"),
        ({"red_death": 4}, [], "red_death"),
        ({"colour": 1}, [], "unknown option"),
        ({"start": "attic"}, [], "room"),
        ({"top": 0}, [], "top"),
        ({"target": {"hand": -1}}, [], "target"),
    ],
)
def test_bad_input_is_refused_with_one_line(config, log, words):
    with pytest.raises(SolverInputError) as e:
        solve(config, log)
    assert words in str(e.value) and "\n" not in str(e.value)


# ============================================================================ against the engine


def play_until(seed: int, players: int, harder: bool, stop_round: int) -> tuple:
    """A heuristic/random game run to the start of ``stop_round``'s move step (or the planning step)."""
    seats = ["heuristic" if (seed + i) % 3 else "random" for i in range(players)]
    t = Table("masque", MasqueConfig(players=players, harder=harder), seed, seats)
    while not t.is_over():
        s = t.state
        if (s.phase == MOVE and s.round >= stop_round) or s.phase == PLAN:
            break
        t.step_bot()
    return t


def check_seat(state, seat: int) -> dict:
    """Solve one seat's observations and check every claim against the hidden truth."""
    v = view(state, seat)
    config, log = log_from_events(v["events"], seat)
    out = solve(config, log)
    assert out["status"] == "ok", out
    r = state.config.red_death
    for k in range(NS):
        red = {ROOMS[x] for x in state.red[k]}
        probs = out["deadly"][SLOTS[k]]
        assert math.isclose(sum(probs.values()), r)
        for room, p in probs.items():
            if room in red:
                assert p > 0, f"seat {seat}: the Red Death room {SLOTS[k]} {room} was called safe"
            else:
                assert p < 1, f"seat {seat}: the safe room {SLOTS[k]} {room} was called deadly"
    for c in out["certain"]["safe"]:
        k, room = c.split()
        assert room not in {ROOMS[x] for x in state.red[SLOTS.index(k)]}
    for c in out["certain"]["deadly"]:
        k, room = c.split()
        assert room in {ROOMS[x] for x in state.red[SLOTS.index(k)]}
    # what the seat knows for sure matches the engine's own notes for it
    notes = v["notes"]
    for k in SLOTS:
        for room in notes["safe"][k]:
            assert out["deadly"][k][room] == 0.0
        for room in notes["deadly"][k]:
            assert out["deadly"][k][room] == 1.0
    return out


def soundness(games: range) -> int:
    checked = 0
    for g in games:
        rng = Rng(derive_seed(99, g))
        players = 4 + g % 4
        t = play_until(derive_seed(5, g), players, harder=g % 5 == 4, stop_round=4 + rng.below(9))
        for seat in range(players):
            check_seat(t.state, seat)
            checked += 1
    return checked


def test_solver_is_sound_on_a_sample_of_games():
    """60 seeded games, every seat, at a random round: no false certainty, the truth stays possible."""
    assert soundness(range(60)) == sum(4 + g % 4 for g in range(60))


@pytest.mark.soak
@pytest.mark.parametrize("block", range(10))
def test_solver_is_sound_over_1000_games(block):
    """1,000 seeded games (10 blocks of 100), every seat (run with ``pytest -m soak``)."""
    soundness(range(1000 + block * 100, 1000 + block * 100 + 100))


def test_the_truth_survives_a_whole_game_of_observations():
    """Feeding a seat's events incrementally gives the same log as reading them at once, and at
    midnight every surely-safe plan really survives."""
    for seed in range(8):
        s = new_game(MasqueConfig(players=5), seed)
        r = Rng(seed)
        obs = [ObservationLog(i) for i in range(5)]
        while s.phase != PLAN:
            s = apply(s, r.choice(legal_actions(s)))
            for i in range(5):
                obs[i].update(view(s, i, obs[i].since)["events"])
        for i in range(5):
            config, log = log_from_events(view(s, i)["events"], i)
            assert (config, log) == (obs[i].config, obs[i].log)
            out = check_seat(s, i)
            plan = out["best_plan"]
            if plan["survival"] == 1.0:
                for k, room in enumerate(plan["rooms"]):
                    assert ROOMS.index(room) not in s.red[k]
        while not is_over(s):
            s = apply(s, r.choice(legal_actions(s)))


def test_the_same_card_seen_twice_is_no_contradiction():
    """One Red Death card seen twice (same index, same room), or once with and once without its index, fits."""
    for second in ({"index": 0}, {}):
        log = [{"type": "evidence", "slot": "12:10", "room": "white", "index": 0},
               {"type": "evidence", "slot": "12:10", "room": "white", **second}]
        out = solve({"red_death": 2}, log)
        assert out["status"] == "ok" and out["deadly"]["12:10"]["white"] == 1.0
