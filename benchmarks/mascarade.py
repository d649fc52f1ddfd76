"""Mascarade speed: belief updates (ms per observation) and random playouts (engine steps/s).

A belief update is one session-log entry that changes a seat's belief (a swap, a look, a Spy
look, a Princess showing, a reveal, a Puppeteer trade), fed to that seat's tracker. The logs
come from random-bot games, whose many hidden swaps make the largest supports. A playout step
is ``legal_actions`` + a uniformly random choice + ``apply`` (which copies the state).

Particle mode (``--particle-games N``): seat 0's notes of N seeded 12-player games where players
mostly swap-or-pretend, cut at 94 entries (the belief turns to particles), each solved with
``--particle-seeds`` seeds: CPU time per solve, the stated 95% error bound, and the largest
difference between two seeds' probabilities against the sum of their bounds (issue 21).

Run: ``python benchmarks/mascarade.py [--games N] [--playouts N] [--particle-games N]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.core import Rng
from engine.mascarade import Config, apply, is_over, legal_actions, new_game, view
from solvers.mascarade import Belief, Tracker, events_to_log, parse_config, solve
from solvers.mascarade.observations import ObservationLog

BELIEF_ENTRIES = {"swap", "look", "spy", "shown", "reveal", "puppeteer"}


def belief_updates(players: int, games: int, seed: int) -> tuple[list[float], int]:
    """Milliseconds per belief-changing entry, over every seat of ``games`` random games."""
    r = Rng(seed)
    times: list[float] = []
    biggest = 0
    for g in range(games):
        s = new_game(Config(players=players), seed + g)
        while not is_over(s):
            s = apply(s, r.choice(legal_actions(s)))
        for seat in range(players):
            config, log = events_to_log(view(s, seat)["events"], seat)
            tr = Tracker(parse_config(config))
            for i, e in enumerate(log):
                t0 = time.perf_counter()
                tr.add(e, i)
                dt = time.perf_counter() - t0
                if e["t"] in BELIEF_ENTRIES:
                    times.append(dt * 1000)
                biggest = max(biggest, tr.belief.size())
    return times, biggest


def saturated(players: int, swaps: int, seed: int) -> tuple[list[float], int]:
    """The worst case: hidden swaps only (nobody looks or reveals), until every layout is possible."""
    r = Rng(seed)
    cards = list(Config(players=players).mask_set())
    b = Belief(cards, cards)
    times = []
    for _ in range(swaps):
        a = r.below(len(cards))
        c = (a + 1 + r.below(len(cards) - 1)) % len(cards)
        t0 = time.perf_counter()
        b.swap(a, c)
        times.append((time.perf_counter() - t0) * 1000)
    return times, b.size()


def playouts(games: int, seed: int) -> tuple[int, float, float]:
    """Steps, wall seconds and CPU seconds of ``games`` random games (4 to 12 players)."""
    rng = Rng(seed)
    steps = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for g in range(games):
        s = new_game(Config(players=4 + g % 9), seed + g)
        while not is_over(s):
            s = apply(s, rng.choice(legal_actions(s)))
            steps += 1
    return steps, time.perf_counter() - t0, time.process_time() - c0


def swap_heavy_notes(game_seed: int, players: int = 12, entries: int = 94) -> tuple[dict, list]:
    """Seat 0's notes of a seeded game where players mostly swap-or-pretend, sometimes look."""
    s = new_game(Config(players=players), game_seed)
    rng = Rng(game_seed + 1)
    obs = ObservationLog(0)
    while not is_over(s) and len(obs.log) < entries:
        acts = legal_actions(s)
        swaps = [a for a in acts if a[0] == "swap"]
        looks = [a for a in acts if a[0] == "look"]
        if swaps and rng.random() < 0.85:
            act = rng.choice(swaps)
        elif looks and rng.random() < 0.6:
            act = looks[0]
        elif ("pass",) in acts and rng.random() < 0.8:
            act = ("pass",)
        else:
            act = rng.choice(acts)
        s = apply(s, act)
        obs.update(view(s, 0, obs.since)["events"])
    assert obs.config is not None
    return obs.config, obs.log[:entries]


def particle_bounds(games: int, seeds: int) -> None:
    """Print, per game, CPU time per solve, the stated bounds and the spread between seeds."""
    print("particle mode, 12 players, 94 entries (CPU s per solve; stated bound; largest difference between "
          "two seeds / the sum of their bounds)")
    for g in range(1, games + 1):
        config, log = swap_heavy_notes(g)
        runs, cpu = [], []
        for seed in range(seeds):
            t0 = time.process_time()
            runs.append(solve({**config, "seed": seed}, log, advice=False))
            cpu.append(time.process_time() - t0)
        if any(r["status"] != "ok" or r["exact"] for r in runs):
            print(f"  game {g}: exact or a contradiction (skipped)")
            continue
        worst = 0.0
        for i in range(seeds):
            for j in range(i + 1, seeds):
                a, b = runs[i], runs[j]
                diff = max(abs(p - b["probabilities"][pl][m]) for pl, ps in a["probabilities"].items()
                           for m, p in ps.items())
                worst = max(worst, diff / (a["error_bound"] + b["error_bound"]))
        bounds = [r["error_bound"] for r in runs]
        print(f"  game {g}: {statistics.median(cpu):.2f} s median ({max(cpu):.2f} worst); bound "
              f"{min(bounds):.3f}-{max(bounds):.3f}; worst difference / sum of bounds {worst:.2f} "
              f"({'covered' if worst <= 1 else 'NOT covered'})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20, help="random games per player count for the belief figures")
    ap.add_argument("--playouts", type=int, default=400, help="random games for the playout figure")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--particle-games", type=int, default=0, help="12-player games for the particle figures")
    ap.add_argument("--particle-seeds", type=int, default=4)
    args = ap.parse_args()
    if args.particle_games:
        particle_bounds(args.particle_games, args.particle_seeds)
        return
    print("belief updates (ms per entry)")
    print(f"{'players':>7} {'updates':>8} {'median':>7} {'p90':>7} {'max':>7} {'largest support':>16}")
    for players in range(4, 9):
        times, biggest = belief_updates(players, args.games, 100 * players)
        times.sort()
        p90 = times[int(0.9 * (len(times) - 1))]
        print(f"{players:>7} {len(times):>8} {statistics.median(times):>7.2f} {p90:>7.2f} {times[-1]:>7.1f} "
              f"{biggest:>16,}")
    print("worst case: 60 hidden swaps, no observation (ms per swap)")
    for players in range(4, 9):
        times, size = saturated(players, 60, players)
        print(f"{players:>7} {len(times):>8} {statistics.median(times):>7.2f} "
              f"{sorted(times)[int(0.9 * (len(times) - 1))]:>7.2f} {max(times):>7.1f} {size:>16,}")
    rates, cpu_rates = [], []
    for rep in range(args.repeats):
        steps, secs, cpu = playouts(args.playouts, 1000 * rep)
        rates.append(steps / secs)
        cpu_rates.append(steps / cpu)
    print(f"random playouts (4-12 players): {statistics.median(rates):,.0f} steps/s wall clock, "
          f"{statistics.median(cpu_rates):,.0f} per CPU second (median of {args.repeats} runs of {args.playouts} games;"
          f" the wall figure drops when the machine is shared)")


if __name__ == "__main__":
    main()
