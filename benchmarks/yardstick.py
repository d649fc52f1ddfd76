"""Benchmark: issue 24's yardstick, our strong bots against OpenSpiel's ISMCTS, in all four games.

``time``: per game, a few games of ``strong`` against ``ismcts`` at two budgets (2 and
``--probe`` simulations); CPU time per move of each, the ISMCTS cost per extra simulation, and
the **equal-time budget**: the number of simulations (at least 2, ISMCTSBot's least) whose mean CPU per move is
closest to the strong bot's. Written to ``--out`` (JSON) for ``plan``.

``match GAME A:B --sims K``: games of A against B (4 players, seats A,B,A,B rotating every game,
seeds from ``--seed`` and the game's index), one JSON line per game appended to ``--out``; a rerun
with the same file skips the games already there, so a stopped run resumes. Stops at ``--games``
or at the wall-clock time ``--until HH:MM`` (UTC), whichever comes first.

``table FILE...``: the results table (markdown) of match files (files of one match, played by
several processes with ``--start``, are joined into one row): games, each side's win rate over
its seat-games with a 95% Wilson interval, A's game score (1 when only A's seats win, 0 when
only B's, 1/2 otherwise) with a 95% normal interval over games (the two seats of one game are not
independent; the score's interval is the honest one), and CPU per move of each side.

``plan``: the whole plan in priority order (Mascarade and Tokyo Ghoul both matches; Clue and
Masque strong against ISMCTS; Clue and Masque ISMCTS exact against uniform), ``--jobs`` matches at
a time, budgets from the ``time`` file (made first if missing), then the table. Match files are
named ``GAME-A-B-SIMS[-capN].jsonl``, the names the runs of 2026-12-03 used.

Usage: ``python benchmarks/yardstick.py time --out /tmp/yard/time.json``,
``python benchmarks/yardstick.py match mascarade strong:ismcts --sims 1 --games 300 --out F``,
``python benchmarks/yardstick.py table /tmp/yard/*.jsonl``,
``python benchmarks/yardstick.py plan --dir /tmp/yard --until 21:25``.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import derive_seed
from engine.registry import get_game
from solvers.openspiel.arena import MIN_SIMS, play_one
from solvers.simulate import wilson

GAMES = ("mascarade", "ghoul", "clue", "masque")
PLAYERS = 4
# ISMCTS exact against uniform: both at this budget. With no more simulations than legal actions
# plus one, every visited child has one visit and ISMCTS plays uniformly at random (the belief
# cannot matter); 20 is about twice Mascarade's and Masque's mean number of legal actions.
BELIEF_SIMS = 20
# ISMCTS exact against uniform: rollout caps where full random rollouts cost more than 300 games
# afford (docs/performance.md). Clue: a random rollout never wins (random accusers eliminate
# themselves), so one step loses nothing; Masque: full rollouts take 112 s a game, 20 steps ~26 s.
BELIEF_CAPS = {"clue": 1, "masque": 20}


def _seats(a: str, b: str, g: int) -> list[str]:
    bots = [a if i % 2 == 0 else b for i in range(PLAYERS)]
    return [bots[(i + g) % PLAYERS] for i in range(PLAYERS)]


def one_game(game: str, a: str, b: str, g: int, sims: int, seed: int, cap: int | None = None) -> dict:
    """Game ``g`` of a match: seats, winners, ending, and each side's CPU seconds and moves."""
    config = get_game(game).config_from_json({"players": PLAYERS})
    seats = _seats(a, b, g)
    clock: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    winners, reason, moves = play_one(game, config, seats, derive_seed(seed, "game", g), sims, clock, cap)
    return {"game": game, "a": a, "b": b, "sims": sims, "cap": cap, "seed": seed, "index": g, "seats": seats,
            "winners": winners, "reason": reason, "moves": moves, "wall": round(time.perf_counter() - t0, 3),
            "clock": {k: [round(v[0], 4), v[1]] for k, v in clock.items()}}


def time_games(games: int, probe: int, seed: int) -> dict:
    """Strong and ISMCTS CPU per move at 1 and ``probe`` simulations; the equal-time budget."""
    out: dict = {}
    for game in GAMES:
        per: dict[int, dict[str, list[float]]] = {}
        for sims in (MIN_SIMS, probe):
            tot: dict[str, list[float]] = {}
            for g in range(games):
                r = one_game(game, "strong", "ismcts", g, sims, seed)
                for k, (s, n) in r["clock"].items():
                    t = tot.setdefault(k, [0.0, 0])
                    t[0] += s
                    t[1] += n
            per[sims] = tot
        strong = _ms(per[MIN_SIMS]["strong"], per[probe]["strong"])
        i1 = _ms(per[MIN_SIMS]["ismcts"])
        ip = _ms(per[probe]["ismcts"])
        step = max(0.0, (ip - i1) / (probe - MIN_SIMS))
        base = i1 - MIN_SIMS * step
        budget = MIN_SIMS if step <= 0 else max(MIN_SIMS, round((strong - base) / step))
        out[game] = {"strong_ms": round(strong, 2), f"ismcts_ms_{MIN_SIMS}": round(i1, 2),
                     f"ismcts_ms_{probe}": round(ip, 2),
                     "ms_per_sim": round(step, 2), "ms_base": round(base, 2), "budget": budget,
                     "ismcts_ms_at_budget": round(base + budget * step, 2)}
        print(f"{game:10s} strong {strong:7.2f} ms/move; ISMCTS {i1:7.2f} ms at {MIN_SIMS} sims, "
              f"{ip:7.2f} ms at {probe}: "
              f"{step:6.2f} ms per sim -> equal-time budget {budget} sims", flush=True)
    return out


