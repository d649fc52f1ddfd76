"""Masque of the Red Death — the rules engine (see ``game``) and its board and cards as data."""

from engine.masque.game import (
    CARD_INDEX,
    CARD_NAMES,
    DIRS,
    GOSSIP,
    NR,
    NS,
    ROOM_INDEX,
    ROOMS,
    SLOTS,
    MasqueConfig,
    MasqueState,
    action_from_json,
    action_to_json,
    apply,
    events_for,
    is_over,
    legal_actions,
    new_game,
    redact,
    result,
    shows_hidden,
    state_from_json,
    state_to_json,
    to_act,
    view,
)
from engine.masque.rules import ActionCard, Rules, load_actions, load_rules

Config = MasqueConfig  # the name every engine exports (engine.registry)

__all__ = [
    "CARD_INDEX",
    "CARD_NAMES",
    "DIRS",
    "GOSSIP",
    "NR",
    "NS",
    "ROOMS",
    "ROOM_INDEX",
    "SLOTS",
    "ActionCard",
    "Config",
    "MasqueConfig",
    "MasqueState",
    "Rules",
    "action_from_json",
    "action_to_json",
    "apply",
    "events_for",
    "is_over",
    "legal_actions",
    "load_actions",
    "load_rules",
    "new_game",
    "redact",
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
    from engine.masque.rules import describe_assumed

    return collect(__name__, describe_assumed)
