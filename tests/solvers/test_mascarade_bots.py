"""Mascarade bots: they see only views, play legally and reproducibly, and do what they claim to.

``honest`` says only what it believes; ``strong`` bluffs where nobody can contest, blocks a
bluff that would win the game, and beats three ``honest`` bots well above 35% of the time.
"""

from __future__ import annotations

import json

import pytest

from engine.core import EventLog
from engine.mascarade import Config, apply, legal_actions, new_game, to_act, view
from engine.mascarade.game import MascaradeState
from solvers.bots import make_bot
from solvers.mascarade.bots import HonestBot, MascaradeBotBase, RandomBot, StrongBot
from solvers.simulate import simulate, wilson
from solvers.table import Table

FOUR = ["judge", "trickster", "empress", "king", "thief", "cheater"]


def crafted(cards: list[str], coins: list[int], turn: int, turn_no: int = 5) -> MascaradeState:
    """A 4-player game whose opening showed ``cards``, with ``turn`` to play."""
    s = new_game(Config(players=4), seed=1)
    s.cards = tuple(cards)
    s.known = (tuple(cards),) * 4
    s.coins = tuple(coins)
    s.turn_pos = s.order.index(turn)
    s.turn_no = turn_no
    setup = dict(s.log.entries()[0][0])
    setup["coins"] = list(coins)
    s.log = EventLog()
    s.log.append(setup)
    s.log.append({"t": "opening", "cards": list(cards)})
    s.log.append({"t": "turn", "seat": turn, "turn": turn_no})
    return s


class Spy:
    """Wraps a bot and records every argument it is given."""

    def __init__(self, bot: MascaradeBotBase) -> None:
        self.bot = bot
        self.seen: list = []

    @property
    def since(self) -> int:
        return self.bot.since

    def choose(self, v: dict) -> tuple:
        self.seen.append(v)
        return self.bot.choose(v)


def test_bots_see_only_views():
    """A bot receives a plain JSON dict for its own seat, never the state."""
    table = Table("mascarade", Config(players=5), 3, ["strong", "honest", "random", "honest", "strong"])
    spies = {i: Spy(b) for i, b in table.bots.items()}
    table.bots = spies
    table.run_bots()
    for seat, spy in spies.items():
        assert spy.seen
        for v in spy.seen:
            assert type(v) is dict and v["seat"] == seat
            json.dumps(v)
            assert not any(isinstance(x, MascaradeState) for x in v.values())


@pytest.mark.parametrize("kind", ["random", "honest", "strong"])
def test_bots_play_legal_games_to_the_end_for_every_table_size(kind):
    for players in range(4, 13):
        table = Table("mascarade", Config(players=players), 100 + players, [kind] * players)
        table.run_bots()
        assert table.is_over()
        for bot in table.bots.values():
            assert getattr(bot, "broken", None) is None


def test_bots_are_registered():
    assert isinstance(make_bot("mascarade", "random", 0, 1), RandomBot)
    assert isinstance(make_bot("mascarade", "honest", 0, 1), HonestBot)
    assert isinstance(make_bot("mascarade", "strong", 0, 1), StrongBot)


def test_bot_games_replay_identically():
    """The same seed gives the same game; undo replays the same bot choices."""
    seats = ["strong", "honest", "strong", "honest", "random", "honest"]
    a = Table("mascarade", Config(players=6), 11, seats)
    b = Table("mascarade", Config(players=6), 11, seats)
    a.run_bots()
    b.run_bots()
    assert a.log == b.log
    seats = ["human", "strong", "honest", "strong"]
    # Undo never goes back past a secret the seat saw: find a game and a moment where it may.
    for seed in range(5, 60):
        t = Table("mascarade", Config(players=4), seed, seats)
        for step in range(400):
            if t.is_over() or (step >= 20 and t.undo_target(0) is not None):
                break
            if t.to_act() == 0:
                t.submit(0, legal_actions(t.state)[0])
            else:
                t.step_bot()
        if not t.is_over() and t.undo_target(0) is not None:
            break
    log = list(t.log)
    assert t.undo(0)
    while not t.is_over() and t.to_act() != 0 and len(t.log) < len(log):
        t.step_bot()
    assert t.log == log[: len(t.log)]


