"""A bot's reasons on request (issue 25): in a replay, why the strong bot made the move it made.

Why: after a game players ask why a bot did something. Where the strong bot scores its options
(Tokyo Ghoul's: each candidate's win rate over sampled worlds), a fresh bot of the same kind and
seed, shown the seat's view just before that step, runs the same search and so makes the same
choice; its scores are the reasons. The rebuilt choice is checked against the logged move: if they
differ the reasons are "not available", never numbers for a move the bot did not make.
Games whose strong bot decides by rules or by a table not per move (Clue, Mascarade, Masque) have
no reasons here: a made-up number would mislead.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import derive_seed
from engine.replay import Replay
from solvers.bots import make_bot

# The (game, bot kind)s whose bot answers ``scored_choice(view)``; what their values are.
SCORED = {("ghoul", "strong"): "chance to win"}


@dataclass(frozen=True)
class Reason:
    """The move the bot made and its value; the best other move and its value (None: no other)."""

    seat: int
    action: tuple
    value: float
    alternative: tuple | None
    alt_value: float | None
    measure: str


def _bot_kind(replay: Replay, k: int) -> str | None:
    step = replay.steps[k] if 0 < k < len(replay) else None
    seats = replay.session.seats
    if step is None or step.seat is None or step.seat >= len(seats):
        return None
    return seats[step.seat]


def may_explain(replay: Replay, k: int) -> bool:
    """Whether step ``k`` was a move by a bot that scores its moves, at a point where it searched.

    Cheap (no search): the seat is a scoring bot, the phase is one it searches and it had a choice.
    """
    kind = _bot_kind(replay, k)
    if kind is None or (replay.game, kind) not in SCORED:
        return False
    step = replay.steps[k]
    view = replay.spec.view(replay.steps[k - 1].state, step.seat, 0)
    bot = make_bot(replay.game, kind, seat=step.seat, seed=derive_seed(replay.session.seed, "bot", step.seat, kind))
    searches = getattr(bot, "searches", None)
    return bool(searches(view)) if searches is not None else False


def explain(replay: Replay, k: int) -> Reason | None:
    """The reasons for step ``k``'s move, recomputed; None when not available (no values, or the
    rebuilt bot would not make the logged move)."""
    if not may_explain(replay, k):
        return None
    kind = _bot_kind(replay, k)
    step = replay.steps[k]
    seat = step.seat
    assert kind is not None and seat is not None and step.action is not None
    bot = make_bot(replay.game, kind, seat=seat, seed=derive_seed(replay.session.seed, "bot", seat, kind))
    view = replay.spec.view(replay.steps[k - 1].state, seat, 0)
    scored = bot.scored_choice(view)  # type: ignore[attr-defined]
    if scored is None:
        return None
    choice, options = scored
    if tuple(choice) != tuple(step.action):
        return None
    value = next(v for a, v in options if a == choice)
    others = sorted(((v, a) for a, v in options if a != choice), key=lambda x: -x[0])
    alt_value, alt = others[0] if others else (None, None)
    return Reason(seat, tuple(choice), float(value), alt, None if alt_value is None else float(alt_value),
                  SCORED[(replay.game, kind)])
