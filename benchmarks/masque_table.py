"""Masque table model figures: how long the exact belief over the Rumor hands takes, and how often it
stays exact.

Positions (every seat of each game, notes written by ``log_from_events(..., table=True)``):

* ``random``: 30 games of uniformly random legal actions (4-7 players, every fifth with the harder
  variant) at the planning step, the positions of ``benchmarks/masque.py``'s "solve with the table";
* ``bots``: games 2000-2099 of heuristic/random bots stopped at a random round, the positions of the
  table soundness soak (``tests/solvers/test_masque_table.py``); ``--bots N`` games (0: skip).

For each: the CPU time of a full ``solve()`` with the table on (median, p95, worst), the largest
belief (states) and the share of seats over ``MAX_STATES`` (not exact). Times are CPU seconds of this
process (``time.process_time``), so a busy shared machine does not distort them much.

Run: ``python benchmarks/masque_table.py [--bots 100] [--profile]``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Rng, derive_seed
from engine.masque import MasqueConfig, apply, legal_actions, new_game, view
from engine.masque.game import MOVE, PLAN
from solvers.masque.observations import log_from_events
from solvers.masque.solver import solve
from solvers.table import Table


def random_positions(games: int = 30) -> list[tuple[dict, list[dict]]]:
    """Every seat of ``games`` uniformly random games at the planning step."""
    out = []
    for g in range(games):
        s = new_game(MasqueConfig(players=4 + g % 4, harder=g % 5 == 4), g)
        r = Rng(g)
        while s.phase != PLAN:
            s = apply(s, r.choice(legal_actions(s)))
        for seat in range(s.config.players):
            out.append(log_from_events(view(s, seat)["events"], seat, table=True))
    return out


def bot_positions(games: range) -> list[tuple[dict, list[dict]]]:
    """Every seat of the table soundness test's bot games (stopped at a random round)."""
    out = []
    for g in games:
        rng = Rng(derive_seed(99, g))
        players = 4 + g % 4
        seats = ["heuristic" if (derive_seed(5, g) + i) % 3 else "random" for i in range(players)]
        t = Table("masque", MasqueConfig(players=players, harder=g % 5 == 4), derive_seed(5, g), seats)
        stop = 4 + rng.below(9)
        while not t.is_over():
            s = t.state
            if (s.phase == MOVE and s.round >= stop) or s.phase == PLAN:
                break
            t.step_bot()
        for seat in range(players):
            out.append(log_from_events(view(t.state, seat)["events"], seat, table=True))
    return out


def measure(label: str, positions: list[tuple[dict, list[dict]]]) -> None:
    times, sizes, over = [], [], 0
    for config, log in positions:
        t0 = time.process_time()
        out = solve(config, log)
        times.append(time.process_time() - t0)
        table = out["table"]
        sizes.append(table.get("states", 0))
        over += not table["exact"]
    times.sort()
    n = len(times)
    print(f"{label}: {n} solves, median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {times[min(n - 1, int(0.95 * n))] * 1000:.1f} ms, worst {times[-1] * 1000:.1f} ms; "
          f"largest belief {max(sizes)} states; over the limit {over} of {n} ({over / n:.1%})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bots", type=int, default=100, help="bot games from 2000 (0: skip)")
    ap.add_argument("--profile", action="store_true", help="print the 25 costliest functions")
    args = ap.parse_args()
    prof = cProfile.Profile() if args.profile else None
    sets = [("random games at the planning step", random_positions())]
    if args.bots:
        sets.append((f"bot games 2000-{1999 + args.bots}", bot_positions(range(2000, 2000 + args.bots))))
    for label, positions in sets:
        if prof:
            prof.enable()
        measure(label, positions)
        if prof:
            prof.disable()
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
