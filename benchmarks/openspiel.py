"""Benchmark: our games through OpenSpiel, and the ISMCTS yardstick.

``speed``: random games on the OpenSpiel form of each game (every draw a chance node): decisions
and chance nodes per game, and decisions per CPU second through ``pyspiel`` (state clones and
strings not included: what an algorithm pays per step).

``duel``: Mascarade with 4 players, two seats of each bot (seats rotate every game), OpenSpiel's
ISMCTS (``--sims`` simulations per move, random-rollout leaves) with worlds from the strong bot's
belief (``ismcts``) or uniform (``ismcts-uniform``). Prints win rates with 95% Wilson intervals
and CPU per move.

Usage: ``python benchmarks/openspiel.py speed [--games N]`` or
``python benchmarks/openspiel.py duel A B [--games N] [--sims K] [--seed S]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import Rng, derive_seed
from engine.registry import GAMES, get_game
from solvers.openspiel.arena import play_one
from solvers.openspiel.games import load
from solvers.simulate import wilson


def speed(games: int) -> None:
    for gid in GAMES:
        g = load(gid)
        r = Rng(1)
        dec = ch = 0
        t0 = time.process_time()
        for _ in range(games):
            s = g.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(r.below(len(s.chance_outcomes())))
                    ch += 1
                else:
                    la = s.legal_actions()
                    s.apply_action(la[r.below(len(la))])
                    dec += 1
        dt = time.process_time() - t0
        print(f"{gid:10s} {g.num_players()} players: {dec / games:7.0f} decisions, {ch / games:5.0f} chance nodes "
              f"per game; {dec / dt:7.0f} decisions/s, {games / dt:6.2f} games/s (CPU)")


def duel(a: str, b: str, games: int, sims: int, seed: int) -> None:
    config = get_game("mascarade").config_from_json({"players": 4})
    bots = [a, b, a, b]
    seat_games = {a: 0, b: 0}
    wins = {a: 0, b: 0}
    clock: dict[str, list[float]] = {}
    reasons: dict[str, int] = {}
    t0 = time.perf_counter()
    print(f"mascarade 4 players, seats {a},{b},{a},{b} rotating, ISMCTS {sims} sims/move, seed {seed}")
    for g in range(games):
        seats = [bots[(i + g) % 4] for i in range(4)]
        winners, reason, _moves = play_one("mascarade", config, seats, derive_seed(seed, "game", g), sims, clock)
        reasons[reason] = reasons.get(reason, 0) + 1
        for k in seats:
            seat_games[k] += 1
        for w in winners:
            wins[seats[w]] += 1
        if (g + 1) % 10 == 0 or g + 1 == games:
            print(f"after {g + 1} games ({time.perf_counter() - t0:.0f} s wall):", flush=True)
            for k in (a, b):
                lo, hi = wilson(wins[k], seat_games[k])
                ms = clock[k][0] / clock[k][1] * 1000 if clock.get(k) and clock[k][1] else 0.0
                print(f"  {k:15s} {wins[k]:4d}/{seat_games[k]:4d} seat-games won = {wins[k] / seat_games[k]:6.1%}"
                      f"  95% CI {lo:6.1%}-{hi:6.1%}  CPU/move {ms:7.1f} ms", flush=True)
            print(f"  endings {dict(sorted(reasons.items()))}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["speed", "duel"])
    ap.add_argument("bots", nargs="*", default=["strong", "ismcts"])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--sims", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.what == "speed":
        speed(args.games)
    else:
        duel(args.bots[0], args.bots[1], args.games, args.sims, args.seed)


if __name__ == "__main__":
    main()