def _ms(*clocks: list[float]) -> float:
    s = sum(c[0] for c in clocks)
    n = sum(c[1] for c in clocks)
    return s / n * 1000 if n else 0.0


def _deadline(until: str | None) -> float:
    if not until:
        return math.inf
    now = datetime.now(UTC)
    h, m = (int(x) for x in until.split(":"))
    end = now.replace(hour=h, minute=m, second=0, microsecond=0)
    if end <= now:  # 02:05 asked at 23:54 is tomorrow's
        end += timedelta(days=1)
    return time.time() + (end - now).total_seconds()


def match(game: str, a: str, b: str, sims: int, games: int, seed: int, out: Path, until: str | None,
          cap: int | None = None, start: int = 0) -> None:
    """Games ``start``.. of A against B appended to ``out`` (one JSON line each), resuming after the
    ones there. Two processes on one match take disjoint ranges (``--start``) and files; the table
    of their files joined is the table of the whole match (each game's seed is its index's)."""
    done = len(_load(out))
    end = _deadline(until)
    with out.open("a") as f:
        for g in range(start + done, games):
            if time.time() >= end:
                print(f"{game} {a}:{b} stopped at the deadline: {g - start} games from index {start} in {out}",
                      flush=True)
                return
            f.write(json.dumps(one_game(game, a, b, g, sims, seed, cap), sort_keys=True) + "\n")
            f.flush()
    print(f"{game} {a}:{b} done: {games} games", flush=True)


def _load(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def summary(rows: list[dict]) -> dict:
    """Win rates with intervals and CPU per move of one match's games."""
    a, b = rows[0]["a"], rows[0]["b"]
    seats = {a: 0, b: 0}
    wins = {a: 0, b: 0}
    clock = {a: [0.0, 0], b: [0.0, 0]}
    scores = []
    reasons: dict[str, int] = {}
    for r in rows:
        for k in r["seats"]:
            seats[k] += 1
        won = {r["seats"][w] for w in r["winners"]}
        for w in r["winners"]:
            wins[r["seats"][w]] += 1
        scores.append(1.0 if won == {a} else 0.0 if won == {b} else 0.5)
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
        for k, (s, n) in r["clock"].items():
            clock[k][0] += s
            clock[k][1] += n
    n = len(scores)
    m = sum(scores) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in scores) / (n - 1)) if n > 1 else 0.5
    half = 1.959964 * sd / math.sqrt(n)
    return {"game": rows[0]["game"], "a": a, "b": b, "sims": rows[0]["sims"], "cap": rows[0].get("cap"), "games": n,
            "wins": wins, "seats": seats, "wilson": {k: wilson(wins[k], seats[k]) for k in (a, b)},
            "score": m, "score_ci": (max(0.0, m - half), min(1.0, m + half)), "reasons": reasons,
            "ms": {k: _ms(clock[k]) for k in (a, b)}, "moves": sum(r["moves"] for r in rows) / n}


def table(paths: list[Path]) -> str:
    """The markdown table of match files, then each match's endings and mean decisions per game."""
    lines = ["| game | match | sims | games | A won (95% CI) | B won (95% CI) | A's score (95% CI) "
             "| CPU per move A / B |",
             "|---|---|---|---|---|---|---|---|"]
    notes = []
    groups: dict[tuple, list[dict]] = {}
    for p in paths:
        for r in _load(p):
            groups.setdefault((r["game"], r["a"], r["b"], r["sims"], r.get("cap"), r["seed"]), []).append(r)
    for rows in groups.values():
        rows.sort(key=lambda r: r["index"])
        if len({r["index"] for r in rows}) != len(rows):
            raise SystemExit(f"{rows[0]['game']} {rows[0]['a']}:{rows[0]['b']}: a game index is in two files")
        s = summary(rows)
        notes.append(f"{s['game']} {s['a']} vs {s['b']}: {s['moves']:.0f} decisions per game, endings "
                     f"{dict(sorted(s['reasons'].items()))}")
        a, b = s["a"], s["b"]
        cell = {}
        for k in (a, b):
            lo, hi = s["wilson"][k]
            cell[k] = f"{s['wins'][k]}/{s['seats'][k]}, {s['wins'][k] / s['seats'][k]:.1%} ({lo:.1%}-{hi:.1%})"
        lo, hi = s["score_ci"]
        sims = f"{s['sims']}" + (f" (rollouts capped at {s['cap']})" if s["cap"] else "")
        lines.append(f"| {s['game']} | {a} vs {b} | {sims} | {s['games']} | {cell[a]} | {cell[b]} | "
                     f"{s['score']:.3f} ({lo:.3f}-{hi:.3f}) | {s['ms'][a]:.1f} / {s['ms'][b]:.1f} ms |")
    return "\n".join([*lines, "", *notes])


