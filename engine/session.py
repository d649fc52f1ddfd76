"""Sessions: a game id, its config, a seed (play) or the user's seat (assist), and an ordered log.

This module only turns sessions into and out of plain data and replays them; reading and
writing files is the caller's job (``tui.storage``), so the engine stays free of I/O.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.core import IllegalAction
from engine.registry import GAMES, get_game

FORMAT = "unmask-session/1"
MODES = ("play", "assist")


class SessionError(ValueError):
    """A session that cannot be read; the message is one line a user can act on."""


@dataclass
class Session:
    """One saved game or assisted table. ``log`` holds ``[seat, action]`` pairs in play mode."""

    game: str
    mode: str = "play"
    config: dict = field(default_factory=dict)
    seed: int | None = None
    log: list = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        d: dict[str, Any] = {"format": FORMAT, "game": self.game, "mode": self.mode, "config": self.config}
        if self.seed is not None:
            d["seed"] = self.seed
        if self.seats:
            d["seats"] = self.seats
        d["log"] = self.log
        d.update(self.extra)
        return d

    @classmethod
    def from_json(cls, data: Any) -> Session:
        if not isinstance(data, dict):
            raise SessionError("This is not an unmask session (expected a JSON object).")
        fmt = data.get("format")
        if fmt != FORMAT:
            version = fmt.removeprefix("unmask-session/") if isinstance(fmt, str) else ""
            if version.isdigit() and int(version) > 1:
                raise SessionError(f"This session was written by a newer unmask ({fmt}); this one reads {FORMAT}.")
            raise SessionError(f"This is not an unmask session (format is {fmt!r}, expected {FORMAT!r}).")
        game = data.get("game")
        if not isinstance(game, str) or game not in GAMES:
            raise SessionError(f"This session is for an unknown game {game!r}.")
        mode = data.get("mode", "play")
        if mode not in MODES:
            raise SessionError(f"Unknown session mode {mode!r}; expected play or assist.")
        config = data.get("config", {})
        if not isinstance(config, dict):
            raise SessionError("The session's config must be a JSON object.")
        seed = data.get("seed")
        if mode == "play" and not isinstance(seed, int):
            raise SessionError("A play session needs an integer seed.")
        log = data.get("log", [])
        if not isinstance(log, list):
            raise SessionError("The session's log must be a list.")
        seats = data.get("seats", [])
        if not isinstance(seats, list) or not all(isinstance(x, str) for x in seats):
            raise SessionError("The session's seats must be a list of names.")
        known = {"format", "game", "mode", "config", "seed", "log", "seats"}
        extra = {k: v for k, v in data.items() if k not in known}
        return cls(game=game, mode=mode, config=config, seed=seed, log=log, seats=seats, extra=extra)

    def replay(self, upto: int | None = None) -> Any:
        """Rebuild the state of a play session from its seed and log (optionally a prefix)."""
        *_, (_i, _seat, _action, state) = self.walk(upto)
        return state

    def walk(self, upto: int | None = None) -> Iterator[tuple[int | None, int | None, Any, Any]]:
        """The deal, then the state after each logged action: ``(i, seat, action, state)``, ``i`` None for
        the deal. One walk serves the resume (its last state) and the replay (every state)."""
        if self.mode != "play":
            raise SessionError("Only play sessions replay into a game state.")
        spec = get_game(self.game)
        try:
            config = spec.config_from_json(self.config)
        except (TypeError, ValueError) as e:
            raise SessionError(f"The session's config is not valid: {e}") from None
        if self.seed is None:
            raise SessionError("A play session needs an integer seed.")
        state = spec.new_game(config, self.seed)
        yield None, None, None, state
        entries = self.log if upto is None else self.log[:upto]
        for i, entry in enumerate(entries):
            try:
                seat, raw = entry
                action = spec.action_from_json(raw)
            except (TypeError, ValueError):
                raise SessionError(f"Log entry {i} is not a [seat, action] pair.") from None
            if spec.to_act(state) != seat:
                raise SessionError(f"Log entry {i} is by seat {seat}, but it was not their turn.")
            try:
                state = spec.apply(state, action)
            except IllegalAction as e:
                raise SessionError(f"Log entry {i} is not a legal move: {e}") from None
            yield i, seat, action, state
