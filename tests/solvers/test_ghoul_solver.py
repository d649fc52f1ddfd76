"""The Tokyo Ghoul solver: hand-made positions, exactness against brute force, soundness in real games.

* Each observation of the solve file format is read as the rulebook says (one test each).
* When ``exact`` is true the probabilities equal a brute-force count over every present deal and
  character assignment consistent with the log.
* Over seeded engine games, for every seat: the true hands, characters and Transformed Kaneki token
  always stay possible, and every fact reported certain is true (sample by default; 1,000 games
  with ``pytest -m soak``).
"""

from __future__ import annotations

import json

import pytest

from engine.core import Rng
from engine.ghoul.data import SUITS, load_data
from engine.ghoul.game import GhoulConfig, apply, is_over, legal_actions, new_game, view
from solvers.ghoul.hands import matches
from solvers.ghoul.model import SolverInputError, build_problem
from solvers.ghoul.observations import ObservationLog
from solvers.ghoul.solver import Behaviour, filter_log, sample_worlds, solve, solve_problem

CHARS = load_data().characters
NAMES = ["A", "B", "C", "D"]
CAST4 = ["kaneki", "hide", "mado", "nishiki"]


def cfg(**kw) -> dict:
    c = {"players": NAMES, "me": "A", "character": "kaneki", "cast": CAST4}
    c.update(kw)
    return c


def hand(*cards: str) -> dict:
    return {"type": "hand", "cards": list(cards)}


def S(rule: str, *players: str) -> dict:
    return {"type": "suspicion", "rule": rule, "players": list(players)}


def approx(x):
    """The JSON output is rounded to 6 decimals."""
    return pytest.approx(x, abs=2e-6)


def ok(config: dict, log: list[dict]) -> dict:
    out = solve(config, log)
    assert out["status"] == "ok", out
    json.dumps(out)
    return out


# ============================================================================ the observations


def test_my_hand_alone():
    """With only my hand, the other 9 cards are spread evenly and nothing else is certain."""
    out = ok(cfg(), [hand("coffee", "coffee", "food")])
    assert out["certain"]["A"]["hand"] == ["coffee", "coffee", "food"]
    exp = sum(out["hands"][p]["coffee"]["expected"] for p in "BCD")
    assert exp == approx(1.0)
    assert out["hands"]["B"]["coffee"]["expected"] == approx(1 / 3)
    assert out["certain"]["B"]["has"] == {} and out["certain"]["B"]["hand"] is None
    assert out["identities"]["A"] == {"kaneki": 1.0}
    assert out["identities"]["B"] == approx({"hide": 1 / 3, "mado": 1 / 3, "nishiki": 1 / 3})
    assert out["exact"] is True


def test_suspicion_answers_constrain_every_hand():
    """A Suspicion action is public: who took a marker holds the cards the rule names, and every
    other player does not."""
    out = ok(cfg(), [hand("coffee", "food", "dove"), S("pair", "B")])
    assert max(out["certain"]["C"]["at_most"].values()) == 1
    assert max(out["certain"]["D"]["at_most"].values()) == 1
    assert out["hands"]["B"]["coffee"]["p_at_least_two"] + out["hands"]["B"]["food"]["p_at_least_two"] + out["hands"][
        "B"
    ]["transformation"]["p_at_least_two"] + out["hands"]["B"]["dove"]["p_at_least_two"] == approx(1.0)
    out = ok(cfg(), [hand("coffee", "food", "dove"), S("transformation", "C", "D")])
    assert out["certain"]["B"]["lacks"] == ["transformation"]
    assert out["certain"]["C"]["has"] == {"transformation": 1}


def test_cards_shown_to_me_are_held():
    """An Interrogation: the cards shown to me are in that player's hand."""
    log = [
        hand("coffee", "food", "food"),
        {"type": "interrogation", "by": "A", "target": "B", "shown": ["dove", "dove"], "exchange": "none"},
    ]
    out = ok(cfg(), log)
    assert out["certain"]["B"]["has"] == {"dove": 2}


