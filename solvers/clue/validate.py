"""The Clue assist session's schema (``docs/formats.md``), checked before anything is solved.

``validate(config, log)`` reads the config with :func:`solvers.clue.model.build_problem` (deck,
players, piles, hand sizes), then checks every log entry's fields: the right JSON types, card
names of the deck, player and pile names of the table. A mistake is one line naming the entry
("Log entry 3: 'card' must be one of ..."). What passes is well typed; whether an entry makes
sense with the table (a hand of the right size, one card of each kind in a rumor) is still the
solver's call, and the assistant shows that answer beside the notes.
"""

from __future__ import annotations

from typing import Any

from solvers.clue.model import ENVELOPE, SolverInputError, build_problem
from solvers.schema import Check, check_log

TYPES = ("hand", "face_up", "rumor", "reveal", "not_held", "accusation")

__all__ = ["SolverInputError", "validate"]


class _Error(SolverInputError):
    def __init__(self, message: str) -> None:
        index = None
        if message.startswith("Log entry "):
            head = message[len("Log entry "):].split(":", 1)[0]
            index = int(head) if head.isdigit() else None
        super().__init__(message, index)


def validate(config: Any, log: Any) -> None:
    """Raise :class:`SolverInputError` (one line) unless ``config`` and ``log`` fit the schema."""
    c = Check(_Error, "config")
    c.obj(config, "the config")
    if config.get("board") is not None:
        c.string(config["board"], "board")
    problem = build_problem(config, [])
    cards = list(problem.cards)
    players = list(problem.players)
    holders = [*players, *problem.piles, ENVELOPE]
    check_log(log, _Error, lambda c, e, _i: _entry(c, e, cards, players, holders))


def _names(c: Check, value: Any, key: str, choices: list[str], label: str) -> None:
    for x in c.lst(value, key):
        c.string(x, key, choices, label=label)


def _entry(c: Check, e: Any, cards: list[str], players: list[str], holders: list[str]) -> None:
    c.obj(e, "an entry")
    t = c.string(e.get("type"), "type", TYPES, label="the entry kinds")
    _names(c, e.get("cards"), "cards", cards, "the cards")
    if t == "rumor":
        c.string(e.get("by"), "by", players, label="the players")
        if e.get("passed") is not None:
            _names(c, e["passed"], "passed", players, "the players")
        if e.get("shown_by") is not None:
            c.string(e["shown_by"], "shown_by", players, label="the players")
        if e.get("card") is not None:
            c.string(e["card"], "card", cards, label="the cards")
    elif t in ("reveal", "not_held"):
        c.string(e.get("player"), "player", holders, label="the players and piles")
    elif t == "accusation":
        c.string(e.get("by"), "by", players, label="the players")
        c.boolean(e.get("correct"), "correct")
