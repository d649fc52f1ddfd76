"""Fixed action tables: every action a game with one config can ever offer, numbered once.

OpenSpiel names actions by integers in ``[0, num_distinct_actions)``, the same numbers in
every state of one game. Each table below lists a superset of the actions the engine can
make legal for a config (grammar times the config's names and seats), in a stable order, so
an id means the same action in every state, run and process. Pure Python: no ``pyspiel``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Action = tuple


class ActionTable:
    """Action <-> integer id for one game and config."""

    def __init__(self, actions: list[Action]) -> None:
        self.actions: tuple[Action, ...] = tuple(actions)
        self.ids: dict[tuple, int] = {}
        for i, a in enumerate(self.actions):
            key = _key(a)
            if key in self.ids:
                raise ValueError(f"duplicate action in table: {a!r}")
            self.ids[key] = i
        # Rollouts ask for ids millions of times: look the action up as it is, then check its
        # element types; actions equal only up to True == 1 stay on the tagged path.
        fast: dict[tuple, tuple[int, tuple[type, ...]]] = {}
        clash = []
        for i, a in enumerate(self.actions):
            if a in fast:
                clash.append(a)
            fast[a] = (i, tuple(map(type, a)))
        for a in clash:
            fast.pop(a, None)
        self._fast = fast

    def __len__(self) -> int:
        return len(self.actions)

    def id_of(self, action: Action) -> int:
        """The id of ``action``; KeyError names an action the table lacks (a bug in the table)."""
        hit = self._fast.get(action)
        if hit is not None and hit[1] == tuple(map(type, action)):
            return hit[0]
        try:
            return self.ids[_key(action)]
        except KeyError:
            raise KeyError(f"action {action!r} is missing from the action table") from None

    def action(self, action_id: int) -> Action:
        return self.actions[action_id]


def _key(action: Action) -> tuple:
    # True == 1 in Python: tag the type so ("swap", 1, True) and ("swap", 1, 1) could never meet.
    return tuple((type(x).__name__, x) for x in action)


def clue_actions(config: Any) -> list[Action]:
    from engine.clue import load_board, load_rules

    b = load_board(config.board)
    n = config.players
    nodes = range(len(b.adjacency))
    acts: list[Action] = [("roll",), ("passage",), ("stay",), ("draw",), ("decline",), ("look_centre",),
                          ("power",), ("end",)]
    acts += [("play", p.id) for p in load_rules().plot]
    acts += [("show", c) for c in b.cards]
    acts += [("teleport", v) for v in nodes]
    acts += [("move", v) for v in nodes]
    acts += [("look_aside", i) for i in range(4)]  # two players set four cards aside (new_game)
    acts += [("peek", t) for t in range(n)]
    acts += [("rumor", su, w) for su in b.suspects for w in b.weapons]
    acts += [("accuse", su, w, lo) for su in b.suspects for w in b.weapons for lo in b.locations]
    return acts


def mascarade_actions(config: Any) -> list[Action]:
    from engine.mascarade.data_files import load_masks

    places = len(config.mask_set())
    ids = list(dict.fromkeys(config.mask_set()))
    effects = sorted({m.effect for m in load_masks().values()} | {"spy", "fool", "puppeteer", "trickster"})
    acts: list[Action] = [("look",), ("claim",), ("pass",), ("spy_swap", True), ("spy_swap", False)]
    acts += [("swap", t, sw) for t in range(places) for sw in (True, False)]
    acts += [("announce", m) for m in ids]
    acts += [("name", m) for m in ids]
    acts += [("power", e, t) for e in sorted(set(ids) | set(effects)) for t in range(places)]
    acts += [("power", "fool", a, b, sw) for a in range(places) for b in range(a + 1, places) for sw in (True, False)]
    acts += [("power", "puppeteer", a, b) for a in range(places) for b in range(a + 1, places)]
    return acts


def masque_actions(config: Any) -> list[Action]:
    from engine.masque.game import CARD_NAMES, DIRS, NS, ROOMS
    from engine.masque.rules import load_actions

    n = config.players
    cards = list(load_actions())
    acts: list[Action] = [("ready",), ("done",)]
    acts += [("play", c) for c in cards]
    acts += [("return", c) for c in cards]
    acts += [("tile", k, d) for k in range(NS) for d in DIRS]
    acts += [("move", r) for r in ROOMS]
    acts += [("place", r) for r in ROOMS]
    acts += [("waltz", r) for r in ROOMS]
    acts += [("ask", t, k) for t in range(n) for k in range(NS)]
    acts += [("target", t) for t in range(n)]
    acts += [("give", t, c) for t in range(n) for c in CARD_NAMES]
    acts += [("look", i) for i in range(config.red_death)]
    acts += [("peek", k, i) for k in range(NS) for i in range(config.red_death)]
    return acts


def ghoul_actions(config: Any) -> list[Action]:
    from engine.ghoul.data import SUITS

    n = config.players
    where = ("hand", "board")
    acts: list[Action] = [("pass",)]
    acts += [("move", p) for p in range(8)]  # the ring has eight tiles
    for kind in ("special", "interrogate", "remove", "add", "attack", "look", "swap"):
        acts += [(kind, t) for t in range(n)]
    acts += [("show", a, b) for i, a in enumerate(SUITS) for b in SUITS[i:]]
    acts += [("exchange", g, t, gf, tf) for g in SUITS for t in SUITS for gf in where for tf in where]
    acts += [("reveal", s) for s in SUITS]
    acts += [("give", s) for s in SUITS]
    return acts


TABLES: dict[str, Callable[[Any], list[Action]]] = {
    "clue": clue_actions,
    "mascarade": mascarade_actions,
    "masque": masque_actions,
    "ghoul": ghoul_actions,
}


def action_table(game_id: str, config: Any) -> ActionTable:
    """The fixed table of ``game_id`` with ``config``."""
    return ActionTable(TABLES[game_id](config))