def test_three_cards_shown_fix_the_hand():
    """Rulebook: "When a player has 3 Suspicion markers ... he must show the 3 cards in his hand.\""""
    out = ok(
        cfg(),
        [
            hand("coffee", "food", "food"),
            {
                "type": "interrogation",
                "by": "A",
                "target": "B",
                "count": 3,
                "shown": ["dove", "dove", "transformation"],
            },
        ],
    )
    assert out["certain"]["B"]["hand"] == ["transformation", "dove", "dove"]


def test_an_exchange_i_made_moves_the_two_cards():
    log = [
        hand("coffee", "food", "food"),
        {
            "type": "interrogation",
            "by": "A",
            "target": "B",
            "shown": ["dove", "dove"],
            "exchange": {"gave": "food", "took": "dove"},
        },
        hand("coffee", "food", "dove"),
    ]
    out = ok(cfg(), log)
    assert out["certain"]["B"]["has"] == {"food": 1, "dove": 1}
    assert out["exact"] is True


def test_an_exchange_i_did_not_see_may_change_one_card():
    """Between two other players the exchange is secret (it may not even have happened): one card
    each way may have changed."""
    log = [
        hand("coffee", "food", "food"),
        {"type": "interrogation", "by": "A", "target": "B", "count": 3, "shown": ["dove", "dove", "dove"]},
        {"type": "interrogation", "by": "C", "target": "B"},
    ]
    out = ok(cfg(), log)
    assert out["certain"]["B"]["has"] == {"dove": 2}
    assert out["certain"]["B"]["hand"] is None
    assert out["exact"] is True  # the card-flow model: tests/solvers/test_ghoul_flow.py


def test_a_turn_without_an_instant_victory_rules_out_that_character():
    """An instant victory must be claimed: B held 3 Coffee and started a turn, so B is not Hide."""
    log = [
        hand("food", "dove", "transformation"),
        {"type": "interrogation", "by": "A", "target": "B", "count": 3, "shown": ["coffee", "coffee", "coffee"]},
        {"type": "move", "player": "B"},
    ]
    out = ok(cfg(), log)
    assert out["identities"]["B"].get("hide", 0.0) == 0.0
    assert "hide" in out["certain"]["B"]["not_characters"]
    assert out["identities"]["C"]["hide"] == approx(0.5)


def test_a_contradiction_names_the_entries():
    """I hold two Coffee but the log says I did not draw suspicion at a Coffee location."""
    out = solve(cfg(), [hand("coffee", "coffee", "food"), S("food", "B"), S("coffee")])
    assert out["status"] == "contradiction"
    assert out["conflict"] == [0, 2]
    assert "contradict" in out["message"] and "\n" not in out["message"]
    assert out["entries"][1]["rule"] == "coffee"


def test_too_many_cards_of_a_suit_is_a_contradiction():
    """Two players with two Coffee each need 4 Coffee cards; 4 players play with 3."""
    out = solve(cfg(), [hand("coffee", "food", "food"), S("coffee", "C", "B")])
    assert out["status"] == "contradiction" and out["conflict"] == [1]
    assert "setup" in out["message"]


def test_mask_face_up_card_that_is_not_a_mask_means_no_mask():
    """Rulebook: "Whenever a player must place a Clue card face up on his Investigation board, he must reveal a
    Mask Clue card if he has one.\""""
    config = cfg(mask=True)
    out = ok(
        config,
        [
            {"type": "hand", "cards": ["coffee", "food", "dove"], "face_up": "mask"},
            {"type": "face_up", "player": "B", "card": "coffee"},
        ],
    )
    assert "mask" in out["certain"]["B"]["lacks"]
    assert out["certain"]["B"]["has"] == {"coffee": 1}
    # The 3 remaining Masks are with C and D.
    assert out["hands"]["C"]["mask"]["expected"] + out["hands"]["D"]["mask"]["expected"] == approx(3.0)


