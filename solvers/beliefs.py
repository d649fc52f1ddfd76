"""What one seat believed at every step of a finished game (issue 25), by the same solvers as the assistants.

Why: the replay answers "how did they know?". At each step the seat's own view (its redacted
events, nothing else) goes through the game's ``ObservationLog`` into the notes a person would
keep, and the game's exact solver answers them. One number per step, about the truth the replay
knows:

- Clue: the probability of the true envelope (all three cards at once): the deals that fit the notes
  and the true envelope over all deals that fit the notes (the true envelope as a correct accusation).
- Mascarade: the probability of the seat's own true card (the card it holds at that step).
- Masque: the chance the noble's plan as it stands (its own room and tiles, which it knows) survives
  midnight under the solver's death table: the product over the slots of 1 - P(that room is deadly),
  the solver's own plan model. None before the noble is placed and after it died.
- Tokyo Ghoul: the mean, over the other players, of the probability of each one's true character.

The solver runs only when the notes changed (a step that told the seat nothing keeps its number).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.replay import Replay

WHAT = {
    "clue": "P(true envelope)",
    "mascarade": "P(own true card)",
    "masque": "P(plan survives)",
    "ghoul": "P(true characters)",
}


@dataclass(frozen=True)
class Point:
    """One step's belief: ``p`` in [0, 1] (None where the game gives no number), ``certain`` when p is 1."""

    step: int
    p: float | None

    @property
    def certain(self) -> bool:
        return self.p is not None and self.p >= 1.0 - 1e-9

    def to_json(self) -> dict:
        return {"step": self.step, "p": None if self.p is None else round(self.p, 6)}


def notes_at(replay: Replay, seat: int, step: int) -> tuple[dict | None, list[dict]]:
    """The seat's notes (assist config and log) after ``step`` actions, from a fresh ObservationLog."""
    obs = importlib.import_module(f"solvers.{replay.game}.observations").ObservationLog(seat)
    obs.update(replay.spec.view(replay.steps[step].state, seat)["events"])
    return obs.config, _entries(obs)


def _entries(obs: Any) -> list[dict]:
    return list(obs.entries()) if hasattr(obs, "entries") else list(obs.log)


def belief(replay: Replay, seat: int, step: int, config: dict | None, log: list[dict]) -> float | None:
    """The number of :data:`WHAT` for ``seat`` at ``step``, from its notes ``(config, log)``."""
    if config is None:
        return None
    game = replay.game
    state = replay.steps[step].state
    solver = importlib.import_module(f"solvers.{game}.solver")
    me = config["me"]
    if game == "clue":
        total = solver.solve(config, log)
        if total.status != "ok" or not total.deals:
            return None
        truth = {"type": "accusation", "by": me, "cards": list(state.envelope), "correct": True}
        hit = solver.solve(config, [*log, truth])
        return 0.0 if hit.status != "ok" else hit.deals / total.deals
    if game == "mascarade":
        out = solver.solve(config, log, advice=False)
        if out.get("status") != "ok":
            return None
        return float(out["probabilities"][me].get(state.cards[seat], 0.0))
    if game == "masque":
        from engine.masque import ROOMS, SLOTS

        if state.pos[seat] < 0 or not state.alive[seat]:
            return None
        out = solver.solve(config, log)
        if out.get("status") != "ok":
            return None
        p, room = 1.0, state.pos[seat]
        step_of = {"cw": 1, "ccw": -1, "stay": 0}
        for slot, move in zip(SLOTS, state.plans[seat], strict=True):
            room = (room + step_of[move]) % len(ROOMS)
            p *= 1.0 - out["deadly"][slot][ROOMS[room]]
        return p
    if game == "ghoul":
        out = solver.solve(config, log, advice=False)
        if out.get("status") != "ok":
            return None
        names = config["players"]
        others = [i for i in range(len(names)) if i != seat]
        return sum(out["identities"][names[i]].get(state.chars[i], 0.0) for i in others) / len(others)
    raise ValueError(f"No belief series for the game {game!r}.")


