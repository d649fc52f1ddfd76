"""Run every scenario once and list the violations (a bug hunt): python tests/robot/sweep.py SEED STEPS [FILTER]."""

import os
import sys
import tempfile
import time

from harness import Violation, all_scenarios, run_robot

if __name__ == "__main__":
    seed, steps = int(sys.argv[1]), int(sys.argv[2])
    only = sys.argv[3] if len(sys.argv) > 3 else ""
    for sc in all_scenarios():
        if only and only not in sc.name:
            continue
        os.environ["UNMASK_DATA_DIR"] = tempfile.mkdtemp(prefix="robot-")
        t = time.time()
        try:
            n = run_robot(sc, seed, steps)
            print(f"OK   {sc.name}: {n} steps {time.time() - t:.0f}s", flush=True)
        except Violation as v:
            print(f"FAIL {sc.name} after {len(v.steps)} steps {time.time() - t:.0f}s: {v.message}", flush=True)
            print("     steps:", v.steps[-8:], flush=True)
        except Exception as e:
            print(f"ERR  {sc.name}: {e!r}", flush=True)
