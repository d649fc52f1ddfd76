"""Run the robot by hand: python tests/robot/run_robot.py KIND GAME W H SEED STEPS."""

import sys
import time

from harness import Scenario, Violation, run_robot, shrink

if __name__ == "__main__":
    kind, game, w, h, seed, steps = sys.argv[1:7]
    sc = Scenario(kind, "" if game == "-" else game, (int(w), int(h)))
    t = time.time()
    try:
        stats: dict = {}
        n = run_robot(sc, int(seed), int(steps), stats=stats)
        spent = {k: round(v, 1) for k, v in stats.items()}
        print(f"OK {sc.name} seed {seed}: {n} steps in {time.time() - t:.1f}s", spent)
    except Violation as v:
        print(f"VIOLATION after {len(v.steps)} steps ({time.time() - t:.1f}s): {v.message}")
        print("STEPS", v.steps)
        if "--shrink" in sys.argv:
            short = shrink(sc, int(seed), v.steps, v.message)
            print("SHRUNK to", len(short), "steps:")
            for s in short:
                print("   ", s)
