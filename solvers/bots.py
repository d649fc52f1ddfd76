"""Bot registry: which bots each game has, and how to build one from a seed.

A bot is an object with ``choose(view) -> action``. It receives only the seat's view (a
plain dict), never the game state, so it cannot cheat; and every random choice it makes
comes from an RNG derived from its own seed and the point in the game, so replaying a
session (or undoing a move) makes it choose the same again.
"""

from __future__ import annotations

import importlib
from typing import Protocol

BOTS: dict[str, dict[str, str]] = {
    "clue": {
        "random": "solvers.clue.bots:RandomBot",
        "notes": "solvers.clue.bots:NotesBot",
        "strong": "solvers.clue.strong:StrongBot",
    },
}

BOT_HELP: dict[str, dict[str, str]] = {
    "clue": {
        "random": "uniformly random legal choices",
        "notes": "keeps a detective sheet of what it was shown; accuses when one triple is left",
        "strong": "the exact solver: asks the most informative rumor, accuses when sure or when waiting is riskier",
    },
}


class Bot(Protocol):
    def choose(self, view: dict) -> tuple: ...


def bot_names(game: str) -> list[str]:
    return list(BOTS.get(game, {}))


def make_bot(game: str, kind: str, seat: int, seed: int) -> Bot:
    """Build bot ``kind`` for ``seat``; ValueError names the bots that exist."""
    table = BOTS.get(game, {})
    if kind not in table:
        raise ValueError(f"Unknown {game} bot {kind!r}; choose one of: {', '.join(table) or 'none'}.")
    module, cls = table[kind].split(":")
    return getattr(importlib.import_module(module), cls)(seat=seat, seed=seed)
