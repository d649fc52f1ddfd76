"""CP-SAT without the import bill: the few model calls the solvers use, straight on OR-Tools' C++ helper.

``ortools.sat.python.cp_model`` imports pandas (and with it numpy's and pandas' whole start-up) at
the top for its vectorised API, which we never use: from a cold process that import took 0.4-0.6 s
of CPU, paid by the first Clue "why" that needed a CP-SAT core (``benchmarks/cold.py``).  Since
OR-Tools 9.12 ``cp_model.CpModel`` and ``CpSolver`` are thin Python shells over the pybind module
``cp_model_helper`` (0.06-0.15 s to import), so the same calls made on it build the *same model
proto* and give the same answers (``tests/solvers/test_cpsat_light.py`` compares the protos and the
verdicts with ``cp_model``'s).  With an older OR-Tools (no ``CpBaseModel`` in the helper),
:func:`load` returns ``cp_model`` itself.

Only what our models use is here (the Clue explainer's and the Tokyo Ghoul range checks'): Boolean
variables, exactly-one, at-most-one, Boolean or/and, implications, enforcement literals, linear
equalities, assumptions, hints, a solve with parameters, its status, values, deterministic time
and infeasible-assumption core.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

__all__ = ["load"]

_loaded: Any = None
_lock = threading.Lock()


def load() -> Any:
    """A module-like object with ``CpModel``, ``CpSolver`` and the statuses (``INFEASIBLE``,
    ``FEASIBLE``, ``OPTIMAL``, ``UNKNOWN``); imported once, on first use."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = _light() or _full()
        return _loaded


def _full() -> Any:
    from ortools.sat.python import cp_model

    return cp_model


def _light() -> Any:
    """The shells over ``cp_model_helper``, or None when this OR-Tools has no such helper."""
    try:
        from ortools.sat.python import cp_model_helper as cmh
        from ortools.util.python.sorted_interval_list import Domain
    except ImportError:
        return None
    if not hasattr(cmh, "CpBaseModel") or not hasattr(cmh.CpBaseModel, "_add_bool_argument_constraint"):
        return None

    # The pybind base's own (unstubbed) methods that cp_model.CpModel calls for these constraints.
    bool_argument = cmh.CpBaseModel._add_bool_argument_constraint
    bounded_linear = cmh.CpBaseModel._add_bounded_linear_expression  # type: ignore[attr-defined]

    class CpModel(cmh.CpBaseModel):
        """The calls of ``cp_model.CpModel`` we use, made the way it makes them."""

        def __init__(self) -> None:
            cmh.CpBaseModel.__init__(self, None)

        @property
        def proto(self) -> Any:
            return self.model_proto

        def new_bool_var(self, name: str) -> Any:
            return cmh.IntVar(self.model_proto).with_name(name).with_domain(Domain(0, 1))

        def add_exactly_one(self, *literals: Any) -> Any:
            return bool_argument(self, cmh.BoolArgumentConstraint.exactly_one, *literals)

        def add_bool_or(self, *literals: Any) -> Any:
            return bool_argument(self, cmh.BoolArgumentConstraint.bool_or, *literals)

        def add_at_most_one(self, *literals: Any) -> Any:
            return bool_argument(self, cmh.BoolArgumentConstraint.at_most_one, *literals)

        def add_bool_and(self, *literals: Any) -> Any:
            return bool_argument(self, cmh.BoolArgumentConstraint.bool_and, *literals)

        def add_implication(self, a: Any, b: Any) -> Any:
            return self.add_bool_and(b).only_enforce_if(a)

        def add_hint(self, var: Any, value: Any) -> None:
            hint = self.model_proto.solution_hint
            if var.index >= 0:
                hint.vars.append(var.index)
                hint.values.append(int(value))
            else:
                hint.vars.append(-var.index - 1)
                hint.values.append(int(not value))

        def clear_hints(self) -> None:
            self.model_proto.clear_solution_hint()

        def add(self, ct: Any) -> Any:
            if isinstance(ct, cmh.BoundedLinearExpression):
                return bounded_linear(self, ct)
            if self.is_boolean_value(ct):  # an empty sum compared: always true or always false
                return self.add_bool_or([True] if ct else [])
            raise TypeError(f"not supported: CpModel.add({type(ct).__name__!r})")

        def add_assumptions(self, literals: Iterable[Any]) -> None:
            for lit in literals:
                self.model_proto.assumptions.append(self.get_or_make_boolean_index(lit))

        def clear_assumptions(self) -> None:
            self.model_proto.assumptions.clear()

    class CpSolver:
        """``cp_model.CpSolver``'s solve, stop and core, on the helper's solve wrapper."""

        def __init__(self) -> None:
            self.parameters = cmh.SatParameters()
            self._response: Any = None
            self._wrapper: Any = None
            self._lock = threading.Lock()

        def solve(self, model: CpModel) -> Any:
            with self._lock:
                self._wrapper = cmh.SolveWrapper()
            self._wrapper.set_parameters(self.parameters)
            self._response = self._wrapper.solve(model.proto)
            with self._lock:
                self._wrapper = None
            return self._response.status

        def stop_search(self) -> None:
            with self._lock:
                if self._wrapper is not None:
                    self._wrapper.stop_search()

        def _checked(self) -> Any:
            if self._response is None:
                raise RuntimeError("solve() has not been called.")
            return self._response

        def sufficient_assumptions_for_infeasibility(self) -> Any:
            return cmh.ResponseHelper.sufficient_assumptions_for_infeasibility(self._checked())

        @property
        def deterministic_time(self) -> float:
            """The last solve's deterministic time (CP-SAT's work units: a count, not a clock)."""
            return float(self._checked().deterministic_time)

        def boolean_value(self, literal: Any) -> bool:
            return bool(cmh.ResponseHelper.boolean_value(self._checked(), literal))

    s = cmh.CpSolverStatus
    return SimpleNamespace(CpModel=CpModel, CpSolver=CpSolver, INFEASIBLE=s.INFEASIBLE, FEASIBLE=s.FEASIBLE,
                           OPTIMAL=s.OPTIMAL, UNKNOWN=s.UNKNOWN, MODEL_INVALID=s.MODEL_INVALID)
