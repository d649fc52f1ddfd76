"""Our four games as OpenSpiel Python games (``pyspiel.register_game``).

Short names ``unmask_clue``, ``unmask_mascarade``, ``unmask_masque``, ``unmask_ghoul``; game
parameters ``players`` and ``config`` (the game's config as a JSON object, for variants).
Every random event is an explicit chance node (see :mod:`solvers.openspiel.world`); actions
are ids in a fixed table (:mod:`solvers.openspiel.tables`); information-state and
observation strings are a seat's ``view`` (with and without its event log), never the
state; returns are 1 for each winner and 0 otherwise (general sum). This is the only module
that imports ``pyspiel`` (an import-linter contract keeps it so).
"""

from __future__ import annotations

import base64
import json
from functools import lru_cache
from typing import Any

import pyspiel

from engine.registry import GAMES, get_game
from solvers.openspiel.bounds import max_chance_outcomes, max_game_length, players
from solvers.openspiel.tables import ActionTable, action_table
from solvers.openspiel.world import World

PREFIX = "unmask_"
B64 = "b64:"


def short_name(game_id: str) -> str:
    return PREFIX + game_id


_chance_bound = lru_cache(maxsize=64)(max_chance_outcomes)
_length_cap = lru_cache(maxsize=64)(max_game_length)


@lru_cache(maxsize=64)
def _table(game_id: str, config: Any) -> ActionTable:
    return action_table(game_id, config)


def table_for(game_id: str, config: Any) -> ActionTable:
    """The fixed action table of ``game_id`` with ``config`` (built once per config)."""
    return _table(game_id, config)


def encode_config(config: dict) -> str:
    """A config as an OpenSpiel parameter: game strings split on commas, parentheses and '=', so the
    JSON travels as ``b64:`` and unpadded URL-safe base64 (plain JSON without those is accepted too)."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"))
    return B64 + base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def config_of(game_id: str, params: dict) -> Any:
    """The engine config from OpenSpiel parameters: ``config`` (JSON object) with ``players`` on top."""
    spec = get_game(game_id)
    raw = params.get("config", "") or "{}"
    try:
        if raw.startswith(B64):
            b = raw[len(B64):]
            raw = base64.urlsafe_b64decode(b + "=" * (-len(b) % 4)).decode("utf-8")
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise ValueError(f"config is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise ValueError("config is a JSON object.")
    data["players"] = int(params.get("players", players(game_id)[2]))
    return spec.config_from_json(data)


def _game_type(game_id: str) -> pyspiel.GameType:
    lo, hi, default = players(game_id)
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"unmask: {GAMES[game_id]}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"players": default, "config": ""},
    )


def _game_info(game_id: str, config: Any) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=len(_table(game_id, config)),
        max_chance_outcomes=max_chance_outcomes(game_id, config),
        num_players=config.players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=None,
        max_game_length=max_game_length(game_id, config),
    )


class UnmaskGame(pyspiel.Game):
    """One of our games with one config."""

    game_id = ""

    def __init__(self, params: dict | None = None) -> None:
        params = dict(params or {})
        self.config = config_of(self.game_id, params)
        self.spec = get_game(self.game_id)
        super().__init__(_game_type(self.game_id), _game_info(self.game_id, self.config),
                         {"players": self.config.players, "config": params.get("config", "")})

    def new_initial_state(self) -> UnmaskState:
        return UnmaskState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SeatObserver:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return SeatObserver(recall)


class UnmaskState(pyspiel.State):
    """A game under way: a :class:`World`, the decisions made so far, and whether the cap ended it."""

    def __init__(self, game: UnmaskGame) -> None:
        super().__init__(game)
        self._gid = game.game_id
        self._world = World(game.spec, game.config)
        self._moves = 0
        self._capped = False

    # Table and bounds come from the game's id and config, never stored in the state (clones copy
    # every attribute).
    def _t(self) -> ActionTable:
        return _table(self._gid, self._world.config)

    def world(self) -> World:
        """The engine-level game under way (read it, do not change it)."""
        return self._world

    def current_player(self) -> int:
        w = self._world
        if w.need:
            return int(pyspiel.PlayerId.CHANCE)
        if self._capped or w.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        seat = w.to_act()
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        w = self._world
        if w.need or self._capped or w.state is None or w.to_act() != player:
            return []
        t = self._t()
        return sorted(t.id_of(a) for a in w.spec.legal_actions(w.state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self._world.need
        bound = _chance_bound(self._gid, self._world.config)
        if n > bound:
            raise AssertionError(f"a chance node with {n} outcomes exceeds the declared bound {bound}")
        p = 1.0 / n
        return [(o, p) for o in range(n)]

    def _apply_action(self, action: int) -> None:
        w = self._world
        if w.need:
            w.chance(action)
            return
        w.act(self._t().action(action))
        self._moves += 1
        if self._moves >= _length_cap(self._gid, w.config) and not w.is_over():
            self._capped = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{action}"
        return json.dumps(list(self._t().action(action)))

    def is_terminal(self) -> bool:
        return self._capped or self._world.is_over()

    def returns(self) -> list[float]:
        n = self._world.config.players
        if self._capped or not self._world.is_over():
            return [0.0] * n
        won = set(self._world.winners())
        return [1.0 if i in won else 0.0 for i in range(n)]

    def __str__(self) -> str:
        return str(self._world) + (" |length cap" if self._capped else "")


class SeatObserver:
    """Strings from a seat's view: with its whole event log (information state) or without (observation)."""

    def __init__(self, recall: bool) -> None:
        self.recall = recall
        self.tensor = None
        self.dict: dict = {}

    def set_from(self, state: UnmaskState, player: int) -> None:
        pass  # no tensors: the strings are the observations

    def string_from(self, state: UnmaskState, player: int) -> str:
        return state.world().seat_string(player, self.recall)


_REGISTERED: set[str] = set()


def register() -> list[str]:
    """Register the four games with OpenSpiel (once); returns their short names."""
    for gid in GAMES:
        if gid in _REGISTERED:
            continue
        cls = type(f"Unmask{gid.title()}Game", (UnmaskGame,), {"game_id": gid})
        pyspiel.register_game(_game_type(gid), cls)  # GameInfo depends on the config: made per game
        _REGISTERED.add(gid)
    return [short_name(g) for g in GAMES]


def load(game_id: str, players: int | None = None, config: dict | None = None) -> Any:
    """``pyspiel.load_game`` of one of ours, registering them first."""
    register()
    params: dict = {}
    if players is not None:
        params["players"] = players
    if config:
        params["config"] = encode_config(config)
    return pyspiel.load_game(short_name(game_id), params)
