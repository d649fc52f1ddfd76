"""Our bots against OpenSpiel's ISMCTS, on the OpenSpiel form of a game.

Seats named ``ismcts`` (worlds from the seat's solver posterior) or ``ismcts-uniform``
(uniform worlds) are OpenSpiel's Python ``ISMCTSBot`` with random-rollout leaves; any other
name is one of our bots, which sees only its seat's view, as at a :class:`solvers.table.Table`.
Chance outcomes come from an RNG seeded per game, so a game replays exactly.
:func:`solvers.simulate.simulate` and :func:`solvers.duel.duel` play these games through
:func:`play_one` (seats rotated, on any runner). Imports ``pyspiel``.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from engine.core import Rng, derive_seed
from solvers.bots import make_bot
from solvers.openspiel.games import load, table_for
from solvers.openspiel.resample import RESAMPLED, NoResampler, Resampler

ISMCTS_BOTS = {"ismcts": "exact", "ismcts-uniform": "uniform"}
# ISMCTSBot's first simulation only expands the root (no child is visited) and one simulation fails
# its assertion; with at most (legal actions + 1) every visited child has one visit and the move is
# uniform among them.
MIN_SIMS = 2
ISMCTS_HELP = {
    "ismcts": "OpenSpiel's ISMCTS; worlds drawn from the seat's solver posterior (the strong bot's belief)",
    "ismcts-uniform": "OpenSpiel's ISMCTS; worlds dealt uniformly within what the seat knows for certain",
}


def is_ismcts(kind: str) -> bool:
    return kind in ISMCTS_BOTS


def check_game(game_id: str) -> None:
    """NoResampler with a sentence if ISMCTS cannot play ``game_id`` yet."""
    if game_id not in RESAMPLED:
        raise NoResampler(f"ISMCTS needs a resampler, built so far for: {', '.join(RESAMPLED)}.")


class _IsmctsSeat:
    """ISMCTSBot with random-rollout leaves; the rollouts draw from their own RNG (not the search's),
    so a cap on their length changes their values and time, never the search's other draws."""

    def __init__(self, game: Any, mode: str, seed: int, sims: int, rollout_cap: int | None = None) -> None:
        if sims < MIN_SIMS:
            raise ValueError(f"ISMCTS needs at least {MIN_SIMS} simulations per move, not {sims}.")
        if rollout_cap is not None and rollout_cap < 1:
            raise ValueError(f"A rollout cap is at least 1 step, not {rollout_cap}.")
        rs = np.random.RandomState(derive_seed(seed, "ismcts") & 0xFFFFFFFF)
        # max_length counts chance steps too; a rollout stopped there is valued as returns() of an
        # unfinished game: 0 for every seat, as at the length cap.
        evaluator = mcts.RandomRolloutEvaluator(
            1, np.random.RandomState(derive_seed(seed, "rollout") & 0xFFFFFFFF), max_length=rollout_cap)
        self.bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=sims, random_state=rs,
                                    allow_inconsistent_action_sets=True)
        self.bot.set_resampler(Resampler(mode, seed))

    def act(self, state: Any) -> int:
        return int(self.bot.step(state))


class _OurSeat:
    def __init__(self, game_id: str, kind: str, seat: int, seed: int) -> None:
        self.bot = make_bot(game_id, kind, seat=seat, seed=seed)
        self.seat = seat

    def act(self, state: Any) -> int:
        w = state.world()
        v = w.spec.view(w.state, self.seat, getattr(self.bot, "since", 0))
        return table_for(w.spec.id, w.config).id_of(tuple(self.bot.choose(v)))


def play_one(game_id: str, config: Any, seats: list[str], seed: int, sims: int,
             clock: dict[str, list[float]] | None = None,
             rollout_cap: int | None = None) -> tuple[list[int], str, int]:
    """One game; returns (winners, ending reason, decisions). ``clock[kind]`` gains seconds and moves.

    ``rollout_cap``: ISMCTS's random rollouts stop after that many steps (chance steps included),
    valued 0 for every seat; None plays them to the end."""
    game = load(game_id, config.players, _extra(config))
    players: list[Any] = []
    for i, kind in enumerate(seats):
        s = derive_seed(seed, "bot", i, kind)
        players.append(_IsmctsSeat(game, ISMCTS_BOTS[kind], s, sims, rollout_cap) if is_ismcts(kind)
                       else _OurSeat(game_id, kind, i, s))
    chance = Rng(derive_seed(seed, "chance"))
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance.below(len(state.chance_outcomes())))
            continue
        seat = state.current_player()
        t0 = time.process_time()
        a = players[seat].act(state)
        if clock is not None:
            c = clock.setdefault(seats[seat], [0.0, 0])
            c[0] += time.process_time() - t0
            c[1] += 1
        state.apply_action(a)
        moves += 1
    w = state.world()
    res = w.spec.result(w.state) if w.is_over() else None
    reason = res["reason"] if res else "length cap"
    return (w.winners() if res else []), reason, moves


def _extra(config: Any) -> dict:
    d = dict(config.to_json())
    d.pop("players", None)
    return d

