"""Benchmark: the replay's "Why this move?" (issue 25): seconds to rebuild the strong bot's reasons.

Plays ``--games`` seeded 4-player Tokyo Ghoul games with two strong seats (seeds from ``--seed``),
and times ``solvers.reasons.explain`` at every step where a strong seat searched: a fresh bot shown
the view before that step searches again. CPU time of the process (``--wall`` for the wall clock).

Usage: ``python benchmarks/reasons.py [--games N] [--seed S] [--wall]``.
Prints the steps explained, the median and worst seconds per step, and how many rebuilt choices
matched the logged move (all of them, or the replay would say "not available").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.replay import replay_steps
from solvers.reasons import explain, may_explain
from solvers.table import Table

SEATS = ["strong", "random", "heuristic", "strong"]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--wall", action="store_true", help="time the wall clock, not the process's CPU time")
    args = ap.parse_args(argv)
    clock = time.perf_counter if args.wall else time.process_time
    times: list[float] = []
    matched = 0
    for g in range(args.games):
        table = Table("ghoul", {"players": 4}, args.seed + g, SEATS)
        table.run_bots()
        replay = replay_steps(table.to_session())
        for k in range(1, len(replay)):
            if not may_explain(replay, k):
                continue
            start = clock()
            why = explain(replay, k)
            times.append(clock() - start)
            matched += why is not None
    print(f"steps explained {len(times)}, seconds per step median {statistics.median(times):.3f} / "
          f"worst {max(times):.3f}, rebuilt choice = logged move {matched} of {len(times)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
