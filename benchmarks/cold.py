"""What a person waits for, timed from a cold process (imports included).

Every measurement runs in a fresh ``python`` process (``sys.executable``), so nothing is imported
or cached beforehand; each is repeated (``--repeats``, default 5) and the median and worst printed:

* ``why``: the assistant is open on a table (its screen's module imported, the sheet solved, as the
  app has done before a tap), then the person asks "why": the game's explain module is imported,
  an explainer made and the first certain fact explained (``first``), then every other certain
  fact the Why view lists for the sheet (``sheet``: the whole list, as its worker fills it).
* ``note``: the assistant is open on the game's largest table (Clue 6 players, Mascarade 12,
  Masque 7, Tokyo Ghoul 8), the person adds a note, and the sheet's answer is computed
  (the screen's ``solve_log``, with the solver's own imports on first use).
  With ``--warm-up`` the screen's ``WARM_UP`` (what the assistant loads in a worker when it opens;
  Clue: CP-SAT) is loaded before the tap, as in the app a moment after it opens.
* ``cli``: ``unmask solve GAME FILE --explain`` on the examples and on the generated tables
  (a 12-player Mascarade file of 50 entries among them); the whole process.

Columns: ``wait`` is the wall time of what the person waits for (inside the process, from the
tap or the note to the answer), ``cpu`` its CPU time (``time.process_time``, every thread);
``proc`` the whole process from outside (start-up and set-up included) and its CPU (user +
system of the child, ``os.wait4``).  The logs are seeded engine games
(:func:`solvers.explain_samples.sample`), written once to a temporary directory.

Run: ``python benchmarks/cold.py [--repeats 5] [--only why,note,cli] [--games clue,ghoul] [--warm-up]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# game -> (players at the largest table, entries, seed); the note case and the why case use them
LARGEST = {"clue": (6, 40, 1), "mascarade": (12, 50, 1), "masque": (7, 40, 1), "ghoul": (8, 40, 1)}
# more note cases: Tokyo Ghoul at 8 players past the card-flow budget (sampled deals, CP-SAT's certain facts)
MORE_NOTES = {"ghoul": [(8, 40, 6)]}
# the Why view's logs: the explanation benchmark's tables (60 entries), and Tokyo Ghoul at 6 players
WHY = {"clue": (6, 60, 1), "mascarade": (6, 60, 2), "masque": (7, 60, 1), "ghoul": (6, 60, 2)}

_HEAD = """
import json, sys, time
sys.path.insert(0, {root!r})
from tui.storage import read_session_file
s = read_session_file({file!r})
config, log = s.config, s.log
import tui.{game}.assist as screen
"""

_WHY = _HEAD + """
screen.solve_log(config, log)  # the sheet the person is looking at
if {warm!r}:  # what the assistant loads in a worker when it opens (AssistScreenBase.WARM_UP)
    warm = getattr(screen.AssistScreen, "WARM_UP", None)
    if warm is not None:
        warm()
t0, c0 = time.perf_counter(), time.process_time()
from solvers.why import explain_module
ex = explain_module({game!r}).explainer(config, log)
facts = list(ex.facts)
if facts:
    ex.why(facts[0])
t1, c1 = time.perf_counter(), time.process_time()
for f in facts[1:]:
    ex.why(f)
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({{"first": [t1 - t0, c1 - c0], "sheet": [t2 - t0, c2 - c0], "facts": len(facts)}}))
"""

_NOTE = _HEAD + """
t0, c0 = time.perf_counter(), time.process_time()
out = screen.solve_log(config, log)
t1, c1 = time.perf_counter(), time.process_time()
print(json.dumps({{"note": [t1 - t0, c1 - c0], "status": out.get("status"), "exact": out.get("exact"),
                  "method": out.get("method")}}))
