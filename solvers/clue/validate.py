"""The Clue assist session's schema check, for callers that want it without solving.

Clue's boundary check is :func:`solvers.clue.model.build_problem`: it reads the config (deck,
players, piles, hand sizes) and every log entry field by field, and raises
:class:`SolverInputError` with one line naming the entry ("Log entry 3: 'Arakh' is listed twice.")
before any counting starts; ``solve`` calls it first.
"""

from __future__ import annotations

from typing import Any

from solvers.clue.model import SolverInputError, build_problem

__all__ = ["SolverInputError", "validate"]


def validate(config: Any, log: Any) -> None:
    """Raise :class:`SolverInputError` (one line) unless ``config`` and ``log`` are a readable Clue table."""
    build_problem(config, log)
