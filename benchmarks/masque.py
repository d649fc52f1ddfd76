"""Masque of the Red Death figures: solver speed, random playouts, and bot strength.

Times are CPU seconds of this process (``time.process_time``), so a busy shared machine does not
distort them much; the strength run also prints its wall time.

* ``solve``: a full ``solve()`` (probabilities, certain facts, the best plan and the next four,
  the ask advice) on the observations of real seats at the end of round 12; median and p95.
* ``solve with the table``: the same solves with the table model on (every draw, look, take and gift
  between the nobles followed exactly); median, p95, max, and the largest belief (states).
* ``playouts``: uniformly random legal actions straight on the engine (``legal_actions`` +
  choice + ``apply``, which copies the state); steps per second.
* ``strength`` (``--games N``): ``strong`` against three ``heuristic`` bots in 4-player games, seats
  rotated and seeded exactly as ``solvers.simulate.simulate`` does; win and survival rates with
  95% Wilson intervals.

Run: ``python benchmarks/masque.py [--games 1000] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.core import Rng
from engine.masque import MasqueConfig, apply, is_over, legal_actions, new_game, view
from engine.masque.game import PLAN
from solvers.masque.observations import log_from_events
from solvers.masque.solver import solve
from solvers.masque.strength import strength


def solve_times(games: int = 30, table: bool = False, states: list[int] | None = None) -> list[float]:
    """Milliseconds per full solve, every seat of ``games`` random games at the planning step."""
    times = []
    for g in range(games):
        s = new_game(MasqueConfig(players=4 + g % 4, harder=g % 5 == 4), g)
        r = Rng(g)
        while s.phase != PLAN:
            s = apply(s, r.choice(legal_actions(s)))
        for seat in range(s.config.players):
            config, log = log_from_events(view(s, seat)["events"], seat, table=table)
            t0 = time.process_time()  # CPU time: the machine may be shared
            out = solve(config, log)
            times.append((time.process_time() - t0) * 1000)
            if states is not None and "table" in out:
                states.append(out["table"].get("states", 0))
    return times


def playouts(games: int = 300, seed: int = 1) -> tuple[int, float]:
    rng = Rng(seed)
    steps = 0
    t0 = time.process_time()
    for g in range(games):
        s = new_game(MasqueConfig(players=4 + g % 4), seed + g)
        while not is_over(s):
            s = apply(s, rng.choice(legal_actions(s)))
            steps += 1
    return steps, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=0, help="strong vs 3 heuristic games (0: skip)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    times = solve_times()
    times.sort()
    print(f"solve: {len(times)} solves, median {statistics.median(times):.2f} ms, "
          f"p95 {times[int(0.95 * len(times))]:.2f} ms, max {times[-1]:.2f} ms")
    sizes: list[int] = []
    times = sorted(solve_times(table=True, states=sizes))
    print(f"solve with the table: {len(times)} solves, median {statistics.median(times):.2f} ms, "
          f"p95 {times[int(0.95 * len(times))]:.2f} ms, max {times[-1]:.2f} ms; largest belief {max(sizes)} states, "
          f"{sizes.count(0)} not followed (over the bound)")
    rates = []
    for r in range(3):
        steps, secs = playouts(seed=1000 * r + 1)
        rates.append(steps / secs)
    print(f"playouts: median {statistics.median(rates):,.0f} steps/s over 3 runs of 300 games (4-7 players)")
    if args.games:
        t0 = time.perf_counter()
        res = strength({"players": 4}, ["strong", "heuristic", "heuristic", "heuristic"], args.games, args.seed)
        secs = time.perf_counter() - t0
        print(f"strength: {args.games} games, strong vs 3 heuristic, seed {args.seed}, {secs:.0f} s wall")
        for t in res.per_bot.values():
            d = t.to_json()
            wl, wh = d["win_ci95"]
            sl, sh = d["survival_ci95"]
            print(f"  {t.bot:9} seat-games {t.seat_games:5}  win {d['win_rate']:6.1%} [{wl:.1%}, {wh:.1%}]"
                  f"  survival {d['survival_rate']:6.1%} [{sl:.1%}, {sh:.1%}]")

if __name__ == "__main__":
    main()
