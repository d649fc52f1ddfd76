"""Real assist sessions to mutate: the examples, and what one seat saw in seeded engine games.

Each session is ``(config, log)`` exactly as the solver and the assistant read it. The engine
games are played with uniformly random legal moves from a seeded RNG, and cut at a few
points, so the sessions cover every entry kind the observation logs produce.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from engine.core import Rng, derive_seed
from engine.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("clue", "mascarade", "masque", "ghoul")


def _observer(game: str, seat: int):
    if game == "clue":
        from solvers.clue.observations import ObservationLog
    elif game == "mascarade":
        from solvers.mascarade.observations import ObservationLog
    elif game == "masque":
        from solvers.masque.observations import ObservationLog
    else:
        from solvers.ghoul.observations import ObservationLog
    return ObservationLog(seat)


def _config(game: str, g: int):
    spec = get_game(game)
    if game == "clue":
        data = {"players": 2 + g % 5, "board": "meereen" if g % 2 else "red-keep", "centre_pile": g % 3 == 0,
                "max_rounds": 30}
    elif game == "mascarade":
        data = {"players": 4 + g % 5}
    elif game == "masque":
        data = {"players": 4 + g % 4, "harder": g % 3 == 2}
    else:
        data = {"players": 4 + g % 5, "mask": g % 3 == 1, "support": g % 4 >= 2}
    return spec.config_from_json(data)


def _snapshot(obs) -> tuple[dict, list]:
    entries = obs.entries() if callable(getattr(obs, "entries", None)) else obs.log
    return json.loads(json.dumps(obs.config)), json.loads(json.dumps(entries))


def engine_sessions(game: str, games: int = 6, cuts: int = 3, max_steps: int = 400) -> list[tuple[dict, list]]:
    """``games`` seeded random games; seat ``g % players``'s notes at ``cuts`` points of each."""
    spec = get_game(game)
    out = []
    for g in range(games):
        config = _config(game, g)
        state = spec.new_game(config, derive_seed(31, g))
        rng = Rng(derive_seed(37, g))
        players = config.players
        seat = g % players
        obs = _observer(game, seat)
        snaps: list[tuple[dict, list]] = []
        step = 0
        while not spec.is_over(state) and step < max_steps:
            state = spec.apply(state, rng.choice(spec.legal_actions(state)))
            step += 1
            if step % 4 == 0:
                obs.update(spec.view(state, seat, obs.since)["events"])
                if getattr(obs, "config", None):
                    snaps.append(_snapshot(obs))
        obs.update(spec.view(state, seat, obs.since)["events"])
        snaps.append(_snapshot(obs))
        picks = sorted({round(k * (len(snaps) - 1) / max(1, cuts - 1)) for k in range(cuts)})
        out.extend(snaps[k] for k in picks)
    return out


def example_sessions(game: str) -> list[tuple[dict, list]]:
    out = []
    for path in sorted((ROOT / "examples").glob("*.json")):
        data = json.loads(path.read_text("utf-8"))
        if data.get("game") == game and data.get("mode") == "assist":
            out.append((data["config"], data["log"]))
    return out


@cache
def real_sessions(game: str) -> tuple[str, ...]:
    """Every base session of ``game``, as JSON text (immutable, so each test gets a fresh copy)."""
    steps = 160 if game == "mascarade" else 400  # long Mascarade logs make each contradiction search slow
    return tuple(json.dumps({"config": c, "log": log})
                 for c, log in example_sessions(game) + engine_sessions(game, max_steps=steps))


def _swap_heavy(game: str, seed: int, players: int, entries: int) -> tuple[dict, list]:
    """Seat 0's notes of a seeded game at a large table where players mostly make the hidden moves
    (Mascarade: swap-or-pretend, so the belief turns to particles), cut at ``entries`` entries."""
    spec = get_game(game)
    state = spec.new_game(spec.config_from_json({"players": players}), seed)
    rng = Rng(seed + 1)
    obs = _observer(game, 0)
    while not spec.is_over(state):
        acts = spec.legal_actions(state)
        swaps = [a for a in acts if isinstance(a, tuple) and a and a[0] == "swap"]
        act = rng.choice(swaps) if swaps and rng.random() < 0.85 else rng.choice(acts)
        state = spec.apply(state, act)
        obs.update(spec.view(state, 0, obs.since)["events"])
        config, log = _snapshot(obs) if getattr(obs, "config", None) else ({}, [])
        if len(log) >= entries:
            break
    config, log = _snapshot(obs)
    return config, log[:entries]


@cache
def large_sessions(game: str) -> tuple[str, ...]:
    """The largest tables (the soak only: each try is slow): Mascarade 12 players and 94 entries in
    particle mode, and the other games at their most players."""
    if game == "mascarade":
        made = [_swap_heavy(game, s, 12, 94) for s in (1, 2)]
    else:
        most = {"clue": 6, "masque": 7, "ghoul": 8}[game]
        made = []
        for g in range(2):
            spec = get_game(game)
            data = {"players": most, **({"max_rounds": 30} if game == "clue" else {})}
            state = spec.new_game(spec.config_from_json(data), derive_seed(41, g))
            rng = Rng(derive_seed(43, g))
            obs = _observer(game, g)
            for _ in range(120):
                if spec.is_over(state):
                    break
                state = spec.apply(state, rng.choice(spec.legal_actions(state)))
            obs.update(spec.view(state, g, obs.since)["events"])
            made.append(_snapshot(obs))
    return tuple(json.dumps({"config": c, "log": log}) for c, log in made)
