"""Mascarade speed: belief updates (ms per observation) and random playouts (engine steps/s).

A belief update is one session-log entry that changes a seat's belief (a swap, a look, a Spy
look, a Princess showing, a reveal, a Puppeteer trade), fed to that seat's tracker. The logs
come from random-bot games, whose many hidden swaps make the largest supports. A playout step
is ``legal_actions`` + a uniformly random choice + ``apply`` (which copies the state).

Run: ``python benchmarks/mascarade.py [--games N] [--playouts N]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.core import Rng
from engine.mascarade import Config, apply, is_over, legal_actions, new_game, view
from solvers.mascarade import Belief, Tracker, events_to_log, parse_config

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20, help="random games per player count for the belief figures")
    ap.add_argument("--playouts", type=int, default=400, help="random games for the playout figure")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
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
