"""Benchmark: the Clue play sheet's "solver's help" (Settings) on real play views.

Bot-only games (notes bots, Red Keep, 3 to 6 players); every ``--every`` engine steps seat 0's view
is turned into the notes a person would keep (``ObservationLog``) and solved exactly, as the play
screen's worker does after each change while the help is on. Prints median, p90 and worst
milliseconds per player count.

Usage: ``python benchmarks/clue_sheet_help.py [--games N] [--every K] [--seed S]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.clue import ClueConfig
from solvers.clue.observations import ObservationLog
from solvers.clue.solver import solve
from solvers.table import Table


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per player count."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5, help="games per player count")
    ap.add_argument("--every", type=int, default=10, help="engine steps between two timed views")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    for players in (3, 4, 5, 6):
        times = []
        for g in range(args.games):
            table = Table("clue", ClueConfig(board="red-keep", players=players), args.seed + g, ["notes"] * players)
            steps = 0
            while not table.is_over() and steps < 3000:
                table.step_bot()
                steps += 1
                if steps % args.every == 0:
                    view = table.view(0)
                    start = time.perf_counter()
                    obs = ObservationLog.from_view(view)
                    solve(obs.config or {}, obs.entries())
                    times.append((time.perf_counter() - start) * 1000)
        times.sort()
        print(f"{players} players: {len(times)} views, median {statistics.median(times):.1f} ms, "
              f"p90 {times[int(len(times) * 0.9)]:.1f} ms, worst {times[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
