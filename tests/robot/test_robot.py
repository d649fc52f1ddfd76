"""The UI robot over every game × mode × size, the shared screens and the served lobby.

The CI sample (``-m robot``) takes ``ROBOT_STEPS`` seeded steps per scenario; the soak (``-m soak``)
takes ``ROBOT_SOAK_STEPS`` per scenario and seed, from seed ``ROBOT_SOAK_SEED``, within
``ROBOT_SOAK_SECONDS`` in all, appending its count after every run to ``ROBOT_SOAK_PROGRESS`` if set. A violation
is shrunk to a short sequence of steps, printed so it can be kept as a regression test.
"""

from __future__ import annotations

import os
import time

import pytest
from harness import Scenario, Violation, all_scenarios, run_robot, shrink

SCENARIOS = all_scenarios()
SAMPLE_STEPS = {"play": 30, "assist": 30, "lobby": 20}  # others: 12


def _run(scenario: Scenario, seed: int, steps: int, stats: dict | None = None, *, shrink_it: bool = True) -> int:
    try:
        return run_robot(scenario, seed, steps, stats=stats)
    except Violation as v:
        if not shrink_it:
            raise
        short = shrink(scenario, seed, v.steps, v.message, budget=12)
        where = (scenario.kind, scenario.game, scenario.size)
        raise Violation(f"{v.message}\nshrunk to {len(short)} steps: replay(Scenario{where!r}, {seed}, {short!r})",
                        v.steps) from None


@pytest.mark.robot
@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_robot_sample(scenario: Scenario) -> None:
    steps = int(os.environ.get("ROBOT_STEPS", 0)) or SAMPLE_STEPS.get(scenario.kind, 12)
    done = _run(scenario, 1, steps)
    assert done > 0


@pytest.mark.soak
def test_robot_soak() -> None:
    """Every scenario in turn with new seeds until the step count or the time cap is reached."""
    per_run = int(os.environ.get("ROBOT_SOAK_STEPS", 150))
    total_wanted = int(os.environ.get("ROBOT_SOAK_TOTAL", 20000))
    deadline = time.monotonic() + float(os.environ.get("ROBOT_SOAK_SECONDS", 3600))
    total = runs = 0
    seed = int(os.environ.get("ROBOT_SOAK_SEED", 100))  # shards of one soak start at different seeds
    stats: dict = {}
    found: list[str] = []
    progress = os.environ.get("ROBOT_SOAK_PROGRESS")
    while total < total_wanted and time.monotonic() < deadline:
        for scenario in SCENARIOS:
            if time.monotonic() >= deadline or total >= total_wanted:
                break
            try:
                total += run_robot(scenario, seed, per_run, stats=stats)
            except Violation as v:
                total += len(v.steps)
                found.append(f"{scenario.name} seed {seed} step {len(v.steps)}: {v.message.splitlines()[0]}")
            runs += 1
            if progress:  # a long soak leaves its count behind even if it is stopped
                with open(progress, "a", encoding="utf-8") as f:
                    f.write(f"{total} steps, {runs} runs, seed {seed}, {len(found)} violations\n")
                    if found and found[-1].startswith(f"{scenario.name} seed {seed} "):
                        f.write(f"  {found[-1]}\n")
        seed += 1
    print(f"\nrobot soak: {total} steps in {runs} runs over {len(SCENARIOS)} scenarios, {len(found)} violations; "
          "seconds per kind: " + ", ".join(f"{k} {v:.0f}" for k, v in sorted(stats.items())))
    for line in found:
        print("  ", line)
    assert not found, "\n".join(found)