def test_support_tokens_looks_and_swaps():
    """Rulebook: "At the end of his turn, the active player can look at any Support token, OR exchange his own
    Support token with another player's token.\""""
    config = cfg(support=True)
    log = [hand("coffee", "food", "dove"), {"type": "support", "token": "neutral"}]
    out = ok(config, log)
    assert out["support"] == {"A": 0.0, "B": approx(1 / 3), "C": approx(1 / 3), "D": approx(1 / 3)}
    log += [
        {"type": "support_look", "by": "A", "target": "C", "token": "kaneki"},
        {"type": "support_swap", "by": "C", "with": "D"},
    ]
    out = ok(config, log)
    assert out["support"]["D"] == 1.0 and out["support"]["C"] == 0.0


def test_reveals_at_the_end_fix_identities():
    log = [
        hand("coffee", "food", "dove"),
        {"type": "reveal", "player": "B", "character": "mado", "cards": ["coffee", "food", "food"]},
        {"type": "reveal", "player": "C", "character": "hide"},
    ]
    out = ok(cfg(), log)
    assert out["certain"]["B"]["character"] == "mado" and out["certain"]["B"]["hand"] == ["coffee", "food", "food"]
    assert out["certain"]["D"]["character"] == "nishiki"


def test_an_attack_reveals_both_characters():
    log = [
        hand("coffee", "food", "dove"),
        {
            "type": "attack",
            "by": "B",
            "target": "C",
            "by_character": "mado",
            "target_character": "nishiki",
            "victim": "C",
        },
    ]
    out = ok(cfg(), log)
    assert out["identities"]["B"] == {"mado": 1.0} and out["identities"]["D"] == {"hide": 1.0}
    assert out["objectives"]["B"]["mado"]["kill"]["reachable"] is False


def test_preliminary_phase():
    """Rulebook: "Each player chooses 2 Clue cards ... shows them ... to the player on his left ... gives 1 Clue card,
    face down, to the player on his right." My right neighbour (D) showed me two cards and received
    mine; my left neighbour (B) gave me a card."""
    log = [
        hand("coffee", "food", "dove"),
        {"type": "preliminary", "shown": ["transformation", "transformation"], "gave": "dove", "received": "food"},
        hand("coffee", "food", "food"),
    ]
    out = ok(cfg(), log)
    assert out["certain"]["D"]["has"] == {"transformation": 1, "dove": 1}


def test_advice_shape():
    out = ok(
        cfg(
            character="mado",
            ring=[
                "cochlea",
                "anteiku",
                "ccg-office",
                "kamii-university",
                "11th-ward",
                "ghoul-restaurant",
                "20th-ward-streets",
                "aogiri-hideout",
            ],
        ),
        [hand("dove", "dove", "food"), S("food", "B")],
    )
    a = out["advice"]
    assert a["needs"] == {"dove": 2} and a["lacking"] == []
    assert a["special"]["available"] is True and a["special"]["x"] == 1
    assert a["attack"]["kill"] == "ghoul" and len(a["attack"]["targets"]) == 3
    assert [m["place"] for m in a["move"]] and {m["place"] for m in a["move"]} <= {1, 2}
    assert a["summary"].endswith(".")
    assert out["board"]["token"] == 0


@pytest.mark.parametrize(
    ("config", "log", "msg"),
    [
        ({"players": ["A", "B"], "me": "A"}, [], "4 to 8"),
        (cfg(me="Z"), [], "config.me"),
        (cfg(character="nobody"), [], "config.character"),
        (cfg(cast=["kaneki", "hide", "mado"]), [], "cast"),
        (cfg(), [{"type": "dance"}], "unknown type"),
        (cfg(), [hand("coffee", "coffee")], "3 cards"),
        (cfg(), [hand("coffee", "coffee", "beer")], "not a suit"),
        (cfg(), [S("spice", "B")], "rule"),
        (cfg(), [S("pair", "Zed")], "not one of the players"),
        (cfg(), ["hand"], "JSON object"),
        (cfg(), [{"type": "interrogation", "by": "A", "target": "A"}], "himself"),
    ],
)
def test_unreadable_input_raises_one_line(config, log, msg):
    with pytest.raises(SolverInputError, match=msg) as e:
        solve(config, log)
    assert "\n" not in str(e.value)


