"""Test-only helpers for the bots of every game."""

from __future__ import annotations

from engine.core import derive_seed
from solvers.bots import make_bot


class Spy:
    """Stands in for a bot at the table and records exactly what the table hands it."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.since = bot.since
        self.seen: list = []

    def choose(self, v):
        self.seen.append(v)
        action = self.bot.choose(v)
        self.since = self.bot.since
        return action


PLAIN = (dict, list, str, int, float, bool, type(None))


def assert_plain(x, path: str = "view") -> None:
    """``x`` is plain JSON data all the way down (text keys), so a bot cannot reach the state through it."""
    assert isinstance(x, PLAIN), f"{path} is a {type(x).__name__}"
    if isinstance(x, dict):
        for k, v in x.items():
            assert isinstance(k, str), f"{path} has a non-text key {k!r}"
            assert_plain(v, f"{path}[{k!r}]")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            assert_plain(v, f"{path}[{i}]")


def assert_blind_to(table, state, other, view) -> None:
    """The seat to act cannot tell ``state`` from ``other`` (the same world but for secrets it does
    not hold): its views are equal, and its bot, built afresh, chooses the same in both."""
    seat = table.to_act()
    assert view(other, seat) == view(state, seat)
    kind = table.seats[seat]
    seed = derive_seed(table.seed, "bot", seat, kind)
    a = make_bot(table.game, kind, seat=seat, seed=seed).choose(view(state, seat))
    b = make_bot(table.game, kind, seat=seat, seed=seed).choose(view(other, seat))
    assert a == b
