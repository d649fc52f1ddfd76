"""CP-SAT through ``solvers.cpsat`` (OR-Tools' C++ helper, no pandas): the very model and answers of
``cp_model``, and a cold process explaining a Clue sheet no longer imports pandas."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solvers import cpsat
from solvers.clue.explain import ClueOracle, clue_explainer
from solvers.clue.model import build_problem
from solvers.explain_samples import sample

ROOT = Path(__file__).resolve().parents[2]
LOGS = [(1, 60, 6), (2, 30, 5), (3, 12, 6)]  # (seed, entries, players)


@pytest.fixture
def backends(monkeypatch):
    """Load the light shells and ``cp_model`` itself; each test switches between them."""
    from ortools.sat.python import cp_model

    light = cpsat._light()
    assert light is not None, "this OR-Tools has no cp_model_helper.CpBaseModel"

    def use(which):
        monkeypatch.setattr(cpsat, "_loaded", light if which == "light" else cp_model)

    return use


@pytest.mark.parametrize(("seed", "entries", "players"), LOGS)
def test_the_light_model_is_cp_models_model(backends, seed, entries, players) -> None:
    config, log = sample("clue", seed, entries=entries, players=players)
    problem = build_problem(config, log)
    protos = []
    for which in ("full", "light"):
        backends(which)
        oracle = ClueOracle(problem)
        oracle._build_model()
        protos.append(str(oracle._model[0].proto))
    assert protos[0] == protos[1]
    assert "exactly_one" in protos[0] and "bool_or" in protos[0]


@pytest.mark.parametrize(("seed", "entries", "players"), LOGS)
def test_the_light_solver_gives_cp_models_explanations_cores_and_verdicts(backends, seed, entries, players) -> None:
    config, log = sample("clue", seed, entries=entries, players=players)
    out = {}
    for which in ("full", "light"):
        backends(which)
        ex = clue_explainer(config, log)
        whys = [(f, ex.why(f)) for f in ex.facts]
        oracle = ClueOracle(build_problem(config, log))
        everything = frozenset(oracle.notes)
        cores = [oracle.core(f) for f in ex.facts[:12]]
        verdicts = [oracle._cpsat_holds(f, frozenset(range(0, len(log), 2))) for f in ex.facts[:12]]
        out[which] = (whys, cores, verdicts, oracle.cpsat_certain(), oracle.certain(everything))
    assert out["light"] == out["full"]
    whys, cores, _verdicts, cp_certain, certain = out["light"]
    assert any(c for c in cores) and cp_certain == certain  # cores were taken; CP-SAT agrees with the counter


def test_a_cold_clue_sheet_of_explanations_loads_no_pandas() -> None:
    """The Why view's CP-SAT cores from a fresh process: OR-Tools' helper only, not ``cp_model``
    (which imports pandas: about half a second of a cold first "why")."""
    code = (
        "import json, sys\n"
        "from solvers.explain_samples import sample\n"
        "from solvers.clue.explain import clue_explainer\n"
        "config, log = sample('clue', 1, entries=60, players=6)\n"
        "ex = clue_explainer(config, log)\n"
        "whys = [ex.why(f) for f in ex.facts]\n"
        "print(json.dumps({'facts': len(whys), 'mods': sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pandas', 'ortools'))}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["facts"] > 10
    assert "ortools.sat.python.cp_model_helper" in out["mods"]  # the cores did use CP-SAT
    assert "ortools.sat.python.cp_model" not in out["mods"]
    assert not any(m.startswith("pandas") for m in out["mods"])


GHOUL_LOGS = [(1, 30, 6), (2, 24, 7), (1, 30, 8)]  # (seed, entries, players)


@pytest.mark.parametrize(("seed", "entries", "players"), GHOUL_LOGS)
def test_tokyo_ghouls_range_checks_build_and_answer_the_same_with_the_light_shells(backends, seed, entries,
                                                                                  players) -> None:
    from solvers.ghoul import cpsat as ghoul_cpsat
    from solvers.ghoul.model import build_problem as ghoul_problem
    from solvers.ghoul.solver import filter_log

    config, log = sample("ghoul", seed, entries=entries, players=players)
    problem = ghoul_problem(config, log)
    f = filter_log(problem)
    out = {}
    for which in ("full", "light"):
        backends(which)
        md = ghoul_cpsat._Model(problem, f.fixed, f.allowed, problem.exchange_chance)
        md.deal(None)
        md.run(problem.entries)
        got = ghoul_cpsat.possible(problem, f.fixed, f.allowed, problem.exchange_chance)
        out[which] = (str(md.m.proto), got)
    assert out["light"] == out["full"]
    assert out["light"][1].solves > 0
