"""The Masque table model: who can hold which time slot, from draws, asks and gifts.

The exact belief is checked against a brute force over the physical Gossip cards (every deck
order and every random pick of an offered card) on small tables, and against the model it replaced
(``masque_table_reference``: every hand split by slot) on longer scripts and bot games; impossible
notes are refused with one sentence; the ask advice uses the target's real Rumor hand; and random
engine games fed to the assistant's notes never make a false certainty (a sample here, a sweep with
``-m soak``).
"""

from __future__ import annotations

import os

import pytest

from engine.core import Rng, derive_seed
from engine.masque import NR, NS, ROOMS, SLOTS, MasqueConfig, view
from engine.masque.game import MOVE, PLAN
from solvers.masque.observations import log_from_events
from solvers.masque.solver import SolverInputError, solve
from solvers.table import Table

NAMES = ["Me", "Ann", "Bob", "Cy", "Dee"]
RED = (0, 1)  # the brute force's Red Death rooms of every slot (slot-level answers do not depend on which)
GOSSIP = [k * NR + x for k in range(NS) for x in range(NR) if x not in RED]


def name(c: int) -> str:
    return f"{SLOTS[c // NR]} {ROOMS[c % NR]}"


# ------------------------------------------------------------------ a physical table


def play_script(rng: Rng, players: int, steps: int, unknown_draws: int) -> list[dict]:
    """One random physical game of draws, asks and gifts, written as my (seat 0's) notes."""
    hands: list[list[int]] = [[] for _ in range(players)]
    deck = list(GOSSIP)
    rng.shuffle(deck)
    notes: list[dict] = []
    draws = 0
    prev: tuple[int, int, int] | None = None  # (by, target, card) of a look or gift a second ask excludes
    while len(notes) < steps:
        roll = rng.below(12)
        if roll < 4 or not any(hands):
            p = rng.below(players)
            if p != 0 and draws >= unknown_draws:
                p = 0
            draws += p != 0
            c = deck.pop()
            hands[p].append(c)
            notes.append({"type": "rumor", "card": name(c)} if p == 0 else {"type": "draw", "by": NAMES[p]})
            prev = None
            continue
        holders = [p for p in range(players) if hands[p]]
        target = rng.choice(holders)
        by = rng.choice([p for p in range(players) if p != target])
        second = prev is not None and rng.below(2) == 0 and roll >= 4 and roll != 9 and roll != 10
        if second and prev is not None:  # a Swindle's second look, or Confidant's take after its gift
            by, target = prev[0], prev[1]
        if roll in (9, 10):  # Confidant's gift (the given card is any of the giver's, with equal chance)
            if not hands[by]:
                continue
            c = rng.choice(hands[by])
            hands[by].remove(c)
            hands[target].append(c)
            e = {"type": "give", "by": NAMES[by], "target": NAMES[target]}
            if 0 in (by, target):
                e["card"] = name(c)
            notes.append(e)
            prev = (by, target, c)
            continue
        avail = [c for c in hands[target] if not (second and prev and c == prev[2])]
        if not avail:
            continue
        slot = rng.below(NS)
        match = [c for c in avail if c // NR == slot]
        pool = match or avail
        c = rng.choice(pool)
        how = "take" if roll in (7, 8) else "look"
        e = {"type": "ask", "by": NAMES[by], "target": NAMES[target], "slot": SLOTS[slot], "matched": bool(match),
             "offered": len(pool), "how": how}
        if second:
            e["second"] = True
        if 0 in (by, target):
            e["card"] = name(c)
        if how == "take":
            hands[target].remove(c)
            hands[by].append(c)
        notes.append(e)
        prev = (by, target, c) if how == "look" else None
    return notes


def brute_force(players: int, notes: list[dict]) -> list[list[float]]:
    """P(each player holds a card of each slot), over every physical deal and pick that gives ``notes``."""
    out = [[0.0] * NS for _ in range(players)]
    total = [0.0]
    idx = {n: i for i, n in enumerate(NAMES)}

    def rec(i: int, hands: tuple[tuple[int, ...], ...], deck: frozenset[int], prev: tuple | None, w: float) -> None:
        if i == len(notes):
            total[0] += w
            for p in range(players):
                for k in {c // NR for c in hands[p]}:
                    out[p][k] += w
            return
        e = notes[i]
        t = e["type"]
        if t in ("rumor", "draw"):
            p = 0 if t == "rumor" else idx[e["by"]]
            for c in deck:
                if t == "rumor" and name(c) != e["card"]:
                    continue
                rec(i + 1, put(hands, p, (*hands[p], c)), deck - {c}, None, w / len(deck))
            return
        by, target = idx[e["by"]], idx[e["target"]]
        if t == "give":
            for c in hands[by]:
                if "card" in e and name(c) != e["card"]:
                    continue
                nh = put(put(hands, by, drop(hands[by], c)), target, (*hands[target], c))
                rec(i + 1, nh, deck, (by, target, c), w / len(hands[by]))
            return
        second = e.get("second") and prev is not None and prev[:2] == (by, target)
        avail = [c for c in hands[target] if not (second and c == prev[2])]  # type: ignore[index]
        slot = SLOTS.index(e["slot"])
        match = [c for c in avail if c // NR == slot]
        pool = match or avail
        if bool(match) != e["matched"] or len(pool) != e["offered"]:
            return
        for c in pool:
            if "card" in e and name(c) != e["card"]:
                continue
            nh = hands
            if e["how"] == "take":
                nh = put(put(hands, target, drop(hands[target], c)), by, (*hands[by], c))
            rec(i + 1, nh, deck, (by, target, c) if e["how"] == "look" else None, w / len(pool))

    rec(0, ((),) * players, frozenset(GOSSIP), None, 1.0)
    return [[v / total[0] for v in row] for row in out]


def put(t: tuple, i: int, v: object) -> tuple:
    return (*t[:i], v, *t[i + 1:])


def drop(hand: tuple[int, ...], c: int) -> tuple[int, ...]:
    h = list(hand)
    h.remove(c)
    return tuple(h)


def table_config(players: int, **extra: object) -> dict:
    return {"red_death": 2, "table": True, "players": NAMES[:players], "me": "Me", **extra}


@pytest.mark.parametrize("seed", range(16))
def test_the_table_belief_equals_a_brute_force_over_the_physical_cards(seed):
    rng = Rng(derive_seed(23, seed))
    players = 3 + seed % 2
    notes = play_script(rng, players, steps=7 + seed % 4, unknown_draws=2 + seed % 2)
    out = solve(table_config(players), notes)
    assert out["status"] == "ok", out
    assert out["table"]["exact"]
    truth = brute_force(players, notes)
    for p, row in enumerate(out["table"]["players"]):
        for k in range(NS):
            assert abs(row["holds"][SLOTS[k]] - truth[p][k]) < 1e-12, (seed, p, k, notes)


def test_the_ask_advice_uses_the_targets_real_hand_not_a_hand_of_two():
    """Ann drew five cards: the advice's chance that she holds a slot comes from five cards, exactly."""
    log = [{"type": "rumor", "card": "12:00 blue"}, *[{"type": "draw", "by": "Ann"}] * 5]
    out = solve(table_config(3, target={"name": "Ann"}), log)
    assert out["ask_slot"]["target_hand"] == 5
    ann = out["table"]["players"][1]
    assert ann["cards"] == 5 and ann["ask"]["slot"] == out["ask_slot"]["slot"]
    # five cards from the 29 unseen Gossip cards (4 of 12:00, 5 of each other slot)
    from math import comb
    assert abs(ann["holds"]["12:10"] - (1 - comb(24, 5) / comb(29, 5))) < 1e-12
    assert abs(ann["holds"]["12:00"] - (1 - comb(25, 5) / comb(29, 5))) < 1e-12


def test_who_can_still_hold_a_slot_after_an_answer_of_no_card_of_that_slot():
    log = [*[{"type": "draw", "by": "Ann"}] * 2, {"type": "draw", "by": "Bob"},
           {"type": "ask", "by": "Bob", "target": "Ann", "slot": "12:30", "matched": False, "offered": 2,
            "how": "look"}]
    rows = solve(table_config(3), log)["table"]["players"]
    assert rows[1]["holds"]["12:30"] == 0.0 and 0 < rows[2]["holds"]["12:30"] < 1
    assert rows[0]["holds"]["12:30"] == 0.0 and rows[0]["cards"] == 0


@pytest.mark.parametrize(("log", "words"), [
    ([{"type": "draw", "by": "Ann"},
      {"type": "ask", "by": "Bob", "target": "Ann", "slot": "12:30", "matched": True, "offered": 2, "how": "look"}],
     "Ann holds 1 Rumor card by the notes, so Ann cannot have offered 2"),
    ([{"type": "ask", "by": "Bob", "target": "Ann", "slot": "12:30", "matched": True, "offered": 1, "how": "take"}],
     "Ann holds no Rumor card by the notes"),
    ([{"type": "draw", "by": "Ann"}, {"type": "count", "player": "Ann", "cards": 0}], "1 Rumor card; 0 is too few"),
    ([{"type": "rumor", "card": "12:10 blue"},
      {"type": "ask", "by": "Ann", "target": "Me", "slot": "12:10", "matched": True, "offered": 1, "how": "take",
       "card": "12:10 green"}], "You do not hold 12:10 green"),
    ([{"type": "rumor", "card": "12:10 blue"},
      {"type": "ask", "by": "Ann", "target": "Me", "slot": "12:10", "matched": True, "offered": 1, "how": "take",
       "card": "12:10 blue"}, {"type": "rumor", "card": "12:10 blue"}], "Ann holds it"),
])
def test_an_impossible_table_note_is_named_with_one_sentence(log, words):
    out = solve(table_config(3), log)
    assert out["status"] == "contradiction"
    assert out["conflict"] == [len(log) - 1]
    assert words in out["message"] and "\n" not in out["message"]


@pytest.mark.parametrize(("config", "log", "words"), [
    ({}, [{"type": "draw", "by": "Ann"}], "need the table"),
    ({"table": True, "players": ["Me", "Ann"]}, [], "me is one of the players"),
    (table_config(3), [{"type": "draw", "by": "Zed"}], "'Zed' is not one of the players"),
    (table_config(3), [{"type": "ask", "by": "Ann", "target": "Bob", "slot": "12:30"}], "matched is true or false"),
])
def test_bad_table_input_is_refused_with_one_line(config, log, words):
    with pytest.raises(SolverInputError) as e:
        solve(config, log)
    assert words in str(e.value)


def test_an_old_session_without_the_table_solves_as_before():
    """No ``table`` in the config: no table in the answer and the old hand-of-2 advice."""
    log = [{"type": "rumor", "card": "12:00 blue"},
           {"type": "ask", "by": "Ann", "target": "Bob", "slot": "12:30", "matched": True, "offered": 2}]
    out = solve({"red_death": 2, "players": ["Me", "Ann", "Bob"], "me": "Me"}, log)
    assert "table" not in out and out["ask_slot"]["target_hand"] == 2


# ------------------------------------------------------------------ engine games fed to the assistant's notes


def play_until(seed: int, players: int, harder: bool, stop_round: int) -> Table:
    seats = ["heuristic" if (seed + i) % 3 else "random" for i in range(players)]
    t = Table("masque", MasqueConfig(players=players, harder=harder), seed, seats)
    while not t.is_over():
        s = t.state
        if (s.phase == MOVE and s.round >= stop_round) or s.phase == PLAN:
            break
        t.step_bot()
    return t


def table_soundness(games: range) -> dict[str, int]:
    """Every seat's table notes solved against the hidden hands: no false 0% or 100%, sizes exact."""
    counts = {"seats": 0, "claims": 0, "certain_none": 0, "certain_some": 0, "not_exact": 0}
    for g in games:
        rng = Rng(derive_seed(99, g))
        players = 4 + g % 4
        t = play_until(derive_seed(5, g), players, harder=g % 5 == 4, stop_round=4 + rng.below(9))
        s = t.state
        for seat in range(players):
            config, log = log_from_events(view(s, seat)["events"], seat, table=True)
            out = solve(config, log)
            assert out["status"] == "ok", (g, seat, out.get("message"))
            counts["seats"] += 1
            table = out["table"]
            if not table["exact"]:
                counts["not_exact"] += 1
                continue
            for p, row in enumerate(table["players"]):
                assert row["cards"] == len(s.rumors[p]), (g, seat, p)
                held = {c // NR for c in s.rumors[p]}
                for k in range(NS):
                    q = row["holds"][SLOTS[k]]
                    counts["claims"] += 1
                    if q < 1e-9:
                        counts["certain_none"] += 1
                        assert k not in held, f"game {g} seat {seat}: {row['name']} was sure to hold no {SLOTS[k]}"
                    elif q > 1 - 1e-9:
                        counts["certain_some"] += 1
                        assert k in held, f"game {g} seat {seat}: {row['name']} was sure to hold a {SLOTS[k]}"
    return counts


def test_engine_games_fed_to_the_table_make_no_false_certainty():
    counts = table_soundness(range(int(os.environ.get("UNMASK_MASQUE_TABLE_GAMES", "12"))))
    assert counts["seats"] > 0 and counts["certain_none"] > 0 and counts["certain_some"] > 0


@pytest.mark.soak
@pytest.mark.parametrize("block", range(5))
def test_engine_games_fed_to_the_table_make_no_false_certainty_soak(block):
    """500 seeded games (5 blocks of 100), every seat (``pytest -m soak``)."""
    counts = table_soundness(range(2000 + block * 100, 2100 + block * 100))
    print(counts)


def test_a_card_seen_in_a_table_ask_explains_its_safe_room():
    from solvers.masque.explain import masque_explainer, note_sentence

    log = [{"type": "draw", "by": "Ann"},
           {"type": "ask", "by": "Me", "target": "Ann", "slot": "12:30", "matched": False, "offered": 1,
            "how": "look", "card": "12:10 blue", "action": "Flirt"}]
    ex = masque_explainer(table_config(3), log)
    assert ex.why(("safe", "12:10 blue")) == [1]
    assert note_sentence(log[1]) == "I saw 12:10 blue (Flirt: Me and Ann) (safe)"


# ------------------------------------------------------------------ the grouped model against the model it replaced

GAINS = [0.11, 0.23, 0.05, 0.31, 0.17, 0.02]


def same_as_reference(config: dict, log: list[dict]) -> bool:
    """The table model equals the earlier one (every hand split by slot) where that one runs: every
    player's chance per slot and the offer values for every target, to 1e-12. False: the earlier
    model was over its state limit (nothing to compare)."""
    from masque_table_reference import TooMany as RefTooMany
    from masque_table_reference import replay as ref_replay

    from solvers.masque.table import replay

    args = (config["players"], config["me"], config["red_death"], log)
    try:
        ref = ref_replay(*args)
    except RefTooMany:
        return False
    new = replay(*args)
    assert new.sizes == ref.sizes
    for p, (a, b) in enumerate(zip(new.holds(), ref.holds(), strict=True)):
        for k in range(NS):
            assert abs(a[k] - b[k]) < 1e-12, (p, k, a, b)
    for p in range(new.n):
        if p != new.me:
            for k, (a, b) in enumerate(zip(new.offer_values(p, GAINS), ref.offer_values(p, GAINS), strict=True)):
                assert abs(a - b) < 1e-12, (p, k, a, b)
    return True


@pytest.mark.parametrize("seed", range(24))
def test_the_grouped_belief_equals_the_model_that_split_every_hand(seed):
    """Longer physical scripts than the brute force can take (up to 30 notes, 5 players)."""
    rng = Rng(derive_seed(31, seed))
    players = 3 + seed % 3
    notes = play_script(rng, players, steps=14 + seed % 17, unknown_draws=4 + seed % 5)
    assert same_as_reference(table_config(players), notes)


def reference_sweep(games: range) -> int:
    """Every seat of seeded bot games (as the soundness test) compared with the earlier model."""
    compared = 0
    for g in games:
        rng = Rng(derive_seed(99, g))
        players = 4 + g % 4
        t = play_until(derive_seed(5, g), players, harder=g % 5 == 4, stop_round=4 + rng.below(9))
        for seat in range(players):
            config, log = log_from_events(view(t.state, seat)["events"], seat, table=True)
            compared += same_as_reference(config, log)
    return compared


def test_engine_games_give_the_same_belief_as_the_model_that_split_every_hand():
    assert reference_sweep(range(int(os.environ.get("UNMASK_MASQUE_TABLE_REF_GAMES", "3")))) > 0


@pytest.mark.soak
def test_engine_games_give_the_same_belief_as_the_model_that_split_every_hand_soak():
    """Games 2000-2059, every seat the earlier model could follow (``pytest -m soak``)."""
    print(reference_sweep(range(2000, 2060)), "seats compared")


def random_game(g: int, seat: int) -> tuple[object, dict, list[dict]]:
    """Game ``g`` of uniformly random play at the planning step (as ``benchmarks/masque_table.py``)."""
    from engine.masque import apply, legal_actions, new_game

    s = new_game(MasqueConfig(players=4 + g % 4, harder=g % 5 == 4), g)
    r = Rng(g)
    while s.phase != PLAN:
        s = apply(s, r.choice(legal_actions(s)))
    config, log = log_from_events(view(s, seat)["events"], seat, table=True)
    return s, config, log


def test_a_seat_the_old_model_could_not_follow_is_now_exact():
    """Game 18 of the benchmark's random games, seat 5: the model that split every hand by slot passed
    60,000 states there (at note 50 of 50); the grouped model follows it in a few states, and its
    certainties are true."""
    s, config, log = random_game(18, 5)
    out = solve(config, log)
    table = out["table"]
    assert table["exact"] and table["states"] < 1000 and "message" not in table
    for p, row in enumerate(table["players"]):
        assert row["cards"] == len(s.rumors[p])
        held = {c // NR for c in s.rumors[p]}
        for k in range(NS):
            q = row["holds"][SLOTS[k]]
            assert not (q < 1e-9 and k in held) and not (q > 1 - 1e-9 and k not in held), (p, k, q)


def test_over_the_state_limit_the_answer_says_it_is_not_exact_and_names_the_entry(monkeypatch):
    """Past MAX_STATES: no chances at all (never a false certainty), the entry where it stopped, the
    hand sizes still exact."""
    import solvers.masque.table as table_module

    s, config, log = random_game(18, 5)
    monkeypatch.setattr(table_module, "MAX_STATES", 1)
    table = solve(config, log)["table"]
    assert not table["exact"]
    assert all("holds" not in row for row in table["players"])
    assert [row["cards"] for row in table["players"]] == [len(h) for h in s.rumors]
    stop = table["stopped_at"]
    assert 0 <= stop < len(log) and log[stop]["type"] in ("ask", "give", "draw", "rumor", "count")
    assert f"from entry #{stop + 1} on" in table["message"] and "Not exact" in table["message"]
    assert "left out" in table["message"]
