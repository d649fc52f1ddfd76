"""Masque bots: registered, legal, deterministic, blind to hidden information, and ranked.

``strong`` must win at least 40% of seeded 4-player games against three ``heuristic`` bots
(the soak test plays the full 1,000 games; the default run plays a sample).
"""

from __future__ import annotations

import pytest

from engine.core import Rng
from engine.masque import GOSSIP, NR, NS, ROOM_INDEX, MasqueConfig, apply, legal_actions, new_game, to_act, view
from engine.masque.game import CHOOSE, PLAN
from solvers.bots import BOT_HELP, BOTS, bot_names, make_bot
from solvers.masque.bots import HeuristicBot, RandomBot, StrongBot
from solvers.masque.solver import best_plans, death_table
from solvers.simulate import simulate
from solvers.table import Table

KINDS = ("random", "heuristic", "strong")


def test_bots_are_registered_with_help():
    assert bot_names("masque") == list(KINDS)
    assert set(BOT_HELP["masque"]) == set(KINDS)
    assert isinstance(make_bot("masque", "random", 0, 1), RandomBot)
    assert isinstance(make_bot("masque", "heuristic", 1, 1), HeuristicBot)
    assert isinstance(make_bot("masque", "strong", 2, 1), StrongBot)
    assert BOTS["masque"]["strong"] == "solvers.masque.bots:StrongBot"


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_every_bot_plays_only_legal_actions(players):
    """Mixed tables of all three bots; the Table refuses anything illegal, so finishing is the test."""
    for g in range(2):
        seats = [KINDS[(i + g) % 3] for i in range(players)]
        t = Table("masque", MasqueConfig(players=players, harder=g == 1), 100 * players + g, seats)
        while not t.is_over():
            s = t.state
            legal = legal_actions(s)
            assert t.step_bot()
            assert tuple(t.log[-1][1]) in legal
        assert t.result()["reason"] in ("most-popular-survivor", "all-dead")


def test_bots_replay_identically():
    """Every choice comes from the seat's view and a seed derived from the point in the game."""
    seats = ["strong", "heuristic", "random", "heuristic"]
    a = Table("masque", MasqueConfig(players=4), 5, seats)
    b = Table("masque", MasqueConfig(players=4), 5, seats)
    a.run_bots()
    b.run_bots()
    assert a.log == b.log


def hidden_twin(state, seat: int):
    """The same game with different secrets the seat cannot know: the Rumor deck reordered and the
    Red Death cards of a slot it never looked at moved to other rooms it holds no Gossip for."""
    s = state.copy()
    s.deck = tuple(reversed(s.deck))
    looked = {k for k, _i in s.looks[seat]}
    for k in range(NS):
        if k in looked:
            continue
        known = {c % NR for c in s.seen[seat] if c // NR == k}
        held = {c % NR for h in s.rumors for c in h if c // NR == k}
        held |= {c % NR for c in s.deck if c < GOSSIP and c // NR == k}
        free = [r for r in range(NR) if r not in known and r not in held and r not in s.red[k]]
        if len(free) >= 1:
            red = list(s.red[k])
            red[0] = free[0]
            s.red = (*s.red[:k], tuple(red), *s.red[k + 1:])
            return s
    return s


@pytest.mark.parametrize("kind", KINDS)
def test_bots_cannot_see_secrets(kind):
    """A bot is given only its seat's view: change the secrets it cannot know and, since the view is
    the same, so is its choice."""
    for seed in range(6):
        s = new_game(MasqueConfig(players=4), seed)
        r = Rng(seed)
        for _ in range(40 + 7 * seed):
            s = apply(s, r.choice(legal_actions(s)))
        seat = to_act(s)
        twin = hidden_twin(s, seat)
        assert twin.red != s.red or twin.deck != s.deck
        v1, v2 = view(s, seat), view(twin, seat)
        assert v1 == v2
        b1 = make_bot("masque", kind, seat, 9)
        b2 = make_bot("masque", kind, seat, 9)
        assert b1.choose(v1) == b2.choose(v2)


def test_strong_bot_sets_the_solvers_best_plan():
    t = Table("masque", MasqueConfig(players=4), 3, ["strong"] * 4)
    while t.state.phase != PLAN:
        t.step_bot()
    bot = t.bots[0]
    s = t.state
    want = best_plans(death_table(bot.safe, bot.deadly, bot.red), [s.pos[0]], top=1)[0]
    while to_act(t.state) == 0:
        t.step_bot()
    assert t.state.plans[0] == want.moves
    assert t.state.ready[0]


def test_strong_bot_knows_what_its_seat_saw():
    """The bot's knowledge equals the engine's notes for its seat (Gossip seen, Red Death looked at)."""
    t = Table("masque", MasqueConfig(players=5), 8, ["strong", "heuristic", "strong", "random", "heuristic"])
    while t.state.phase != PLAN:
        t.step_bot()
    for seat in (0, 2):
        bot = t.bots[seat]
        bot._consume(t.view(seat, bot.since))  # read what happened since its last decision
        notes = view(t.state, seat)["notes"]
        for k, label in enumerate(view(t.state, seat)["slots"]):
            assert bot.safe[k] == sum(1 << ROOM_INDEX[r] for r in notes["safe"][label])
            assert bot.deadly[k] == sum(1 << ROOM_INDEX[r] for r in notes["deadly"][label])


def test_heuristic_beats_random():
    res = simulate("masque", {"players": 4}, ["heuristic", "random", "random", "random"], 40, 7)
    per = {s["bot"]: s for s in res.to_json()["per_bot"]}
    assert per["heuristic"]["rate"] > 0.25 > per["random"]["rate"]
    assert per["heuristic"]["rate"] > 3 * per["random"]["rate"]


def test_strong_beats_heuristic_on_a_sample():
    """40 seeded games (the soak test plays the full 1,000)."""
    res = simulate("masque", {"players": 4}, ["strong", "heuristic", "heuristic", "heuristic"], 40, 1)
    per = {s["bot"]: s for s in res.to_json()["per_bot"]}
    assert per["strong"]["rate"] >= 0.35
    assert per["strong"]["rate"] > per["heuristic"]["rate"]


@pytest.mark.soak
def test_strong_wins_40_percent_of_1000_games_against_three_heuristic_bots():
    res = simulate("masque", {"players": 4}, ["strong", "heuristic", "heuristic", "heuristic"], 1000, 1)
    per = {s["bot"]: s for s in res.to_json()["per_bot"]}
    assert per["strong"]["rate"] >= 0.40, per


def test_the_choice_phase_offers_plan_tiles_without_ending_the_choice():
    """Bots may place Movement tiles while choosing; the random bot does so now and then."""
    s = new_game(MasqueConfig(players=4), 2)
    while s.phase != CHOOSE:
        s = apply(s, legal_actions(s)[0])
    bot = RandomBot(0, 1)
    kinds = set()
    for n in range(60):
        v = view(s, 0)
        v["events"] = [{"t": "x", "n": n}]
        kinds.add(bot.choose(v)[0])
    assert kinds == {"play", "tile"}


def test_strength_counts_the_same_wins_as_simulate():
    """The win-and-survival tally plays exactly the games ``simulate()`` plays."""
    from solvers.masque.strength import strength

    bots = ["heuristic", "random", "heuristic", "random"]
    sim = {s["bot"]: s["wins"] for s in simulate("masque", {"players": 4}, bots, 12, 3).to_json()["per_bot"]}
    ours = strength({"players": 4}, bots, 12, 3)
    assert {k: t.wins for k, t in ours.per_bot.items()} == sim
    assert all(t.survived >= t.wins for t in ours.per_bot.values())
