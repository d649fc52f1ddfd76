"""Benchmark: full exact recompute of the Clue solver on random consistent logs.

Each case simulates a true random deal (Red Keep 6/6/11 or Meereen 6/6/9 deck, 3 to 6 players,
equal hands with face-up leftovers), then a log of 0 to 60 entries (my hand, the face-up cards,
random rumors with correct passes and shows, occasional reveals and wrong accusations), and times
``solve(config, log)`` in-process: every card x holder probability and every certain fact.

With ``--advice`` the exact rumor advice is included: every rumor of every location, or with
``--reach K`` the rumors of K random locations (what a player can reach this turn).

With ``--cpu`` each case is timed by the CPU time of the process (``time.process_time``) instead of
the wall clock, which is steadier on a shared machine.

With ``--against DIR`` (another source tree of unmask, e.g. ``git archive <commit> | tar -x -C DIR``)
both trees' ``solve()`` (no advice: the envelope and every marginal) run in this one process on the
same cases, interleaved case by case and repeat by repeat (``--repeats``, the least CPU time of each
kept), so the machine's load touches both alike; it prints both medians, their ratio, and whether
every answer is the same.  Red Keep decks only with ``--red-keep`` (the public counter's deck size).

Usage: ``python benchmarks/clue_solver.py [--cases N] [--seed S] [--advice] [--reach K] [--refuter] [--top K] [--cpu]
[--against DIR [--repeats R] [--red-keep]]``.
Prints median, p90 and worst milliseconds and the number of cases.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.clue.simulate import MEEREEN, RED_KEEP, random_game
from solvers.clue.solver import solve


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a summary line (plus the slowest cases with --top)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--advice", action="store_true", help="also compute rumor advice")
    ap.add_argument("--reach", type=int, default=0, help="advice for K random locations only (0: all)")
    ap.add_argument("--refuter", action="store_true", help="use the refuter model")
    ap.add_argument("--top", type=int, default=0, help="show the K slowest cases")
    ap.add_argument("--cpu", action="store_true", help="time CPU time of the process (time.process_time), not wall")
    ap.add_argument("--against", default="", help="another unmask source tree: time both, interleaved")
    ap.add_argument("--repeats", type=int, default=15, help="with --against: repeats per case (least CPU kept)")
    ap.add_argument("--red-keep", action="store_true", help="Red Keep decks only")
    args = ap.parse_args(argv)
    if args.against:
        return against(args)

    clock = time.process_time if args.cpu else time.perf_counter
    rng = random.Random(args.seed)
    times: list[tuple[float, str]] = []
    for case in range(args.cases):
        deck_name, deck = rng.choice([("red_keep", RED_KEEP), ("meereen", MEEREEN)])
        nplayers = rng.randint(3, 6)
        n_entries = rng.randint(0, 60)
        game = random_game(rng, deck, nplayers, n_entries, me=rng.randrange(nplayers))
        reach = rng.sample(list(deck["locations"]), args.reach) if args.reach else None
        t0 = clock()
        sol = solve(game.config, game.log, refuter_model=args.refuter, advice=args.advice, advice_locations=reach)
        ms = (clock() - t0) * 1000
        if sol.status != "ok":
            raise SystemExit(f"case {case}: consistent log reported as {sol.status}")
        times.append((ms, f"case={case} deck={deck_name} players={nplayers} entries={n_entries}"))
    ms_sorted = sorted(t for t, _ in times)
    median = statistics.median(ms_sorted)
    p90 = ms_sorted[min(len(ms_sorted) - 1, int(0.9 * len(ms_sorted)))]
    clock_name = "cpu" if args.cpu else "wall"
    print(f"clock={clock_name} cases={len(times)} median={median:.2f}ms p90={p90:.2f}ms worst={ms_sorted[-1]:.2f}ms")
    for ms, label in sorted(times, reverse=True)[: args.top]:
        print(f"  {ms:8.2f}ms  {label}")
    return 0


def _load_solver(root: str) -> object:
    """``solvers.clue.solver`` of the tree at ``root`` (our modules dropped first, so both trees'
    functions live side by side in this process, each with its own module globals)."""
    for name in [m for m in sys.modules if m.split(".")[0] in ("solvers", "engine")]:
        del sys.modules[name]
    sys.path.insert(0, root)
    try:
        return importlib.import_module("solvers.clue.solver")
    finally:
        sys.path.remove(root)


def against(args: argparse.Namespace) -> int:
    """This tree's solve against another tree's on the same cases (see the module docstring)."""
    rng = random.Random(args.seed)
    cases = []
    for _ in range(args.cases):
        deck = RED_KEEP if args.red_keep else rng.choice([RED_KEEP, MEEREEN])
        nplayers = rng.randint(3, 6)
        game = random_game(rng, deck, nplayers, rng.randint(0, 60), me=rng.randrange(nplayers))
        cases.append((game.config, game.log))
    here = str(Path(__file__).resolve().parents[1])
    other_mod, this_mod = _load_solver(args.against), _load_solver(here)
    other_t: list[float] = []
    this_t: list[float] = []
    same = 0
    clock = time.process_time
    for config, log in cases:
        best = [float("inf"), float("inf")]
        answers = []
        for _ in range(args.repeats):
            answers = []
            for k, mod in enumerate((other_mod, this_mod)):
                t0 = clock()
                sol = mod.solve(config, log, advice=False)  # type: ignore[attr-defined]
                best[k] = min(best[k], clock() - t0)
                answers.append(json.dumps(sol.to_json(), sort_keys=True, default=str))
        same += answers[0] == answers[1]
        other_t.append(best[0] * 1000)
        this_t.append(best[1] * 1000)
    mo, mt = statistics.median(other_t), statistics.median(this_t)
    print(f"cases={len(cases)} other median={mo:.3f}ms worst={max(other_t):.2f}ms  "
          f"this median={mt:.3f}ms worst={max(this_t):.2f}ms  other/this={mo / mt:.2f}  "
          f"same answers {same}/{len(cases)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
