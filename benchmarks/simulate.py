"""Benchmark: games per second of ``unmask simulate`` in this process, on 2 processes and on a local Ray cluster.

For each game (4 players, the default bots of ``unmask simulate``: every seat the same bot), the
same ``--games`` games are played three ways and timed on the wall clock: ``--workers 1``,
``--workers 2`` (the pool's start inside the clock, as a user pays it), and as tasks of a local Ray
cluster (``ray.init(num_cpus=2)``, started before the clock and timed apart; skipped without Ray).
Each cell is the best of ``--repeat`` runs (the machine is shared: the best run is the one least
slowed by others). Checks that every ``--json`` record is byte-identical. Prints figures only.

Usage: ``python benchmarks/simulate.py [--games N] [--repeat R] [--seed S] [--no-ray]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import GAMES, get_game
from solvers.runners import ProcessRunner, Runner, SerialRunner
from solvers.simulate import simulate
from tui.cli import _default_bot


def _time(game: str, config: object, bots: list[str], games: int, seed: int, make) -> tuple[float, str]:
    """Wall seconds of one run (the runner's start and close inside the clock) and its JSON."""
    t0 = time.perf_counter()
    runner = make()
    try:
        res = simulate(game, config, bots, games, seed, runner=runner)
    finally:
        runner.close()
    return time.perf_counter() - t0, json.dumps(res.to_json())


def _best(game: str, config: object, bots: list[str], args: argparse.Namespace, make, wants: dict) -> str:
    """The best games/s of ``args.repeat`` runs, flagged if any run's JSON differs from the first."""
    best = 0.0
    same = ""
    for _ in range(args.repeat):
        dt, got = _time(game, config, bots, args.games, args.seed, make)
        wants.setdefault(game, got)
        same = same or ("" if got == wants[game] else " (DIFFERENT JSON)")
        best = max(best, args.games / dt)
    return f"{best:7.2f} games/s{same}"


class _Kept:
    """A started Ray runner handed to :func:`_time` again and again (closed once, at the end)."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    def __call__(self) -> _Kept:
        return self

    def map(self, fn, jobs):  # type: ignore[no-untyped-def]
        return self.runner.map(fn, jobs)

    @property
    def width(self) -> int:
        return self.runner.width

    def close(self) -> None:
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray column")
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; {args.games} games each")
    rows: dict[str, list[str]] = {}
    wants: dict[str, str] = {}
    setups = {}
    for game in GAMES:
        config = get_game(game).config_from_json({"players": 4})
        bots = [_default_bot(game)] * 4
        setups[game] = (config, bots)
        simulate(game, config, bots, 1, args.seed + 1)  # imports and caches warm, outside the clock
        # Processes first: with no other thread here the pool forks (as the command does); Ray's threads,
        # once it runs, would make it use a fork server.
        for name, make in (("1 process", SerialRunner), ("2 processes", lambda: ProcessRunner(2))):
            rows.setdefault(game, []).append(f"{name} {_best(game, config, bots, args, make, wants)}")
    if not args.no_ray:
        try:
            from solvers.runners import RayRunner

            t0 = time.perf_counter()
            kept = _Kept(RayRunner("local", cpus=2))
            print(f"Ray local cluster (2 CPUs) started in {time.perf_counter() - t0:.1f} s (not in the figures)")
            for game, (config, bots) in setups.items():
                rows[game].append(f"Ray local (2 CPUs) {_best(game, config, bots, args, kept, wants)}")
            kept.runner.close()
        except ModuleNotFoundError:
            print("Ray is not installed: its column is skipped (pip install -e '.[ray]').")
    for game, cells in rows.items():
        print(f"{game:10s} {setups[game][1][0]:9s} " + " | ".join(cells), flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