def belief_series(replay: Replay, seat: int, *, on_point: Callable[[Point], None] | None = None,
                  stop: Callable[[], bool] | None = None) -> list[Point]:
    """The seat's belief at every step, in order; ``on_point`` hears each as it is computed (a screen
    draws them as they come), ``stop`` ends the work early (what is done so far is returned)."""
    obs = importlib.import_module(f"solvers.{replay.game}.observations").ObservationLog(seat)
    out: list[Point] = []
    last_key: str | None = None
    last_p: float | None = None
    for step in replay.steps:
        if stop is not None and stop():
            break
        obs.update(replay.spec.view(step.state, seat, obs.since)["events"])
        log = _entries(obs)
        # The number depends on the notes, and on the truth of that step (a Mascarade card moves,
        # a Masque plan changes): the solver runs again only when one of them did.
        key = json.dumps([obs.config, log, _truth(replay, seat, step.index)], sort_keys=True, default=str)
        if key != last_key:
            last_p = belief(replay, seat, step.index, obs.config, log)
            last_key = key
        point = Point(step.index, last_p)
        out.append(point)
        if on_point is not None:
            on_point(point)
    return out


def _truth(replay: Replay, seat: int, step: int) -> Any:
    s = replay.steps[step].state
    if replay.game == "mascarade":
        return s.cards[seat]
    if replay.game == "masque":
        return [s.pos[seat], s.alive[seat], list(s.plans[seat])]
    return None  # Clue's envelope and Tokyo Ghoul's characters never change


def series_json(replay: Replay, seats: list[int] | None = None,
                cached: Callable[[int], list[Point] | None] | None = None) -> dict:
    """Every seat's series (or those of ``seats``) as the JSON ``unmask replay FILE --json`` prints;
    ``cached(seat)`` may give a series already kept (the session file's), which is then not computed."""
    names = replay.spec.view(replay.final, 0)["players"]
    seats = list(range(replay.players)) if seats is None else seats

    def series(seat: int) -> list[Point]:
        kept = cached(seat) if cached is not None else None
        return kept if kept is not None else belief_series(replay, seat)

    return {
        "game": replay.game,
        "steps": len(replay) - 1,
        "what": WHAT[replay.game],
        "seats": [{"seat": s, "name": names[s], "series": [p.to_json() for p in series(s)]} for s in seats],
    }


# ----------------------------------------------------------------------------- the cache in the session file

CACHE_KEY = "beliefs"


def fingerprint(session: Any) -> str:
    """What a cached series was computed from (config, seed and moves): a changed game never reads an old one."""
    import hashlib

    text = json.dumps([session.game, session.config, session.seed, session.log], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cached_series(session: Any, seat: int) -> list[Point] | None:
    """The series of ``seat`` kept in the session file, when it is there and belongs to this very game."""
    cache = session.extra.get(CACHE_KEY)
    if not isinstance(cache, dict) or cache.get("game") != fingerprint(session):
        return None
    values = (cache.get("seats") or {}).get(str(seat))
    if not isinstance(values, list) or len(values) != len(session.log) + 1:
        return None
    if not all(v is None or (isinstance(v, int | float) and 0.0 <= v <= 1.0) for v in values):
        return None
    return [Point(k, None if v is None else float(v)) for k, v in enumerate(values)]


def store_series(session: Any, seat: int, points: list[Point]) -> None:
    """Keep a whole series in ``session.extra`` (written with the session), so a second opening is instant."""
    cache = session.extra.get(CACHE_KEY)
    key = fingerprint(session)
    if not isinstance(cache, dict) or cache.get("game") != key:
        cache = {"game": key, "what": WHAT[session.game], "seats": {}}
    cache["seats"][str(seat)] = [p.to_json()["p"] for p in points]
    cache["seats"] = dict(sorted(cache["seats"].items(), key=lambda kv: int(kv[0])))
    session.extra[CACHE_KEY] = cache
