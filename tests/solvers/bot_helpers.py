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
