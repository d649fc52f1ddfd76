"""Benchmark: the belief series of a replay (issue 25), per game: a whole seat's series, and its first points.

Plays ``--games`` seeded bots-only games of each game (the tables of ``examples/finished_games.py``,
seeds from ``--seed``), and for every seat of each times ``solvers.beliefs.belief_series`` from the
replay of the finished game: the whole series (what the chart waits for), and the moment its first
10 points were known (what the chart first draws). CPU time of the process (``--wall`` for the
wall clock), so a shared machine disturbs it less.

Usage: ``python benchmarks/beliefs.py [--games N] [--seed S] [--wall]``.
Prints, per game, the median and worst seconds per whole series, the median and worst seconds to
the first 10 points, and the steps per game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.replay import replay_steps
from solvers.beliefs import belief_series
from solvers.table import Table

TABLES = {
    "clue": ({"board": "red-keep", "players": 4}, ["notes", "random", "notes", "random"]),
    "mascarade": ({"players": 5}, ["honest", "random", "honest", "random", "honest"]),
    "masque": ({"players": 4}, ["heuristic", "random", "heuristic", "random"]),
    "ghoul": ({"players": 5}, ["heuristic", "random", "heuristic", "random", "heuristic"]),
}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per game."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--wall", action="store_true", help="time the wall clock, not the process's CPU time")
    args = ap.parse_args(argv)
    clock = time.perf_counter if args.wall else time.process_time
    print(f"{'game':<10} {'series':>7} {'whole s (median / worst)':>25} {'first 10 s (median / worst)':>28} "
          f"{'steps':>6}")
    for game, (config, seats) in TABLES.items():
        whole, first, steps = [], [], []
        for g in range(args.games):
            table = Table(game, config, args.seed + g, seats)
            table.run_bots()
            replay = replay_steps(table.to_session())
            steps.append(len(replay) - 1)
            for seat in range(replay.players):
                start = clock()
                marks: list[float] = []

                def on_point(_p: object, marks: list[float] = marks, start: float = start) -> None:
                    if len(marks) < 10:
                        marks.append(clock() - start)

                belief_series(replay, seat, on_point=on_point)
                whole.append(clock() - start)
                first.append(marks[-1])
        print(f"{game:<10} {len(whole):>7} {statistics.median(whole):>13.2f} / {max(whole):<9.2f} "
              f"{statistics.median(first):>15.3f} / {max(first):<10.3f} {statistics.median(steps):>6.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