def plan(folder: Path, jobs: int, games: int, seed: int, until: str | None, belief_sims: int) -> None:
    """Every match in priority order, ``jobs`` at a time, each its own niced process; then the table.

    Strong against ISMCTS at the equal-time budget; where that is ISMCTSBot's least (2), whose move is
    uniform over legal actions whatever the rollouts return, rollouts are capped at 1 step (the same
    games, sooner: tests/solvers/test_openspiel.py). ISMCTS exact against uniform at the equal-time
    budget where that is a search (above 2), else at ``belief_sims``, rollouts capped as
    ``BELIEF_CAPS`` says."""
    folder.mkdir(parents=True, exist_ok=True)
    tfile = folder / "time.json"
    if not tfile.exists():
        tfile.write_text(json.dumps(time_games(1, 6, seed), indent=1))
    budgets = {g: v["budget"] for g, v in json.loads(tfile.read_text()).items()}
    strong = {g: (budgets[g], 1 if budgets[g] == MIN_SIMS else None) for g in GAMES}
    belief = {g: (budgets[g] if budgets[g] > MIN_SIMS else belief_sims, BELIEF_CAPS.get(g)) for g in GAMES}
    todo = []
    for game in ("mascarade", "ghoul"):
        todo += [(game, "strong:ismcts", *strong[game]), (game, "ismcts:ismcts-uniform", *belief[game])]
    todo += [(g, "strong:ismcts", *strong[g]) for g in ("clue", "masque")]
    todo += [(g, "ismcts:ismcts-uniform", *belief[g]) for g in ("clue", "masque")]
    files = []
    running: list[subprocess.Popen] = []
    for game, pair, sims, cap in todo:
        f = folder / f"{game}-{pair.replace(':', '-')}-{sims}{'-cap' + str(cap) if cap else ''}.jsonl"
        files.append(f)
        while len(running) >= jobs:
            time.sleep(5)
            running = [p for p in running if p.poll() is None]
        cmd = ["nice", "-n", "5", sys.executable, __file__, "match", game, pair, "--sims", str(sims),
               "--games", str(games), "--seed", str(seed), "--out", str(f)]
        cmd += (["--until", until] if until else []) + (["--rollout-cap", str(cap)] if cap else [])
        running.append(subprocess.Popen(cmd))
    for p in running:
        p.wait()
    print(table(files))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    t = sub.add_parser("time")
    t.add_argument("--games", type=int, default=1)
    t.add_argument("--probe", type=int, default=6)
    t.add_argument("--out", type=Path)
    m = sub.add_parser("match")
    m.add_argument("game", choices=GAMES)
    m.add_argument("pair", help="A:B, e.g. strong:ismcts")
    m.add_argument("--sims", type=int, required=True)
    m.add_argument("--out", type=Path, required=True)
    m.add_argument("--until", help="stop at this UTC time, HH:MM")
    m.add_argument("--rollout-cap", type=int, help="ISMCTS rollouts stop after this many steps (valued 0)")
    m.add_argument("--start", type=int, default=0, help="first game index (another process plays the ones before)")
    tb = sub.add_parser("table")
    tb.add_argument("files", nargs="+", type=Path)
    pl = sub.add_parser("plan")
    pl.add_argument("--dir", type=Path, default=Path("/tmp/yard"))
    pl.add_argument("--jobs", type=int, default=2)
    pl.add_argument("--until", help="stop every match at this UTC time, HH:MM")
    pl.add_argument("--belief-sims", type=int, default=BELIEF_SIMS)
    for p in (t, m, pl):
        p.add_argument("--seed", type=int, default=1)
    for p in (m, pl):
        p.add_argument("--games", type=int, default=300)
    args = ap.parse_args()
    if args.what == "time":
        res = time_games(args.games, args.probe, args.seed)
        if args.out:
            args.out.write_text(json.dumps(res, indent=1))
    elif args.what == "match":
        a, b = args.pair.split(":", 1)
        match(args.game, a, b, args.sims, args.games, args.seed, args.out, args.until, args.rollout_cap, args.start)
    elif args.what == "table":
        print(table(args.files))
    else:
        plan(args.dir, args.jobs, args.games, args.seed, args.until, args.belief_sims)


if __name__ == "__main__":
    main()
