"""Why is it certain: how long explanations take, for every game.

On the notes of real seats (seeded games, ``solvers.explain_samples``; logs of 60 entries, or the
whole game when it ends sooner), for each game:

* ``one fact``: what a tap costs: a fresh explainer (one solve of the whole log) and one fact's
  minimal set of notes, for every certain fact of the log in turn; median, p90 and worst, in
  milliseconds of wall time (and of the process's CPU time, ``time.process_time``, below it: the
  machine may be shared).
* ``sheet``: every certain fact of the log explained one after the other by one explainer, as the
  Why view's worker does; the total per log (median and worst), and the facts per log.
* oracle calls per fact in the sheet (each a solve of a subset of the notes), and the calls of a
  game's cheaper bound when it has one (Tokyo Ghoul: the per-player bound, asked first) and of
  its upper test (Tokyo Ghoul: the card-flow pass without the rows that cannot reach the end,
  asked when the bound says no).
* per log, the sheet's wall and CPU time, and the load average.
* cold: a game's caches kept across solves (Tokyo Ghoul: the deals of a table) are emptied before
  each sheet and each tap, unless ``--warm``.
* Clue only, ``--compare``: the same with divide and conquer for every fact (the default takes
  CP-SAT cores after the first fact), oracle calls per fact, and CP-SAT's own certain facts (each
  negated fact infeasible) against the exact counter.

Run: ``python benchmarks/explain.py [--logs 8] [--games clue,mascarade,masque,ghoul] [--compare] [--warm]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from solvers.explain_samples import sample
from solvers.why import explain_module


def logs_of(game: str, count: int, entries: int = 60) -> list[tuple[dict, list]]:
    """``count`` sample logs, preferring those that reach ``entries`` entries."""
    full, short = [], []
    for seed in range(count * 6):
        config, log = sample(game, seed, entries=entries)
        (full if len(log) >= entries else short).append((config, log))
        if len(full) >= count:
            break
    return (full + short)[:count]


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def bench(game: str, logs: list[tuple[dict, list]], warm: bool = False, **kw: object) -> dict[str, Any]:
    mod = explain_module(game)
    make = mod.explainer
    one: list[float] = []
    sheets: list[float] = []
    one_cpu: list[float] = []
    sheets_cpu: list[float] = []
    facts = 0
    calls = 0
    bound_calls = 0
    upper_calls = 0
    cold = getattr(mod, "cold", None) if not warm else None  # a game's caches kept across solves
    for config, log in logs:
        if cold is not None:
            cold()
        t0, c0 = time.perf_counter(), time.process_time()
        ex = make(config, log, **kw)
        for fact in ex.facts:
            ex.why(fact)
        sheets.append(time.perf_counter() - t0)
        sheets_cpu.append(time.process_time() - c0)
        facts += len(ex.facts)
        calls += ex.calls
        bound_calls += getattr(ex, "bound_calls", 0)
        upper_calls += getattr(ex, "upper_calls", 0)
        for fact in ex.facts:
            if cold is not None:
                cold()
            t, c = time.perf_counter(), time.process_time()
            make(config, log, **kw).why(fact)
            one.append(time.perf_counter() - t)
            one_cpu.append(time.process_time() - c)
    return {
        "logs": len(logs), "entries": statistics.mean(len(lg) for _, lg in logs), "facts": facts,
        "one_median": 1000 * statistics.median(one), "one_p90": 1000 * pct(one, 0.9), "one_max": 1000 * max(one),
        "sheet_median": statistics.median(sheets), "sheet_max": max(sheets), "calls_per_fact": calls / max(facts, 1),
        "bound_per_fact": bound_calls / max(facts, 1), "upper_per_fact": upper_calls / max(facts, 1),
        "one_cpu_median": 1000 * statistics.median(one_cpu), "one_cpu_p90": 1000 * pct(one_cpu, 0.9),
        "one_cpu_max": 1000 * max(one_cpu), "sheet_cpu_median": statistics.median(sheets_cpu),
        "sheet_cpu_max": max(sheets_cpu), "sheets": sheets, "sheets_cpu": sheets_cpu,
    }


def load() -> str:
    """The 1-minute load average (the machine may be shared: CPU time is the steadier figure)."""
    with open("/proc/loadavg") as fh:
        return fh.read().split()[0]


def show(name: str, r: dict[str, Any]) -> None:
    print(f"{name:<24} {r['logs']:>4} logs, {r['entries']:5.1f} entries, {r['facts']:>5} facts | one fact: median "
          f"{r['one_median']:6.1f} ms, p90 {r['one_p90']:6.1f} ms, worst {r['one_max']:6.0f} ms | sheet: median "
          f"{r['sheet_median']:5.2f} s, worst {r['sheet_max']:5.2f} s | {r['calls_per_fact']:.1f} oracle calls/fact"
          + (f", {r['bound_per_fact']:.1f} bound calls/fact" if r["bound_per_fact"] else "")
          + (f", {r['upper_per_fact']:.1f} upper calls/fact" if r["upper_per_fact"] else ""))
    print(f"{'  CPU time':<24} {'':>38} | one fact: median {r['one_cpu_median']:6.1f} ms, p90 "
          f"{r['one_cpu_p90']:6.1f} ms, worst {r['one_cpu_max']:6.0f} ms | sheet: median "
          f"{r['sheet_cpu_median']:5.2f} s, worst {r['sheet_cpu_max']:5.2f} s")
    sheets = ", ".join(f"{w:.2f}/{c:.2f}" for w, c in zip(r["sheets"], r["sheets_cpu"], strict=True))
    print(f"{'  sheets, wall/CPU (s)':<24} {sheets} | load average {load()}")


def cpsat_figures(logs: list[tuple[dict, list]]) -> None:
    from solvers.clue.explain import ClueOracle
    from solvers.clue.model import build_problem

    times, agree, core_sizes, final_sizes = [], 0, [], []
    for config, log in logs:
        oracle = ClueOracle(build_problem(config, log))
        t = time.perf_counter()
        got = oracle.cpsat_certain()
        times.append(time.perf_counter() - t)
        agree += got == oracle.certain(frozenset(oracle.notes))
        ex = explain_module("clue").explainer(config, log)
        for fact in ex.facts:
            core = oracle.core(fact)
            if core is not None:
                core_sizes.append(len(core))
                final_sizes.append(len(ex.why(fact)))
    print(f"CP-SAT certain facts (every negated fact, one solve each): {agree}/{len(logs)} logs equal the exact "
          f"counter; {statistics.median(times):.2f} s median per log, worst {max(times):.2f} s")
    print(f"CP-SAT cores: mean {statistics.mean(core_sizes):.2f} notes (max {max(core_sizes)}); the explanations "
          f"{statistics.mean(final_sizes):.2f} notes")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--logs", type=int, default=8)
    ap.add_argument("--games", default="clue,mascarade,masque,ghoul")
    ap.add_argument("--compare", action="store_true", help="Clue: with and without CP-SAT cores; CP-SAT facts")
    ap.add_argument("--warm", action="store_true",
                    help="keep a game's caches across sheets and taps (Tokyo Ghoul: the deals of a table)")
    args = ap.parse_args()
    from ortools.sat.python import cp_model  # noqa: F401  (imported once, before any timing)

    for game in args.games.split(","):
        logs = logs_of(game, args.logs)
        if game == "clue":
            show("clue (default)", bench(game, logs))
            if args.compare:
                show("clue (divide & conquer)", bench(game, logs, cpsat=False))
                cpsat_figures(logs)
        else:
            show(game + (" (warm)" if args.warm else ""), bench(game, logs, warm=args.warm))


if __name__ == "__main__":
    main()
