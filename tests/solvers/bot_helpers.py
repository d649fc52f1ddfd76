"""Test-only helpers for the bots of every game."""

from __future__ import annotations


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
