"""The Masque assist session's schema check, for callers that want it without solving.

Masque's boundary check is :func:`solvers.masque.solver.read_input`: it reads the config and
every log entry field by field and raises :class:`SolverInputError` with one line naming the
entry ("Log entry 3: 'purple' is not a room; ...") before anything is solved; ``solve`` calls it
first.
"""

from __future__ import annotations

from typing import Any

from solvers.masque.solver import SolverInputError, read_input

__all__ = ["SolverInputError", "validate"]


def validate(config: Any, log: Any) -> None:
    """Raise :class:`SolverInputError` (one line) unless ``config`` and ``log`` are a readable Masque session."""
    read_input(config, log)
