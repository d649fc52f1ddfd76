"""Tokyo Ghoul: Bloody Masquerade — the rules engine (see ``game``) and its cards, characters
and locations as data (``data/*.toml``, loaded by ``data``)."""

from engine.ghoul.data import SUITS, Character, GhoulData, Tile, load_data
from engine.ghoul.game import (
    GhoulConfig,
    GhoulState,
    action_from_json,
    action_to_json,
    apply,
    events_for,
    hypothetical,
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

Config = GhoulConfig  # the name every engine exports (engine.registry)

__all__ = [
    "SUITS",
    "Character",
    "Config",
    "GhoulConfig",
    "GhoulData",
    "GhoulState",
    "Tile",
    "action_from_json",
    "action_to_json",
    "apply",
    "events_for",
    "hypothetical",
    "is_over",
    "legal_actions",
    "load_data",
    "new_game",
    "redact",
    "result",
    "shows_hidden",
    "state_from_json",
    "state_to_json",
    "to_act",
    "view",
]

load_rules = load_data  # the name the Rules screen and `unmask rules` look up


def assumptions() -> list[tuple[str, str, str]]:
    """Every assumption (section, id, text): the readings of rules.toml and every record flagged in data/*.toml."""
    from engine.assumed import assumptions as collect
    from engine.ghoul.data import describe_assumed

    return collect(__name__, describe_assumed)
