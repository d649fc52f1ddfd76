"""Which games exist, and the one contract every engine follows (see DESIGN.md).

Games are imported lazily so that asking for one never pays for the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

GAMES: dict[str, str] = {
    "clue": "Clue: Game of Thrones",
    "mascarade": "Mascarade",
    "masque": "Masque of the Red Death",
    "ghoul": "Tokyo Ghoul: Bloody Masquerade",
}


@dataclass(frozen=True)
class GameSpec:
    """The engine contract of one game, as plain functions."""

    id: str
    title: str
    config_from_json: Callable[[dict], Any]
    new_game: Callable[..., Any]  # (config, seed) or (config, seed, rng): an outside rng for explicit chance
    to_act: Callable[[Any], int | None]
    legal_actions: Callable[[Any], list]
    apply: Callable[[Any, tuple], Any]
    view: Callable[..., dict]
    is_over: Callable[[Any], bool]
    result: Callable[[Any], dict | None]
    state_to_json: Callable[[Any], dict]
    state_from_json: Callable[[dict], Any]
    action_to_json: Callable[[tuple], list]
    action_from_json: Callable[[Any], tuple]
    shows_hidden: Callable[[dict, tuple[int, ...] | None, int], bool]


def get_game(game_id: str) -> GameSpec:
    """The engine of ``game_id``; ValueError names the games that exist."""
    if game_id not in GAMES:
        raise ValueError(f"Unknown game {game_id!r}; choose one of: {', '.join(GAMES)}.")
    m = importlib.import_module(f"engine.{game_id}")
    return GameSpec(
        id=game_id,
        title=GAMES[game_id],
        config_from_json=m.Config.from_json,
        new_game=m.new_game,
        to_act=m.to_act,
        legal_actions=m.legal_actions,
        apply=m.apply,
        view=m.view,
        is_over=m.is_over,
        result=m.result,
        state_to_json=m.state_to_json,
        state_from_json=m.state_from_json,
        action_to_json=m.action_to_json,
        action_from_json=m.action_from_json,
        shows_hidden=m.shows_hidden,
    )


def assumptions(game_id: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every assumption of ``game_id`` grouped by section, in data order: [(section, [(id, text), ...]), ...].

    The one list `unmask rules GAME` prints and the Rules screen shows (engine/assumed.py).
    """
    if game_id not in GAMES:
        raise ValueError(f"Unknown game {game_id!r}; choose one of: {', '.join(GAMES)}.")
    items = importlib.import_module(f"engine.{game_id}").assumptions()
    groups: dict[str, list[tuple[str, str]]] = {}
    for section, aid, text in items:
        groups.setdefault(section, []).append((aid, text))
    return list(groups.items())
