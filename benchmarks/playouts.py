"""Random Clue playouts: engine steps per second and games per second.

A step is ``legal_actions`` + a uniformly random choice + ``apply`` (which copies the state:
``apply`` never mutates its input). Run: ``python benchmarks/playouts.py [--games N]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.clue import ClueConfig, apply, is_over, legal_actions, new_game
from engine.core import Rng


def run(games: int, players: int, board: str, seed: int) -> tuple[int, float]:
    rng = Rng(seed)
    steps = 0
    t0 = time.perf_counter()
    for g in range(games):
        s = new_game(ClueConfig(board=board, players=players), seed + g)
        while not is_over(s):
            s = apply(s, rng.choice(legal_actions(s)))
            steps += 1
    return steps, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(f"{'board':9} {'players':>7} {'games':>6} {'steps':>8} {'steps/s':>9} {'games/s':>8}")
    all_rates = []
    for board in ("red-keep", "meereen"):
        for players in (3, 4, 6):
            rates, grates, steps = [], [], 0
            for r in range(args.repeats):
                steps, secs = run(args.games, players, board, 1000 * r)
                rates.append(steps / secs)
                grates.append(args.games / secs)
            all_rates.extend(rates)
            print(f"{board:9} {players:>7} {args.games:>6} {steps:>8} {statistics.median(rates):>9,.0f} "
                  f"{statistics.median(grates):>8,.0f}")
    print(f"median over all runs: {statistics.median(all_rates):,.0f} steps/s")


if __name__ == "__main__":
    main()