"""


def session_file(directory: Path, game: str, players: int, entries: int, seed: int) -> Path:
    """A seeded bot game's notes of one seat, as an assist session file."""
    from solvers.explain_samples import sample

    config, log = sample(game, seed, entries=entries, players=players)
    path = directory / f"{game}-{players}p-{len(log)}e-s{seed}.json"
    data = {"format": "unmask-session/1", "game": game, "mode": "assist", "config": config, "log": log}
    path.write_text(json.dumps(data, ensure_ascii=False))
    return path


def run(args: list[str]) -> tuple[float, float, str]:
    """One cold process: (wall s, CPU s of the child, its standard output)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    _pid, _status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(_status)
    return wall, usage.ru_utime + usage.ru_stime, out


def fmt(xs: list[float]) -> str:
    """median / worst, in ms below 1 s."""
    def one(x: float) -> str:
        return f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s"
    return f"{one(statistics.median(xs))} / {one(max(xs))}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--only", default="why,note,cli")
    ap.add_argument("--games", default="clue,mascarade,masque,ghoul")
    ap.add_argument("--warm-up", action="store_true",
                    help="why: the assistant's WARM_UP loaded before the tap, as the app does when it opens")
    a = ap.parse_args()
    only = set(a.only.split(","))
    games = a.games.split(",")
    py = sys.executable
    rows: list[tuple[str, str, str, str, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        cases: list[tuple[str, str, list[str], str]] = []  # (label, what, argv, key in the output)
        for g in games:
            if "why" in only:
                n, e, seed = WHY[g]
                f = session_file(d, g, n, e, seed)
                code = _WHY.format(root=str(ROOT), file=str(f), game=g, warm=a.warm_up)
                cases.append((f"why {g} {f.stem}", "why", [py, "-c", code], ""))
            if "note" in only:
                for n, e, seed in [LARGEST[g], *MORE_NOTES.get(g, [])]:
                    f = session_file(d, g, n, e, seed)
                    code = _NOTE.format(root=str(ROOT), file=str(f), game=g)
                    cases.append((f"note {g} {f.stem}", "note", [py, "-c", code], ""))
        if "cli" in only:
            files = [f for g in games for f in sorted((ROOT / "examples").glob(f"{g}-*.json"))]
            for g in games:
                n, e, seed = LARGEST[g]
                files.append(session_file(d, g, n, e, seed))
            for f in files:
                g = json.loads(f.read_text())["game"]
                cases.append((f"cli {g} {f.stem}", "cli", [py, "-m", "tui.cli", "solve", g, str(f), "--explain"], ""))
        for label, what, argv, _ in cases:
            walls, cpus, inner = [], [], []
            for _ in range(a.repeats):
                wall, cpu, out = run(argv)
                walls.append(wall)
                cpus.append(cpu)
                if what != "cli":
                    inner.append(json.loads(out.strip().splitlines()[-1]))
            load = f"{os.getloadavg()[0]:.1f}"
            if what == "why":
                for key in ("first", "sheet"):
                    w = [r[key][0] for r in inner]
                    c = [r[key][1] for r in inner]
                    rows.append((f"{label} ({inner[0]['facts']} facts)" if key == "sheet" else label, key,
                                 fmt(w), fmt(c), f"{fmt(walls)} ({fmt(cpus)} CPU)", load))
            elif what == "note":
                w = [r["note"][0] for r in inner]
                c = [r["note"][1] for r in inner]
                tag = "exact" if inner[0].get("exact") in (True, None) else "not exact"
                if inner[0].get("method"):
                    tag += f", {inner[0]['method']}"
                rows.append((f"{label} [{inner[0]['status']}, {tag}]", "note", fmt(w), fmt(c),
                             f"{fmt(walls)} ({fmt(cpus)} CPU)", load))
            else:
                rows.append((label, "cli", fmt(walls), fmt(cpus), "", load))
            print(" | ".join(rows[-1]), flush=True)
    print()
    print("| case | what | wait: median / worst | CPU: median / worst | whole process (wall, CPU) | load |"
          "\n|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
