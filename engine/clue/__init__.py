"""Clue: Game of Thrones — the rules engine (see ``game``) and its boards as data."""

from engine.clue.board import BOARDS, Board, load_board, load_rules
from engine.clue.game import (
    ClueConfig,
    ClueState,
    action_from_json,
    action_to_json,
    apply,
    events_for,
    is_over,
    legal_actions,
    new_game,
    result,
    shows_hidden,
    state_from_json,
    state_to_json,
    to_act,
    view,
)

Config = ClueConfig  # the name every engine exports (engine.registry)

__all__ = [
    "BOARDS",
    "Board",
    "ClueConfig",
    "ClueState",
    "Config",
    "action_from_json",
    "action_to_json",
    "apply",
    "events_for",
    "is_over",
    "legal_actions",
    "load_board",
    "load_rules",
    "new_game",
    "result",
    "shows_hidden",
    "state_from_json",
    "state_to_json",
    "to_act",
    "view",
]


def assumptions() -> list[tuple[str, str, str]]:
    """Every assumption (section, id, text): the readings of rules.toml and every record flagged in data/*.toml."""
    from engine.assumed import assumptions as collect
    from engine.clue.board import describe_assumed

    return collect(__name__, describe_assumed)
