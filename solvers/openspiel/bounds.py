"""The numbers OpenSpiel's GameInfo needs for one of our games and config: no ``pyspiel`` here.

``max_chance_outcomes``: the largest ``n`` any draw ``below(n)`` can have (a shuffle of the
largest pile, a die, a card drawn from a hand). ``max_game_length``: the safety cap in
decisions (``limits.toml``).
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any


@cache
def _limits() -> dict:
    return tomllib.loads((Path(__file__).with_name("limits.toml")).read_text("utf-8"))


def players(game_id: str) -> tuple[int, int, int]:
    """(min, max, default) players of ``game_id`` in OpenSpiel (``limits.toml``)."""
    lo, hi, default = _limits()[game_id]["players"]
    return int(lo), int(hi), int(default)


def max_chance_outcomes(game_id: str, config: Any) -> int:
    """An upper bound on the outcomes of one chance node (the World checks it at every node)."""
    n = config.players
    if game_id == "clue":
        from engine.clue import load_board
        from engine.clue import load_rules as clue_rules

        b, cr = load_board(config.board), clue_rules()
        return max(n, len(b.cards), sum(p.count for p in cr.plot), len(cr.dice_faces))
    if game_id == "mascarade":
        return max(n, len(config.mask_set()))
    if game_id == "masque":
        from engine.masque.game import NR, NS
        from engine.masque.rules import load_rules as masque_rules
        from engine.masque.rules import personality_cards

        mr = masque_rules()
        return max(n, len(personality_cards()), NR * mr.prince_tiles_per_room, NR,
                   NS * NR + NS * mr.evidence_per_slot)
    if game_id == "ghoul":
        from engine.ghoul.data import load_data

        d = load_data()
        return max(n, len(d.characters), len(d.tiles), sum(d.deck(n, True)))
    raise ValueError(f"unknown game {game_id!r}")


def max_game_length(game_id: str, config: Any) -> int:
    """The decision cap: per-seat decisions per round times the game's own round limit."""
    lim = _limits()[game_id]
    n = config.players
    if game_id == "clue":
        return config.max_rounds * n * lim["decisions_per_seat_round"]
    if game_id == "mascarade":
        return config.turn_cap() * n * lim["decisions_per_turn_per_seat"]
    if game_id == "masque":
        from engine.masque.game import ROUNDS

        return (ROUNDS + 1) * n * lim["decisions_per_seat_round"]
    if game_id == "ghoul":
        return config.max_rounds * n * lim["decisions_per_seat_round"]
    raise ValueError(f"unknown game {game_id!r}")

