"""Tests for the exact Clue solver (solvers.clue).

The reference for exactness is a brute-force enumeration written here from the rules themselves
(it never uses the solver's own constraint compiler): every deal of a small deck is listed with
itertools and checked entry by entry against the log.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import pytest

from solvers.clue import ClueSolution, SolverInputError, solve
from solvers.clue.advice import envelope_triples
from solvers.clue.counting import count
from solvers.clue.model import build_inputs, build_problem
from solvers.clue.simulate import MEEREEN, RED_KEEP, random_game, tiny_deck

CATS = ("suspects", "weapons", "locations")


# ---------------------------------------------------------------------------------------------
# Brute-force reference
# ---------------------------------------------------------------------------------------------
def _holders_and_sizes(config: dict[str, Any]) -> tuple[list[str], list[int]]:
    deck = config["deck"]
    n_cards = sum(len(deck[c]) for c in CATS)
    piles = dict(config.get("piles") or {})
    spare = n_cards - 3 - sum(piles.values())
    players = config["players"]
    if "hand_sizes" in config:
        sizes = [config["hand_sizes"][p] for p in players]
    else:
        sizes = [spare // len(players)] * len(players)
    face_up = spare - sum(sizes)
    holders = list(players) + list(piles) + (["face_up"] if face_up else [])
    return holders, sizes + list(piles.values()) + ([face_up] if face_up else [])


def _all_deals(config: dict[str, Any]):
    """Every deal of the deck: (envelope triple, {card: holder})."""
    deck = config["deck"]
    holders, sizes = _holders_and_sizes(config)
    all_cards = [c for cat in CATS for c in deck[cat]]
    for env in itertools.product(*(deck[c] for c in CATS)):
        rest = [c for c in all_cards if c not in env]

        def fill(i: int, remaining: list[str], deal: dict[str, str]):
            if i == len(holders):
                yield dict(deal)
                return
            for combo in itertools.combinations(remaining, sizes[i]):
                for c in combo:
                    deal[c] = holders[i]
                yield from fill(i + 1, [c for c in remaining if c not in combo], deal)
                for c in combo:
                    del deal[c]

        for deal in fill(0, rest, {}):
            for c in env:
                deal[c] = "envelope"
            yield env, deal


def _likelihood(deal: dict[str, str], env: tuple[str, ...], config: dict[str, Any], log, refuter: bool) -> Fraction:
    """0 if the deal contradicts the log, else its weight (1, or the refuter-model likelihood)."""
    me = config["me"]
    weight = Fraction(1)
    for e in log:
        kind = e["type"]
        if kind == "hand":
            if {c for c, h in deal.items() if h == me} != set(e["cards"]):
                return Fraction(0)
        elif kind == "face_up":
            if any(deal[c] != "face_up" for c in e["cards"]):
                return Fraction(0)
        elif kind == "rumor":
            if any(deal[c] == p for p in e.get("passed") or [] for c in e["cards"]):
                return Fraction(0)
            shower = e.get("shown_by")
            if shower is not None:
                matching = [c for c in e["cards"] if deal[c] == shower]
                if not matching:
                    return Fraction(0)
                if e.get("card") is not None:
                    if deal[e["card"]] != shower:
                        return Fraction(0)
                    if refuter and shower != me:
                        weight /= len(matching)
        elif kind == "reveal":
            if any(deal[c] != e["player"] for c in e["cards"]):
                return Fraction(0)
        elif kind == "not_held":
            if any(deal[c] == e["player"] for c in e["cards"]):
                return Fraction(0)
        elif kind == "accusation" and (set(e["cards"]) == set(env)) != e["correct"]:
            return Fraction(0)
    return weight


def brute_force(config: dict[str, Any], log, *, refuter: bool = False):
    """(number of consistent deals, {(card, holder): probability}, {triple: probability})."""
    deals = 0
    weight_total = Fraction(0)
    mass: dict[tuple[str, str], Fraction] = {}
    triples: dict[tuple[str, ...], Fraction] = {}
    for env, deal in _all_deals(config):
        w = _likelihood(deal, env, config, log, refuter)
        if not w:
            continue
        deals += 1
        weight_total += w
        triples[env] = triples.get(env, Fraction(0)) + w
        for c, h in deal.items():
            mass[(c, h)] = mass.get((c, h), Fraction(0)) + w
    if not deals:
        return 0, {}, {}
    probs = {k: v / weight_total for k, v in mass.items()}
    return deals, probs, {k: v / weight_total for k, v in triples.items()}


def _assert_matches_brute_force(config: dict[str, Any], log, refuter: bool) -> None:
    deals, probs, _ = brute_force(config, log, refuter=refuter)
    sol = solve(config, log, refuter_model=refuter)
    assert sol.status == "ok"
    assert sol.deals == deals
    expected_certain = {}
    for card, row in sol.holders.items():
        for holder, p in row.items():
            assert p == pytest.approx(float(probs.get((card, holder), 0)), abs=1e-9), (card, holder, log)
            if probs.get((card, holder), 0) == 1:
                expected_certain[card] = holder
        assert sol.envelope[card] == pytest.approx(float(probs.get((card, "envelope"), 0)), abs=1e-9)
    assert sol.certain == expected_certain


# ---------------------------------------------------------------------------------------------
# 1. Exactness against brute force
# ---------------------------------------------------------------------------------------------
EXACT_SETUPS = [
    ("2 players", dict(nplayers=2)),
    ("3 players", dict(nplayers=3)),
    ("centre pile", dict(nplayers=2, piles={"centre": 2})),
    ("hand sizes given", dict(nplayers=2, hand_sizes=[3, 2])),
    ("aside pile, 3/3/4 deck", dict(nplayers=2, piles={"aside": 2}, deck=(3, 3, 4))),
]


@pytest.mark.parametrize("refuter", [False, True], ids=["uniform", "refuter-model"])
@pytest.mark.parametrize(("name", "setup"), EXACT_SETUPS, ids=[s[0] for s in EXACT_SETUPS])
def test_every_probability_equals_brute_force(name: str, setup: dict[str, Any], refuter: bool) -> None:
    rng = random.Random(f"{name}-{refuter}")
    setup = dict(setup)
    sizes = setup.pop("deck", (3, 3, 3))
    deck = tiny_deck(3)
    deck["locations"] = [f"L{i}" for i in range(sizes[2])]
    nplayers = setup.pop("nplayers")
    for _ in range(12):
        game = random_game(
            rng, deck, nplayers, rng.randrange(0, 14), me=rng.randrange(nplayers), p_not_held=0.05, **setup
        )
        _assert_matches_brute_force(game.config, game.log, refuter)


def test_unseen_face_up_and_no_hand_are_counted_as_unknown_holders() -> None:
    """Without the hand and face-up entries every deal of the right shape is still counted."""
    config = {"deck": tiny_deck(3), "players": ["Ann", "Bob", "Cat", "Dan"], "me": "Ann"}
    log = [{"type": "rumor", "by": "Bob", "cards": ["S0", "W1", "L2"], "passed": ["Cat"], "shown_by": "Dan"}]
    _assert_matches_brute_force(config, log, refuter=False)


# ---------------------------------------------------------------------------------------------
# 2. Each observation type, read like the rule
# ---------------------------------------------------------------------------------------------
def _four_players(**extra: Any) -> dict[str, Any]:
    return {"deck": RED_KEEP, "players": ["Ann", "Bob", "Cat", "Dan"], "me": "Ann", **extra}


HAND = ["Cersei", "Sword", "Sept", "Kitchens", "Armory"]


def test_my_hand_is_exactly_my_cards() -> None:
    sol = solve(_four_players(), [{"type": "hand", "cards": HAND}])
    for card in HAND:
        assert sol.certain[card] == "Ann"
    for card, row in sol.holders.items():
        if card not in HAND:
            assert row["Ann"] == 0.0
    assert sol.deals == 5 * 5 * 8 * 756756  # envelope choices x ways to deal 15 cards 5/5/5


def test_face_up_cards_are_known_to_lie_face_up() -> None:
    config = {"deck": MEEREEN, "players": ["Ann", "Bob", "Cat", "Dan"], "me": "Ann"}  # 18 = 4*4 + 2 face up
    sol = solve(config, [{"type": "face_up", "cards": ["Whip", "Temple"]}])
    assert sol.certain == {"Whip": "face_up", "Temple": "face_up"}
    assert all("face_up" in row for row in sol.holders.values())
    assert sol.holders["Arakh"]["face_up"] == 0.0


def test_a_player_who_passes_holds_none_of_the_three_cards() -> None:
    rumor = {"type": "rumor", "by": "Bob", "cards": ["Jaime", "Axe", "Sept"], "passed": ["Cat", "Dan"]}
    sol = solve(_four_players(), [rumor | {"shown_by": "Ann", "card": "Sept"}])
    for card in ("Jaime", "Axe", "Sept"):
        assert sol.holders[card]["Cat"] == 0.0
        assert sol.holders[card]["Dan"] == 0.0
    assert sol.certain["Sept"] == "Ann"
    assert sol.holders["Jaime"]["Bob"] > 0  # the asker may hold their own rumor cards


def test_only_the_listed_passes_count() -> None:
    """`passed` is taken literally: players not listed are not assumed to have passed."""
    rumor = {"type": "rumor", "by": "Ann", "cards": ["Jaime", "Axe", "Stables"], "passed": [], "shown_by": "Dan"}
    sol = solve(_four_players(), [{"type": "hand", "cards": HAND}, rumor])
    assert sol.holders["Jaime"]["Bob"] > 0
    assert sol.holders["Jaime"]["Cat"] > 0


def test_the_card_i_was_shown_is_held_by_the_shower() -> None:
    rumor = {"type": "rumor", "by": "Ann", "cards": ["Jaime", "Axe", "Sept"], "passed": ["Bob"]}
    sol = solve(_four_players(), [rumor | {"shown_by": "Cat", "card": "Axe"}])
    assert sol.certain["Axe"] == "Cat"
    assert sol.envelope["Axe"] == 0.0


def test_a_shower_holds_at_least_one_of_the_three_cards() -> None:
    """I hold two of the rumor cards, so the unseen card Dan showed must be the third."""
    rumor = {"type": "rumor", "by": "Bob", "cards": ["Cersei", "Sword", "Stables"], "passed": ["Cat"]}
    log = [{"type": "hand", "cards": HAND}, rumor | {"shown_by": "Dan", "card": None}]
    sol = solve(_four_players(), log)
    assert sol.certain["Stables"] == "Dan"
    # and with three unknown cards it only raises Dan's share, it fixes nothing
    rumor2 = {"type": "rumor", "by": "Bob", "cards": ["Jaime", "Axe", "Stables"], "passed": [], "shown_by": "Dan"}
    before = solve(_four_players(), log[:1])
    after = solve(_four_players(), [log[0], rumor2])
    assert after.holders["Axe"]["Dan"] > before.holders["Axe"]["Dan"]
    assert "Axe" not in after.certain


def test_nobody_showing_leaves_only_the_asker_and_the_envelope() -> None:
    rumor = {"type": "rumor", "by": "Ann", "cards": ["Jaime", "Axe", "Stables"], "passed": ["Bob", "Cat", "Dan"]}
    sol = solve(_four_players(), [{"type": "hand", "cards": HAND}, rumor | {"shown_by": None}])
    for card in ("Jaime", "Axe", "Stables"):
        assert sol.certain[card] == "envelope"


def test_a_reveal_fixes_the_holder() -> None:
    config = _four_players(hand_sizes={"Ann": 4, "Bob": 4, "Cat": 4, "Dan": 4}, piles={"centre": 4})
    sol = solve(config, [{"type": "reveal", "player": "centre", "cards": ["Varys", "Dungeons"]}])
    assert sol.certain == {"Varys": "centre", "Dungeons": "centre"}
    assert set(sol.holders["Axe"]) == {"Ann", "Bob", "Cat", "Dan", "envelope", "centre"}


def test_a_wrong_accusation_rules_out_exactly_that_triple() -> None:
    config = {"deck": tiny_deck(3), "players": ["Ann", "Bob", "Cat"], "me": "Ann"}
    hand = {"type": "hand", "cards": ["S0", "W0"]}
    accusation = {"type": "accusation", "by": "Bob", "cards": ["S1", "W1", "L1"], "correct": False}
    before_triples, before_total = envelope_triples(build_problem(config, [hand]))
    after_triples, after_total = envelope_triples(build_problem(config, [hand, accusation]))
    removed = before_triples.pop(tuple(build_problem(config, []).cards.index(c) for c in ("S1", "W1", "L1")))
    assert removed > 0
    assert after_triples == before_triples
    assert after_total == before_total - removed
    assert solve(config, [hand, accusation]).deals == after_total


def test_a_correct_accusation_fixes_the_envelope() -> None:
    accusation = {"type": "accusation", "by": "Dan", "cards": ["Varys", "Poison", "Sept"], "correct": True}
    sol = solve(_four_players(), [accusation])
    assert {c for c, h in sol.certain.items() if h == "envelope"} == {"Varys", "Poison", "Sept"}
    assert sum(sol.envelope.values()) == pytest.approx(3.0)


def test_not_held_removes_the_holder() -> None:
    sol = solve(_four_players(), [{"type": "not_held", "player": "Bob", "cards": ["Varys", "Axe"]}])
    assert sol.holders["Varys"]["Bob"] == 0.0
    assert sol.holders["Axe"]["Bob"] == 0.0
    assert sol.holders["Varys"]["Cat"] > 0


def test_json_shape() -> None:
    config = {"deck": MEEREEN, "players": ["Ann", "Bob", "Cat", "Dan"], "me": "Ann"}
    out = solve(config, []).to_json()
    assert set(out) == {"status", "exact", "deals", "envelope", "holders", "certain", "advice"}
    assert out["status"] == "ok" and out["exact"] is True
    assert isinstance(out["deals"], int)
    assert set(out["envelope"]) == set(out["holders"]) == {c for cat in CATS for c in MEEREEN[cat]}
    for row in out["holders"].values():
        assert set(row) == {"Ann", "Bob", "Cat", "Dan", "envelope", "face_up"}
        assert sum(row.values()) == pytest.approx(1.0)
    no_face_up = solve(_four_players(), []).to_json()
    assert "face_up" not in no_face_up["holders"]["Axe"]


# ---------------------------------------------------------------------------------------------
# 3. Contradictions
# ---------------------------------------------------------------------------------------------
def _consistent_game(seed: int) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, str]]:
    game = random_game(random.Random(seed), RED_KEEP, 4, 14)
    return game.config, game.log, game.truth


def test_a_mistyped_entry_gives_a_minimal_conflict() -> None:
    config, log, truth = _consistent_game(7)
    me = config["me"]
    my_card = next(c for c, h in truth.items() if h == me)
    other = next(p for p in config["players"] if p != me)
    bad = [*log[:6], {"type": "reveal", "player": other, "cards": [my_card]}, *log[6:]]
    sol = solve(config, bad)
    assert sol.status == "contradiction"
    out = sol.to_json()
    assert set(out) == {"status", "conflict", "message"}
    conflict = out["conflict"]
    assert 6 in conflict
    for i in conflict:
        rest = [e for j, e in enumerate(bad) if j in conflict and j != i]
        assert solve(config, rest).status == "ok", f"dropping entry {i} should make the conflict consistent"
    assert solve(config, [e for j, e in enumerate(bad) if j in conflict]).status == "contradiction"
    message = out["message"]
    assert "\n" not in message and message.endswith(".") and message[0].isupper()
    assert "entry 6" in message.lower()


def test_conflict_between_rumors_is_minimal() -> None:
    config = {"deck": tiny_deck(3), "players": ["Ann", "Bob", "Cat"], "me": "Ann"}
    log = [
        {"type": "hand", "cards": ["S0", "W0"]},
        {"type": "rumor", "by": "Ann", "cards": ["S1", "W1", "L1"], "passed": ["Bob"], "shown_by": "Cat", "card": "S1"},
        {"type": "not_held", "player": "Bob", "cards": ["L2"]},
        {"type": "rumor", "by": "Bob", "cards": ["S1", "W2", "L0"], "passed": ["Cat"], "shown_by": "Ann", "card": "S0"},
    ]
    # entry 3: Ann shows S0 for a rumor without S0 -> input error, not a contradiction
    with pytest.raises(SolverInputError):
        solve(config, log)
    log[3] = {"type": "rumor", "by": "Bob", "cards": ["S1", "W2", "L0"], "passed": ["Cat"], "shown_by": None}
    sol = solve(config, log)
    assert sol.status == "contradiction"
    assert sol.conflict == [1, 3]  # Cat showed S1 but later passed on S1


# ---------------------------------------------------------------------------------------------
# 4. Bad input
# ---------------------------------------------------------------------------------------------
BAD_LOGS = [
    ("unknown card", [{"type": "hand", "cards": ["Cersei", "Sword", "Sept", "Kitchens", "Spoon"]}], 0),
    ("wrong category", [{"type": "rumor", "by": "Bob", "cards": ["Cersei", "Jaime", "Sept"], "passed": []}], 0),
    ("unknown player", [{"type": "not_held", "player": "Zed", "cards": ["Axe"]}], 0),
    ("unknown shower", [{"type": "rumor", "by": "Bob", "cards": ["Cersei", "Axe", "Sept"], "shown_by": "Zed"}], 0),
    ("duplicate in hand", [{"type": "hand", "cards": ["Cersei", "Cersei", "Sept", "Kitchens", "Armory"]}], 0),
    ("hand of wrong size", [{"type": "face_up", "cards": []}, {"type": "hand", "cards": ["Cersei"]}], 1),
    ("unknown entry type", [{"type": "hand", "cards": HAND}, {"type": "gossip"}], 1),
    ("shown card not in rumor", [{"type": "rumor", "by": "Ann", "cards": ["Cersei", "Axe", "Sept"],
                                  "passed": [], "shown_by": "Bob", "card": "Sword"}], 0),
    ("too many face-up cards", [{"type": "face_up", "cards": ["Axe"]}], 0),
]  # fmt: skip


@pytest.mark.parametrize(("name", "log", "index"), BAD_LOGS, ids=[b[0] for b in BAD_LOGS])
def test_bad_log_entries_raise_input_errors(name: str, log: list[dict[str, Any]], index: int) -> None:
    with pytest.raises(SolverInputError) as info:
        solve(_four_players(), log)
    assert info.value.entry_index == index
    assert "\n" not in str(info.value) and f"entry {index}" in str(info.value)


BAD_CONFIGS = [
    ("hand sizes too big", {"hand_sizes": {"Ann": 6, "Bob": 5, "Cat": 5, "Dan": 5}}),
    ("hand sizes miss a player", {"hand_sizes": {"Ann": 5, "Bob": 5, "Cat": 5}}),
    ("piles too big", {"piles": {"centre": 30}}),
    ("me not a player", {"me": "Zed"}),
    ("one player", {"players": ["Ann"]}),
    ("card in two categories", {"deck": {**RED_KEEP, "weapons": [*RED_KEEP["weapons"], "Cersei"]}}),
    ("negative pile", {"piles": {"centre": -1}}),
]


@pytest.mark.parametrize(("name", "change"), BAD_CONFIGS, ids=[b[0] for b in BAD_CONFIGS])
def test_bad_configs_raise_input_errors(name: str, change: dict[str, Any]) -> None:
    with pytest.raises(SolverInputError) as info:
        solve(_four_players() | change, [])
    assert info.value.entry_index is None
    assert str(info.value).startswith("Config:")


# ---------------------------------------------------------------------------------------------
# 5. Soundness on random simulated games
# ---------------------------------------------------------------------------------------------
def test_random_games_are_sound() -> None:
    rng = random.Random(99)
    for _ in range(240):
        deck = rng.choice([RED_KEEP, MEEREEN])
        nplayers = rng.randint(3, 6)
        game = random_game(rng, deck, nplayers, rng.randint(0, 60), me=rng.randrange(nplayers))
        sol = solve(game.config, game.log)
        assert sol.status == "ok"
        assert sol.deals > 0
        for card, holder in game.truth.items():
            assert sol.holders[card][holder] > 0, (card, holder)
        for card, holder in sol.certain.items():
            assert game.truth[card] == holder
        for row in sol.holders.values():
            assert sum(row.values()) == pytest.approx(1.0, abs=1e-9)
        assert sum(sol.envelope.values()) == pytest.approx(3.0, abs=1e-9)


def _check_refuter_soundness(rng: random.Random, games: int) -> None:
    for _ in range(games):
        nplayers = rng.randint(3, 6)
        deck = rng.choice([RED_KEEP, MEEREEN])
        game = random_game(rng, deck, nplayers, rng.randint(0, 60), me=rng.randrange(nplayers))
        plain = solve(game.config, game.log)
        weighted = solve(game.config, game.log, refuter_model=True)
        assert weighted.deals == plain.deals
        assert weighted.certain == plain.certain
        for card, holder in game.truth.items():
            assert weighted.holders[card][holder] > 0
        for row in weighted.holders.values():
            assert sum(row.values()) == pytest.approx(1.0, abs=1e-9)


def test_the_refuter_model_keeps_the_same_support() -> None:
    """Weights change probabilities, never which deals are possible."""
    _check_refuter_soundness(random.Random(5), 60)


@pytest.mark.soak
def test_soak_soundness_and_refuter_model() -> None:
    _check_refuter_soundness(random.Random(6), 1500)


@pytest.mark.soak
def test_soak_exactness_on_many_small_games() -> None:
    rng = random.Random(12)
    for i in range(300):
        _name, setup = EXACT_SETUPS[i % len(EXACT_SETUPS)]
        setup = dict(setup)
        sizes = setup.pop("deck", (3, 3, 3))
        deck = tiny_deck(3)
        deck["locations"] = [f"L{k}" for k in range(sizes[2])]
        nplayers = setup.pop("nplayers")
        game = random_game(
            rng, deck, nplayers, rng.randrange(0, 20), me=rng.randrange(nplayers), p_not_held=0.05, **setup
        )
        _assert_matches_brute_force(game.config, game.log, refuter=bool(i % 2))


@pytest.mark.parametrize("refuter", [False, True], ids=["uniform", "refuter-model"])
def test_marginals_equal_counts_with_the_card_fixed_on_full_decks(refuter: bool) -> None:
    """On decks too big for brute force: count(card c at h) by conditioning == the marginal."""
    rng = random.Random(21 + refuter)
    for _ in range(8):
        nplayers = rng.randint(3, 6)
        game = random_game(rng, rng.choice([RED_KEEP, MEEREEN]), nplayers, rng.randint(0, 40))
        problem = build_problem(game.config, game.log)
        caps, allowed, clauses, wfactors = build_inputs(problem, range(len(game.log)), refuter_model=refuter)
        base = count(caps, allowed, clauses, wfactors)
        assert base.marg is not None
        for c in rng.sample(range(len(allowed)), 3):
            for h in range(len(caps)):
                fixed = list(allowed)
                fixed[c] &= 1 << h
                assert count(caps, fixed, clauses, wfactors, marginals=False).total == base.marg[c][h]


def test_counting_core_matches_multinomials() -> None:
    """Unconstrained: cards into holders of sizes 2,3,4 = 9!/(2!3!4!)."""
    res = count([2, 3, 4], [0b111] * 9)
    assert res.total == 1260
    assert res.marg is not None
    assert all(row == [280, 420, 560] for row in res.marg)


# ---------------------------------------------------------------------------------------------
# 6. Advice
# ---------------------------------------------------------------------------------------------
def test_envelope_triples_and_best_envelope_are_exact() -> None:
    rng = random.Random(11)
    for _ in range(6):
        game = random_game(rng, tiny_deck(3), 3, rng.randrange(1, 10))
        _, _, brute_triples = brute_force(game.config, game.log)
        sol = solve(game.config, game.log, advice=True)
        assert sol.advice is not None
        assert sol.advice["best_envelope"]["p"] == pytest.approx(float(max(brute_triples.values())), abs=1e-12)
        triples, total = envelope_triples(build_problem(game.config, game.log))
        names = build_problem(game.config, game.log).cards
        got = {tuple(names[c] for c in t): v / total for t, v in triples.items()}
        assert got == pytest.approx({k: float(v) for k, v in brute_triples.items()}, abs=1e-12)
        for rec in sol.advice["rumors"].values():
            assert rec["bits"] >= 0


def test_no_information_left_means_zero_bits() -> None:
    accusation = {"type": "accusation", "by": "Dan", "cards": ["Varys", "Poison", "Stables"], "correct": True}
    sol = solve(_four_players(), [{"type": "hand", "cards": HAND}, accusation], advice=True)
    assert sol.advice is not None
    assert sol.advice["best_envelope"] == {"cards": ["Varys", "Poison", "Stables"], "p": 1.0}
    assert all(rec["bits"] == 0 for rec in sol.advice["rumors"].values())


def test_solution_type() -> None:
    assert isinstance(solve(_four_players(), []), ClueSolution)


class _Checked(list):
    """A list the compiler's fast path does not take (it checks ``type(x) is list``)."""


