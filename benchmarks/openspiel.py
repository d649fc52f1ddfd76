"""Benchmark: our games through OpenSpiel, and the ISMCTS yardstick.

``speed``: random games on the OpenSpiel form of each game (every draw a chance node): decisions
and chance nodes per game, and decisions per CPU second through ``pyspiel`` (state clones and
strings not included: what an algorithm pays per step).

``duel``: pairs of bots (``A:B``, default ``strong:ismcts`` and ``ismcts:ismcts-uniform``), played
game by game in turn on one game (``--game``, ``--players``, default 4), seats A,B,A,B rotating
every game; OpenSpiel's ISMCTS (``--sims`` simulations per move, random-rollout leaves) with
worlds from the seat's solver posterior (``ismcts``) or uniform (``ismcts-uniform``). Prints win
rates with 95% Wilson intervals and CPU per move after every round; stops at ``--games`` per pair
or after ``--seconds`` of wall time.

Usage: ``python benchmarks/openspiel.py speed [--games N]`` or
``python benchmarks/openspiel.py duel [A:B ...] [--game G] [--games N] [--sims K] [--seconds S]``.
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


def duel(game: str, players: int, pairs: list[tuple[str, str]], games: int, sims: int, seed: int,
         seconds: float) -> None:
    """Every pair of bots, game by game in turn, until ``games`` each or ``seconds`` of wall time."""
    config = get_game(game).config_from_json({"players": players})
    stats = {p: {"games": 0, "seats": {p[0]: 0, p[1]: 0}, "wins": {p[0]: 0, p[1]: 0}, "clock": {}, "reasons": {}}
             for p in pairs}
    t0 = time.perf_counter()
    print(f"{game} {players} players, seats A,B,A,B... rotating, ISMCTS {sims} sims/move, seed {seed}")
    g = 0
    while g < games and time.perf_counter() - t0 < seconds:
        for a, b in pairs:
            st = stats[(a, b)]
            bots = [a if i % 2 == 0 else b for i in range(players)]
            seats = [bots[(i + g) % players] for i in range(players)]
            winners, reason, _moves = play_one(game, config, seats, derive_seed(seed, "game", g), sims, st["clock"])
            st["games"] += 1
            st["reasons"][reason] = st["reasons"].get(reason, 0) + 1
            for k in seats:
                st["seats"][k] += 1
            for w in winners:
                st["wins"][seats[w]] += 1
        g += 1
        print(f"after {g} games per pair ({time.perf_counter() - t0:.0f} s wall):", flush=True)
        for (a, b), st in stats.items():
            for k in (a, b):
                lo, hi = wilson(st["wins"][k], st["seats"][k])
                c = st["clock"].get(k)
                ms = c[0] / c[1] * 1000 if c and c[1] else 0.0
                print(f"  {a} vs {b}: {k:15s} {st['wins'][k]:4d}/{st['seats'][k]:4d} seat-games won = "
                      f"{st['wins'][k] / st['seats'][k]:6.1%}  95% CI {lo:6.1%}-{hi:6.1%}  CPU/move {ms:7.1f} ms",
                      flush=True)
            print(f"  {a} vs {b}: endings {dict(sorted(st['reasons'].items()))}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["speed", "duel"])
    ap.add_argument("bots", nargs="*", default=["strong:ismcts", "ismcts:ismcts-uniform"],
                    help="pairs A:B, played game by game in turn")
    ap.add_argument("--game", default="mascarade", choices=sorted(GAMES))
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=float("inf"), help="stop after this much wall time")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--sims", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.what == "speed":
        speed(args.games)
    else:
        pairs = [tuple(p.split(":", 1)) for p in args.bots]
        duel(args.game, args.players, pairs, args.games, args.sims, args.seed, args.seconds)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