# ============================================================================ exactness


def _random_scenario(seed: int) -> tuple[dict, list[dict], list[tuple[int, ...]], list[str]]:
    """A 4-player log with only exchanges I see (so the solver is exact), and its hidden truth."""
    r = Rng(seed)
    s = new_game(GhoulConfig(players=4, characters=("kaneki", "hide", "mado", "nishiki")), seed)
    hands = [list(h) for h in s.hands]
    chars = list(s.chars)
    me = 0
    names = NAMES
    config = {"players": names, "me": "A", "character": chars[me], "cast": sorted(chars)}

    def cards(h: list[int]) -> list[str]:
        return [SUITS[x] for x in range(5) for _ in range(h[x])]

    log: list[dict] = [{"type": "hand", "cards": cards(hands[me])}]
    for _ in range(r.below(6) + 2):
        k = r.below(3)
        if k == 0:
            rule = r.choice(("coffee", "food", "dove", "pair", "transformation"))
            log.append(
                {
                    "type": "suspicion",
                    "rule": rule,
                    "players": [names[q] for q in range(4) if matches(tuple(hands[q]), rule)],
                }
            )
        elif k == 1:
            b = 1 + r.below(3)
            shown = r.shuffled(cards(hands[b]))[:2]
            e: dict = {"type": "interrogation", "by": "A", "target": names[b], "shown": shown, "exchange": "none"}
            give = r.choice(cards(hands[me]))
            take = r.choice(shown)
            if r.below(2):
                e["exchange"] = {"gave": give, "took": take}
                hands[me][SUITS.index(give)] -= 1
                hands[me][SUITS.index(take)] += 1
                hands[b][SUITS.index(take)] -= 1
                hands[b][SUITS.index(give)] += 1
            log.append(e)
        else:
            q = r.below(4)
            inst = CHARS[chars[q]].instant
            if not inst or hands[q][inst[0]] < inst[1]:
                log.append({"type": "move", "player": names[q]})
    return config, log, [tuple(h) for h in hands], chars


# Exactness against brute force over the physical cards, for every entry kind: test_ghoul_flow.py.


def test_sampled_worlds_follow_the_marginals():
    config, log, _truth, _chars = _random_scenario(5)
    sol = solve_problem(build_problem(config, log))
    worlds = sample_worlds(sol, 3000, Rng(1))
    for q in range(4):
        counts: dict = {}
        for hands, chars, _tk in worlds:
            counts[hands[q]] = counts.get(hands[q], 0) + 1
            assert sol.hand_probs[q].get(hands[q], 0) > 0 and sol.identity[q].get(chars[q], 0) > 0
        for h, v in sol.hand_probs[q].items():
            assert counts.get(h, 0) / 3000 == pytest.approx(v, abs=0.04)
    for hands, chars, _tk in worlds[:200]:
        assert tuple(sum(h[i] for h in hands) for i in range(5)) == sol.filtered.problem.deck
        assert sorted(chars) == sorted(config["cast"])


def test_behaviour_model_shifts_beliefs_but_keeps_the_truth_possible():
    """The bot's behaviour model: a player who took my Coffee is more likely a Coffee collector."""
    log = [
        hand("coffee", "coffee", "food"),
        {
            "type": "interrogation",
            "by": "B",
            "target": "A",
            "shown": ["coffee", "food"],
            "exchange": {"gave": "dove", "took": "coffee"},
        },
        hand("coffee", "food", "dove"),
    ]
    problem = build_problem(cfg(), log)
    plain = solve_problem(problem)
    model = solve_problem(problem, behaviour=Behaviour())
    assert plain.identity[1]["hide"] == pytest.approx(1 / 3)
    assert model.identity[1]["hide"] > 0.5
    assert set(model.hand_probs[1]) == set(plain.hand_probs[1])
    assert model.exact is False