def test_the_rumor_fast_path_reads_and_refuses_exactly_as_the_checked_path() -> None:
    """A rumor whose lists are lists takes the compiler's fast path; the same rumor with its lists of
    a list subclass takes the checked path: the same constraints, and for bad input the same refusal."""
    import random as _random

    from solvers.clue.model import build_problem as _build
    from solvers.clue.simulate import RED_KEEP, random_game

    rng = _random.Random(5)
    junk = [None, 1, True, "Nobody", [], [[1]], {"a": 1}, ""]
    checked = 0
    for _ in range(40):
        g = random_game(rng, RED_KEEP, rng.randint(3, 6), 30, me=0)
        rumors = [i for i, e in enumerate(g.log) if e.get("type") == "rumor"]
        for i in rumors[:6]:
            entry = dict(g.log[i])
            key = rng.choice(["by", "cards", "passed", "shown_by", "card", None])
            if key is not None:
                c = list(g.log[i]["cards"])
                entry[key] = rng.choice([*junk, entry.get("by"), c[:2], [c[0], c[0], c[2]], [c[1], c[0], c[2]],
                                         [c[0], c[1], "Nobody"], [*c, c[0]]])
            as_tuples = {k: _Checked(v) if isinstance(v, list) else v for k, v in entry.items()}
            answers = []
            for e in (entry, as_tuples):
                log = [*g.log[:i], e]
                try:
                    answers.append(_build(g.config, log).entries[-1])
                except SolverInputError as err:
                    answers.append(str(err))
            assert answers[0] == answers[1], (entry, answers)
            checked += 1
    assert checked > 100
