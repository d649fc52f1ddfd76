"""Benchmark: games per second of ``unmask duel``'s units, serial, on 2 processes and on a local Ray cluster.

For each game (4 players, ``strong`` against ``random``, seats alternating), the same ``--games``
units are played three ways and timed on the wall clock: in this process, on a 2-process pool,
and as tasks of a local Ray cluster (``ray.init(num_cpus=2)``, started before the clock; skipped
without Ray). Also checks that the three give the same results. Prints figures only.

Usage: ``python benchmarks/duel.py [--games N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import GAMES, get_game
from solvers.duel import play_unit
from solvers.runners import ProcessRunner, Runner, SerialRunner


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    runners: dict[str, Runner] = {"1 process": SerialRunner(), "2 processes": ProcessRunner(2)}
    try:
        from solvers.runners import RayRunner

        runners["Ray local (2 CPUs)"] = RayRunner("local", cpus=2)
    except ModuleNotFoundError:
        print("Ray is not installed: its column is skipped (pip install -e '.[ray]').")
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for game in GAMES:
        cfg = get_game(game).config_from_json({"players": 4}).to_json()
        jobs = [(game, cfg, "strong", "random", args.seed, k, False, 100) for k in range(args.games)]
        play_unit(jobs[0])  # imports and caches warm, outside the clock
        want = None
        cells = []
        for name, run in runners.items():
            t0 = time.perf_counter()
            got = list(run.map(play_unit, jobs))
            dt = time.perf_counter() - t0
            want = want or got
            same = "" if got == want else " (DIFFERENT RESULTS)"
            cells.append(f"{name} {len(jobs) / dt:6.2f} games/s{same}")
        print(f"{game:10s} " + " | ".join(cells), flush=True)
    for run in runners.values():
        run.close()


if __name__ == "__main__":
    main()