def test_honest_announces_the_mask_it_knows():
    """Honest: 'announces a mask it believes it holds with high probability'."""
    s = crafted(FOUR, [6, 6, 6, 6], turn=3)  # seat 3 saw its King at the opening; nobody swapped since
    bot = HonestBot(3, seed=1)
    assert bot.choose(view(s, 3)) == ("announce", "king")


def test_honest_counter_claims_only_when_nearly_sure():
    s = crafted(FOUR, [6, 6, 6, 6], turn=0)
    s = apply(s, ("announce", "empress"))  # seat 0 bluffs; seat 1 holds the Trickster, seat 2 the Empress
    assert HonestBot(1, seed=1).choose(view(s, 1)) == ("pass",)
    s = apply(s, ("pass",))
    assert HonestBot(2, seed=1).choose(view(s, 2)) == ("claim",)


def test_honest_looks_when_unsure():
    s = crafted(FOUR, [6, 6, 6, 6], turn=1)
    s = apply(s, ("swap", 2, True))  # seat 1 swapped (or not) with seat 2: seat 2 can no longer be sure
    assert to_act(s) == 2
    assert HonestBot(2, seed=1).choose(view(s, 2)) == ("look",)


def test_strong_blocks_a_cheater_bluff_that_would_win():
    """Strong pays a coin to stop a bluffing Cheater at 10+ (the Cheater sits on a table card)."""
    s = crafted(FOUR, [6, 11, 6, 6], turn=1)
    s = apply(s, ("announce", "cheater"))
    assert to_act(s) == 2
    assert StrongBot(2, seed=1).choose(view(s, 2)) == ("claim",)
    assert HonestBot(2, seed=1).choose(view(s, 2)) == ("pass",)


def test_strong_bluffs_a_mask_that_sits_on_a_table_card():
    """Nobody can contest a mask on a table card: Strong takes the Empress's 3 coins with a bluff."""
    cards = ["judge", "trickster", "cheater", "king", "empress", "thief"]
    s = crafted(cards, [6, 6, 6, 6], turn=2)  # seat 2 holds the useless Cheater; the Empress is table card 1
    action = StrongBot(2, seed=1).choose(view(s, 2))
    assert action == ("announce", "empress")


def test_strong_takes_a_good_card_it_tracked_during_the_opening_turns():
    """In the swap-only opening turns, Strong really swaps for the best card it knows is on the table."""
    cards = ["judge", "trickster", "cheater", "king", "empress", "thief"]
    s = crafted(cards, [6, 6, 6, 6], turn=2, turn_no=1)
    assert StrongBot(2, seed=1).choose(view(s, 2)) == ("swap", 4, True)


def test_strong_beats_three_honest_bots_in_a_sample():
    """120 seeded 4-player games, seats rotated: Strong's win rate is well above 35%."""
    res = simulate("mascarade", Config(players=4), ["strong", "honest", "honest", "honest"], 120, seed=1)
    st = res.stats["strong"]
    lo, _hi = wilson(st.wins, st.seats)
    assert lo > 0.35, res.to_json()


@pytest.mark.soak
def test_strong_wins_35_percent_of_1000_games_against_honest():
    """The issue's target: ``--games 1000 --players 4 --bots strong,honest,honest,honest --seed 1``."""
    res = simulate("mascarade", Config(players=4), ["strong", "honest", "honest", "honest"], 1000, seed=1)
    st = res.stats["strong"]
    lo, _hi = wilson(st.wins, st.seats)
    assert lo > 0.35, res.to_json()
