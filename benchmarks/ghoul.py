"""Tokyo Ghoul: Bloody Masquerade figures: playout speed, solve time, bot strength.

* Random playouts: a step is ``legal_actions`` + a uniformly random choice + ``apply`` (which
  copies the state). Target: 30,000 steps/s.
* A full solve (``solvers.ghoul.solver.solve`` with advice) of a seat's observation log, at
  every 3rd decision of seeded random games played to the end (so logs up to the whole game),
  4-8 players, base game and variants; with the share solved exactly (``method`` "flow"), by
  sampled deals with CP-SAT's certain facts (``"sample"``, with the stated 95% error: median,
  worst, share at most 0.02) and by the bound. Target: a 50 ms median, 1 s worst.
* ``--strength N``: strong against heuristic over N seeded 6-player games. Game g is played
  twice on the same deal: all heuristic, and with a strong bot in seat g mod 6. Reported:
  the strong seat's win rate against the heuristic one in that seat, overall, by faction and
  by seat, with 95% confidence intervals. Target: a ratio of at least 1.35.

Speeds are measured in CPU time of this process (``time.process_time``), so that other work
on a shared machine does not distort them.

Run: ``python benchmarks/ghoul.py [--games N] [--strength N]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.core import Rng, derive_seed
from engine.ghoul import GhoulConfig, apply, is_over, legal_actions, new_game, view
from engine.ghoul.data import load_data
from solvers.ghoul.observations import ObservationLog
from solvers.ghoul.solver import solve
from solvers.simulate import wilson
from solvers.table import Table

VARIANTS = [(False, False), (True, False), (False, True), (True, True)]


def playouts(games: int, players: int, mask: bool, support: bool, seed: int) -> tuple[int, float]:
    rng = Rng(seed)
    steps = 0
    t0 = time.process_time()
    for g in range(games):
        s = new_game(GhoulConfig(players=players, mask=mask, support=support), seed + g)
        while not is_over(s):
            s = apply(s, rng.choice(legal_actions(s)))
            steps += 1
    return steps, time.process_time() - t0


def solve_times(
    games: int, players: int, mask: bool, support: bool, seed: int, methods: dict[str, int] | None = None,
    errors: list[float] | None = None,
) -> list[float]:
    """Seconds per full solve, for one seat per checkpoint of random games (``methods`` counts
    how each was solved, ``errors`` gets the stated 95% error of each sampled answer)."""
    out = []
    rng = Rng(seed)
    for g in range(games):
        s = new_game(GhoulConfig(players=players, mask=mask, support=support), seed + g)
        obs = [ObservationLog(i) for i in range(players)]
        step = 0
        while not is_over(s):
            if step % 3 == 0:
                seat = step % players
                obs[seat].update(view(s, seat, obs[seat].since)["events"])
                t0 = time.process_time()
                res = solve(obs[seat].config, obs[seat].entries())
                out.append(time.process_time() - t0)
                assert res["status"] == "ok"
                if methods is not None:
                    methods[res["method"]] = methods.get(res["method"], 0) + 1
                    if res.get("undecided"):  # certain facts CP-SAT could not settle
                        methods["undecided"] = methods.get("undecided", 0) + 1
                if errors is not None and res["method"] == "sample":
                    errors.append(res["error_95"])
            s = apply(s, rng.choice(legal_actions(s)))
            step += 1
    return out


def strength(games: int, seed: int = 1, players: int = 6, progress: bool = False) -> dict:
    """Strong against heuristic on the same deals, seats rotated (see the module docstring)."""
    chars = load_data().characters
    rows: dict[str, list[int]] = {}
    t0 = time.perf_counter()
    for g in range(games):
        seat = g % players
        deal = derive_seed(seed, "game", g)
        config = GhoulConfig(players=players)
        base = Table("ghoul", config, deal, ["heuristic"] * players)
        base.run_bots()
        seats = ["heuristic"] * players
        seats[seat] = "strong"
        t = Table("ghoul", config, deal, seats)
        t.run_bots()
        faction = chars[t.result()["characters"][seat]].faction
        for key in ("all", f"faction {faction}", f"seat {seat}"):
            row = rows.setdefault(key, [0, 0, 0])
            row[0] += 1
            row[1] += seat in base.result()["winners"]
            row[2] += seat in t.result()["winners"]
        if progress and (g + 1) % 50 == 0:
            print(f"  {g + 1} games, {time.perf_counter() - t0:.0f} s", flush=True)
    return {k: {"games": n, "heuristic": h, "strong": s} for k, (n, h, s) in rows.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="random playouts per configuration")
    ap.add_argument("--solve-games", type=int, default=6, help="games whose positions are solved")
    ap.add_argument("--strength", type=int, default=0, help="strong-vs-heuristic games (0: skip)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the strength deals")
    ap.add_argument("--skip-speed", action="store_true", help="only the strength figures")
    ap.add_argument("--solve-only", action="store_true", help="only the solve figures (no playouts)")
    args = ap.parse_args()

    if not args.skip_speed:
        speed(args)
    if args.strength:
        print(
            f"Strong vs heuristic, {args.strength} six-player games (seed {args.seed}), strong seat rotated, same deals"
        )
        res = strength(args.strength, seed=args.seed, progress=True)
        print(f"{'':18} {'games':>6} {'heuristic':>17} {'strong':>17} {'ratio':>6}")
        for key in sorted(res, key=lambda k: (k != "all", k)):
            r = res[key]
            n, h, s = r["games"], r["heuristic"], r["strong"]
            hl, hh = wilson(h, n)
            sl, sh = wilson(s, n)
            ratio = s / h if h else float("inf")
            print(f"{key:18} {n:>6} {h / n:>6.3f} [{hl:.2f},{hh:.2f}] {s / n:>6.3f} [{sl:.2f},{sh:.2f}] {ratio:>6.2f}")


def speed(args: argparse.Namespace) -> None:
    if not args.solve_only:
        playout_speed(args)
    solve_speed(args)


def playout_speed(args: argparse.Namespace) -> None:
    print("Random playouts (CPU time)")
    print(f"{'players':>7} {'mask':>5} {'supp':>5} {'games':>6} {'steps':>7} {'steps/s':>9}")
    rates = []
    for players in (4, 6, 8):
        for mask, support in VARIANTS:
            steps, secs = playouts(args.games, players, mask, support, 1000 * players)
            rates.append(steps / secs)
            print(f"{players:>7} {mask!s:>5} {support!s:>5} {args.games:>6} {steps:>7} {steps / secs:>9,.0f}")
    print(f"median: {statistics.median(rates):,.0f} steps/s (target 30,000)\n")


def solve_speed(args: argparse.Namespace) -> None:
    print("Full solve (solve() with advice, CPU time) of a seat's log, every 3rd decision of random games")
    print("(exact: the card-flow pass; sample: sampled deals + CP-SAT's certain facts, with the stated")
    print(" 95% error's median / worst and the share <= 0.02; bound: the per-player relaxation's")
    print(" probabilities; undec.: answers with certain facts CP-SAT could not settle)")
    print(
        f"{'players':>7} {'mask':>5} {'supp':>5} {'solves':>6} {'exact':>6} {'sample':>6} {'bound':>6} {'undec.':>6} "
        f"{'median ms':>9} {'p90 ms':>7} {'max ms':>7} {'err med':>7} {'err max':>7} {'<=0.02':>6}"
    )
    everything: list[float] = []
    for players in (4, 5, 6, 7, 8):
        for mask, support in VARIANTS:
            methods: dict[str, int] = {}
            errors: list[float] = []
            t = sorted(solve_times(args.solve_games, players, mask, support, 77 * players, methods, errors))
            everything += t
            med = statistics.median(t) * 1000
            p90 = t[int(0.9 * len(t))] * 1000
            share = {k: methods.get(k, 0) / len(t) for k in ("flow", "sample", "bound", "undecided")}
            err = (
                f"{statistics.median(errors):>7.4f} {max(errors):>7.4f} "
                f"{sum(e <= 0.02 for e in errors) / len(errors):>6.0%}"
                if errors
                else f"{'-':>7} {'-':>7} {'-':>6}"
            )
            print(
                f"{players:>7} {mask!s:>5} {support!s:>5} {len(t):>6} {share['flow']:>6.0%} {share['sample']:>6.0%} "
                f"{share['bound']:>6.0%} {share['undecided']:>6.0%} {med:>9.1f} {p90:>7.1f} {t[-1] * 1000:>7.1f} {err}"
            )
    everything.sort()
    print(
        f"all: {statistics.median(everything) * 1000:.1f} ms median, {everything[-1] * 1000:.0f} ms worst "
        "(targets 50 ms, 1 s)\n"
    )


if __name__ == "__main__":
    main()
