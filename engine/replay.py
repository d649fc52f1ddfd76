"""A finished game, step by step: the state after every action of a saved play session.

Why: a replay shows each moment of a game exactly as it was, every hidden card included. The
engine already replays a session from ``(config, seed, actions)``; this keeps every state on the
way (copies are cheap: states are immutable and share their tuples) and the log entries each
action added, so a screen can say what changed. Pure: no I/O, no UI, nothing of the solvers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.registry import get_game
from engine.session import Session, SessionError


@dataclass(frozen=True)
class Step:
    """One moment of a replay: step 0 is the deal, step ``k`` the state after the ``k``-th action.

    ``events`` are the log entries (``(n, event, seats)``, ``n`` the log index) this step added:
    step 0 holds the deal's, each later step those of its action.
    """

    index: int
    seat: int | None
    action: tuple | None
    state: Any
    events: tuple[tuple[int, dict, tuple[int, ...] | None], ...]


class Replay:
    """Every state of one finished play session, in order (``steps[0]`` is the deal)."""

    def __init__(self, session: Session, steps: list[Step]) -> None:
        self.session = session
        self.game = session.game
        self.spec = get_game(session.game)
        self.steps = steps

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def final(self) -> Any:
        return self.steps[-1].state

    @property
    def players(self) -> int:
        return int(self.final.config.players)


def _entries(state: Any, start: int) -> tuple[tuple[int, dict, tuple[int, ...] | None], ...]:
    return tuple((start + i, ev, seats) for i, (ev, seats) in enumerate(state.log.entries(start)))


def replay_steps(session: Session, *, finished: bool = True) -> Replay:
    """Every state of ``session``; SessionError (one line a user can act on) for anything wrong.

    ``finished`` (the default) refuses a game that is not over: a replay shows every hidden card,
    so it must never open on a game still being played.
    """
    if session.mode != "play":
        raise SessionError("Only a played game can be replayed (these are table notes).")
    spec = get_game(session.game)
    steps: list[Step] = []
    state: Any = None
    for i, seat, action, after in session.walk():
        start = len(state.log) if state is not None else 0
        steps.append(Step(0 if i is None else i + 1, seat, action, after, _entries(after, start)))
        state = after
    if finished and not spec.is_over(state):
        raise SessionError("This game is not over yet: a replay opens only once a game has ended.")
    return Replay(session, steps)
