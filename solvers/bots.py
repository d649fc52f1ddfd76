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
    "mascarade": {
        "random": "solvers.mascarade.bots:RandomBot",
        "honest": "solvers.mascarade.bots:HonestBot",
        "strong": "solvers.mascarade.bots:StrongBot",
    },
    "masque": {
        "random": "solvers.masque.bots:RandomBot",
        "heuristic": "solvers.masque.bots:HeuristicBot",
        "strong": "solvers.masque.bots:StrongBot",
    },
    "ghoul": {
        "random": "solvers.ghoul.bots:RandomBot",
        "heuristic": "solvers.ghoul.bots:HeuristicBot",
        "strong": "solvers.ghoul.bots:StrongBot",
    },
}

BOT_HELP: dict[str, dict[str, str]] = {
    "clue": {
        "random": "uniformly random legal choices",
        "notes": "keeps a detective sheet of what it was shown; accuses when one triple is left",
        "strong": "the exact solver: asks the most informative rumor, accuses when sure or when waiting is riskier",
    },
    "mascarade": {
        "random": "uniformly random legal choices",
        "honest": "announces only a mask it is 80% sure of, counter-claims when 90% sure, looks when unsure",
        "strong": "tracks every mask exactly; weighs each action by expected value, bluffs and blocks when it pays",
    },
    "masque": {
        "random": "uniformly random legal choices (a Movement tile now and then)",
        "heuristic": "popularity first, follows the Prince; Discuss when it knows few safe rooms; plans through them",
        "strong": "the exact safe-room solver for its plan; weighs every card by survival gained and popularity",
    },
    "ghoul": {
        "random": "uniformly random legal choices",
        "heuristic": "keeps the cards its character needs, avoids suspicion, attacks when the odds are fair",
        "strong": "the exact hands-and-identities solver plus a search over sampled worlds",
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