# ============================================================================ soundness in real games


def _check_soundness(game_no: int, every: int = 4) -> int:
    players = 4 + game_no % 5
    config = GhoulConfig(players=players, mask=game_no % 3 == 1, support=game_no % 4 >= 2)
    s = new_game(config, 500 + game_no)
    r = Rng(game_no)
    obs = [ObservationLog(i) for i in range(players)]
    steps = checks = 0
    while True:
        if steps % every == 0 or is_over(s):
            seat = (steps // every) % players
            for i in range(players):
                obs[i].update(view(s, i, obs[i].since)["events"])
            out = solve(obs[seat].config, obs[seat].entries(), advice=True)
            assert out["status"] == "ok", out
            names = obs[seat].config["players"]
            for q in range(players):
                h = s.hands[q]
                cert = out["certain"][names[q]]
                for suit, k in cert["has"].items():
                    assert h[SUITS.index(suit)] >= k
                for suit, k in cert["at_most"].items():
                    assert h[SUITS.index(suit)] <= k
                for suit in cert["lacks"]:
                    assert h[SUITS.index(suit)] == 0
                if cert["hand"] is not None:
                    assert cert["hand"] == [SUITS[x] for x in range(5) for _ in range(h[x])]
                assert out["identities"][names[q]].get(s.chars[q], 0.0) > 0
                if cert["character"] is not None:
                    assert cert["character"] == s.chars[q]
                assert s.chars[q] not in cert["not_characters"]
            if out["support"] is not None and s.tk >= 0:
                assert out["support"][names[s.tk]] > 0
            checks += 1
        if is_over(s):
            return checks
        s = apply(s, r.choice(legal_actions(s)))
        steps += 1


@pytest.mark.parametrize("block", range(3))
def test_soundness_sample(block):
    """A sample of seeded games (all player counts and variants): nothing certain is ever false and
    the truth stays possible for every seat that is checked."""
    assert sum(_check_soundness(g) for g in range(block * 10, block * 10 + 10)) > 0


@pytest.mark.soak
@pytest.mark.parametrize("block", range(20))
def test_soundness_soak_1000_games(block):
    for g in range(1000 + block * 50, 1000 + block * 50 + 50):
        _check_soundness(g, every=2)


def test_observation_log_from_a_view_is_plain_json():
    s = new_game(GhoulConfig(players=5, mask=True, support=True), 8)
    r = Rng(2)
    for _ in range(30):
        if is_over(s):
            break
        s = apply(s, r.choice(legal_actions(s)))
    obs = ObservationLog.from_view(view(s, 1))
    data = json.loads(json.dumps({"config": obs.config, "log": obs.entries()}))
    out = solve(data["config"], data["log"])
    assert out["status"] == "ok"
    assert data["config"]["me"] == "Aiko" and data["config"]["character"] == s.chars[1]
    assert data["log"][0]["type"] == "hand"


# ============================================================================ issue 21, finding 3


def test_the_bound_moves_no_card_before_the_preliminary_gifts_are_made():
    """A preliminary entry with ``"passed": false`` (the show happened, the gifts not yet): the
    per-player bound must not apply the gifts, or even my own hand shows as uncertain."""
    log = [hand("coffee", "food", "dove"), {"type": "preliminary", "shown": ["food", "food"], "passed": False}]
    f = filter_log(build_problem(cfg(), log))
    mine = f.uni.exactly((1, 1, 0, 1, 0))
    assert all(m in (0, mine) for m in f.masks[0]) and any(f.masks[0])
    assert f.exact
    passed = filter_log(build_problem(cfg(), [*log[:1], {**log[1], "passed": True}]))
    assert any(m & ~mine for m in passed.masks[0])  # once passed, my gift and my gain are unknown


def test_my_hand_stays_certain_at_8_players_before_the_gifts():
    names = ["A", "B", "C", "D", "E", "F", "G", "H"]
    config = {"players": names, "me": "A", "character": "kaneki",
              "cast": ["kaneki", "hide", "mado", "nishiki", "hinami", "touka", "amon", "kimi"]}
    log = [hand("coffee", "food", "dove"), {"type": "preliminary", "shown": ["food", "food"], "passed": False}]
    out = solve(config, log, advice=False)
    assert out["status"] == "ok", out
    assert out["certain"]["A"]["hand"] == ["coffee", "food", "dove"]
    assert out["certain"]["H"]["has"] == {"food": 2}


# ======================================================= issue 21, finding 1: every exchange chance

CHANCES = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)  # the k key's settings, and an older file's 0 and 1


