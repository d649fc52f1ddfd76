"""Mascarade (Board Game Arena edition) — the rules engine (see ``game``) and its masks as data."""

from engine.mascarade.data_files import Mask, Rules, load_masks, load_rules
from engine.mascarade.game import (
    CLAIM,
    GURU,
    OVER,
    POWER,
    SPY,
    TURN,
    MascaradeConfig,
    MascaradeState,
    action_from_json,
    action_to_json,
    announce_blocked,
    apply,
    check_mask_set,
    events_for,
    is_over,
    legal_actions,
    new_game,
    place_names,
    redact,
    result,
    shows_hidden,
    state_from_json,
    state_to_json,
    table_count,
    to_act,
    view,
)

Config = MascaradeConfig  # the name every engine exports (engine.registry)

__all__ = [
    "CLAIM",
    "GURU",
    "OVER",
    "POWER",
    "SPY",
    "TURN",
    "Config",
    "MascaradeConfig",
    "MascaradeState",
    "Mask",
    "Rules",
    "action_from_json",
    "action_to_json",
    "announce_blocked",
    "apply",
    "check_mask_set",
    "events_for",
    "is_over",
    "legal_actions",
    "load_masks",
    "load_rules",
    "new_game",
    "place_names",
    "redact",
    "result",
    "shows_hidden",
    "state_from_json",
    "state_to_json",
    "table_count",
    "to_act",
    "view",
]


def assumptions() -> list[tuple[str, str, str]]:
    """Every assumption (section, id, text): the readings of rules.toml (masks.toml flags none)."""
    from engine.assumed import assumptions as collect

    return collect(__name__)