def _false_certainties(cert: dict, h: tuple[int, ...], char: str) -> int:
    bad = sum(h[SUITS.index(s)] < k for s, k in cert["has"].items())
    bad += sum(h[SUITS.index(s)] > k for s, k in cert["at_most"].items())
    bad += sum(h[SUITS.index(s)] != 0 for s in cert["lacks"])
    bad += cert["hand"] is not None and cert["hand"] != [SUITS[x] for x in range(5) for _ in range(h[x])]
    bad += cert["character"] is not None and cert["character"] != char
    bad += char in cert["not_characters"]
    return int(bad)


def _chance_game(game_no: int, chance: float, cuts: int = 4) -> tuple[int, int, int]:
    """One seeded game (4-6 players, where the card-flow pass uses the chance) played at random,
    one seat's notes solved at ``cuts`` points with ``exchange_chance`` = ``chance``:
    (positions, false certainties, true notes called a contradiction)."""
    players = 4 + game_no % 3
    config = GhoulConfig(players=players, mask=game_no % 5 == 4, support=game_no % 2 == 1)
    s = new_game(config, 9000 + game_no)
    r = Rng(7000 + game_no)
    seat = game_no % players
    obs = ObservationLog(seat)
    states = [s]
    while not is_over(s):
        s = apply(s, r.choice(legal_actions(s)))
        states.append(s)
    picks = sorted({round(k * (len(states) - 1) / cuts) for k in range(1, cuts + 1)})
    positions = false = contradictions = 0
    for i in picks:
        obs = ObservationLog(seat)
        obs.update(view(states[i], seat)["events"])
        out = solve({**obs.config, "exchange_chance": chance}, obs.entries(), advice=False)
        positions += 1
        if out["status"] != "ok":
            contradictions += 1
            continue
        names = obs.config["players"]
        st = states[i]
        false += sum(_false_certainties(out["certain"][names[q]], tuple(st.hands[q]), st.chars[q])
                     for q in range(players))
    return positions, false, contradictions


def _sweep(chance: float, games: range) -> tuple[int, int, int]:
    totals = [0, 0, 0]
    for g in games:
        for k, v in enumerate(_chance_game(g, chance)):
            totals[k] += v
    print(f"\nexchange chance {chance:.0%}: {len(games)} games, {totals[0]} positions, "
          f"{totals[1]} false certainties, {totals[2]} true note sets called a contradiction")
    return totals[0], totals[1], totals[2]


@pytest.mark.parametrize("chance", CHANCES)
def test_no_exchange_chance_makes_a_false_certainty_sample(chance):
    _positions, false, contradictions = _sweep(chance, range(6))
    assert (false, contradictions) == (0, 0)


@pytest.mark.soak
@pytest.mark.parametrize("chance", CHANCES)
def test_no_exchange_chance_makes_a_false_certainty_500_games(chance):
    _positions, false, contradictions = _sweep(chance, range(500))
    assert (false, contradictions) == (0, 0)
